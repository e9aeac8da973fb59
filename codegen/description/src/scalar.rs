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

/// The real arithmetic of the chain rule and the emitter.
pub trait Scalar: Clone + PartialEq + Debug {
    /// 0.
    fn zero() -> Self;
    /// 1.
    fn one() -> Self;
    /// −x.
    fn neg(&self) -> Self;
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

impl Scalar for DoubleDouble {
    fn zero() -> Self {
        DoubleDouble { hi: 0.0, lo: 0.0 }
    }

    fn one() -> Self {
        DoubleDouble { hi: 1.0, lo: 0.0 }
    }

    fn neg(&self) -> Self {
        DoubleDouble {
            hi: -self.hi,
            lo: -self.lo,
        }
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
}
