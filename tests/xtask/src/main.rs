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
//! - `cargo xtask python [PYTEST ARGS…]`: the Python package's tests. Makes sure Python 3 with
//!   its `venv` module is there, builds the `sparkgen` command (for the tests that compare with
//!   it), builds the package's wheel in the virtual environment `target/python-venv` with
//!   `pip wheel ./runtime/python` into `target/wheels` (maturin as the build backend, with
//!   cargo's dev profile unless `SPARKGEN_PYTHON_PROFILE` names another, and the package's
//!   feature `workspace-parity`, so that both builds reuse the one of `cargo xtask test` where
//!   it was run), installs the wheel with its `test` extra into the fresh virtual environment
//!   `target/python-wheel-venv` with neither cargo nor rustc on `PATH`, and runs `python -m
//!   pytest runtime/python/tests PYTEST ARGS…` there with `SPARKGEN_BIN` set to the command.
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

/// The tools of the Python package's tests.
const PYTHON_TOOLS: &[Tool] = &[Tool {
    command: "python3",
    packages: &["python3", "python3-venv", "python3-pip"],
    why: "the Python package's build (maturin, through pip) and its tests (pytest)",
}];

/// The Python package, relative to the workspace root.
const PYTHON_PACKAGE: &str = "runtime/python";

/// The Python package's feature that resolves its dependencies with the features of `cargo test
/// --workspace`, so that the command's build and maturin's reuse that build (see
/// `runtime/python/Cargo.toml`).
const PARITY: &str = "sparkgen-python/workspace-parity";

/// The virtual environment that builds the Python package's wheel (and holds numpy for the
/// overhead benchmark), relative to the workspace root.
const PYTHON_VENV: &str = "target/python-venv";

/// Where the wheel is written, relative to the workspace root.
const WHEELS: &str = "target/wheels";

/// The fresh virtual environment the wheel is installed and tested in, relative to the
/// workspace root.
const WHEEL_VENV: &str = "target/python-wheel-venv";

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
        Some("python") => {
            let tools: Vec<&Tool> = TOOLS.iter().chain(PYTHON_TOOLS).collect();
            match ensure_tools(&tools).and_then(|()| python_tests(&rest)) {
                Ok(code) => code,
                Err(message) => fail(&message),
            }
        }
        _ => {
            eprintln!(
                "usage: cargo xtask test [cargo test arguments…] | cargo xtask deps [--mpi] | cargo xtask mpi [cargo test arguments…] | cargo xtask python [pytest arguments…]"
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

/// The workspace root: the directory of the workspace's `Cargo.toml` (this crate is two levels
/// below it).
fn workspace_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).unwrap_or(manifest).to_owned()
}

/// Runs `program args…` in `dir` with `envs`; an error naming the command unless it succeeds.
fn run(
    program: &std::path::Path,
    args: &[&std::ffi::OsStr],
    dir: &std::path::Path,
    envs: &[(&str, &std::ffi::OsStr)],
) -> Result<(), String> {
    let shown = || {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        format!("`{} {}`", program.display(), args.join(" "))
    };
    eprintln!("xtask: {}", shown());
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", shown()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", shown()))
    }
}

/// The process's `PATH` without the directories that hold `cargo` or `rustc`.
fn without_rust() -> OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&path).filter(|dir| {
        !["cargo", "rustc"]
            .iter()
            .any(|tool| dir.join(tool).exists())
    });
    std::env::join_paths(kept).unwrap_or_default()
}

/// The Python tests (see the crate documentation); the exit code is pytest's.
fn python_tests(rest: &[OsString]) -> Result<ExitCode, String> {
    let root = workspace_root();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    run(
        std::path::Path::new(&cargo),
        &[
            os("build"),
            os("--locked"),
            os("-p"),
            os("sparkgen"),
            os("-p"),
            os("sparkgen-python"),
            os("--bins"),
            os("--features"),
            os(PARITY),
        ],
        &root,
        &[],
    )?;
    let binary = root.join("target/debug/sparkgen");
    // The build environment: pip builds the wheel there (maturin from PyPI in pip's isolated
    // build environment), and numpy is installed for the overhead benchmark.
    let venv = root.join(PYTHON_VENV);
    if !venv.join("bin/python").exists() {
        run(
            std::path::Path::new("python3"),
            &[os("-m"), os("venv"), venv.as_os_str()],
            &root,
            &[],
        )?;
    }
    let python = venv.join("bin/python");
    let profile = std::env::var("SPARKGEN_PYTHON_PROFILE").unwrap_or_else(|_| "dev".into());
    let maturin_args = OsString::from(format!("--profile {profile} --features workspace-parity"));
    let wheels = root.join(WHEELS);
    if wheels.exists() {
        std::fs::remove_dir_all(&wheels).map_err(|e| format!("cannot clear {WHEELS}: {e}"))?;
    }
    let package = OsString::from(format!("./{PYTHON_PACKAGE}"));
    let quiet = os("--quiet");
    run(
        &python,
        &[os("-m"), os("pip"), os("install"), quiet, os("numpy")],
        &root,
        &[],
    )?;
    run(
        &python,
        &[
            os("-m"),
            os("pip"),
            os("wheel"),
            quiet,
            os("--no-deps"),
            os("--wheel-dir"),
            wheels.as_os_str(),
            &package,
        ],
        &root,
        &[("MATURIN_PEP517_ARGS", &maturin_args)],
    )?;
    let wheel = std::fs::read_dir(&wheels)
        .map_err(|e| format!("cannot read {WHEELS}: {e}"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .find(|path| path.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| format!("pip wrote no wheel to {WHEELS}"))?;
    // The wheel alone, in a fresh environment whose PATH has neither cargo nor rustc: what a
    // Python user without Rust installs.
    let fresh = root.join(WHEEL_VENV);
    if fresh.exists() {
        std::fs::remove_dir_all(&fresh).map_err(|e| format!("cannot clear {WHEEL_VENV}: {e}"))?;
    }
    run(
        std::path::Path::new("python3"),
        &[os("-m"), os("venv"), fresh.as_os_str()],
        &root,
        &[],
    )?;
    let path = without_rust();
    let python = fresh.join("bin/python");
    let with_extra = OsString::from(format!("{}[test]", wheel.display()));
    run(
        &python,
        &[os("-m"), os("pip"), os("install"), quiet, &with_extra],
        &root,
        &[("PATH", &path)],
    )?;
    let tests = root.join(PYTHON_PACKAGE).join("tests");
    let mut args: Vec<&std::ffi::OsStr> = vec![os("-m"), os("pytest"), tests.as_os_str()];
    args.extend(rest.iter().map(OsString::as_os_str));
    match run(
        &python,
        &args,
        &root,
        &[("SPARKGEN_BIN", binary.as_os_str()), ("PATH", &path)],
    ) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(message) => {
            eprintln!("error: {message}");
            Ok(ExitCode::FAILURE)
        }
    }
}
