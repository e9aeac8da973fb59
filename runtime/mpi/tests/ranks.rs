//! `mpirun -n 2 sparkgen-mpi ensemble`: 64 members of the Lotka–Volterra file and of the
//! guiding-centre file (D = 4) give the same final states and trajectory files, byte for
//! byte, as one process on one thread and on two; members that fail on either rank (at the
//! first step's Newton solve, or in mid-run) are reported by rank 0 with their index, step and
//! time while the others finish; ranks that cannot read their input end the job with one error rather than wait;
//! under several ranks the other commands are refused, in one process they run.
//!
//! The launcher is `mpirun`, or the command in `MPIEXEC`. Open MPI is told to allow root and
//! two ranks on however many cores the machine has (environment variables other
//! implementations ignore).

use launch::sparkgen_mpi;
use sparkgen::problems::{GuidingCentre, LotkaVolterra2d};
use std::path::{Path, PathBuf};

mod launch;

const MEMBERS: usize = 64;

/// A fresh scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sparkgen-mpi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A problem file of the runtime crate.
fn problem_file(name: &str) -> String {
    format!("{}/../problems/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The states `(q, p)` as a CSV file, one row `q1…qD, p1…pD` each.
fn states_csv(path: &Path, states: &[Vec<f64>]) {
    let rows: Vec<String> = states
        .iter()
        .map(|s| {
            s.iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    std::fs::write(path, rows.join("\n") + "\n").expect("scratch file");
}

/// Every file of `dir` with its bytes, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .expect("written")
        .map(|e| {
            let e = e.expect("an entry");
            let bytes = std::fs::read(e.path()).expect("readable");
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    all.sort();
    all
}

/// The ensemble of `states` on `file` in one process on one thread, on two threads, and on
/// two ranks of one thread each: the final states and every trajectory file equal byte for
/// byte; the two-rank report counts every member and its 2 ranks.
fn one_process_and_two_ranks_agree(name: &str, file: &str, states: &[Vec<f64>], steps: &str) {
    let dir = scratch(name);
    let initial = dir.join("states.csv");
    states_csv(&initial, states);
    let run = |ranks: Option<usize>, threads: &str, label: &str| {
        let out = dir.join(format!("{label}.npy"));
        let trajectories = dir.join(label);
        let (initial, out_s) = (initial.to_string_lossy(), out.to_string_lossy());
        let trajectories_s = trajectories.to_string_lossy();
        let args = [
            "ensemble",
            "--problem-file",
            file,
            "--initial",
            &initial,
            "--method",
            "VprkGauss",
            "--stages",
            "3",
            "--h",
            "0.1",
            "--steps",
            steps,
            "--threads",
            threads,
            "--every",
            "10",
            "--trajectories",
            &trajectories_s,
            "--out",
            &out_s,
            "--json",
        ];
        let output = sparkgen_mpi(ranks, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{label}: {stderr}");
        let report = String::from_utf8_lossy(&output.stdout).into_owned();
        (
            std::fs::read(&out).expect("written"),
            files(&trajectories),
            report,
        )
    };
    let (serial, serial_members, _) = run(None, "1", "serial");
    let (threads, threads_members, _) = run(None, "2", "threads");
    let (ranks, ranks_members, report) = run(Some(2), "1", "ranks");
    assert_eq!(serial_members.len(), MEMBERS);
    assert!(serial == threads, "{name}: two threads differ from one");
    assert!(serial == ranks, "{name}: two ranks differ from one process");
    assert!(
        serial_members == threads_members,
        "{name}: trajectories (threads)"
    );
    assert!(
        serial_members == ranks_members,
        "{name}: trajectories (ranks)"
    );
    // One report (one JSON value: a second rank's would not parse), from rank 0, for all.
    let report: serde_json::Value = serde_json::from_str(&report).expect("one JSON report");
    assert_eq!(report["ranks"], 2, "{report}");
    assert_eq!(report["members"], MEMBERS, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lotka_volterra_on_two_ranks_equals_one_process() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let states: Vec<Vec<f64>> = (0..MEMBERS)
        .map(|k| {
            let (q, p) = lv.initial([1.0 + 0.02 * k as f64, 1.0 + 0.01 * (k % 8) as f64]);
            q.iter().chain(p.iter()).copied().collect()
        })
        .collect();
    let file = problem_file("lotka_volterra.toml");
    one_process_and_two_ranks_agree("lv", &file, &states, "200");
}

#[test]
fn guiding_centre_on_two_ranks_equals_one_process() {
    let gc = GuidingCentre::SCREW_PINCH;
    let [x, y, z, u] = GuidingCentre::SCREW_PINCH_Q0;
    let states: Vec<Vec<f64>> = (0..MEMBERS)
        .map(|k| {
            let q = [
                x + 0.002 * k as f64,
                y,
                z,
                u * (1.0 - 0.01 * (k % 5) as f64),
            ];
            let (q, p) = gc.initial(q);
            q.iter().chain(p.iter()).copied().collect()
        })
        .collect();
    let file = problem_file("guiding_centre.toml");
    one_process_and_two_ranks_agree("gc", &file, &states, "100");
}

#[test]
fn failing_members_on_both_ranks_and_a_rank_without_input() {
    let dir = scratch("failing");
    let lv = LotkaVolterra2d::UPSTREAM;
    // Rank 0 holds members 0…3, rank 1 members 4…7. Member 1's orbit comes close to q₁ = 0,
    // where VPRK's constraint residual departs from round-off after some hundred steps (a
    // failure in mid-run); member 6 starts next to the boundary, where the stage Jacobian of
    // the first step is singular.
    let states: Vec<Vec<f64>> = (0..8)
        .map(|k| {
            let q = match k {
                1 => [0.1, 3.0],
                6 => [1e-9, 8.0],
                _ => [2.0, 1.0 + 0.01 * k as f64],
            };
            let (q, p) = lv.initial(q);
            q.iter().chain(p.iter()).copied().collect()
        })
        .collect();
    let initial = dir.join("states.csv");
    states_csv(&initial, &states);
    let (file, out) = (problem_file("lotka_volterra.toml"), dir.join("final.csv"));
    let (initial_s, out_s) = (initial.to_string_lossy(), out.to_string_lossy());
    let args = [
        "ensemble",
        "--problem-file",
        &file,
        "--initial",
        &initial_s,
        "--method",
        "VprkGauss",
        "--stages",
        "3",
        "--steps",
        "300",
        "--out",
        &out_s,
    ];
    let output = sparkgen_mpi(Some(2), &args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "members failed: {stderr}");
    let once = stderr.matches("2 of 8 members failed; member 1").count();
    assert_eq!(once, 1, "reported once, by rank 0: {stderr}");
    let text = std::fs::read_to_string(&out).expect("written by rank 0");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    // Member k's row: its index, its accepted steps, its time.
    let row = |k: usize| -> (usize, usize, f64) {
        let fields: Vec<&str> = lines[k + 1].split(',').collect();
        let number = |i: usize| fields[i].parse::<f64>().expect("a number");
        (number(0) as usize, number(1) as usize, number(2))
    };
    let (index, steps, t) = row(1);
    assert!(index == 1 && steps > 0 && steps < 300, "mid-run: {text}");
    assert_eq!(t, steps as f64 * 0.1, "{text}");
    let said = format!("member 1 failed after {steps} steps (t = {t}): step {steps} (t = {t})");
    assert!(stdout.contains(&said), "{said} in {stdout}");
    assert_eq!(row(6), (6, 0, 0.0), "{text}");
    assert!(
        stdout.contains("member 6 failed after 0 steps (t = 0): step 1 (t = 0)"),
        "{stdout}"
    );
    for k in [0, 2, 3, 4, 5, 7] {
        assert_eq!(row(k), (k, 300, 30.0), "{text}");
    }
    // A state file no rank can read: every rank fails before its block, still takes part in
    // the gather, and the job ends with rank 0's error, printed once, instead of waiting.
    let missing = dir.join("missing.csv");
    let missing_s = missing.to_string_lossy();
    let mut args = args;
    args[4] = &missing_s;
    args[10] = "50";
    let output = sparkgen_mpi(Some(2), &args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert_eq!(stderr.matches("missing.csv").count(), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_the_ensemble_runs_on_several_ranks_and_everything_in_one_process() {
    let output = sparkgen_mpi(Some(2), &["methods", "--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let refused = stderr
        .matches("only `ensemble` is split over ranks")
        .count();
    assert_eq!(refused, 1, "said once, by rank 0: {stderr}");
    let alone = sparkgen_mpi(None, &["methods", "--json"]);
    assert!(alone.status.success());
    let methods: serde_json::Value = serde_json::from_slice(&alone.stdout).expect("JSON");
    assert!(methods["methods"].as_array().is_some_and(|m| !m.is_empty()));
}
