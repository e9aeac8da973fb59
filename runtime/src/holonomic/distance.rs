//! RATTLE for particles held by distance constraints, the form molecular-dynamics users have, on
//! run-time sized storage: a chain of 1024 links is practical.
//!
//! A [`DistanceConstraints`] system has `n` particles in `d = 2` or `3` dimensions with masses
//! `m_k` (coordinates `q = (x₁, …, x_n)`, `x_k ∈ ℝᵈ`, diagonal mass matrix), a [`Potential`]
//! `V(q)`, and bonds `b = (i, j, ℓ_b)` between two particles or between a particle and a fixed
//! anchor point `a` (then `x_j` reads `a`), with the constraints
//!
//! ```text
//! c_b(q) = ½ (|x_i − x_j|² − ℓ_b²),     ∇_{x_i} c_b = d_b,  ∇_{x_j} c_b = −d_b,  d_b = x_i − x_j.
//! ```
//!
//! The factor ½ makes the gradient the bond vector itself, so the multiplier `λ_b` is the
//! bond's tension per unit length (scaling `c` by `s` scales the multipliers by `1/s`: they are
//! half those of `|x_i − x_j|² − ℓ²`).
//!
//! The step is RATTLE exactly as on the fixed-size path ([`super::Rattle`], same
//! [`Tolerances`](super::Tolerances) semantics, errors, consistency check, projection and
//! restoration, with lengths that include the anchor points). The Gram matrix `A = G M⁻¹ Gᵀ`
//! has `A_bb' ≠ 0` only when bonds `b` and `b'` share a particle: with the bonds numbered along
//! the molecule it is banded, tridiagonal for a chain. All solves are band LU factorisations,
//! `O(n w²)` for half-bandwidth `w` (why not a general sparse Cholesky: see the `band` module),
//! in buffers allocated once per stepper, so a step of a chain costs `O(n)` and allocates
//! nothing. The rank check of `A` uses `O(n)` eigenvalue estimates (the `conditioning` module)
//! instead of a dense eigen-decomposition.
//!
//! Both Newton variants of [`MultiplierNewton`](super::MultiplierNewton) are band solves, and
//! both reach round-off. Measured on hanging chains (test `distance_newton`, bench
//! `distance_chain`, fastest of 100 samples on a loaded 2-core machine): exact Newton needs
//! 1.0–1.1 iterations per step against 1.0–2.6 for the simplified one, but each exact iteration
//! assembles and factors a band matrix; exact Newton is as fast or faster (by up to 30 %) up
//! to 64 links, the simplified one 15–20 % faster from 256 links on. The default stays the simplified one (as
//! on the fixed-size path), the faster where this path matters.

mod band;
mod chain;
mod conditioning;
mod geometry;
mod model;
mod potential;
mod rattle;
mod solution;
mod workspace;

pub use chain::{planar_chain, planar_chain_state};
pub use model::{Bond, BondEnd, DistanceConstraints, ModelError};
pub use potential::{FnPotential, Gravity, Particles, Potential};
pub use rattle::{DistanceRattle, DistanceStep, integrate_distance_rattle};
pub use solution::{DistanceFailure, DistanceSolution};
pub use workspace::{consistency_residuals, project};
