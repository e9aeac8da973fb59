//! The coefficients of a description and the arithmetic the chain rule needs.
//!
//! The generator knows every coefficient exactly (a rational, or an algebraic number to
//! hundreds of bits). A description carries each as its exact text and its double-double
//! rounding `hi + lo`: `hi` is the correctly rounded `f64`, `lo` the correctly rounded
//! remainder. The chain rule multiplies and adds coefficients (`∂Q_i/∂V_k = h a_ik`, then
//! `h ā_ij · h a_jk`, summed where a kernel partial is shared); in double-double arithmetic
//! these sums of products carry a relative error near 2⁻¹⁰⁴, so their rounding to `f64` is the
//! correctly rounded value unless the exact value lies within that distance of a rounding
//! boundary. The generator checks, for every method it ships, that the stepper emitted from the
//! description equals the one emitted from the exact numbers token for token.

use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A coefficient as a stage structure holds it: a tableau entry, a weight or a node, possibly
/// negated (`Y_j − h Σ_k a_jk V_k`), but never the result of other arithmetic, so that a
/// structure built over the generator's exact numbers and one built over their descriptions
/// ([`Coefficient`]) agree entry by entry.
pub trait Slot: Clone + PartialEq + Debug {
    /// 1.
    fn one() -> Self;
    /// −x.
    fn neg(&self) -> Self;
    /// Whether x is exactly zero (a slot entry that contributes no term).
    fn is_zero(&self) -> bool;
    /// The double-double rounding `(hi, lo)` of x, what an emitted stepper sees of it: equal
    /// roundings make equal stage values.
    fn rounding(&self) -> (f64, f64);
}

/// The real arithmetic of the chain rule and the emitter.
pub trait Scalar: Slot {
    /// 0.
    fn zero() -> Self;
    /// x + y.
    fn add(&self, y: &Self) -> Self;
    /// x · y.
    fn mul(&self, y: &Self) -> Self;
    /// Whether x is zero: exactly, or for a value known to a working precision, below its
    /// round-off (a cancellation such as `a_ij b_jk − a_ik b_kk = 0`).
    fn is_negligible(&self) -> bool;
    /// x rounded to the nearest `f64`.
    fn to_f64(&self) -> f64;
}

/// A double-double number `hi + lo` with `|lo| ≤ ulp(hi)/2` (`hi = fl(hi + lo)`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DoubleDouble {
    /// The value rounded to nearest `f64`.
    pub hi: f64,
    /// The remainder, rounded to nearest `f64`.
    pub lo: f64,
}

/// Below this magnitude a double-double result of the chain rule counts as an exact zero: the
/// products it sums are of coefficients of modest size (tableau entries, Ω, null vectors), and
/// their round-off is near 2⁻¹⁰⁴ of their size, many orders below this bound and many above
/// any value a tableau yields.
const NEGLIGIBLE: f64 = 1.0 / (1u128 << 90) as f64;

/// `s + e = a + b` exactly, `s = fl(a + b)`.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `s + e = a + b` exactly when `|a| ≥ |b|`.
fn quick_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

impl DoubleDouble {
    /// The normalised sum `hi + lo`.
    pub fn new(hi: f64, lo: f64) -> DoubleDouble {
        let (hi, lo) = two_sum(hi, lo);
        DoubleDouble { hi, lo }
    }
}

impl Slot for DoubleDouble {
    fn one() -> Self {
        DoubleDouble { hi: 1.0, lo: 0.0 }
    }

