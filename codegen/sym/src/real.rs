//! The scalar type of the interpreter: `f64`, and (feature `rug`) `rug::Float` at any precision.

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

#[cfg(feature = "rug")]
mod rug_float {
    use super::Real;
    use crate::rational::Rational;
    use rug::Float;
    use rug::ops::Pow;

    fn at(x: &Float) -> u32 {
        x.prec()
    }

    impl Real for Float {
        fn from_rational(r: Rational, prec: u32) -> Float {
            Float::with_val(prec, rug::Rational::from((r.num(), r.den())))
        }
        fn from_f64(x: f64, prec: u32) -> Float {
            Float::with_val(prec, x)
        }
        fn neg(&self) -> Float {
            Float::with_val(at(self), -self)
        }
        fn add(&self, y: &Float) -> Float {
            Float::with_val(at(self), self + y)
        }
        fn sub(&self, y: &Float) -> Float {
            Float::with_val(at(self), self - y)
        }
        fn mul(&self, y: &Float) -> Float {
            Float::with_val(at(self), self * y)
        }
        fn div(&self, y: &Float) -> Float {
            Float::with_val(at(self), self / y)
        }
        fn powi(&self, k: i32) -> Float {
            Float::with_val(at(self), self.pow(k))
        }
        fn powf(&self, y: &Float) -> Float {
            Float::with_val(at(self), self.pow(y))
        }
        fn sqrt(&self) -> Float {
            self.clone().sqrt()
        }
        fn exp(&self) -> Float {
            self.clone().exp()
        }
        fn ln(&self) -> Float {
            self.clone().ln()
        }
        fn sin(&self) -> Float {
            self.clone().sin()
        }
        fn cos(&self) -> Float {
            self.clone().cos()
        }
        fn tan(&self) -> Float {
            self.clone().tan()
        }
        fn asin(&self) -> Float {
            self.clone().asin()
        }
        fn acos(&self) -> Float {
            self.clone().acos()
        }
        fn atan(&self) -> Float {
            self.clone().atan()
        }
        fn atan2(&self, x: &Float) -> Float {
            self.clone().atan2(x)
        }
        fn sinh(&self) -> Float {
            self.clone().sinh()
        }
        fn cosh(&self) -> Float {
            self.clone().cosh()
        }
        fn tanh(&self) -> Float {
            self.clone().tanh()
        }
        fn abs(&self) -> Float {
            self.clone().abs()
        }
        fn hypot(&self, y: &Float) -> Float {
            self.clone().hypot(y)
        }
    }
}
