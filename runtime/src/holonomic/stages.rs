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

use super::core::{HolonomicStep, StepperCore, record, run, run_holonomic};
use super::error::{HolonomicError, HolonomicFailure};
use super::multipliers::ConstraintFrame;
use super::options::{HolonomicOptions, Tolerances};
use crate::error::IntegrateError;
use crate::integrate::{Compiled, Driver, Options, StepEquations, Stepper};
use crate::problem::{HolonomicSystem, Matrix, Vector};
use crate::solution::{Observer, RunStats, Solution, StepStats, Stopped};
use crate::solve::{NewtonOptions, SingularMatrix};
use crate::stage::StageMethod;

/// A generated stage method `Meth` on the holonomic system `P`, as [`crate::solve`] runs it:
/// the one driver ([`Driver`], the stage equations solved with [`Options::newton`]) with the
/// Gram matrix `A(q_n)` checked before every step ([`super::gram`], threshold
/// [`Options::constraints`]), a carried multiplier started at its consistent `λ_0`, and the
/// initial check or projection and the consistency restoration of [`super::Rattle`].
pub(crate) fn run_stages<Meth, P, O, const D: usize, const M: usize>(
    problem: &P,
    (q0, p0): (&Vector<D>, &Vector<D>),
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
        let core = StepperCore::new(problem, options.h, options.constraints)?;
        let equations = Compiled::<Meth, P, D>::sized(problem)?;
        let driver = Driver::new(equations, options.h, options.newton)?;
        Ok(Stages { core, driver })
    };
    run_holonomic(problem, (q0, p0), options, make, observer)
}

/// The driver of a generated stage method with the holonomic checks.
struct Stages<'a, Meth: StageMethod<P, D>, P, const D: usize, const M: usize> {
    core: StepperCore<'a, P, D, M>,
    driver: Driver<Compiled<'a, Meth, P, D>>,
}

impl<'a, Meth, P, const D: usize, const M: usize> HolonomicStep<'a, P, D, M>
    for Stages<'a, Meth, P, D, M>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    fn core(&self) -> &StepperCore<'a, P, D, M> {
        &self.core
    }

    fn advance(
        &mut self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>, StepStats), IntegrateError> {
        let (step, time) = (self.core.steps + 1, self.core.time());
        self.core.check_gram(q)?;
        let stats = self.driver.step(q.as_slice(), p.as_slice(), step, time)?;
        let (q1, p1) = self.driver.state();
        self.core.steps = step;
        Ok((
            Vector::from_column_slice(q1),
            Vector::from_column_slice(p1),
            stats,
        ))
    }

    fn start(&mut self, q: &Vector<D>, p: &Vector<D>) -> Result<(), IntegrateError> {
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

/// A generated stage method `Meth` with `N` unknowns on the holonomic system `P`: the one
/// driver ([`Stepper`]) with the holonomic steppers' checks of the constraints' rank and their
/// consistency handling.
pub struct StageStepper<
    'a,
    Meth: StageMethod<P, D>,
    P,
    const D: usize,
    const M: usize,
    const N: usize,
> {
    core: StepperCore<'a, P, D, M>,
    driver: Stepper<'a, Meth, P, D, N>,
}

impl<'a, Meth, P, const D: usize, const M: usize, const N: usize> StageStepper<'a, Meth, P, D, M, N>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    /// A stepper; rejects a non-positive or non-finite `h`, invalid tolerances, and an `N`
    /// that is not the method's number of unknowns for `D` coordinates and `M` constraints.
    /// The stage Newton iteration is capped at `tolerances.max_iterations`.
    pub fn new(problem: &'a P, h: f64, tolerances: Tolerances) -> Result<Self, IntegrateError> {
        if Meth::DIMS.coordinates != D
            || Meth::DIMS.constraints != M
            || Meth::UNKNOWNS.len(Meth::DIMS) != N
        {
            return Err(IntegrateError::InvalidOptions(
                "N differs from the method's number of unknowns (or the method is not for holonomic systems with M constraints)",
            ));
        }
        let core = StepperCore::new(problem, h, tolerances)?;
        let newton = NewtonOptions {
            max_iterations: tolerances.max_iterations,
            ..NewtonOptions::default()
        };
        let driver = Stepper::new(problem, h, newton)?;
        Ok(StageStepper { core, driver })
    }

    /// The steps accepted so far.
    pub fn steps(&self) -> usize {
        self.core.steps
    }

    /// The time `t = steps · h` at the start of the next step.
    pub fn time(&self) -> f64 {
        self.core.time()
    }

    /// The converged unknowns of the last step.
    pub fn unknowns(&self) -> &[f64; N] {
        self.driver.unknowns()
    }

    /// One step from `(q, p)`, which should be consistent (`c(q) = 0`, `G(q)M⁻¹p = 0`): the
    /// Gram matrix `A(q)` is checked ([`super::gram`]), then the driver takes the step.
    pub fn step(
        &mut self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>, StepStats), IntegrateError> {
        let (step, time) = (self.core.steps + 1, self.time());
        let threshold = self.core.tolerances.gram;
        ConstraintFrame::cached(
            &mut self.core.frame,
            self.core.problem,
            &self.core.minv,
            q,
            threshold,
        )
        .map_err(|d| IntegrateError::degenerate(d, step, time, threshold))?;
        let result = self.driver.step(q, p, step, time)?;
        self.core.steps = step;
        Ok(result)
    }

    /// The exact tangent map `DΨ = ∂(q₁, p₁)/∂(q, p)` of the last step, taken from `(q, p)`
    /// ([`crate::stage::tangent_map`]).
    pub fn tangent_map(
        &self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<[[Matrix<D, D>; 2]; 2], SingularMatrix> {
        self.driver.tangent_map(q, p)
    }
}

impl<'a, Meth, P, const D: usize, const M: usize, const N: usize> HolonomicStep<'a, P, D, M>
    for StageStepper<'a, Meth, P, D, M, N>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    fn core(&self) -> &StepperCore<'a, P, D, M> {
        &self.core
    }

    fn advance(
        &mut self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>, StepStats), IntegrateError> {
        self.step(q, p)
    }
}

/// Integrates `options.steps` steps of the generated stage method `Meth` (`N` unknowns) from
/// `(q₀, p₀)`, with the consistency handling of [`integrate_rattle`](super::integrate_rattle)
/// (initial check or projection, optional restoration after every step). The statistics of
/// a step are the Newton iterations and the final scaled residual of its stage equations. On
/// failure the error carries the solution up to the last accepted step.
pub fn integrate_holonomic<Meth, P, const D: usize, const M: usize, const N: usize>(
    problem: &P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
) -> Result<Solution<D>, Box<HolonomicFailure<D>>>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    record(options, |r| {
        integrate_holonomic_into::<Meth, P, _, D, M, N>(problem, q0, p0, options, r)
    })
}

/// [`integrate_holonomic`], handing every accepted state (the initial one first) to `observer`
/// as it is computed instead of keeping it; stops at the first failed step or observer error.
pub fn integrate_holonomic_into<Meth, P, O, const D: usize, const M: usize, const N: usize>(
    problem: &P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
    observer: &mut O,
) -> Result<(), Stopped<HolonomicError, O::Error>>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
    O: Observer + ?Sized,
{
    run(
        problem,
        q0,
        p0,
        options,
        || StageStepper::<Meth, P, D, M, N>::new(problem, options.h, options.tolerances),
        observer,
    )
}
