//! Small dense linear algebra over [`Num`]: solve, rank, null space.
//!
//! Systems whose entries are all rational are eliminated exactly; as soon as one entry is a
//! float the whole system is promoted to the working precision and eliminated with partial
//! pivoting.

use super::num::{Num, Precision};
use rug::Float;

/// A dense row-major matrix.
pub type Matrix = Vec<Vec<Num>>;

/// Failures of the dense solvers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinalgError {
    /// The matrix is singular (no nonzero pivot in column `column`).
    #[error("singular matrix: no pivot in column {column} of a {rows}×{cols} system")]
    Singular {
        /// The column without a usable pivot.
        column: usize,
        /// Rows of the system.
        rows: usize,
        /// Columns of the system.
        cols: usize,
    },
    /// The dimensions of the operands do not match.
    #[error("dimension mismatch: {what}")]
    Dimension {
        /// What did not match.
        what: String,
    },
}

/// The transpose of a matrix.
pub fn transpose(m: &Matrix) -> Matrix {
    let cols = m.first().map_or(0, Vec::len);
    (0..cols)
        .map(|j| m.iter().map(|row| row[j].clone()).collect())
        .collect()
}

fn all_rational(m: &Matrix) -> bool {
    m.iter().flatten().all(Num::is_rational)
}

fn promote(m: &Matrix, prec: Precision) -> Matrix {
    m.iter()
        .map(|row| row.iter().map(|x| Num::Float(x.to_float(prec))).collect())
        .collect()
}

/// Reduced row echelon form of `m` in place; returns the pivot columns.
/// Exact for rational matrices; with floats, an entry of magnitude ≤ `tol` counts as zero.
fn row_reduce(m: &mut Matrix, tol: &Float) -> Vec<usize> {
    let rows = m.len();
    let cols = m.first().map_or(0, Vec::len);
    let mut pivots = Vec::new();
    let mut r = 0;
    for col in 0..cols {
        if r == rows {
            break;
        }
        let best = (r..rows).max_by(|&i, &j| m[i][col].cmp_abs(&m[j][col]).then(j.cmp(&i)));
        let Some(p) = best else { break };
        let negligible = match &m[p][col] {
            Num::Rat(x) => x.is_zero(),
            Num::Float(x) => x.clone().abs() <= *tol,
        };
        if negligible {
            continue;
        }
        m.swap(r, p);
        let pivot = m[r][col].clone();
        for entry in m[r].iter_mut() {
            // The pivot is nonzero, so the division exists.
            if let Some(q) = entry.div(&pivot) {
                *entry = q;
            }
        }
        for i in 0..rows {
            if i != r && !m[i][col].is_zero() {
                let factor = m[i][col].clone();
                let pivot_row = m[r].clone();
                for (entry, p) in m[i].iter_mut().zip(&pivot_row) {
                    *entry = entry.sub(&factor.mul(p));
                }
            }
        }
        pivots.push(col);
        r += 1;
    }
    pivots
}

/// Solves `M X = R` for a square nonsingular `M` (`R` with any number of columns).
pub fn solve(m: &Matrix, rhs: &Matrix, prec: Precision) -> Result<Matrix, LinalgError> {
    let n = m.len();
    if m.iter().any(|row| row.len() != n) || rhs.len() != n {
        return Err(LinalgError::Dimension {
            what: format!("solve needs a square matrix and a right-hand side with {n} rows"),
        });
    }
    let k = rhs.first().map_or(0, Vec::len);
    let mut aug: Matrix = m
        .iter()
        .zip(rhs)
        .map(|(row, r)| row.iter().chain(r.iter()).cloned().collect())
        .collect();
    if !all_rational(&aug) {
        aug = promote(&aug, prec);
    }
    let zero = Float::with_val(prec.bits(), 0);
    let pivots = row_reduce(&mut aug, &zero);
    if let Some(column) = (0..n).find(|c| pivots.get(*c) != Some(c)) {
        return Err(LinalgError::Singular {
            column,
            rows: n,
            cols: n,
        });
    }
    Ok(aug.into_iter().map(|row| row[n..n + k].to_vec()).collect())
}

/// The rank of `m`, counting float pivots of magnitude ≤ `tol` as zero.
pub fn rank(m: &Matrix, tol: &Float, prec: Precision) -> usize {
    let mut w = if all_rational(m) {
        m.clone()
    } else {
        promote(m, prec)
    };
    row_reduce(&mut w, tol).len()
}

/// A basis of the null space `{x : M x = 0}` (one vector per free column, with a 1 in that
/// column), exact for rational matrices.
pub fn null_space(m: &Matrix, tol: &Float, prec: Precision) -> Vec<Vec<Num>> {
    let cols = m.first().map_or(0, Vec::len);
    let mut w = if all_rational(m) {
        m.clone()
    } else {
        promote(m, prec)
    };
    let pivots = row_reduce(&mut w, tol);
    (0..cols)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut x = vec![Num::zero(); cols];
            x[free] = Num::one();
            for (r, &pc) in pivots.iter().enumerate() {
                x[pc] = w[r][free].neg();
            }
            x
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rat(rows: &[&[i64]]) -> Matrix {
        rows.iter()
            .map(|r| r.iter().map(|&x| Num::int(x)).collect())
            .collect()
    }

    #[test]
    fn exact_solve_of_hilbert_matrix() {
        let h: Matrix = (1..=4)
            .map(|i| (1..=4).map(|j| Num::ratio(1, i + j - 1)).collect())
            .collect();
        let rhs: Matrix = (0..4).map(|_| vec![Num::one()]).collect();
        let x = solve(&h, &rhs, Precision::DEFAULT).unwrap();
        // H₄⁻¹ 𝟙 = (−4, 60, −180, 140).
        let expect = [-4, 60, -180, 140];
        for (xi, e) in x.iter().zip(expect) {
            assert_eq!(xi[0], Num::int(e));
            assert!(xi[0].is_rational());
        }
    }

    #[test]
    fn singular_system_is_an_error() {
        let m = rat(&[&[1, 2], &[2, 4]]);
        let rhs = rat(&[&[1], &[1]]);
        assert!(matches!(
            solve(&m, &rhs, Precision::DEFAULT),
            Err(LinalgError::Singular { column: 1, .. })
        ));
    }

    #[test]
    fn rank_and_null_space() {
        let m = rat(&[&[1, 1, 1], &[0, 1, 2]]);
        let tol = Precision::DEFAULT.tolerance();
        assert_eq!(rank(&m, &tol, Precision::DEFAULT), 2);
        let ns = null_space(&m, &tol, Precision::DEFAULT);
        assert_eq!(ns.len(), 1);
        // (1, −2, 1) spans the null space.
        assert_eq!(ns[0], vec![Num::int(1), Num::int(-2), Num::int(1)]);
    }

    #[test]
    fn float_null_space_within_tolerance() {
        let s5 = Num::int(5).sqrt(Precision::DEFAULT);
        let m: Matrix = vec![vec![Num::one(), s5.clone()], vec![s5.clone(), Num::int(5)]];
        let tol = Precision::DEFAULT.tolerance();
        assert_eq!(rank(&m, &tol, Precision::DEFAULT), 1);
        let ns = null_space(&m, &tol, Precision::DEFAULT);
        let residual = m[0][0].mul(&ns[0][0]).add(&m[0][1].mul(&ns[0][1]));
        assert!(residual.abs().to_float(Precision::DEFAULT) < tol);
    }
}
