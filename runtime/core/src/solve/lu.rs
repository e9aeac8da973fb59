//! LU factorisation with partial pivoting, `P A = L U`, on `n × n` matrices of a [`Space`].
//!
//! Written out here because nalgebra's fixed-size LU cannot be named inside `const N`
//! generic code on stable Rust.

use super::space::{Buffer, Fixed, Space};

/// A pivot too small relative to the matrix: `|u_kk| ≤ n·ε·max_ij |a_ij|`.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("singular matrix: pivot {pivot:e} in column {column} (max |a_ij| = {scale:e})")]
pub struct SingularMatrix {
    /// The column whose best pivot is negligible.
    pub column: usize,
    /// That pivot.
    pub pivot: f64,
    /// `max_ij |a_ij|`, the scale the pivot was judged against.
    pub scale: f64,
}

/// The factors of `P A = L U` of an `n × n` matrix (unit lower `L` and `U` packed in one
/// row-major matrix), in the storage of the space `S`.
#[derive(Clone, Debug)]
pub struct Lu<S: Space> {
    space: S,
    lu: S::Matrix,
    /// Row `k` was swapped with row `pivots[k] ≥ k` at step `k` (`P` as successive swaps).
    pivots: S::Indices,
    /// `1 / u_kk`, by which the back substitution multiplies (a division on its critical path
    /// at every unknown would cost several multiplications).
    reciprocals: S::Vector,
    min_pivot: f64,
    max_pivot: f64,
}

/// `max_i |v_i|` in four independent lanes (one running maximum is one long dependency chain),
/// with plain comparisons that compile to vector maxima. A NaN entry may or may not propagate
/// (then the threshold is NaN and [`Lu::factor`] reports column 0 singular); the elimination
/// spreads it to a pivot either way.
pub(super) fn max_abs(v: &[f64]) -> f64 {
    let larger = |m: f64, x: &f64| if x.abs() > m { x.abs() } else { m };
    let mut lanes = [0.0f64; 4];
    let chunks = v.chunks_exact(4);
    let tail = chunks.remainder();
    for chunk in chunks {
        for (m, x) in lanes.iter_mut().zip(chunk) {
            *m = larger(*m, x);
        }
    }
    tail.iter().chain(&lanes).fold(0.0, larger)
}

impl<const N: usize> Lu<Fixed<N>> {
    /// The solution `x` of the small dense system `A x = b` on nalgebra's fixed-size types (LU
    /// with partial pivoting); `None` where `A` is singular or `x` is not finite.
    pub fn solve_matrix(
        a: &nalgebra::SMatrix<f64, N, N>,
        b: &nalgebra::SVector<f64, N>,
    ) -> Option<nalgebra::SVector<f64, N>> {
        let rows: [[f64; N]; N] = std::array::from_fn(|r| std::array::from_fn(|c| a[(r, c)]));
        let lu = Lu::factor(&rows).ok()?;
        let mut x: [f64; N] = std::array::from_fn(|i| b[i]);
        lu.solve_in_place(&mut x);
        x.iter()
            .all(|v| v.is_finite())
            .then(|| nalgebra::SVector::from(x))
    }

    /// Factors `a`, see [`Self::refactor`].
    pub fn factor(a: &[[f64; N]; N]) -> Result<Self, SingularMatrix> {
        let mut lu = Lu {
            space: Fixed,
            lu: *a,
            pivots: [0; N],
            reciprocals: [0.0; N],
            min_pivot: 0.0,
            max_pivot: 0.0,
        };
        lu.eliminate::<false>(0, &mut [])?;
        Ok(lu)
    }
}

impl<S: Space> Lu<S> {
    /// Storage for the factors of an `n × n` matrix (the identity's until [`Self::refactor`]
    /// succeeds); the only allocation for a run-time size.
    pub fn new(space: S) -> Self {
        let mut pivots = space.indices();
        for (k, p) in pivots.entries_mut().iter_mut().enumerate() {
            *p = k;
        }
        Lu {
            space,
            lu: space.matrix(),
            pivots,
            reciprocals: space.vector(),
            min_pivot: 0.0,
            max_pivot: 0.0,
        }
    }

    /// The space of the factored matrix.
    pub fn space(&self) -> S {
        self.space
    }

    /// Factors the `n × n` row-major matrix `a` (of `n²` entries, else panics) with row
    /// pivoting, overwriting the factors held; a pivot `|u_kk| ≤ n·ε·max|a_ij|` (or a non-finite
    /// entry) is reported as singular, and the factors are then not usable.
    pub fn refactor(&mut self, a: &[f64]) -> Result<(), SingularMatrix> {
        self.lu.entries_mut().copy_from_slice(a);
        self.eliminate::<false>(0, &mut [])
    }

