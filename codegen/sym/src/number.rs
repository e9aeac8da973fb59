//! Constants of the graph: exact rationals, with `f64` as the fallback when exact
//! arithmetic overflows `i128` or a value is not a rational (∞, NaN).

use crate::rational::Rational;
use std::fmt;
use std::hash::{Hash, Hasher};

/// A constant value: exact when possible.
///
/// `Float` compares and hashes by bit pattern, so interning distinguishes `0.0` from `-0.0`.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    /// An exact rational p/q.
    Rational(Rational),
    /// An `f64` (fallback for overflowed exact arithmetic and non-finite values).
    Float(f64),
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Number::Rational(a), Number::Rational(b)) => a == b,
            (Number::Float(a), Number::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

impl Eq for Number {}

impl Hash for Number {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Number::Rational(r) => {
                0u8.hash(state);
                r.hash(state);
            }
            Number::Float(x) => {
                1u8.hash(state);
                x.to_bits().hash(state);
            }
        }
    }
}

impl Number {
    /// The exact rational when `x` is a dyadic rational that fits, else `Float(x)`.
    pub fn from_f64(x: f64) -> Number {
        Rational::from_f64(x).map_or(Number::Float(x), Number::Rational)
    }

    /// The nearest `f64` (correctly rounded for rationals).
    pub fn to_f64(self) -> f64 {
        match self {
            Number::Rational(r) => r.to_f64(),
            Number::Float(x) => x,
        }
    }

    /// The exact rational value, if any.
    pub fn as_rational(self) -> Option<Rational> {
        match self {
            Number::Rational(r) => Some(r),
            Number::Float(_) => None,
        }
    }

    /// Whether the value is exactly 0.
    pub fn is_zero(self) -> bool {
        self.to_f64() == 0.0
    }

    /// Whether the value is exactly 1.
    pub fn is_one(self) -> bool {
        self == Number::Rational(Rational::ONE) || self == Number::Float(1.0)
    }

    /// Whether the value is < 0.
    pub fn is_negative(self) -> bool {
        self.to_f64() < 0.0
    }

    /// Exact rational combination when both are rational and `exact` succeeds, else `f64` arithmetic.
    pub(crate) fn combine(
        self,
        other: Number,
        exact: fn(Rational, Rational) -> Option<Rational>,
        float: fn(f64, f64) -> f64,
    ) -> Number {
        match (self, other) {
            (Number::Rational(a), Number::Rational(b)) => exact(a, b).map_or_else(
                || Number::Float(float(a.to_f64(), b.to_f64())),
                Number::Rational,
            ),
            _ => Number::Float(float(self.to_f64(), other.to_f64())),
        }
    }
}

impl From<Rational> for Number {
    fn from(r: Rational) -> Number {
        Number::Rational(r)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Rational(r) => write!(f, "{r}"),
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}
