//! The scalar type of the interpreter: `f64`, or any type with these operations (the property
//! tests evaluate at 256 bits through `rug::Float`).

use crate::rational::Rational;

/// Real arithmetic needed to evaluate every operation of the graph.
///
/// `prec` is the working precision in bits for types that have one (ignored by `f64`).
/// Methods follow the `f64` conventions: `atan2(self, x)` is atan2(y = self, x),
/// `hypot(self, b)` is √(self² + b²).
pub trait Real: Clone {
    /// p/q rounded to nearest at precision `prec`.
    fn from_rational(r: Rational, prec: u32) -> Self;
    /// An `f64` value at precision `prec` (exact).
    fn from_f64(x: f64, prec: u32) -> Self;
    /// −x.
    fn neg(&self) -> Self;
    /// x + y.
    fn add(&self, y: &Self) -> Self;
    /// x − y.
    fn sub(&self, y: &Self) -> Self;
    /// x · y.
    fn mul(&self, y: &Self) -> Self;
    /// x / y.
    fn div(&self, y: &Self) -> Self;
    /// xᵏ for integer k.
    fn powi(&self, k: i32) -> Self;
    /// xʸ.
    fn powf(&self, y: &Self) -> Self;
    /// √x.
    fn sqrt(&self) -> Self;
    /// eˣ.
    fn exp(&self) -> Self;
    /// ln x.
    fn ln(&self) -> Self;
    /// sin x.
    fn sin(&self) -> Self;
    /// cos x.
    fn cos(&self) -> Self;
    /// tan x.
    fn tan(&self) -> Self;
    /// arcsin x.
    fn asin(&self) -> Self;
    /// arccos x.
    fn acos(&self) -> Self;
    /// arctan x.
    fn atan(&self) -> Self;
    /// atan2(y = self, x).
    fn atan2(&self, x: &Self) -> Self;
    /// sinh x.
    fn sinh(&self) -> Self;
    /// cosh x.
    fn cosh(&self) -> Self;
    /// tanh x.
    fn tanh(&self) -> Self;
    /// |x|.
    fn abs(&self) -> Self;
    /// √(x² + y²).
    fn hypot(&self, y: &Self) -> Self;
}

impl Real for f64 {
    fn from_rational(r: Rational, _prec: u32) -> f64 {
        r.to_f64()
    }
    fn from_f64(x: f64, _prec: u32) -> f64 {
        x
    }
    fn neg(&self) -> f64 {
        -self
    }
    fn add(&self, y: &f64) -> f64 {
        self + y
    }
    fn sub(&self, y: &f64) -> f64 {
        self - y
    }
    fn mul(&self, y: &f64) -> f64 {
        self * y
    }
    fn div(&self, y: &f64) -> f64 {
        self / y
    }
    fn powi(&self, k: i32) -> f64 {
        f64::powi(*self, k)
    }
    fn powf(&self, y: &f64) -> f64 {
        f64::powf(*self, *y)
    }
    fn sqrt(&self) -> f64 {
        f64::sqrt(*self)
    }
    fn exp(&self) -> f64 {
        f64::exp(*self)
    }
    fn ln(&self) -> f64 {
        f64::ln(*self)
    }
    fn sin(&self) -> f64 {
        f64::sin(*self)
    }
    fn cos(&self) -> f64 {
        f64::cos(*self)
    }
    fn tan(&self) -> f64 {
        f64::tan(*self)
    }
    fn asin(&self) -> f64 {
        f64::asin(*self)
    }
    fn acos(&self) -> f64 {
        f64::acos(*self)
    }
    fn atan(&self) -> f64 {
        f64::atan(*self)
    }
    fn atan2(&self, x: &f64) -> f64 {
        f64::atan2(*self, *x)
    }
    fn sinh(&self) -> f64 {
        f64::sinh(*self)
    }
    fn cosh(&self) -> f64 {
        f64::cosh(*self)
    }
    fn tanh(&self) -> f64 {
        f64::tanh(*self)
    }
    fn abs(&self) -> f64 {
        f64::abs(*self)
    }
    fn hypot(&self, y: &f64) -> f64 {
        f64::hypot(*self, *y)
    }
}
