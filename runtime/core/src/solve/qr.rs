//! Rank-revealing least squares on `n × n` matrices of a [`Space`]: column-pivoted Householder QR followed by a
//! complete orthogonal decomposition, giving the minimum-norm least-squares solution `x = A⁺ b`.
//!
//! **Pivoted QR.** Step `j` moves the column of largest 2-norm in rows `j..n` of the partially
//! reduced matrix to position `j` and annihilates it below the diagonal with a Householder
//! reflector `H_j = I − τ_j v_j v_jᵀ` (`v_j` zero above row `j`, one at row `j`). Hence
//! `A P = Q R` with `Q = H_0 H_1 ⋯` and `|r_00| ≥ |r_11| ≥ …`, each `|r_jj|` being the
//! largest remaining column norm. The factorisation stops at the first step `k` where that norm
//! is `≤ tol·|r_00|`; `k` is the numerical rank. The discarded trailing block `R₂₂` (rows and
//! columns `k..n`) has every column of norm `≤ tol·|r_00|`, so `‖R₂₂‖₂ ≤ √(n−k)·tol·|r_00|`,
//! and `A_k = Q [R₁₁ R₁₂; 0 0] Pᵀ` is within that distance of `A`.
//!
//! **Complete orthogonal decomposition.** The `k × n` trapezoid `[R₁₁ R₁₂]` is reduced from the
//! right, rows `k−1, …, 0`, by reflectors `Z_i` acting on coordinates `{i} ∪ {k..n}`:
//! `[R₁₁ R₁₂] Z_{k−1} ⋯ Z_0 = [T 0]` with `T` upper triangular and nonsingular, so
//! `A_k P = Q [T 0; 0 0] Z` with `Z = Z_0 ⋯ Z_{k−1}` orthogonal.
//!
//! **Minimum-norm solve.** With `c = Qᵀ b` and `u = Z Pᵀ x` (`‖u‖ = ‖x‖`),
//! `‖A_k x − b‖² = ‖T u₁ − c₁‖² + ‖c₂‖²` (`c₁ = c_{0..k}`, `c₂ = c_{k..n}`); the least-squares
//! solutions are `u₁ = T⁻¹ c₁` with `u₂` free, and the one of least norm has `u₂ = 0`:
//! `x = P Zᵀ [T⁻¹ c₁; 0] = A_k⁺ b`. Its residual `A_k x − b = −Q [0; c₂]` is the part of `b`
//! outside `range(A_k)`, of norm `‖c₂‖₂`, which tells a consistent system (`‖c₂‖` at round-off)
//! from an inconsistent one.
//!
//! Norms are sums of squares without rescaling: entries must stay well inside `10^±150`.

use super::space::{Buffer, Fixed, Space};

/// A non-finite column norm met by [`Qr::refactor`] (a NaN or infinite entry, or overflow).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("non-finite matrix: column {column} has 2-norm {norm:e}")]
pub struct NonFiniteMatrix {
    /// The column of the input matrix.
    pub column: usize,
    /// Its (partially reduced) 2-norm.
    pub norm: f64,
}

/// The complete orthogonal decomposition `A P = Q [T 0; 0 0] Z` of an `n × n` matrix, truncated
/// at its numerical rank (see the module documentation), in the storage of the space `S`.
#[derive(Clone, Debug)]
pub struct Qr<S: Space> {
    space: S,
    /// Row-major. Rows `0..rank`: `T` in columns `0..rank` (upper triangle) and the `Z_i` vectors
    /// in columns `rank..n`. Below the diagonal of columns `0..rank`: the `H_j` vectors (unit
    /// entry implicit). Rows and columns `rank..n`: the discarded block `R₂₂`.
    qr: S::Matrix,
    /// `τ_j` of `H_j`.
    tau: S::Vector,
    /// `τ_i` of `Z_i`.
    tau_z: S::Vector,
    /// Column `j` was swapped with column `pivots[j] ≥ j` at step `j < rank` (`P` as successive
    /// swaps).
    pivots: S::Indices,
    /// The squared column norms, then the products `vᵀ column`, of one step of [`Qr::refactor`].
    work: S::Vector,
    rank: usize,
    max_pivot: f64,
    min_pivot: f64,
    discarded: f64,
}

