//! Nonlinear and linear solves on fixed-size stack storage: LU with partial pivoting and
//! Newton's method with the exact Jacobian (full or simplified). No heap allocation on the
//! success path.

mod lu;
mod newton;

pub use lu::{Lu, SingularMatrix};
pub use newton::{
    JacobianUpdate, Newton, NewtonError, NewtonOptions, NewtonReport, NonlinearSystem,
    SIMPLIFIED_REFRESH,
};
