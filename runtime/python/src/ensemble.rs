//! An ensemble's members run as the single runs of the same problem run, so that each member
//! equals `solve` from its initial state bit for bit: a problem file that runs on the run-time
//! engine shares one compiled method over the members (`sparkgen ensemble`'s
//! [`run_block`]); one that runs on a compiled stepper (a degenerate Lagrangian with D = 2, a
//! holonomic system of a built-in shape) runs each member as `sparkgen run` does
//! ([`problem_files::run`]), on rayon's threads.

use rayon::prelude::*;
use sparkgen::cli::CliError;
use sparkgen::cli::ensemble::run_block;
use sparkgen::cli::problem_files;
use sparkgen::cli::run::{Run, RunSpec, Subject};
use sparkgen::cli::trajectory::{Keep, Memory};
use sparkgen::ensemble::EnsembleOptions;
use sparkgen::problem_file::ProblemFile;
use std::num::NonZeroUsize;

/// One member's outcome.
pub struct Member {
    /// The time of its last accepted state.
    pub t: f64,
    /// Its last accepted position (NaN if it failed before its first point).
    pub q: Vec<f64>,
    /// Its last accepted momentum.
    pub p: Vec<f64>,
    /// Accepted steps.
    pub steps: usize,
    /// Why it stopped early.
    pub error: Option<String>,
    /// Its largest constraint residual (NaN if it failed before its first point).
    pub max_constraint_residual: f64,
    /// Its largest energy error, where the problem has an energy.
    pub max_energy_error: Option<f64>,
}

/// Runs the method of `spec` on `file` from each of the `initial` states (rows `q, p`) on
/// `threads` threads (rayon's default when `None`).
pub fn run(
    file: &ProblemFile,
    subject: &Subject,
    spec: &RunSpec,
    initial: &[Vec<f64>],
    threads: Option<NonZeroUsize>,
) -> Result<Vec<Member>, CliError> {
    let d = file.dimension();
    if problem_files::on_engine(file) {
        let options = EnsembleOptions {
            threads,
            trajectories: None,
        };
        let members = initial.len();
        let ensemble = run_block(file, subject, spec, initial, 0..members, &options, &|_| {})?;
        let records = ensemble.records();
        return Ok(records
            .iter()
            .map(|r| Member {
                t: r.t,
                q: r.q.to_vec(),
                p: r.p.to_vec(),
                steps: r.steps,
                error: r.failure.map(str::to_owned),
                max_constraint_residual: r.max_constraint.unwrap_or(f64::NAN),
                max_energy_error: r.max_energy_error,
            })
            .collect());
    }
    // Only the first and the last point are kept.
    let last = RunSpec {
        keep: Keep {
            memory: Memory::Every,
            out: None,
            every: NonZeroUsize::new(spec.steps).unwrap_or(NonZeroUsize::MIN),
            progress: false,
        },
        ..spec.clone()
    };
    let one = |row: &Vec<f64>| {
        let (q, p) = row.split_at(d);
        let mut file = file.clone();
        let run = file
            .set_initial(q, Some(p))
            .map_err(|e| CliError::InitialState {
                message: e.to_string(),
            })
            .and_then(|()| problem_files::run(&file, subject, &last));
        member(run, d)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, NonZeroUsize::get))
        .build()
        .map_err(|e| CliError::InvalidValue {
            what: "threads",
            value: e.to_string(),
            reason: "the ensemble cannot start",
        })?;
    Ok(pool.install(|| initial.par_iter().map(one).collect()))
}

/// The outcome of a member's single run.
fn member(run: Result<Run, CliError>, d: usize) -> Member {
    match run {
        Ok(run) => Member {
            t: run.totals.t_final,
            steps: run.totals.steps,
            max_constraint_residual: run.totals.max_constraint_residual,
            max_energy_error: run.totals.max_energy_error,
            q: run.totals.q_final,
            p: run.totals.p_final,
            error: run.failure,
        },
        Err(e) => Member {
            t: 0.0,
            q: vec![f64::NAN; d],
            p: vec![f64::NAN; d],
            steps: 0,
            error: Some(e.to_string()),
            max_constraint_residual: f64::NAN,
            max_energy_error: None,
        },
    }
}
