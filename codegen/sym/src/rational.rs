//! Exact rationals p/q with `i128` numerator and denominator, used for constant folding.
//!
//! Every value is kept normalised: q > 0 and gcd(|p|, q) = 1, so structural equality is
//! numeric equality (the graph interns constants by value). Arithmetic is checked: an
//! operation whose exact result does not fit returns `None` and the caller falls back to `f64`.

use std::fmt;

/// An exact rational number p/q in lowest terms with q > 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rational {
    num: i128,
    den: i128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Rational {
    /// The rational 0.
    pub const ZERO: Rational = Rational { num: 0, den: 1 };
    /// The rational 1.
    pub const ONE: Rational = Rational { num: 1, den: 1 };
    /// The rational 1/2.
    pub const HALF: Rational = Rational { num: 1, den: 2 };

    /// p/q in lowest terms; `None` when q = 0 or the normalised value does not fit in `i128`.
    pub fn new(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let g = gcd(num.unsigned_abs(), den.unsigned_abs());
        let (n, d) = (num.unsigned_abs() / g, den.unsigned_abs() / g);
        let negative = (num < 0) != (den < 0);
        let d = i128::try_from(d).ok()?;
        let n = i128::try_from(n).ok()?;
        Some(Rational {
            num: if negative { -n } else { n },
            den: d,
        })
    }

    /// The integer n as a rational n/1.
    pub fn integer(n: i128) -> Rational {
        Rational { num: n, den: 1 }
    }

    /// Numerator p (carries the sign).
    pub fn num(self) -> i128 {
        self.num
    }

    /// Denominator q > 0.
    pub fn den(self) -> i128 {
        self.den
    }

    /// Whether q = 1.
    pub fn is_integer(self) -> bool {
        self.den == 1
    }

    /// The value as an `i32` when it is an integer in range (used for `powi` exponents).
    pub fn to_i32(self) -> Option<i32> {
        if self.is_integer() {
            i32::try_from(self.num).ok()
        } else {
            None
        }
    }

    /// Whether p < 0.
    pub fn is_negative(self) -> bool {
        self.num < 0
    }

    /// −r.
    pub fn checked_neg(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    /// |r|.
    pub fn checked_abs(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_abs()?,
            den: self.den,
        })
    }

    /// r + s exactly, `None` on overflow.
    pub fn checked_add(self, o: Rational) -> Option<Rational> {
        let g = gcd(self.den.unsigned_abs(), o.den.unsigned_abs()) as i128;
        let (b, d) = (self.den / g, o.den / g);
        let num = self
            .num
            .checked_mul(d)?
            .checked_add(o.num.checked_mul(b)?)?;
        Rational::new(num, b.checked_mul(o.den)?)
    }

    /// r − s exactly, `None` on overflow.
    pub fn checked_sub(self, o: Rational) -> Option<Rational> {
        self.checked_add(o.checked_neg()?)
    }

    /// r · s exactly, `None` on overflow.
    pub fn checked_mul(self, o: Rational) -> Option<Rational> {
        let g1 = gcd(self.num.unsigned_abs(), o.den.unsigned_abs()).max(1) as i128;
        let g2 = gcd(o.num.unsigned_abs(), self.den.unsigned_abs()).max(1) as i128;
        let num = (self.num / g1).checked_mul(o.num / g2)?;
        let den = (self.den / g2).checked_mul(o.den / g1)?;
        Rational::new(num, den)
    }

    /// r / s exactly, `None` when s = 0 or on overflow.
    pub fn checked_div(self, o: Rational) -> Option<Rational> {
        if o.num == 0 {
            return None;
        }
        self.checked_mul(Rational::new(o.den, o.num)?)
    }

    /// rᵏ for an integer k (k < 0 needs r ≠ 0), `None` on overflow.
    pub fn checked_powi(self, k: i32) -> Option<Rational> {
        let mut base = if k < 0 {
            Rational::ONE.checked_div(self)?
        } else {
            self
        };
        let mut e = k.unsigned_abs();
        let mut acc = Rational::ONE;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.checked_mul(base)?;
            }
            e >>= 1;
            if e > 0 {
                base = base.checked_mul(base)?;
            }
        }
        Some(acc)
    }

    /// The exact value of a finite `f64` (a dyadic rational m·2ᵉ) when it fits in `i128`.
    pub fn from_f64(x: f64) -> Option<Rational> {
        if !x.is_finite() {
            return None;
        }
        if x == 0.0 {
            return Some(Rational::ZERO);
        }
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1u64 << 52) - 1);
        let (mut m, mut e) = if biased == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), biased - 1075)
        };
        let tz = m.trailing_zeros();
        m >>= tz;
        e += tz as i32;
        let m = i128::from(m);
        let signed = if x < 0.0 { -m } else { m };
        if e >= 0 {
            let shifted = signed.checked_mul(1i128.checked_shl(e as u32)?)?;
            (e < 126).then_some(Rational::integer(shifted))
        } else {
            (e > -126).then(|| Rational {
                num: signed,
                den: 1i128 << (-e),
            })
        }
    }

    /// Parses an unsigned decimal literal such as `12`, `0.1`, `1.5e-3` or `2_000.0` exactly
    /// (so `0.1` is 1/10, not the `f64` nearest to it); `None` if malformed or out of range.
    /// Type suffixes (`f64`) must be stripped first (e.g. `syn::LitFloat::base10_digits`).
    pub fn parse_decimal(s: &str) -> Option<Rational> {
        let s: String = s.chars().filter(|c| *c != '_').collect();
        let (mantissa, exponent) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], s[i + 1..].parse::<i32>().ok()?),
            None => (s.as_str(), 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let mut num: i128 = 0;
        for c in int.chars().chain(frac.chars()) {
            let digit = i128::from(c.to_digit(10)?);
            num = num.checked_mul(10)?.checked_add(digit)?;
        }
        let scale = exponent.checked_sub(i32::try_from(frac.len()).ok()?)?;
        let ten = Rational::integer(10).checked_powi(scale)?;
        Rational::integer(num).checked_mul(ten)
    }

    /// The `f64` nearest to p/q (round to nearest, ties to even), computed exactly.
    pub fn to_f64(self) -> f64 {
        let n = self.num.unsigned_abs();
        let d = self.den.unsigned_abs();
        let magnitude = if n == 0 {
            0.0
        } else if n < (1 << 53) && d < (1 << 53) {
            // Both operands are exact in f64, so one IEEE division rounds correctly.
            n as f64 / d as f64
        } else {
            ratio_to_f64(n, d)
        };
        if self.num < 0 { -magnitude } else { magnitude }
    }
}

