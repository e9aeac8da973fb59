//! `cargo xtask`: the project's own commands, for a fresh machine with only Rust installed.
//!
//! - `cargo xtask test [ARGS…]`: makes sure the build's system tools are there (m4, which
//!   GMP's configure needs when `gmp-mpfr-sys` builds the generator's arbitrary-precision
//!   arithmetic), installing them with the system's package manager when it can, then runs
//!   `cargo test --workspace --locked ARGS…`.
//! - `cargo xtask deps [--mpi]`: only the first half (with `--mpi`, for the MPI build too).
//! - `cargo xtask mpi [ARGS…]`: the MPI build's tools too (an MPI implementation, libclang for
//!   bindgen), then the MPI tests and the ensemble benchmark's smoke run,
//!   `cargo test --workspace --locked --features sparkgen-mpi/mpi --test ranks --bench ensemble
//!   ARGS…`: the whole workspace is selected so that its crates are built with the features of
//!   `cargo xtask test` and reused.
//!
//! The exit code is the test run's, or 1 when a tool is missing and cannot be installed (the
//! message names the tool and the command that installs it).

use std::ffi::OsString;
use std::process::{Command, ExitCode, Stdio};

/// A system tool the build needs, and the packages that provide it.
struct Tool {
    /// The command, run with `--version` to see whether it is there.
    command: &'static str,
    /// The Debian/Ubuntu packages providing it.
    packages: &'static [&'static str],
    /// Why the build needs it.
    why: &'static str,
}

/// The tools the workspace's build scripts need beyond Rust and a C compiler.
const TOOLS: &[Tool] = &[Tool {
    command: "m4",
    packages: &["m4"],
    why: "GMP's configure (gmp-mpfr-sys, built for the generator's exact arithmetic)",
}];

/// The tools of the MPI build (`sparkgen-mpi` with its feature `mpi`) beyond [`TOOLS`].
const MPI_TOOLS: &[Tool] = &[
    Tool {
        command: "mpicc",
        packages: &["libopenmpi-dev", "openmpi-bin"],
        why: "the MPI library and its compiler wrapper, which mpi-sys's build asks for flags",
    },
    Tool {
        command: "mpirun",
        packages: &["openmpi-bin"],
        why: "starting the MPI tests' ranks",
    },
    Tool {
        command: "clang",
        packages: &["clang", "libclang-dev"],
        why: "libclang, with which bindgen reads mpi.h in mpi-sys's build",
    },
];

/// The arguments of `cargo test` for the MPI tests, after `--workspace --locked`.
const MPI_TEST: &[&str] = &[
    "--features",
    "sparkgen-mpi/mpi",
    "--test",
    "ranks",
    "--bench",
    "ensemble",
];

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let command = args.next();
    let rest: Vec<OsString> = args.collect();
    let all: Vec<&Tool> = TOOLS.iter().chain(MPI_TOOLS).collect();
    let base: Vec<&Tool> = TOOLS.iter().collect();
    match command.as_ref().and_then(|c| c.to_str()) {
        Some("test") => match ensure_tools(&base) {
            Ok(()) => cargo_test(&[], &rest),
            Err(message) => fail(&message),
        },
        Some("deps") => {
            let mpi = rest.iter().any(|a| a == "--mpi");
            match ensure_tools(if mpi { &all } else { &base }) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => fail(&message),
            }
        }
        Some("mpi") => match ensure_tools(&all) {
            Ok(()) => cargo_test(MPI_TEST, &rest),
            Err(message) => fail(&message),
        },
        _ => {
            eprintln!(
                "usage: cargo xtask test [cargo test arguments…] | cargo xtask deps [--mpi] | cargo xtask mpi [cargo test arguments…]"
            );
            ExitCode::from(2)
        }
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

/// Whether `command --version` runs.
fn present(command: &str) -> bool {
    Command::new(command)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Installs every missing tool with apt-get when running as root on a Debian-like system;
/// otherwise says what to install.
fn ensure_tools(tools: &[&Tool]) -> Result<(), String> {
    let missing: Vec<&Tool> = tools
        .iter()
        .copied()
        .filter(|t| !present(t.command))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut packages: Vec<&str> = missing.iter().flat_map(|t| t.packages).copied().collect();
    packages.sort_unstable();
    packages.dedup();
    let needs: Vec<String> = missing
        .iter()
        .map(|t| format!("`{}` for {}", t.command, t.why))
        .collect();
    let needs = needs.join(", ");
    if !(is_root() && present("apt-get")) {
        return Err(format!(
            "the build needs {needs}; install it (Debian/Ubuntu: `sudo apt-get install {}`; \
             Fedora: `sudo dnf install {0}`; macOS: `brew install {0}`) and run again",
            packages.join(" ")
        ));
    }
    eprintln!(
        "xtask: installing {} with apt-get ({needs})",
        packages.join(" ")
    );
    apt_get(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend(&packages);
    apt_get(&install)?;
    match missing.iter().find(|t| !present(t.command)) {
        Some(tool) => Err(format!(
            "`apt-get install {}` ran but `{}` is still not on PATH",
            tool.packages.join(" "),
            tool.command
        )),
        None => Ok(()),
    }
}

/// Whether the process runs as root (`id -u` prints 0).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.trim_ascii() == b"0")
}

fn apt_get(args: &[&str]) -> Result<(), String> {
    let status = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("cannot run apt-get: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`apt-get {}` failed ({status})", args.join(" ")))
    }
}

/// `cargo test --workspace --locked FIXED… ARGS…` with the cargo that runs this task; its exit
/// code.
fn cargo_test(fixed: &[&str], rest: &[OsString]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "--workspace", "--locked"])
        .args(fixed)
        .args(rest)
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(u8::try_from(s.code().unwrap_or(1)).unwrap_or(1)),
        Err(e) => fail(&format!("cannot run cargo: {e}")),
    }
}
