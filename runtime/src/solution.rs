//! The result of a run: the trajectory and per-step statistics, and the observers that
//! receive a run's accepted states as they are computed.
//!
//! The integrators ([`crate::solve_into`] and the engine's runs)
//! hand every accepted state to an [`Observer`], which may stop the run with its own error.
//! [`Record`] is the observer behind the in-memory [`Solution`]: it keeps every K-th point and
//! the last one, so a thinned run holds `O(steps/K)` points; other observers stream, so nothing
//! proportional to the step count need be held in memory.

use nalgebra::SVector;
use std::convert::Infallible;
use std::num::NonZeroUsize;

/// Newton statistics of one step.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct StepStats {
    /// Newton iterations.
    pub iterations: usize,
    /// `‖r‖₂` at the accepted solution.
    pub residual: f64,
    /// Jacobian factorisations (more than one where simplified Newton refreshed its Jacobian).
    pub factorisations: usize,
}

/// The statistics of a whole run (or of the part of it that was integrated): the work done and
/// the maxima over every accepted point, a NaN anywhere making its maximum NaN.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct RunStats {
    /// Steps accepted.
    pub steps: usize,
    /// Newton iterations over all steps.
    pub newton_iterations: usize,
    /// The most Newton iterations of one step.
    pub max_newton_iterations: usize,
    /// Jacobian factorisations over all steps (beyond one per step: refreshed Jacobians).
    pub factorisations: usize,
    /// The largest `‖r‖₂` of the stage equations at an accepted step.
    pub max_stage_residual: f64,
    /// What [`RunStats::max_constraint`] measures, e.g. `|p − ϑ(q)|∞`.
    pub constraint: &'static str,
    /// The largest constraint residual over the points.
    pub max_constraint: f64,
    /// The largest `|E − E₀|` over the points, where the problem kind defines an energy.
    pub max_energy_error: Option<f64>,
    /// Where the constraint residual first left round-off exponentially, in a run that was
    /// asked only to record it ([`crate::integrate::Watch::Warn`]).
    pub departure: Option<Departed>,
    /// The Gauss–Newton iterations of the initial projection of a holonomic system's positions
    /// ([`crate::integrate::Options::project_initial`], [`crate::holonomic::project`]); `None`
    /// where no such projection ran.
    pub initial_projection_iterations: Option<usize>,
}

/// Where and how the constraint residual left round-off exponentially
/// ([`crate::integrate::constraint_watch`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Departed {
    /// The step whose state departs.
    pub step: usize,
    /// Its time.
    pub time: f64,
    /// The residual.
    pub residual: f64,
    /// The residual relative to `|p|∞`.
    pub relative: f64,
    /// Its growth factor per step.
    pub growth: f64,
}

impl Departed {
    /// The error that stops a run here, the residual measuring `quantity`.
    pub fn error(self, quantity: &'static str) -> crate::error::IntegrateError {
        crate::error::IntegrateError::ConstraintDeparture {
            step: self.step,
            time: self.time,
            quantity,
            residual: self.residual,
            relative: self.relative,
            growth: self.growth,
        }
    }
}

/// `max(a, b)`, NaN if either is.
pub(crate) fn max_or_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

impl RunStats {
    /// Adds one accepted point: the step's Newton statistics (none at the initial point), its
    /// constraint residual and energy error.
    pub(crate) fn add(&mut self, step: Option<StepStats>, constraint: f64, energy: Option<f64>) {
        if let Some(s) = step {
            self.steps += 1;
            self.newton_iterations += s.iterations;
            self.max_newton_iterations = self.max_newton_iterations.max(s.iterations);
            self.factorisations += s.factorisations;
            self.max_stage_residual = max_or_nan(self.max_stage_residual, s.residual);
        }
        self.max_constraint = max_or_nan(self.max_constraint, constraint);
        self.max_energy_error = match (self.max_energy_error, energy) {
            (Some(a), Some(b)) => Some(max_or_nan(a, b)),
            (None, e) => e,
            (a, None) => a,
        };
    }
}

