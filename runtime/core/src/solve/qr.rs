//! Rank-revealing least squares on `[[f64; N]; N]`: column-pivoted Householder QR followed by a
//! complete orthogonal decomposition, giving the minimum-norm least-squares solution `x = A⁺ b`.
//!
//! **Pivoted QR.** Step `j` moves the column of largest 2-norm in rows `j..N` of the partially
//! reduced matrix to position `j` and annihilates it below the diagonal with a Householder
//! reflector `H_j = I − τ_j v_j v_jᵀ` (`v_j` zero above row `j`, one at row `j`). Hence
//! `A P = Q R` with `Q = H_0 H_1 ⋯` and `|r_00| ≥ |r_11| ≥ …`, each `|r_jj|` being the
//! largest remaining column norm. The factorisation stops at the first step `k` where that norm
//! is `≤ tol·|r_00|`; `k` is the numerical rank. The discarded trailing block `R₂₂` (rows and
//! columns `k..N`) has every column of norm `≤ tol·|r_00|`, so `‖R₂₂‖₂ ≤ √(N−k)·tol·|r_00|`,
//! and `A_k = Q [R₁₁ R₁₂; 0 0] Pᵀ` is within that distance of `A`.
//!
//! **Complete orthogonal decomposition.** The `k × N` trapezoid `[R₁₁ R₁₂]` is reduced from the
//! right, rows `k−1, …, 0`, by reflectors `Z_i` acting on coordinates `{i} ∪ {k..N}`:
//! `[R₁₁ R₁₂] Z_{k−1} ⋯ Z_0 = [T 0]` with `T` upper triangular and nonsingular, so
//! `A_k P = Q [T 0; 0 0] Z` with `Z = Z_0 ⋯ Z_{k−1}` orthogonal.
//!
//! **Minimum-norm solve.** With `c = Qᵀ b` and `u = Z Pᵀ x` (`‖u‖ = ‖x‖`),
//! `‖A_k x − b‖² = ‖T u₁ − c₁‖² + ‖c₂‖²` (`c₁ = c_{0..k}`, `c₂ = c_{k..N}`); the least-squares
//! solutions are `u₁ = T⁻¹ c₁` with `u₂` free, and the one of least norm has `u₂ = 0`:
//! `x = P Zᵀ [T⁻¹ c₁; 0] = A_k⁺ b`. Its residual `A_k x − b = −Q [0; c₂]` is the part of `b`
//! outside `range(A_k)`, of norm `‖c₂‖₂`, which tells a consistent system (`‖c₂‖` at round-off)
//! from an inconsistent one.
//!
//! Norms are sums of squares without rescaling: entries must stay well inside `10^±150`.

/// A non-finite column norm met by [`Qr::factor`] (a NaN or infinite entry, or overflow).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("non-finite matrix: column {column} has 2-norm {norm:e}")]
pub struct NonFiniteMatrix {
    /// The column of the input matrix.
    pub column: usize,
    /// Its (partially reduced) 2-norm.
    pub norm: f64,
}

/// The complete orthogonal decomposition `A P = Q [T 0; 0 0] Z` of a square matrix, truncated at
/// its numerical rank (see the module documentation).
#[derive(Clone, Debug)]
pub struct Qr<const N: usize> {
    /// Rows `0..rank`: `T` in columns `0..rank` (upper triangle) and the `Z_i` vectors in columns
    /// `rank..N`. Below the diagonal of columns `0..rank`: the `H_j` vectors (unit entry
    /// implicit). Rows and columns `rank..N`: the discarded block `R₂₂`.
    qr: [[f64; N]; N],
    /// `τ_j` of `H_j`.
    tau: [f64; N],
    /// `τ_i` of `Z_i`.
    tau_z: [f64; N],
    /// Column `j` of `A P` is column `perm[j]` of `A`.
    perm: [usize; N],
    rank: usize,
    max_pivot: f64,
    min_pivot: f64,
    discarded: f64,
}

