//! One entry point for every problem kind: [`solve`] runs any method on any problem of its kind
//! (a degenerate Lagrangian, a Lagrangian, an implicit DAE, a Hamiltonian DAE, a holonomic
//! system), the method passed as a value and its number of unknowns `N` never written: the
//! stage system's storage is sized once per run from the method's layout, so a step allocates
//! nothing. [`solve_into`] hands the points to an [`Observer`] instead of keeping them
//! ([`crate::observers::Every`] to thin them, [`crate::output::TrajectoryFile`] to write them).
//!
//! How a method reaches a problem is a [`Method`] impl, chosen by the problem's traits: a
//! generated stage method of the problem's own kind runs on it directly; an implicit-DAE method
//! runs on a [`Lagrangian`] through its implicit ODE ([`LagrangianOde`]); a Hamiltonian-DAE
//! method runs on a [`DegenerateLagrangian`] through Dirac's total Hamiltonian
//! ([`DiracHamiltonian`]); a method named at run time ([`crate::engine::Named`]) runs on a
//! problem of any kind through the engine. A method that reaches the problem by no route is a
//! compile error naming both.

use crate::error::IntegrateError;
use crate::integrate::{Compiled, Options, recorded, run_into};
use crate::kind::{self, Access};
use crate::problem::{
    DegenerateLagrangian, DiracHamiltonian, HamiltonianDae, HolonomicSystem, ImplicitDae,
    Lagrangian, LagrangianOde,
};
use crate::solution::{Failure, Observer, RunStats, Solution, Stopped};
use crate::stage::StageMethod;
use nalgebra::SVector;

/// The routes by which a method reaches a problem, one marker per [`Method`] impl. They are
/// inferred from the problem's traits and never written.
pub mod route {
    /// A generated stage method of the problem's own kind.
    #[derive(Clone, Copy, Debug)]
    pub struct Direct;
    /// An implicit-DAE method on a Lagrangian `L(q, v)`, through its implicit ODE
    /// ([`LagrangianOde`](crate::problem::LagrangianOde)).
    #[derive(Clone, Copy, Debug)]
    pub struct ImplicitOde;
    /// A Hamiltonian-DAE method on a degenerate Lagrangian, through Dirac's total Hamiltonian
    /// `H_T = H(q) + λ·(p − ϑ(q))` ([`DiracHamiltonian`](crate::problem::DiracHamiltonian)).
    #[derive(Clone, Copy, Debug)]
    pub struct Dirac;
    /// A method named at run time ([`Named`](crate::engine::Named)) on a problem of the kind
    /// `K` (a marker of [`crate::kind`], or [`ImplicitOde`] for a Lagrangian), run by the engine.
    #[derive(Clone, Copy, Debug)]
    pub struct ByName<K>(std::marker::PhantomData<K>);
    /// A hand-written method ([`Rattle`](crate::holonomic::Rattle),
    /// [`Shake`](crate::holonomic::Shake)) on a holonomic system with `M` constraints.
    #[derive(Clone, Copy, Debug)]
    pub struct HandWritten<const M: usize>;
}

