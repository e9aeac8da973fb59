//! The simplifying assumptions B(p), C(q), D(r), as coded in RungeKutta.jl:
//!
//! * B(p): Σ_i b_i c_i^{k−1} = 1/k for k = 1, …, p;
//! * C(q): Σ_j a_ij c_j^{k−1} = c_i^k / k for every i and k = 1, …, q;
//! * D(r): Σ_i b_i c_i^{k−1} a_ij = b_j (1 − c_j^k) / k for every j and k = 1, …, r,
//!
//! with 0⁰ = 1. The nodes c are the ones passed in (they are not recomputed from A).

use rug::Float;

use super::CheckError;
use super::dense::{dot, max_abs};
use super::shape::{dims, tolerance};

/// The largest p, q, r for which B(p), C(q), D(r) hold to a tolerance (each capped at a maximum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimplifyingLevels {
    /// Largest p ≤ max with B(p).
    pub b: usize,
    /// Largest q ≤ max with C(q).
    pub c: usize,
    /// Largest r ≤ max with D(r).
    pub d: usize,
}

/// Residual of B(p): max_{k ≤ p} |Σ_i b_i c_i^{k−1} − 1/k| (0 for p = 0).
pub fn b_residual(b: &[Float], c: &[Float], p: usize) -> Result<Float, CheckError> {
    let d = dims(&[], &[("b", b), ("c", c)])?;
    Ok(max_abs(b_per_order(b, c, p, d.prec), d.prec))
}

/// Residual of C(q): max_{k ≤ q} max_i |Σ_j a_ij c_j^{k−1} − c_i^k/k| (0 for q = 0).
pub fn c_residual(a: &[Vec<Float>], c: &[Float], q: usize) -> Result<Float, CheckError> {
    let d = dims(&[("a", a)], &[("c", c)])?;
    Ok(max_abs(c_per_order(a, c, q, d.prec), d.prec))
}

/// Residual of D(r): max_{k ≤ r} max_j |Σ_i b_i c_i^{k−1} a_ij − b_j (1 − c_j^k)/k| (0 for r = 0).
pub fn d_residual(
    a: &[Vec<Float>],
    b: &[Float],
    c: &[Float],
    r: usize,
) -> Result<Float, CheckError> {
    let d = dims(&[("a", a)], &[("b", b), ("c", c)])?;
    Ok(max_abs(d_per_order(a, b, c, r, d.prec), d.prec))
}

/// The largest p, q, r ≤ `max` such that B(p), C(q), D(r) hold with every residual ≤ `tol`.
pub fn simplifying_levels(
    a: &[Vec<Float>],
    b: &[Float],
    c: &[Float],
    tol: &Float,
    max: usize,
) -> Result<SimplifyingLevels, CheckError> {
    let d = dims(&[("a", a)], &[("b", b), ("c", c)])?;
    tolerance(tol)?;
    Ok(levels(a, b, c, tol, max, d.prec))
}

/// [`simplifying_levels`] on validated inputs, computing at `prec` bits.
pub(crate) fn levels(
    a: &[Vec<Float>],
    b: &[Float],
    c: &[Float],
    tol: &Float,
    max: usize,
    prec: u32,
) -> SimplifyingLevels {
    let level = |residuals: Vec<Float>| residuals.iter().take_while(|r| *r <= tol).count();
    SimplifyingLevels {
        b: level(b_per_order(b, c, max, prec)),
        c: level(c_per_order(a, c, max, prec)),
        d: level(d_per_order(a, b, c, max, prec)),
    }
}

/// The powers c^{k−1} (componentwise) for k = 1, …, `count`, starting from 𝟙 = c⁰.
fn powers(c: &[Float], count: usize, prec: u32) -> Vec<Vec<Float>> {
    let mut current: Vec<Float> = c.iter().map(|_| Float::with_val(prec, 1)).collect();
    let mut all = Vec::with_capacity(count);
    for _ in 0..count {
        let next = current
            .iter()
            .zip(c)
            .map(|(p, ci)| Float::with_val(prec, p * ci))
            .collect();
        all.push(std::mem::replace(&mut current, next));
    }
    all
}

/// |Σ_i b_i c_i^{k−1} − 1/k| for k = 1, …, `kmax`.
pub(crate) fn b_per_order(b: &[Float], c: &[Float], kmax: usize, prec: u32) -> Vec<Float> {
    powers(c, kmax, prec)
        .iter()
        .zip(1u32..)
        .map(|(p, k)| (dot(b, p, prec) - Float::with_val(prec, k).recip()).abs())
        .collect()
}

