//! Drives the `sparkgen` binary: every subcommand, `--json` checked against the library,
//! `--out` files parsed back, and every error case exits non-zero with one line and no panic.
#![cfg(feature = "cli")]

use nalgebra::SVector;
use serde_json::Value;
use sparkgen::cli::registry::{
    HAMILTONIAN_STEPPERS, HOLONOMIC_STEPPERS, IMPLICIT_STEPPERS, STEPPERS, long_run_default,
};
use sparkgen::diagnostics::{max_constraint_residual, max_relative_energy_error};
use sparkgen::engine::Named;
use sparkgen::generated::catalogue::PAIRS;
use sparkgen::generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN;
use sparkgen::generated::steppers::{
    HsparkLobattoIIIAIIIB3, IdaeVparkLobattoIIIBIIIApSymplectic3, RattleLobattoIIIAIIIB3,
    VsparkPrimaryGlrkpMidpoint4,
};
use sparkgen::generated::tableaus::gauss::{GAUSS_1, GAUSS_2};
use sparkgen::generated::types::CarriedMultiplier;
use sparkgen::holonomic::Rattle;
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::Options;
use sparkgen::problem_file::ProblemFile;
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d, LotkaVolterraDirac};
use sparkgen::solution::Solution;
use sparkgen::solve;
use sparkgen::stage::StageMethod;
use std::path::PathBuf;
use std::process::{Command, Output};

// The command's cases that are not about one subcommand's output, in files of their own; one
// test binary for all of them.
#[path = "cli/dimensions.rs"]
mod dimensions;
#[path = "cli/domain.rs"]
mod domain;
#[path = "cli/ensemble.rs"]
mod ensemble;
#[path = "cli/exit_codes.rs"]
mod exit_codes;
#[path = "cli/holonomic_shapes.rs"]
mod holonomic_shapes;
#[path = "cli/lagrangian_files.rs"]
mod lagrangian_files;
#[path = "cli/point_vortices.rs"]
mod point_vortices;
#[path = "cli/recommendation.rs"]
mod recommendation;
#[path = "cli/scale.rs"]
mod scale;
#[path = "cli/streaming.rs"]
mod streaming;
#[path = "cli/verify_filter.rs"]
mod verify_filter;

fn sparkgen(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_sparkgen"))
        .args(args)
        .output()
        .expect("the binary starts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{args:?} panicked: {stderr}"
    );
    output
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON object ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// The built-in `pendulum` problem's system (m = g = ℓ = 1).
const PENDULUM: Pendulum = Pendulum {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};

/// The arguments of `run --json` of `method` with `stages` stages on the problem file `file`:
/// `steps` steps of size `h`.
fn run_file_args<'a>(
    file: &'a str,
    method: &'a str,
    stages: &'a str,
    h: &'a str,
    steps: &'a str,
) -> [&'a str; 12] {
    [
        "run",
        "--problem-file",
        file,
        "--method",
        method,
        "--stages",
        stages,
        "--h",
        h,
        "--steps",
        steps,
        "--json",
    ]
}

