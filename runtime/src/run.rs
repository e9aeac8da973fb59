//! One entry point for every problem kind: [`solve`] runs any generated method on any problem
//! of its kind (a degenerate Lagrangian, an implicit DAE, a Hamiltonian DAE, a holonomic
//! system), the method passed as a value and its number of unknowns `N` never written: the
//! stage system's storage is sized once per run from the method's layout, so a step allocates
//! nothing. [`solve_into`] hands the points to an [`Observer`] instead of keeping them
//! ([`crate::observers::Every`] to thin them, [`crate::output::TrajectoryFile`] to write them).
//!
//! A method that does not apply to the problem's kind is a compile error naming both.

use crate::error::IntegrateError;
use crate::integrate::{Compiled, Options, recorded, run_into};
use crate::solution::{Failure, Observer, RunStats, Solution, Stopped};
use crate::stage::StageMethod;
use nalgebra::SVector;

/// Integrates `problem` from `(q₀, p₀)` with `method` as `options` say (step size, step count
/// or end time, Newton's tolerances, the initial-data check and the watches), keeping every
/// point in memory, with the run's statistics in [`Solution::run`].
///
/// On failure the error carries the solution up to the last accepted step.
pub fn solve<M, P, const D: usize>(
    problem: &P,
    method: M,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
) -> Result<Solution<D>, Box<Failure<D>>>
where
    M: StageMethod<P, D>,
{
    recorded(options, |record| {
        solve_into(problem, method, q0, p0, options, record)
    })
}

/// Integrates `problem` from `(q₀, p₀)` with `method`, handing every accepted state, the initial
/// one first, to `observer` as it is computed, then the run's statistics
/// ([`Observer::end`]); nothing is kept here. The run stops at the first failed step
/// ([`Stopped::Step`], after the observer has seen every accepted state) or when the observer
/// returns an error ([`Stopped::Observer`]).
pub fn solve_into<M, P, O, const D: usize>(
    problem: &P,
    method: M,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    M: StageMethod<P, D>,
    O: Observer + ?Sized,
{
    let _ = method;
    let equations = Compiled::<M, P, D>::sized(problem).map_err(Stopped::Step)?;
    run_into(equations, q0.as_slice(), p0.as_slice(), options, observer)
}
