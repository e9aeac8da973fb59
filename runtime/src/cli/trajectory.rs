//! A run with its dimension erased, observed as it is computed: the per-point diagnostics
//! (energy error, constraint residual, carried multiplier), the run's maxima, the trajectory
//! file streamed to `--out`, and the points kept in memory for plots and studies.

use super::error::CliError;
use super::output::{Format, Header, Writer, format_of};
use super::progress::Progress;
use crate::diagnostics::{DiagnosticsError, EnergyError, maximum};
use crate::solution::{Observer, Point, RunStats};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// At most about this many points are kept in memory for a plot (see [`Memory::Sample`]).
pub const SAMPLE_POINTS: usize = 4096;

/// Which points a run keeps in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Every point (the studies of `verify`, whose runs are short).
    All,
    /// A bounded sample for plots: the points `n = 0, s, 2s, …` with a stride `s` that doubles
    /// whenever [`SAMPLE_POINTS`] are held, and the last point.
    Sample,
    /// The points the trajectory file gets: every K-th ([`Keep::every`]) and the last.
    Every,
}

/// How a run's points are checked, kept and written.
#[derive(Clone, Debug, PartialEq)]
pub struct Keep {
    /// What stays in memory.
    pub memory: Memory,
    /// The trajectory file, written as the run goes.
    pub out: Option<PathBuf>,
    /// Every K-th point (and the last) goes to `out`.
    pub every: NonZeroUsize,
    /// Show a progress bar on stderr if the run lasts over a second (and stderr is a terminal).
    pub progress: bool,
}

/// The points kept in memory (all of them, or a sample; see [`Memory`]) with their diagnostics.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Times `t_n`.
    pub t: Vec<f64>,
    /// Positions `q_n`.
    pub q: Vec<Vec<f64>>,
    /// Momenta `p_n`.
    pub p: Vec<Vec<f64>>,
    /// The energy error at every point ([`Trajectory::energy`]; NaN where the problem has no
    /// energy).
    pub energy_error: Vec<f64>,
    /// How the energy error is measured; `None` where the problem has no energy.
    pub energy: Option<EnergyError>,
    /// The constraint residual at every point (see [`Trajectory::constraint`]).
    pub constraint_residual: Vec<f64>,
    /// What `constraint_residual` measures, e.g. `|p − ϑ(q)|∞`.
    pub constraint: &'static str,
    /// The carried multiplier `λ_n` at every point; empty for methods that carry none.
    pub lambda: Vec<Vec<f64>>,
}

impl Trajectory {
    fn empty(constraint: &'static str) -> Trajectory {
        Trajectory {
            t: Vec::new(),
            q: Vec::new(),
            p: Vec::new(),
            energy_error: Vec::new(),
            energy: None,
            constraint_residual: Vec::new(),
            constraint,
            lambda: Vec::new(),
        }
    }

    /// The dimension D.
    pub fn dimension(&self) -> usize {
        self.q.first().map_or(0, Vec::len)
    }

    /// `|λ_n|∞` of the carried multiplier at every kept point; empty for methods that carry
    /// none.
    pub fn multiplier(&self) -> Vec<f64> {
        self.lambda
            .iter()
            .map(|l| maximum(l.iter().map(|x| x.abs())))
            .collect()
    }

    /// `max_n` of the constraint residual over the kept points (NaN if one is NaN).
    pub fn max_constraint_residual(&self) -> f64 {
        maximum(self.constraint_residual.iter().copied())
    }

    /// `max_n` of the energy error over the kept points (NaN if one is NaN, or where the problem
    /// has no energy).
    pub fn max_relative_energy_error(&self) -> f64 {
        maximum(self.energy_error.iter().copied())
    }

    fn push(&mut self, state: &State) {
        self.t.push(state.t);
        self.q.push(state.q.clone());
        self.p.push(state.p.clone());
        self.energy_error.push(state.energy_error);
        self.constraint_residual.push(state.residual);
        if !state.lambda.is_empty() {
            self.lambda.push(state.lambda.clone());
        }
    }

