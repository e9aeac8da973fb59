//! The state the holonomic steppers share (the problem, h, tolerances, M⁻¹, the constraint frame
//! of the last position, the last multipliers and the step count), and how they run in the one
//! loop ([`crate::integrate::run_steps`]): the initial data checked or projected, every step
//! followed by the projection of consistency restoration if asked.

use super::consistency::{initial_state, project_at, restoration_tolerances};
use super::geometry::{Block, Column, Geometry, Shapes, Solvable};
use super::multipliers::ConstraintFrame;
use super::options::{Tolerances, validate};
use crate::error::IntegrateError;
use crate::integrate::{OneStep, Options, run_steps};
use crate::kind::constraint_names;
use crate::solution::{Observer, RunStats, StepStats, Stopped};
use nalgebra::{DefaultAllocator, Dim, U1};

/// Shared stepper state.
#[derive(Clone, Debug)]
pub(super) struct StepperCore<'a, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    pub(super) problem: &'a P,
    pub(super) h: f64,
    pub(super) tolerances: Tolerances,
    pub(super) minv: Block<D, D>,
    pub(super) frame: Option<ConstraintFrame<D, M>>,
    pub(super) guess: Column<M>,
    pub(super) steps: usize,
}

impl<P, D: Dim, M: Solvable> StepperCore<'_, P, D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// The time `t = steps · h` at the start of the next step.
    pub(super) fn time(&self) -> f64 {
        self.steps as f64 * self.h
    }
}

impl<'a, P: Geometry<D, M>, D: Dim, M: Solvable> StepperCore<'a, P, D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// Validates `h` (finite, positive), the tolerances and the mass matrix
    /// ([`Geometry::check_mass`]).
    pub(super) fn new(
        problem: &'a P,
        h: f64,
        tolerances: Tolerances,
    ) -> Result<Self, IntegrateError> {
        validate(h, &tolerances)?;
        problem.check_mass()?;
        Ok(StepperCore {
            problem,
            h,
            tolerances,
            minv: problem.inverse_mass(),
            frame: None,
            guess: Column::zeros_generic(problem.shape().1, U1),
            steps: 0,
        })
    }

    /// Checks the Gram matrix `A(q)` at the start of the next step ([`super::gram`]), keeping
    /// its frame for the step.
    pub(super) fn check_gram(&mut self, q: &Column<D>) -> Result<(), IntegrateError> {
        let (step, time, threshold) = (self.steps + 1, self.time(), self.tolerances.gram);
        ConstraintFrame::cached(&mut self.frame, self.problem, &self.minv, q, threshold)
            .map_err(|d| IntegrateError::degenerate(d, step, time, threshold))?;
        Ok(())
    }
}

/// A one-step method on a holonomic system, as [`Holonomic`] runs it.
pub(super) trait HolonomicStep<'a, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// The shared state.
    fn core(&self) -> &StepperCore<'a, P, D, M>;

    /// One step from `(q, p)`: `(q₁, p₁)` and the step's statistics.
    fn advance(
        &mut self,
        q: &Column<D>,
        p: &Column<D>,
    ) -> Result<(Column<D>, Column<D>, StepStats), IntegrateError>;

    /// Starts a run from the checked initial state `(q₀, p₀)` (a carried multiplier at its
    /// consistent `λ_0`); nothing by default.
    fn start(&mut self, q0: &Column<D>, p0: &Column<D>) -> Result<(), IntegrateError> {
        let _ = (q0, p0);
        Ok(())
    }

    /// The carried multiplier `λ_n`, for methods that carry one.
    fn multiplier(&self) -> Option<&[f64]> {
        None
    }
}

/// A holonomic stepper `S` as the one loop sees it ([`OneStep`]): the constraint residual
/// `|c(q)|∞` and the energy `H(q, p)` at a state, the Gauss–Newton iterations of the initial
/// projection if one ran, and each step's result, projected back onto `c = 0`, `G M⁻¹ p = 0`
/// at round-off tolerance when `restoration` is set.
struct Holonomic<'a, S, P, D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    stepper: S,
    problem: &'a P,
    restoration: Option<Tolerances>,
    initial_projection: Option<usize>,
    q: Column<D>,
    p: Column<D>,
    _constraints: std::marker::PhantomData<M>,
}

impl<'a, S, P, D: Dim, M: Solvable> Holonomic<'a, S, P, D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// A state of the problem's size from a slice.
    fn column(&self, x: &[f64]) -> Column<D> {
        Column::from_column_slice_generic(self.q.shape_generic().0, U1, x)
    }
}

