//! Running a method on a problem: integration (with a progress bar where it helps), the
//! diagnostics series, and the erased [`Run`].

use super::builtin::HamiltonianBuiltin;
use super::choice::{Choice, Holonomic, Kind};
use super::error::CliError;
use super::problems::ProblemInfo;
use super::progress::Progress;
use super::registry::{
    self, DIMENSION, HamiltonianDispatch, HolonomicDispatch, ImplicitDispatch, Shape, ShapeVisitor,
    StepperInfo, StepperVisitor,
};
use super::trajectory::Trajectory;
use crate::diagnostics::{DiagnosticsError, constraint_residuals, relative_energy_errors};
use crate::holonomic::{
    HolonomicFailure, HolonomicOptions, consistency_residuals, integrate_holonomic,
    integrate_rattle, integrate_shake,
};
use crate::integrate::{Options, integrate_observed};
use crate::problem::{
    DegenerateLagrangian, DiracHamiltonian, HamiltonianDae, HolonomicSystem, ImplicitDae,
    LagrangianDae, Vector,
};
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

/// Which code evaluates a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Rust compiled from the derive macros (the built-in problems).
    Compiled,
    /// The symbolic engine's interpreter (tapes) on a problem file.
    Interpreted,
}

impl Path {
    /// `compiled` or `interpreted`, as the summary and JSON name it.
    pub fn name(self) -> &'static str {
        match self {
            Path::Compiled => "compiled",
            Path::Interpreted => "interpreted",
        }
    }
}

/// What is integrated: the problem's name, its kind and the code path evaluating it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// A built-in problem's name, or the problem file's path.
    pub name: String,
    /// Its kind (which methods apply).
    pub kind: Kind,
    /// Compiled or interpreted.
    pub path: Path,
}

impl Subject {
    /// A built-in problem (compiled).
    pub fn builtin(info: &ProblemInfo) -> Subject {
        Subject {
            name: info.name.to_owned(),
            kind: info.kind,
            path: Path::Compiled,
        }
    }
}

/// A finished (or failed) run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The problem.
    pub subject: Subject,
    /// The method.
    pub method: Choice,
    /// Step size.
    pub h: f64,
    /// Steps requested.
    pub steps_requested: usize,
    /// The trajectory up to the last accepted step.
    pub trajectory: Trajectory,
    /// Wall-clock seconds of the integration alone.
    pub wall_seconds: f64,
    /// Why the run stopped early (names the step and the time).
    pub failure: Option<String>,
}

/// Integrates with the visited stepper (a degenerate Lagrangian's, an implicit or a Hamiltonian
/// DAE's).
struct Integrate<'a, P, const D: usize> {
    problem: &'a P,
    q0: Vector<D>,
    p0: Vector<D>,
    options: Options,
    progress: bool,
}

type Outcome<const D: usize> = (Result<Solution<D>, Box<Failure<D>>>, f64);

impl<'a, P, const D: usize> Integrate<'a, P, D> {
    /// The run of `spec` (step size, steps, progress bar) from `(q₀, p₀)`.
    fn new(problem: &'a P, q0: Vector<D>, p0: Vector<D>, spec: &RunSpec) -> Self {
        Integrate {
            problem,
            q0,
            p0,
            options: Options::new(spec.h, spec.steps),
            progress: spec.progress,
        }
    }

    fn run<M: StageMethod<P, D>, const N: usize>(self) -> Outcome<D> {
        let mut progress = Progress::new(self.options.steps, self.progress);
        let start = Instant::now();
        let result =
            integrate_observed::<M, P, D, N>(self.problem, self.q0, self.p0, &self.options, |n| {
                progress.tick(n)
            });
        let wall = start.elapsed().as_secs_f64();
        progress.finish();
        (result, wall)
    }
}

impl<P: DegenerateLagrangian<DIMENSION>> StepperVisitor<P> for Integrate<'_, P, DIMENSION> {
    type Output = Outcome<DIMENSION>;
    fn visit<M: StageMethod<P, DIMENSION>, const N: usize>(self, _: &StepperInfo) -> Self::Output {
        self.run::<M, N>()
    }
}

impl<P, const D: usize, const M: usize> ShapeVisitor<P, D, M> for Integrate<'_, P, D> {
    type Output = Outcome<D>;
    fn visit<Meth: StageMethod<P, D>, const N: usize>(self, _: &StepperInfo) -> Self::Output {
        self.run::<Meth, N>()
    }
}

