//! Running a method on a problem: integration observed by a [`Monitor`] (diagnostics at every
//! point, the trajectory file streamed as the run goes, a progress bar where it helps), and the
//! erased [`Run`].

use super::choice::{Choice, Kind};
use super::error::CliError;
use super::trajectory::{Keep, Memory, Monitor, Totals, Trajectory};
use crate::solution::{Observer, Stopped};
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

/// Which code evaluates a problem, as the summary and JSON name it: the run-time engine on
/// run-time sized storage ([`crate::engine`], or RATTLE and SHAKE on vectors of run-time length,
/// [`crate::holonomic::run_sized_into`]), for every run of the command; no stepper is
/// instantiated for the problem or the method.
pub const PATH: &str = "engine";

/// What is integrated: the problem's name and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// A built-in problem's name, or the problem file's path.
    pub name: String,
    /// Its kind (which methods apply).
    pub kind: Kind,
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
    /// The seconds spent compiling the stage functions to machine code; `None` where they were
    /// interpreted (a derive's view) or the method has none (RATTLE, SHAKE).
    pub compile_seconds: Option<f64>,
}

pub(super) type Outcome<S> = Result<(), Stopped<S, CliError>>;

/// Runs `integrate` into a [`Monitor`] of `energy(q, p)` (`None` where the problem has none) and
/// of the constraint residual `residual(q, p)`, which measures `constraint`: the [`Run`], with
/// the failure's message if a step failed or a value stopped being finite, or the error itself
/// if not even the initial state was accepted, or if the trajectory file could not be written.
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
