//! Drives the `sparkgen` binary on runs whose output streams: step counts beyond any memory,
//! `--every` thinning, a Hamiltonian that stops being finite mid-run, and a zero energy.
use super::{library_default, library_default_from, scratch, sparkgen};
use nalgebra::SVector;
use serde_json::Value;
use sparkgen::holonomic::Rattle;
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::Options;
use sparkgen::problem::HolonomicSystem;
use sparkgen::solve;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn text(path: &Path) -> String {
    path.to_string_lossy().to_string()
}

/// The header and the rows of a CSV file.
fn csv(path: &Path) -> (String, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).expect("written");
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default().to_owned();
    let rows = lines
        .map(|l| l.split(',').map(|x| x.parse().expect("a number")).collect())
        .collect();
    (header, rows)
}

/// The shape and the data of a `.npy` file.
fn npy(path: &Path) -> (String, Vec<f64>) {
    let bytes = std::fs::read(path).expect("written");
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0);
    let header = std::str::from_utf8(&bytes[10..10 + len]).expect("ASCII header");
    let data = bytes[10 + len..]
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    (header.to_owned(), data)
}

#[test]
fn step_counts_beyond_2_to_the_53_are_refused_with_exit_code_2() {
    for args in [
        &["run", "--steps", "18446744073709551615"][..],
        &["run", "--steps", "9007199254740993"],
        &["run", "--h", "1e-300", "--t-end", "1"],
    ] {
        let out = sparkgen(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains("2⁵³"), "{args:?}: {stderr}");
    }
}