/// max_i |Σ_j a_ij c_j^{k−1} − c_i^k/k| for k = 1, …, `kmax`.
fn c_per_order(a: &[Vec<Float>], c: &[Float], kmax: usize, prec: u32) -> Vec<Float> {
    powers(c, kmax, prec)
        .iter()
        .zip(1u32..)
        .map(|(p, k)| {
            let residuals = a
                .iter()
                .zip(p.iter().zip(c))
                .map(|(row, (pi, ci))| dot(row, p, prec) - Float::with_val(prec, pi * ci) / k);
            max_abs(residuals, prec)
        })
        .collect()
}

/// max_j |Σ_i b_i c_i^{k−1} a_ij − b_j (1 − c_j^k)/k| for k = 1, …, `kmax`.
fn d_per_order(a: &[Vec<Float>], b: &[Float], c: &[Float], kmax: usize, prec: u32) -> Vec<Float> {
    powers(c, kmax, prec)
        .iter()
        .zip(1u32..)
        .map(|(p, k)| {
            let weighted: Vec<Float> = b
                .iter()
                .zip(p)
                .map(|(bi, pi)| Float::with_val(prec, bi * pi))
                .collect();
            let residuals = (0..b.len()).map(|j| {
                let lhs = Float::with_val(
                    prec,
                    Float::dot(weighted.iter().zip(a.iter().map(|row| &row[j]))),
                );
                let ck = Float::with_val(prec, &p[j] * &c[j]);
                lhs - Float::with_val(prec, 1 - ck) * &b[j] / k
            });
            max_abs(residuals, prec)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rug::Float;

    use super::{b_residual, c_residual, d_residual, simplifying_levels};
    use crate::check::fixtures::{Family, PREC, tableau};

    /// Residuals of the classical RK4 tableau worked out by hand:
    /// C(2) row 2: |a_21 c_1 − c_2²/2| = 1/8; D(2) column 2: |b_3 c_3 a_32 − b_2(1 − c_2²)/2| = 1/24.
    #[test]
    fn rk4_residuals_by_hand() {
        let t = tableau(Family::Rk4, 4);
        let exact = |p: u32, q: u32| Float::with_val(PREC, p) / q;
        assert_eq!(c_residual(&t.a, &t.c, 1).unwrap(), 0);
        assert_eq!(c_residual(&t.a, &t.c, 2).unwrap(), exact(1, 8));
        assert_eq!(d_residual(&t.a, &t.b, &t.c, 1).unwrap(), 0);
        assert!((d_residual(&t.a, &t.b, &t.c, 2).unwrap() - exact(1, 24)).abs() < 1e-70);
        // B(5): |Σ b_i c_i⁴ − 1/5| = |1/3·1/16·2 + 1/6 − 1/5| = 1/120.
        assert!(b_residual(&t.b, &t.c, 4).unwrap() < 1e-70);
        assert!((b_residual(&t.b, &t.c, 5).unwrap() - exact(1, 120)).abs() < 1e-70);
        assert_eq!(b_residual(&t.b, &t.c, 0).unwrap(), 0);
        let tol = Float::with_val(PREC, 1e-60);
        let levels = simplifying_levels(&t.a, &t.b, &t.c, &tol, 10).unwrap();
        assert_eq!((levels.b, levels.c, levels.d), (4, 1, 1));
        // With a tolerance between 1/120 and 1/24 the levels move accordingly.
        let loose = Float::with_val(PREC, 0.01);
        assert_eq!(
            simplifying_levels(&t.a, &t.b, &t.c, &loose, 5).unwrap().b,
            5
        );
    }

    /// Gauss(3) rounded to f64 and held exactly: the residuals measure the rounding, ≤ 16 ε.
    #[test]
    fn rounded_constants_have_residuals_of_a_few_ulps() {
        let t = tableau(Family::Gauss, 3);
        let round = |v: &[Float]| -> Vec<Float> {
            v.iter().map(|x| Float::with_val(53, x.to_f64())).collect()
        };
        let (a, b, c): (Vec<Vec<Float>>, _, _) = (
            t.a.iter().map(|r| round(r)).collect(),
            round(&t.b),
            round(&t.c),
        );
        let sixteen_eps = Float::with_val(PREC, 16.0 * f64::EPSILON);
        let residuals = [
            b_residual(&b, &c, 6).unwrap(),
            c_residual(&a, &c, 3).unwrap(),
            d_residual(&a, &b, &c, 3).unwrap(),
        ];
        for r in &residuals {
            assert!(*r <= sixteen_eps && *r > 1e-30, "{r}");
        }
    }
}
