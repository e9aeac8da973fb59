//! A run with its dimension erased: the trajectory and the per-point diagnostics the summary,
//! the output files and the plots are made from.

use crate::solution::Solution;

/// What a run produced (up to the failing step if one failed).
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Times `t_n`.
    pub t: Vec<f64>,
    /// Positions `q_n`.
    pub q: Vec<Vec<f64>>,
    /// Momenta `p_n`.
    pub p: Vec<Vec<f64>>,
    /// Newton iterations of step n (from `t_n` to `t_{n+1}`).
    pub iterations: Vec<usize>,
    /// `|H_n − H_0| / |H_0|`.
    pub energy_error: Vec<f64>,
    /// The constraint residual at every point (see [`Trajectory::constraint`]).
    pub constraint_residual: Vec<f64>,
    /// What `constraint_residual` measures, e.g. `|p − ϑ(q)|∞`.
    pub constraint: &'static str,
    /// `|λ_n|∞` of the carried multiplier at every point; empty for methods that carry none.
    pub multiplier: Vec<f64>,
}

impl Trajectory {
    /// The trajectory of `solution` with its diagnostics series (one value per point).
    pub fn new<const D: usize>(
        solution: Solution<D>,
        energy_error: Vec<f64>,
        constraint_residual: Vec<f64>,
        constraint: &'static str,
    ) -> Trajectory {
        let rows =
            |v: &[nalgebra::SVector<f64, D>]| v.iter().map(|x| x.as_slice().to_vec()).collect();
        Trajectory {
            multiplier: solution
                .multipliers()
                .map(|l| l.iter().fold(0.0, |m: f64, x| m.max(x.abs())))
                .collect(),
            q: rows(&solution.q),
            p: rows(&solution.p),
            iterations: solution.stats.iter().map(|s| s.iterations).collect(),
            t: solution.t,
            energy_error,
            constraint_residual,
            constraint,
        }
    }

    /// The dimension D.
    pub fn dimension(&self) -> usize {
        self.q.first().map_or(0, Vec::len)
    }

    /// Steps taken.
    pub fn steps(&self) -> usize {
        self.t.len().saturating_sub(1)
    }

    /// `max_n` of the constraint residual.
    pub fn max_constraint_residual(&self) -> f64 {
        self.constraint_residual.iter().copied().fold(0.0, f64::max)
    }

    /// `max_n |H_n − H_0| / |H_0|`.
    pub fn max_relative_energy_error(&self) -> f64 {
        self.energy_error.iter().copied().fold(0.0, f64::max)
    }

    /// `max_n |λ_n|∞`, for methods that carry a multiplier.
    pub fn max_multiplier(&self) -> Option<f64> {
        (!self.multiplier.is_empty()).then(|| self.multiplier.iter().copied().fold(0.0, f64::max))
    }

    /// Mean Newton iterations per step (0 without steps).
    pub fn newton_iterations_mean(&self) -> f64 {
        if self.iterations.is_empty() {
            0.0
        } else {
            self.iterations.iter().sum::<usize>() as f64 / self.iterations.len() as f64
        }
    }

    /// Column names of the table form: `t, q1…qD, p1…pD, relative_energy_error,
    /// constraint_residual`.
    pub fn columns(&self) -> Vec<String> {
        let d = self.dimension();
        std::iter::once("t".to_owned())
            .chain((1..=d).map(|i| format!("q{i}")))
            .chain((1..=d).map(|i| format!("p{i}")))
            .chain([
                "relative_energy_error".to_owned(),
                "constraint_residual".to_owned(),
            ])
            .collect()
    }

    /// Row n of the table form (see [`Trajectory::columns`]).
    pub fn row(&self, n: usize) -> Vec<f64> {
        std::iter::once(self.t[n])
            .chain(self.q[n].iter().copied())
            .chain(self.p[n].iter().copied())
            .chain([self.energy_error[n], self.constraint_residual[n]])
            .collect()
    }
}
