//! The state the holonomic steppers share (the problem, h, tolerances, M⁻¹, the constraint frame
//! of the last position, the last multipliers and the step count) and the run loop of the
//! one-step methods.

use super::consistency::{initial_state, project_at, restoration_tolerances};
use super::error::{HolonomicError, HolonomicFailure};
use super::multipliers::ConstraintFrame;
use super::options::{HolonomicOptions, Tolerances, validate};
use crate::problem::{HolonomicSystem, Matrix, Vector};
use crate::solution::{Solution, StepStats};

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

/// Runs `options.steps` steps of the stepper `make` builds from `(q₀, p₀)`: the initial data are
/// checked (or projected); with `restore_consistency` every step is followed by a projection at
/// round-off tolerance. On failure the error carries the solution up to the last accepted step.
pub(super) fn run<'a, S, P, const D: usize, const M: usize>(
    problem: &'a P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
    make: impl FnOnce() -> Result<S, HolonomicError>,
) -> Result<Solution<D>, Box<HolonomicFailure<D>>>
where
    S: OneStep<'a, P, D, M>,
    P: HolonomicSystem<D, M>,
{
    let mut solution = Solution::with_capacity(options.steps);
    let fail = |solution, error| Box::new(HolonomicFailure { solution, error });
    let mut stepper = match make() {
        Ok(s) => s,
        Err(e) => return Err(fail(solution, e)),
    };
    let (mut q, mut p) = match initial_state(problem, q0, p0, options) {
        Ok(state) => state,
        Err(e) => return Err(fail(solution, e)),
    };
    let restoration = restoration_tolerances(&options.tolerances);
    solution.t.push(0.0);
    solution.q.push(q);
    solution.p.push(p);
    for _ in 0..options.steps {
        let time = stepper.core().time();
        let next = stepper.advance(&q, &p).and_then(|(q1, p1, stats)| {
            let core = stepper.core();
            let state = if options.restore_consistency {
                project_at(
                    problem,
                    &core.minv,
                    &q1,
                    &p1,
                    &restoration,
                    core.steps,
                    time,
                )?
            } else {
                (q1, p1)
            };
            Ok((state, stats))
        });
        let (state, stats) = match next {
            Ok(n) => n,
            Err(e) => return Err(fail(solution, e)),
        };
        (q, p) = state;
        solution.t.push(stepper.core().time());
        solution.q.push(q);
        solution.p.push(p);
        solution.stats.push(stats);
    }
    Ok(solution)
}
