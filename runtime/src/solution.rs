//! The result of a run: the trajectory and per-step statistics.

use nalgebra::SVector;

/// Newton statistics of one step.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct StepStats {
    /// Newton iterations (Jacobian factorisations).
    pub iterations: usize,
    /// `‖r‖₂` at the accepted solution.
    pub residual: f64,
}

/// The result of a converged step: `(q₁, p₁)` with the Newton statistics, or `None` if the
/// state is not finite.
pub(crate) fn accepted<const D: usize>(
    q1: SVector<f64, D>,
    p1: SVector<f64, D>,
    report: &crate::solve::NewtonReport,
) -> Option<(SVector<f64, D>, SVector<f64, D>, StepStats)> {
    q1.iter()
        .chain(p1.iter())
        .all(|z| z.is_finite())
        .then_some((
            q1,
            p1,
            StepStats {
                iterations: report.iterations,
                residual: report.residual,
            },
        ))
}

/// A trajectory `(t_n, q_n, p_n)`, n = 0..=steps, with the statistics of each step and, for
/// methods that carry a multiplier, `λ_n` (`λ_0 = 0`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Solution<const D: usize> {
    /// Times.
    pub t: Vec<f64>,
    /// Positions.
    pub q: Vec<SVector<f64, D>>,
    /// Momenta.
    pub p: Vec<SVector<f64, D>>,
    /// Statistics of step n (from `t[n]` to `t[n+1]`).
    pub stats: Vec<StepStats>,
    /// The carried multipliers `λ_n = Σ_j d^λ_j Λ̃_j` of the SPARK-family methods, `λ_0, λ_1, …`
    /// one after the other, each [`Solution::lambda_width`] long (read them with
    /// [`Solution::multipliers`]); empty for methods that carry none.
    pub lambda: Vec<f64>,
    /// The number of components `M` of each `λ_n` (`D` for degenerate Lagrangians; 0 when the
    /// method carries none).
    pub lambda_width: usize,
}

impl<const D: usize> Solution<D> {
    /// An empty solution with room for `steps` steps (allocated once, before stepping).
    pub fn with_capacity(steps: usize) -> Self {
        Solution {
            t: Vec::with_capacity(steps + 1),
            q: Vec::with_capacity(steps + 1),
            p: Vec::with_capacity(steps + 1),
            stats: Vec::with_capacity(steps),
            lambda: Vec::new(),
            lambda_width: 0,
        }
    }

    /// The carried multipliers `λ_n`, n = 0..=steps (none for methods that carry none).
    pub fn multipliers(&self) -> impl ExactSizeIterator<Item = &[f64]> {
        self.lambda.chunks_exact(self.lambda_width.max(1))
    }

    /// The number of steps taken.
    pub fn steps(&self) -> usize {
        self.stats.len()
    }
}

/// A run that stopped early: what was integrated up to the failing step, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{error} (solution kept up to t = {})", solution.t.last().copied().unwrap_or(f64::NAN))]
pub struct Failure<const D: usize> {
    /// The solution up to the last accepted step.
    pub solution: Solution<D>,
    /// Why the next step failed.
    pub error: crate::error::IntegrateError,
}
