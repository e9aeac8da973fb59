//! `MPI_COMM_WORLD` as the ranks of an ensemble.
//!
//! The gather runs in two rounds from every rank to rank 0: a fixed header per rank (whether
//! it failed, how many numbers, messages and message bytes it holds, its peak memory), then
//! the numbers, the message lengths and the message bytes (with one pad byte per rank), each
//! in one `MPI_Gatherv`. Between
//! them rank 0 checks that each gathered buffer can be counted by MPI (`int` counts) and tells
//! every rank whether to go on, so that no rank waits for a message that is never sent.

use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Equivalence, Root};
use mpi::{Count, Threading};
use sparkgen::ensemble::Records;
use sparkgen::ensemble::ranks::{GatherError, Part, Ranks};

/// The header of one rank's part: failed, numbers, message lengths, message bytes, peak memory
/// (`u64::MAX` for unknown).
const HEADER: usize = 5;

/// MPI could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// `MPI_Init_thread` had already been called in this process.
    #[error("MPI is already initialised in this process")]
    AlreadyInitialised,
    /// The implementation cannot give the threading level rayon's workers need.
    #[error(
        "the MPI implementation offers threading level {offered:?}; an ensemble's worker threads need `Funneled` (only the main thread calls MPI)"
    )]
    Threading {
        /// The level offered.
        offered: Threading,
    },
}

/// `MPI_COMM_WORLD`, initialised for worker threads that never call MPI
/// (`MPI_THREAD_FUNNELED`); MPI is finalised when it is dropped.
pub struct World {
    world: SimpleCommunicator,
    // Dropped last: finalises MPI.
    _universe: Universe,
}

impl World {
    /// Initialises MPI.
    pub fn initialize() -> Result<World, WorldError> {
        let (universe, offered) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or(WorldError::AlreadyInitialised)?;
        if offered == Threading::Single {
            return Err(WorldError::Threading { offered });
        }
        Ok(World {
            world: universe.world(),
            _universe: universe,
        })
    }
}

/// The counts (`int`) of a buffer of `values`, or why it cannot be sent.
fn count(values: u64, what: &'static str) -> Result<Count, GatherError> {
    Count::try_from(values).map_err(|_| GatherError::TooLarge {
        what,
        values,
        limit: Count::MAX as u64,
    })
}

/// The displacements of consecutive blocks of `counts`.
fn displacements(counts: &[Count]) -> Vec<Count> {
    let starts = counts.iter().scan(0, |start, &n| {
        let here = *start;
        *start += n;
        Some(here)
    });
    starts.collect()
}

impl World {
    /// Gathers `local` from every rank at rank 0 into one buffer of `counts` (rank 0) in rank
    /// order.
    fn gather_varcount<T: Equivalence + Clone + Default>(
        &self,
        local: &[T],
        counts: Option<&[Count]>,
    ) -> Vec<T> {
        let root = self.world.process_at_rank(0);
        match counts {
            Some(counts) => {
                let total = counts.iter().map(|&n| n as usize).sum();
                let mut all = vec![T::default(); total];
                let displs = displacements(counts);
                let mut partition = PartitionMut::new(&mut all[..], counts, &displs[..]);
                root.gather_varcount_into_root(local, &mut partition);
                all
            }
            None => {
                root.gather_varcount_into(local);
                Vec::new()
            }
        }
    }
}

impl Ranks for World {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn gather(&self, part: Part) -> Result<Option<Vec<Part>>, GatherError> {
        let is_root = self.world.rank() == 0;
        let size = self.size();
        let root = self.world.process_at_rank(0);
        let failed = part.records.is_err();
        let (records, mut messages) = match part.records {
            Ok(records) => {
                let messages = records.messages.clone().into_bytes();
                (records, messages)
            }
            Err(error) => (Records::default(), error.into_bytes()),
        };
        // Never an empty byte buffer: its address would be `MPI_IN_PLACE` (1) in Open MPI.
        messages.push(0);
        let header: [u64; HEADER] = [
            u64::from(failed),
            records.rows.len() as u64,
            records.lengths.len() as u64,
            messages.len() as u64,
            part.peak_memory.unwrap_or(u64::MAX),
        ];
        let mut headers = vec![0u64; if is_root { HEADER * size } else { 0 }];
        if is_root {
            root.gather_into_root(&header[..], &mut headers[..]);
        } else {
            root.gather_into(&header[..]);
        }
        // Rank 0 checks the totals and tells every rank whether to go on: [go, which, total].
        let mut verdict = [1u64, 0, 0];
        if is_root {
            for (which, column) in [1, 2, 3].into_iter().enumerate() {
                let total: u64 = headers.chunks(HEADER).map(|h| h[column]).sum();
                if Count::try_from(total).is_err() {
                    verdict = [0, which as u64, total];
                }
            }
        }
        root.broadcast_into(&mut verdict[..]);
        const WHAT: [&str; 3] = ["numbers", "failure messages", "bytes of failure messages"];
        if verdict[0] == 0 {
            return Err(GatherError::TooLarge {
                what: WHAT[verdict[1] as usize % 3],
                values: verdict[2],
                limit: Count::MAX as u64,
            });
        }
        let counts = |column: usize| -> Result<Vec<Count>, GatherError> {
            let each = headers
                .chunks(HEADER)
                .map(|h| count(h[column], WHAT[column - 1]));
            each.collect()
        };
        let (rows, lengths, bytes) = (counts(1)?, counts(2)?, counts(3)?);
        let all_rows = self.gather_varcount(&records.rows, is_root.then_some(&rows[..]));
        let all_lengths = self.gather_varcount(&records.lengths, is_root.then_some(&lengths[..]));
        let all_bytes = self.gather_varcount(&messages, is_root.then_some(&bytes[..]));
        if !is_root {
            return Ok(None);
        }
        let (mut row, mut length, mut byte) = (0, 0, 0);
        let parts = headers.chunks(HEADER).enumerate().map(|(r, h)| {
            let (n_rows, n_lengths, n_bytes) =
                (rows[r] as usize, lengths[r] as usize, bytes[r] as usize);
            // Without the rank's trailing pad byte.
            let text = &all_bytes[byte..byte + n_bytes.saturating_sub(1)];
            let text = String::from_utf8_lossy(text).into_owned();
            let records = if h[0] == 1 {
                Err(text)
            } else {
                Ok(Records {
                    dimension: records.dimension,
                    rows: all_rows[row..row + n_rows].to_vec(),
                    lengths: all_lengths[length..length + n_lengths].to_vec(),
                    messages: text,
                })
            };
            (row, length, byte) = (row + n_rows, length + n_lengths, byte + n_bytes);
            Part {
                records,
                peak_memory: (h[4] != u64::MAX).then_some(h[4]),
            }
        });
        Ok(Some(parts.collect()))
    }
}
