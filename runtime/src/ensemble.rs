//! Ensembles: one method run from many initial states (or, for a family, on one problem per
//! member) in parallel on every core with rayon.
//!
//! Members are independent runs: member k's result is the run [`crate::solve_into`] gives for
//! it alone, bit for bit, whatever the number of threads or the order in which they pick
//! members up. A member whose run fails (a typed [`IntegrateError`] with its step and time) is
//! reported with its index and its last accepted state; the others run on. What is kept of a
//! member is its last accepted state, its [`RunStats`] and, if asked, its trajectory thinned
//! to every K-th point and the last, streamed to its own file as the run goes
//! ([`Trajectories`]), so the memory of an ensemble grows with its members, not its steps.
//!
//! The final states of every member form one array ([`Records::write_final`]), one row per
//! member in member order: `(member, steps, t, q₁…q_D, p₁…p_D)`, where `steps` is the number of
//! accepted steps (fewer than asked for a failed member) and `(t, q, p)` the last accepted
//! state.
//!
//! Beyond one process, the members are split in blocks over ranks ([`ranks`]): each rank runs
//! its block on its own threads and rank 0 gathers every block's [`Records`], the same, bit for
//! bit, as one process makes.

pub mod ranks;
mod records;

pub use records::{Record, Records};

use crate::diagnostics::nan_max;
use crate::error::IntegrateError;
use crate::integrate::Options;
use crate::observers::Every;
use crate::output::{Format, TrajectoryFile, WriteError};
use crate::run::Method;
use crate::solution::{Observer, Point, RunStats, Stopped};
use nalgebra::SVector;
use rayon::prelude::*;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::path::PathBuf;

/// Where each member's trajectory is written: `dir/member_{k}.{npy,csv,json}` (k zero-padded
/// to the width of the last index), rows `(t, q, p)` of every `every`-th point and the last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trajectories {
    /// The directory (created if missing).
    pub dir: PathBuf,
    /// Keep every `every`-th point and the last.
    pub every: NonZeroUsize,
    /// The files' format.
    pub format: Format,
}

impl Trajectories {
    /// The path of member `k`'s file in an ensemble of `members`.
    pub fn path(&self, k: usize, members: usize) -> PathBuf {
        let width = members.saturating_sub(1).to_string().len();
        let extension = match self.format {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Npy => "npy",
        };
        self.dir.join(format!("member_{k:0width$}.{extension}"))
    }
}

/// How an ensemble runs and what it keeps besides the final states.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnsembleOptions {
    /// Worker threads; `None` for rayon's default (one per core, or `RAYON_NUM_THREADS`).
    pub threads: Option<NonZeroUsize>,
    /// Each member's thinned trajectory, streamed to its own file.
    pub trajectories: Option<Trajectories>,
}

/// Why a member stopped before its last step.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MemberFailure {
    /// Its run failed (the error carries the step and time where it can).
    #[error(transparent)]
    Step(#[from] IntegrateError),
    /// Its trajectory file could not be written.
    #[error(transparent)]
    Output(#[from] WriteError),
}

/// One member's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberResult {
    /// Its index.
    pub index: usize,
    /// The accepted steps.
    pub steps: usize,
    /// The time of its last accepted state.
    pub t: f64,
    /// The last accepted position (empty if the run failed before its first point).
    pub q: Vec<f64>,
    /// The last accepted momentum.
    pub p: Vec<f64>,
    /// The run's statistics (`None` if it failed before its first point).
    pub run: Option<RunStats>,
    /// Why it stopped early, if it did.
    pub failure: Option<MemberFailure>,
}

/// An ensemble could not start.
#[derive(Debug, thiserror::Error)]
pub enum EnsembleError {
    /// The thread pool could not be built.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// rayon's message.
        reason: String,
    },
    /// The trajectory directory could not be created.
    #[error("cannot create the trajectory directory `{}`: {reason}", dir.display())]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// The operating system's message.
        reason: String,
    },
}

