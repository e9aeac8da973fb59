//! Starting `sparkgen-mpi` in one process or under the MPI launcher (`mpirun`, or the command
//! in `MPIEXEC`), for the tests and the benchmark. Open MPI is told to allow root and ranks on
//! however many cores the machine has (environment variables other implementations ignore).

use std::ffi::OsStr;
use std::process::{Command, Output};

/// `sparkgen-mpi args…` in one process, or under the launcher with `ranks` ranks.
pub fn sparkgen_mpi<S: AsRef<OsStr>>(ranks: Option<usize>, args: &[S]) -> Output {
    let binary = env!("CARGO_BIN_EXE_sparkgen-mpi");
    let mut command = match ranks {
        None => Command::new(binary),
        Some(n) => {
            let launcher = std::env::var("MPIEXEC").unwrap_or_else(|_| "mpirun".to_owned());
            let mut c = Command::new(launcher);
            c.args(["-n", &n.to_string(), binary]);
            c
        }
    };
    command
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .output()
        .expect("the launcher or the binary starts")
}
