//! The linear stability function R(z) = det(I − zA + z𝟙bᵀ) / det(I − zA) and R(∞).

use std::cmp::Ordering;

use rug::Float;

use super::CheckError;
use super::shape::{dims, tolerance};

/// R(z) = P(z)/Q(z) with P(z) = det(I − z(A − 𝟙bᵀ)) and Q(z) = det(I − zA), both of degree ≤ s
/// and normalised by P(0) = Q(0) = 1.
#[derive(Debug, Clone, PartialEq)]
pub struct StabilityFunction {
    /// Coefficients of P in ascending powers of z (s + 1 entries, the first equal to 1).
    pub numerator: Vec<Float>,
    /// Coefficients of Q in ascending powers of z (s + 1 entries, the first equal to 1).
    pub denominator: Vec<Float>,
}

/// The limit R(∞) = lim_{z→∞} R(z).
#[derive(Debug, Clone, PartialEq)]
pub enum RInfinity {
    /// deg P ≤ deg Q: the ratio of the z^{deg Q} coefficients (0 when deg P < deg Q).
    Finite(Float),
    /// deg P > deg Q.
    Infinite,
}

/// The stability function of the tableau (A, b).
pub fn stability_function(a: &[Vec<Float>], b: &[Float]) -> Result<StabilityFunction, CheckError> {
    let d = dims(&[("a", a)], &[("b", b)])?;
    let shifted: Vec<Vec<Float>> = a
        .iter()
        .map(|row| {
            row.iter()
                .zip(b)
                .map(|(aij, bj)| Float::with_val(d.prec, aij - bj))
                .collect()
        })
        .collect();
    Ok(StabilityFunction {
        numerator: det_coefficients(&shifted, d.prec),
        denominator: det_coefficients(a, d.prec),
    })
}

impl StabilityFunction {
    /// The degrees (deg P, deg Q): the highest powers whose coefficients exceed `tol` in magnitude.
    pub fn degrees(&self, tol: &Float) -> Result<(usize, usize), CheckError> {
        tolerance(tol)?;
        Ok((degree(&self.numerator, tol), degree(&self.denominator, tol)))
    }

    /// R(∞), deciding the degrees of P and Q with `tol`.
    pub fn r_infinity(&self, tol: &Float) -> Result<RInfinity, CheckError> {
        let (p, q) = self.degrees(tol)?;
        Ok(match p.cmp(&q) {
            Ordering::Greater => RInfinity::Infinite,
            Ordering::Less => RInfinity::Finite(Float::new(self.numerator[0].prec())),
            Ordering::Equal => RInfinity::Finite(Float::with_val(
                self.numerator[p].prec(),
                &self.numerator[p] / &self.denominator[q],
            )),
        })
    }
}

/// The highest k with |coefficient_k| > tol (0 if there is none).
fn degree(coefficients: &[Float], tol: &Float) -> usize {
    coefficients
        .iter()
        .rposition(|x| x.clone().abs() > *tol)
        .unwrap_or(0)
}

/// Coefficients e_0, …, e_s of det(I − zM) = Σ_k e_k z^k by Faddeev–LeVerrier:
/// N_1 = I, e_0 = 1, e_k = −tr(M N_k)/k, N_{k+1} = M N_k + e_k I
/// (the e_k are the coefficients of the characteristic polynomial det(λI − M) = Σ_k e_k λ^{s−k}).
fn det_coefficients(m: &[Vec<Float>], prec: u32) -> Vec<Float> {
    let s = m.len();
    let identity = |i: usize, j: usize| Float::with_val(prec, u32::from(i == j));
    let mut n: Vec<Vec<Float>> = (0..s)
        .map(|i| (0..s).map(|j| identity(i, j)).collect())
        .collect();
    let mut e = vec![Float::with_val(prec, 1)];
    for k in 1..=s {
        let mut mn: Vec<Vec<Float>> = m
            .iter()
            .map(|row| {
                (0..s)
                    .map(|j| {
                        Float::with_val(prec, Float::dot(row.iter().zip(n.iter().map(|r| &r[j]))))
                    })
                    .collect()
            })
            .collect();
        let trace = Float::with_val(
            prec,
            Float::sum(mn.iter().enumerate().map(|(i, row)| &row[i])),
        );
        let ek = -trace / u32::try_from(k).unwrap_or(u32::MAX);
        for (i, row) in mn.iter_mut().enumerate() {
            row[i] += &ek;
        }
        e.push(ek);
        n = mn;
    }
    e
}

#[cfg(test)]
mod tests {
    use rug::Float;

    use super::{RInfinity, stability_function};
    use crate::check::fixtures::{PREC, Rng};

    /// Explicit methods: Q = 1 and deg P = s when a_{i+1,i} b_s ≠ 0, so R(∞) = ∞; a single
    /// implicit stage a gives R(z) = (1 + (b − a)z)/(1 − az).
    #[test]
    fn explicit_and_one_stage_methods() {
        let mut rng = Rng(9);
        let mut a = rng.matrix(4);
        for (i, row) in a.iter_mut().enumerate() {
            row[i..].iter_mut().for_each(|x| *x = Float::new(PREC));
        }
        let b = rng.vector(4);
        let r = stability_function(&a, &b).unwrap();
        let tol = Float::with_val(PREC, 1e-60);
        assert_eq!(r.degrees(&tol).unwrap(), (4, 0));
        assert_eq!(r.r_infinity(&tol).unwrap(), RInfinity::Infinite);
        // Q(z) = 1 exactly; P's z⁴ coefficient is b_4 a_43 a_32 a_21.
        let leading = Float::with_val(PREC, &b[3] * &a[3][2]) * &a[2][1] * &a[1][0];
        assert!(Float::with_val(PREC, &r.numerator[4] - &leading).abs() < 1e-70);

        let (a, b) = (
            vec![vec![Float::with_val(PREC, 0.25)]],
            vec![Float::with_val(PREC, 1)],
        );
        let r = stability_function(&a, &b).unwrap();
        assert_eq!(r.numerator, [1.0, 0.75]);
        assert_eq!(r.denominator, [1.0, -0.25]);
        assert_eq!(
            r.r_infinity(&tol).unwrap(),
            RInfinity::Finite(Float::with_val(PREC, -3))
        );
    }
}
