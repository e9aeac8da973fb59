//! `sparkgen ensemble`: the guiding-centre file (D = 4) from 16 initial states on two threads
//! (states from a CSV file) equals the library's ensemble of the compiled derive to round-off
//! and, byte for byte, its own one-thread run from the same states as a `.npy` file; thinned
//! trajectories go to one file per member; a failing member of a Lotka–Volterra ensemble is
//! reported with its index and step, the others finish, exit 1; an unusable initial-state file
//! is an argument error naming its line.
use super::{fails_with_code, json, problem_file, scratch, sparkgen};
use sparkgen::ensemble::{EnsembleOptions, solve_ensemble};
use sparkgen::generated::steppers::VprkGauss3;
use sparkgen::integrate::Options;
use sparkgen::problems::{GuidingCentre, LotkaVolterra2d};
use std::num::NonZeroUsize;

/// The rows of a `.npy` file of float64 written by sparkgen: its shape and values.
fn npy(path: &std::path::Path) -> ((usize, usize), Vec<f64>) {
    let bytes = std::fs::read(path).expect("written");
    let length = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = String::from_utf8_lossy(&bytes[10..10 + length]).to_string();
    let shape = header
        .split("'shape': (")
        .nth(1)
        .and_then(|s| s.split(')').next());
    let dims: Vec<usize> = shape
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let values = bytes[10 + length..]
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect();
    ((dims[0], dims[1]), values)
}