/// How much of `b` the minimum-norm least-squares solution `x = A_k⁺ b` of
/// [`Qr::solve_min_norm_in_place`] cannot reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeastSquares {
    /// `‖A_k x − b‖₂ = ‖(Qᵀ b)_{k..n}‖₂`, the norm of the part of `b` outside `range(A_k)`.
    pub unreachable: f64,
    /// `‖b‖₂`.
    pub rhs: f64,
}

impl LeastSquares {
    /// `‖A_k x − b‖₂ / ‖b‖₂` (0 for `b = 0`): 1 when `b ⟂ range(A_k)`, round-off when `b` is in it.
    pub fn relative_residual(&self) -> f64 {
        if self.rhs > 0.0 {
            self.unreachable / self.rhs
        } else {
            0.0
        }
    }
}

/// A Householder reflector `I − τ v vᵀ` with `v = (1, s·x₁, …)` mapping `(α, x₁, …)` to
/// `(β, 0, …)`, `|β| = ‖(α, x₁, …)‖₂` (the sign of `β` opposite to `α`, so `α − β` does not
/// cancel). When the tail is zero it is the identity (`τ = 0`, `β = α`).
struct Reflector {
    beta: f64,
    tau: f64,
    /// `s = 1/(α − β)`, the factor that turns the tail of `x` into the tail of `v`.
    scale: f64,
}

impl Reflector {
    /// The reflector for `(α, tail)` with `‖tail‖₂² = tail_squared`.
    fn new(alpha: f64, tail_squared: f64) -> Reflector {
        if tail_squared == 0.0 {
            return Reflector {
                beta: alpha,
                tau: 0.0,
                scale: 0.0,
            };
        }
        let beta = -(alpha * alpha + tail_squared).sqrt().copysign(alpha);
        Reflector {
            beta,
            tau: (beta - alpha) / beta,
            scale: 1.0 / (alpha - beta),
        }
    }
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The default relative rank tolerance `10·n·ε` of [`Qr::refactor`] for `n` unknowns.
///
/// A matrix of exact rank `k` whose entries carry relative rounding errors `δ` (as computed
/// Jacobians do) has trailing column norms up to about `δ·‖A‖_F ≤ δ·√n·|r_00|`, so the
/// common `n·ε` leaves little room at small `n`: on 20 000 random products `B Cᵀ` (entries of
/// `B`, `C` uniform in [−1, 1), one rounding per entry of `A`) the discarded norm reached
/// 2.3·ε·|r_00| at n = 2 and 4.2·ε·|r_00| at n = 12, and `n·ε` misjudged the rank 5 times
/// in 20 000 at n = 2 and once in 40 000 at n = 3. The factor 10 covers entries with a few
/// roundings each; it still counts as full rank any matrix with `|r_kk|/|r_00|` above
/// `10·n·ε` (2.7e−14 at n = 12).
pub const fn default_rank_tolerance(n: usize) -> f64 {
    10.0 * n as f64 * f64::EPSILON
}

impl<const N: usize> Qr<Fixed<N>> {
    /// [`default_rank_tolerance`]`(N)`.
    pub const DEFAULT_TOLERANCE: f64 = default_rank_tolerance(N);

