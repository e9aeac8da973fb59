//! The [`Num`] scalar: exact rational or MPFR float.

use rug::ops::Pow;
use rug::{Float, Rational};
use std::cmp::Ordering;
use std::fmt;

/// Working precision in bits of the MPFR part (at least 256 by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Precision(pub u32);

impl Precision {
    /// The default working precision: 256 bits (≈ 77 decimal digits).
    pub const DEFAULT: Precision = Precision(256);

    /// The precision in bits.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// A tolerance `2^(−bits·3/4)` below which a working-precision residual counts as zero
    /// (≈ 1e−58 at 256 bits: far above the round-off of a few hundred operations, far below
    /// any genuine defect of a tableau).
    pub fn tolerance(self) -> Float {
        let exp = -(i32::try_from(self.0).unwrap_or(i32::MAX) * 3 / 4);
        Float::with_val(self.0, Float::i_exp(1, exp))
    }
}

impl Default for Precision {
    fn default() -> Self {
        Precision::DEFAULT
    }
}

/// A real number: exact rational, or an MPFR float carrying its own precision.
#[derive(Clone, Debug)]
pub enum Num {
    /// An exact rational value.
    Rat(Rational),
    /// A value known only to the working precision.
    Float(Float),
}

impl Num {
    /// The integer `n`.
    pub fn int(n: i64) -> Num {
        Num::Rat(Rational::from(n))
    }

    /// The rational `num/den` (`den ≠ 0`).
    pub fn ratio(num: i64, den: i64) -> Num {
        Num::Rat(Rational::from((num, den)))
    }

    /// Zero.
    pub fn zero() -> Num {
        Num::int(0)
    }

    /// One.
    pub fn one() -> Num {
        Num::int(1)
    }

    /// Whether the value is an exact rational.
    pub fn is_rational(&self) -> bool {
        matches!(self, Num::Rat(_))
    }

    /// The exact rational value, if it is one.
    pub fn as_rational(&self) -> Option<&Rational> {
        match self {
            Num::Rat(r) => Some(r),
            Num::Float(_) => None,
        }
    }

