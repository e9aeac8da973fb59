//! The amplification of the carried multiplier's error by one step.
//!
//! A method that reads the carried multiplier (the continuity row `Λ̃_1 − λ_n = 0`,
//! [`MultiplierUpdate::read`]) propagates an error `δλ` of `λ_n` into the step. Where the
//! projective stages enforce `φ = 0`, that error moves the state off the constraint manifold by
//! `O(h δλ)`, and the next step pulls it back with a multiplier change of `O(δλ)`: the error
//! lives in the scaled pair `(ν, δλ)`, `ν = dφ δz / h`, on which one linearised step acts by a
//! `2M × 2M` matrix `R` with entries of order one. Its spectral radius `ρ(R)` is the factor by
//! which the worst such error grows in one step (to `O(h)`, the tangential part of the error
//! being left out). Columns of `R`: the step's response to `δz = h dφ⁺ e_k` (the minimum-norm
//! normal lift, [`Access::constraint_differential`]) and to `δλ = e_k`, by the implicit
//! function theorem on the converged stage equations, read back as
//! `(dφ(q_{n+1}, p_{n+1}) δz_{n+1} / h, Σ_j d^λ_j δΛ̃_j)`.
//!
//! Measured on Lotka–Volterra (`sparkgen::integrate::multiplier_watch`): HPARK over the Lobatto
//! pairs has `ρ(R) ≈ 2.62` for s = 2 and `1.80` for s = 3 at the consistent initial state,
//! whatever h (0.1, 0.01, 0.001); for s = 4 `ρ(R) = 1 + O(h)` there (1.09, 1.009, 1.0009) and
//! grows with the defect (1.15–2.99 where the watch stops the runs). The bounded VPARK
//! multipliers (Gauss, Lobatto IIIB–IIIA) stay within `1 + 1.9 h` over 200 steps.

use crate::kind::{Access, Normal, State};
use crate::solve::Lu;
use crate::stage::{StageMethod, TangentBlocks};
use nalgebra::SVector;

/// Repeated squarings in [`spectral_radius`]: `ρ ≈ ‖A^1024‖∞^(1/1024)`, an upper estimate
/// whose excess from a Jordan block of size k or an eigenvector basis of condition κ is at most
/// a factor of about `(k · 1024)^(1/1024)` or `κ^(1/1024)`.
const SQUARINGS: u32 = 10;

/// `ρ(R)` of the step from `(q, p)` with the carried multiplier `λ_n = lambda`, converged
/// unknowns `x` and result `(q₁, p₁)`. `None` where the method does not read `λ_n`, the kind has
/// no constraint differential, `2M > N`, or the stage Jacobian is singular.
pub fn multiplier_amplification<Meth, P, const D: usize, const N: usize>(
    problem: &P,
    h: f64,
    (q, p): State<'_, D>,
    lambda: &[f64],
    x: &[f64; N],
    (q1, p1): State<'_, D>,
) -> Option<f64>
where
    Meth: StageMethod<P, D>,
{
    let update = Meth::MULTIPLIER.filter(|u| u.read)?;
    let m = Meth::DIMS.constraints;
    if 2 * m > N {
        return None;
    }
    let (mut normals, mut normals1) = ([Normal::zero(); N], [Normal::zero(); N]);
    if !(Meth::Kind::constraint_differential(problem, (q, p), &mut normals)
        && Meth::Kind::constraint_differential(problem, (q1, p1), &mut normals1))
    {
        return None;
    }
    let mut jacobian = [[0.0; N]; N];
    Meth::jacobian(problem, h, q, p, lambda, x, &mut jacobian);
    let lu = Lu::factor(&jacobian).ok()?;
    let mut t = TangentBlocks::<D, N>::zero();
    Meth::tangent(problem, h, q, p, lambda, x, &mut t);
    let continuity = Meth::RESIDUALS.offset(update.block, 0, Meth::DIMS);
    // R, in the leading 2M × 2M corner.
    let mut r = [[0.0; N]; N];
    for column in 0..2 * m {
        let (dq, dp) = match normals.get(column).filter(|_| column < m) {
            Some(Normal { lift: [lq, lp], .. }) => (lq * h, lp * h),
            None => (SVector::zeros(), SVector::zeros()),
        };
        // δx = −J⁻¹ (∂r/∂q δq + ∂r/∂p δp + ∂r/∂λ δλ), with ∂r/∂λ = −I on the continuity row.
        let mut dx: [f64; N] = std::array::from_fn(|i| {
            let row_q = SVector::<f64, D>::from(t.r_q[i]);
            let row_p = SVector::<f64, D>::from(t.r_p[i]);
            -(row_q.dot(&dq) + row_p.dot(&dp))
        });
        if column >= m {
            dx[continuity + column - m] += 1.0;
        }
        lu.solve_in_place(&mut dx);
        let dx = SVector::<f64, N>::from(dx);
        let explicit = |block: &[[f64; D]; D], v: &SVector<f64, D>| {
            SVector::<f64, D>::from_fn(|i, _| SVector::<f64, D>::from(block[i]).dot(v))
        };
        let implicit = |block: &[[f64; N]; D]| {
            SVector::<f64, D>::from_fn(|i, _| SVector::<f64, N>::from(block[i]).dot(&dx))
        };
        let dq1 = explicit(&t.q_q, &dq) + explicit(&t.q_p, &dp) + implicit(&t.q_x);
        let dp1 = explicit(&t.p_q, &dq) + explicit(&t.p_p, &dp) + implicit(&t.p_x);
        for (
            i,
            Normal {
                row: [row_q, row_p],
                ..
            },
        ) in normals1.iter().take(m).enumerate()
        {
            r[i][column] = (row_q.dot(&dq1) + row_p.dot(&dp1)) / h;
        }
        let mut dlambda = [0.0; N];
        update.apply(
            &Meth::UNKNOWNS,
            Meth::DIMS,
            dx.as_slice(),
            &mut dlambda[..m],
        );
        for (row, dl) in r[m..2 * m].iter_mut().zip(&dlambda) {
            row[column] = *dl;
        }
    }
    Some(spectral_radius(&mut r, 2 * m))
}

