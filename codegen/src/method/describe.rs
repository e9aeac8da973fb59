//! A method's description: the structure the generator built, its exact coefficients written as
//! text with their double-double rounding ([`sparkgen_description::Coefficient`]).

use super::ir::Method;
use crate::exact::Num;
use sparkgen_description::Coefficient;
use sparkgen_description::structure::Method as Described;

/// Digits of an irrational coefficient's text.
const DIGITS: usize = 40;

/// The coefficient `x`: exact text, correctly rounded `f64` and remainder.
pub fn coefficient(x: &Num) -> Coefficient {
    Coefficient {
        exact: x.display(DIGITS),
        hi: x.to_f64(),
        lo: x.f64_remainder(),
    }
}

/// The description of `method`.
pub fn describe(method: &Method) -> Described<Coefficient> {
    method.map(coefficient)
}
