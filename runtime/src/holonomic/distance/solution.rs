//! Trajectories of the dynamic path.

use crate::error::IntegrateError;
use crate::solution::StepStats;
use nalgebra::DVector;

/// A trajectory sampled every `record_every` steps (and at the last step), with the
/// statistics of every step.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DistanceSolution {
    /// The sampling interval in steps.
    pub record_every: usize,
    /// Times of the samples.
    pub t: Vec<f64>,
    /// Positions of the samples.
    pub q: Vec<DVector<f64>>,
    /// Momenta of the samples.
    pub p: Vec<DVector<f64>>,
    /// Statistics of every step n (from `t_n` to `t_{n+1}`).
    pub stats: Vec<StepStats>,
}

impl DistanceSolution {
    /// An empty solution sampled every `record_every` steps, with room for `steps` steps.
    pub(super) fn with_capacity(record_every: usize, steps: usize) -> DistanceSolution {
        let samples = steps / record_every.max(1) + 2;
        DistanceSolution {
            record_every,
            t: Vec::with_capacity(samples),
            q: Vec::with_capacity(samples),
            p: Vec::with_capacity(samples),
            stats: Vec::with_capacity(steps),
        }
    }

    /// Appends the sample `(t, q, p)`.
    pub(super) fn record(&mut self, t: f64, q: &DVector<f64>, p: &DVector<f64>) {
        self.t.push(t);
        self.q.push(q.clone());
        self.p.push(p.clone());
    }

    /// The number of steps taken.
    pub fn steps(&self) -> usize {
        self.stats.len()
    }
}

/// A run that stopped early: the samples up to the last accepted step (whose state is always
/// the last sample), and why the next step failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{error} (solution kept up to t = {})", solution.t.last().copied().unwrap_or(f64::NAN))]
pub struct DistanceFailure {
    /// The solution up to the last accepted step.
    pub solution: DistanceSolution,
    /// Why the next step failed.
    pub error: IntegrateError,
}
