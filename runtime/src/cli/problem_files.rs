//! `--problem-file FILE.toml`: a problem written as expressions ([`crate::problem_file`]), run
//! on the run-time engine ([`crate::engine`]) at any dimension, its stage
//! functions and the file's expressions compiled to machine code together.
//!
//! Degenerate Lagrangian files run their own methods and, through the views [`DaeView`]
//! ([`DaeForm`]), the implicit- and Hamiltonian-DAE methods; holonomic files run the Lobatto
//! IIIA–IIIB RATTLE methods on the engine and RATTLE and SHAKE on run-time sized storage
//! ([`crate::holonomic::run_sized_into`], with the holonomic checks and the initial
//! projection); Lagrangian files run the implicit-DAE methods on their Euler–Lagrange equations
//! (no constraint, `M = 0`). The built-in problems ([`super::problems`]) run the same way.

use super::choice::{Choice, Holonomic, Kind};
use super::error::CliError;
use super::params::Params;
use super::run::{Run, RunSpec, Subject, observed_slices, wrong_kind};
use crate::engine::{DaeForm, DaeView, Engine, Kernels, Stepping, Work, holonomic_residuals};
use crate::error::IntegrateError;
use crate::holonomic::{SizedMethod, run_sized_into};
use crate::integrate::{Options, run_into};
use crate::kind::constraint_names;
use crate::problem_file::{
    DegenerateLagrangianFile, HolonomicFile, LagrangianFile, LagrangianMethod, ProblemFile,
};
use crate::solution::{Observer, RunStats, Stopped};
use sparkgen_description::structure::ProblemKind;
use std::cell::RefCell;

/// Reads the problem file at `path` and applies the `--param name=value` pairs to its
/// parameters.
pub fn load(path: &std::path::Path, params: &[String]) -> Result<(ProblemFile, Subject), CliError> {
    let mut file = ProblemFile::read(path).map_err(|source| CliError::ProblemFile {
        path: path.to_owned(),
        source,
    })?;
    let name = path.display().to_string();
    let params = Params::parse(params, &name, &parameter_names(&file))?;
    set_parameters(&mut file, &name, params.iter())?;
    let subject = subject(&file, name);
    Ok((file, subject))
}

/// The names of the parameters of `file`, in its key order.
fn parameter_names(file: &ProblemFile) -> Vec<&str> {
    file.parameters().map(|(n, _)| n).collect()
}

/// Sets the parameters of `file` (named `name` in messages) to `values` and checks the problem
/// at the new values ([`ProblemFile::validate`]): an unknown name is
/// [`CliError::UnknownParameter`], unusable values are [`CliError::InvalidParameters`].
pub fn set_parameters<'a>(
    file: &mut ProblemFile,
    name: &str,
    values: impl IntoIterator<Item = (&'a str, f64)>,
) -> Result<(), CliError> {
    for (parameter, value) in values {
        if let Err(e) = file.set_parameter(parameter, value) {
            return Err(CliError::UnknownParameter {
                name: e.name,
                problem: name.to_owned(),
                valid: parameter_names(file).join(", "),
            });
        }
    }
    file.validate().map_err(|e| CliError::InvalidParameters {
        path: name.into(),
        reason: format!("with the parameter values given, {e}"),
    })
}

/// The subject of a run of `file`, named `name` (its path, or how it was given).
pub fn subject(file: &ProblemFile, name: String) -> Subject {
    let kind = match file {
        ProblemFile::DegenerateLagrangian(_) => Kind::Degenerate,
        ProblemFile::Holonomic(_) => Kind::Holonomic,
        ProblemFile::Lagrangian(_) => Kind::Implicit,
    };
    Subject { name, kind }
}

/// Runs the method of `spec` on the problem of `file` from the file's initial data.
pub fn run(file: &ProblemFile, subject: &Subject, spec: &RunSpec) -> Result<Run, CliError> {
    match file {
        ProblemFile::DegenerateLagrangian(f) => degenerate_on_engine(f, subject, spec),
        ProblemFile::Holonomic(f) => holonomic_on_engine(f, subject, spec),
        ProblemFile::Lagrangian(f) => lagrangian_on_engine(f, subject, spec),
    }
}

