//! An ensemble split over processes (MPI ranks, through the `sparkgen-mpi` crate): rank r of
//! R runs the contiguous block [`block`]`(members, R, r)` of the members, on its own threads,
//! and every block's [`Records`] are gathered at rank 0 in rank order, so that rank 0 holds
//! exactly the records one process would have made, bit for bit. A rank that fails (its
//! problem file unreadable on its node, say) still takes part in the gather, carrying its
//! error instead of records, so that no rank waits forever.

use super::{EnsembleOptions, MemberRun, Records, run_members};
use crate::error::IntegrateError;
use crate::output::WriteError;
use crate::solution::{RunStats, Stopped};
use std::ops::Range;

/// The processes an ensemble is split over.
pub trait Ranks {
    /// This process's rank, from 0.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Every rank's part at rank 0, in rank order: `Ok(Some(parts))` on rank 0, `Ok(None)` on
    /// the others. Every rank must call it once, whatever happened before.
    fn gather(&self, part: Part) -> Result<Option<Vec<Part>>, GatherError>;
}

/// What one rank sends to rank 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Its members' records, or why it has none.
    pub records: Result<Records, String>,
    /// Its peak resident memory in bytes, where the system tells ([`peak_memory`]).
    pub peak_memory: Option<u64>,
}

/// The gather could not carry the records.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GatherError {
    /// One message would hold more values than the transport can count.
    #[error(
        "the ensemble's records hold {values} {what}, more than one message between ranks can carry ({limit}); split the ensemble into several runs"
    )]
    TooLarge {
        /// What is counted: numbers, messages' bytes.
        what: &'static str,
        /// How many.
        values: u64,
        /// The transport's limit.
        limit: u64,
    },
}

/// An ensemble over ranks could not finish.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RankedError {
    /// A rank failed before its records were complete.
    #[error("rank {rank} of {size}: {message}")]
    Rank {
        /// The rank.
        rank: usize,
        /// The ranks.
        size: usize,
        /// Its error.
        message: String,
    },
    /// The gather failed.
    #[error(transparent)]
    Gather(#[from] GatherError),
}

/// One process alone: rank 0 of 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alone;

impl Ranks for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn gather(&self, part: Part) -> Result<Option<Vec<Part>>, GatherError> {
        Ok(Some(vec![part]))
    }
}

/// The members rank `rank` of `ranks` runs: a contiguous block, the first `members % ranks`
/// ranks holding one member more than the others.
pub fn block(members: usize, ranks: usize, rank: usize) -> Range<usize> {
    let ranks = ranks.max(1);
    let (share, extra) = (members / ranks, members % ranks);
    let start = rank * share + rank.min(extra);
    let end = start + share + usize::from(rank < extra);
    start.min(members)..end.min(members)
}

/// The peak resident memory of this process in bytes (`VmHWM` of `/proc/self/status`; `None`
/// where the system does not tell).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Sends this rank's records (or its error) to rank 0 and, there, joins every rank's in rank
/// order: `Ok(Some((records, peak)))` on rank 0, with the largest peak memory of any rank;
/// `Ok(None)` elsewhere; the first failed rank's error on rank 0.
pub fn gather(
    ranks: &dyn Ranks,
    dimension: usize,
    records: Result<Records, String>,
) -> Result<Option<(Records, Option<u64>)>, RankedError> {
    let part = Part {
        records,
        peak_memory: peak_memory(),
    };
    let Some(parts) = ranks.gather(part)? else {
        return Ok(None);
    };
    let size = parts.len();
    let mut all = Records::new(dimension);
    let mut peak = None;
    for (rank, part) in parts.into_iter().enumerate() {
        let records = part.records.map_err(|message| RankedError::Rank {
            rank,
            size,
            message,
        })?;
        all.append(records);
        peak = peak.max(part.peak_memory);
    }
    Ok(Some((all, peak)))
}

/// Runs this rank's [`block`] of `members` members (member k by `run(k, observer)`, as
/// [`super::run_ensemble`] does) and gathers every rank's records at rank 0: `Some` there,
/// `None` on the other ranks.
pub fn run_ranked<F>(
    ranks: &dyn Ranks,
    members: usize,
    dimension: usize,
    options: &EnsembleOptions,
    run: F,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Option<(Records, Option<u64>)>, RankedError>
where
    F: Fn(usize, MemberRun<'_>) -> Result<RunStats, Stopped<IntegrateError, WriteError>> + Sync,
{
    let mine = block(members, ranks.size(), ranks.rank());
    let local = run_members(mine, members, dimension, options, run, progress)
        .map(|e| e.records())
        .map_err(|e| e.to_string());
    gather(ranks, dimension, local)
}

#[cfg(test)]
mod tests {
    use super::block;

    /// The blocks of every rank cover the members once, in order, their sizes differing by at
    /// most one.
    #[test]
    fn blocks_partition_the_members() {
        for members in 0..40 {
            for ranks in 1..9 {
                let blocks: Vec<_> = (0..ranks).map(|r| block(members, ranks, r)).collect();
                let mut next = 0;
                for b in &blocks {
                    assert_eq!(b.start, next, "{members} over {ranks}: {blocks:?}");
                    next = b.end;
                }
                assert_eq!(next, members);
                let sizes = blocks.iter().map(|b| b.len());
                let (lo, hi) = (sizes.clone().min(), sizes.max());
                assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{blocks:?}");
            }
        }
    }
}
