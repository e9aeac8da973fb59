//! LU factorisation with partial pivoting, `P A = L U`, on `[[f64; N]; N]`.
//!
//! Written out here because nalgebra's fixed-size LU cannot be named inside `const N`
//! generic code on stable Rust.

/// A pivot too small relative to the matrix: `|u_kk| ≤ N·ε·max_ij |a_ij|`.
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

/// The factors of `P A = L U` (unit lower `L` and `U` packed in one array).
#[derive(Clone, Debug)]
pub struct Lu<const N: usize> {
    lu: [[f64; N]; N],
    perm: [usize; N],
    min_pivot: f64,
    max_pivot: f64,
}

/// `max_i |v_i|` in four independent lanes (one running maximum is one long dependency chain),
/// with plain comparisons that compile to vector maxima. A NaN entry may or may not propagate
/// (then the threshold is NaN and [`Lu::factor`] reports column 0 singular); the elimination
/// spreads it to a pivot either way.
fn max_abs(v: &[f64]) -> f64 {
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

impl<const N: usize> Lu<N> {
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

    /// Factors `a` with row pivoting; a pivot `|u_kk| ≤ N·ε·max|a_ij|` (or a non-finite entry)
    /// is reported as singular.
    pub fn factor(a: &[[f64; N]; N]) -> Result<Lu<N>, SingularMatrix> {
        let mut lu = *a;
        let mut perm = [0usize; N];
        for (k, p) in perm.iter_mut().enumerate() {
            *p = k;
        }
        let scale = max_abs(a.as_flattened());
        let threshold = N as f64 * f64::EPSILON * scale;
        let (mut min_pivot, mut max_pivot) = (f64::INFINITY, 0.0f64);
        for k in 0..N {
            let mut p = k;
            for i in k + 1..N {
                if lu[i][k].abs() > lu[p][k].abs() {
                    p = i;
                }
            }
            let pivot = lu[p][k];
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
            lu.swap(k, p);
            perm.swap(k, p);
            let (top, bottom) = lu.split_at_mut(k + 1);
            let row_k = &top[k][k + 1..];
            for row in bottom.iter_mut() {
                let factor = row[k] / pivot;
                row[k] = factor;
                for (x, u) in row[k + 1..].iter_mut().zip(row_k) {
                    *x -= factor * u;
                }
            }
        }
        Ok(Lu {
            lu,
            perm,
            min_pivot,
            max_pivot,
        })
    }

    /// Solves `A x = b` in place: `L y = P b`, then `U x = y`, both column by column (each
    /// solved component is subtracted from the ones still open, independent updates instead of
    /// one dependent sum per row).
    pub fn solve_in_place(&self, b: &mut [f64; N]) {
        let mut y: [f64; N] = std::array::from_fn(|i| b[self.perm[i]]);
        for j in 0..N {
            let yj = y[j];
            for (yi, row) in y[j + 1..].iter_mut().zip(&self.lu[j + 1..]) {
                *yi -= row[j] * yj;
            }
        }
        for j in (0..N).rev() {
            y[j] /= self.lu[j][j];
            let yj = y[j];
            for (yi, row) in y[..j].iter_mut().zip(&self.lu[..j]) {
                *yi -= row[j] * yj;
            }
        }
        *b = y;
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
}