/// Runs a generated stepper on a degenerate Lagrangian problem from `(q₀, p₀)`: one of its own,
/// an implicit-DAE stepper on its view [`LagrangianDae`], or a Hamiltonian-DAE stepper on its
/// view [`DiracHamiltonian`].
pub fn degenerate<P: DegenerateLagrangian<DIMENSION>>(
    problem: &P,
    subject: &Subject,
    q0: Vector<DIMENSION>,
    p0: Vector<DIMENSION>,
    spec: &RunSpec,
) -> Result<Run, CliError> {
    let stepper = match spec.method {
        Choice::Stepper(stepper) => stepper,
        Choice::ImplicitStepper(_) => {
            return implicit::<_, DIMENSION, DIMENSION>(
                &LagrangianDae(problem),
                subject,
                q0,
                p0,
                spec,
            );
        }
        Choice::HamiltonianStepper(_) => {
            return hamiltonian::<_, DIMENSION, DIMENSION>(
                &HamiltonianBuiltin::Dirac(DiracHamiltonian(problem)),
                subject,
                q0,
                p0,
                spec,
            );
        }
        _ => return Err(wrong_kind(spec, subject.kind)),
    };
    let visitor = Integrate::new(problem, q0, p0, spec);
    let (result, wall) =
        registry::visit(stepper, visitor).ok_or_else(|| wrong_kind(spec, subject.kind))?;
    let (solution, failure) = outcome(result.map_err(|f| (f.solution, f.error.to_string())))?;
    let energy = relative_energy_errors(problem, &solution)?;
    let residual = constraint_residuals(problem, &solution)?;
    let trajectory = Trajectory::new(solution, energy, residual, "|p − ϑ(q)|∞");
    Ok(finish(subject, spec, trajectory, wall, failure))
}

/// Runs a generated implicit-DAE stepper on an implicit DAE from `(q₀, p₀)` (for the shapes
/// `(D, M)` of [`registry::IMPLICIT_SHAPES`]). The energy error is NaN where the problem has
/// no energy.
pub fn implicit<P: ImplicitDae<D, M>, const D: usize, const M: usize>(
    problem: &P,
    subject: &Subject,
    q0: Vector<D>,
    p0: Vector<D>,
    spec: &RunSpec,
) -> Result<Run, CliError>
where
    Shape<D, M>: ImplicitDispatch<D, M>,
{
    let Choice::ImplicitStepper(info) = spec.method else {
        return Err(wrong_kind(spec, subject.kind));
    };
    let visitor = Integrate::new(problem, q0, p0, spec);
    let (result, wall) = <Shape<D, M> as ImplicitDispatch<D, M>>::visit(info, visitor)
        .ok_or_else(|| wrong_kind(spec, subject.kind))?;
    dae_run(
        subject,
        spec,
        (result, wall),
        |q, p| problem.energy(q, p),
        |q, p| problem.phi(q, p).amax(),
    )
}

/// Runs a generated Hamiltonian-DAE stepper on a Hamiltonian DAE from `(q₀, p₀)` (for the
/// shapes `(D, M)` of [`registry::HAMILTONIAN_SHAPES`]). The energy error is NaN where the
/// problem has no Hamiltonian.
pub fn hamiltonian<P: HamiltonianDae<D, M>, const D: usize, const M: usize>(
    problem: &P,
    subject: &Subject,
    q0: Vector<D>,
    p0: Vector<D>,
    spec: &RunSpec,
) -> Result<Run, CliError>
where
    Shape<D, M>: HamiltonianDispatch<D, M>,
{
    let Choice::HamiltonianStepper(info) = spec.method else {
        return Err(wrong_kind(spec, subject.kind));
    };
    let visitor = Integrate::new(problem, q0, p0, spec);
    let outcome = <Shape<D, M> as HamiltonianDispatch<D, M>>::visit(info, visitor)
        .ok_or_else(|| wrong_kind(spec, subject.kind))?;
    dae_run(
        subject,
        spec,
        outcome,
        |q, p| problem.hamiltonian(q, p),
        |q, p| problem.phi(q, p).amax(),
    )
}

