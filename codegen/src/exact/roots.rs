//! Real roots of rational polynomials: isolation by a Sturm sequence in exact arithmetic,
//! refinement by bisection to full working precision, and exact recognition of rational roots.

use super::num::{Num, Precision};
use super::poly::Poly;
use rug::{Float, Integer, Rational};
use std::cmp::Ordering;

/// Failures of root finding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RootError {
    /// The polynomial is constant: there is nothing to isolate.
    #[error("polynomial of degree {degree} has no roots to isolate")]
    Constant {
        /// The degree (0, or none for the zero polynomial).
        degree: usize,
    },
    /// Not every root is real and simple, which the node polynomials guarantee.
    #[error(
        "polynomial of degree {degree} has {distinct_real} distinct real roots, expected {degree}"
    )]
    NotRealSimple {
        /// The degree.
        degree: usize,
        /// The number of distinct real roots found by the Sturm sequence.
        distinct_real: usize,
    },
}

/// The Sturm sequence `p, p', −rem(p, p'), …`.
fn sturm_sequence(p: &Poly) -> Vec<Poly> {
    let mut seq = vec![p.clone(), p.derivative()];
    loop {
        let n = seq.len();
        let Some((_, r)) = seq[n - 2].div_rem(&seq[n - 1]) else {
            break;
        };
        if r.is_zero() {
            break;
        }
        seq.push(r.scale(&Rational::from(-1)));
    }
    seq
}

