//! The command's exit-code rule, documented on `CliError::exit_code` and in the README:
//! 0 for success, 2 for arguments that cannot be used whatever the reason (clap's parse errors
//! and the command's own checks alike), 1 for failures of the work itself. Every failure is
//! one line on stderr and never a panic.

use super::{degenerate_file, fails_with_code, scratch, sparkgen};

#[test]
fn unusable_arguments_exit_2_whatever_the_reason() {
    // The same option rejected by clap (not a number) and by the command (not positive).
    fails_with_code(&["run", "--h", "abc"], 2);
    fails_with_code(&["run", "--h", "0"], 2);
    fails_with_code(&["run", "--h", "-1"], 2);
    fails_with_code(&["run", "--h", "inf"], 2);
    fails_with_code(&["run", "--steps", "-3"], 2);
    fails_with_code(&["run", "--steps", "0"], 2);
    fails_with_code(&["run", "--t-end", "nan"], 2);
    fails_with_code(&["run", "nosuch"], 2);
    fails_with_code(&["run", "--method", "rk4"], 2);
    fails_with_code(&["run", "--stages", "9"], 2);
    fails_with_code(&["run", "--param", "zz=1"], 2);
    fails_with_code(&["run", "--param", "a1=x"], 2);
    fails_with_code(&["run", "--steps", "5", "--out", "x.txt"], 2);
    fails_with_code(&["tableau", "NoSuch", "2"], 2);
    fails_with_code(&["tableau", "Gauss", "99"], 2);
    fails_with_code(&["frobnicate"], 2);
    fails_with_code(&["run", "--problem-file", "/nonexistent/problem.toml"], 2);
    let dir = scratch("file");
    let bad = dir.join("bad.toml");
    let text = degenerate_file(["q2", "q1"], "q1 + zz", [1.0, 1.0]);
    std::fs::write(&bad, text).expect("scratch file");
    fails_with_code(&["run", "--problem-file", bad.to_str().expect("utf-8")], 2);
    // A file's own values are checked when it is read, `--param` values after they are set.
    let pendulum = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/pendulum.toml");
    let stderr = fails_with_code(&["run", "--problem-file", pendulum, "--param", "m=-1"], 2);
    assert!(
        stderr.contains("pendulum.toml") && stderr.contains("mass"),
        "{stderr}"
    );
}

#[test]
fn failures_of_the_run_exit_1() {
    // Writing into a directory that does not exist fails when the file is written.
    fails_with_code(
        &["run", "--steps", "5", "--out", "/nonexistent/dir/x.csv"],
        1,
    );
    // A step far too large for Lotka–Volterra: Newton leaves the domain of ln at step 1.
    fails_with_code(&["run", "--h", "5", "--steps", "10"], 1);
}

#[test]
fn successful_runs_exit_0() {
    assert!(sparkgen(&["run", "--steps", "3"]).status.success());
    assert!(sparkgen(&["tableau", "Gauss", "2"]).status.success());
}

#[test]
fn inconsistent_initial_data_exit_2_unless_projected_on_request() {
    let dir = scratch("inconsistent");
    // The pendulum of `problems/pendulum.toml` off its constraint (|q₀| ≠ ℓ) and with a velocity
    // across it; and Lotka–Volterra with p₀ ≠ ϑ(q₀).
    let pendulum = dir.join("pendulum.toml");
    std::fs::write(
        &pendulum,
        "kind = \"holonomic\"\ncoordinates = [\"x\", \"y\"]\nmass = \"1\"\npotential = \"y\"\n\
         constraints = [\"x * x + y * y - 1\"]\n[initial]\nq = [0.9, -0.5]\np = [0.3, 0.3]\n",
    )
    .expect("scratch file");
    let lotka = dir.join("lotka.toml");
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/problems/lotka_volterra.toml"
    ))
    .expect("example file");
    std::fs::write(&lotka, format!("{file}p = [3.0, -1.0]\n")).expect("scratch file");
    for (path, method) in [(&pendulum, "Rattle"), (&lotka, "SlrkLobattoIIIE")] {
        let path = path.to_str().expect("utf-8");
        let args = [
            "run",
            "--problem-file",
            path,
            "--method",
            method,
            "--steps",
            "20",
        ];
        let stderr = fails_with_code(&args, 2);
        assert!(
            stderr.contains("inconsistent initial data") && stderr.contains("--project-initial"),
            "{stderr}"
        );
        let projected =
            super::success_json(&[&args[..], &["--project-initial", "--json"]].concat());
        let residual = projected["max_constraint_residual"]
            .as_f64()
            .expect("residual");
        assert!(
            residual <= 1e-12,
            "{path}: residual {residual:e} after projection"
        );
    }
}

/// The shipped pendulum file (`problems/pendulum.toml`) with its initial `q = …` line replaced
/// by `q`.
fn pendulum_at(q: &str) -> String {
    let shipped = include_str!("../../problems/pendulum.toml");
    let line = shipped
        .lines()
        .find(|l| l.starts_with("q = "))
        .expect("an initial q");
    shipped.replace(line, q)
}