/// Runs the DAE method of `spec` on the implicit or Hamiltonian DAE `view` (a derive's
/// [`Kernels`] view) through the run-time engine from `(q₀, p₀)`, observing its energy and the
/// residual of its constraint; an error unless the method is of the view's kind.
pub(super) fn run_view<K: Kernels>(
    view: &K,
    subject: &Subject,
    spec: &RunSpec,
    initial: (&[f64], &[f64]),
) -> Result<Run, CliError> {
    let info = match (spec.method, view.kind()) {
        (Choice::ImplicitStepper(info), ProblemKind::ImplicitDae)
        | (Choice::HamiltonianStepper(info), ProblemKind::HamiltonianDae) => info,
        _ => return Err(wrong_kind(spec, subject.kind)),
    };
    let options = Options {
        project_initial: spec.project_initial,
        ..Options::new(spec.h, spec.steps)
    };
    let residual = (constraint_names::DAE, residual);
    run_on_engine(
        view,
        info.name,
        (subject, spec),
        initial,
        &options,
        residual,
    )
}

/// Runs the method of `spec` on the degenerate Lagrangian of `file` through the run-time engine
/// from the file's initial data: one of its own, an implicit-DAE method on its view
/// as Jay's DAE or a Hamiltonian-DAE method on its view as Dirac's ([`DaeView`]).
fn degenerate_on_engine(
    file: &DegenerateLagrangianFile,
    subject: &Subject,
    spec: &RunSpec,
) -> Result<Run, CliError> {
    let path = std::path::Path::new(&subject.name);
    let (q0, p0) = file.initial();
    let options = Options {
        project_initial: spec.project_initial,
        ..Options::new(spec.h, spec.steps)
    };
    let view = || {
        let d = file.dimension();
        unsupported(
            path,
            format!("D = {d}: a D × D matrix does not fit in memory"),
        )
    };
    let run = (subject, spec);
    let initial = (&q0[..], &p0[..]);
    let (info, form) = match spec.method {
        Choice::Stepper(info) => {
            let residual = (constraint_names::PRIMARY, residual);
            return run_on_engine(file, info.name, run, initial, &options, residual);
        }
        Choice::ImplicitStepper(info) => (info, DaeForm::LagrangianDae),
        Choice::HamiltonianStepper(info) => (info, DaeForm::Dirac),
        Choice::HolonomicStepper(_) | Choice::Holonomic(_) => {
            return Err(wrong_kind(spec, subject.kind));
        }
    };
    let view = DaeView::new(file, form).ok_or_else(view)?;
    let residual = (constraint_names::DAE, residual);
    run_on_engine(&view, info.name, run, initial, &options, residual)
}

/// The residual of the problem's algebraic constraint ([`Kernels::constraint`]).
fn residual<K: Kernels>(problem: &K, q: &[f64], p: &[f64], work: &mut Work) -> f64 {
    problem.constraint(q, p, work)
}

/// Runs the holonomic method of `spec` (RATTLE, SHAKE, or a Lobatto IIIA–IIIB RATTLE stage
/// method compiled by the run-time engine) on `file` on run-time sized storage from the file's
/// initial data, with the checks of the compiled path ([`run_sized_into`]).
fn holonomic_on_engine(
    file: &HolonomicFile,
    subject: &Subject,
    spec: &RunSpec,
) -> Result<Run, CliError> {
    let path = std::path::Path::new(&subject.name);
    let engine;
    let method = match spec.method {
        Choice::Holonomic(Holonomic::Rattle) => SizedMethod::Rattle,
        Choice::Holonomic(Holonomic::Shake) => SizedMethod::Shake,
        Choice::HolonomicStepper(info) => {
            engine = Engine::catalogue(info.name, file.dims())
                .map_err(|e| unsupported(path, e.to_string()))?;
            SizedMethod::Stages(&engine)
        }
        Choice::Stepper(_) | Choice::ImplicitStepper(_) | Choice::HamiltonianStepper(_) => {
            return Err(wrong_kind(spec, subject.kind));
        }
    };
    let (q0, p0) = file.initial();
    let options = Options {
        project_initial: spec.project_initial,
        ..Options::new(spec.h, spec.steps)
    };
    let residual = (
        "relative |c(q)|",
        |file: &HolonomicFile, q: &[f64], p: &[f64], work: &mut Work| {
            holonomic_residuals(file, q, p, work).map_or(f64::NAN, |r| r.position)
        },
    );
    let stages = match method {
        SizedMethod::Stages(engine) => Some(engine),
        SizedMethod::Rattle | SizedMethod::Shake => None,
    };
    observed_on_engine(file, stages, (subject, spec), residual, |observer| {
        run_sized_into(file, method, q0, p0, &options, observer)
    })
}