/// Sign changes of the Sturm sequence at `x` (zeros skipped).
fn sign_changes(seq: &[Poly], x: &Rational) -> usize {
    let signs: Vec<Ordering> = seq
        .iter()
        .map(|p| p.eval_rational(x).cmp0())
        .filter(|s| *s != Ordering::Equal)
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// All real roots of `p`, ascending, which must all be real and simple. Rational roots are
/// returned exactly; the others are accurate to `prec` bits.
pub fn real_roots(p: &Poly, prec: Precision) -> Result<Vec<Num>, RootError> {
    let degree = p.degree().unwrap_or(0);
    if degree == 0 {
        return Err(RootError::Constant { degree });
    }
    let seq = sturm_sequence(p);
    // Cauchy bound: every root lies in (−B, B].
    let lead = p.leading().abs();
    let bound = p.coeffs().iter().fold(Rational::from(1), |m, a| {
        m.max(Rational::from(1) + Rational::from(a / &lead).abs())
    });
    let lo = Rational::from(-&bound);
    let total = sign_changes(&seq, &lo) - sign_changes(&seq, &bound);
    if total != degree {
        return Err(RootError::NotRealSimple {
            degree,
            distinct_real: total,
        });
    }
    let mut intervals = Vec::new();
    isolate(&seq, lo, bound, total, &mut intervals);
    Ok(intervals
        .iter()
        .map(|(a, b)| refine(p, a, b, prec))
        .collect())
}

/// Bisects `(lo, hi]`, which holds `count` roots, until every piece holds exactly one.
fn isolate(
    seq: &[Poly],
    lo: Rational,
    hi: Rational,
    count: usize,
    out: &mut Vec<(Rational, Rational)>,
) {
    match count {
        0 => {}
        1 => out.push((lo, hi)),
        _ => {
            let mid = Rational::from(&lo + &hi) / 2u32;
            let left = sign_changes(seq, &lo) - sign_changes(seq, &mid);
            isolate(seq, lo, mid.clone(), left, out);
            isolate(seq, mid, hi, count - left, out);
        }
    }
}

/// The single root in `(lo, hi]`: exact if rational, else bisected to `prec` bits.
fn refine(p: &Poly, lo: &Rational, hi: &Rational, prec: Precision) -> Num {
    let p_hi = p.eval_rational(hi);
    if p_hi.is_zero() {
        return Num::Rat(hi.clone());
    }
    let work = prec.bits() + 64;
    // Exactly one simple root in (lo, hi]: just right of lo the sign is opposite to p(hi).
    let right_sign = p_hi.cmp0();
    let mut a = Float::with_val(work, lo);
    let mut b = Float::with_val(work, hi);
    for _ in 0..work {
        let mid = Float::with_val(work, &a + &b) / 2u32;
        if p.eval_float(&mid).cmp0() == Some(right_sign) {
            b = mid;
        } else {
            a = mid;
        }
    }
    let root = Float::with_val(work, &a + &b) / 2u32;
    match rational_root_near(p, &root, lo, hi) {
        Some(r) => Num::Rat(r),
        None => Num::Float(Float::with_val(prec.bits(), &root)),
    }
}

/// A rational root `m/q` of `p` in `(lo, hi]` near `x`: by the rational root theorem `q`
/// divides the leading coefficient of the primitive integer form of `p`.
fn rational_root_near(p: &Poly, x: &Float, lo: &Rational, hi: &Rational) -> Option<Rational> {
    let ints = p.primitive();
    let lead = ints.last()?.clone().abs();
    divisors(&lead).into_iter().find_map(|q| {
        let scaled = Float::with_val(x.prec(), x * &q).round();
        let m = scaled.to_integer()?;
        let cand = Rational::from((m, q));
        (cand > *lo && cand <= *hi && p.eval_rational(&cand).is_zero()).then_some(cand)
    })
}

/// The positive divisors of `n > 0`, ascending.
fn divisors(n: &Integer) -> Vec<Integer> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut d = Integer::from(1);
    while Integer::from(&d * &d) <= *n {
        if n.is_divisible(&d) {
            let other = Integer::from(n / &d);
            if other != d {
                large.push(other);
            }
            small.push(d.clone());
        }
        d += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

#[cfg(test)]
mod tests {
    use super::super::poly::shifted_legendre;
    use super::*;

    #[test]
    fn gauss_two_nodes() {
        // Roots of 6x² − 6x + 1 are 1/2 ∓ √3/6.
        let roots = real_roots(&shifted_legendre(2), Precision::DEFAULT).unwrap();
        let s3 = Float::with_val(256, 3).sqrt() / 6u32;
        let half = Float::with_val(256, 0.5);
        let expect = [
            Float::with_val(256, &half - &s3),
            Float::with_val(256, &half + &s3),
        ];
        for (r, e) in roots.iter().zip(&expect) {
            let err = Float::with_val(256, r.to_float(Precision::DEFAULT) - e).abs();
            assert!(err < Float::with_val(256, 1e-75), "{err}");
        }
    }

    #[test]
    fn rational_roots_are_exact() {
        // x(x − 1)(2x − 1)(3x − 2) has rational roots 0, 1/2, 2/3, 1.
        let lin = |a: i64, b: i64| Poly::new(vec![Rational::from(b), Rational::from(a)]);
        let p = lin(1, 0).mul(&lin(1, -1)).mul(&lin(2, -1)).mul(&lin(3, -2));
        let roots = real_roots(&p, Precision::DEFAULT).unwrap();
        let expect = [(0, 1), (1, 2), (2, 3), (1, 1)];
        assert_eq!(roots.len(), 4);
        for (r, e) in roots.iter().zip(expect) {
            assert_eq!(r.as_rational(), Some(&Rational::from(e)));
        }
    }

    #[test]
    fn complex_roots_are_rejected() {
        let p = Poly::new(vec![
            Rational::from(1),
            Rational::from(0),
            Rational::from(1),
        ]);
        assert_eq!(
            real_roots(&p, Precision::DEFAULT),
            Err(RootError::NotRealSimple {
                degree: 2,
                distinct_real: 0
            })
        );
        assert!(matches!(
            real_roots(&Poly::constant(Rational::from(3)), Precision::DEFAULT),
            Err(RootError::Constant { .. })
        ));
    }

    #[test]
    fn divisors_of_twelve() {
        let d: Vec<i64> = divisors(&Integer::from(12))
            .iter()
            .map(|x| x.to_i64().unwrap())
            .collect();
        assert_eq!(d, vec![1, 2, 3, 4, 6, 12]);
    }
}
