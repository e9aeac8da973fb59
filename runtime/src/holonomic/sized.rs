//! RATTLE, SHAKE and the holonomic stage methods of the run-time engine on holonomic systems
//! whose shape `(D, M)` is known only at run time (a problem file of any shape), with every
//! check of the fixed-size path: the initial data checked or projected
//! ([`Options::project_initial`]), the Gram matrix `A = G M⁻¹ Gᵀ` checked at every step,
//! consistency restoration ([`Options::restore_consistency`]).

use super::geometry::{Column, Geometry};
use super::rattle::run_rattle;
use super::shake::run_shake;
use super::stages::run_stage_equations;
use crate::engine::{Engine, Kernels, Stepping};
use crate::error::IntegrateError;
use crate::integrate::{Options, check_lengths};
use crate::solution::{Observer, RunStats, Stopped};
use nalgebra::{Dyn, U1};

/// A method for a holonomic system of run-time size.
#[derive(Clone, Copy, Debug)]
pub enum SizedMethod<'e> {
    /// RATTLE ([`super::Rattle`]).
    Rattle,
    /// SHAKE ([`super::Shake`]).
    Shake,
    /// A holonomic stage method of the catalogue (Lobatto IIIA–IIIB RATTLE) compiled by the
    /// run-time engine.
    Stages(&'e Engine),
}

/// Runs `method` on `problem` from `(q₀, p₀)` (`D` entries each) for `options.steps` steps,
/// handing every accepted state and then the run's statistics to `observer`, exactly as
/// [`crate::solve_into`] runs [`super::Rattle`], [`super::Shake`] and the generated holonomic
/// stage methods on a [`crate::problem::HolonomicSystem`].
pub fn run_sized_into<P, O>(
    problem: &P,
    method: SizedMethod<'_>,
    q0: &[f64],
    p0: &[f64],
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    P: Geometry<Dyn, Dyn> + Kernels,
    O: Observer + ?Sized,
{
    let (Dyn(d), _) = problem.shape();
    check_lengths(d, q0, p0).map_err(Stopped::Step)?;
    problem.compile();
    let column = |x| Column::<Dyn>::from_column_slice_generic(Dyn(d), U1, x);
    let (q0, p0) = (column(q0), column(p0));
    let initial = (&q0, &p0);
    match method {
        SizedMethod::Rattle => run_rattle(problem, initial, options, observer),
        SizedMethod::Shake => run_shake(problem, initial, options, observer),
        SizedMethod::Stages(engine) => {
            let make = || Ok(Stepping::new(engine, problem)?);
            run_stage_equations(problem, initial, options, make, observer)
        }
    }
}
