//! SHAKE: the RATTLE positions written as a two-step recursion on positions only, with
//! central-difference momenta, for users coming from molecular-dynamics codes.
//!
//! ```text
//! q₁      = q₀ + h M⁻¹(p₀ − (h/2)∇V(q₀)) − h² M⁻¹G(q₀)ᵀλ₀,         c(q₁) = 0
//! q_{n+1} = 2q_n − q_{n−1} − h² M⁻¹(∇V(q_n) + G(q_n)ᵀλ_n),          c(q_{n+1}) = 0
//! p_n     = M (q_{n+1} − q_{n−1}) / (2h)
//! ```
//!
//! The positions coincide with RATTLE's; the momenta satisfy `G(q_n)M⁻¹p_n = 0` only to
//! `O(h²)`.

use super::core::{HolonomicStep, StepperCore, run_holonomic};
use super::geometry::{Block, Column, Geometry, Shapes, Solvable};
use super::multipliers::{ConstraintFrame, solve_positions};
use super::options::Tolerances;
use crate::error::IntegrateError;
use crate::integrate::Options;
use crate::problem::{HolonomicSystem, Vector};
use crate::run::{Method, route};
use crate::solution::{Observer, RunStats, StepStats, Stopped};
use nalgebra::{DefaultAllocator, Dim};

/// SHAKE (see the [module documentation](self)) as a method value for [`crate::solve`](fn@crate::solve) on
/// holonomic systems: `solve(&problem, Shake, q0, p0, &options)`, the positions `q_n` and the
/// central-difference momenta `p_n` (`p₀` as given, after the initial check or projection), so
/// that step n computes the position `q_{n+1}` beyond it. Options as for
/// [`Rattle`](super::Rattle), except that [`Options::restore_consistency`] is rejected
/// (SHAKE's momenta are differences of positions). The statistics of step n are those of the
/// solve for `q_n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shake;

impl<P, const D: usize, const M: usize> Method<P, D, route::HandWritten<M>> for Shake
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
        run_shake(problem, (&q0, &p0), options, observer)
    }
}

/// Runs SHAKE on `problem` from `(q₀, p₀)` into `observer` (see [`Shake`]).
pub(super) fn run_shake<P, O, D: Dim, M: Solvable>(
    problem: &P,
    (q0, p0): (&Column<D>, &Column<D>),
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    P: Geometry<D, M>,
    O: Observer + ?Sized,
    DefaultAllocator: Shapes<D, M>,
{
    if options.restore_consistency {
        let e = IntegrateError::InvalidOptions("SHAKE has no consistency restoration");
        return Err(Stopped::Step(e));
    }
    let make = || {
        Ok(Positions {
            shake: ShakeStepper::new(problem, options.h, options.constraints)?,
            mass: problem.mass(),
            next: None,
        })
    };
    run_holonomic(problem, (q0, p0), options, make, observer)
}

/// SHAKE as a one-step method on `(q_n, p_n)`: the step to `n + 1` takes the position
/// `q_{n+1}` computed by the previous step (by RATTLE's first half step at n = 0) and computes
/// `q_{n+2}`, from which `p_{n+1} = M (q_{n+2} − q_n) / (2h)`.
struct Positions<'a, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    shake: ShakeStepper<'a, P, D, M>,
    mass: Block<D, D>,
    /// `q_{n+1}`, once computed.
    next: Option<ShakeStep<D, M>>,
}

impl<'a, P, D: Dim, M: Solvable> HolonomicStep<'a, P, D, M> for Positions<'a, P, D, M>
where
    P: Geometry<D, M>,
    DefaultAllocator: Shapes<D, M>,
{
    fn core(&self) -> &StepperCore<'a, P, D, M> {
        &self.shake.core
    }

    fn advance(
        &mut self,
        q: &Column<D>,
        p: &Column<D>,
    ) -> Result<(Column<D>, Column<D>, StepStats), IntegrateError> {
        let current = match self.next.take() {
            Some(next) => next,
            None => self.shake.start(q, p)?,
        };
        let next = self.shake.step(q, &current.q)?;
        let p1 = &self.mass * (&next.q - q) / (2.0 * self.shake.core.h);
        self.next = Some(next);
        let stats = StepStats {
            iterations: current.iterations,
            residual: current.residual,
            factorisations: 0,
        };
        Ok((current.q, p1, stats))
    }
}

/// One SHAKE position update.
#[derive(Clone, Debug, PartialEq)]
pub struct ShakeStep<D: Dim, M: Dim>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// The new position.
    pub q: Column<D>,
    /// Its multipliers λ (impulse `h² M⁻¹G(q_n)ᵀλ`).
    pub lambda: Column<M>,
    /// Newton iterations.
    pub iterations: usize,
    /// The relative residual of `c` at the new position (see [`Tolerances::position`]).
    pub residual: f64,
}

/// The SHAKE position stepper; keeps the frame of the last position and the last λ (the
/// initial guess of the next one).
#[derive(Clone, Debug)]
pub struct ShakeStepper<'a, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    pub(super) core: StepperCore<'a, P, D, M>,
}

impl<'a, P: Geometry<D, M>, D: Dim, M: Solvable> ShakeStepper<'a, P, D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// A stepper; rejects a non-positive or non-finite `h` and invalid tolerances.
    pub fn new(problem: &'a P, h: f64, tolerances: Tolerances) -> Result<Self, IntegrateError> {
        Ok(ShakeStepper {
            core: StepperCore::new(problem, h, tolerances)?,
        })
    }

    /// The first position `q₁` from consistent `(q₀, p₀)` (RATTLE's first half step).
    pub fn start(
        &mut self,
        q0: &Column<D>,
        p0: &Column<D>,
    ) -> Result<ShakeStep<D, M>, IntegrateError> {
        let h = self.core.h;
        let kick = p0 - 0.5 * h * self.core.problem.force_gradient(q0);
        let q_pred = q0 + h * (&self.core.minv * kick);
        self.advance(q0, &q_pred)
    }

    /// `q_{n+1}` from `q_{n−1}` and `q_n`.
    pub fn step(
        &mut self,
        q_prev: &Column<D>,
        q: &Column<D>,
    ) -> Result<ShakeStep<D, M>, IntegrateError> {
        let h = self.core.h;
        let force = &self.core.minv * self.core.problem.force_gradient(q);
        let q_pred = q + (q - q_prev) - h * h * force;
        self.advance(q, &q_pred)
    }

    /// The constrained update from the prediction `q̃` with the constraint normals at `q`.
    fn advance(
        &mut self,
        q: &Column<D>,
        q_pred: &Column<D>,
    ) -> Result<ShakeStep<D, M>, IntegrateError> {
        let (h, step) = (self.core.h, self.core.steps + 1);
        let time = self.core.steps as f64 * h;
        let tolerances = self.core.tolerances;
        let frame = ConstraintFrame::cached(
            &mut self.core.frame,
            self.core.problem,
            &self.core.minv,
            q,
            tolerances.gram,
        )
        .map_err(|d| IntegrateError::degenerate(d, step, time, tolerances.gram))?;
        let positions = solve_positions(
            self.core.problem,
            frame,
            q_pred,
            h * h * &self.core.guess,
            &tolerances,
        )
        .map_err(|f| IntegrateError::multipliers(f, false, step, time, &tolerances))?;
        let lambda = positions.x / (h * h);
        self.core.guess = lambda.clone();
        self.core.steps = step;
        Ok(ShakeStep {
            q: positions.q,
            lambda,
            iterations: positions.iterations,
            residual: positions.residual,
        })
    }
}