impl<'a, S, P, D: Dim, M: Solvable> OneStep for Holonomic<'a, S, P, D, M>
where
    S: HolonomicStep<'a, P, D, M>,
    P: Geometry<D, M>,
    DefaultAllocator: Shapes<D, M>,
{
    fn constraint_name(&self) -> &'static str {
        constraint_names::HOLONOMIC
    }

    fn constraint(&self, q: &[f64], _: &[f64]) -> f64 {
        self.problem.constraint_values(&self.column(q)).amax()
    }

    fn energy(&self, q: &[f64], p: &[f64]) -> Option<f64> {
        Some(self.problem.total_energy(&self.column(q), &self.column(p)))
    }

    fn multiplier(&self) -> Option<&[f64]> {
        self.stepper.multiplier()
    }

    fn initial_projection(&self) -> Option<usize> {
        self.initial_projection
    }

    fn step(
        &mut self,
        q: &[f64],
        p: &[f64],
        _: usize,
        time: f64,
    ) -> Result<StepStats, IntegrateError> {
        let (q, p) = (self.column(q), self.column(p));
        let (q1, p1, stats) = self.stepper.advance(&q, &p)?;
        (self.q, self.p) = match &self.restoration {
            Some(tolerances) => {
                let core = self.stepper.core();
                let (minv, step) = (&core.minv, core.steps);
                project_at(self.problem, minv, &q1, &p1, tolerances, step, time)?
            }
            None => (q1, p1),
        };
        Ok(stats)
    }

    fn state(&self) -> (&[f64], &[f64]) {
        (self.q.as_slice(), self.p.as_slice())
    }
}

/// Runs `options.steps` steps of the stepper `make` builds from `(q₀, p₀)` in the one loop
/// ([`run_steps`]), handing every accepted state (the initial one first) and then the run's
/// statistics to `observer`: the initial data are checked (or projected); with
/// [`Options::restore_consistency`] every step is followed by a projection at round-off
/// tolerance. Stops at the first failed step or observer error.
pub(super) fn run_holonomic<'a, S, P, O, D: Dim, M: Solvable>(
    problem: &'a P,
    (q0, p0): (&Column<D>, &Column<D>),
    options: &Options,
    make: impl FnOnce() -> Result<S, IntegrateError>,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    S: HolonomicStep<'a, P, D, M>,
    P: Geometry<D, M>,
    O: Observer + ?Sized,
    DefaultAllocator: Shapes<D, M>,
{
    let mut stepper = make().map_err(Stopped::Step)?;
    check_finite(problem, q0, p0).map_err(Stopped::Step)?;
    let initial = initial_state(problem, q0, p0, options).map_err(Stopped::Step)?;
    let (mut q, mut p) = (initial.q, initial.p);
    let gram = options.constraints.gram;
    ConstraintFrame::new(problem, &problem.inverse_mass(), &q, gram)
        .map_err(|d| Stopped::Step(IntegrateError::degenerate(d, 0, 0.0, gram)))?;
    stepper.start(&q, &p).map_err(Stopped::Step)?;
    let restoration = options
        .restore_consistency
        .then(|| restoration_tolerances(&options.constraints));
    let mut holonomic = Holonomic {
        stepper,
        problem,
        restoration,
        initial_projection: initial.projection_iterations,
        q: q.clone(),
        p: p.clone(),
        _constraints: std::marker::PhantomData,
    };
    run_steps(
        &mut holonomic,
        q.as_mut_slice(),
        p.as_mut_slice(),
        options,
        observer,
    )
}

/// Checks, before the first step (and before any projection), that `(q₀, p₀)` lies where the
/// equations of motion are defined: the energy `H(q₀, p₀)`, the constraint gradients `G(q₀)`
/// and the force `∇V(q₀)` are finite. The Gram matrix `A(q) = G M⁻¹ Gᵀ` is then checked at the
/// initial state (projected or not), so that data whose first step's multipliers are
/// undetermined are refused at step 0, as their projection refuses them.
fn check_finite<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    q: &Column<D>,
    p: &Column<D>,
) -> Result<(), IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    let non_finite =
        |what: String, value: f64| IntegrateError::NonFiniteInitialData { what, value };
    let energy = problem.total_energy(q, p);
    if !energy.is_finite() {
        return Err(non_finite("the energy".to_owned(), energy));
    }
    let g = problem.constraint_gradients(q);
    for (a, k) in (0..g.nrows()).flat_map(|a| (0..g.ncols()).map(move |k| (a, k))) {
        if !g[(a, k)].is_finite() {
            return Err(non_finite(format!("∂c_{}/∂q_{}", a + 1, k + 1), g[(a, k)]));
        }
    }
    let force = problem.force_gradient(q);
    if let Some((k, value)) = force
        .iter()
        .copied()
        .enumerate()
        .find(|(_, v)| !v.is_finite())
    {
        return Err(non_finite(format!("∂V/∂q_{}", k + 1), value));
    }
    Ok(())
}