    /// Keeps every other point (the first, third, …).
    fn halve(&mut self) {
        fn odd_out<T>(v: &mut Vec<T>) {
            let mut index = 0;
            v.retain(|_| {
                index += 1;
                index % 2 == 1
            });
        }
        odd_out(&mut self.t);
        odd_out(&mut self.q);
        odd_out(&mut self.p);
        odd_out(&mut self.energy_error);
        odd_out(&mut self.constraint_residual);
        odd_out(&mut self.lambda);
    }
}

/// What a whole run measured (every point, not only the kept ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    /// Steps taken.
    pub steps: usize,
    /// The time of the last accepted point.
    pub t_final: f64,
    /// The last accepted state.
    pub q_final: Vec<f64>,
    /// The last accepted momentum.
    pub p_final: Vec<f64>,
    /// `max_n` of the constraint residual.
    pub max_constraint_residual: f64,
    /// `max_n` of the energy error; `None` where the problem has no energy.
    pub max_energy_error: Option<f64>,
    /// How the energy error is measured; `None` where the problem has no energy.
    pub energy: Option<EnergyError>,
    /// Newton iterations over all steps.
    pub newton_iterations: usize,
    /// The Gauss–Newton iterations of the initial projection
    /// ([`crate::solution::RunStats::initial_projection_iterations`]); `None` where none ran.
    pub initial_projection_iterations: Option<usize>,
}

impl Totals {
    /// Mean Newton iterations per step (0 without steps).
    pub fn newton_iterations_mean(&self) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.newton_iterations as f64 / self.steps as f64
        }
    }
}

/// One point with its diagnostics.
#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    step: usize,
    t: f64,
    q: Vec<f64>,
    p: Vec<f64>,
    energy_error: f64,
    residual: f64,
    lambda: Vec<f64>,
    iterations: usize,
}

/// The [`Observer`] of a command-line run: evaluates the energy error and the constraint
/// residual at every accepted point, stops the run at the first one that is not finite
/// ([`DiagnosticsError::NonFinite`], naming the step and the time), keeps the maxima, writes
/// every K-th point and the last to the trajectory file and keeps the points [`Memory`] says.
pub struct Monitor<E, R> {
    energy: E,
    residual: R,
    constraint: &'static str,
    keep: Keep,
    format: Option<Format>,
    writer: Option<Writer>,
    progress: Progress,
    measure: Option<EnergyError>,
    kept: Trajectory,
    stride: usize,
    last: Option<State>,
    written: bool,
    totals: Totals,
}

impl<E, R> Monitor<E, R> {
    /// A monitor of a run of `steps` steps with the energy `energy(q, p)` (`None` where the
    /// problem has none) and the constraint residual `residual(q, p)`, which measures
    /// `constraint`. Fails if `keep.out` has an extension no format has.
    pub fn new(
        steps: usize,
        energy: E,
        residual: R,
        constraint: &'static str,
        keep: Keep,
    ) -> Result<Self, CliError> {
        let format = keep.out.as_deref().map(format_of).transpose()?;
        Ok(Monitor {
            energy,
            residual,
            constraint,
            progress: Progress::new(steps, keep.progress),
            keep,
            format,
            writer: None,
            measure: None,
            kept: Trajectory::empty(constraint),
            stride: 1,
            last: None,
            written: false,
            totals: Totals {
                steps: 0,
                t_final: 0.0,
                q_final: Vec::new(),
                p_final: Vec::new(),
                max_constraint_residual: 0.0,
                max_energy_error: None,
                energy: None,
                newton_iterations: 0,
                initial_projection_iterations: None,
            },
        })
    }

    /// Ends the run: writes the last point if it was not written, completes the file, and
    /// returns the kept points, the totals and the path of the complete file; `None` if not
    /// even the initial state was accepted.
    pub fn finish(mut self) -> Result<Option<(Trajectory, Totals, Option<PathBuf>)>, CliError> {
        self.progress.finish();
        let Some(last) = self.last.take() else {
            return Ok(None);
        };
        if !self.written {
            self.write(&last)?;
        }
        if self.kept.t.last() != Some(&last.t) {
            self.kept.push(&last);
        }
        let written = self.writer.map(Writer::finish).transpose()?;
        self.totals.steps = last.step;
        self.totals.t_final = last.t;
        self.totals.q_final = last.q;
        self.totals.p_final = last.p;
        self.kept.energy = self.measure;
        self.totals.energy = self.measure;
        Ok(Some((self.kept, self.totals, written)))
    }

