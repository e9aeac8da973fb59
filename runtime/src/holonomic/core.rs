//! The state the holonomic steppers share (the problem, h, tolerances, M⁻¹, the constraint frame
//! of the last position, the last multipliers and the step count) and the run loop of the
//! one-step methods, which hands every accepted state to an [`Observer`].

use super::consistency::{initial_state, project_at, restoration_tolerances};
use super::error::{HolonomicError, HolonomicFailure};
use super::multipliers::ConstraintFrame;
use super::options::{HolonomicOptions, Tolerances, validate};
use crate::problem::{HolonomicSystem, Matrix, Vector};
use crate::solution::{Observer, Point, Record, Solution, StepStats, Stopped};
use std::convert::Infallible;

/// Shared stepper state.
#[derive(Clone, Debug)]
pub(super) struct StepperCore<'a, P, const D: usize, const M: usize> {
    pub(super) problem: &'a P,
    pub(super) h: f64,
    pub(super) tolerances: Tolerances,
    pub(super) minv: Matrix<D, D>,
    pub(super) frame: Option<ConstraintFrame<D, M>>,
    pub(super) guess: Vector<M>,
    pub(super) steps: usize,
}

impl<P, const D: usize, const M: usize> StepperCore<'_, P, D, M> {
    /// The time `t = steps · h` at the start of the next step.
    pub(super) fn time(&self) -> f64 {
        self.steps as f64 * self.h
    }
}

impl<'a, P: HolonomicSystem<D, M>, const D: usize, const M: usize> StepperCore<'a, P, D, M> {
    /// Validates `h` (finite, positive), the tolerances and the mass matrix
    /// ([`HolonomicSystem::validate_mass_matrix`]).
    pub(super) fn new(
        problem: &'a P,
        h: f64,
        tolerances: Tolerances,
    ) -> Result<Self, HolonomicError> {
        validate(h, &tolerances)?;
        problem.validate_mass_matrix()?;
        Ok(StepperCore {
            problem,
            h,
            tolerances,
            minv: problem.inverse_mass_matrix(),
            frame: None,
            guess: Vector::zeros(),
            steps: 0,
        })
    }
}

/// A one-step method on a holonomic system, as the run loop sees it.
pub(super) trait OneStep<'a, P, const D: usize, const M: usize> {
    /// The shared state.
    fn core(&self) -> &StepperCore<'a, P, D, M>;

    /// One step from `(q, p)`: `(q₁, p₁)` and the step's statistics.
    fn advance(
        &mut self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>, StepStats), HolonomicError>;
}

/// Runs `options.steps` steps of the stepper `make` builds from `(q₀, p₀)`, handing every
/// accepted state (the initial one first) to `observer`: the initial data are checked (or
/// projected); with `restore_consistency` every step is followed by a projection at round-off
/// tolerance. Stops at the first failed step or observer error.
pub(super) fn run<'a, S, P, O, const D: usize, const M: usize>(
    problem: &'a P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
    make: impl FnOnce() -> Result<S, HolonomicError>,
    observer: &mut O,
) -> Result<(), Stopped<HolonomicError, O::Error>>
where
    S: OneStep<'a, P, D, M>,
    P: HolonomicSystem<D, M>,
    O: Observer + ?Sized,
{
    let mut stepper = make().map_err(Stopped::Step)?;
    let (mut q, mut p) = initial_state(problem, q0, p0, options).map_err(Stopped::Step)?;
    let restoration = restoration_tolerances(&options.tolerances);
    let mut stats = None;
    for n in 0..=options.steps {
        let point = Point {
            step: n,
            t: stepper.core().time(),
            q: q.as_slice(),
            p: p.as_slice(),
            lambda: &[],
            stats,
        };
        observer.observe(&point).map_err(Stopped::Observer)?;
        if n == options.steps {
            break;
        }
        let time = stepper.core().time();
        let (q1, p1, step_stats) = stepper.advance(&q, &p).map_err(Stopped::Step)?;
        (q, p) = if options.restore_consistency {
            let core = stepper.core();
            project_at(
                problem,
                &core.minv,
                &q1,
                &p1,
                &restoration,
                core.steps,
                time,
            )
            .map_err(Stopped::Step)?
        } else {
            (q1, p1)
        };
        stats = Some(step_stats);
    }
    Ok(())
}

/// The solution of a run of `options.steps` steps into `run`'s observer, every point kept, or
/// the solution up to the last accepted step with the error of the step that failed.
pub(super) fn record<const D: usize>(
    options: &HolonomicOptions,
    run: impl FnOnce(&mut Record<D>) -> Result<(), Stopped<HolonomicError, Infallible>>,
) -> Result<Solution<D>, Box<HolonomicFailure<D>>> {
    Record::every_point(options.steps, run, |solution, error| {
        Box::new(HolonomicFailure { solution, error })
    })
}
