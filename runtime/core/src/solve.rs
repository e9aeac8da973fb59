//! Nonlinear and linear solves on fixed-size stack storage: LU with partial pivoting,
//! rank-revealing QR with minimum-norm least-squares solves, and Newton's method with the exact
//! Jacobian (full or simplified, LU or minimum-norm updates). No heap allocation on the success
//! path.

mod lu;
mod newton;
mod qr;
#[cfg(test)]
mod testing;

pub use lu::{Lu, SingularMatrix};
pub use newton::{
    JacobianUpdate, LinearSolve, Newton, NewtonError, NewtonOptions, NewtonReport, NonlinearSystem,
    SIMPLIFIED_REFRESH,
};
pub use qr::{LeastSquares, NonFiniteMatrix, Qr};