/// The peak resident set size of process `pid` in kB (`VmHWM` of `/proc/PID/status`).
#[cfg(target_os = "linux")]
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// 10¹² steps (34 GB of trajectory held in memory before) stream: a second into the run the
/// process is still integrating, in a few megabytes. The run is stopped there.
#[cfg(target_os = "linux")]
#[test]
fn a_run_of_a_trillion_steps_streams_in_bounded_memory() {
    let dir = scratch("trillion");
    let path = dir.join("x.npy");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sparkgen"))
        .args([
            "run",
            "--steps",
            "1000000000000",
            "--every",
            "1000000000",
            "--out",
            &text(&path),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let start = Instant::now();
    let mut peak = None;
    while start.elapsed() < Duration::from_millis(1500) {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak_rss_kb(child.id()).or(peak);
        let exited = child.try_wait().expect("the child is observable");
        assert!(exited.is_none(), "the run ended early: {exited:?}");
    }
    let _ = child.kill();
    let _ = child.wait();
    let peak = peak.expect("VmHWM is readable");
    assert!(peak < 64 * 1024, "peak RSS {peak} kB");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--every K` writes the points n = 0, K, 2K, … and the last one, in every format, with the
/// values of the library's run at those steps.
#[test]
fn every_keeps_every_kth_point_and_the_last() {
    let dir = scratch("every");
    let (_, solution) = library_default(25);
    let kept = [0, 10, 20, 25];
    let expected: Vec<Vec<f64>> = kept
        .iter()
        .map(|&n| {
            let (q, p) = (solution.q[n], solution.p[n]);
            vec![solution.t[n], q[0], q[1], p[0], p[1]]
        })
        .collect();
    let agrees = |rows: &[Vec<f64>], what: &str| {
        assert_eq!(rows.len(), kept.len(), "{what}: {rows:?}");
        for (row, want) in rows.iter().zip(&expected) {
            for (a, b) in row.iter().zip(want) {
                assert!(
                    (a - b).abs() <= 1e-13 * b.abs().max(1.0),
                    "{what}: {row:?} vs {want:?}"
                );
            }
        }
    };
    let run = |ext: &str| {
        let path = dir.join(format!("every.{ext}"));
        let out = sparkgen(&[
            "run",
            "--steps",
            "25",
            "--every",
            "10",
            "--out",
            &text(&path),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        path
    };
    let (header, rows) = csv(&run("csv"));
    assert_eq!(
        header,
        "t,q1,q2,p1,p2,relative_energy_error,constraint_residual"
    );
    agrees(&rows, "csv");
    let (shape, data) = npy(&run("npy"));
    assert!(shape.contains("'shape': (4, 7)"), "{shape}");
    agrees(
        &data.chunks(7).map(<[f64]>::to_vec).collect::<Vec<_>>(),
        "npy",
    );
    let json: Value =
        serde_json::from_slice(&std::fs::read(run("json")).expect("written")).expect("JSON");
    assert_eq!(json["energy_error_kind"], "relative");
    assert_eq!(json["columns"][7], "newton_iterations");
    let rows: Vec<Vec<f64>> = json["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            r.as_array()
                .expect("a row")
                .iter()
                .filter_map(Value::as_f64)
                .collect()
        })
        .collect();
    agrees(&rows, "json");
    // The initial point took no step; the others took at least one Newton iteration.
    assert_eq!(rows[0][7], 0.0);
    assert!(rows[1..].iter().all(|r| r[7] >= 1.0), "{rows:?}");
    let out = sparkgen(&["run", "--every", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Hamiltonian `… + c ln(q₁ − 2.05)` with `c = 0` is NaN once `q₁ ≤ 2.05`, while the state
/// (its gradient is `c/(q₁ − 2.05) = 0`) stays the Lotka–Volterra orbit: the run stops there with
/// exit code 1, naming the step and the time, and the trajectory up to the step before is
/// written, every value finite.
#[test]
fn a_hamiltonian_that_turns_nan_stops_the_run_at_its_step() {
    let dir = scratch("nan");
    let file = dir.join("nan.toml");
    std::fs::write(
        &file,
        "kind = \"degenerate_lagrangian\"\ncoordinates = [\"q1\", \"q2\"]\n\
         theta = [\"q2 + ln(q2) / q1\", \"q1\"]\n\
         hamiltonian = \"-q1 - q2 + ln(q1) + 2 * ln(q2) + c * ln(q1 - 2.05)\"\n\
         [parameters]\nc = 0.0\n[initial]\nq = [2.1, 1.0]\n",
    )
    .expect("scratch file");
    let path = dir.join("nan.csv");
    let out = sparkgen(&[
        "run",
        "--problem-file",
        &text(&file),
        "--steps",
        "50",
        "--out",
        &text(&path),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    // The library's orbit from the same state: the first step with q₁ ≤ 2.05.
    let (_, solution) = library_default_from([2.1, 1.0], 50);
    let step = solution
        .q
        .iter()
        .position(|q| q[0] <= 2.05)
        .expect("the orbit passes q₁ = 2.05");
    assert!(step > 1, "{step}");
    let time = solution.t[step];
    assert!(
        stderr.contains(&format!("step {step} (t = {time})")) && stderr.contains("energy H"),
        "{stderr}"
    );
    assert!(stderr.contains(&text(&path)), "{stderr}");
    let (_, rows) = csv(&path);
    assert_eq!(rows.len(), step, "rows 0..{step}");
    assert!(rows.iter().flatten().all(|x| x.is_finite()), "{rows:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pendulum released horizontally has `H₀ = 0`: the run reports the absolute energy error
/// `|H_n|` (the JSON says which), and writes its trajectory.
#[test]
fn a_zero_energy_pendulum_reports_the_absolute_energy_error() {
    let dir = scratch("zero-energy");
    let file = dir.join("horizontal.toml");
    std::fs::write(
        &file,
        "kind = \"holonomic\"\ncoordinates = [\"x\", \"y\"]\nmass = \"m\"\n\
         potential = \"m * g * y\"\nconstraints = [\"x * x + y * y - l * l\"]\n\
         [parameters]\nm = 1.0\ng = 1.0\nl = 1.0\n[initial]\nq = [1.0, 0.0]\np = [0.0, 0.0]\n",
    )
    .expect("scratch file");
    let path = dir.join("horizontal.csv");
    let out = sparkgen(&[
        "run",
        "--problem-file",
        &text(&file),
        "--h",
        "0.05",
        "--steps",
        "200",
        "--out",
        &text(&path),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["energy_error_kind"], "absolute");
    assert_eq!(v["max_relative_energy_error"], Value::Null);
    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let (q0, p0) = (SVector::from([1.0, 0.0]), SVector::from([0.0, 0.0]));
    let solution = solve(&pendulum, Rattle, q0, p0, &Options::new(0.05, 200)).expect("RATTLE runs");
    let errors: Vec<f64> = solution
        .q
        .iter()
        .zip(&solution.p)
        .map(|(q, p)| pendulum.hamiltonian(q, p).abs())
        .collect();
    let max = errors.iter().copied().fold(0.0, f64::max);
    let reported = v["max_energy_error"].as_f64().unwrap_or(f64::NAN);
    assert!(
        max > 0.0 && (reported - max).abs() <= 1e-12,
        "{reported} vs {max}"
    );
    let (header, rows) = csv(&path);
    assert_eq!(
        header,
        "t,q1,q2,p1,p2,absolute_energy_error,constraint_residual"
    );
    assert_eq!(rows.len(), 201);
    for (row, error) in rows.iter().zip(&errors) {
        assert!((row[5] - error).abs() <= 1e-12, "{row:?} vs {error}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
