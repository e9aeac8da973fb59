//! Generated stage methods on holonomic systems: the Lobatto IIIA–IIIB RATTLE steppers
//! `RattleLobattoIIIAIIIB{s}<M>` of `sparkgen::generated::steppers` (order `2s − 2`, RATTLE at
//! `s = 2`), driven by the one driver ([`crate::integrate::Driver`]): Newton's method with their
//! exact, generated stage Jacobian.
//!
//! Initial guess of a step from `(q_n, p_n)` ([`crate::kind::Access::momentum_rate`]): the
//! index-1 multiplier `λ(q, p)`, from
//! `A(q) λ = ∂(G v)/∂q · v − G M⁻¹∇V(q)` with `v = M⁻¹p` (the second derivative of `c(q(t)) = 0`),
//! gives the momentum derivative `ṗ = −∇V − Gᵀλ`. The stage momenta `P_i` are the cubic Hermite
//! extrapolation to `t_n + c_i h` of `(p_{n−1}, ṗ_{n−1})`, `(p_n, ṗ_n)`, the multipliers the
//! linear extrapolation `Λ_i = λ_n + c_i (λ_n − λ_{n−1})`; start-up rule: `P_i = p_0 + c_i h ṗ_0`,
//! `Λ_i = λ_0`. The Gram matrix `A(q_n)` is checked at every step ([`super::gram`]).

use super::core::{HolonomicStep, StepperCore, run_holonomic};
use super::geometry::{Column, Geometry, Shapes, Solvable};
use crate::error::IntegrateError;
use crate::integrate::{Compiled, Driver, Options, StepEquations};
use crate::problem::{HolonomicSystem, Vector};
use crate::solution::{Observer, RunStats, StepStats, Stopped};
use crate::stage::StageMethod;
use nalgebra::{DefaultAllocator, Dim, U1};

/// A generated stage method `Meth` on the holonomic system `P`, as [`crate::solve`] runs it:
/// the one driver ([`Driver`], the stage equations solved with [`Options::newton`]) with the
/// Gram matrix `A(q_n)` checked before every step ([`super::gram`], threshold
/// [`Options::constraints`]), a carried multiplier started at its consistent `λ_0`, and the
/// initial check or projection and the consistency restoration of [`super::Rattle`].
pub(crate) fn run_stages<Meth, P, O, const D: usize, const M: usize>(
    problem: &P,
    q0: Vector<D>,
    p0: Vector<D>,
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
    O: Observer + ?Sized,
{
    let make = || {
        if Meth::DIMS.constraints != M {
            return Err(IntegrateError::InvalidOptions(
                "the method is not for holonomic systems with M constraints",
            ));
        }
        Compiled::<Meth, P, D>::sized(problem)
    };
    run_stage_equations(problem, (&q0, &p0), options, make, observer)
}

/// Runs the one-step stage equations `make` builds (a compiled stepper or the run-time engine)
/// on `problem` from `(q₀, p₀)` into `observer`, with the holonomic checks of [`run_stages`].
pub(super) fn run_stage_equations<E, P, O, D: Dim, M: Solvable>(
    problem: &P,
    (q0, p0): (&Column<D>, &Column<D>),
    options: &Options,
    make: impl FnOnce() -> Result<E, IntegrateError>,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    E: StepEquations,
    P: Geometry<D, M>,
    O: Observer + ?Sized,
    DefaultAllocator: Shapes<D, M>,
{
    let make = || {
        let core = StepperCore::new(problem, options.h, options.constraints)?;
        let driver = Driver::new(make()?, options.h, options.newton)?;
        Ok(Stages { core, driver })
    };
    run_holonomic(problem, (q0, p0), options, make, observer)
}

/// The driver of stage equations with the holonomic checks.
struct Stages<'a, E: StepEquations, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    core: StepperCore<'a, P, D, M>,
    driver: Driver<E>,
}

impl<'a, E, P, D: Dim, M: Solvable> HolonomicStep<'a, P, D, M> for Stages<'a, E, P, D, M>
where
    E: StepEquations,
    P: Geometry<D, M>,
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
        let (step, time) = (self.core.steps + 1, self.core.time());
        self.core.check_gram(q)?;
        let stats = self.driver.step(q.as_slice(), p.as_slice(), step, time)?;
        let (q1, p1) = self.driver.state();
        self.core.steps = step;
        let d = q.shape_generic().0;
        Ok((
            Column::from_column_slice_generic(d, U1, q1),
            Column::from_column_slice_generic(d, U1, p1),
            stats,
        ))
    }

    fn start(&mut self, q: &Column<D>, p: &Column<D>) -> Result<(), IntegrateError> {
        if self.driver.equations().multiplier().is_none() {
            return Ok(());
        }
        self.driver
            .start_multiplier(q.as_slice(), p.as_slice())
            .map_err(|residual| IntegrateError::InitialMultiplier { residual })
    }

    fn multiplier(&self) -> Option<&[f64]> {
        self.driver.multiplier()
    }
}