/// The JSON object of a successful run of `args`.
fn success_json(args: &[&str]) -> Value {
    let out = sparkgen(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

/// A degenerate Lagrangian problem file on `(q1, q2)` with `ϑ = theta`, `H = hamiltonian`
/// (the Hamiltonian on line 4) and `q₀`.
fn degenerate_file(theta: [&str; 2], hamiltonian: &str, q0: [f64; 2]) -> String {
    format!(
        "kind = \"degenerate_lagrangian\"\ncoordinates = [\"q1\", \"q2\"]\n\
         theta = [\"{}\", \"{}\"]\nhamiltonian = \"{hamiltonian}\"\n\
         [initial]\nq = [{:?}, {:?}]\n",
        theta[0], theta[1], q0[0], q0[1]
    )
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sparkgen-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-13 * a.abs().max(1.0)
}

/// The stepper type of the command's default method for degenerate Lagrangians, the one the
/// generated facts name (`LONG_RUN_DEGENERATE_LAGRANGIAN`, checked by [`default_method`]).
type DefaultMethod = VsparkPrimaryGlrkpMidpoint4;

/// The default method's family and stage count as the command reports them, after checking that
/// [`DefaultMethod`] is the stepper the generated facts name.
fn default_method() -> (&'static str, usize) {
    let info = long_run_default().expect("the generated default is a listed stepper");
    assert_eq!(
        (
            info.name,
            <DefaultMethod as StageMethod<LotkaVolterra2d, 2>>::NAME
        ),
        (
            LONG_RUN_DEGENERATE_LAGRANGIAN,
            LONG_RUN_DEGENERATE_LAGRANGIAN
        ),
        "the generated default method changed: DefaultMethod must be its type"
    );
    (info.family, info.stages)
}

/// The library's run of the default problem and method for `steps` steps of h = 0.1, from
/// `q₀` (`p₀ = ϑ(q₀)`).
fn library_default_from(q0: [f64; 2], steps: usize) -> (LotkaVolterra2d, Solution<2>) {
    let (family, stages) = default_method();
    let mut file = ProblemFile::read(problem_file("lotka_volterra.toml")).expect("shipped");
    file.set_initial(&q0, None).expect("finite");
    let ProblemFile::DegenerateLagrangian(lv_file) = &file else {
        panic!("lotka_volterra.toml is a degenerate Lagrangian");
    };
    let view = lv_file.view::<2>().expect("D = 2");
    let (q0, p0) = view.initial();
    let method = Named::new(family, stages).expect("a catalogue method");
    let solution =
        solve(&view, method, q0, p0, &Options::new(0.1, steps)).expect("the default run converges");
    (LotkaVolterra2d::UPSTREAM, solution)
}

/// The library's run of the default problem and method for `steps` steps of h = 0.1.
fn library_default(steps: usize) -> (LotkaVolterra2d, Solution<2>) {
    library_default_from(LotkaVolterra2d::UPSTREAM_Q0, steps)
}

#[test]
fn run_json_matches_the_library() {
    let out = sparkgen(&["run", "--steps", "300", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let (lv, solution) = library_default(300);
    let (family, stages) = default_method();
    assert_eq!(v["problem"], "lotka-volterra");
    assert_eq!(v["method"], family);
    assert_eq!(v["stages"], stages);
    assert_eq!(v["h"], 0.1);
    assert_eq!(v["steps"], 300);
    assert_eq!(v["path"], "engine");
    assert!(v["error"].is_null());
    let q = floats(&v["q_final"]);
    let p = floats(&v["p_final"]);
    for i in 0..2 {
        assert!(
            close(q[i], solution.q[300][i]),
            "q {q:?} vs {}",
            solution.q[300]
        );
        assert!(
            close(p[i], solution.p[300][i]),
            "p {p:?} vs {}",
            solution.p[300]
        );
    }
    let phi = max_constraint_residual(&lv, &solution).expect("non-empty");
    let energy = max_relative_energy_error(&lv, &solution).expect("H₀ ≠ 0");
    assert!(close(
        v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN),
        phi
    ));
    assert!(close(
        v["max_relative_energy_error"].as_f64().unwrap_or(f64::NAN),
        energy
    ));
    let iterations: usize = solution.stats.iter().map(|s| s.iterations).sum();
    let mean = v["newton_iterations_mean"].as_f64().unwrap_or(f64::NAN);
    assert!(close(mean, iterations as f64 / 300.0), "{mean}");
    assert!(v["wall_seconds"].as_f64().is_some_and(|w| w > 0.0));
    // The compiled stepper on the derive: the same method and equations in other arithmetic
    // (kernels from the derive's expressions, the stage code unrolled by the macro), equal to
    // round-off over the run.
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let compiled = solve(
        &lv,
        DefaultMethod::default(),
        q0,
        p0,
        &Options::new(0.1, 300),
    )
    .expect("the compiled run converges");
    let worst = (0..2)
        .map(|i| {
            (q[i] - compiled.q[300][i])
                .abs()
                .max((p[i] - compiled.p[300][i]).abs())
        })
        .fold(0.0, f64::max);
    println!("the command against the compiled stepper on the derive, 300 steps: {worst:.1e}");
    assert!(worst <= 1e-12, "{worst:e}");
    // The same run without the subcommand, and `--t-end` for `--steps`.
    let bare = json(&sparkgen(&["--t-end", "30", "--json"]));
    assert_eq!(bare["steps"], 300);
    assert_eq!(bare["q_final"], v["q_final"]);
}

#[test]
fn default_run_prints_the_summary() {
    let out = sparkgen(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let (_, solution) = library_default(10_000);
    for needle in [
        "steps per second",
        "Newton iterations per step",
        "max |p − ϑ(q)|∞",
        "max relative energy error",
        "final state t = 1000",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in\n{text}");
    }
    assert!(
        text.contains(&format!("{:.15}", solution.q[10_000][0])),
        "{text}"
    );
}

#[test]
fn out_files_parse_back_to_the_trajectory() {
    let dir = scratch("out");
    let (lv, solution) = library_default(50);
    for ext in ["csv", "json", "npy"] {
        let path = dir.join(format!("run.{ext}"));
        let path_text = path.to_string_lossy().to_string();
        let out = sparkgen(&["run", "--steps", "50", "--out", &path_text]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bytes = std::fs::read(&path).expect("written");
        // Rows (t, q1, q2, p1, p2, energy error, residual), one per point.
        let rows: Vec<Vec<f64>> = match ext {
            "csv" => {
                let text = String::from_utf8(bytes).expect("UTF-8");
                let mut lines = text.lines();
                assert_eq!(
                    lines.next(),
                    Some("t,q1,q2,p1,p2,relative_energy_error,constraint_residual")
                );
                lines
                    .map(|l| l.split(',').map(|x| x.parse().expect("a number")).collect())
                    .collect()
            }
            "json" => {
                let v: Value = serde_json::from_slice(&bytes).expect("JSON");
                assert_eq!(v["energy_error_kind"], "relative");
                assert_eq!(v["columns"].as_array().map(Vec::len), Some(8));
                // The last column holds the Newton iterations of the step.
                v["rows"]
                    .as_array()
                    .expect("rows")
                    .iter()
                    .map(|row| floats(row)[..7].to_vec())
                    .collect()
            }
            _ => {
                assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
                let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
                let header = std::str::from_utf8(&bytes[10..10 + len]).expect("ASCII header");
                assert!(header.contains("'shape': (51, 7)"), "{header}");
                assert_eq!((10 + len) % 64, 0);
                let data: Vec<f64> = bytes[10 + len..]
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect();
                data.chunks(7).map(<[f64]>::to_vec).collect()
            }
        };
        assert_eq!(rows.len(), 51, "{ext}");
        let h0 = lv.hamiltonian(&solution.q[0]);
        for (n, row) in rows.iter().enumerate() {
            let (q, p) = (solution.q[n], solution.p[n]);
            let expected = [
                solution.t[n],
                q[0],
                q[1],
                p[0],
                p[1],
                ((lv.hamiltonian(&q) - h0) / h0).abs(),
                (p - lv.theta(&q)).amax(),
            ];
            for (a, b) in row.iter().zip(expected) {
                assert!(close(*a, b), "{ext} row {n}: {row:?} vs {expected:?}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

use sparkgen::problem::DegenerateLagrangian;

#[test]
fn plots_are_written_as_png_and_svg() {
    let dir = scratch("plot");
    for (ext, magic) in [("png", &b"\x89PNG"[..]), ("svg", &b"<svg"[..])] {
        let path = dir.join(format!("run.{ext}"));
        let path_text = path.to_string_lossy().to_string();
        let out = sparkgen(&["run", "--steps", "100", "--plot", &path_text, "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(json(&out)["plot"], path_text.as_str());
        let bytes = std::fs::read(&path).expect("written");
        assert!(
            bytes.windows(magic.len()).take(200).any(|w| w == magic),
            "{ext} does not start like one"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn holonomic_run_matches_rattle() {
    let v = success_json(&["run", "pendulum", "--h", "0.05", "--steps", "200", "--json"]);
    assert_eq!(v["method"], "Rattle");
    assert_eq!(v["kind"], "holonomic");
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let solution = solve(&PENDULUM, Rattle, q0, p0, &Options::new(0.05, 200)).expect("RATTLE runs");
    let q = floats(&v["q_final"]);
    assert!(
        close(q[0], solution.q[200][0]) && close(q[1], solution.q[200][1]),
        "{q:?}"
    );
    assert!(
        v["max_constraint_residual"]
            .as_f64()
            .is_some_and(|r| r < 1e-13)
    );
}

#[test]
fn methods_lists_every_stepper_with_the_catalogue_orders() {
    let out = sparkgen(&["methods", "--json"]);
    assert!(out.status.success());
    let v = json(&out);
    let rows = v["methods"].as_array().expect("a list");
    assert_eq!(
        rows.len(),
        STEPPERS.len()
            + IMPLICIT_STEPPERS.len()
            + HAMILTONIAN_STEPPERS.len()
            + HOLONOMIC_STEPPERS.len()
            + 2,
        "steppers (degenerate, implicit-DAE, Hamiltonian-DAE, holonomic) plus RATTLE and SHAKE"
    );
    for s in HOLONOMIC_STEPPERS {
        let row = rows
            .iter()
            .find(|r| r["name"] == s.name)
            .unwrap_or_else(|| panic!("{} missing", s.name));
        assert_eq!(row["kinds"][0], "holonomic");
        assert_eq!(row["declared_order"], 2 * s.stages - 2);
        assert_eq!(row["constraint_preserving"], true);
    }
    for s in STEPPERS {
        let row = rows
            .iter()
            .find(|r| r["name"] == s.name)
            .unwrap_or_else(|| panic!("{} missing", s.name));
        assert_eq!(row["declared_order"], s.order);
        let pair = PAIRS
            .iter()
            .find(|p| p.name == s.pair)
            .unwrap_or_else(|| panic!("{}: no pair", s.name));
        assert_eq!(row["computed_order"], pair.computed_order, "{}", s.name);
        assert_eq!(
            row["constraint_preserving"], s.facts.preserves_constraint,
            "{}",
            s.name
        );
        // The carried multiplier and the pin as the facts say.
        let multiplier = match s.facts.multiplier {
            None => Value::Null,
            Some(CarriedMultiplier::Projection) => Value::from("projection"),
            Some(CarriedMultiplier::Velocity) => Value::from("velocity"),
        };
        assert_eq!(row["carried_multiplier"], multiplier, "{}", s.name);
        assert_eq!(
            row["pinned"].is_null(),
            s.facts.pinned.is_none(),
            "{}",
            s.name
        );
    }
    let carried = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .map(|r| r["carried_multiplier"].clone())
    };
    // SPARK's Λ̃ on the view of a degenerate Lagrangian are velocities, so it carries none there;
    // on an implicit DAE SPARK carries u's multiplier, the velocity.
    assert_eq!(carried("SparkGlrk2"), Some(Value::Null));
    assert_eq!(
        carried("VparkGlrkpSymplectic2"),
        Some(Value::from("projection"))
    );
    assert_eq!(carried("IdaeSparkGlrk2"), Some(Value::from("velocity")));
    assert_eq!(carried("HparkGlrk2"), Some(Value::from("velocity")));
    let ab2 = rows.iter().find(|r| r["name"] == "SlrkLobattoIIIAB2");
    let limits = ab2
        .map(|r| r["limitations"].to_string())
        .unwrap_or_default();
    assert!(limits.contains("step 267"), "{limits}");
    // VPARK with R∞ = −1 does not carry a physical multiplier (tests/tests/idae_pendulum.rs).
    let g3 = rows
        .iter()
        .find(|r| r["name"] == "IdaeVparkGlrkpSymplectic3")
        .map(|r| r["limitations"].to_string())
        .unwrap_or_default();
    assert!(g3.contains("inconsistent"), "{g3}");
    let text = String::from_utf8_lossy(&sparkgen(&["methods"]).stdout).to_string();
    assert!(
        text.contains("SlrkLobattoIIIE3") && text.contains("Rattle"),
        "{text}"
    );
}

#[test]
fn tableau_gives_f64_and_exact_values() {
    let v = json(&sparkgen(&["tableau", "gauss", "2", "--exact", "--json"]));
    assert_eq!(v["name"], "Gauss(2)");
    assert_eq!(floats(&v["c"]), GAUSS_2.c);
    assert_eq!(floats(&v["b"]), GAUSS_2.b);
    for (i, row) in GAUSS_2.a.iter().enumerate() {
        assert_eq!(floats(&v["a"][i]), row);
        for (j, a) in row.iter().enumerate() {
            // 40 significant digits round to the emitted f64.
            let exact = v["exact"]["a"][i][j].as_str().expect("text");
            assert_eq!(exact.parse::<f64>().ok(), Some(*a), "{exact}");
        }
    }
    let v = json(&sparkgen(&["tableau", "Gauss", "1", "--exact", "--json"]));
    assert_eq!(v["exact"]["c"][0], "1/2");
    assert_eq!(floats(&v["c"]), GAUSS_1.c);
    let plain = json(&sparkgen(&["tableau", "Gauss", "1", "--json"]));
    assert!(plain.get("exact").is_none());
    let text =
        String::from_utf8_lossy(&sparkgen(&["tableau", "LobattoIIIA", "3", "--exact"]).stdout)
            .to_string();
    assert!(
        text.contains("LobattoIIIA(3)") && text.contains("= 1/6"),
        "{text}"
    );
}

#[test]
fn verify_quick_reports_orders_and_residuals() {
    let dir = scratch("verify");
    let dir_text = dir.to_string_lossy().to_string();
    let out = sparkgen(&["verify", "--quick", "--json", "--report", &dir_text]);
    let v = json(&out);
    let methods = v["methods"].as_array().expect("a list");
    assert_eq!(
        methods.len(),
        // The implicit-DAE steppers run on the view of Lotka–Volterra and on the index-2
        // pendulum, the Hamiltonian-DAE steppers on the view of Lotka–Volterra.
        STEPPERS.len()
            + 2 * IMPLICIT_STEPPERS.len()
            + HAMILTONIAN_STEPPERS.len()
            + HOLONOMIC_STEPPERS.len()
            + 2
    );
    assert_eq!(v["path"], "engine");
    for m in methods {
        // The expected order: the declared one, or the pinned one (`sparkgen_codegen::measured`);
        // methods pinned to fail, to behave erratically, to converge to something else or to
        // have a growing multiplier are checked in `spark_verify.rs`.
        let pinned = &m["pinned"];
        let expected = pinned["order"]["order"]
            .as_f64()
            .or(m["declared_order"].as_f64())
            .unwrap_or(f64::NAN);
        let pass = m["measured_order"]
            .as_f64()
            .is_some_and(|p| (p - expected).abs() <= 0.3)
            && m["points"].as_u64().is_some_and(|n| n >= 3);
        let other = ["fails", "erratic", "parasitic", "no_convergence"];
        if other.iter().all(|k| pinned[k].is_null()) {
            assert_eq!(m["pass"], pass, "{m}");
        }
        let family = m["family"].as_str().unwrap_or_default();
        if m["constraint_preserving"] == true && pinned.is_null() {
            let bound = if family.starts_with("Slrk") {
                1e-13
            } else {
                1e-12
            };
            let r = m["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
            assert!(r < bound, "{}: residual {r}", m["name"]);
        }
    }
    // The SLRK order 2s − 2 of the library's own order test.
    let e3 = methods.iter().find(|m| m["name"] == "SlrkLobattoIIIE3");
    assert!(e3.is_some_and(|m| m["pass"] == true), "{e3:?}");
    // The generated RATTLE steppers reach 2s − 2 on the pendulum (tests/rattle_lobatto.rs) and
    // hold c(q) = 0 to round-off.
    for s in HOLONOMIC_STEPPERS {
        let m = methods
            .iter()
            .find(|m| m["name"] == s.name)
            .unwrap_or_else(|| panic!("{} missing", s.name));
        assert_eq!(m["problem"], "pendulum");
        assert_eq!(m["declared_order"], 2 * s.stages - 2);
        assert_eq!(m["pass"], true, "{m}");
        let r = m["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
        assert!(r < 1e-14, "{}: residual {r}", s.name);
    }
    let all_pass = v["passed"] == v["total"];
    assert_eq!(out.status.success(), all_pass);
    let report = std::fs::read_to_string(dir.join("verify.md")).expect("report written");
    assert!(
        report.contains("| SlrkLobattoIIIE3 |") && report.contains("order_SlrkLobattoIIIE.png")
    );
    let png = std::fs::read(dir.join("order_SlrkLobattoIIIE.png")).expect("plot written");
    assert_eq!(&png[..4], b"\x89PNG");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shipped problem file.
fn problem_file(name: &str) -> String {
    format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The `--out` CSV rows of a successful run of `args`.
fn csv_rows(args: &[&str], path: &std::path::Path) -> Vec<Vec<f64>> {
    let path_text = path.to_string_lossy().to_string();
    let out = sparkgen(&[args, &["--out", &path_text]].concat());
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(path).expect("written");
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().expect("a number")).collect())
        .collect()
}

/// Runs `args` on the problem `file` and on the built-in problem `builtin`; the number of
/// trajectory points and the largest difference of the `--out` tables (∞ if their shapes
/// differ).
fn file_against_builtin(
    dir: &std::path::Path,
    args: &[&str],
    file: &str,
    builtin: &str,
) -> (usize, f64) {
    let a = csv_rows(
        &[args, &["--problem-file", file]].concat(),
        &dir.join("file.csv"),
    );
    let b = csv_rows(&[args, &[builtin]].concat(), &dir.join("builtin.csv"));
    if a.len() != b.len() || a.iter().zip(&b).any(|(x, y)| x.len() != y.len()) {
        return (a.len(), f64::INFINITY);
    }
    let worst = a
        .iter()
        .zip(&b)
        .flat_map(|(x, y)| x.iter().zip(y).map(|(u, v)| (u - v).abs()))
        .fold(0.0, f64::max);
    (a.len(), worst)
}

#[test]
fn lotka_volterra_file_gives_the_builtin_trajectory() {
    let dir = scratch("lv-file");
    let common = [
        "run",
        "--method",
        "SlrkLobattoIIIE",
        "--stages",
        "3",
        "--h",
        "0.1",
    ];
    let common = [&common[..], &["--steps", "500"]].concat();
    let file = problem_file("lotka_volterra.toml");
    let (points, worst) = file_against_builtin(&dir, &common, &file, "lotka-volterra");
    assert_eq!(points, 501);
    println!("lotka_volterra.toml vs built-in over 500 steps: max difference {worst:.1e}");
    assert!(worst <= 1e-13, "{worst:e}");
    let v = json(&sparkgen(
        &[&common[..], &["--problem-file", &file, "--json"]].concat(),
    ));
    assert_eq!(v["path"], "engine");
    assert_eq!(v["problem"], file.as_str());
    let builtin = json(&sparkgen(&[&common[..], &["--json"]].concat()));
    assert_eq!(builtin["path"], "engine");
    // `--param` reaches the file's parameters: a₁ changes the trajectory.
    let changed = json(&sparkgen(
        &[
            &common[..],
            &["--problem-file", &file, "--param", "a1=-1.5", "--json"],
        ]
        .concat(),
    ));
    assert_ne!(changed["q_final"], v["q_final"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn holonomic_file_gives_the_builtin_trajectory_for_every_method() {
    let dir = scratch("pendulum-file");
    let file = problem_file("pendulum.toml");
    for (method, stages) in [
        ("Rattle", "1"),
        ("Shake", "1"),
        ("RattleLobattoIIIAIIIB", "3"),
        ("RattleLobattoIIIAIIIB", "5"),
    ] {
        let common = [
            "run", "--method", method, "--stages", stages, "--h", "0.05", "--steps", "200",
        ];
        let (points, worst) = file_against_builtin(&dir, &common, &file, "pendulum");
        assert_eq!(points, 201);
        println!("pendulum.toml vs built-in, {method}({stages}): max difference {worst:.1e}");
        assert!(worst <= 1e-13, "{method}({stages}): {worst:e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rattle_lobatto_run_matches_the_library() {
    let (h, steps) = (0.05, 400);
    let v = success_json(&[
        "run",
        "pendulum",
        "--method",
        "RattleLobattoIIIAIIIB",
        "--stages",
        "3",
        "--h",
        "0.05",
        "--steps",
        "400",
        "--json",
    ]);
    assert_eq!(v["method"], "RattleLobattoIIIAIIIB");
    assert_eq!(v["stages"], 3);
    assert_eq!(v["path"], "engine");
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let solution = solve(
        &PENDULUM,
        RattleLobattoIIIAIIIB3::<1>,
        q0,
        p0,
        &Options::new(h, steps),
    )
    .expect("the library run converges");
    let (q, p) = (floats(&v["q_final"]), floats(&v["p_final"]));
    for i in 0..2 {
        assert!(
            close(q[i], solution.q[steps][i]),
            "q {q:?} vs {}",
            solution.q[steps]
        );
        assert!(
            close(p[i], solution.p[steps][i]),
            "p {p:?} vs {}",
            solution.p[steps]
        );
    }
    let iterations: usize = solution.stats.iter().map(|s| s.iterations).sum();
    let mean = v["newton_iterations_mean"].as_f64().unwrap_or(f64::NAN);
    assert!(close(mean, iterations as f64 / steps as f64), "{mean}");
    // c(q) = |q|² − ℓ², relative to ℓ² = 1: at round-off over the run.
    let residual = solution
        .q
        .iter()
        .map(|q| (q.norm_squared() - 1.0).abs())
        .fold(0.0, f64::max);
    let reported = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
    assert!(close(reported, residual), "{reported} vs {residual}");
    assert!(reported < 1e-14, "{reported}");
}

#[test]
fn index_two_pendulum_runs_the_default_vpark_as_the_library_does() {
    let (h, steps) = (0.05, 200);
    let v = success_json(&[
        "run",
        "index-two-pendulum",
        "--param",
        "theta=0.8",
        "--h",
        "0.05",
        "--steps",
        "200",
        "--json",
    ]);
    assert_eq!(v["kind"], "implicit-dae");
    assert_eq!(v["method"], "IdaeVparkLobattoIIIBIIIApSymplectic");
    assert_eq!(v["stages"], 3);
    type L3 = IdaeVparkLobattoIIIBIIIApSymplectic3<1>;
    let problem = IndexTwoPendulum::default();
    let (q0, p0) = problem.initial_state(0.8, 0.0);
    let solution = solve(&problem, L3::default(), q0, p0, &Options::new(h, steps))
        .expect("the library run converges");
    // φ = q·p/m at round-off; the energy error of an order-2 method, reported.
    assert_dae_run(&v, &solution.q[steps]);
}

/// The `--json` output `v` of a DAE run ends at `q_final` (the library's), with the constraint
/// at round-off and a positive energy error below 1e-2.
fn assert_dae_run(v: &Value, q_final: &SVector<f64, 2>) {
    let q = floats(&v["q_final"]);
    for i in 0..2 {
        assert!(close(q[i], q_final[i]), "q {q:?} vs {q_final}");
    }
    let reported = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
    assert!(reported < 1e-14, "{reported}");
    let energy = v["max_relative_energy_error"].as_f64().unwrap_or(f64::NAN);
    assert!(energy > 0.0 && energy < 1e-2, "{energy}");
}

#[test]
fn lotka_volterra_hamiltonian_runs_the_default_hspark_as_the_library_does() {
    let (h, steps) = (0.1, 100);
    let v = success_json(&[
        "run",
        "lotka-volterra-hamiltonian",
        "--h",
        "0.1",
        "--steps",
        "100",
        "--json",
    ]);
    assert_eq!(v["kind"], "hamiltonian-dae");
    assert_eq!(v["method"], "HsparkLobattoIIIAIIIB");
    assert_eq!(v["stages"], 3);
    type H3 = HsparkLobattoIIIAIIIB3<2>;
    let lv = LotkaVolterra2d::UPSTREAM;
    let problem = LotkaVolterraDirac::from(lv);
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let solution = solve(
        &problem,
        H3::default(),
        q0,
        lv.theta(&q0),
        &Options::new(h, steps),
    )
    .expect("the library run converges");
    // φ = p − ϑ(q) at round-off; the energy error of an order-4 method, reported.
    assert_dae_run(&v, &solution.q[steps]);
}

#[test]
fn verify_problem_file_studies_every_method_of_its_kind() {
    let file = problem_file("pendulum.toml");
    let out = sparkgen(&["verify", "--quick", "--json", "--problem-file", &file]);
    let v = json(&out);
    assert_eq!(v["path"], "engine");
    let methods = v["methods"].as_array().expect("a list");
    assert_eq!(methods.len(), HOLONOMIC_STEPPERS.len() + 2);
    for m in methods {
        assert_eq!(m["problem"], file.as_str());
        let declared = m["declared_order"].as_f64().unwrap_or(f64::NAN);
        let measured = m["measured_order"].as_f64().unwrap_or(f64::NAN);
        assert!((measured - declared).abs() <= 0.3, "{m}");
        assert_eq!(m["pass"], true, "{m}");
    }
    assert!(out.status.success());
}

/// Runs `args`, expects exit code `code` and exactly one line on stderr, starting with `error`
/// (the command's and clap's prefix alike); returns it.
fn fails_with_code(args: &[&str], code: i32) -> String {
    let out = sparkgen(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error"), "{args:?}: {stderr}");
    stderr
}

/// Runs `args`, expects failure with exactly one line on stderr containing every `needle`.
fn fails_with(args: &[&str], needles: &[&str]) -> String {
    let out = sparkgen(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: `{needle}` not in {stderr}"
        );
    }
    stderr
}

#[test]
fn errors_exit_non_zero_with_one_line() {
    fails_with(
        &["run", "nosuch"],
        &["unknown problem `nosuch`", "lotka-volterra, "],
    );
    fails_with(
        &["run", "--method", "rk4"],
        &["unknown method `rk4`", "SlrkLobattoIIIE"],
    );
    fails_with(
        &["run", "pendulum", "--method", "VprkGauss"],
        &["Rattle, Shake"],
    );
    let (family, _) = default_method();
    let valid: Vec<String> = STEPPERS
        .iter()
        .filter(|s| s.family == family)
        .map(|s| s.stages.to_string())
        .collect();
    fails_with(
        &["run", "--stages", "9"],
        &[&format!("{family} has no s = 9"), &valid.join(", ")],
    );
    fails_with(
        &["run", "--method", "SlrkLobattoIIIE4", "--stages", "3"],
        &["invalid --stages `3`"],
    );
    fails_with(&["run", "--h", "abc"], &["--h"]);
    fails_with(&["run", "--h", "-1"], &["invalid --h"]);
    fails_with(&["run", "--steps", "0"], &["invalid --steps"]);
    fails_with(
        &["run", "--param", "zz=1"],
        &["unknown parameter `zz`", "a1, a2"],
    );
    fails_with(&["run", "--param", "a1=x"], &["invalid --param `x`"]);
    fails_with(
        &["run", "--steps", "5", "--out", "/nonexistent/dir/x.csv"],
        &["cannot write"],
    );
    fails_with(
        &["run", "--steps", "5", "--out", "x.txt"],
        &[".csv, .json, .npy"],
    );
    fails_with(&["run", "--steps", "5", "--plot", "x.gif"], &[".png, .svg"]);
    fails_with(
        &["tableau", "NoSuch", "2"],
        &["unknown tableau family", "Gauss"],
    );
    fails_with(&["tableau", "Gauss", "99"], &["Gauss has no s = 99"]);
    fails_with(&["frobnicate"], &["error"]);
}

#[test]
fn problem_file_errors_name_file_line_and_column() {
    let dir = scratch("bad-file");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("scratch file");
        path.to_string_lossy().to_string()
    };
    let unknown = write(
        "unknown.toml",
        "kind = \"degenerate_lagrangian\"\ncoordinates = [\"q1\", \"q2\"]\n\
         theta = [\"q2\", \"q1\"]\nhamiltonian = \"q1 + zz\"\n[initial]\nq = [1.0, 1.0]\n",
    );
    // `zz` starts at column 21 of line 4.
    fails_with(
        &["run", "--problem-file", &unknown],
        &[&format!("{unknown}:4:21: "), "`zz`"],
    );
    fails_with(
        &["verify", "--quick", "--problem-file", &unknown],
        &[&format!("{unknown}:4:21: ")],
    );
    let syntax = write(
        "syntax.toml",
        "kind = \"holonomic\"\ncoordinates = [\"x\"\n",
    );
    fails_with(
        &["run", "--problem-file", &syntax],
        &[&format!("{syntax}:"), "TOML syntax"],
    );
    let three = write(
        "three.toml",
        "kind = \"degenerate_lagrangian\"\ncoordinates = [\"a\", \"b\", \"c\"]\n\
         theta = [\"b\", \"c\", \"a\"]\nhamiltonian = \"a * a + b * b + c * c\"\n\
         [initial]\nq = [1.0, 1.0, 1.0]\n",
    );
    // Three coordinates run on the engine; Ω = J − Jᵀ of odd order is singular, and so is
    // SLRK's stage Jacobian: step 1 fails, naming the unknown.
    fails_with(
        &["run", "--problem-file", &three],
        &["step 1 (t = 0): singular stage Jacobian"],
    );
    fails_with(
        &[
            "run",
            "--problem-file",
            &problem_file("pendulum.toml"),
            "--method",
            "VprkGauss",
        ],
        &[
            "unknown method `VprkGauss`",
            "Rattle, Shake, RattleLobattoIIIAIIIB",
        ],
    );
    fails_with(
        &[
            "run",
            "--problem-file",
            &problem_file("lotka_volterra.toml"),
            "--param",
            "zz=1",
        ],
        &["unknown parameter `zz`", "a1, a2, b1, b2"],
    );
    fails_with(
        &[
            "run",
            "--problem-file",
            &dir.join("missing.toml").to_string_lossy(),
        ],
        &["missing.toml: cannot read the problem file"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_step_names_step_and_time_and_keeps_the_trajectory() {
    let dir = scratch("failed");
    let path = dir.join("partial.csv");
    let path_text = path.to_string_lossy().to_string();
    let args = [
        "run",
        "--method",
        "SlrkLobattoIIIAB",
        "--stages",
        "2",
        "--steps",
        "400",
    ];
    let stderr = fails_with(
        &[&args[..], &["--out", &path_text]].concat(),
        &["step 267", "t = "],
    );
    assert!(stderr.contains(&path_text), "{stderr}");
    // The library's run of the same method by name on the built-in problem's file.
    let file = ProblemFile::read(problem_file("lotka_volterra.toml")).expect("shipped");
    let ProblemFile::DegenerateLagrangian(lv_file) = &file else {
        panic!("lotka_volterra.toml is a degenerate Lagrangian");
    };
    let view = lv_file.view::<2>().expect("D = 2");
    let (q0, p0) = view.initial();
    let method = Named::new("SlrkLobattoIIIAB", 2).expect("a catalogue method");
    let failure = solve(&view, method, q0, p0, &Options::new(0.1, 400))
        .expect_err("the library run fails too");
    let text = std::fs::read_to_string(&path).expect("the partial trajectory is written");
    assert_eq!(text.lines().count() - 1, failure.solution.q.len());
    let last: Vec<f64> = text
        .lines()
        .last()
        .map(|l| {
            l.split(',')
                .map(|x| x.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .unwrap_or_default();
    let q: SVector<f64, 2> = *failure.solution.q.last().expect("steps before the failure");
    assert!(
        close(last[1], q[0]) && close(last[2], q[1]),
        "{last:?} vs {q}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