/// Runs the implicit-DAE method of `spec` on the Euler–Lagrange equations of the Lagrangian of
/// `file` (as an implicit DAE with no constraint, M = 0) through the run-time engine, from the
/// file's `(q₀, v₀)`, that is `p₀ = ∂L/∂v(q₀, v₀)`.
fn lagrangian_on_engine(
    file: &LagrangianFile,
    subject: &Subject,
    spec: &RunSpec,
) -> Result<Run, CliError> {
    let path = std::path::Path::new(&subject.name);
    let Choice::ImplicitStepper(info) = spec.method else {
        return Err(unsupported(
            path,
            format!(
                "{} is not an implicit-DAE method: a Lagrangian runs the implicit-DAE methods \
                 (Idae…) on its Euler–Lagrange equations",
                spec.method.name()
            ),
        ));
    };
    let (q0, v0) = file.initial();
    let mut p0 = vec![0.0; q0.len()];
    file.evaluate(LagrangianMethod::Momentum, &[q0, v0], &mut p0)
        .map_err(|e| unsupported(path, e.to_string()))?;
    let options = Options::new(spec.h, spec.steps);
    let residual = (
        "none (no constraint, M = 0)",
        |_: &LagrangianFile, _: &[f64], _: &[f64], _: &mut Work| 0.0,
    );
    run_on_engine(
        file,
        info.name,
        (subject, spec),
        (q0, &p0),
        &options,
        residual,
    )
}