    /// The table's columns: `t, q1…qD, p1…pD, relative_energy_error` (or
    /// `absolute_energy_error`), `constraint_residual`.
    fn columns(&self, dimension: usize) -> Vec<String> {
        let energy = match self.measure {
            Some(EnergyError::Absolute) => "absolute_energy_error",
            _ => "relative_energy_error",
        };
        std::iter::once("t".to_owned())
            .chain((1..=dimension).map(|i| format!("q{i}")))
            .chain((1..=dimension).map(|i| format!("p{i}")))
            .chain([energy.to_owned(), "constraint_residual".to_owned()])
            .collect()
    }

    /// Writes `state` as a row of the trajectory file (creating it at the first row).
    fn write(&mut self, state: &State) -> Result<(), CliError> {
        let (Some(path), Some(format)) = (&self.keep.out, self.format) else {
            return Ok(());
        };
        if self.writer.is_none() {
            let header = Header {
                constraint: Some(self.constraint),
                energy_error: self.measure.map(EnergyError::kind),
            };
            let columns = self.columns(state.q.len());
            self.writer = Some(Writer::create(path, format, &columns, header)?);
        }
        let row: Vec<f64> = std::iter::once(state.t)
            .chain(state.q.iter().copied())
            .chain(state.p.iter().copied())
            .chain([state.energy_error, state.residual])
            .collect();
        match &mut self.writer {
            Some(writer) => Ok(writer.row(&row, state.iterations)?),
            None => Ok(()),
        }
    }

    /// Keeps `state` in memory as [`Memory`] says.
    fn keep(&mut self, state: &State) {
        let stride = match self.keep.memory {
            Memory::Every => self.keep.every.get(),
            Memory::All | Memory::Sample => self.stride,
        };
        if !state.step.is_multiple_of(stride) {
            return;
        }
        self.kept.push(state);
        if self.keep.memory == Memory::Sample && self.kept.t.len() >= SAMPLE_POINTS {
            self.kept.halve();
            self.stride *= 2;
        }
    }
}

/// `NonFinite` for `quantity` at `point` unless `value` is finite.
fn finite(quantity: &'static str, value: f64, point: &Point<'_>) -> Result<f64, CliError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(DiagnosticsError::NonFinite {
            quantity,
            value,
            step: point.step,
            time: point.t,
        }
        .into())
    }
}

impl<E, R> Observer for Monitor<E, R>
where
    E: Fn(&[f64], &[f64]) -> Option<f64>,
    R: Fn(&[f64], &[f64]) -> f64,
{
    type Error = CliError;

    fn observe(&mut self, point: &Point<'_>) -> Result<(), CliError> {
        let energy = match (self.energy)(point.q, point.p) {
            Some(h) => Some(finite("energy H", h, point)?),
            None => None,
        };
        if point.step == 0 {
            self.measure = energy.map(EnergyError::against).transpose()?;
        }
        let energy_error = match (energy, self.measure) {
            (Some(h), Some(measure)) => finite("energy error", measure.of(h), point)?,
            _ => f64::NAN,
        };
        let residual = finite(self.constraint, (self.residual)(point.q, point.p), point)?;
        let state = State {
            step: point.step,
            t: point.t,
            q: point.q.to_vec(),
            p: point.p.to_vec(),
            energy_error,
            residual,
            lambda: point.lambda.to_vec(),
            iterations: point.stats.map_or(0, |s| s.iterations),
        };
        let totals = &mut self.totals;
        totals.max_constraint_residual = maximum([totals.max_constraint_residual, residual]);
        if energy.is_some() {
            totals.max_energy_error = Some(maximum([
                totals.max_energy_error.unwrap_or(0.0),
                energy_error,
            ]));
        }
        totals.newton_iterations += state.iterations;
        self.written = state.step.is_multiple_of(self.keep.every.get());
        if self.written {
            self.write(&state)?;
        }
        self.keep(&state);
        self.progress.tick(point.step);
        self.last = Some(state);
        Ok(())
    }

    fn end(&mut self, stats: &RunStats) -> Result<(), CliError> {
        self.totals.initial_projection_iterations = stats.initial_projection_iterations;
        Ok(())
    }
}
