//! Running a method on a problem: integration observed by a [`Monitor`] (diagnostics at every
//! point, the trajectory file streamed as the run goes, a progress bar where it helps), and the
//! erased [`Run`].

use super::builtin::HamiltonianBuiltin;
use super::choice::{Choice, Holonomic, Kind};
use super::error::CliError;
use super::problems::ProblemInfo;
use super::registry::{
    self, DIMENSION, HamiltonianDispatch, HolonomicDispatch, ImplicitDispatch, Shape, ShapeVisitor,
    StepperInfo, StepperVisitor,
};
use super::trajectory::{Keep, Memory, Monitor, Totals, Trajectory};
use crate::error::IntegrateError;
use crate::holonomic::{Rattle, Shake, consistency_residuals, run_stages};
use crate::integrate::Options;
use crate::kind::constraint_names;
use crate::problem::{
    DegenerateLagrangian, DiracHamiltonian, HamiltonianDae, HolonomicSystem, ImplicitDae,
    LagrangianDae, Vector,
};
use crate::run::{Method, route::HandWritten, run_stages_into};
use crate::solution::{Observer, Stopped};
use crate::stage::StageMethod;
use std::fmt::Display;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// The method.
    pub method: Choice,
    /// Step size.
    pub h: f64,
    /// Steps.
    pub steps: usize,
    /// What is kept in memory, written and shown as the run goes.
    pub keep: Keep,
    /// Project inconsistent initial data where the problem's kind can, instead of refusing
    /// them (`--project-initial`).
    pub project_initial: bool,
}

impl RunSpec {
    /// `steps` steps of size `h` with every point kept in memory, no file and no progress bar.
    pub fn new(method: Choice, h: f64, steps: usize) -> RunSpec {
        RunSpec {
            method,
            h,
            steps,
            keep: Keep {
                memory: Memory::All,
                out: None,
                every: NonZeroUsize::MIN,
                progress: false,
            },
            project_initial: false,
        }
    }
}

/// Which code evaluates a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Rust compiled from the derive macros (the built-in problems).
    Compiled,
    /// The symbolic engine's interpreter (tapes) on a problem file, stepped by a compiled
    /// stepper.
    Interpreted,
    /// Run-time sized storage on a problem file's tapes: the run-time stage engine
    /// ([`crate::engine`]), or RATTLE and SHAKE on vectors of run-time length
    /// ([`crate::holonomic::run_sized_into`]); any dimension, nothing compiled for the problem or
    /// the method.
    Engine,
}

impl Path {
    /// `compiled` or `interpreted`, as the summary and JSON name it.
    pub fn name(self) -> &'static str {
        match self {
            Path::Compiled => "compiled",
            Path::Interpreted => "interpreted",
            Path::Engine => "engine",
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
    /// The points kept in memory ([`Memory`]), up to the last accepted step.
    pub trajectory: Trajectory,
    /// What the whole run measured.
    pub totals: Totals,
    /// The trajectory file, if one was written.
    pub out: Option<PathBuf>,
    /// Wall-clock seconds of the integration alone.
    pub wall_seconds: f64,
    /// Why the run stopped early (names the step and the time).
    pub failure: Option<String>,
    /// On the engine ([`Path::Engine`]), the seconds spent compiling the stage functions to
    /// machine code; `None` where they were interpreted or the path is another.
    pub compile_seconds: Option<f64>,
}

/// Integrates with the visited stepper (a degenerate Lagrangian's, an implicit or a Hamiltonian
/// DAE's) into a monitor, its unknowns sized once from its layout.
struct Integrate<'a, P, O: ?Sized, const D: usize> {
    problem: &'a P,
    q0: Vector<D>,
    p0: Vector<D>,
    options: Options,
    observer: &'a mut O,
}

impl<'a, P, O: ?Sized, const D: usize> Integrate<'a, P, O, D> {
    /// The run of `spec` (step size and step count) from `(q₀, p₀)` into `observer`.
    fn new(
        problem: &'a P,
        q0: Vector<D>,
        p0: Vector<D>,
        spec: &RunSpec,
        observer: &'a mut O,
    ) -> Self {
        Integrate {
            problem,
            q0,
            p0,
            options: Options {
                project_initial: spec.project_initial,
                ..Options::new(spec.h, spec.steps)
            },
            observer,
        }
    }
}

pub(super) type Outcome<S> = Result<(), Stopped<S, CliError>>;

impl<P, O, const D: usize> StepperVisitor<P, D> for Integrate<'_, P, O, D>
where
    O: Observer<Error = CliError> + ?Sized,
{
    type Output = Outcome<crate::error::IntegrateError>;
    fn visit<M: StageMethod<P, D>>(self, _: &StepperInfo) -> Self::Output {
        run_stages_into::<M, P, O, D>(self.problem, self.q0, self.p0, &self.options, self.observer)
            .map(|_| ())
    }
}

/// Runs `integrate` into a [`Monitor`] of `energy(q, p)` (`None` where the problem has none) and
/// of the constraint residual `residual(q, p)`, which measures `constraint`: the [`Run`], with
/// the failure's message if a step failed or a value stopped being finite, or the error itself
/// if not even the initial state was accepted, or if the trajectory file could not be written.
fn observed<S: Display, const D: usize>(
    subject: &Subject,
    spec: &RunSpec,
    constraint: &'static str,
    energy: impl Fn(&Vector<D>, &Vector<D>) -> Option<f64>,
    residual: impl Fn(&Vector<D>, &Vector<D>) -> f64,
    integrate: impl FnOnce(&mut dyn Observer<Error = CliError>) -> Option<Outcome<S>>,
) -> Result<Run, CliError> {
    let vectors =
        |q: &[f64], p: &[f64]| (Vector::from_column_slice(q), Vector::from_column_slice(p));
    observed_slices(
        subject,
        spec,
        constraint,
        |q, p| {
            let (q, p) = vectors(q, p);
            energy(&q, &p)
        },
        |q, p| {
            let (q, p) = vectors(q, p);
            residual(&q, &p)
        },
        integrate,
    )
}

