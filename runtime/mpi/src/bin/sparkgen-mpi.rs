//! `sparkgen-mpi`: the `sparkgen` command in a process of an MPI job. Under
//! `mpirun -n R`, `sparkgen-mpi ensemble …` splits the members over the R ranks and rank 0
//! reports for all; in one process it is `sparkgen`.

use std::process::ExitCode;

fn main() -> ExitCode {
    match sparkgen_mpi::World::initialize() {
        Ok(world) => sparkgen::cli::main_on(&world),
        Err(e) => {
            sparkgen::cli::to_stderr(&format!("error: {e}"));
            ExitCode::FAILURE
        }
    }
}