/// A `.npy` file of states, as NumPy's `np.save` writes a float64 array.
fn states_npy(path: &std::path::Path, states: &[Vec<f64>]) {
    let dict = format!(
        "{{'descr': '<f8', 'fortran_order': False, 'shape': ({}, {}), }}",
        states.len(),
        states[0].len()
    );
    let header = format!("{dict}{}\n", " ".repeat(128 - 10 - dict.len() - 1));
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for x in states.iter().flatten() {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("scratch file");
}

/// A CSV file of states with a header line.
fn states_csv(path: &std::path::Path, states: &[Vec<f64>]) {
    let d = states[0].len() / 2;
    let names: Vec<String> = (1..=d)
        .map(|i| format!("q{i}"))
        .chain((1..=d).map(|i| format!("p{i}")))
        .collect();
    let mut text = names.join(",") + "\n";
    for s in states {
        let row: Vec<String> = s.iter().map(|x| format!("{x:?}")).collect();
        text += &(row.join(",") + "\n");
    }
    std::fs::write(path, text).expect("scratch file");
}

#[test]
fn an_ensemble_of_the_guiding_centre_file() {
    let dir = scratch("ensemble");
    let gc = GuidingCentre::SCREW_PINCH;
    let [x, y, z, u] = GuidingCentre::SCREW_PINCH_Q0;
    let initial: Vec<_> = (0..16)
        .map(|k| gc.initial([x + 0.003 * k as f64, y, z, u]))
        .collect();
    let rows: Vec<Vec<f64>> = initial
        .iter()
        .map(|(q, p)| q.iter().chain(p.iter()).copied().collect())
        .collect();
    let (csv, npy_states) = (dir.join("states.csv"), dir.join("states.npy"));
    states_csv(&csv, &rows);
    states_npy(&npy_states, &rows);
    let file = problem_file("guiding_centre.toml");
    let trajectories = dir.join("members");
    // The CSV states on two threads, the same states as `.npy` on one.
    let run = |threads: &str, out: &str| {
        let states = if threads == "2" { &csv } else { &npy_states };
        let states = states.to_string_lossy().to_string();
        let out = dir.join(out).to_string_lossy().to_string();
        let trajectories = trajectories.to_string_lossy().to_string();
        let args = [
            "ensemble",
            "--problem-file",
            &file,
            "--initial",
            &states,
            "--method",
            "VprkGauss",
            "--stages",
            "3",
            "--h",
            "0.1",
            "--steps",
            "100",
            "--out",
            &out,
            "--threads",
            threads,
            "--trajectories",
            &trajectories,
            "--every",
            "25",
            "--json",
        ];
        let output = sparkgen(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        json(&output)
    };
    let v = run("2", "two.npy");
    assert_eq!(
        (v["members"].as_u64(), v["failed"].as_u64()),
        (Some(16), Some(0)),
        "{v}"
    );
    assert_eq!((&v["threads"], &v["ranks"]), (&2.into(), &1.into()), "{v}");
    // The peak resident memory, where the system tells (Linux's /proc), at least the states'.
    let peak = v["peak_memory_bytes"].as_u64();
    assert!(
        peak.is_some_and(|b| b > 16 * 8 * 8) || std::fs::metadata("/proc/self/status").is_err(),
        "{v}"
    );
    assert!(
        v["particle_steps_per_second"].as_f64().unwrap_or(0.0) > 0.0,
        "{v}"
    );
    // The method's stage functions were compiled to machine code, once for every member.
    assert!(
        v["compile_seconds"].as_f64().is_some_and(|s| s > 0.0),
        "{v}"
    );
    run("1", "one.npy");
    let two = std::fs::read(dir.join("two.npy")).expect("written");
    assert_eq!(two, std::fs::read(dir.join("one.npy")).expect("written"));
    let ((members, columns), values) = npy(&dir.join("two.npy"));
    assert_eq!((members, columns), (16, 11));
    let options = Options::new(0.1, 100);
    let threads = EnsembleOptions {
        threads: NonZeroUsize::new(2),
        trajectories: None,
    };
    let compiled = solve_ensemble(&gc, VprkGauss3, &initial, &options, &threads).expect("runs");
    let mut worst = 0.0f64;
    for (row, m) in values.chunks_exact(columns).zip(&compiled.members) {
        assert_eq!((row[0], row[1]), (m.index as f64, 100.0));
        for (a, b) in row[3..].iter().zip(m.q.iter().chain(&m.p)) {
            worst = worst.max((a - b).abs() / b.abs().max(1.0));
        }
    }
    println!("command against the compiled ensemble: {worst:.1e}");
    assert!(worst <= 1e-13, "{worst:e}");
    // n = 0, 25, 50, 75, 100.
    let ((points, columns), _) = npy(&trajectories.join("member_07.npy"));
    assert_eq!((points, columns), (5, 9));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_member_and_a_bad_state_file() {
    let dir = scratch("ensemble-failing");
    let lv = LotkaVolterra2d::UPSTREAM;
    let rows: Vec<Vec<f64>> = (0..8)
        .map(|k| {
            let q = if k == 3 {
                [1e-9, 8.0]
            } else {
                [2.0, 1.0 + 0.01 * k as f64]
            };
            let (q, p) = lv.initial(q);
            q.iter().chain(p.iter()).copied().collect()
        })
        .collect();
    let states = dir.join("states.csv");
    states_csv(&states, &rows);
    let (file, out) = (problem_file("lotka_volterra.toml"), dir.join("final.csv"));
    let (states, out) = (states.to_string_lossy(), out.to_string_lossy());
    let args = [
        "ensemble",
        "--problem-file",
        &file,
        "--initial",
        &states,
        "--method",
        "VprkGauss",
        "--stages",
        "3",
        "--steps",
        "50",
        "--out",
        &out,
    ];
    let stderr = fails_with_code(&args, 1);
    assert!(
        stderr.contains("1 of 8 members failed; member 3"),
        "{stderr}"
    );
    assert!(stderr.contains("step 1"), "{stderr}");
    // The file named is the final states' file, and said to be so (not a trajectory).
    assert!(
        stderr.contains("the final state of every member")
            && stderr.ends_with(&format!("was written to {out}\n")),
        "{stderr}"
    );
    let text = std::fs::read_to_string(dir.join("final.csv")).expect("written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[4].starts_with("3,0,"), "{text}");
    assert!(lines[5].starts_with("4,50,"), "{text}");
    // Three numbers where a state has four: the file and the line.
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "1,2,3,4\n1,2,3\n").expect("scratch file");
    let bad = bad.to_string_lossy();
    let args = [
        "ensemble",
        "--problem-file",
        &file,
        "--initial",
        &bad,
        "--out",
        &out,
    ];
    let stderr = fails_with_code(&args, 2);
    assert!(
        stderr.contains("bad.csv:2: 3 values; a state has 4"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sparkgen ensemble` on the Lotka–Volterra file from the states file `states`, 5 steps,
/// JSON.
fn ensemble_from(states: &std::path::Path, out: &std::path::Path) -> Vec<String> {
    let file = problem_file("lotka_volterra.toml");
    [
        "ensemble",
        "--problem-file",
        &file,
        "--initial",
        &states.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--steps",
        "5",
        "--project-initial",
        "--json",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// States files are read strictly: a first line with a number in it is a row, so a bad field
/// there is an error at its line and column (not a header that drops a member); a UTF-8
/// byte-order mark is skipped (not a header that drops the first row); a path that is not a
/// regular file (a link to /dev/zero) is refused at once; an input of an unknown extension
/// says it cannot be read, not written.
#[test]
fn states_files_are_read_strictly() {
    let dir = scratch("strict_states");
    let out = dir.join("final.npy");
    let run = |states: &std::path::Path| {
        let args = ensemble_from(states, &out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        sparkgen(&args)
    };
    let refused = |states: &std::path::Path, needle: &str| {
        let args = ensemble_from(states, &out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stderr = fails_with_code(&args, 2);
        assert!(stderr.contains(needle), "`{needle}` not in {stderr}");
    };
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "2.0,1.0,abc,2.0\n2.0,1.0,2.0,1.0\n").expect("scratch file");
    refused(&bad, "bad.csv:1:9: `abc` is not a number");
    let bom = dir.join("bom.csv");
    std::fs::write(&bom, "\u{feff}2.0,1.0,2.0,1.0\n1.5,1.2,1.5,1.5\n").expect("scratch file");
    let output = run(&bom);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = json(&output);
    assert_eq!(report["members"], 2, "{report}");
    let named = dir.join("named.csv");
    std::fs::write(&named, "q1,q2,p1,p2\n2.0,1.0,2.0,1.0\n").expect("scratch file");
    assert_eq!(json(&run(&named))["members"], 1);
    #[cfg(unix)]
    {
        let zero = dir.join("zero.npy");
        std::os::unix::fs::symlink("/dev/zero", &zero).expect("a symbolic link");
        refused(&zero, "zero.npy: not a regular file");
    }
    let text = dir.join("states.txt");
    std::fs::write(&text, "2.0,1.0,2.0,1.0\n").expect("scratch file");
    refused(&text, "states.txt: unknown extension, use .csv or .npy");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A final-states file that cannot be written is found before any member runs: the error names
/// it, and no member's trajectory was started.
#[test]
fn an_unwritable_out_is_found_before_the_members_run() {
    let dir = scratch("unwritable_out");
    let states = dir.join("states.csv");
    std::fs::write(&states, "2.0,1.0,2.0,1.0\n").expect("scratch file");
    let out = dir.join("no such directory").join("final.npy");
    let members = dir.join("members");
    let mut args = ensemble_from(&states, &out);
    args.extend([
        "--trajectories".to_owned(),
        members.to_string_lossy().into_owned(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stderr = fails_with_code(&args, 1);
    assert!(stderr.contains("final.npy"), "{stderr}");
    assert!(!members.exists(), "a member ran: {}", members.display());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Worker threads are bounded: more than a process starts is refused before any member runs,
/// naming the limit (exit 2); more than the members start one per member.
#[test]
fn ensemble_threads_are_bounded() {
    let dir = scratch("threads");
    let states = dir.join("states.csv");
    std::fs::write(
        &states,
        "2.0,1.0,2.0,1.0\n1.5,1.2,1.5,1.5\n1.8,0.9,0.8,1.8\n",
    )
    .expect("scratch file");
    let out = dir.join("final.npy");
    let with_threads = |threads: &str| {
        let mut args = ensemble_from(&states, &out);
        args.extend(["--threads".to_owned(), threads.to_owned()]);
        args
    };
    let refused = with_threads("100000");
    let refused: Vec<&str> = refused.iter().map(String::as_str).collect();
    let stderr = fails_with_code(&refused, 2);
    assert!(stderr.contains("at most 1024 worker threads"), "{stderr}");
    let capped = with_threads("1000");
    let capped: Vec<&str> = capped.iter().map(String::as_str).collect();
    let report = json(&sparkgen(&capped));
    assert_eq!(report["threads"], 3, "{report}");
    assert_eq!(report["members"], 3, "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}
