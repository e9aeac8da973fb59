//! Running a method on a problem: integration (with a progress bar where it helps), the
//! diagnostics series, and the erased [`Run`].

use super::choice::{Choice, Holonomic};
use super::error::CliError;
use super::problems::ProblemInfo;
use super::progress::Progress;
use super::registry::{self, DIMENSION, StepperInfo, StepperVisitor};
use super::trajectory::Trajectory;
use crate::diagnostics::{DiagnosticsError, constraint_residuals, relative_energy_errors};
use crate::holonomic::{
    HolonomicOptions, consistency_residuals, integrate_rattle, integrate_shake,
};
use crate::integrate::{Options, integrate_observed};
use crate::problem::{DegenerateLagrangian, HolonomicSystem, Vector};
use crate::solution::{Failure, Solution};
use crate::stage::StageMethod;
use std::time::Instant;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSpec {
    /// The method.
    pub method: Choice,
    /// Step size.
    pub h: f64,
    /// Steps.
    pub steps: usize,
    /// Show a progress bar on stderr if the run lasts over a second (and stderr is a terminal).
    pub progress: bool,
}

/// A finished (or failed) run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The problem.
    pub problem: &'static ProblemInfo,
    /// The method.
    pub method: Choice,
    /// Step size.
    pub h: f64,
    /// Steps requested.
    pub steps_requested: usize,
    /// Which code ran: `compiled` (derive-macro problems and generated steppers).
    pub path: &'static str,
    /// The trajectory up to the last accepted step.
    pub trajectory: Trajectory,
    /// Wall-clock seconds of the integration alone.
    pub wall_seconds: f64,
    /// Why the run stopped early (names the step and the time).
    pub failure: Option<String>,
}

/// Integrates with the visited stepper.
struct Integrate<'a, P> {
    problem: &'a P,
    q0: Vector<DIMENSION>,
    p0: Vector<DIMENSION>,
    options: Options,
    progress: bool,
}

type Outcome = (Result<Solution<DIMENSION>, Box<Failure<DIMENSION>>>, f64);

impl<P: DegenerateLagrangian<DIMENSION>> StepperVisitor<P> for Integrate<'_, P> {
    type Output = Outcome;
    fn visit<M: StageMethod<P, DIMENSION>, const N: usize>(self, _: &StepperInfo) -> Outcome {
        let mut progress = Progress::new(self.options.steps, self.progress);
        let start = Instant::now();
        let result = integrate_observed::<M, P, DIMENSION, N>(
            self.problem,
            self.q0,
            self.p0,
            &self.options,
            |n| progress.tick(n),
        );
        let wall = start.elapsed().as_secs_f64();
        progress.finish();
        (result, wall)
    }
}

/// Runs a generated stepper on a degenerate Lagrangian problem from `(q₀, p₀)`.
pub fn degenerate<P: DegenerateLagrangian<DIMENSION>>(
    problem: &P,
    info: &'static ProblemInfo,
    q0: Vector<DIMENSION>,
    p0: Vector<DIMENSION>,
    spec: &RunSpec,
) -> Result<Run, CliError> {
    let Choice::Stepper(stepper) = spec.method else {
        return Err(wrong_kind(spec, info));
    };
    let visitor = Integrate {
        problem,
        q0,
        p0,
        options: Options::new(spec.h, spec.steps),
        progress: spec.progress,
    };
    let (result, wall) = registry::visit(stepper, visitor).ok_or_else(|| wrong_kind(spec, info))?;
    let (solution, failure) = outcome(result.map_err(|f| (f.solution, f.error.to_string())))?;
    let energy = relative_energy_errors(problem, &solution)?;
    let residual = constraint_residuals(problem, &solution)?;
    let trajectory = Trajectory::new(solution, energy, residual, "|p − ϑ(q)|∞");
    Ok(finish(info, spec, trajectory, wall, failure))
}

/// Runs RATTLE or SHAKE on a holonomic problem from `(q₀, p₀)`.
pub fn holonomic<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    problem: &P,
    info: &'static ProblemInfo,
    q0: Vector<D>,
    p0: Vector<D>,
    spec: &RunSpec,
) -> Result<Run, CliError> {
    let Choice::Holonomic(method) = spec.method else {
        return Err(wrong_kind(spec, info));
    };
    let options = HolonomicOptions::new(spec.h, spec.steps);
    let start = Instant::now();
    let result = match method {
        Holonomic::Rattle => integrate_rattle(problem, &q0, &p0, &options),
        Holonomic::Shake => integrate_shake(problem, &q0, &p0, &options),
    };
    let wall = start.elapsed().as_secs_f64();
    let (solution, failure) = outcome(result.map_err(|f| (f.solution, f.error.to_string())))?;
    let h0 = problem.hamiltonian(&solution.q[0], &solution.p[0]);
    if h0 == 0.0 || !h0.is_finite() {
        return Err(DiagnosticsError::DegenerateReference(h0).into());
    }
    let pairs = || solution.q.iter().zip(&solution.p);
    let energy = pairs()
        .map(|(q, p)| ((problem.hamiltonian(q, p) - h0) / h0).abs())
        .collect();
    let residual = pairs()
        .map(|(q, p)| consistency_residuals(problem, q, p).position)
        .collect();
    let trajectory = Trajectory::new(solution, energy, residual, "relative |c(q)|");
    Ok(finish(info, spec, trajectory, wall, failure))
}

/// The solution (with the failure's message if a step failed), or the error itself if not even
/// the initial state was accepted.
fn outcome<const D: usize>(
    result: Result<Solution<D>, (Solution<D>, String)>,
) -> Result<(Solution<D>, Option<String>), CliError> {
    match result {
        Ok(s) => Ok((s, None)),
        Err((s, message)) if s.q.is_empty() || s.p.is_empty() => Err(CliError::StepFailed {
            message,
            written: Vec::new(),
        }),
        Err((s, message)) => Ok((s, Some(message))),
    }
}

fn finish(
    problem: &'static ProblemInfo,
    spec: &RunSpec,
    trajectory: Trajectory,
    wall_seconds: f64,
    failure: Option<String>,
) -> Run {
    Run {
        problem,
        method: spec.method,
        h: spec.h,
        steps_requested: spec.steps,
        path: "compiled",
        trajectory,
        wall_seconds,
        failure,
    }
}

fn wrong_kind(spec: &RunSpec, info: &ProblemInfo) -> CliError {
    let (family, _) = spec.method.family_and_stages();
    super::choice::resolve(info.kind, Some(family), None)
        .err()
        .unwrap_or(CliError::InvalidValue {
            what: "--method",
            value: family.to_owned(),
            reason: "does not apply to this problem",
        })
}