    fn neg(&self) -> Self {
        DoubleDouble {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    fn is_zero(&self) -> bool {
        self.hi == 0.0 && self.lo == 0.0
    }

    fn rounding(&self) -> (f64, f64) {
        (self.hi, self.lo)
    }
}

impl Scalar for DoubleDouble {
    fn zero() -> Self {
        DoubleDouble { hi: 0.0, lo: 0.0 }
    }

    fn add(&self, y: &Self) -> Self {
        let (s, e) = two_sum(self.hi, y.hi);
        let (t, f) = two_sum(self.lo, y.lo);
        let (s, e) = quick_two_sum(s, e + t);
        let (hi, lo) = quick_two_sum(s, e + f);
        DoubleDouble { hi, lo }
    }

    fn mul(&self, y: &Self) -> Self {
        let p = self.hi * y.hi;
        let e = self.hi.mul_add(y.hi, -p) + (self.hi * y.lo + self.lo * y.hi);
        let (hi, lo) = quick_two_sum(p, e);
        DoubleDouble { hi, lo }
    }

    fn is_negligible(&self) -> bool {
        self.hi.abs() <= NEGLIGIBLE
    }

    fn to_f64(&self) -> f64 {
        self.hi
    }
}

/// A coefficient as a description holds it: the exact value as text (`p/q`, or 40 significant
/// digits of an irrational value) and its double-double rounding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coefficient {
    /// The exact value.
    pub exact: String,
    /// The correctly rounded `f64`.
    pub hi: f64,
    /// The correctly rounded remainder `x − hi`.
    pub lo: f64,
}

impl Coefficient {
    /// The double-double value.
    pub fn value(&self) -> DoubleDouble {
        DoubleDouble::new(self.hi, self.lo)
    }
}

/// A description's coefficients as slot entries: `−x` is the coefficient the generator
/// describes for its exact `−x` (the exact text with its sign flipped, the rounding negated:
/// rounding to nearest and to a number of digits is symmetric), and zero is the exact `0`.
impl Slot for Coefficient {
    fn one() -> Self {
        Coefficient {
            exact: "1".to_owned(),
            hi: 1.0,
            lo: 0.0,
        }
    }

    fn neg(&self) -> Self {
        let exact = match self.exact.strip_prefix('-') {
            Some(magnitude) => magnitude.to_owned(),
            None if self.is_zero() => self.exact.clone(),
            None => format!("-{}", self.exact),
        };
        // `0.0 − x` is `−x`, and +0 (not −0) for a zero, as the generator rounds an exact zero.
        Coefficient {
            exact,
            hi: 0.0 - self.hi,
            lo: 0.0 - self.lo,
        }
    }

    fn is_zero(&self) -> bool {
        self.exact == "0"
    }

    fn rounding(&self) -> (f64, f64) {
        (self.hi, self.lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dd(hi: f64, lo: f64) -> DoubleDouble {
        DoubleDouble::new(hi, lo)
    }

    /// 1/3 · 3 = 1 and 1/3 + 1/3 + 1/3 = 1 to double-double accuracy, where `f64` alone leaves
    /// a remainder; (1 + 2⁻⁶⁰)² keeps its 2⁻⁵⁹ term, which `f64` drops.
    #[test]
    fn double_double_keeps_what_f64_rounds_away() {
        let third = dd(1.0 / 3.0, 1.850371707708594e-17);
        let one = third.mul(&dd(3.0, 0.0));
        assert!(one.add(&DoubleDouble::one().neg()).hi.abs() < 1e-32);
        let sum = third.add(&third).add(&third);
        assert!(sum.add(&DoubleDouble::one().neg()).hi.abs() < 1e-32);
        let tiny = (2.0f64).powi(-60);
        let x = dd(1.0, tiny);
        let square = x.mul(&x);
        assert_eq!(square.hi, 1.0);
        assert_eq!(square.lo, 2.0 * tiny);
        assert!(!square.is_negligible());
        assert!(third.add(&third.neg()).is_negligible());
    }

    /// A coefficient negates as the generator describes the negated exact value: the sign of
    /// the text flips, the rounding is negated, and zero stays `0` with a positive rounding.
    #[test]
    fn coefficients_negate_as_described() {
        let c = |exact: &str, hi: f64, lo: f64| Coefficient {
            exact: exact.to_owned(),
            hi,
            lo,
        };
        let third = c("1/3", 1.0 / 3.0, 1.850371707708594e-17);
        assert_eq!(third.neg(), c("-1/3", -1.0 / 3.0, -1.850371707708594e-17));
        assert_eq!(third.neg().neg(), third);
        let zero = c("0", 0.0, 0.0).neg();
        assert!(zero.is_zero() && zero.hi.is_sign_positive() && zero.lo.is_sign_positive());
        assert_eq!(Coefficient::one().neg().exact, "-1");
        assert!(!third.is_zero());
    }
}
