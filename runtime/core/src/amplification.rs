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

use crate::kind::{Access, State};
use crate::layout::{Dims, Layout};
use crate::rows::RowMajor;
use crate::solve::{Dynamic, Lu};
use crate::stage::{MultiplierUpdate, StageMethod, Tangent};

/// Repeated squarings in [`spectral_radius`]: `ρ ≈ ‖A^1024‖∞^(1/1024)`, an upper estimate
/// whose excess from a Jordan block of size k or an eigenvector basis of condition κ is at most
/// a factor of about `(k · 1024)^(1/1024)` or `κ^(1/1024)`.
const SQUARINGS: u32 = 10;

/// One converged step, linearised: the stage Jacobian `∂r/∂x` (`N × N`), the partials
/// `∂r/∂q`, `∂r/∂p` (`N × D`), `∂q₁/∂x`, `∂p₁/∂x` (`D × N`) and the explicit
/// `∂q₁/∂q`, `∂q₁/∂p`, `∂p₁/∂q`, `∂p₁/∂p` (`D × D`), all row-major.
#[derive(Clone, Copy, Debug)]
pub struct Linearised<'a> {
    /// `∂r/∂x`.
    pub jacobian: &'a [f64],
    /// `∂r/∂q`.
    pub r_q: &'a [f64],
    /// `∂r/∂p`.
    pub r_p: &'a [f64],
    /// `∂q₁/∂x`.
    pub q_x: &'a [f64],
    /// `∂p₁/∂x`.
    pub p_x: &'a [f64],
    /// `[[∂q₁/∂q, ∂q₁/∂p], [∂p₁/∂q, ∂p₁/∂p]]` at fixed x.
    pub explicit: [[&'a [f64]; 2]; 2],
}

impl<'a> Linearised<'a> {
    /// The step linearised by its stage Jacobian `jacobian` and its tangent partials `t`.
    pub fn of(jacobian: &'a [f64], t: &'a Tangent) -> Self {
        Linearised {
            jacobian,
            r_q: &t.r_q,
            r_p: &t.r_p,
            q_x: &t.q_x,
            p_x: &t.p_x,
            explicit: [[&t.q_q, &t.q_p], [&t.p_q, &t.p_p]],
        }
    }
}

/// A method that reads its carried multiplier, as the amplification sees it.
#[derive(Clone, Copy, Debug)]
pub struct Carrying<'a> {
    /// The widths `D`, `M`.
    pub dims: Dims,
    /// The unknown vector's layout.
    pub unknowns: &'a Layout,
    /// The residual vector's layout.
    pub residuals: &'a Layout,
    /// How `λ_{n+1}` is formed.
    pub update: MultiplierUpdate,
}

/// `ρ(R)` of the step from `(q, p)` with the carried multiplier `λ_n = lambda`, converged
/// unknowns `x` and result `(q₁, p₁)` of the compiled stepper `Meth` ([`amplification`]).
/// `None` where the method does not read `λ_n`, the kind has no constraint differential,
/// `2M > N`, or the stage Jacobian or `dφ dφᵀ` is singular.
pub fn multiplier_amplification<Meth, P, const D: usize>(
    problem: &P,
    h: f64,
    (q, p): State<'_, D>,
    lambda: &[f64],
    x: &[f64],
    (q1, p1): State<'_, D>,
) -> Option<f64>
where
    Meth: StageMethod<P, D>,
{
    let update = Meth::MULTIPLIER.filter(|u| u.read)?;
    let (m, n) = (Meth::DIMS.constraints, Meth::UNKNOWNS.len(Meth::DIMS));
    if 2 * m > n || x.len() != n {
        return None;
    }
    let (mut start, mut end) = (
        [vec![0.0; m * D], vec![0.0; m * D]],
        [vec![0.0; m * D], vec![0.0; m * D]],
    );
    let [start_q, start_p] = &mut start;
    let [end_q, end_p] = &mut end;
    if !(Meth::Kind::constraint_differential(problem, (q, p), start_q, start_p)
        && Meth::Kind::constraint_differential(problem, (q1, p1), end_q, end_p))
    {
        return None;
    }
    let mut jacobian = vec![0.0; n * n];
    Meth::jacobian(
        problem,
        h,
        q,
        p,
        lambda,
        x,
        &mut RowMajor::new(&mut jacobian, n)?,
    );
    let mut t = Tangent::zero(n, D);
    Meth::tangent(problem, h, q, p, lambda, x, &mut t.rows(D)?);
    let step = Linearised::of(&jacobian, &t);
    let method = Carrying {
        dims: Meth::DIMS,
        unknowns: &Meth::UNKNOWNS,
        residuals: &Meth::RESIDUALS,
        update,
    };
    amplification(
        h,
        &method,
        &step,
        [&start[0], &start[1]],
        [&end[0], &end[1]],
    )
}