    /// Factors `a`, see [`Self::refactor`].
    pub fn factor(a: &[[f64; N]; N], tolerance: f64) -> Result<Self, NonFiniteMatrix> {
        let mut qr = Qr {
            qr: *a,
            ..Qr::new(Fixed)
        };
        qr.decompose(tolerance)?;
        Ok(qr)
    }
}

impl<S: Space> Qr<S> {
    /// Storage for the decomposition of an `n × n` matrix (that of the zero matrix until
    /// [`Self::refactor`] succeeds); the only allocation for a run-time size.
    pub fn new(space: S) -> Self {
        Qr {
            space,
            qr: space.matrix(),
            tau: space.vector(),
            tau_z: space.vector(),
            pivots: space.indices(),
            work: space.vector(),
            rank: 0,
            max_pivot: 0.0,
            min_pivot: 0.0,
            discarded: 0.0,
        }
    }

    /// The space of the factored matrix.
    pub fn space(&self) -> S {
        self.space
    }

    /// Factors the `n × n` row-major matrix `a` (of `n²` entries, else panics) with column
    /// pivoting, overwriting the decomposition held, stopping at the numerical rank `k`: the
    /// first step whose largest remaining column norm is `≤ tolerance·|r_00|` (`tolerance` in
    /// `[0, 1)`, e.g. [`default_rank_tolerance`]; a negative or NaN one counts as 0, which still
    /// drops exactly zero columns); then reduces `[R₁₁ R₁₂]` to `[T 0]`. After an error the
    /// decomposition is not usable.
    pub fn refactor(&mut self, a: &[f64], tolerance: f64) -> Result<(), NonFiniteMatrix> {
        self.qr.entries_mut().copy_from_slice(a);
        self.decompose(tolerance)
    }

    /// Decomposes the matrix held in `self.qr` in place.
    fn decompose(&mut self, tolerance: f64) -> Result<(), NonFiniteMatrix> {
        let n = self.space.dim();
        let tolerance = tolerance.max(0.0);
        let qr = self.qr.entries_mut();
        let pivots = self.pivots.entries_mut();
        let tau = self.tau.entries_mut();
        let work = self.work.entries_mut();
        let (mut rank, mut max_pivot, mut min_pivot, mut discarded) = (n, 0.0, 0.0, 0.0);
        for j in 0..n {
            // Squared norms of columns j..n over rows j..n, accumulated row by row.
            let squares = &mut work[j..];
            squares.fill(0.0);
            for row in qr[j * n..].chunks_exact(n) {
                for (s, x) in squares.iter_mut().zip(&row[j..]) {
                    *s += x * x;
                }
            }
            if let Some(c) = (j..n).find(|&c| !work[c].is_finite()) {
                return Err(NonFiniteMatrix {
                    column: original_column(&pivots[..j], c),
                    norm: work[c].sqrt(),
                });
            }
            let mut p = j;
            for c in j + 1..n {
                if work[c] > work[p] {
                    p = c;
                }
            }
            let norm = work[p].sqrt();
            if j == 0 {
                max_pivot = norm;
            }
            if norm <= tolerance * max_pivot {
                rank = j;
                discarded = norm;
                break;
            }
            min_pivot = norm;
            for row in qr.chunks_exact_mut(n) {
                row.swap(j, p);
            }
            pivots[j] = p;
            let (above, below) = qr.split_at_mut((j + 1) * n);
            let row_j = &mut above[j * n..];
            let alpha = row_j[j];
            let h = Reflector::new(
                alpha,
                below.chunks_exact(n).map(|row| row[j] * row[j]).sum(),
            );
            row_j[j] = h.beta;
            for row in below.chunks_exact_mut(n) {
                row[j] *= h.scale;
            }
            tau[j] = h.tau;
            // Columns j+1..n ← H_j · columns: subtract τ v (vᵀ column), vᵀ columns row by row.
            let dots = &mut work[j + 1..];
            dots.copy_from_slice(&row_j[j + 1..]);
            for row in below.chunks_exact(n) {
                for (d, x) in dots.iter_mut().zip(&row[j + 1..]) {
                    *d += row[j] * x;
                }
            }
            for d in dots.iter_mut() {
                *d *= h.tau;
            }
            for (x, d) in row_j[j + 1..].iter_mut().zip(dots.iter()) {
                *x -= d;
            }
            for row in below.chunks_exact_mut(n) {
                let v = row[j];
                for (x, d) in row[j + 1..].iter_mut().zip(dots.iter()) {
                    *x -= v * d;
                }
            }
        }
        let tau_z = self.tau_z.entries_mut();
        // At full rank R₁₂ is empty and Z = I.
        if rank < n {
            for i in (0..rank).rev() {
                let (above, below) = qr.split_at_mut(i * n);
                let row_i = &mut below[..n];
                let alpha = row_i[i];
                let z = Reflector::new(alpha, row_i[rank..].iter().map(|x| x * x).sum());
                row_i[i] = z.beta;
                for x in &mut row_i[rank..] {
                    *x *= z.scale;
                }
                tau_z[i] = z.tau;
                // Rows 0..i ← rows · Z_i on coordinates {i} ∪ {rank..n} (rows below i are zero
                // there).
                let v = &row_i[rank..];
                for row in above.chunks_exact_mut(n) {
                    let dot = row[i] + row[rank..].iter().zip(v).map(|(x, v)| x * v).sum::<f64>();
                    let d = z.tau * dot;
                    row[i] -= d;
                    for (x, v) in row[rank..].iter_mut().zip(v) {
                        *x -= d * v;
                    }
                }
            }
        }
        self.rank = rank;
        self.max_pivot = max_pivot;
        self.min_pivot = min_pivot;
        self.discarded = discarded;
        Ok(())
    }