/// One accepted state of a run, as the integrators hand it to an [`Observer`]: `q_n` and `p_n`
/// are `D` long, whether `D` is a compiled constant or known only at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point<'a> {
    /// The step number n (0 for the initial state).
    pub step: usize,
    /// The time `t_n = n h`.
    pub t: f64,
    /// The position `q_n`.
    pub q: &'a [f64],
    /// The momentum `p_n`.
    pub p: &'a [f64],
    /// The carried multiplier `λ_n` of methods that carry one (empty otherwise).
    pub lambda: &'a [f64],
    /// The Newton statistics of step n (from `t_{n−1}` to `t_n`); `None` for n = 0.
    pub stats: Option<StepStats>,
}

/// Receives every accepted state of a run, in order, as it is computed; an error stops the run
/// (the integrator returns it as [`Stopped::Observer`]).
pub trait Observer {
    /// Why the observer stops a run.
    type Error;

    /// Takes the accepted state `point`.
    fn observe(&mut self, point: &Point<'_>) -> Result<(), Self::Error>;

    /// Receives the run's statistics once it has ended, whether it reached its last step or
    /// stopped early, after its last point (default: ignored). An observer that holds points
    /// back hands them on here.
    fn end(&mut self, stats: &RunStats) -> Result<(), Self::Error> {
        let _ = stats;
        Ok(())
    }
}

/// Why an observed run stopped before its last step: a step of the integrator failed (`S`), or
/// the observer stopped it (`O`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Stopped<S, O> {
    /// A step failed.
    #[error(transparent)]
    Step(S),
    /// The observer stopped the run.
    #[error(transparent)]
    Observer(O),
}

/// At most this many points are allocated before a run starts; a [`Record`] that keeps more
/// grows its vectors geometrically (amortised O(1) per point, `O(log(points))` reallocations).
pub const PREALLOCATED_POINTS: usize = 1 << 12;

/// The observer that keeps a run in memory: every `every`-th point (n = 0, K, 2K, …) and the
/// last one received, so that the [`Solution`] always ends at the last accepted state. Room
/// for `min(steps/K + 2, PREALLOCATED_POINTS)` points is allocated up front; within it,
/// recording allocates nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<const D: usize> {
    solution: Solution<D>,
    every: usize,
    /// Whether the last recorded point is the provisional last one (n not a multiple of K),
    /// replaced by the next point.
    provisional: bool,
}

impl<const D: usize> Record<D> {
    /// A record of a run of `steps` steps keeping every `every`-th point and the last.
    pub fn new(steps: usize, every: NonZeroUsize) -> Self {
        let points = (steps / every.get())
            .saturating_add(2)
            .min(PREALLOCATED_POINTS);
        Record {
            solution: Solution {
                t: Vec::with_capacity(points),
                q: Vec::with_capacity(points),
                p: Vec::with_capacity(points),
                stats: Vec::with_capacity(points),
                lambda: Vec::new(),
                lambda_width: 0,
                steps_taken: 0,
                run: RunStats::default(),
            },
            every: every.get(),
            provisional: false,
        }
    }

    /// The recorded solution.
    pub fn into_solution(self) -> Solution<D> {
        self.solution
    }

    /// Runs `run` into a record of every point of a run of `steps` steps: the solution, or
    /// `fail` of the solution up to the last accepted step and the error of the step that
    /// failed.
    pub(crate) fn every_point<E, F>(
        steps: usize,
        run: impl FnOnce(&mut Record<D>) -> Result<(), Stopped<E, Infallible>>,
        fail: impl FnOnce(Solution<D>, E) -> F,
    ) -> Result<Solution<D>, F> {
        let mut record = Record::new(steps, NonZeroUsize::MIN);
        match run(&mut record) {
            Ok(()) => Ok(record.into_solution()),
            Err(Stopped::Step(error)) => Err(fail(record.into_solution(), error)),
            Err(Stopped::Observer(never)) => match never {},
        }
    }
}

/// Keeps points of `D` coordinates (a point of another length is a caller's error: the
/// integrators hand a record only points of its `D`).
impl<const D: usize> Observer for Record<D> {
    type Error = Infallible;