/// The [`Run`] of a DAE stepper's outcome, with the relative error of `energy` (NaN where it
/// is `None`) and the constraint residual `|φ(q, p)|∞` along the trajectory.
fn dae_run<const D: usize>(
    subject: &Subject,
    spec: &RunSpec,
    (result, wall): Outcome<D>,
    energy: impl Fn(&Vector<D>, &Vector<D>) -> Option<f64>,
    residual: impl Fn(&Vector<D>, &Vector<D>) -> f64,
) -> Result<Run, CliError> {
    let (solution, failure) = outcome(result.map_err(|f| (f.solution, f.error.to_string())))?;
    let pairs = || solution.q.iter().zip(&solution.p);
    let h0 = energy(&solution.q[0], &solution.p[0]);
    if let Some(h0) = h0.filter(|h0| *h0 == 0.0 || !h0.is_finite()) {
        return Err(DiagnosticsError::DegenerateReference(h0).into());
    }
    let energy = pairs()
        .map(|(q, p)| match (energy(q, p), h0) {
            (Some(h), Some(h0)) => ((h - h0) / h0).abs(),
            _ => f64::NAN,
        })
        .collect();
    let residual = pairs().map(|(q, p)| residual(q, p)).collect();
    let trajectory = Trajectory::new(solution, energy, residual, "|φ(q, p)|∞");
    Ok(finish(subject, spec, trajectory, wall, failure))
}

/// Integrates with the visited generated holonomic stepper.
struct IntegrateHolonomic<'a, P, const D: usize> {
    problem: &'a P,
    q0: &'a Vector<D>,
    p0: &'a Vector<D>,
    options: &'a HolonomicOptions,
}

type HolonomicOutcome<const D: usize> = Result<Solution<D>, Box<HolonomicFailure<D>>>;

impl<P: HolonomicSystem<D, M>, const D: usize, const M: usize> ShapeVisitor<P, D, M>
    for IntegrateHolonomic<'_, P, D>
{
    type Output = HolonomicOutcome<D>;
    fn visit<Meth: StageMethod<P, D>, const N: usize>(self, _: &StepperInfo) -> Self::Output {
        integrate_holonomic::<Meth, P, D, M, N>(self.problem, self.q0, self.p0, self.options)
    }
}

/// Runs RATTLE, SHAKE or a generated holonomic stepper on a holonomic problem from `(q₀, p₀)`
/// (generated steppers for the shapes `(D, M)` of [`registry::HOLONOMIC_SHAPES`]).
pub fn holonomic<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    problem: &P,
    subject: &Subject,
    q0: Vector<D>,
    p0: Vector<D>,
    spec: &RunSpec,
) -> Result<Run, CliError>
where
    Shape<D, M>: HolonomicDispatch<D, M>,
{
    let options = HolonomicOptions::new(spec.h, spec.steps);
    let start = Instant::now();
    let result = match spec.method {
        Choice::Holonomic(Holonomic::Rattle) => integrate_rattle(problem, &q0, &p0, &options),
        Choice::Holonomic(Holonomic::Shake) => integrate_shake(problem, &q0, &p0, &options),
        Choice::HolonomicStepper(info) => {
            let visitor = IntegrateHolonomic {
                problem,
                q0: &q0,
                p0: &p0,
                options: &options,
            };
            <Shape<D, M> as HolonomicDispatch<D, M>>::visit(info, visitor)
                .ok_or_else(|| wrong_kind(spec, subject.kind))?
        }
        Choice::Stepper(_) | Choice::ImplicitStepper(_) | Choice::HamiltonianStepper(_) => {
            return Err(wrong_kind(spec, subject.kind));
        }
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
    Ok(finish(subject, spec, trajectory, wall, failure))
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
    subject: &Subject,
    spec: &RunSpec,
    trajectory: Trajectory,
    wall_seconds: f64,
    failure: Option<String>,
) -> Run {
    Run {
        subject: subject.clone(),
        method: spec.method,
        h: spec.h,
        steps_requested: spec.steps,
        trajectory,
        wall_seconds,
        failure,
    }
}

fn wrong_kind(spec: &RunSpec, kind: Kind) -> CliError {
    let (family, _) = spec.method.family_and_stages();
    super::choice::resolve(kind, Some(family), None)
        .err()
        .unwrap_or(CliError::InvalidValue {
            what: "--method",
            value: family.to_owned(),
            reason: "does not apply to this problem",
        })
}