    /// Overwrites `b` (of `n` entries, else panics) with the minimum-norm least-squares solution
    /// `x = P Zᵀ [T⁻¹ (Qᵀb)_{0..k}; 0]` and returns the norm `‖(Qᵀb)_{k..n}‖₂` of the part of
    /// `b` it cannot reach.
    pub fn solve_min_norm_in_place(&self, b: &mut [f64]) -> LeastSquares {
        let n = self.space.dim();
        assert_eq!(b.len(), n, "right-hand side of another size");
        let k = self.rank;
        let qr = self.qr.entries();
        let rhs = norm2(b);
        let c = b;
        // c ← Qᵀ b = H_{k−1} ⋯ H_0 b.
        for j in 0..k {
            let tail = qr[(j + 1) * n..].chunks_exact(n).zip(&c[j + 1..]);
            let d = self.tau.entries()[j] * (c[j] + tail.map(|(row, ci)| row[j] * ci).sum::<f64>());
            c[j] -= d;
            for (ci, row) in c[j + 1..].iter_mut().zip(qr[(j + 1) * n..].chunks_exact(n)) {
                *ci -= d * row[j];
            }
        }
        let unreachable = norm2(&c[k..]);
        // T u₁ = c₁ by back substitution, column by column; u₂ = 0.
        let y = c;
        y[k..].fill(0.0);
        for i in (0..k).rev() {
            y[i] /= qr[i * n + i];
            let yi = y[i];
            for (ym, row) in y[..i].iter_mut().zip(qr.chunks_exact(n)) {
                *ym -= row[i] * yi;
            }
        }
        // y ← Zᵀ y = Z_{k−1} ⋯ Z_0 y (Z = I at full rank).
        if k < n {
            let tau_z = self.tau_z.entries();
            for (i, row) in qr.chunks_exact(n).enumerate().take(k) {
                let v = &row[k..];
                let d = tau_z[i] * (y[i] + v.iter().zip(&y[k..]).map(|(v, y)| v * y).sum::<f64>());
                y[i] -= d;
                for (ym, v) in y[k..].iter_mut().zip(v) {
                    *ym -= d * v;
                }
            }
        }
        // x = P y: the column swaps undone in reverse order.
        for (j, &p) in self.pivots.entries()[..k].iter().enumerate().rev() {
            y.swap(j, p);
        }
        LeastSquares { unreachable, rhs }
    }

