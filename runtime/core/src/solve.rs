//! Nonlinear and linear solves: LU with partial pivoting (after the static pivots a system knows
//! before its entries, [`ReducedLu`]), rank-revealing QR with minimum-norm least-squares solves,
//! and Newton's method with the exact Jacobian (full or simplified, LU or
//! minimum-norm updates). Each is written once for a [`Space`]: [`Fixed`]`<N>` (sizes known at
//! compile time, arrays on the stack) or [`Dynamic`] (known at run time, buffers allocated when
//! the solver is made). No heap allocation on the success path of a solve.

mod lu;
mod newton;
mod qr;
mod reduced;
mod space;
#[cfg(test)]
mod testing;

pub use lu::{Lu, SingularMatrix};
pub use newton::{
    JacobianUpdate, LinearSolve, Newton, NewtonError, NewtonOptions, NewtonReport, NonlinearSystem,
    SIMPLIFIED_REFRESH, STATIC_PIVOTS_FROM,
};
pub use qr::{LeastSquares, NonFiniteMatrix, Qr, default_rank_tolerance};
pub use reduced::{InvalidPivots, ReducedLu};
pub use space::{Buffer, Dynamic, Fixed, Space};
