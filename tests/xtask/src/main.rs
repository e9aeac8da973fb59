//! `cargo xtask`: the project's own commands, for a fresh machine with only Rust installed.
//!
//! - `cargo xtask test [ARGS…]`: makes sure the build's system tools are there (m4, which
//!   GMP's configure needs when `gmp-mpfr-sys` builds the generator's arbitrary-precision
//!   arithmetic), installing them with the system's package manager when it can, then runs
//!   `cargo test --workspace --locked ARGS…`.
//! - `cargo xtask deps`: only the first half.
//!
//! The exit code is the test run's, or 1 when a tool is missing and cannot be installed (the
//! message names the tool and the command that installs it).

use std::ffi::OsString;
use std::process::{Command, ExitCode, Stdio};

/// A system tool the build needs, and the package that provides it.
struct Tool {
    /// The command, run with `--version` to see whether it is there.
    command: &'static str,
    /// The Debian/Ubuntu package providing it.
    package: &'static str,
    /// Why the build needs it.
    why: &'static str,
}

/// The tools the workspace's build scripts need beyond Rust and a C compiler.
const TOOLS: &[Tool] = &[Tool {
    command: "m4",
    package: "m4",
    why: "GMP's configure (gmp-mpfr-sys, built for the generator's exact arithmetic)",
}];

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let command = args.next();
    let rest: Vec<OsString> = args.collect();
    match command.as_ref().and_then(|c| c.to_str()) {
        Some("test") => match ensure_tools() {
            Ok(()) => cargo_test(&rest),
            Err(message) => fail(&message),
        },
        Some("deps") => match ensure_tools() {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => fail(&message),
        },
        _ => {
            eprintln!("usage: cargo xtask test [cargo test arguments…] | cargo xtask deps");
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
fn ensure_tools() -> Result<(), String> {
    let missing: Vec<&Tool> = TOOLS.iter().filter(|t| !present(t.command)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let packages: Vec<&str> = missing.iter().map(|t| t.package).collect();
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
            tool.package, tool.command
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

/// `cargo test --workspace --locked ARGS…` with the cargo that runs this task; its exit code.
fn cargo_test(rest: &[OsString]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "--workspace", "--locked"])
        .args(rest)
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(u8::try_from(s.code().unwrap_or(1)).unwrap_or(1)),
        Err(e) => fail(&format!("cannot run cargo: {e}")),
    }
}
