//! `sparkgen ensemble`: a problem file solved from every initial state of `--initial` in
//! parallel ([`crate::ensemble::run_members`]), split over MPI ranks when run by `sparkgen-mpi`
//! ([`crate::ensemble::ranks`]), on run-time sized storage
//! ([`Prepared`]: the method compiled once, shared by the members), with a progress bar over
//! the members (when stderr is a terminal), the final states written to `--out`, each member's
//! thinned trajectory to `--trajectories`, and a summary: members done and failed (each failure
//! with its member, step and time), the worst constraint residual and energy error, and
//! particle-steps per second.

use super::args::EnsembleArgs;
use super::choice::{self, Choice};
use super::error::CliError;
use super::problem_files::{self, Prepared};
use super::run::RunSpec;
use super::run::Subject;
use super::states;
use crate::ensemble::ranks::{self, Ranks};
use crate::ensemble::{Ensemble, EnsembleOptions, MemberRun, Records, Trajectories, run_members};
use crate::integrate::Options;
use crate::output::{EXTENSIONS, Format};
use crate::problem_file::ProblemFile;
use indicatif::ProgressBar;
use std::io::IsTerminal;
use std::ops::Range;
use std::time::Instant;

/// A failed member.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FailedMember {
    /// Its index (its row of `--initial`, from 0).
    pub member: usize,
    /// The steps it accepted.
    pub steps: usize,
    /// The time of its last accepted state (NaN for a member refused before its first).
    #[serde(serialize_with = "super::numbers::number")]
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
    /// Processes (MPI ranks) the members were split over.
    pub ranks: usize,
    /// Worker threads of each process (`--threads`, at most one per member of a process's
    /// block; by default one per core).
    pub threads: usize,
    /// The largest constraint residual over every point of every member.
    #[serde(serialize_with = "super::numbers::number")]
    pub max_constraint_residual: f64,
    /// The largest `|E − E₀|` over every point of every member, where there is an energy.
    #[serde(serialize_with = "super::numbers::optional")]
    pub max_energy_error: Option<f64>,
    /// Accepted steps of all members per second of wall time (compiling included).
    pub particle_steps_per_second: f64,
    /// Seconds rank 0 spent compiling the method's stage functions to machine code, once for
    /// all its members and threads (`None` where they were interpreted).
    pub compile_seconds: Option<f64>,
    /// Wall time.
    pub wall_seconds: f64,
    /// The largest peak resident memory of any process, in bytes, where the system tells.
    pub peak_memory_bytes: Option<u64>,
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
        let memory = self.peak_memory_bytes.map_or("unknown".to_owned(), |b| {
            format!("{:.1} MiB", b as f64 / 1048576.0)
        });
        let compiled = self
            .compile_seconds
            .map_or("no (interpreted)".to_owned(), |s| {
                format!("{:.1} ms", 1e3 * s)
            });
        let workers = match self.ranks {
            1 => format!("{} threads", self.threads),
            ranks => format!("{ranks} ranks of {} threads", self.threads),
        };
        let mut text = format!(
            "ensemble of {} members of {}: {}, h = {}, {} steps each, {workers}\n\
             done: {}, failed: {}\n\
             max constraint residual: {:.3e}\n\
             max energy error: {energy}\n\
             particle-steps per second: {:.4e} ({:.3} s)\n\
             stage functions compiled: {compiled}\n\
             peak memory per process: {memory}\n\
             final states: {}\n",
            self.members,
            self.problem,
            self.method,
            self.h,
            self.steps,
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
            Some(f) => Err(CliError::MembersFailed {
                failed: self.failed,
                members: self.members,
                member: f.member,
                error: f.error.clone(),
                out: self.out.clone().into(),
            }),
        }
    }
}

