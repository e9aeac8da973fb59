//! Problem traits implemented by the derive macros and consumed by the integrators.
//!
//! Every trait is generic over the compile-time dimension (`D` positions, `M` constraints) because
//! associated consts cannot size arrays on stable Rust. All methods take fixed-size nalgebra
//! vectors by reference and return fixed-size vectors or matrices **by value**: the results live on
//! the stack (`SVector`/`SMatrix` are `Copy` arrays), so no method allocates. Matrix index
//! conventions are stated per method; `(A)_ij` is row `i`, column `j`.
//!
//! | trait or view | problem | used by |
//! |---|---|---|
//! | [`DegenerateLagrangian`] | `L(q, v) = ϑ(q)·v − H(q)` | SLRK, VPRK on degenerate Lagrangians |
//! | [`Lagrangian`] | general `L(q, v)` | VPARK through [`LagrangianOde`] |
//! | [`HolonomicSystem`] | `H = ½ pᵀM⁻¹p + V(q)`, `c(q) = 0` | RATTLE / SHAKE |
//! | [`DaeConstraint`] | `u(q, p, λ)`, `g(q, p, λ)`, `0 = φ(q, p)`: the part of the two DAEs below they share | SPARK family |
//! | [`ImplicitDae`] | `q̇ = v + u`, `ṗ = f + g`, `p = ϑ(q, v)`, `0 = φ(q, p)` | SPARK, VPARK, VSPARK |
//! | [`LagrangianDae`] | a [`DegenerateLagrangian`] as an [`ImplicitDae`]: `u = λ`, `g = Jᵀλ`, `φ = p − ϑ(q)` | SPARK, VPARK, VSPARK |
//! | [`LagrangianOde`] | a [`Lagrangian`] as an [`ImplicitDae`] with `M = 0`: `ϑ = ∂L/∂v`, `f = ∂L/∂q` | VPARK (there VPRK) |
//! | [`HamiltonianDae`] | `q̇ = v(q, p) + u`, `ṗ = f(q, p) + g`, `0 = φ(q, p)` | HSPARK, HPARK |
//! | [`DiracHamiltonian`] | a [`DegenerateLagrangian`] as a [`HamiltonianDae`]: `v = 0`, `f = −∇H`, `u = λ`, `g = Jᵀλ`, `φ = p − ϑ(q)` | HSPARK, HPARK |

mod dae_constraint;
mod degenerate_lagrangian;
mod dirac_hamiltonian;
mod hamiltonian_dae;
mod holonomic_system;
mod implicit_dae;
mod lagrangian;
mod lagrangian_dae;
mod lagrangian_ode;

pub use dae_constraint::DaeConstraint;
pub use degenerate_lagrangian::DegenerateLagrangian;
pub use dirac_hamiltonian::DiracHamiltonian;
pub use hamiltonian_dae::HamiltonianDae;
pub use holonomic_system::{HolonomicSystem, MassMatrixError, check_mass_matrix};
pub use implicit_dae::ImplicitDae;
pub use lagrangian::{Lagrangian, inverse_legendre};
pub use lagrangian_dae::LagrangianDae;
pub use lagrangian_ode::{LagrangianOde, affine_velocity};

/// A position, velocity or momentum vector of dimension `D`.
pub type Vector<const D: usize> = nalgebra::SVector<f64, D>;

/// An `R × C` matrix of `f64`, stored on the stack.
pub type Matrix<const R: usize, const C: usize> = nalgebra::SMatrix<f64, R, C>;
