//! LU of a matrix some of whose pivots are known before its entries: Gaussian elimination at a
//! fixed sequence of static pivots `(r_t, c_t)`, then LU with partial pivoting of what remains.
//!
//! Eliminating unknown `c_t` with equation `r_t` replaces every remaining row `i` by
//! `row_i − m_it·row_{r_t}`, `m_it = a_{i c_t}/a_{r_t c_t}`: after `k` static pivots the
//! remaining rows and columns hold the Schur complement `S = A₂₂ − A₂₁ A₁₁⁻¹ A₁₂` of the pivot
//! block `A₁₁` (rows `r`, columns `c`), `A` is nonsingular exactly when `S` is, and `S` is
//! factored with partial pivoting as any matrix is. The stage equations give such pivots where
//! the generator knows a block of the stage Jacobian to be a constant multiple of the identity in
//! a row or column all of whose blocks are constant (multipliers that enter linearly, equations
//! linear in the unknowns, `sparkgen_description::elimination`): there the multipliers `m_it`
//! are bounded by the generator's choice, and a static step updates only the rows with a nonzero
//! entry in its column, over the nonzero entries of its row, instead of searching and updating
//! the whole trailing matrix.
//!
//! The matrix is permuted so that the static pivots come first, `P_r A P_c` with `(r_t, c_t)`
//! at `(t, t)`, and factored by [`Lu`] with its first `k` pivots prescribed: one factorisation,
//! whose solve and undetermined direction are those of the permuted matrix.

use super::lu::{Lu, SingularMatrix};
use super::space::{Dynamic, Space};

/// Static pivots that cannot be used on an `n × n` matrix: an index beyond `n`, or a row or
/// column that two pivots share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("static pivot {index} (row {row}, column {column}) does not fit {n} unknowns")]
pub struct InvalidPivots {
    /// The offending pivot (from 0).
    pub index: usize,
    /// Its row.
    pub row: usize,
    /// Its column.
    pub column: usize,
    /// The size of the matrix.
    pub n: usize,
}

/// The factors of an `n × n` matrix `A` whose first pivots are the static pivots `(r_t, c_t)`:
/// those of `P_r A P_c`, the static pivots first, the rest with partial pivoting.
#[derive(Clone, Debug)]
pub struct ReducedLu {
    /// `(r_t, c_t)`, in the order they are used.
    pivots: Box<[(usize, usize)]>,
    /// The row of `A` at each row of the permuted matrix, then the column of `A` at each of its
    /// columns: the static pivots' first, in order, then the others in their order.
    order: Box<[usize]>,
    /// `P_r A P_c`, row-major.
    permuted: Box<[f64]>,
    /// The nonzero columns of a static pivot row, for [`Lu::refactor_prescribed`].
    nonzeros: Box<[usize]>,
    /// The right-hand side and solution of a solve, permuted.
    work: Box<[f64]>,
    lu: Lu<Dynamic>,
}