/// The minimum-norm least-squares solution of `A x = b` and how much of `b` it cannot reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeastSquares<const N: usize> {
    /// `x = A_k⁺ b`.
    pub x: [f64; N],
    /// `‖A_k x − b‖₂ = ‖(Qᵀ b)_{k..N}‖₂`, the norm of the part of `b` outside `range(A_k)`.
    pub unreachable: f64,
    /// `‖b‖₂`.
    pub rhs: f64,
}

impl<const N: usize> LeastSquares<N> {
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

impl<const N: usize> Qr<N> {
    /// The default relative rank tolerance `10·N·ε`.
    ///
    /// A matrix of exact rank `k` whose entries carry relative rounding errors `δ` (as computed
    /// Jacobians do) has trailing column norms up to about `δ·‖A‖_F ≤ δ·√N·|r_00|`, so the
    /// common `N·ε` leaves little room at small `N`: on 20 000 random products `B Cᵀ` (entries of
    /// `B`, `C` uniform in [−1, 1), one rounding per entry of `A`) the discarded norm reached
    /// 2.3·ε·|r_00| at N = 2 and 4.2·ε·|r_00| at N = 12, and `N·ε` misjudged the rank 5 times
    /// in 20 000 at N = 2 and once in 40 000 at N = 3. The factor 10 covers entries with a few
    /// roundings each; it still counts as full rank any matrix with `|r_kk|/|r_00|` above
    /// `10·N·ε` (2.7e−14 at N = 12).
    pub const DEFAULT_TOLERANCE: f64 = 10.0 * N as f64 * f64::EPSILON;

    /// Factors `a` with column pivoting, stopping at the numerical rank `k`: the first step whose
    /// largest remaining column norm is `≤ tolerance·|r_00|` (`tolerance` in `[0, 1)`, e.g.
    /// [`Self::DEFAULT_TOLERANCE`]; a negative or NaN one counts as 0, which still drops exactly
    /// zero columns); then reduces `[R₁₁ R₁₂]` to `[T 0]`.
    pub fn factor(a: &[[f64; N]; N], tolerance: f64) -> Result<Qr<N>, NonFiniteMatrix> {
        let tolerance = tolerance.max(0.0);
        let mut qr = *a;
        let mut perm = [0usize; N];
        for (j, p) in perm.iter_mut().enumerate() {
            *p = j;
        }
        let mut tau = [0.0; N];
        let (mut rank, mut max_pivot, mut min_pivot, mut discarded) = (N, 0.0, 0.0, 0.0);
        let mut squares = [0.0f64; N];
        for j in 0..N {
            // Squared norms of columns j..N over rows j..N, accumulated row by row.
            squares[j..].fill(0.0);
            for row in &qr[j..] {
                for (s, x) in squares[j..].iter_mut().zip(&row[j..]) {
                    *s += x * x;
                }
            }
            if let Some(c) = (j..N).find(|&c| !squares[c].is_finite()) {
                return Err(NonFiniteMatrix {
                    column: perm[c],
                    norm: squares[c].sqrt(),
                });
            }
            let mut p = j;
            for c in j + 1..N {
                if squares[c] > squares[p] {
                    p = c;
                }
            }
            let norm = squares[p].sqrt();
            if j == 0 {
                max_pivot = norm;
            }
            if norm <= tolerance * max_pivot {
                rank = j;
                discarded = norm;
                break;
            }
            min_pivot = norm;
            for row in qr.iter_mut() {
                row.swap(j, p);
            }
            perm.swap(j, p);
            let alpha = qr[j][j];
            let h = Reflector::new(alpha, qr[j + 1..].iter().map(|row| row[j] * row[j]).sum());
            qr[j][j] = h.beta;
            for row in &mut qr[j + 1..] {
                row[j] *= h.scale;
            }
            tau[j] = h.tau;
            // Columns j+1..N ← H_j · columns: subtract τ v (vᵀ column), vᵀ columns row by row.
            let mut dots = [0.0f64; N];
            dots[j + 1..].copy_from_slice(&qr[j][j + 1..]);
            for row in &qr[j + 1..] {
                for (d, x) in dots[j + 1..].iter_mut().zip(&row[j + 1..]) {
                    *d += row[j] * x;
                }
            }
            for d in &mut dots[j + 1..] {
                *d *= h.tau;
            }
            for (x, d) in qr[j][j + 1..].iter_mut().zip(&dots[j + 1..]) {
                *x -= d;
            }
            for row in &mut qr[j + 1..] {
                let v = row[j];
                for (x, d) in row[j + 1..].iter_mut().zip(&dots[j + 1..]) {
                    *x -= v * d;
                }
            }
        }
        let mut tau_z = [0.0; N];
        // At full rank R₁₂ is empty and Z = I.
        if rank < N {
            for i in (0..rank).rev() {
                let (above, below) = qr.split_at_mut(i);
                let row_i = &mut below[0];
                let alpha = row_i[i];
                let z = Reflector::new(alpha, row_i[rank..].iter().map(|x| x * x).sum());
                row_i[i] = z.beta;
                for x in &mut row_i[rank..] {
                    *x *= z.scale;
                }
                tau_z[i] = z.tau;
                // Rows 0..i ← rows · Z_i on coordinates {i} ∪ {rank..N} (rows below i are zero
                // there).
                let v = &row_i[rank..];
                for row in above.iter_mut() {
                    let dot = row[i] + row[rank..].iter().zip(v).map(|(x, v)| x * v).sum::<f64>();
                    let d = z.tau * dot;
                    row[i] -= d;
                    for (x, v) in row[rank..].iter_mut().zip(v) {
                        *x -= d * v;
                    }
                }
            }
        }
        Ok(Qr {
            qr,
            tau,
            tau_z,
            perm,
            rank,
            max_pivot,
            min_pivot,
            discarded,
        })
    }

