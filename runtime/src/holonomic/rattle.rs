//! The RATTLE stepper and its driver.

use super::core::{HolonomicStep, StepperCore, run_holonomic};
use super::geometry::{Column, Geometry, Shapes, Solvable};
use super::multipliers::{ConstraintFrame, solve_positions, solve_velocities};
use super::options::Tolerances;
use crate::error::IntegrateError;
use crate::integrate::Options;
use crate::problem::{HolonomicSystem, Vector};
use crate::run::{Method, route};
use crate::solution::{Observer, RunStats, StepStats, Stopped};
use nalgebra::{DefaultAllocator, Dim};

/// One accepted RATTLE step from `(q, p)`.
#[derive(Clone, Debug, PartialEq)]
pub struct RattleStep<D: Dim, M: Dim>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// `q₁`.
    pub q: Column<D>,
    /// `p₁`.
    pub p: Column<D>,
    /// The position multipliers λ (impulse `h G(q)ᵀλ`).
    pub lambda: Column<M>,
    /// The velocity multipliers μ (impulse `h G(q₁)ᵀμ`).
    pub mu: Column<M>,
    /// Newton iterations of the position multipliers.
    pub iterations: usize,
    /// Linear solves of the velocity multipliers.
    pub velocity_iterations: usize,
    /// The relative residual of `c(q₁)` (see [`Tolerances::position`]).
    pub residual: f64,
}

/// Classical RATTLE (see the [module documentation](super)) as a method value for
/// [`crate::solve`](fn@crate::solve) on holonomic systems: `solve(&problem, Rattle, q0, p0, &options)`. The
/// initial data are checked (or projected, [`Options::project_initial`]) with the tolerance
/// [`Options::initial_tolerance`], the multipliers solved with [`Options::constraints`], the
/// Gram matrix checked at every step, and with [`Options::restore_consistency`] every step is
/// followed by a projection at round-off tolerance. The statistics of step n are the position
/// Newton iterations and the relative `c(q_{n+1})` residual; the run's are those of
/// [`crate::solve`](fn@crate::solve) (the constraint residual `|c(q)|∞`, the energy `H(q, p)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rattle;

impl<P, const D: usize, const M: usize> Method<P, D, route::HandWritten<M>> for Rattle
where
    P: HolonomicSystem<D, M>,
{
    fn run_into<O: Observer + ?Sized>(
        self,
        problem: &P,
        q0: Vector<D>,
        p0: Vector<D>,
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        run_rattle(problem, (&q0, &p0), options, observer)
    }
}

/// Runs RATTLE on `problem` from `(q₀, p₀)` into `observer` (see [`Rattle`]).
pub(super) fn run_rattle<P, O, D: Dim, M: Solvable>(
    problem: &P,
    initial: (&Column<D>, &Column<D>),
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    P: Geometry<D, M>,
    O: Observer + ?Sized,
    DefaultAllocator: Shapes<D, M>,
{
    let make = || RattleStepper::new(problem, options.h, options.constraints);
    run_holonomic(problem, initial, options, make, observer)
}

/// RATTLE with step size `h` on `problem` (see the [module documentation](super)), one step at
/// a time.
///
/// Keeps the constraint frame `(G, M⁻¹Gᵀ, A)` of the last `q₁` (reused as `q_n` of the next
/// step) and the last μ, the initial guess of the next λ.
#[derive(Clone, Debug)]
pub struct RattleStepper<'a, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    pub(super) core: StepperCore<'a, P, D, M>,
}

impl<'a, P: Geometry<D, M>, D: Dim, M: Solvable> RattleStepper<'a, P, D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// A stepper; rejects a non-positive or non-finite `h` and invalid tolerances.
    pub fn new(problem: &'a P, h: f64, tolerances: Tolerances) -> Result<Self, IntegrateError> {
        Ok(RattleStepper {
            core: StepperCore::new(problem, h, tolerances)?,
        })
    }

    /// The steps accepted so far.
    pub fn steps(&self) -> usize {
        self.core.steps
    }

    /// The time `t = steps · h` at the start of the next step.
    pub fn time(&self) -> f64 {
        self.core.time()
    }

    /// One step from `(q, p)`, which should be consistent (`c(q) = 0`, `G(q)M⁻¹p = 0`).
    pub fn step(
        &mut self,
        q: &Column<D>,
        p: &Column<D>,
    ) -> Result<RattleStep<D, M>, IntegrateError> {
        let (h, step, time) = (self.core.h, self.core.steps + 1, self.time());
        let tolerances = self.core.tolerances;
        let degenerate = |d| IntegrateError::degenerate(d, step, time, tolerances.gram);
        let failed =
            |velocity| move |f| IntegrateError::multipliers(f, velocity, step, time, &tolerances);
        let frame = ConstraintFrame::cached(
            &mut self.core.frame,
            self.core.problem,
            &self.core.minv,
            q,
            tolerances.gram,
        )
        .map_err(degenerate)?;
        let p_kick = p - 0.5 * h * self.core.problem.force_gradient(q);
        let q_pred = q + h * (&self.core.minv * &p_kick);
        let positions = solve_positions(
            self.core.problem,
            frame,
            &q_pred,
            h * h * &self.core.guess,
            &tolerances,
        )
        .map_err(failed(false))?;
        let p_half = p_kick - frame.g.transpose() * &positions.x / h;
        let frame1 = ConstraintFrame::new(
            self.core.problem,
            &self.core.minv,
            &positions.q,
            tolerances.gram,
        )
        .map_err(degenerate)?;
        let p_hat = p_half - 0.5 * h * self.core.problem.force_gradient(&positions.q);
        let velocities = solve_velocities(&frame1, &self.core.minv, &p_hat, h, &tolerances)
            .map_err(failed(true))?;
        if !velocities.p.iter().all(|x| x.is_finite()) {
            return Err(IntegrateError::NonFinite { step, time });
        }
        self.core.frame = Some(frame1);
        self.core.guess = velocities.mu.clone();
        self.core.steps = step;
        Ok(RattleStep {
            q: positions.q,
            p: velocities.p,
            lambda: positions.x / (h * h),
            mu: velocities.mu,
            iterations: positions.iterations,
            velocity_iterations: velocities.iterations,
            residual: positions.residual,
        })
    }
}

impl<'a, P: Geometry<D, M>, D: Dim, M: Solvable> HolonomicStep<'a, P, D, M>
    for RattleStepper<'a, P, D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    fn core(&self) -> &StepperCore<'a, P, D, M> {
        &self.core
    }

    fn advance(
        &mut self,
        q: &Column<D>,
        p: &Column<D>,
    ) -> Result<(Column<D>, Column<D>, StepStats), IntegrateError> {
        let s = self.step(q, p)?;
        let stats = StepStats {
            iterations: s.iterations,
            residual: s.residual,
            factorisations: 0,
        };
        Ok((s.q, s.p, stats))
    }
}
