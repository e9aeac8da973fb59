//! RATTLE and SHAKE for mechanical systems with holonomic constraints
//! ([`HolonomicSystem`](crate::problem::HolonomicSystem): `H = ½ pᵀM⁻¹p + V(q)`, `c(q) = 0`),
//! hand-written once over nalgebra storage of compile-time or run-time size ([`Geometry`]): the
//! fixed-size stack types for a `HolonomicSystem<D, M>`, vectors of run-time length for a
//! problem file of any shape ([`run_sized_into`]).
//!
//! With `G(q) = Dc(q)` (`M × D`) and the Gram matrix `A(q) = G(q) M⁻¹ G(q)ᵀ`, one RATTLE step of
//! size h is the scaled classical step of seed 001:
//!
//! ```text
//! p½ = p − (h/2) ∇V(q) − h G(q)ᵀ λ
//! q₁ = q + h M⁻¹ p½,                      c(q₁) = 0
//! p₁ = p½ − (h/2) ∇V(q₁) − h G(q₁)ᵀ μ,    G(q₁) M⁻¹ p₁ = 0
//! ```
//!
//! (the impulses are `h Gᵀλ` and `h Gᵀμ`; scaling `c` by `s` scales λ and μ by `1/s`). The
//! position multipliers λ solve `M` nonlinear equations by Newton's method ([`multipliers`]);
//! the velocity multipliers μ one linear system with matrix `A(q₁)`. SHAKE ([`shake`]) is the
//! same position update written on positions only, `q_{n+1} − 2q_n + q_{n−1} =
//! −h² M⁻¹(∇V(q_n) + G(q_n)ᵀ λ_n)`, with central-difference momenta.
//!
//! [`Rattle`] and [`Shake`] are method values for [`crate::solve`](fn@crate::solve), like the generated stage
//! methods (`solve(&pendulum, Rattle, q0, p0, &Options::new(h, n))`), with the one
//! [`Options`](crate::integrate::Options) (the multiplier tolerances in its `constraints`, see
//! [`Tolerances`]); [`RattleStepper`] and [`ShakeStepper`] take one step at a time. Every step
//! checks the conditioning of `A` ([`gram`]); every failure is a typed
//! [`IntegrateError`](crate::error::IntegrateError) carrying the step, the time and the
//! numbers, returned together with the trajectory so far
//! ([`Failure`](crate::solution::Failure)).
//!
//! [`distance`] runs the same RATTLE on run-time sized storage for particles held by distance
//! constraints (the form molecular-dynamics users have), with band solves: `O(n)` per step for
//! a chain.

mod consistency;
mod core;
pub mod distance;
mod error;
pub mod geometry;
pub mod gram;
pub mod multipliers;
mod options;
pub mod problems;
mod rattle;
pub mod shake;
mod sized;
mod stages;
mod tangent;

pub(crate) use consistency::worst_residuals;
pub use consistency::{ConsistencyResiduals, consistency_residuals, project};
pub use geometry::Geometry;
pub use options::{MultiplierNewton, Tolerances};
pub use rattle::{Rattle, RattleStep, RattleStepper};
pub use shake::{Shake, ShakeStepper};
pub use sized::{SizedMethod, run_sized_into};
pub(crate) use stages::run_stages;