/// The outcomes of every member, in member order.
#[derive(Clone, Debug, PartialEq)]
pub struct Ensemble {
    /// The coordinates `D` of each member.
    pub dimension: usize,
    /// Every member's outcome, member k at index k.
    pub members: Vec<MemberResult>,
}

impl Ensemble {
    /// The members that stopped early.
    pub fn failed(&self) -> impl Iterator<Item = &MemberResult> {
        self.members.iter().filter(|m| m.failure.is_some())
    }

    /// Every member's outcome as numbers and text ([`Records`]): what is written, summarised
    /// and gathered from other ranks.
    pub fn records(&self) -> Records {
        Records::of(self.dimension, &self.members)
    }
}

/// The observer of one member: keeps the last point and its statistics, and hands every point
/// to the member's trajectory file, if it has one.
struct Member<O> {
    steps: usize,
    t: f64,
    q: Vec<f64>,
    p: Vec<f64>,
    run: Option<RunStats>,
    file: Option<O>,
}

impl<O: Observer<Error = WriteError>> Observer for Member<O> {
    type Error = WriteError;

    fn observe(&mut self, point: &Point<'_>) -> Result<(), WriteError> {
        // The first point sizes the buffers; the others are copied into them.
        self.q.resize(point.q.len(), 0.0);
        self.p.resize(point.p.len(), 0.0);
        self.q.copy_from_slice(point.q);
        self.p.copy_from_slice(point.p);
        (self.steps, self.t) = (point.step, point.t);
        match &mut self.file {
            Some(file) => file.observe(point),
            None => Ok(()),
        }
    }

    fn end(&mut self, stats: &RunStats) -> Result<(), WriteError> {
        self.run = Some(*stats);
        match &mut self.file {
            Some(file) => file.end(stats),
            None => Ok(()),
        }
    }
}

/// A member's run: the index and the observer its run hands every point to.
pub type MemberRun<'o> = &'o mut dyn Observer<Error = WriteError>;

