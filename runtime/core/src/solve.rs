//! Nonlinear and linear solves on fixed-size stack storage: LU with partial pivoting and
//! Newton's method with the exact Jacobian. No heap allocation on the success path.

mod lu;
mod newton;

pub use lu::{Lu, SingularMatrix};
pub use newton::{Newton, NewtonError, NewtonOptions, NewtonReport, NonlinearSystem};
