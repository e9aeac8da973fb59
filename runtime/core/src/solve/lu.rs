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

impl<const N: usize> Lu<N> {
    /// Factors `a` with row pivoting; a pivot `|u_kk| ≤ N·ε·max|a_ij|` (or a non-finite entry)
    /// is reported as singular.
    pub fn factor(a: &[[f64; N]; N]) -> Result<Lu<N>, SingularMatrix> {
        let mut lu = *a;
        let mut perm = [0usize; N];
        for (k, p) in perm.iter_mut().enumerate() {
            *p = k;
        }
        let scale = a.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
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
            let row_k = &top[k];
            for row in bottom.iter_mut() {
                let factor = row[k] / pivot;
                row[k] = factor;
                if factor != 0.0 {
                    for j in k + 1..N {
                        row[j] -= factor * row_k[j];
                    }
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

    /// Solves `A x = b` in place.
    pub fn solve_in_place(&self, b: &mut [f64; N]) {
        let mut y = [0.0; N];
        for i in 0..N {
            let s: f64 = self.lu[i][..i]
                .iter()
                .zip(&y[..i])
                .map(|(l, yj)| l * yj)
                .sum();
            y[i] = b[self.perm[i]] - s;
        }
        for i in (0..N).rev() {
            let s: f64 = self.lu[i][i + 1..]
                .iter()
                .zip(&y[i + 1..])
                .map(|(u, yj)| u * yj)
                .sum();
            y[i] = (y[i] - s) / self.lu[i][i];
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