/// Runs `members` members in parallel, member k by `run(k, observer)` (a run of
/// [`crate::solve_into`], the run-time engine or any other that hands its points to the
/// observer), keeping what [`EnsembleOptions`] asks; `progress` is called after each member
/// with the number of members done so far. `dimension` is each member's `D`, for the
/// final-state array.
pub fn run_ensemble<F>(
    members: usize,
    dimension: usize,
    options: &EnsembleOptions,
    run: F,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Ensemble, EnsembleError>
where
    F: Fn(usize, MemberRun<'_>) -> Result<RunStats, Stopped<IntegrateError, WriteError>> + Sync,
{
    run_members(0..members, members, dimension, options, run, progress)
}

/// Runs the members `block` of an ensemble of `members` (their indices and file names those of
/// the whole ensemble) as [`run_ensemble`] runs them all: one rank's share ([`ranks`]).
pub fn run_members<F>(
    block: Range<usize>,
    members: usize,
    dimension: usize,
    options: &EnsembleOptions,
    run: F,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Ensemble, EnsembleError>
where
    F: Fn(usize, MemberRun<'_>) -> Result<RunStats, Stopped<IntegrateError, WriteError>> + Sync,
{
    if let Some(t) = &options.trajectories {
        std::fs::create_dir_all(&t.dir).map_err(|e| EnsembleError::Directory {
            dir: t.dir.clone(),
            reason: e.to_string(),
        })?;
    }
    let done = std::sync::atomic::AtomicUsize::new(0);
    let one = |k: usize| {
        let result = member(k, members, dimension, options, &run);
        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(finished);
        result
    };
    let all = || block.clone().into_par_iter().map(one).collect::<Vec<_>>();
    let results = match options.threads {
        None => all(),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(worker_threads(threads, block.len())?)
            .build()
            .map_err(|e| EnsembleError::Threads {
                threads: threads.get(),
                reason: e.to_string(),
            })?
            .install(all),
    };
    Ok(Ensemble {
        dimension,
        members: results,
    })
}

/// The most worker threads an ensemble starts in one process.
pub const MAX_THREADS: usize = 1024;

/// The worker threads started for `threads` asked for and a block of `members` members: at
/// most one per member; more than [`MAX_THREADS`] are refused.
pub fn worker_threads(threads: NonZeroUsize, members: usize) -> Result<usize, EnsembleError> {
    if threads.get() > MAX_THREADS {
        return Err(EnsembleError::Threads {
            threads: threads.get(),
            reason: format!("at most {MAX_THREADS} worker threads are started per process"),
        });
    }
    Ok(threads.get().min(members.max(1)))
}

/// Runs member `k` into its observer and collects its outcome.
fn member<F>(
    k: usize,
    members: usize,
    dimension: usize,
    options: &EnsembleOptions,
    run: &F,
) -> MemberResult
where
    F: Fn(usize, MemberRun<'_>) -> Result<RunStats, Stopped<IntegrateError, WriteError>> + Sync,
{
    let mut outcome = MemberResult {
        index: k,
        steps: 0,
        t: f64::NAN,
        q: Vec::with_capacity(dimension),
        p: Vec::with_capacity(dimension),
        run: None,
        failure: None,
    };
    let file = match &options.trajectories {
        Some(t) => match TrajectoryFile::create(&t.path(k, members), t.format, dimension) {
            Ok(file) => Some(Every::new(file, t.every)),
            Err(e) => {
                outcome.failure = Some(e.into());
                return outcome;
            }
        },
        None => None,
    };
    let mut observer = Member {
        steps: 0,
        t: f64::NAN,
        q: outcome.q,
        p: outcome.p,
        run: None,
        file,
    };
    let result = run(k, &mut observer);
    let finished = observer
        .file
        .map(|file| file.finish().and_then(TrajectoryFile::finish));
    outcome = MemberResult {
        steps: observer.steps,
        t: observer.t,
        q: observer.q,
        p: observer.p,
        run: observer.run,
        ..outcome
    };
    outcome.failure = match (result, finished) {
        (Err(Stopped::Step(e)), _) => Some(e.into()),
        (Err(Stopped::Observer(e)), _) | (Ok(_), Some(Err(e))) => Some(e.into()),
        (Ok(_), _) => None,
    };
    outcome
}

/// Solves `problem` with `method` from every initial state `initial[k] = (q₀, p₀)` in parallel
/// ([`run_ensemble`] of [`crate::solve_into`]).
pub fn solve_ensemble<M, P, R, const D: usize>(
    problem: &P,
    method: M,
    initial: &[(SVector<f64, D>, SVector<f64, D>)],
    options: &Options,
    ensemble: &EnsembleOptions,
) -> Result<Ensemble, EnsembleError>
where
    M: Method<P, D, R> + Copy + Sync,
    P: Sync,
{
    solve_family(|_| problem, method, initial, options, ensemble)
}

/// Solves a family of problems, member k's `problem(k)` from `initial[k]`, with `method` in
/// parallel ([`run_ensemble`] of [`crate::solve_into`]): per-member parameters.
pub fn solve_family<'p, M, P, R, const D: usize>(
    problem: impl Fn(usize) -> &'p P + Sync,
    method: M,
    initial: &[(SVector<f64, D>, SVector<f64, D>)],
    options: &Options,
    ensemble: &EnsembleOptions,
) -> Result<Ensemble, EnsembleError>
where
    M: Method<P, D, R> + Copy + Sync,
    P: Sync + 'p,
{
    let run = |k: usize, observer: MemberRun<'_>| {
        let (q0, p0) = initial[k];
        crate::solve_into(problem(k), method, q0, p0, options, observer)
    };
    run_ensemble(initial.len(), D, ensemble, run, &|_| ())
}