    fn observe(&mut self, point: &Point<'_>) -> Result<(), Infallible> {
        let s = &mut self.solution;
        if self.provisional {
            s.t.pop();
            s.q.pop();
            s.p.pop();
            // A provisional point has n > 0, hence statistics.
            s.stats.pop();
            s.lambda
                .truncate(s.lambda.len().saturating_sub(s.lambda_width));
        }
        if s.t.is_empty() {
            s.lambda_width = point.lambda.len();
            s.lambda
                .reserve_exact(s.t.capacity().saturating_mul(point.lambda.len()));
        }
        s.t.push(point.t);
        s.q.push(SVector::from_column_slice(point.q));
        s.p.push(SVector::from_column_slice(point.p));
        s.stats.extend(point.stats);
        s.lambda.extend_from_slice(point.lambda);
        s.steps_taken = point.step;
        self.provisional = !point.step.is_multiple_of(self.every);
        Ok(())
    }

    fn end(&mut self, stats: &RunStats) -> Result<(), Infallible> {
        self.solution.run = *stats;
        Ok(())
    }
}

/// A trajectory `(t_n, q_n, p_n)` with the statistics of each step and, for methods that carry
/// a multiplier, `λ_n` (`λ_0 = 0`): every point n = 0..=steps, or every K-th point and the last
/// of a thinned [`Record`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Solution<const D: usize> {
    /// Times.
    pub t: Vec<f64>,
    /// Positions.
    pub q: Vec<SVector<f64, D>>,
    /// Momenta.
    pub p: Vec<SVector<f64, D>>,
    /// Statistics of the step that reached point k + 1 (from `t[k]` to `t[k+1]` when every
    /// point is kept).
    pub stats: Vec<StepStats>,
    /// The carried multipliers `λ_n = Σ_j d^λ_j Λ̃_j` of the SPARK-family methods, `λ_0, λ_1, …`
    /// one after the other, each [`Solution::lambda_width`] long (read them with
    /// [`Solution::multipliers`]); empty for methods that carry none.
    pub lambda: Vec<f64>,
    /// The number of components `M` of each `λ_n` (`D` for degenerate Lagrangians; 0 when the
    /// method carries none).
    pub lambda_width: usize,
    /// The number of steps taken: the step number of the last point.
    pub steps_taken: usize,
    /// The run's statistics.
    pub run: RunStats,
}

impl<const D: usize> Solution<D> {
    /// The carried multipliers `λ_n` of the points (none for methods that carry none).
    pub fn multipliers(&self) -> impl ExactSizeIterator<Item = &[f64]> {
        self.lambda.chunks_exact(self.lambda_width.max(1))
    }

    /// The number of steps taken.
    pub fn steps(&self) -> usize {
        self.steps_taken
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_keeps_every_kth_point_and_the_last_in_bounded_room() {
        let every = NonZeroUsize::new(3).unwrap_or(NonZeroUsize::MIN);
        let mut record = Record::<1>::new(usize::MAX, every);
        assert!(record.solution.t.capacity() <= PREALLOCATED_POINTS);
        for n in 0..=7 {
            let x = SVector::from([n as f64]);
            let lambda = [2.0 * n as f64];
            let stats = (n > 0).then_some(StepStats {
                iterations: n,
                residual: 0.0,
                factorisations: 1,
            });
            let point = Point {
                step: n,
                t: 0.5 * n as f64,
                q: x.as_slice(),
                p: x.as_slice(),
                lambda: &lambda,
                stats,
            };
            let Ok(()) = record.observe(&point);
        }
        let s = record.into_solution();
        assert_eq!(s.t, [0.0, 1.5, 3.0, 3.5]);
        assert_eq!(
            s.q.iter().map(|q| q[0]).collect::<Vec<_>>(),
            [0.0, 3.0, 6.0, 7.0]
        );
        assert_eq!(
            s.multipliers().collect::<Vec<_>>(),
            [[0.0], [6.0], [12.0], [14.0]]
        );
        let iterations: Vec<usize> = s.stats.iter().map(|st| st.iterations).collect();
        assert_eq!(iterations, [3, 6, 7]);
        assert_eq!(s.steps(), 7);
    }
}