    /// [`Self::refactor`] with the first `fixed` pivots prescribed on the diagonal: step
    /// `k < fixed` takes `(k, k)` as its pivot without a search (still judged against the same
    /// threshold) and updates only the rows whose entry in column `k` is nonzero, over the
    /// nonzero entries of the pivot row (listed in `nonzeros`, `n` long) — the elimination of
    /// static pivots that a caller has ordered first ([`super::ReducedLu`]).
    pub(super) fn refactor_prescribed(
        &mut self,
        a: &[f64],
        fixed: usize,
        nonzeros: &mut [usize],
    ) -> Result<(), SingularMatrix> {
        self.lu.entries_mut().copy_from_slice(a);
        self.eliminate::<true>(fixed, nonzeros)
    }

    /// After [`Self::refactor`] failed at `column` `k`: writes into `x` (`n` long) the direction
    /// `x` with `x_k = 1`, `x_j = 0` for `j > k` and `U₁₁ x₁ = −u_k` on the first `k` unknowns
    /// (`U₁₁` the `k × k` upper factor eliminated so far, `u_k` its column `k`), which `A` maps
    /// to a vector no larger than the negligible pivot: the direction the equations leave
    /// undetermined.
    pub fn null_direction(&self, column: usize, x: &mut [f64]) {
        let n = self.space.dim();
        let lu = self.lu.entries();
        x.fill(0.0);
        x[column] = 1.0;
        for i in (0..column).rev() {
            let row = &lu[i * n..(i + 1) * n];
            let sum: f64 = (i + 1..=column).map(|j| row[j] * x[j]).sum();
            x[i] = -sum / row[i];
        }
    }

    /// Factors the matrix held in `self.lu` in place, with `PRESCRIBED` the first `fixed` pivots
    /// prescribed (see [`Self::refactor_prescribed`]); without, the plain elimination, in which
    /// the compiler sees no prescribed step.
    fn eliminate<const PRESCRIBED: bool>(
        &mut self,
        fixed: usize,
        nonzeros: &mut [usize],
    ) -> Result<(), SingularMatrix> {
        let fixed = if PRESCRIBED { fixed } else { 0 };
        let n = self.space.dim();
        let lu = self.lu.entries_mut();
        let pivots = self.pivots.entries_mut();
        let diagonal_reciprocals = self.reciprocals.entries_mut();
        let scale = max_abs(lu);
        let threshold = n as f64 * f64::EPSILON * scale;
        let (mut min_pivot, mut max_pivot) = (f64::INFINITY, 0.0f64);
        for k in 0..n {
            let mut p = k;
            // A prescribed pivot is not searched for.
            let first = if k < fixed { n } else { k + 1 };
            for i in first..n {
                if lu[i * n + k].abs() > lu[p * n + k].abs() {
                    p = i;
                }
            }
            let pivot = lu[p * n + k];
            // Written so that a NaN pivot also counts as singular.
            if pivot.abs().partial_cmp(&threshold) != Some(std::cmp::Ordering::Greater) {
                return Err(SingularMatrix {
                    column: k,
                    pivot,
                    scale,
                });
            }
            min_pivot = min_pivot.min(pivot.abs());
            max_pivot = max_pivot.max(pivot.abs());
            let (top, bottom) = lu.split_at_mut((k + 1) * n);
            if p > k {
                top[k * n..].swap_with_slice(&mut bottom[(p - k - 1) * n..(p - k) * n]);
            }
            pivots[k] = p;
            let row_k = &top[k * n + k + 1..];
            diagonal_reciprocals[k] = 1.0 / pivot;
            if k < fixed {
                let mut count = 0;
                for (j, u) in row_k.iter().enumerate() {
                    if *u != 0.0 {
                        nonzeros[count] = j;
                        count += 1;
                    }
                }
                for row in bottom.chunks_exact_mut(n) {
                    if row[k] == 0.0 {
                        continue;
                    }
                    let factor = row[k] / pivot;
                    row[k] = factor;
                    let rest = &mut row[k + 1..];
                    for &j in &nonzeros[..count] {
                        rest[j] -= factor * row_k[j];
                    }
                }
                continue;
            }
            for row in bottom.chunks_exact_mut(n) {
                let factor = row[k] / pivot;
                row[k] = factor;
                for (x, u) in row[k + 1..].iter_mut().zip(row_k) {
                    *x -= factor * u;
                }
            }
        }
        self.min_pivot = min_pivot;
        self.max_pivot = max_pivot;
        Ok(())
    }

    /// Solves `A x = b` in place (`b` of `n` entries, else panics): `L y = P b`, then `U x = y`,
    /// both column by column (each solved component is subtracted from the ones still open,
    /// independent updates instead of one dependent sum per row), `x_j = y_j·(1/u_jj)` with the
    /// reciprocals of the factorisation (within an ulp of `y_j/u_jj`; Newton's next residual
    /// sees the difference like any other round-off of the update).
    pub fn solve_in_place(&self, b: &mut [f64]) {
        let n = self.space.dim();
        assert_eq!(b.len(), n, "right-hand side of another size");
        let lu = self.lu.entries();
        let reciprocals = self.reciprocals.entries();
        let y = b;
        for (k, &p) in self.pivots.entries().iter().enumerate() {
            y.swap(k, p);
        }
        for j in 0..n {
            let yj = y[j];
            for i in j + 1..n {
                y[i] -= lu[i * n + j] * yj;
            }
        }
        for j in (0..n).rev() {
            y[j] *= reciprocals[j];
            let yj = y[j];
            for i in 0..j {
                y[i] -= lu[i * n + j] * yj;
            }
        }
    }