/// `--project-initial` converges from far off the constraints: the pendulum of
/// `problems/pendulum.toml` from `q₀ = (3, 4)` (five times its length) is projected to round-off
/// and the summary reports the projection's iterations (`null` when none ran); a constraint
/// with no solution (`x² + y² + 1 = 0`) is refused with the residual reached, exit 2.
#[test]
fn far_initial_data_are_projected_and_impossible_ones_refused() {
    let dir = scratch("far-projection");
    let file = pendulum_at("q = [3.0, 4.0]");
    let far = dir.join("far.toml");
    std::fs::write(&far, &file).expect("scratch file");
    let impossible = dir.join("impossible.toml");
    let constraint = "x * x + y * y - l * l";
    assert!(file.contains(constraint));
    std::fs::write(&impossible, file.replace(constraint, "x * x + y * y + 1")).expect("scratch");
    let far = far.to_str().expect("utf-8");
    let args = [
        "run",
        "--problem-file",
        far,
        "--steps",
        "20",
        "--project-initial",
    ];
    let projected = super::success_json(&[&args[..], &["--json"]].concat());
    let residual = projected["max_constraint_residual"]
        .as_f64()
        .expect("residual");
    assert!(residual <= 1e-15, "{projected}");
    let iterations = projected["initial_projection_iterations"].as_u64();
    assert!(iterations.is_some_and(|n| n >= 1), "{projected}");
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/pendulum.toml");
    let consistent = super::success_json(&["run", "--problem-file", shipped, "--json"]);
    assert!(
        consistent["initial_projection_iterations"].is_null(),
        "{consistent}"
    );
    let impossible = impossible.to_str().expect("utf-8");
    let args = ["run", "--problem-file", impossible, "--project-initial"];
    let stderr = fails_with_code(&args, 2);
    assert!(
        stderr.contains("no solution near q₀") && stderr.contains("|c(q)|∞ = "),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the command with `args` and its stderr on `/dev/full` (every write fails): the exit
/// code, which must still be the rule's, never a panic's 101.
fn exit_code_with_stderr_full(args: &[&str]) -> Option<i32> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full on Linux");
    std::process::Command::new(env!("CARGO_BIN_EXE_sparkgen"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(full)
        .status()
        .expect("the binary starts")
        .code()
}

#[test]
fn a_stderr_that_cannot_be_written_keeps_the_exit_code() {
    // An argument refused by clap, one refused by the command, and a step that fails.
    assert_eq!(exit_code_with_stderr_full(&["--bogus"]), Some(2));
    assert_eq!(exit_code_with_stderr_full(&["--param", "zz=1"]), Some(2));
    let failing = [
        "run",
        "--method",
        "SlrkLobattoIIIAB",
        "--stages",
        "2",
        "--steps",
        "400",
    ];
    assert_eq!(exit_code_with_stderr_full(&failing), Some(1));
    assert_eq!(exit_code_with_stderr_full(&["--steps", "3"]), Some(0));
}

#[test]
fn a_missing_required_argument_is_named() {
    let stderr = fails_with_code(&["ensemble"], 2);
    for name in ["--problem-file", "--initial", "--out"] {
        assert!(stderr.contains(name), "{stderr}");
    }
    let stderr = fails_with_code(&["tableau"], 2);
    assert!(
        stderr.contains("<FAMILY>") && stderr.contains("<STAGES>"),
        "{stderr}"
    );
}

/// A holonomic state whose constraint is not finite (`q₀ = (10³⁰⁰, 10³⁰⁰)`, `c(q₀) = ∞`) is
/// refused before the first step, its residual shown as NaN (never as 0), exit 2; projected on
/// request, the projection fails at step 0, exit 2.
#[test]
fn an_infinite_initial_constraint_is_refused_before_the_first_step() {
    let dir = scratch("infinite");
    let file = dir.join("far.toml");
    std::fs::write(&file, pendulum_at("q = [1e300, 1e300]")).expect("scratch file");
    let file = file.to_str().expect("utf-8");
    let stderr = fails_with_code(&["run", "--problem-file", file, "--steps", "3"], 2);
    assert!(stderr.contains("relative |c(q₀)| = NaN"), "{stderr}");
    let args = [
        "run",
        "--problem-file",
        file,
        "--steps",
        "3",
        "--project-initial",
    ];
    let stderr = fails_with_code(&args, 2);
    assert!(stderr.contains("step 0"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Hamiltonian with a subexpression that is never finite (`0/0`, which the graph folds to 0
/// and the file ran as H = q2 with exit 0) is refused when the file is read: exit 2, one line
/// naming the file, line and column of the subexpression.
#[test]
fn a_never_finite_subexpression_is_refused_at_its_column() {
    let dir = scratch("never-finite");
    let file = dir.join("nan.toml");
    let text = degenerate_file(["q2", "q1"], "q2 + 0/0 * q1", [1.0, 1.0]);
    std::fs::write(&file, text).expect("scratch file");
    let file = file.to_str().expect("utf-8");
    let stderr = fails_with_code(&["run", "--problem-file", file, "--steps", "3"], 2);
    // `0/0` starts at column 21 of line 4.
    assert!(
        stderr.contains(&format!("{file}:4:21: ")) && stderr.contains("division by zero"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