/// Runs the catalogue method `name` on `problem` through the run-time engine from `(q₀, p₀)`,
/// observing the energy and the constraint residual `residual` (what it measures, and how).
fn run_on_engine<K: Kernels>(
    problem: &K,
    name: &str,
    (subject, spec): (&Subject, &RunSpec),
    (q0, p0): (&[f64], &[f64]),
    options: &Options,
    (measures, residual): (&'static str, impl Fn(&K, &[f64], &[f64], &mut Work) -> f64),
) -> Result<Run, CliError> {
    let path = std::path::Path::new(&subject.name);
    let dims = problem.dims();
    let engine = Engine::catalogue(name, dims).map_err(|e| unsupported(path, e.to_string()))?;
    let stepping = Stepping::new(&engine, problem).map_err(|e| unsupported(path, e.to_string()))?;
    observed_on_engine(
        problem,
        Some(&engine),
        (subject, spec),
        (measures, residual),
        |observer| run_into(stepping, q0, p0, options, observer),
    )
}

/// Runs `run` on `problem` into the command's observer ([`observed_slices`], path
/// path [`super::run::PATH`]), observing the energy and the constraint residual `residual` (what it
/// measures, and how) in work storage allocated once; the run's compile time is `engine`'s,
/// where a stage method runs.
fn observed_on_engine<K: Kernels>(
    problem: &K,
    engine: Option<&Engine>,
    (subject, spec): (&Subject, &RunSpec),
    (measures, residual): (&'static str, impl Fn(&K, &[f64], &[f64], &mut Work) -> f64),
    run: impl FnOnce(
        &mut dyn Observer<Error = CliError>,
    ) -> Result<RunStats, Stopped<IntegrateError, CliError>>,
) -> Result<Run, CliError> {
    let dims = problem.dims();
    let work = Work::new(dims).map(RefCell::new).ok_or_else(|| {
        let d = dims.coordinates;
        let path = std::path::Path::new(&subject.name);
        unsupported(path, format!("D = {d} does not fit in memory"))
    })?;
    let mut run = observed_slices(
        subject,
        spec,
        measures,
        |q, p| problem.energy(q, p, &mut work.borrow_mut()),
        |q, p| residual(problem, q, p, &mut work.borrow_mut()),
        |observer| Some(run(observer).map(|_| ())),
    )?;
    run.compile_seconds = engine.and_then(Engine::compile_seconds);
    Ok(run)
}

fn unsupported(path: &std::path::Path, reason: String) -> CliError {
    CliError::UnsupportedProblemFile {
        path: path.to_owned(),
        reason,
    }
}

/// A problem file and a method of its kind, ready to run from any initial state `(q₀, p₀)` on
/// run-time sized storage: the run-time engine (through a DAE view where the method is of
/// another kind than the file), or RATTLE and SHAKE on run-time vectors. What an ensemble's
/// members share: the method is compiled once.
pub struct Prepared<'f> {
    file: &'f ProblemFile,
    method: Choice,
    engine: Option<Engine>,
}

impl<'f> Prepared<'f> {
    /// The method of `spec` on `file`; an error if it does not apply to the file's kind.
    pub fn new(file: &'f ProblemFile, subject: &Subject, spec: &RunSpec) -> Result<Self, CliError> {
        let path = std::path::Path::new(&subject.name);
        let method = spec.method;
        let too_large = || {
            let d = file.dimension();
            unsupported(
                path,
                format!("D = {d}: a D × D matrix does not fit in memory"),
            )
        };
        let dims = match (file, method) {
            (ProblemFile::DegenerateLagrangian(f), Choice::Stepper(_)) => Some(f.dims()),
            (ProblemFile::DegenerateLagrangian(f), Choice::ImplicitStepper(_)) => Some(
                DaeView::new(f, DaeForm::LagrangianDae)
                    .ok_or_else(too_large)?
                    .dims(),
            ),
            (ProblemFile::DegenerateLagrangian(f), Choice::HamiltonianStepper(_)) => Some(
                DaeView::new(f, DaeForm::Dirac)
                    .ok_or_else(too_large)?
                    .dims(),
            ),
            (ProblemFile::Holonomic(f), Choice::HolonomicStepper(_)) => Some(f.dims()),
            (ProblemFile::Holonomic(_), Choice::Holonomic(_)) => None,
            (ProblemFile::Lagrangian(f), Choice::ImplicitStepper(_)) => Some(f.dims()),
            _ => return Err(wrong_kind(spec, subject.kind)),
        };
        let engine = dims
            .map(|dims| Engine::catalogue(method.name(), dims))
            .transpose()
            .map_err(|e| unsupported(path, e.to_string()))?;
        Ok(Prepared {
            file,
            method,
            engine,
        })
    }

    /// Seconds spent compiling the method's stage functions to machine code so far (`None`
    /// where they are interpreted or the method has none: RATTLE, SHAKE).
    pub fn compile_seconds(&self) -> Option<f64> {
        self.engine.as_ref().and_then(Engine::compile_seconds)
    }

    /// Runs the method from `(q₀, p₀)` into `observer` (see [`crate::integrate::run_into`] and
    /// [`run_sized_into`]).
    pub fn run_into<O: Observer + ?Sized>(
        &self,
        q0: &[f64],
        p0: &[f64],
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        let unavailable = |e| Stopped::Step(IntegrateError::MethodUnavailable(e));
        let too_large = || {
            Stopped::Step(IntegrateError::InvalidOptions(
                "a D × D matrix of the problem's DAE view does not fit in memory",
            ))
        };
        let engine = self.engine.as_ref();
        match (self.file, self.method, engine) {
            (ProblemFile::DegenerateLagrangian(f), Choice::ImplicitStepper(_), Some(engine)) => {
                let view = DaeView::new(f, DaeForm::LagrangianDae).ok_or_else(too_large)?;
                let stepping = Stepping::new(engine, &view).map_err(unavailable)?;
                run_into(stepping, q0, p0, options, observer)
            }
            (ProblemFile::DegenerateLagrangian(f), Choice::HamiltonianStepper(_), Some(engine)) => {
                let view = DaeView::new(f, DaeForm::Dirac).ok_or_else(too_large)?;
                let stepping = Stepping::new(engine, &view).map_err(unavailable)?;
                run_into(stepping, q0, p0, options, observer)
            }
            (ProblemFile::DegenerateLagrangian(f), _, Some(engine)) => {
                let stepping = Stepping::new(engine, f).map_err(unavailable)?;
                run_into(stepping, q0, p0, options, observer)
            }
            (ProblemFile::Lagrangian(f), _, Some(engine)) => {
                let stepping = Stepping::new(engine, f).map_err(unavailable)?;
                run_into(stepping, q0, p0, options, observer)
            }
            (ProblemFile::Holonomic(f), _, Some(engine)) => {
                run_sized_into(f, SizedMethod::Stages(engine), q0, p0, options, observer)
            }
            (ProblemFile::Holonomic(f), Choice::Holonomic(Holonomic::Shake), None) => {
                run_sized_into(f, SizedMethod::Shake, q0, p0, options, observer)
            }
            (ProblemFile::Holonomic(f), _, None) => {
                run_sized_into(f, SizedMethod::Rattle, q0, p0, options, observer)
            }
            (_, _, None) => Err(Stopped::Step(IntegrateError::InvalidOptions(
                "the method does not apply to the problem file's kind",
            ))),
        }
    }
}