/// The spectral radius of the leading `n × n` block of `a` (overwritten), by [`SQUARINGS`]
/// normalised squarings: `A^(2^k) = e^c B` with `‖B‖∞ = 1` (largest row sum), so
/// `ρ(A) ≤ ‖A^(2^k)‖∞^(2^−k) = e^(c / 2^k)`.
fn spectral_radius<const N: usize>(a: &mut [[f64; N]; N], n: usize) -> f64 {
    let mut log_scale = 0.0;
    let mut square = [[0.0; N]; N];
    for _ in 0..SQUARINGS {
        let norm = largest(a, n);
        if !(norm.is_finite() && norm > 0.0) {
            return norm;
        }
        log_scale = 2.0 * (log_scale + norm.ln());
        for i in 0..n {
            for j in 0..n {
                square[i][j] = (0..n).map(|k| a[i][k] * a[k][j]).sum::<f64>() / (norm * norm);
            }
        }
        *a = square;
    }
    let norm = largest(a, n);
    if norm > 0.0 {
        ((log_scale + norm.ln()) / f64::from(1u32 << SQUARINGS)).exp()
    } else {
        0.0
    }
}

/// `‖A‖∞`, the largest absolute row sum, of the leading `n × n` block.
fn largest<const N: usize>(a: &[[f64; N]; N], n: usize) -> f64 {
    a.iter()
        .take(n)
        .map(|row| row.iter().take(n).map(|x| x.abs()).sum::<f64>())
        .fold(0.0f64, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::SMatrix;

    #[test]
    fn spectral_radius_of_rotations_jordan_blocks_and_non_normal_matrices() {
        // ρ of a scaled rotation (complex pair), of a Jordan block at 1 (within its bound), and
        // of a random non-normal matrix against nalgebra's eigenvalues.
        let mut rotation = [[0.0; 3]; 3];
        let (c, s) = (1.3 * 0.4f64.cos(), 1.3 * 0.4f64.sin());
        rotation[0][..2].copy_from_slice(&[c, -s]);
        rotation[1][..2].copy_from_slice(&[s, c]);
        // ‖R^1024‖∞ = 1.3^1024 (|cos 1024θ| + |sin 1024θ|) ≤ 1.3^1024 √2.
        let rho = spectral_radius(&mut rotation, 2);
        let excess = 2.0f64.powf(1.0 / 2048.0) * (1.0 + 1e-12);
        assert!(rho >= 1.3 * (1.0 - 1e-12) && rho <= 1.3 * excess, "{rho}");
        let mut jordan = [[1.0, 1.0], [0.0, 1.0]];
        let rho = spectral_radius(&mut jordan, 2);
        assert!((1.0..=(2.0 * 1024.0f64).powf(1.0 / 1024.0)).contains(&rho));
        let entries = [0.3, -1.2, 0.7, 0.9, 0.1, -0.4, 2.0, 0.5, -0.8];
        let matrix = SMatrix::<f64, 3, 3>::from_row_slice(&entries);
        let exact = matrix
            .complex_eigenvalues()
            .iter()
            .fold(0.0f64, |m, e| m.max(e.norm()));
        let mut rows: [[f64; 3]; 3] =
            std::array::from_fn(|i| std::array::from_fn(|j| matrix[(i, j)]));
        let rho = spectral_radius(&mut rows, 3);
        assert!(
            rho >= exact * (1.0 - 1e-12) && rho <= exact * 1.01,
            "{rho} vs {exact}"
        );
        assert_eq!(spectral_radius(&mut [[0.0; 2]; 2], 2), 0.0);
    }
}
