//! The outcome of every member as plain numbers and text ([`Records`]): what an ensemble
//! writes, summarises and sends between processes ([`super::ranks`]) without losing a bit.

use super::{MemberResult, nan_max};
use crate::output::{Format, Header, WriteError, Writer, state_columns};
use std::path::{Path, PathBuf};

/// The leading columns of a row: member, steps, t.
const LEAD: usize = 3;
/// The trailing columns of a row: failed, has_run, max_constraint, has_energy,
/// max_energy_error.
const TRAIL: usize = 5;

/// Every member's outcome as numbers and text.
///
/// Member k is one row of [`Records::rows`], `3 + 2D + 5` numbers:
/// `member, steps, t, q₁…q_D, p₁…p_D, failed, has_run, max_constraint, has_energy,
/// max_energy_error`, where the three flags are `0` or `1` and the numbers they guard are NaN
/// when the flag is `0`; `q, p` are NaN for a member that failed before its first point. Its
/// failure message, if any, is the next [`Records::lengths`]`[k]` bytes of
/// [`Records::messages`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Records {
    /// The coordinates `D` of each member.
    pub dimension: usize,
    /// One row of `3 + 2D + 5` numbers per member.
    pub rows: Vec<f64>,
    /// The byte length of each member's failure message (0 for none).
    pub lengths: Vec<u64>,
    /// The failure messages, one after another.
    pub messages: String,
}

/// One member's outcome, read from [`Records`].
#[derive(Clone, Debug, PartialEq)]
pub struct Record<'a> {
    /// Its index in the ensemble.
    pub index: usize,
    /// The accepted steps.
    pub steps: usize,
    /// The time of its last accepted state.
    pub t: f64,
    /// The last accepted position (NaN if it failed before its first point).
    pub q: &'a [f64],
    /// The last accepted momentum (NaN if it failed before its first point).
    pub p: &'a [f64],
    /// The largest constraint residual of its run (`None` if it failed before its first
    /// point).
    pub max_constraint: Option<f64>,
    /// The largest `|E − E₀|` of its run, where the problem has an energy.
    pub max_energy_error: Option<f64>,
    /// Why it stopped early, if it did.
    pub failure: Option<&'a str>,
}

/// `Some(x)` for flag `1`, `None` for `0`.
fn flagged(flag: f64, x: f64) -> Option<f64> {
    (flag == 1.0).then_some(x)
}

/// A flag and its number.
fn flag(x: Option<f64>) -> [f64; 2] {
    x.map_or([0.0, f64::NAN], |x| [1.0, x])
}

impl Records {
    /// The numbers in one member's row for dimension `d`.
    pub fn width(d: usize) -> usize {
        LEAD + 2 * d + TRAIL
    }

    /// No member yet, of dimension `d`.
    pub fn new(d: usize) -> Self {
        Records {
            dimension: d,
            ..Records::default()
        }
    }

    /// The records of `members`, each of dimension `d`.
    pub fn of(d: usize, members: &[MemberResult]) -> Self {
        let mut records = Records::new(d);
        records.rows.reserve(members.len() * Self::width(d));
        for m in members {
            records.rows.extend([m.index as f64, m.steps as f64, m.t]);
            if m.q.len() == d && m.p.len() == d {
                records.rows.extend_from_slice(&m.q);
                records.rows.extend_from_slice(&m.p);
            } else {
                records.rows.extend(std::iter::repeat_n(f64::NAN, 2 * d));
            }
            let failed = if m.failure.is_some() { 1.0 } else { 0.0 };
            records.rows.push(failed);
            records
                .rows
                .extend(flag(m.run.as_ref().map(|r| r.max_constraint)));
            records
                .rows
                .extend(flag(m.run.as_ref().and_then(|r| r.max_energy_error)));
            let message = m.failure.as_ref().map(ToString::to_string);
            let message = message.unwrap_or_default();
            records.lengths.push(message.len() as u64);
            records.messages.push_str(&message);
        }
        records
    }

    /// Appends `other`'s members after these (the next rank's block).
    pub fn append(&mut self, other: Records) {
        self.rows.extend(other.rows);
        self.lengths.extend(other.lengths);
        self.messages.push_str(&other.messages);
    }

    /// The members held.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether no member is held.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Every member's outcome, in order. A row or message cut short (records that did not come
    /// from [`Records::of`]) ends the iteration; a message cut inside a character reads as
    /// `"(message lost)"`.
    pub fn iter(&self) -> impl Iterator<Item = Record<'_>> {
        let d = self.dimension;
        let offsets = self.lengths.iter().scan(0usize, |start, &n| {
            let range = *start..start.saturating_add(n as usize);
            *start = range.end;
            Some(range)
        });
        let rows = self.rows.chunks_exact(Self::width(d));
        rows.zip(offsets).map(move |(row, bytes)| {
            let (lead, rest) = row.split_at(LEAD);
            let (q, rest) = rest.split_at(d);
            let (p, trail) = rest.split_at(d);
            Record {
                index: lead[0] as usize,
                steps: lead[1] as usize,
                t: lead[2],
                q,
                p,
                max_constraint: flagged(trail[1], trail[2]),
                max_energy_error: flagged(trail[3], trail[4]),
                failure: (trail[0] == 1.0)
                    .then(|| self.messages.get(bytes).unwrap_or("(message lost)")),
            }
        })
    }

    /// The members that stopped early.
    pub fn failed(&self) -> impl Iterator<Item = Record<'_>> {
        self.iter().filter(|r| r.failure.is_some())
    }

    /// The largest constraint residual over every point of every member that ran (NaN if any
    /// is NaN).
    pub fn max_constraint(&self) -> f64 {
        let each = self.iter().filter_map(|r| r.max_constraint);
        each.fold(0.0, nan_max)
    }

    /// The largest `|E − E₀|` over every point of every member, where the problem has an
    /// energy (NaN if any is NaN).
    pub fn max_energy_error(&self) -> Option<f64> {
        self.iter()
            .filter_map(|r| r.max_energy_error)
            .reduce(nan_max)
    }

    /// The accepted steps of all members together.
    pub fn steps(&self) -> usize {
        self.iter().map(|r| r.steps).sum()
    }

    /// Writes the final states, one row per member: columns `member, steps, t, q1…qD, p1…pD`
    /// (NaN for a member that failed before its first point).
    pub fn write_final(&self, path: &Path, format: Format) -> Result<PathBuf, WriteError> {
        let d = self.dimension;
        let columns = state_columns(["member", "steps", "t"], d);
        let header = Header {
            constraint: None,
            energy_error: None,
        };
        let mut writer = Writer::create(path, format, &columns, header)?;
        for row in self.rows.chunks_exact(Self::width(d)) {
            writer.row(&row[..LEAD + 2 * d], 0)?;
        }
        writer.finish()
    }
}