impl ReducedLu {
    /// Storage for the `n × n` matrices of `space` with the static pivots `pivots` (each row
    /// and column used at most once, all below `n`); the only allocations (five, and the three
    /// of the [`Lu`]).
    pub fn new(
        space: Dynamic,
        pivots: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<ReducedLu, InvalidPivots> {
        let n = space.dim();
        let pivots: Box<[(usize, usize)]> = pivots.into_iter().collect();
        let mut used = vec![false; 2 * n];
        for (t, &(row, column)) in pivots.iter().enumerate() {
            if row >= n || column >= n || used[row] || used[n + column] {
                return Err(InvalidPivots {
                    index: t,
                    row,
                    column,
                    n,
                });
            }
            (used[row], used[n + column]) = (true, true);
        }
        let rows = pivots.iter().map(|&(r, _)| r);
        let columns = pivots.iter().map(|&(_, c)| c);
        let used = &used;
        let kept = |offset: usize| (0..n).filter(move |&i| !used[offset + i]);
        let order = rows.chain(kept(0)).chain(columns).chain(kept(n)).collect();
        Ok(ReducedLu {
            order,
            permuted: space.matrix(),
            nonzeros: space.indices(),
            work: space.vector(),
            lu: Lu::new(space),
            pivots,
        })
    }

    /// The static pivots `(r_t, c_t)`.
    pub fn pivots(&self) -> &[(usize, usize)] {
        &self.pivots
    }

    /// The number of unknowns `n`.
    pub fn dim(&self) -> usize {
        self.work.len()
    }

    /// Factors the `n × n` row-major matrix `a` (of `n²` entries, else panics). A pivot, static
    /// or not, `≤ n·ε·max|a_ij|` is reported as singular in the column of `a` it belongs to; the
    /// factors are then not usable.
    pub fn refactor(&mut self, a: &[f64]) -> Result<(), SingularMatrix> {
        let n = self.work.len();
        let (rows, columns) = self.order.split_at(n);
        for (out, &i) in self.permuted.chunks_exact_mut(n.max(1)).zip(rows) {
            let row = &a[i * n..(i + 1) * n];
            for (o, &j) in out.iter_mut().zip(columns) {
                *o = row[j];
            }
        }
        let fixed = self.pivots.len();
        self.lu
            .refactor_prescribed(&self.permuted, fixed, &mut self.nonzeros)
            .map_err(|err| SingularMatrix {
                column: columns[err.column],
                ..err
            })
    }

    /// Solves `A x = b` in place (`b` of `n` entries, else panics): the permuted system's solve.
    pub fn solve_in_place(&mut self, b: &mut [f64]) {
        let n = self.work.len();
        assert_eq!(b.len(), n, "right-hand side of another size");
        let (rows, columns) = self.order.split_at(n);
        for (w, &i) in self.work.iter_mut().zip(rows) {
            *w = b[i];
        }
        self.lu.solve_in_place(&mut self.work);
        for (&w, &j) in self.work.iter().zip(columns) {
            b[j] = w;
        }
    }

    /// After [`Self::refactor`] failed at `column` of `A` after the static pivots: writes into
    /// `x` (`n` long) the direction `A` leaves undetermined ([`Lu::null_direction`] of the
    /// permuted matrix, unpermuted) and returns `true`; `false` (and `x` untouched) for a
    /// static pivot's column.
    pub fn null_direction(&mut self, column: usize, x: &mut [f64]) -> bool {
        let fixed = self.pivots.len();
        let (_, columns) = self.order.split_at(self.work.len());
        let Some(k) = columns
            .iter()
            .position(|&j| j == column)
            .filter(|&k| k >= fixed)
        else {
            return false;
        };
        self.lu.null_direction(k, &mut self.work);
        for (&w, &j) in self.work.iter().zip(columns) {
            x[j] = w;
        }
        true
    }

    /// The smallest pivot magnitude, static or not.
    pub fn min_pivot(&self) -> f64 {
        self.lu.min_pivot()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::testing::{
        Max, SAMPLES, backward_stable, dynamic, run_cases, take, worst_case,
    };
    use nalgebra::{DMatrix, DVector};
    use proptest::prelude::*;

    /// An `n × n` matrix from the samples with `k` static pivots on a random diagonal-free
    /// pattern: pivot `t` at `(r_t, c_t)`, made the largest entry of its column (as the
    /// generator's choice in a constant column bounds the multipliers by one), with some
    /// entries of each pivot row zeroed (the sparsity the elimination skips). Returns the
    /// matrix and the pivots.
    fn planted(samples: &[f64], n: usize, k: usize) -> (DMatrix<f64>, Vec<(usize, usize)>) {
        let mut s = samples;
        let mut a = take(&mut s, n, n);
        let order = |shift: usize| -> Vec<usize> {
            let mut v: Vec<usize> = (0..n).collect();
            v.rotate_left(shift % n);
            v
        };
        let rows = order((samples[0].abs() * 97.0) as usize);
        let columns = order((samples[1].abs() * 89.0) as usize + 1);
        let pivots: Vec<(usize, usize)> = rows.into_iter().zip(columns).take(k).collect();
        for &(r, c) in &pivots {
            for j in 0..n {
                if j != c && s[j] > 0.3 {
                    a[(r, j)] = 0.0;
                }
            }
            let column_max = a.column(c).amax();
            a[(r, c)] = (2.0 + s[n]) * column_max.max(1.0);
            s = &s[n + 1..];
        }
        (a, pivots)
    }

    /// The normwise backward error of the solve in units of `n·ε`, against the growth
    /// `max|factors| / max|a|` of the elimination; returns both.
    fn backward_error(samples: &[f64], n: usize, k: usize) -> Result<[f64; 2], TestCaseError> {
        let (a, pivots) = planted(samples, n, k);
        let b = DVector::from_column_slice(&samples[SAMPLES - n..]);
        let mut lu = ReducedLu::new(dynamic(n), pivots.iter().copied()).expect("valid pivots");
        let rows: Vec<f64> = a.transpose().iter().copied().collect();
        if lu.refactor(&rows).is_err() {
            return Err(TestCaseError::reject("singular"));
        }
        let mut x = b.as_slice().to_vec();
        lu.solve_in_place(&mut x);
        let x = DVector::from_vec(x);
        let growth = lu.lu.factors().iter().fold(0.0f64, |m, v| m.max(v.abs())) / a.amax();
        backward_stable(&a, &b, &x, growth, &format!("n = {n}, k = {k}"))
    }

    #[test]
    fn static_pivots_then_partial_pivoting_are_backward_stable() {
        let cases = prop::collection::vec(-1.0f64..1.0, SAMPLES);
        let [eta, growth] = worst_case(cases, |samples| {
            let mut worst = [0.0; 2];
            for n in 1..=12 {
                for k in 0..=n {
                    worst = worst.max(backward_error(&samples, n, k)?);
                }
            }
            Ok(worst)
        });
        eprintln!("reduced LU: worst backward error {eta:.3} n·ε, worst growth {growth:.2}");
    }

    #[test]
    fn without_static_pivots_it_is_the_dense_lu_bit_for_bit() {
        run_cases(prop::collection::vec(-1.0f64..1.0, SAMPLES), |samples| {
            let n = 9;
            let mut s = &samples[..];
            let a: Vec<f64> = take(&mut s, n, n).iter().copied().collect();
            let mut reduced = ReducedLu::new(dynamic(n), []).expect("no pivots");
            let mut dense = Lu::new(dynamic(n));
            prop_assert_eq!(reduced.refactor(&a).is_ok(), dense.refactor(&a).is_ok());
            let (mut x, mut y) = (s[..n].to_vec(), s[..n].to_vec());
            reduced.solve_in_place(&mut x);
            dense.solve_in_place(&mut y);
            let bits = |v: &[f64]| v.iter().map(|z| z.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&x), bits(&y));
            Ok(())
        });
    }

    /// `[[2, 1, 0], [1, 1, 1], [1, 1, 1]]` with the static pivot (0, 0): the Schur complement
    /// `[[0.5, 1], [0.5, 1]]` is singular in its second column, column 2 of the matrix, and
    /// the direction it leaves undetermined is `A`'s null vector `(1, −2, 1)`.
    #[test]
    fn a_singular_schur_complement_names_the_column_and_its_null_direction() {
        let a = [2.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let mut lu = ReducedLu::new(dynamic(3), [(0, 0)]).expect("valid pivots");
        let err = lu.refactor(&a).unwrap_err();
        assert_eq!(err.column, 2);
        let mut x = [0.0; 3];
        assert!(lu.null_direction(err.column, &mut x));
        let scale = x[2];
        let expected = [1.0, -2.0, 1.0];
        for (xi, e) in x.iter().zip(expected) {
            assert!((xi / scale - e).abs() < 1e-15, "{x:?}");
        }
    }

    #[test]
    fn a_negligible_static_pivot_is_singular_in_its_column() {
        let a = [0.0, 1.0, 1.0, 1.0];
        let mut lu = ReducedLu::new(dynamic(2), [(0, 0)]).expect("valid pivots");
        let err = lu.refactor(&a).unwrap_err();
        assert_eq!((err.column, err.pivot), (0, 0.0));
        assert!(!lu.null_direction(0, &mut [0.0; 2]));
    }

    #[test]
    fn pivots_that_do_not_fit_are_refused() {
        let out_of_range = ReducedLu::new(dynamic(2), [(0, 2)]).unwrap_err();
        assert_eq!((out_of_range.index, out_of_range.column), (0, 2));
        let twice = ReducedLu::new(dynamic(3), [(0, 1), (2, 1)]).unwrap_err();
        assert_eq!((twice.index, twice.row), (1, 2));
    }
}
