//! Method descriptions: what sparkgen knows about each (method, s), as data.
//!
//! A description is a method's checked stage structure ([`structure::Method`]: unknown and
//! residual blocks, named values built from the step inputs by linear combinations with
//! coefficients `c·hᵏ` and by problem kernels, residual rows, the update `q_{n+1}`, `p_{n+1}`),
//! its coefficients ([`scalar::Coefficient`]: exact text and double-double rounding) and its
//! [`facts::Facts`]. The generator (`sparkgen-codegen`, exact arithmetic) writes descriptions;
//! this crate differentiates them by the chain rule ([`jacobian`]) and emits the fully unrolled
//! stepper ([`emit::stepper`]) without arbitrary-precision arithmetic, so the procedural macro
//! can emit a stepper where it is used.

pub mod elimination;
pub mod emit;
pub mod facts;
pub mod jacobian;
pub mod literal;
pub mod scalar;
pub mod spark;
pub mod structure;
pub mod text;

pub use scalar::{Coefficient, DoubleDouble, Scalar, Slot};
pub use structure::Method;
