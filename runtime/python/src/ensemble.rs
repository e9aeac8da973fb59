//! An ensemble's members run as the single runs of the same problem run, so that each member
//! equals `solve` from its initial state bit for bit: one method compiled for the problem file
//! on the run-time engine, shared by the members (`sparkgen ensemble`'s [`run_block`]), on
//! rayon's threads.

use sparkgen::cli::CliError;
use sparkgen::cli::ensemble::run_block;
use sparkgen::cli::run::{RunSpec, Subject};
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
/// `threads` threads (rayon's default when `None`): the members' outcomes and the seconds spent
/// compiling the method (`None` where it was interpreted).
pub fn run(
    file: &ProblemFile,
    subject: &Subject,
    spec: &RunSpec,
    initial: &[Vec<f64>],
    threads: Option<NonZeroUsize>,
) -> Result<(Vec<Member>, Option<f64>), CliError> {
    let options = EnsembleOptions {
        threads,
        trajectories: None,
    };
    let members = initial.len();
    let (ensemble, compile_seconds) =
        run_block(file, subject, spec, initial, 0..members, &options, &|_| {})?;
    let members = ensemble
        .records()
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
        .collect();
    Ok((members, compile_seconds))
}
