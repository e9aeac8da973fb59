//! Problem traits implemented by the derive macros and consumed by the integrators
//! (defined in `sparkgen-core`, shared with the generated steppers).
//!
//! | trait or view | problem | used by |
//! |---|---|---|
//! | [`DegenerateLagrangian`] | `L(q, v) = ϑ(q)·v − H(q)` | SLRK, VPRK on degenerate Lagrangians |
//! | [`Lagrangian`] | general `L(q, v)` | VPARK through [`LagrangianOde`] |
//! | [`HolonomicSystem`] | `H = ½ pᵀM⁻¹p + V(q)`, `c(q) = 0` | RATTLE / SHAKE |
//! | [`ImplicitDae`] | `q̇ = v + u`, `ṗ = f + g`, `p = ϑ(q, v)`, `0 = φ(q, p)` | SPARK, VPARK, VSPARK |
//! | [`LagrangianDae`] | a [`DegenerateLagrangian`] as an [`ImplicitDae`]: `u = λ`, `g = Jᵀλ`, `φ = p − ϑ(q)` | SPARK, VPARK, VSPARK |
//! | [`LagrangianOde`] | a [`Lagrangian`] as an [`ImplicitDae`] with `M = 0`: `ϑ = ∂L/∂v`, `f = ∂L/∂q` | VPARK (there VPRK) |

pub use sparkgen_core::problem::*;
/// The derives share the traits' names (like serde's): `use sparkgen::problem::Lagrangian;`
/// brings both the trait and `#[derive(Lagrangian)]` into scope.
pub use sparkgen_macros::{
    DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae, Lagrangian,
};