/// `ρ(R)` of one linearised step of size `h` (see the module documentation), from the
/// constraint's differential `dφ = (∂φ/∂q, ∂φ/∂p)` (`M × D` blocks, row-major) at the step's
/// start and at its end; `None` where `2M > N` or the stage Jacobian or `dφ dφᵀ` is singular.
/// Called only when a defect grows, it allocates its work arrays.
pub fn amplification(
    h: f64,
    method: &Carrying<'_>,
    step: &Linearised<'_>,
    start: [&[f64]; 2],
    end: [&[f64]; 2],
) -> Option<f64> {
    let (d, m) = (method.dims.coordinates, method.dims.constraints);
    let n = method.unknowns.len(method.dims);
    if 2 * m > n {
        return None;
    }
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    // The minimum-norm lifts `(δq, δp) = dφᵀ (dφ dφᵀ)⁻¹ e_k` at the start, row k of `lifts`.
    let mut gram = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            gram[i * m + j] = (0..2)
                .map(|b| dot(row(start[b], i, d), row(start[b], j, d)))
                .sum();
        }
    }
    let mut gram_lu = Lu::new(Dynamic::new(m)?);
    gram_lu.refactor(&gram).ok()?;
    let mut lifts = vec![[vec![0.0; d], vec![0.0; d]]; m];
    let mut a = vec![0.0; m];
    for (k, lift) in lifts.iter_mut().enumerate() {
        a.iter_mut()
            .enumerate()
            .for_each(|(i, ai)| *ai = f64::from(u8::from(i == k)));
        gram_lu.solve_in_place(&mut a);
        for (b, l) in lift.iter_mut().enumerate() {
            for (c, lc) in l.iter_mut().enumerate() {
                *lc = (0..m).map(|i| start[b][i * d + c] * a[i]).sum::<f64>() * h;
            }
        }
    }
    let mut lu = Lu::new(Dynamic::new(n)?);
    lu.refactor(step.jacobian).ok()?;
    let continuity = method.residuals.offset(method.update.block, 0, method.dims);
    // R, `2M × 2M`.
    let mut r = vec![0.0; 4 * m * m];
    let zero = vec![0.0; d];
    let (mut dx, mut dz, mut dlambda) = (vec![0.0; n], [vec![0.0; d], vec![0.0; d]], vec![0.0; m]);
    for column in 0..2 * m {
        let [dq, dp] = match lifts.get(column) {
            Some([lq, lp]) => [&lq[..], &lp[..]],
            None => [&zero[..], &zero[..]],
        };
        // δx = −J⁻¹ (∂r/∂q δq + ∂r/∂p δp + ∂r/∂λ δλ), with ∂r/∂λ = −I on the continuity row.
        for (i, dxi) in dx.iter_mut().enumerate() {
            *dxi = -(dot(row(step.r_q, i, d), dq) + dot(row(step.r_p, i, d), dp));
        }
        if column >= m {
            dx[continuity + column - m] += 1.0;
        }
        lu.solve_in_place(&mut dx);
        for (k, (dzk, x_block)) in dz.iter_mut().zip([step.q_x, step.p_x]).enumerate() {
            let [e_q, e_p] = step.explicit[k];
            for (i, z) in dzk.iter_mut().enumerate() {
                *z = dot(row(e_q, i, d), dq)
                    + dot(row(e_p, i, d), dp)
                    + dot(row(x_block, i, n), &dx);
            }
        }
        for i in 0..m {
            r[i * 2 * m + column] =
                (dot(row(end[0], i, d), &dz[0]) + dot(row(end[1], i, d), &dz[1])) / h;
        }
        method
            .update
            .apply(method.unknowns, method.dims, &dx, &mut dlambda);
        for (i, dl) in dlambda.iter().enumerate() {
            r[(m + i) * 2 * m + column] = *dl;
        }
    }
    Some(spectral_radius(&mut r, 2 * m))
}