/// Runs the ensemble `args` asks for with step size `h` and `steps` steps per member, this
/// process's block of it when `ranks` holds several ([`crate::ensemble::ranks`]): the report on
/// rank 0, `None` on the others. Whatever fails on a rank is reported by rank 0.
pub fn run(
    args: &EnsembleArgs,
    h: f64,
    steps: usize,
    ranks: &dyn Ranks,
) -> Result<Option<Report>, CliError> {
    let format = |path: &std::path::Path| {
        Format::of(path).ok_or_else(|| CliError::UnknownExtension {
            path: path.to_owned(),
            valid: EXTENSIONS,
        })
    };
    let out_format = format(&args.out)?;
    let start = Instant::now();
    let (local, records) = match block(args, h, steps, ranks) {
        Ok(mut local) => {
            let records = std::mem::take(&mut local.records);
            (Ok(local), Ok(records))
        }
        Err(e) if ranks.size() == 1 => return Err(e),
        Err(e) => {
            let message = e.to_string();
            (Err(e), Err(message))
        }
    };
    let d = local.as_ref().map_or(0, |l| l.dimension);
    let gathered = ranks::gather(ranks, d, records);
    // This rank's own failure first: every rank has taken part in the gather.
    let local = local?;
    let gathered = gathered.map_err(|e| CliError::Ranks {
        message: e.to_string(),
    })?;
    let Some((records, peak_memory)) = gathered else {
        return Ok(None);
    };
    let wall_seconds = start.elapsed().as_secs_f64();
    records
        .write_final(&args.out, out_format)
        .map_err(|e| CliError::Write {
            path: e.path,
            reason: e.reason,
        })?;
    let failures: Vec<FailedMember> = records
        .failed()
        .map(|r| FailedMember {
            member: r.index,
            steps: r.steps,
            t: r.t,
            error: r.failure.unwrap_or_default().to_owned(),
        })
        .collect();
    Ok(Some(Report {
        problem: local.problem,
        method: local.method.name().to_owned(),
        h,
        steps,
        members: local.members,
        failed: failures.len(),
        ranks: ranks.size(),
        threads: args.threads.map_or_else(rayon::current_num_threads, |n| {
            n.get().min(local.members.div_ceil(ranks.size()).max(1))
        }),
        max_constraint_residual: records.max_constraint(),
        max_energy_error: records.max_energy_error(),
        particle_steps_per_second: records.steps() as f64 / wall_seconds,
        compile_seconds: local.compile_seconds,
        wall_seconds,
        peak_memory_bytes: peak_memory,
        out: args.out.display().to_string(),
        trajectories: args.trajectories.as_ref().map(|d| d.display().to_string()),
        failures,
    }))
}

/// Runs the members `block` of the ensemble of the method of `spec` on `file` from the initial
/// states `initial` (one row `q₁…q_D, p₁…p_D` per member of the whole ensemble), the method
/// compiled once ([`Prepared`]) and the members run by [`run_members`]; `progress` is told how
/// many members are done. Also the seconds spent compiling the method's stage functions to
/// machine code (`None` where they were interpreted).
pub fn run_block(
    file: &ProblemFile,
    subject: &Subject,
    spec: &RunSpec,
    initial: &[Vec<f64>],
    block: Range<usize>,
    ensemble: &EnsembleOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<(Ensemble, Option<f64>), CliError> {
    let prepared = Prepared::new(file, subject, spec)?;
    let d = file.dimension();
    let options = Options {
        project_initial: spec.project_initial,
        ..Options::new(spec.h, spec.steps)
    };
    let run = |k: usize, observer: MemberRun<'_>| {
        let (q0, p0) = initial[k].split_at(d);
        prepared.run_into(q0, p0, &options, observer)
    };
    let members = run_members(block, initial.len(), d, ensemble, run, progress).map_err(|e| {
        CliError::InvalidValue {
            what: "--threads or --trajectories",
            value: e.to_string(),
            reason: "the ensemble cannot start",
        }
    })?;
    Ok((members, prepared.compile_seconds()))
}

/// This rank's share of an ensemble.
struct Block {
    /// The problem's name.
    problem: String,
    /// The method.
    method: Choice,
    /// The coordinates `D`.
    dimension: usize,
    /// The members of the whole ensemble.
    members: usize,
    /// The records of this rank's members.
    records: Records,
    /// Seconds spent compiling the method on this rank.
    compile_seconds: Option<f64>,
}

/// Loads the problem, reads the initial states and runs this rank's block of them.
fn block(args: &EnsembleArgs, h: f64, steps: usize, ranks: &dyn Ranks) -> Result<Block, CliError> {
    if ranks.rank() == 0 {
        // The final-states file is written after every member has run: a path that cannot be
        // written is found before any member runs, not after.
        std::fs::File::create(&args.out).map_err(|e| CliError::Write {
            path: args.out.clone(),
            reason: e.to_string(),
        })?;
    }
    let m = &args.method;
    let (file, subject) = problem_files::load(&args.problem_file, &m.params)?;
    let method = choice::resolve(subject.kind, m.method.as_deref(), m.stages)?;
    let spec = RunSpec {
        project_initial: args.project_initial,
        ..RunSpec::new(method, h, steps)
    };
    let d = file.dimension();
    let initial = states::read(&args.initial, d)?;
    let ensemble = EnsembleOptions {
        threads: args.threads,
        trajectories: args.trajectories.as_ref().map(|dir| Trajectories {
            dir: dir.clone(),
            every: args.every,
            format: Format::Npy,
        }),
    };
    let members = initial.len();
    let mine = ranks::block(members, ranks.size(), ranks.rank());
    let shown = !args.json && ranks.rank() == 0 && std::io::stderr().is_terminal();
    let bar = shown.then(|| ProgressBar::new(mine.len() as u64));
    let progress = |done: usize| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    };
    let (result, compile_seconds) =
        run_block(&file, &subject, &spec, &initial, mine, &ensemble, &progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(Block {
        problem: subject.name,
        method,
        dimension: d,
        members,
        records: result.records(),
        compile_seconds,
    })
}