/// [`observed`] with the energy and the residual of states of any length `D`.
pub(super) fn observed_slices<S: Display>(
    subject: &Subject,
    spec: &RunSpec,
    constraint: &'static str,
    energy: impl Fn(&[f64], &[f64]) -> Option<f64>,
    residual: impl Fn(&[f64], &[f64]) -> f64,
    integrate: impl FnOnce(&mut dyn Observer<Error = CliError>) -> Option<Outcome<S>>,
) -> Result<Run, CliError> {
    let mut monitor = Monitor::new(spec.steps, energy, residual, constraint, spec.keep.clone())?;
    let start = Instant::now();
    let result = integrate(&mut monitor).ok_or_else(|| wrong_kind(spec, subject.kind))?;
    let wall_seconds = start.elapsed().as_secs_f64();
    let failure = match result {
        Ok(()) => None,
        Err(Stopped::Step(e)) => Some(e.to_string()),
        Err(Stopped::Observer(CliError::Diagnostics(e))) => Some(e.to_string()),
        Err(Stopped::Observer(e)) => return Err(e),
    };
    match monitor.finish()? {
        Some((trajectory, totals, out)) => Ok(Run {
            subject: subject.clone(),
            method: spec.method,
            h: spec.h,
            steps_requested: spec.steps,
            trajectory,
            totals,
            out,
            wall_seconds,
            failure,
            compile_seconds: None,
        }),
        None => Err(CliError::InitialState {
            message: failure.unwrap_or_default(),
        }),
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
    observed(
        subject,
        spec,
        constraint_names::PRIMARY,
        |q, _| Some(problem.hamiltonian(q)),
        |q, p| (p - problem.theta(q)).amax(),
        |observer| {
            let visitor = Integrate::new(problem, q0, p0, spec, observer);
            registry::visit(stepper, visitor)
        },
    )
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
    observed(
        subject,
        spec,
        constraint_names::DAE,
        |q, p| problem.energy(q, p),
        |q, p| problem.phi(q, p).amax(),
        |observer| {
            let visitor = Integrate::new(problem, q0, p0, spec, observer);
            <Shape<D, M> as ImplicitDispatch<D, M>>::visit(info, visitor)
        },
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
    observed(
        subject,
        spec,
        constraint_names::DAE,
        |q, p| problem.hamiltonian(q, p),
        |q, p| problem.phi(q, p).amax(),
        |observer| {
            let visitor = Integrate::new(problem, q0, p0, spec, observer);
            <Shape<D, M> as HamiltonianDispatch<D, M>>::visit(info, visitor)
        },
    )
}

/// Integrates with the visited generated holonomic stepper into an observer.
struct IntegrateHolonomic<'a, P, O: ?Sized, const D: usize> {
    problem: &'a P,
    q0: &'a Vector<D>,
    p0: &'a Vector<D>,
    options: &'a Options,
    observer: &'a mut O,
}

impl<P, O, const D: usize, const M: usize> ShapeVisitor<P, D, M> for IntegrateHolonomic<'_, P, O, D>
where
    P: HolonomicSystem<D, M>,
    O: Observer<Error = CliError> + ?Sized,
{
    type Output = Outcome<IntegrateError>;
    fn visit<Meth: StageMethod<P, D>>(self, _: &StepperInfo) -> Self::Output {
        let (q0, p0) = (*self.q0, *self.p0);
        run_stages::<Meth, P, O, D, M>(self.problem, q0, p0, self.options, self.observer)
            .map(|_| ())
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
    let options = Options {
        project_initial: spec.project_initial,
        ..Options::new(spec.h, spec.steps)
    };
    observed(
        subject,
        spec,
        "relative |c(q)|",
        |q, p| Some(problem.hamiltonian(q, p)),
        |q, p| consistency_residuals(problem, q, p).position,
        |observer| match spec.method {
            Choice::Holonomic(Holonomic::Rattle) => Some(
                Method::<P, D, HandWritten<M>>::run_into(
                    Rattle, problem, q0, p0, &options, observer,
                )
                .map(|_| ()),
            ),
            Choice::Holonomic(Holonomic::Shake) => Some(
                Method::<P, D, HandWritten<M>>::run_into(
                    Shake, problem, q0, p0, &options, observer,
                )
                .map(|_| ()),
            ),
            Choice::HolonomicStepper(info) => {
                let visitor = IntegrateHolonomic {
                    problem,
                    q0: &q0,
                    p0: &p0,
                    options: &options,
                    observer,
                };
                <Shape<D, M> as HolonomicDispatch<D, M>>::visit(info, visitor)
            }
            Choice::Stepper(_) | Choice::ImplicitStepper(_) | Choice::HamiltonianStepper(_) => None,
        },
    )
}

pub(super) fn wrong_kind(spec: &RunSpec, kind: Kind) -> CliError {
    let (family, _) = spec.method.family_and_stages();
    super::choice::resolve(kind, Some(family), None)
        .err()
        .unwrap_or(CliError::InvalidValue {
            what: "--method",
            value: family.to_owned(),
            reason: "does not apply to this problem",
        })
}
