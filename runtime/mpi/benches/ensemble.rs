//! Ensemble throughput on the guiding-centre file (D = 4, VPRK Gauss s = 3 on the run-time
//! engine): particle-steps per second of 10⁴ members × 10³ steps in one process on one thread,
//! on two threads, and on two MPI ranks of one thread each, side by side in one run, with the
//! ratios to one thread; and each configuration's peak resident memory per process, every
//! member streaming its trajectory (every 100th point) to its own file.
//!
//! `cargo bench -p sparkgen-mpi --features mpi --bench ensemble`. Under `cargo test --benches`
//! (no `--bench` argument) it runs 64 members × 20 steps once and checks only that every
//! configuration finishes with every member. The launcher is `mpirun` or `MPIEXEC`.

use launch::sparkgen_mpi;
use sparkgen::problems::GuidingCentre;
use std::ffi::OsStr;
use std::path::Path;

#[path = "../tests/launch/mod.rs"]
mod launch;

/// One configuration's report.
struct Measured {
    label: &'static str,
    rate: f64,
    seconds: f64,
    peak: Option<f64>,
}

/// A number field of the JSON report.
fn field(report: &serde_json::Value, name: &str) -> Option<f64> {
    report.get(name)?.as_f64()
}

fn main() {
    let measure = std::env::args().any(|a| a == "--bench");
    let (members, steps) = if measure { (10_000, 1_000) } else { (64, 20) };
    let dir = std::env::temp_dir().join(format!("sparkgen-mpi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let gc = GuidingCentre::SCREW_PINCH;
    let [x, y, z, u] = GuidingCentre::SCREW_PINCH_Q0;
    let rows: Vec<String> = (0..members)
        .map(|k| {
            let q = [
                x + 1e-5 * k as f64,
                y,
                z,
                u * (1.0 - 1e-5 * (k % 101) as f64),
            ];
            let (q, p) = gc.initial(q);
            let row: Vec<String> = q.iter().chain(p.iter()).map(|v| format!("{v:?}")).collect();
            row.join(",")
        })
        .collect();
    let initial = dir.join("states.csv");
    std::fs::write(&initial, rows.join("\n") + "\n").expect("scratch file");
    let file = format!(
        "{}/../problems/guiding_centre.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |label: &'static str, ranks: Option<usize>, threads: usize| -> Measured {
        let out = dir.join(format!("{label}.npy"));
        let trajectories = dir.join(format!("{label}-members"));
        let (steps, threads) = (steps.to_string(), threads.to_string());
        let args: [&OsStr; 22] = [
            "ensemble".as_ref(),
            "--problem-file".as_ref(),
            file.as_ref(),
            "--initial".as_ref(),
            initial.as_os_str(),
            "--method".as_ref(),
            "VprkGauss".as_ref(),
            "--stages".as_ref(),
            "3".as_ref(),
            "--h".as_ref(),
            "0.1".as_ref(),
            "--steps".as_ref(),
            steps.as_ref(),
            "--threads".as_ref(),
            threads.as_ref(),
            "--every".as_ref(),
            "100".as_ref(),
            "--trajectories".as_ref(),
            trajectories.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--json".as_ref(),
        ];
        let output = sparkgen_mpi(ranks, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{label}: {stderr}");
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("one JSON report");
        assert_eq!(field(&report, "members"), Some(members as f64), "{report}");
        assert_eq!(field(&report, "failed"), Some(0.0), "{report}");
        let _ = std::fs::remove_dir_all(&trajectories);
        Measured {
            label,
            rate: field(&report, "particle_steps_per_second").expect("a rate"),
            seconds: field(&report, "wall_seconds").expect("a time"),
            peak: field(&report, "peak_memory_bytes"),
        }
    };
    let all = [
        run("1 process, 1 thread", None, 1),
        run("1 process, 2 threads", None, 2),
        run("2 MPI ranks, 1 thread each", Some(2), 1),
    ];
    println!(
        "guiding centre (D = 4), VprkGauss3 on the engine: {members} members x {steps} steps, \
         trajectories every 100th point"
    );
    println!(
        "| configuration | particle-steps/s | wall s | ratio to 1 thread | peak memory per process |"
    );
    println!("|---|---|---|---|---|");
    for m in &all {
        let peak = m.peak.map_or("unknown".to_owned(), |b| {
            format!("{:.1} MiB", b / 1048576.0)
        });
        println!(
            "| {} | {:.4e} | {:.2} | {:.2} | {peak} |",
            m.label,
            m.rate,
            m.seconds,
            m.rate / all[0].rate
        );
    }
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
