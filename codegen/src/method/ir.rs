//! The stage-structure IR as the generator builds it: the description crate's structure
//! ([`sparkgen_description::structure`]) over exact numbers.

pub use sparkgen_description::spark::combination;
pub use sparkgen_description::structure::{
    AtomKind, Block, DaeFunction, Input, Kernel, MethodError, ProblemKind, Role, Row, Shift, Term,
    Width, block, minus,
};

use crate::exact::Num;

/// A scalar coefficient `value · h^h_power` with an exact value.
pub type Coef = sparkgen_description::structure::Coef<Num>;
/// How a value is computed, with exact coefficients.
pub type Expr = sparkgen_description::structure::Expr<Num>;
/// A named value of the step, with exact coefficients.
pub type Value = sparkgen_description::structure::Value<Num>;
/// A method for a given s with exact coefficients.
pub type Method = sparkgen_description::structure::Method<Num>;