    /// The minimum-norm least-squares solution `x = P Zᵀ [T⁻¹ (Qᵀb)_{0..k}; 0]` and the norm
    /// `‖(Qᵀb)_{k..N}‖₂` of the part of `b` it cannot reach.
    pub fn solve_min_norm(&self, b: &[f64; N]) -> LeastSquares<N> {
        let k = self.rank;
        let mut c = *b;
        // c ← Qᵀ b = H_{k−1} ⋯ H_0 b.
        for j in 0..k {
            let tail = self.qr[j + 1..].iter().zip(&c[j + 1..]);
            let d = self.tau[j] * (c[j] + tail.map(|(row, ci)| row[j] * ci).sum::<f64>());
            c[j] -= d;
            for (ci, row) in c[j + 1..].iter_mut().zip(&self.qr[j + 1..]) {
                *ci -= d * row[j];
            }
        }
        let unreachable = norm2(&c[k..]);
        // T u₁ = c₁ by back substitution, column by column; u₂ = 0.
        let mut y = [0.0; N];
        y[..k].copy_from_slice(&c[..k]);
        for i in (0..k).rev() {
            y[i] /= self.qr[i][i];
            let yi = y[i];
            for (ym, row) in y[..i].iter_mut().zip(&self.qr[..i]) {
                *ym -= row[i] * yi;
            }
        }
        // y ← Zᵀ y = Z_{k−1} ⋯ Z_0 y (Z = I at full rank).
        if k < N {
            for i in 0..k {
                let v = &self.qr[i][k..];
                let d =
                    self.tau_z[i] * (y[i] + v.iter().zip(&y[k..]).map(|(v, y)| v * y).sum::<f64>());
                y[i] -= d;
                for (ym, v) in y[k..].iter_mut().zip(v) {
                    *ym -= d * v;
                }
            }
        }
        let mut x = [0.0; N];
        for (yj, &p) in y.iter().zip(&self.perm) {
            x[p] = *yj;
        }
        LeastSquares {
            x,
            unreachable,
            rhs: norm2(b),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Lu;
    use crate::solve::testing::{
        Max, SAMPLES, completed_basis, for_sizes, run_cases, take, to_array, to_vector,
    };
    use nalgebra::DVector;
    use proptest::prelude::*;
    use std::cell::Cell;

    /// A random full-rank matrix (entries uniform in [−1, 1), times 10^e): the QR solve agrees with
    /// LU to the forward-error scale `ε·κ₂(A)` (κ₂ from nalgebra's SVD). Returns the relative
    /// difference and that difference in units of `ε·κ₂`.
    fn full_rank<const N: usize>(
        samples: &[f64],
        exponent: i32,
    ) -> Result<[f64; 2], TestCaseError> {
        let mut s = samples;
        let scale = 10f64.powi(exponent);
        let a = take(&mut s, N, N) * scale;
        let b = take(&mut s, N, 1).column(0).into_owned();
        let singular = a.singular_values();
        let kappa = singular.max() / singular.min();
        let arr = to_array::<N>(&a);
        let qr = Qr::factor(&arr, Qr::<N>::DEFAULT_TOLERANCE)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(qr.rank(), N, "κ = {:e}", kappa);
        let ls = qr.solve_min_norm(&to_vector::<N>(&b));
        let Ok(lu) = Lu::factor(&arr) else {
            return Err(TestCaseError::reject("LU singular"));
        };
        let mut x_lu = to_vector::<N>(&b);
        lu.solve_in_place(&mut x_lu);
        let diff = norm2(&std::array::from_fn::<f64, N, _>(|i| ls.x[i] - x_lu[i])) / norm2(&x_lu);
        let in_units = diff / (f64::EPSILON * kappa);
        prop_assert!(
            in_units <= 10.0 * N as f64,
            "N = {}: difference {:e}, κ = {:e}",
            N,
            diff,
            kappa
        );
        prop_assert!(ls.relative_residual() <= 10.0 * N as f64 * f64::EPSILON * kappa);
        Ok([diff, in_units])
    }

    #[test]
    fn full_rank_solve_agrees_with_lu() {
        let worst = Cell::new([0.0; 2]);
        run_cases(
            (prop::collection::vec(-1.0f64..1.0, SAMPLES), -3i32..=3),
            |(samples, exponent)| {
                worst.set(worst.get().max(for_sizes!(full_rank(&samples, exponent))));
                Ok(())
            },
        );
        let [diff, in_units] = worst.get();
        eprintln!(
            "full rank, N = 2..12: worst |x_qr − x_lu|/|x_lu| = {diff:e} = {in_units:.2} ε·κ₂"
        );
    }

    /// `A = B Cᵀ · 10^e` with `B`, `C` random `N × k` (`k = 1 + seed mod (N−1)`), `y` random and
    /// `b = A y`. Checks: detected rank `k`; `x` equals the pseudo-inverse solution `A⁺ b`, the
    /// projection `W Wᵀ y` of `y` onto `range(C)` = row space of `A` (`W` an orthonormal basis from
    /// nalgebra's QR of `[C | random]`, whose other columns span `null(A)`), so `x ⟂ null(A)` and
    /// `‖x‖ ≤ ‖y‖`; `‖A x − b‖` and the unreachable part are round-off. Then `b + w` with `w`
    /// outside `range(A) = range(B)`: the unreachable part is `‖w‖` and the solution unchanged.
    ///
    /// The rounding of `b = A y` is of size `ε·σ₁·‖y‖` and `A⁺` amplifies it by `1/σ_k`, so errors
    /// are measured in those units (`κ = σ₁/σ_k`); every bound is `10·N` units. Returns
    /// [`RANK_DEFICIENT`]'s measurements.
    fn rank_deficient<const N: usize>(
        samples: &[f64],
        seed: usize,
        exponent: i32,
        w_fraction: f64,
    ) -> Result<[f64; 9], TestCaseError> {
        let k = 1 + seed % (N - 1);
        let mut s = samples;
        let bf = take(&mut s, N, k);
        let cf = take(&mut s, N, k);
        let a = &bf * cf.transpose() * 10f64.powi(exponent);
        let y = take(&mut s, N, 1).column(0).into_owned();
        let b = &a * &y;
        let mut singular: Vec<f64> = a.singular_values().iter().copied().collect();
        singular.sort_by(|u, v| v.total_cmp(u));
        let kappa = singular[0] / singular[k - 1];
        if kappa.is_nan() || kappa >= 1e8 {
            // B or C (nearly) without full column rank: rank k is not what the draw made.
            return Err(TestCaseError::reject("κ > 10⁸"));
        }
        let eps_kappa = f64::EPSILON * kappa;

        let qr = Qr::factor(&to_array::<N>(&a), Qr::<N>::DEFAULT_TOLERANCE)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(qr.rank(), k, "N = {}, σ = {:?}", N, singular);
        let threshold = Qr::<N>::DEFAULT_TOLERANCE * qr.max_pivot();
        let margins = [qr.discarded() / threshold, threshold / qr.min_pivot()];

        let ls = qr.solve_min_norm(&to_vector::<N>(&b));
        let x = DVector::from_column_slice(&ls.x);
        let ny = y.norm();
        // Column space of C (= row space of A) and its complement null(A).
        let basis = completed_basis(&cf, &mut s);
        let w_basis = basis.columns(0, k);
        let x_pinv = w_basis * (w_basis.transpose() * &y);
        let pinv_error = (&x - &x_pinv).norm() / (eps_kappa * ny);
        let null_component = (basis.columns(k, N - k).transpose() * &x).amax() / (eps_kappa * ny);
        let growth = (x.norm() - ny) / ny;
        // b = A y carries rounding errors of size ε·σ₁·‖y‖.
        let b_error = f64::EPSILON * singular[0] * ny;
        let residual = (&a * &x - &b).norm() / b_error;
        let consistent = ls.unreachable / b_error;
        let tol = 10.0 * N as f64;
        prop_assert!(
            pinv_error <= tol,
            "N = {}, k = {}: |x − A⁺b| = {} ε·κ·|y|",
            N,
            k,
            pinv_error
        );
        prop_assert!(
            null_component <= tol,
            "N = {}, k = {}: null component {} ε·κ·|y|",
            N,
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
        let outside = completed_basis(&bf, &mut s).column(N - 1).into_owned();
        let w = outside * (w_fraction * b.norm());
        let bw = &b + &w;
        let lsw = qr.solve_min_norm(&to_vector::<N>(&bw));
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
        let same =
            (DVector::from_column_slice(&lsw.x) - &x).norm() / (kappa * bw_error / singular[k - 1]);
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
            eprintln!("rank deficient, N = 2..12, worst {what}: {value:e}");
        }
    }

    #[test]
    fn rank_one_example() {
        let qr = Qr::factor(&[[1.0, 1.0], [1.0, 1.0]], Qr::<2>::DEFAULT_TOLERANCE).unwrap();
        assert_eq!(qr.rank(), 1);
        // Consistent: x₁ + x₂ = 2, least norm (1, 1).
        let ls = qr.solve_min_norm(&[2.0, 2.0]);
        for xi in ls.x {
            assert!((xi - 1.0).abs() <= 4.0 * f64::EPSILON, "{ls:?}");
        }
        assert!(ls.unreachable <= 4.0 * f64::EPSILON, "{ls:?}");
        // Inconsistent: rows demand 1 and 3; least squares x₁ + x₂ = 2, residual (−1, 1).
        let ls = qr.solve_min_norm(&[1.0, 3.0]);
        for xi in ls.x {
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
        let qr = Qr::factor(&[[0.0; 3]; 3], Qr::<3>::DEFAULT_TOLERANCE).unwrap();
        assert_eq!((qr.rank(), qr.max_pivot(), qr.min_pivot()), (0, 0.0, 0.0));
        let ls = qr.solve_min_norm(&[3.0, 0.0, 4.0]);
        assert_eq!(ls.x, [0.0; 3]);
        assert_eq!(
            (ls.unreachable, ls.rhs, ls.relative_residual()),
            (5.0, 5.0, 1.0)
        );
    }

    #[test]
    fn rank_tolerance_is_configurable() {
        let a = [[1.0, 0.0], [0.0, 1e-10]];
        let full = Qr::factor(&a, Qr::<2>::DEFAULT_TOLERANCE).unwrap();
        assert_eq!(full.rank(), 2);
        assert_eq!(full.solve_min_norm(&[1.0, 1.0]).x, [1.0, 1e10]);
        let truncated = Qr::factor(&a, 1e-8).unwrap();
        assert_eq!((truncated.rank(), truncated.discarded()), (1, 1e-10));
        let ls = truncated.solve_min_norm(&[1.0, 1.0]);
        assert_eq!((ls.x, ls.unreachable), ([1.0, 0.0], 1.0));
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
}
