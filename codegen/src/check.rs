//! Property checks of Runge–Kutta tableaus in working precision.
//!
//! Every check takes plain `rug::Float` data — a row-major s×s matrix `a: &[Vec<Float>]`, weights
//! `b`, nodes `c` — computes at the largest precision among its inputs (at least 128 bits), and
//! returns residual magnitudes (max |residual|) next to any decision taken with a tolerance `tol`.
//! Conventions follow RungeKutta.jl (reference §0): stage Q_i = q_n + h Σ_j a_ij V_j, update
//! q_{n+1} = q_n + h Σ_i b_i V_i.
//!
//! * [`simplifying`]: B(p), C(q), D(r) residuals and levels;
//! * [`order`](mod@order): classical order from rooted-tree conditions (single tableaus and partitioned pairs);
//! * [`symplectic`]: symplecticity b_i a_ij + b_j a_ji = b_i b_j (and its partitioned form) and symmetry;
//! * [`stability`]: R(z) = det(I − zA + z𝟙bᵀ)/det(I − zA) and R(∞).
//!
//! To measure the residuals of rounded (e.g. f64) constants, convert them exactly into `Float`s
//! (`Float::with_val(53, x)` is exact): the arithmetic runs at ≥ 128 bits, so the residual
//! reflects the constants, not the arithmetic.

mod dense;
mod error;
pub mod order;
mod shape;
pub mod simplifying;
pub mod stability;
pub mod symplectic;
mod trees;

pub use error::CheckError;
pub use order::{
    DEFAULT_MAX_STAGE_VECTORS, LowerBoundMethod, OrderOptions, OrderReport, UpperBound,
    UpperBoundMethod, order, order_partitioned,
};
pub use simplifying::{SimplifyingLevels, b_residual, c_residual, d_residual, simplifying_levels};
pub use stability::{RInfinity, StabilityFunction, stability_function};
pub use symplectic::{
    PairSymplecticity, Symmetry, symmetry_residual, symplecticity_residual,
    symplecticity_residual_partitioned,
};

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod reference_table;
#[cfg(test)]
mod reference_trees;