    /// Whether the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        match self {
            Num::Rat(r) => r.is_zero(),
            Num::Float(f) => f.is_zero(),
        }
    }

    /// The value as an MPFR float with `prec` bits (correctly rounded from a rational).
    pub fn to_float(&self, prec: Precision) -> Float {
        match self {
            Num::Rat(r) => Float::with_val(prec.bits(), r),
            Num::Float(f) => Float::with_val(prec.bits(), f),
        }
    }

    /// The correctly rounded `f64` (round to nearest, ties to even) of a rational, or the
    /// nearest `f64` of the working-precision float.
    pub fn to_f64(&self) -> f64 {
        match self {
            Num::Rat(r) => Float::with_val(53, r).to_f64(),
            Num::Float(f) => f.to_f64(),
        }
    }

    /// The rounding remainder `x − fl(x)` rounded to `f64`, for compensated summation.
    ///
    /// For a float, a remainder below the noise floor `|x|·2^(−3/4·prec)` is round-off of the
    /// working precision, not information, and is returned as 0.
    pub fn f64_remainder(&self) -> f64 {
        let hi = self.to_f64();
        match self {
            Num::Rat(r) => {
                let rest = r - Rational::from_f64(hi).unwrap_or_default();
                Float::with_val(53, &rest).to_f64()
            }
            Num::Float(f) => {
                let rest = Float::with_val(f.prec(), f - hi);
                let floor =
                    Float::with_val(f.prec(), f.abs_ref()) * Precision(f.prec()).tolerance();
                if rest.clone().abs() <= floor {
                    0.0
                } else {
                    rest.to_f64()
                }
            }
        }
    }

    /// Snaps a float of magnitude below the noise floor `2^(−3/4·prec)` to an exact zero
    /// (an entry that vanishes in exact arithmetic but was computed through irrational nodes).
    pub fn cleaned(self) -> Num {
        match self {
            Num::Float(f) if f.clone().abs() <= Precision(f.prec()).tolerance() => Num::zero(),
            other => other,
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Num {
        match self {
            Num::Rat(r) => Num::Rat(r.clone().abs()),
            Num::Float(f) => Num::Float(f.clone().abs()),
        }
    }

    /// The square root, exact when the value is the square of a rational.
    pub fn sqrt(&self, prec: Precision) -> Num {
        if let Num::Rat(r) = self
            && let Some(root) = rational_sqrt(r)
        {
            return Num::Rat(root);
        }
        Num::Float(self.to_float(prec).sqrt())
    }

    /// The integer power `x^k` (k ≥ 0; `0^0 = 1`).
    pub fn powu(&self, k: u32) -> Num {
        match self {
            Num::Rat(r) => Num::Rat(r.clone().pow(k)),
            Num::Float(f) => Num::Float(f.clone().pow(k)),
        }
    }

    /// The sign: −1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self.cmp0() {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    fn cmp0(&self) -> Ordering {
        match self {
            Num::Rat(r) => r.cmp0(),
            Num::Float(f) => f.cmp0().unwrap_or(Ordering::Equal),
        }
    }

    /// Compares magnitudes |self| and |other|.
    pub fn cmp_abs(&self, other: &Num) -> Ordering {
        self.abs()
            .partial_cmp(&other.abs())
            .unwrap_or(Ordering::Equal)
    }

    /// The precision of the float operand(s) of a binary operation (the larger one).
    fn float_prec(a: &Num, b: &Num) -> u32 {
        match (a, b) {
            (Num::Float(x), Num::Float(y)) => x.prec().max(y.prec()),
            (Num::Float(x), Num::Rat(_)) | (Num::Rat(_), Num::Float(x)) => x.prec(),
            (Num::Rat(_), Num::Rat(_)) => Precision::DEFAULT.bits(),
        }
    }

    fn binary(
        a: &Num,
        b: &Num,
        rat: impl FnOnce(&Rational, &Rational) -> Rational,
        flt: impl FnOnce(Float, Float) -> Float,
    ) -> Num {
        match (a, b) {
            (Num::Rat(x), Num::Rat(y)) => Num::Rat(rat(x, y)),
            _ => {
                let p = Precision(Num::float_prec(a, b));
                Num::Float(flt(a.to_float(p), b.to_float(p)))
            }
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Num) -> Num {
        Num::binary(self, other, |x, y| Rational::from(x + y), |x, y| x + y)
    }

    /// `self − other`.
    pub fn sub(&self, other: &Num) -> Num {
        Num::binary(self, other, |x, y| Rational::from(x - y), |x, y| x - y)
    }

    /// `self · other`.
    pub fn mul(&self, other: &Num) -> Num {
        Num::binary(self, other, |x, y| Rational::from(x * y), |x, y| x * y)
    }

    /// `self / other`; `None` when `other` is exactly zero.
    pub fn div(&self, other: &Num) -> Option<Num> {
        if other.is_zero() {
            return None;
        }
        Some(Num::binary(
            self,
            other,
            |x, y| Rational::from(x / y),
            |x, y| x / y,
        ))
    }

    /// `−self`.
    pub fn neg(&self) -> Num {
        match self {
            Num::Rat(r) => Num::Rat(Rational::from(-r)),
            Num::Float(f) => Num::Float(Float::with_val(f.prec(), -f)),
        }
    }

    /// Half the value, `x/2` (exact in both representations).
    pub fn half(&self) -> Num {
        match self {
            Num::Rat(r) => Num::Rat(Rational::from(r / 2u32)),
            Num::Float(f) => Num::Float(Float::with_val(f.prec(), f / 2u32)),
        }
    }

    /// The value rounded to `digits` significant decimal digits (rationals printed exactly as
    /// `p/q` when `digits` is `None` or the value is rational).
    pub fn display(&self, digits: usize) -> String {
        match self {
            Num::Rat(r) => r.to_string(),
            Num::Float(f) => format_float(f, digits),
        }
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Num) -> Option<Ordering> {
        match (self, other) {
            (Num::Rat(x), Num::Rat(y)) => x.partial_cmp(y),
            (Num::Float(x), Num::Float(y)) => x.partial_cmp(y),
            (Num::Rat(x), Num::Float(y)) => x.partial_cmp(y),
            (Num::Float(x), Num::Rat(y)) => x.partial_cmp(y),
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display(40))
    }
}

/// The exact square root of a non-negative rational whose numerator and denominator are
/// perfect squares.
fn rational_sqrt(r: &Rational) -> Option<Rational> {
    if r.cmp0() == Ordering::Less {
        return None;
    }
    let (n, d) = (r.numer(), r.denom());
    if n.is_perfect_square() && d.is_perfect_square() {
        Some(Rational::from((n.clone().sqrt(), d.clone().sqrt())))
    } else {
        None
    }
}

/// `digits` significant digits, trailing zeros dropped: positional for 1e−4 ≤ |x| < 1e6
/// (`-0.2113248654051871177454256097490212721762`), scientific otherwise (`1.26e-75`).
fn format_float(f: &Float, digits: usize) -> String {
    if f.is_zero() {
        return "0".to_owned();
    }
    let (neg, mantissa, exp) = f.to_sign_string_exp(10, Some(digits));
    let sign = if neg { "-" } else { "" };
    let digits = mantissa.trim_end_matches('0');
    // The value is 0.d₁d₂… × 10^point.
    let point = exp.unwrap_or(0);
    let body = if (-3..=6).contains(&point) {
        if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else {
            let p = point as usize;
            if digits.len() <= p {
                format!("{digits}{}", "0".repeat(p - digits.len()))
            } else {
                format!("{}.{}", &digits[..p], &digits[p..])
            }
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() {
            first.to_owned()
        } else {
            format!("{first}.{rest}")
        };
        format!("{mant}e{}", point - 1)
    };
    format!("{sign}{body}")
}

/// The generator builds stage structures over exact numbers.
impl sparkgen_description::scalar::Slot for Num {
    fn one() -> Num {
        Num::one()
    }

    fn neg(&self) -> Num {
        Num::neg(self)
    }

    fn is_zero(&self) -> bool {
        Num::is_zero(self)
    }

    fn rounding(&self) -> (f64, f64) {
        (Num::to_f64(self), self.f64_remainder())
    }
}

/// The generator's chain rule runs on exact numbers: a sum of products is zero only when it
/// is (to the working precision of its irrational parts).
impl sparkgen_description::Scalar for Num {
    fn zero() -> Num {
        Num::zero()
    }

    fn add(&self, y: &Num) -> Num {
        Num::add(self, y)
    }

    fn mul(&self, y: &Num) -> Num {
        Num::mul(self, y)
    }

    fn is_negligible(&self) -> bool {
        self.clone().cleaned().is_zero()
    }

    fn to_f64(&self) -> f64 {
        Num::to_f64(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rational_stays_rational_and_float_propagates() {
        let x = Num::ratio(1, 3).add(&Num::ratio(1, 6));
        assert_eq!(x.as_rational(), Some(&Rational::from((1, 2))));
        let root = Num::int(3).sqrt(Precision::DEFAULT);
        assert!(!root.is_rational());
        let sq = root.mul(&root);
        let err = Float::with_val(256, sq.to_float(Precision::DEFAULT) - 3u32).abs();
        assert!(err < Float::with_val(256, 1e-70));
        assert_eq!(Num::ratio(9, 4).sqrt(Precision::DEFAULT), Num::ratio(3, 2));
        assert!(Num::ratio(9, 4).sqrt(Precision::DEFAULT).is_rational());
    }

    #[test]
    fn f64_rounding_is_to_nearest_and_remainder_is_exact_for_rationals() {
        // 1/3 rounds to nearest 0x3FD5555555555555; the remainder 1/3 − fl(1/3) > 0.
        let third = Num::ratio(1, 3);
        assert_eq!(third.to_f64().to_bits(), (1.0f64 / 3.0).to_bits());
        let lo = third.f64_remainder();
        let exact = Rational::from((1, 3)) - Rational::from_f64(1.0 / 3.0).unwrap();
        assert_eq!(lo, Float::with_val(53, &exact).to_f64());
        assert!(lo > 0.0);
        assert_eq!(Num::ratio(1, 2).f64_remainder(), 0.0);
    }

    #[test]
    fn division_by_exact_zero_is_none() {
        assert!(Num::one().div(&Num::zero()).is_none());
    }

    #[test]
    fn display_formats() {
        assert_eq!(Num::ratio(-5, 24).display(40), "-5/24");
        let x = Num::Float(Float::with_val(256, 0.25));
        assert_eq!(x.display(40), "0.25");
        let sqrt3 = Num::int(3).sqrt(Precision::DEFAULT);
        assert_eq!(sqrt3.display(10), "1.732050808");
        assert_eq!(
            Num::Float(Float::with_val(256, -0.0009765625)).display(40),
            "-0.0009765625"
        );
        assert_eq!(
            Num::Float(Float::with_val(256, 1.5e-75)).display(3),
            "1.5e-75"
        );
        assert_eq!(
            Num::Float(Float::with_val(256, 1234.5)).display(40),
            "1234.5"
        );
        assert_eq!(Num::Float(Float::with_val(256, 1e7)).display(40), "1e7");
        assert_eq!(Num::Float(Float::with_val(256, 100)).display(40), "100");
    }
}
