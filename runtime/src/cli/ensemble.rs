//! `sparkgen ensemble`: a problem file solved from every initial state of `--initial` in
//! parallel ([`crate::ensemble::run_ensemble`]), on run-time sized storage
//! ([`Prepared`]: the method compiled once, shared by the members), with a progress bar over
//! the members (when stderr is a terminal), the final states written to `--out`, each member's
//! thinned trajectory to `--trajectories`, and a summary: members done and failed (each failure
//! with its member, step and time), the worst constraint residual and energy error, and
//! particle-steps per second.

use super::args::EnsembleArgs;
use super::choice;
use super::error::CliError;
use super::problem_files::{self, Prepared};
use super::run::RunSpec;
use super::states;
use crate::ensemble::{EnsembleOptions, MemberRun, Trajectories, run_ensemble};
use crate::integrate::Options;
use crate::output::{EXTENSIONS, Format};
use indicatif::ProgressBar;
use std::io::IsTerminal;
use std::time::Instant;

/// A failed member.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FailedMember {
    /// Its index (its row of `--initial`, from 0).
    pub member: usize,
    /// The steps it accepted.
    pub steps: usize,
    /// The time of its last accepted state.
    pub t: f64,
    /// Why it stopped.
    pub error: String,
}

/// What `sparkgen ensemble` reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// The problem file.
    pub problem: String,
    /// The method's name.
    pub method: String,
    /// Step size.
    pub h: f64,
    /// Steps asked of each member.
    pub steps: usize,
    /// Members.
    pub members: usize,
    /// Members that stopped early.
    pub failed: usize,
    /// Worker threads.
    pub threads: usize,
    /// The largest constraint residual over every point of every member (`null` if NaN).
    pub max_constraint_residual: f64,
    /// The largest `|E − E₀|` over every point of every member, where there is an energy.
    pub max_energy_error: Option<f64>,
    /// Accepted steps of all members per second of wall time.
    pub particle_steps_per_second: f64,
    /// Wall time.
    pub wall_seconds: f64,
    /// The final-state file.
    pub out: String,
    /// The trajectory directory, if any.
    pub trajectories: Option<String>,
    /// Every failed member.
    pub failures: Vec<FailedMember>,
}

impl Report {
    /// The summary as text.
    pub fn text(&self) -> String {
        let energy = self
            .max_energy_error
            .map_or("none".to_owned(), |e| format!("{e:.3e}"));
        let mut text = format!(
            "ensemble of {} members of {}: {}, h = {}, {} steps each, {} threads\n\
             done: {}, failed: {}\n\
             max constraint residual: {:.3e}\n\
             max energy error: {energy}\n\
             particle-steps per second: {:.4e} ({:.3} s)\n\
             final states: {}\n",
            self.members,
            self.problem,
            self.method,
            self.h,
            self.steps,
            self.threads,
            self.members - self.failed,
            self.failed,
            self.max_constraint_residual,
            self.particle_steps_per_second,
            self.wall_seconds,
            self.out,
        );
        if let Some(dir) = &self.trajectories {
            text.push_str(&format!("trajectories: {dir}\n"));
        }
        for f in &self.failures {
            let (m, n, t, e) = (f.member, f.steps, f.t, &f.error);
            text.push_str(&format!(
                "member {m} failed after {n} steps (t = {t}): {e}\n"
            ));
        }
        text
    }

    /// `Ok` when every member finished; else the failure of the first (exit code 1).
    pub fn result(&self) -> Result<(), CliError> {
        match self.failures.first() {
            None => Ok(()),
            Some(f) => Err(CliError::StepFailed {
                message: format!(
                    "{} of {} members failed; member {}: {}",
                    self.failed, self.members, f.member, f.error
                ),
                written: vec![self.out.clone().into()],
            }),
        }
    }
}

/// Runs the ensemble `args` asks for with step size `h` and `steps` steps per member.
pub fn run(args: &EnsembleArgs, h: f64, steps: usize) -> Result<Report, CliError> {
    let format = |path: &std::path::Path| {
        Format::of(path).ok_or_else(|| CliError::UnknownExtension {
            path: path.to_owned(),
            valid: EXTENSIONS,
        })
    };
    let out_format = format(&args.out)?;
    let m = &args.method;
    let (file, subject) = problem_files::load(&args.problem_file, &m.params)?;
    let method = choice::resolve(subject.kind, m.method.as_deref(), m.stages)?;
    let spec = RunSpec {
        project_initial: args.project_initial,
        ..RunSpec::new(method, h, steps)
    };
    let prepared = Prepared::new(&file, &subject, &spec)?;
    let d = file.dimension();
    let initial = states::read(&args.initial, d)?;
    let options = Options {
        project_initial: args.project_initial,
        ..Options::new(h, steps)
    };
    let ensemble = EnsembleOptions {
        threads: args.threads,
        trajectories: args.trajectories.as_ref().map(|dir| Trajectories {
            dir: dir.clone(),
            every: args.every,
            format: Format::Npy,
        }),
    };
    let members = initial.len();
    let shown = !args.json && std::io::stderr().is_terminal();
    let bar = shown.then(|| ProgressBar::new(members as u64));
    let progress = |done: usize| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    };
    let run = |k: usize, observer: MemberRun<'_>| {
        let (q0, p0) = initial[k].split_at(d);
        prepared.run_into(q0, p0, &options, observer)
    };
    let start = Instant::now();
    let result = run_ensemble(members, d, &ensemble, run, &progress).map_err(|e| {
        CliError::InvalidValue {
            what: "--threads or --trajectories",
            value: e.to_string(),
            reason: "the ensemble cannot start",
        }
    })?;
    let wall_seconds = start.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
        .write_final(&args.out, out_format)
        .map_err(|e| CliError::Write {
            path: e.path,
            reason: e.reason,
        })?;
    let failures: Vec<FailedMember> = result
        .failed()
        .map(|m| FailedMember {
            member: m.index,
            steps: m.steps,
            t: m.t,
            error: m
                .failure
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        })
        .collect();
    Ok(Report {
        problem: subject.name.clone(),
        method: method.name().to_owned(),
        h,
        steps,
        members,
        failed: failures.len(),
        threads: args
            .threads
            .map_or_else(rayon::current_num_threads, |n| n.get()),
        max_constraint_residual: result.max_constraint(),
        max_energy_error: result.max_energy_error(),
        particle_steps_per_second: result.steps() as f64 / wall_seconds,
        wall_seconds,
        out: args.out.display().to_string(),
        trajectories: args.trajectories.as_ref().map(|d| d.display().to_string()),
        failures,
    })
}
