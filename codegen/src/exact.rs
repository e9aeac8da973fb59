//! Exact numbers: rationals where values are rational, MPFR floats otherwise.
//!
//! A [`Num`] stays a `rug::Rational` as long as every operand is rational, and becomes a
//! `rug::Float` at the working precision as soon as an irrational value (a polynomial root
//! that is not rational, a square root) enters. Tableaus whose coefficients are all
//! [`Num::Rat`] are exact-rational.

mod linalg;
mod num;
pub mod poly;
mod roots;

pub use linalg::{LinalgError, Matrix, null_space, rank, solve, transpose};
pub use num::{Num, Precision};
pub use poly::Poly;
pub use roots::{RootError, real_roots};
