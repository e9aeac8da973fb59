//! sparkgen's ensembles over MPI (feature `mpi`, off by default): the members are split in
//! contiguous blocks over the ranks of `MPI_COMM_WORLD`, each rank runs its block on its own
//! threads, and rank 0 gathers every block's records
//! ([`sparkgen::ensemble::ranks`]), the same, bit for bit, as one process makes.
//!
//! - The command: `mpirun -n R sparkgen-mpi ensemble …` takes the arguments of
//!   `sparkgen ensemble`; rank 0 writes the final states and the report, each rank writes its
//!   members' trajectory files. In one process `sparkgen-mpi` is `sparkgen`.
//! - The library: [`World`] is `MPI_COMM_WORLD` as [`sparkgen::ensemble::ranks::Ranks`], for
//!   [`sparkgen::ensemble::ranks::run_ranked`].
//!
//! Without the feature the crate is empty, so that the workspace needs no MPI.

#[cfg(feature = "mpi")]
mod world;

#[cfg(feature = "mpi")]
pub use world::{World, WorldError};