/// Correctly rounded n/d for 0 < n, 0 < d < 2¹²⁷: 55 significant quotient bits by long
/// division plus a sticky bit, then round-to-nearest-even to 53 bits.
fn ratio_to_f64(n: u128, d: u128) -> f64 {
    let q = n / d;
    let mut r = n % d;
    let (mut m, mut e, sticky);
    if q >= 1 << 54 {
        let shift = 128 - q.leading_zeros() - 55;
        m = q >> shift;
        sticky = (q & ((1u128 << shift) - 1)) != 0 || r != 0;
        e = shift as i32;
    } else {
        m = q;
        e = 0;
        while m < 1 << 54 {
            r <<= 1;
            let bit = r >= d;
            if bit {
                r -= d;
            }
            m = (m << 1) | u128::from(bit);
            e -= 1;
        }
        sticky = r != 0;
    }
    let round = m & 2 != 0;
    let rest = m & 1 != 0 || sticky;
    let mut m53 = m >> 2;
    e += 2;
    if round && (rest || m53 & 1 == 1) {
        m53 += 1;
        if m53 == 1 << 53 {
            m53 >>= 1;
            e += 1;
        }
    }
    // e ∈ [−183, 75] here, so 2ᵉ is a normal f64 and the product is exact.
    m53 as f64 * f64::from_bits(((e + 1023) as u64) << 52)
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_sign_and_gcd() {
        let r = Rational::new(6, -4).expect("valid");
        assert_eq!((r.num(), r.den()), (-3, 2));
        assert_eq!(Rational::new(1, 0), None);
    }

    #[test]
    fn arithmetic_is_exact() {
        let third = Rational::new(1, 3).expect("valid");
        let sixth = Rational::new(1, 6).expect("valid");
        assert_eq!(third.checked_add(sixth), Rational::new(1, 2));
        assert_eq!(third.checked_sub(third), Some(Rational::ZERO));
        assert_eq!(third.checked_mul(sixth), Rational::new(1, 18));
        assert_eq!(third.checked_div(sixth), Some(Rational::integer(2)));
        assert_eq!(third.checked_div(Rational::ZERO), None);
        assert_eq!(
            Rational::new(-2, 3).expect("valid").checked_powi(-3),
            Rational::new(-27, 8)
        );
    }

    #[test]
    fn overflow_is_reported() {
        let big = Rational::integer(i128::MAX / 2);
        assert_eq!(big.checked_mul(Rational::integer(4)), None);
        assert_eq!(Rational::integer(10).checked_powi(40), None);
    }

    #[test]
    fn f64_round_trip_is_exact() {
        for x in [0.1, -3.75, 1e30, 1e-20, 123456789.123] {
            let r = Rational::from_f64(x).expect("fits");
            assert_eq!(r.to_f64(), x);
        }
        assert_eq!(Rational::from_f64(f64::NAN), None);
        assert_eq!(Rational::from_f64(1e300), None);
        assert_eq!(Rational::from_f64(1e-30), None);
    }

    #[test]
    fn to_f64_rounds_correctly_for_large_operands() {
        // 1/3 with a huge common scale: must round exactly like 1.0/3.0.
        let scale = 1i128 << 100;
        let r = Rational {
            num: scale + 1,
            den: 3 * scale + 3,
        };
        assert_eq!(r.to_f64(), 1.0 / 3.0);
        // (2⁵³ + 1) / 1 is a tie between 2⁵³ and 2⁵³ + 2: ties-to-even gives 2⁵³.
        let tie = Rational::integer((1 << 53) + 1);
        assert_eq!(tie.to_f64(), 9007199254740992.0);
        let above = Rational::integer((1 << 53) + 3);
        assert_eq!(above.to_f64(), 9007199254740996.0);
        // A quotient of two large coprime integers: compare with an exact dyadic value.
        let r = Rational::new((1i128 << 80) + 1, 1i128 << 81).expect("valid");
        assert_eq!(r.to_f64(), 0.5);
    }

    #[test]
    fn parses_decimals_exactly() {
        assert_eq!(Rational::parse_decimal("0.1"), Rational::new(1, 10));
        assert_eq!(Rational::parse_decimal("1.5e-3"), Rational::new(3, 2000));
        assert_eq!(
            Rational::parse_decimal("2_000.0"),
            Some(Rational::integer(2000))
        );
        assert_eq!(Rational::parse_decimal("1e2"), Some(Rational::integer(100)));
        assert_eq!(Rational::parse_decimal("x1"), None);
        assert_eq!(Rational::parse_decimal("."), None);
    }
}
