//! The command's exit-code rule, documented on `CliError::exit_code` and in the README:
//! 0 for success, 2 for arguments that cannot be used whatever the reason (clap's parse errors
//! and the command's own checks alike), 1 for failures of the work itself. Every failure is
//! one line on stderr and never a panic.
#![cfg(feature = "cli")]

use std::path::PathBuf;
use std::process::Command;

/// Runs the binary; (exit code, stderr).
fn sparkgen(args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sparkgen"))
        .args(args)
        .output()
        .expect("the binary starts");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("{args:?} ended by a signal: {stderr}"));
    (code, stderr)
}

/// A scratch directory for this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sparkgen-exit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn expect_code(args: &[&str], expected: i32) {
    let (code, stderr) = sparkgen(args);
    assert_eq!(code, expected, "{args:?}: exit {code}, stderr: {stderr}");
    if expected != 0 {
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error"), "{args:?}: {stderr}");
    }
}

#[test]
fn unusable_arguments_exit_2_whatever_the_reason() {
    // The same option rejected by clap (not a number) and by the command (not positive).
    expect_code(&["run", "--h", "abc"], 2);
    expect_code(&["run", "--h", "0"], 2);
    expect_code(&["run", "--h", "-1"], 2);
    expect_code(&["run", "--h", "inf"], 2);
    expect_code(&["run", "--steps", "-3"], 2);
    expect_code(&["run", "--steps", "0"], 2);
    expect_code(&["run", "--t-end", "nan"], 2);
    expect_code(&["run", "nosuch"], 2);
    expect_code(&["run", "--method", "rk4"], 2);
    expect_code(&["run", "--stages", "9"], 2);
    expect_code(&["run", "--param", "zz=1"], 2);
    expect_code(&["run", "--param", "a1=x"], 2);
    expect_code(&["run", "--steps", "5", "--out", "x.txt"], 2);
    expect_code(&["tableau", "NoSuch", "2"], 2);
    expect_code(&["tableau", "Gauss", "99"], 2);
    expect_code(&["frobnicate"], 2);
    expect_code(&["run", "--problem-file", "/nonexistent/problem.toml"], 2);
    let dir = scratch("file");
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "kind = \"degenerate_lagrangian\"\ncoordinates = [\"q1\", \"q2\"]\n\
         theta = [\"q2\", \"q1\"]\nhamiltonian = \"q1 + zz\"\n[initial]\nq = [1.0, 1.0]\n",
    )
    .expect("scratch file");
    expect_code(&["run", "--problem-file", bad.to_str().expect("utf-8")], 2);
    // A file's own values are checked when it is read, `--param` values after they are set.
    let pendulum = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/pendulum.toml");
    let (code, stderr) = sparkgen(&["run", "--problem-file", pendulum, "--param", "m=-1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("pendulum.toml") && stderr.contains("mass"),
        "{stderr}"
    );
}

#[test]
fn failures_of_the_run_exit_1() {
    // Writing into a directory that does not exist fails when the file is written.
    expect_code(
        &["run", "--steps", "5", "--out", "/nonexistent/dir/x.csv"],
        1,
    );
    // A step far too large for Lotka–Volterra: Newton leaves the domain of ln at step 1.
    expect_code(&["run", "--h", "5", "--steps", "10"], 1);
}

#[test]
fn successful_runs_exit_0() {
    expect_code(&["run", "--steps", "3"], 0);
    expect_code(&["tableau", "Gauss", "2"], 0);
}