    /// The packed factors `L` and `U`, row-major.
    #[cfg(test)]
    pub(super) fn factors(&self) -> &[f64] {
        self.lu.entries()
    }

    /// The smallest pivot magnitude `min_k |u_kk|`.
    pub fn min_pivot(&self) -> f64 {
        self.min_pivot
    }

    /// A cheap reciprocal-condition indicator `min_k |u_kk| / max_k |u_kk|`.
    pub fn pivot_ratio(&self) -> f64 {
        if self.max_pivot > 0.0 {
            self.min_pivot / self.max_pivot
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::testing::{
        Max, backward_stable, for_sizes, scaled_samples, scaled_system, to_matrix, to_vector,
        worst_case,
    };
    use proptest::prelude::*;

    /// A random matrix (entries uniform in [−1, 1), times 10^e) and right-hand side: the
    /// normwise backward error `η = ‖A x − b‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞)` of the solve (residual in
    /// nalgebra's arithmetic), in units of `n·ε`, and the growth `max|u_ij| / max|a_ij|` of the
    /// elimination, by which the bound of partial pivoting scales. Returns both.
    fn backward_error<S: Space>(
        space: S,
        samples: &[f64],
        exponent: i32,
    ) -> Result<[f64; 2], TestCaseError> {
        let n = space.dim();
        let (a, b) = scaled_system(n, samples, exponent);
        let mut lu = Lu::new(space);
        if lu.refactor(to_matrix(space, &a).entries()).is_err() {
            return Err(TestCaseError::reject("singular"));
        }
        let mut x = to_vector(space, &b);
        lu.solve_in_place(x.entries_mut());
        let x = nalgebra::DVector::from_column_slice(x.entries());
        let factors = lu.lu.entries();
        let upper = (0..n * n)
            .filter(|k| k % n >= k / n)
            .map(|k| factors[k].abs());
        let growth = upper.fold(0.0, f64::max) / a.amax();
        backward_stable(&a, &b, &x, growth, &format!("n = {n}"))
    }

    #[test]
    fn solves_are_backward_stable_in_both_spaces() {
        let [eta, growth] = worst_case(scaled_samples(), |(samples, exponent)| {
            Ok(for_sizes!(backward_error(&samples, exponent)))
        });
        eprintln!("LU solve: worst backward error {eta:.3} n·ε, worst growth {growth:.2}");
    }

    #[test]
    fn solves_a_pivoting_system() {
        // The (0,0) entry is zero: partial pivoting is required.
        let a = [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
        let x = [1.0, -2.0, 3.0];
        let mut b = [0.0; 3];
        for i in 0..3 {
            b[i] = (0..3).map(|j| a[i][j] * x[j]).sum();
        }
        let lu = Lu::factor(&a).unwrap();
        lu.solve_in_place(&mut b);
        for (u, v) in b.iter().zip(x) {
            assert!((u - v).abs() < 1e-14, "{u} vs {v}");
        }
    }

    #[test]
    fn rank_deficient_matrix_is_singular_even_after_rounding() {
        // Row 3 = row 1 + row 2 up to rounding of 0.1 + 0.2.
        let a = [
            [0.1, 0.7, 1.0],
            [0.2, 0.4, 2.0],
            [0.1 + 0.2, 0.7 + 0.4, 3.0],
        ];
        let err = Lu::factor(&a).unwrap_err();
        assert_eq!(err.column, 2);
        assert!(err.pivot.abs() <= 3.0 * f64::EPSILON * 3.0);
    }

    #[test]
    fn non_finite_entries_are_singular() {
        assert!(Lu::factor(&[[f64::NAN, 1.0], [1.0, 1.0]]).is_err());
    }

    #[test]
    fn run_time_size_gives_the_fixed_size_bits() {
        let a = [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
        let fixed = Lu::factor(&a).unwrap();
        let mut run_time = Lu::new(crate::solve::testing::dynamic(3));
        run_time.refactor(a.as_flattened()).unwrap();
        let (mut x, mut y) = ([0.1, -0.7, 1.3], [0.1, -0.7, 1.3]);
        fixed.solve_in_place(&mut x);
        run_time.solve_in_place(&mut y);
        assert_eq!(x.map(f64::to_bits), y.map(f64::to_bits));
        assert_eq!(fixed.pivot_ratio(), run_time.pivot_ratio());
    }
}