/// The spectral radius of the `n × n` matrix `a` (row-major, overwritten), by [`SQUARINGS`]
/// normalised squarings: `A^(2^k) = e^c B` with `‖B‖∞ = 1` (largest row sum), so
/// `ρ(A) ≤ ‖A^(2^k)‖∞^(2^−k) = e^(c / 2^k)`.
fn spectral_radius(a: &mut [f64], n: usize) -> f64 {
    let mut log_scale = 0.0;
    let mut square = vec![0.0; n * n];
    for _ in 0..SQUARINGS {
        let norm = largest(a, n);
        if !(norm.is_finite() && norm > 0.0) {
            return norm;
        }
        log_scale = 2.0 * (log_scale + norm.ln());
        for i in 0..n {
            for j in 0..n {
                square[i * n + j] =
                    (0..n).map(|k| a[i * n + k] * a[k * n + j]).sum::<f64>() / (norm * norm);
            }
        }
        a.copy_from_slice(&square);
    }
    let norm = largest(a, n);
    if norm > 0.0 {
        ((log_scale + norm.ln()) / f64::from(1u32 << SQUARINGS)).exp()
    } else {
        0.0
    }
}

/// Row `i` of the row-major `block` of rows `width` long.
fn row(block: &[f64], i: usize, width: usize) -> &[f64] {
    &block[i * width..(i + 1) * width]
}

/// `‖A‖∞`, the largest absolute row sum, of the `n × n` matrix `a`.
fn largest(a: &[f64], n: usize) -> f64 {
    a.chunks_exact(n.max(1))
        .map(|row| row.iter().map(|x| x.abs()).sum::<f64>())
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
        let (c, s) = (1.3 * 0.4f64.cos(), 1.3 * 0.4f64.sin());
        let mut rotation = [c, -s, s, c];
        // ‖R^1024‖∞ = 1.3^1024 (|cos 1024θ| + |sin 1024θ|) ≤ 1.3^1024 √2.
        let rho = spectral_radius(&mut rotation, 2);
        let excess = 2.0f64.powf(1.0 / 2048.0) * (1.0 + 1e-12);
        assert!(rho >= 1.3 * (1.0 - 1e-12) && rho <= 1.3 * excess, "{rho}");
        let mut jordan = [1.0, 1.0, 0.0, 1.0];
        let rho = spectral_radius(&mut jordan, 2);
        assert!((1.0..=(2.0 * 1024.0f64).powf(1.0 / 1024.0)).contains(&rho));
        let entries = [0.3, -1.2, 0.7, 0.9, 0.1, -0.4, 2.0, 0.5, -0.8];
        let matrix = SMatrix::<f64, 3, 3>::from_row_slice(&entries);
        let exact = matrix
            .complex_eigenvalues()
            .iter()
            .fold(0.0f64, |m, e| m.max(e.norm()));
        let mut rows = entries;
        let rho = spectral_radius(&mut rows, 3);
        assert!(
            rho >= exact * (1.0 - 1e-12) && rho <= exact * 1.01,
            "{rho} vs {exact}"
        );
        assert_eq!(spectral_radius(&mut [0.0; 4], 2), 0.0);
    }
}
