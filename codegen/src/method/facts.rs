//! The tests by which each builder decides the facts of its structure
//! ([`sparkgen_description::facts::Facts`], never from the method's name): whether the stage
//! equations force the constraint at the step's end.

pub use sparkgen_description::facts::{Facts, Multiplier};

use crate::exact::{Matrix, Num, Precision, rank};

/// Whether rows `Σ_j ω_ij φ_j + ω_{i,e} φ(q_{n+1}, p_{n+1}) = 0` (the end point's column `e`
/// of `omega`) involve the end point at all: with `ω = [I | 0]` (GLVPRK) the constraint holds
/// at the projective stages only.
pub fn omega_imposes_end(omega: &Matrix, end: usize) -> bool {
    omega
        .iter()
        .any(|row| row.get(end).is_some_and(|w| !w.is_zero()))
}

/// Where a projective stage `(Q̃_j, P̃_j)` of a SPARK tableau sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageAt {
    /// At the step's start, `(q_n, p_n)` (`ã_j = 0`, `α̃_j = 0`): there `φ = 0` already, by
    /// induction from consistent initial data.
    Start,
    /// At the step's end, `(q_{n+1}, p_{n+1})` (`ã_j = b`, `α̃_j = β`).
    End,
    /// Elsewhere.
    Inner,
}

/// Whether the rows `Σ_j ω_ij φ(Q̃_j, P̃_j) + ω_{i,r+1} φ(q_{n+1}, p_{n+1}) + w_i μ = 0` (the
/// relaxation `w` on a free multiplier μ, if any) force `φ(q_{n+1}, p_{n+1}) = 0`, the
/// projective stages sitting where `stages` says: the end point's value is determined when the
/// rank of the rows drops by one without its column (the stages at the start contribute `φ = 0`,
/// those at the end add to the end point's column).
pub fn forces_end(
    omega: &Matrix,
    stages: &[StageAt],
    relaxation: Option<&[Num]>,
    prec: Precision,
) -> bool {
    let inner: Vec<usize> = (0..stages.len())
        .filter(|&j| stages[j] == StageAt::Inner)
        .collect();
    // Columns: the inner stages, then μ (if relaxed), then the end point.
    let rows: Matrix = omega
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut end = row.get(stages.len()).cloned().unwrap_or_else(Num::zero);
            for (j, at) in stages.iter().enumerate() {
                if *at == StageAt::End {
                    end = end.add(&row[j]);
                }
            }
            let mut out: Vec<Num> = inner.iter().map(|&j| row[j].clone()).collect();
            out.extend(relaxation.map(|w| w[i].clone()));
            out.push(end);
            out
        })
        .collect();
    let without_end: Matrix = rows
        .iter()
        .map(|row| row[..row.len() - 1].to_vec())
        .collect();
    let tol = prec.tolerance();
    rank(&rows, &tol, prec) == rank(&without_end, &tol, prec) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: &[&[i64]]) -> Matrix {
        rows.iter()
            .map(|r| r.iter().map(|&x| Num::int(x)).collect())
            .collect()
    }

    /// The end point is forced by its own column, or by a stage at the end whose row pairs it
    /// with stages at the start only; not by `ω = [I | 0]` over inner stages, nor by rows that a
    /// free μ relaxes.
    #[test]
    fn the_end_point_is_forced_only_by_independent_rows() {
        use StageAt::{End, Inner, Start};
        let prec = Precision::DEFAULT;
        let identity = matrix(&[&[1, 0, 0], &[0, 1, 0]]);
        assert!(!forces_end(&identity, &[Inner, Inner], None, prec));
        assert!(forces_end(&identity, &[Inner, End], None, prec));
        // φ̃₁ + φ̃₂ = 0 with stage 1 at the start and stage 2 at the end (a symmetric
        // projection), against the same row over two inner stages.
        let symmetric = matrix(&[&[1, 1, 0]]);
        assert!(forces_end(&symmetric, &[Start, End], None, prec));
        assert!(!forces_end(&symmetric, &[Inner, Inner], None, prec));
        // Rows over inner stages and the end column: forced when the end column is independent.
        let gauss_like = matrix(&[&[1, -1, 0], &[0, 1, 1]]);
        assert!(!forces_end(&gauss_like, &[Inner, Inner], None, prec));
        let with_end = matrix(&[&[1, -1, 0], &[1, 1, 0], &[0, 0, 1]]);
        assert!(forces_end(&with_end, &[Inner, Inner], None, prec));
        let weights = [Num::int(0), Num::int(0), Num::int(2)];
        assert!(!forces_end(
            &with_end,
            &[Inner, Inner],
            Some(&weights),
            prec
        ));
        assert!(omega_imposes_end(&with_end, 2) && !omega_imposes_end(&identity, 2));
    }
}