/// How a run of a generated stage method goes on a problem of the method's kind
/// ([`StageMethod::Kind`]): the one loop of [`run_into`], which checks the initial data against
/// the kind's constraint; for holonomic systems with the checks of RATTLE (the relative
/// consistency of `c(q₀) = 0` and `G(q₀)M⁻¹p₀ = 0` or their projection, the Gram matrix
/// `A(q_n) = G M⁻¹ Gᵀ` at every step, and consistency restoration if asked; see
/// [`Options`]).
pub trait KindRun<P, const D: usize>: Access<P, D> + Sized {
    /// Integrates `problem` from `(q₀, p₀)` with the stage method `M` of this kind.
    fn run_into<M, O>(
        problem: &P,
        q0: SVector<f64, D>,
        p0: SVector<f64, D>,
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
    where
        M: StageMethod<P, D, Kind = Self>,
        O: Observer + ?Sized;
}

/// [`KindRun`] for each kind: `run` with the generics `M`, `P`, `O`, `D` (and the kind's `K`).
macro_rules! kind_runs {
    ($($kind:ty => $bound:path, [$($k:ident)?], $run:expr;)*) => {$(
        impl<P: $bound, const D: usize $(, const $k: usize)?> KindRun<P, D> for $kind {
            fn run_into<M, O>(
                problem: &P,
                q0: SVector<f64, D>,
                p0: SVector<f64, D>,
                options: &Options,
                observer: &mut O,
            ) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
            where
                M: StageMethod<P, D, Kind = Self>,
                O: Observer + ?Sized,
            {
                $run(problem, q0, p0, options, observer)
            }
        }
    )*};
}

kind_runs! {
    kind::Degenerate => DegenerateLagrangian<D>, [], run_stages_into::<M, P, O, D>;
    kind::Implicit<K> => ImplicitDae<D, K>, [K], run_stages_into::<M, P, O, D>;
    kind::Hamiltonian<K> => HamiltonianDae<D, K>, [K], run_stages_into::<M, P, O, D>;
    kind::Holonomic<K> => HolonomicSystem<D, K>, [K], crate::holonomic::run_stages::<M, P, O, D, K>;
}

/// A method [`solve`] can run on problems of type `P` with `D` coordinates, by the route
/// `Route` (a marker of [`route`], inferred).
#[diagnostic::on_unimplemented(
    message = "the method `{Self}` does not apply to problems of type `{P}`",
    label = "this method does not apply to `{P}`",
    note = "a method applies to one problem kind, and through a view to a Lagrangian (implicit-DAE methods) or a degenerate Lagrangian (Hamiltonian-DAE methods); `sparkgen methods` lists them by kind"
)]
pub trait Method<P, const D: usize, Route> {
    /// Integrates `problem` from `(q₀, p₀)` as `options` say, handing every accepted state, the
    /// initial one first, to `observer`, then the run's statistics ([`Observer::end`]).
    fn run_into<O: Observer + ?Sized>(
        self,
        problem: &P,
        q0: SVector<f64, D>,
        p0: SVector<f64, D>,
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>>;
}

impl<M, P, const D: usize> Method<P, D, route::Direct> for M
where
    M: StageMethod<P, D>,
    M::Kind: KindRun<P, D>,
{
    fn run_into<O: Observer + ?Sized>(
        self,
        problem: &P,
        q0: SVector<f64, D>,
        p0: SVector<f64, D>,
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        <M::Kind as KindRun<P, D>>::run_into::<M, O>(problem, q0, p0, options, observer)
    }
}

/// The run of the stage method `M` on `problem` by the route [`route::Direct`], its unknowns
/// sized once from its layout ([`Compiled::sized`]), for a caller that has its type and no value
/// of it (the command line's dispatch by name).
pub(crate) fn run_stages_into<M, P, O, const D: usize>(
    problem: &P,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    M: StageMethod<P, D>,
    O: Observer + ?Sized,
{
    let equations = Compiled::<M, P, D>::sized(problem).map_err(Stopped::Step)?;
    run_into(equations, q0.as_slice(), p0.as_slice(), options, observer)
}

impl<M, P, const D: usize> Method<P, D, route::ImplicitOde> for M
where
    P: Lagrangian<D>,
    M: for<'a> StageMethod<LagrangianOde<&'a P>, D>,
{
    fn run_into<O: Observer + ?Sized>(
        self,
        problem: &P,
        q0: SVector<f64, D>,
        p0: SVector<f64, D>,
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        run_stages_into::<M, _, O, D>(&LagrangianOde(problem), q0, p0, options, observer)
    }
}

impl<M, P, const D: usize> Method<P, D, route::Dirac> for M
where
    P: DegenerateLagrangian<D>,
    M: for<'a> StageMethod<DiracHamiltonian<&'a P>, D>,
{
    fn run_into<O: Observer + ?Sized>(
        self,
        problem: &P,
        q0: SVector<f64, D>,
        p0: SVector<f64, D>,
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        run_stages_into::<M, _, O, D>(&DiracHamiltonian(problem), q0, p0, options, observer)
    }
}

/// Integrates `problem` from `(q₀, p₀)` with `method` as `options` say (step size, step count
/// or end time, Newton's tolerances, the initial-data check and the watches), keeping every
/// point in memory, with the run's statistics in [`Solution::run`].
///
/// On failure the error carries the solution up to the last accepted step.
pub fn solve<M, P, R, const D: usize>(
    problem: &P,
    method: M,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
) -> Result<Solution<D>, Box<Failure<D>>>
where
    M: Method<P, D, R>,
{
    recorded(options, |record| {
        method.run_into(problem, q0, p0, options, record)
    })
}

/// Integrates `problem` from `(q₀, p₀)` with `method`, handing every accepted state, the initial
/// one first, to `observer` as it is computed, then the run's statistics
/// ([`Observer::end`]); nothing is kept here. The run stops at the first failed step
/// ([`Stopped::Step`], after the observer has seen every accepted state) or when the observer
/// returns an error ([`Stopped::Observer`]).
pub fn solve_into<M, P, O, R, const D: usize>(
    problem: &P,
    method: M,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    M: Method<P, D, R>,
    O: Observer + ?Sized,
{
    method.run_into(problem, q0, p0, options, observer)
}