    /// The numerical rank `k`.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// `|r_00|`, the largest column norm of `A`.
    pub fn max_pivot(&self) -> f64 {
        self.max_pivot
    }

    /// `|r_{k−1,k−1}|`, the smallest retained pivot (0 for rank 0).
    pub fn min_pivot(&self) -> f64 {
        self.min_pivot
    }

    /// The largest column norm of the discarded block `R₂₂` (the would-be pivot `|r_kk|`, at most
    /// `tolerance·|r_00|`; 0 at full rank). `min_pivot / discarded` is the gap that the rank
    /// decision rests on.
    pub fn discarded(&self) -> f64 {
        self.discarded
    }
}

/// The column of `A` at position `c` of `A P` after the swaps `pivots` (column `j` with
/// `pivots[j]`, in order).
fn original_column(pivots: &[usize], c: usize) -> usize {
    pivots.iter().enumerate().rev().fold(c, |c, (j, &p)| {
        if c == j {
            p
        } else if c == p {
            j
        } else {
            c
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Lu;
    use crate::solve::testing::{
        Max, SAMPLES, completed_basis, for_sizes, run_cases, scaled_samples, scaled_system, take,
        to_matrix, to_vector, worst_case,
    };
    use nalgebra::DVector;
    use proptest::prelude::*;
    use std::cell::Cell;

    /// A random full-rank matrix (entries uniform in [−1, 1), times 10^e): the QR solve agrees with
    /// LU to the forward-error scale `ε·κ₂(A)` (κ₂ from nalgebra's SVD). Returns the relative
    /// difference and that difference in units of `ε·κ₂`.
    fn full_rank<S: Space>(
        space: S,
        samples: &[f64],
        exponent: i32,
    ) -> Result<[f64; 2], TestCaseError> {
        let n = space.dim();
        let (a, b) = scaled_system(n, samples, exponent);
        let singular = a.singular_values();
        let kappa = singular.max() / singular.min();
        let entries = to_matrix(space, &a);
        let mut qr = Qr::new(space);
        qr.refactor(entries.entries(), default_rank_tolerance(n))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(qr.rank(), n, "κ = {:e}", kappa);
        let mut x = to_vector(space, &b);
        let ls = qr.solve_min_norm_in_place(x.entries_mut());
        let mut lu = Lu::new(space);
        if lu.refactor(entries.entries()).is_err() {
            return Err(TestCaseError::reject("LU singular"));
        }
        let mut x_lu = to_vector(space, &b);
        lu.solve_in_place(x_lu.entries_mut());
        let (x, x_lu) = (x.entries(), x_lu.entries());
        let diff = norm2(&x.iter().zip(x_lu).map(|(u, v)| u - v).collect::<Vec<_>>()) / norm2(x_lu);
        let in_units = diff / (f64::EPSILON * kappa);
        prop_assert!(
            in_units <= 10.0 * n as f64,
            "n = {}: difference {:e}, κ = {:e}",
            n,
            diff,
            kappa
        );
        prop_assert!(ls.relative_residual() <= 10.0 * n as f64 * f64::EPSILON * kappa);
        Ok([diff, in_units])
    }

    #[test]
    fn full_rank_solve_agrees_with_lu() {
        let [diff, in_units] = worst_case(scaled_samples(), |(samples, exponent)| {
            Ok(for_sizes!(full_rank(&samples, exponent)))
        });
        eprintln!(
            "full rank, n = 2..12, fixed and run-time size: worst |x_qr − x_lu|/|x_lu| = {diff:e} = {in_units:.2} ε·κ₂"
        );
    }

    /// `A = B Cᵀ · 10^e` with `B`, `C` random `n × k` (`k = 1 + seed mod (n−1)`), `y` random and
    /// `b = A y`. Checks: detected rank `k`; `x` equals the pseudo-inverse solution `A⁺ b`, the
    /// projection `W Wᵀ y` of `y` onto `range(C)` = row space of `A` (`W` an orthonormal basis from
    /// nalgebra's QR of `[C | random]`, whose other columns span `null(A)`), so `x ⟂ null(A)` and
    /// `‖x‖ ≤ ‖y‖`; `‖A x − b‖` and the unreachable part are round-off. Then `b + w` with `w`
    /// outside `range(A) = range(B)`: the unreachable part is `‖w‖` and the solution unchanged.
    ///
    /// The rounding of `b = A y` is of size `ε·σ₁·‖y‖` and `A⁺` amplifies it by `1/σ_k`, so errors
    /// are measured in those units (`κ = σ₁/σ_k`); every bound is `10·n` units. Returns
    /// [`RANK_DEFICIENT`]'s measurements.
    fn rank_deficient<S: Space>(
        space: S,
        samples: &[f64],
        seed: usize,
        exponent: i32,
        w_fraction: f64,
    ) -> Result<[f64; 9], TestCaseError> {
        let n = space.dim();
        let k = 1 + seed % (n - 1);
        let mut s = samples;
        let bf = take(&mut s, n, k);
        let cf = take(&mut s, n, k);
        let a = &bf * cf.transpose() * 10f64.powi(exponent);
        let y = take(&mut s, n, 1).column(0).into_owned();
        let b = &a * &y;
        let mut singular: Vec<f64> = a.singular_values().iter().copied().collect();
        singular.sort_by(|u, v| v.total_cmp(u));
        let kappa = singular[0] / singular[k - 1];
        if kappa.is_nan() || kappa >= 1e8 {
            // B or C (nearly) without full column rank: rank k is not what the draw made.
            return Err(TestCaseError::reject("κ > 10⁸"));
        }
        let eps_kappa = f64::EPSILON * kappa;

        let mut qr = Qr::new(space);
        qr.refactor(to_matrix(space, &a).entries(), default_rank_tolerance(n))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(qr.rank(), k, "n = {}, σ = {:?}", n, singular);
        let threshold = default_rank_tolerance(n) * qr.max_pivot();
        let margins = [qr.discarded() / threshold, threshold / qr.min_pivot()];

        let mut x = to_vector(space, &b);
        let ls = qr.solve_min_norm_in_place(x.entries_mut());
        let x = DVector::from_column_slice(x.entries());
        let ny = y.norm();
        // Column space of C (= row space of A) and its complement null(A).
        let basis = completed_basis(&cf, &mut s);
        let w_basis = basis.columns(0, k);
        let x_pinv = w_basis * (w_basis.transpose() * &y);
        let pinv_error = (&x - &x_pinv).norm() / (eps_kappa * ny);
        let null_component = (basis.columns(k, n - k).transpose() * &x).amax() / (eps_kappa * ny);
        let growth = (x.norm() - ny) / ny;
        // b = A y carries rounding errors of size ε·σ₁·‖y‖.
        let b_error = f64::EPSILON * singular[0] * ny;
        let residual = (&a * &x - &b).norm() / b_error;
        let consistent = ls.unreachable / b_error;
        let tol = 10.0 * n as f64;
        prop_assert!(
            pinv_error <= tol,
            "n = {}, k = {}: |x − A⁺b| = {} ε·κ·|y|",
            n,
            k,
            pinv_error
        );
        prop_assert!(
            null_component <= tol,
            "n = {}, k = {}: null component {} ε·κ·|y|",
            n,
            k,
            null_component
        );
        prop_assert!(
            growth <= tol * eps_kappa,
            "|x| = {}, |y| = {}",
            x.norm(),
            ny
        );
        prop_assert!(residual <= tol, "|Ax − b| = {} ε·σ₁·|y|", residual);
        prop_assert!(consistent <= tol, "unreachable = {} ε·σ₁·|y|", consistent);

        // w ⟂ range(B) from nalgebra's QR of [B | random].
        let outside = completed_basis(&bf, &mut s).column(n - 1).into_owned();
        let w = outside * (w_fraction * b.norm());
        let bw = &b + &w;
        let mut xw = to_vector(space, &bw);
        let lsw = qr.solve_min_norm_in_place(xw.entries_mut());
        let bw_error = b_error + f64::EPSILON * w.norm();
        let unreachable_error = (lsw.unreachable - w.norm()).abs() / bw_error;
        prop_assert!(
            unreachable_error <= tol,
            "unreachable {:e} vs |w| = {:e}",
            lsw.unreachable,
            w.norm()
        );
        prop_assert!(lsw.relative_residual() >= w_fraction / (1.0 + w_fraction) * (1.0 - 1e-6));
        // range(A) is range(B) only to an angle ε·κ: A⁺w is of order ε·κ·|w|/σ_k.
        let same = (DVector::from_column_slice(xw.entries()) - &x).norm()
            / (kappa * bw_error / singular[k - 1]);
        prop_assert!(
            same <= tol,
            "|A⁺(b + w) − A⁺b| = {} ε·κ·(σ₁|y| + |w|)/σ_k",
            same
        );
        Ok([
            margins[0],
            margins[1],
            pinv_error,
            null_component,
            growth,
            residual,
            consistent,
            unreachable_error,
            same,
        ])
    }

    /// What [`rank_deficient`] returns.
    const RANK_DEFICIENT: [&str; 9] = [
        "discarded/(tol·|r₀₀|) (< 1 at the right rank)",
        "tol·|r₀₀|/min_pivot (< 1 at the right rank)",
        "|x − A⁺b|/(ε·κ·|y|)",
        "max |n_jᵀx| over a basis of null(A), /(ε·κ·|y|)",
        "(|x| − |y|)/|y|",
        "|Ax − b|/(ε·σ₁·|y|)",
        "consistent unreachable part/(ε·σ₁·|y|)",
        "|unreachable − |w||/(ε·(σ₁|y| + |w|))",
        "|A⁺(b + w) − A⁺b|/(ε·κ·(σ₁|y| + |w|)/σ_k)",
    ];

    #[test]
    fn rank_deficient_min_norm_solution_is_the_pseudo_inverse_one() {
        let worst = Cell::new([f64::NEG_INFINITY; 9]);
        run_cases(
            (
                prop::collection::vec(-1.0f64..1.0, SAMPLES),
                0usize..1000,
                -3i32..=3,
                0.01f64..1.0,
            ),
            |(samples, seed, exponent, w_fraction)| {
                let measured = for_sizes!(rank_deficient(&samples, seed, exponent, w_fraction));
                worst.set(worst.get().max(measured));
                Ok(())
            },
        );
        for (what, value) in RANK_DEFICIENT.iter().zip(worst.get()) {
            eprintln!(
                "rank deficient, n = 2..12, fixed and run-time size, worst {what}: {value:e}"
            );
        }
    }

    #[test]
    fn rank_one_example() {
        let qr = Qr::factor(&[[1.0, 1.0], [1.0, 1.0]], Qr::<Fixed<2>>::DEFAULT_TOLERANCE).unwrap();
        assert_eq!(qr.rank(), 1);
        // Consistent: x₁ + x₂ = 2, least norm (1, 1).
        let mut x = [2.0, 2.0];
        let ls = qr.solve_min_norm_in_place(&mut x);
        for xi in x {
            assert!((xi - 1.0).abs() <= 4.0 * f64::EPSILON, "{ls:?}");
        }
        assert!(ls.unreachable <= 4.0 * f64::EPSILON, "{ls:?}");
        // Inconsistent: rows demand 1 and 3; least squares x₁ + x₂ = 2, residual (−1, 1).
        let mut x = [1.0, 3.0];
        let ls = qr.solve_min_norm_in_place(&mut x);
        for xi in x {
            assert!((xi - 1.0).abs() <= 4.0 * f64::EPSILON, "{ls:?}");
        }
        assert!(
            (ls.unreachable - 2f64.sqrt()).abs() <= 4.0 * f64::EPSILON,
            "{ls:?}"
        );
        assert!((ls.relative_residual() - 2f64.sqrt() / 10f64.sqrt()).abs() <= 1e-15);
    }

    #[test]
    fn zero_matrix_has_rank_zero() {
        let qr = Qr::factor(&[[0.0; 3]; 3], Qr::<Fixed<3>>::DEFAULT_TOLERANCE).unwrap();
        assert_eq!((qr.rank(), qr.max_pivot(), qr.min_pivot()), (0, 0.0, 0.0));
        let mut x = [3.0, 0.0, 4.0];
        let ls = qr.solve_min_norm_in_place(&mut x);
        assert_eq!(x, [0.0; 3]);
        assert_eq!(
            (ls.unreachable, ls.rhs, ls.relative_residual()),
            (5.0, 5.0, 1.0)
        );
    }

    #[test]
    fn rank_tolerance_is_configurable() {
        let a = [[1.0, 0.0], [0.0, 1e-10]];
        let full = Qr::factor(&a, Qr::<Fixed<2>>::DEFAULT_TOLERANCE).unwrap();
        assert_eq!(full.rank(), 2);
        let mut x = [1.0, 1.0];
        full.solve_min_norm_in_place(&mut x);
        assert_eq!(x, [1.0, 1e10]);
        let truncated = Qr::factor(&a, 1e-8).unwrap();
        assert_eq!((truncated.rank(), truncated.discarded()), (1, 1e-10));
        let mut x = [1.0, 1.0];
        let ls = truncated.solve_min_norm_in_place(&mut x);
        assert_eq!((x, ls.unreachable), ([1.0, 0.0], 1.0));
    }

    #[test]
    fn non_finite_entries_are_reported() {
        let err = Qr::factor(&[[1.0, 2.0], [f64::NAN, 1.0]], 0.0).unwrap_err();
        assert_eq!(err.column, 0);
        assert!(err.norm.is_nan());
        let err = Qr::factor(&[[1.0, f64::INFINITY], [0.0, 1.0]], 0.0).unwrap_err();
        assert_eq!((err.column, err.norm), (1, f64::INFINITY));
        // A NaN tolerance counts as 0: the zero column is still dropped.
        let qr = Qr::factor(&[[1.0, 0.0], [2.0, 0.0]], f64::NAN).unwrap();
        assert_eq!(qr.rank(), 1);
    }

    /// Swaps 0 ↔ 2, then 1 ↔ 2 make the column order `(2, 0, 1)`.
    #[test]
    fn swapped_columns_are_traced_to_the_input() {
        let columns: Vec<usize> = (0..3).map(|c| original_column(&[2, 2], c)).collect();
        assert_eq!(columns, [2, 0, 1]);
        assert_eq!(original_column(&[], 1), 1);
    }

    /// The same matrices factored and solved in both spaces: the same bits.
    #[test]
    fn run_time_size_gives_the_fixed_size_bits() {
        let a = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.5, 1.0]];
        let fixed = Qr::factor(&a, Qr::<Fixed<3>>::DEFAULT_TOLERANCE).unwrap();
        let mut run_time = Qr::new(crate::solve::testing::dynamic(3));
        run_time
            .refactor(a.as_flattened(), default_rank_tolerance(3))
            .unwrap();
        assert_eq!((fixed.rank(), run_time.rank()), (2, 2));
        let (mut x, mut y) = ([7.0, 14.0, 3.5], [7.0, 14.0, 3.5]);
        let (ls, ls_run_time) = (
            fixed.solve_min_norm_in_place(&mut x),
            run_time.solve_min_norm_in_place(&mut y),
        );
        assert_eq!(x.map(f64::to_bits), y.map(f64::to_bits));
        assert_eq!(ls, ls_run_time);
    }
}
