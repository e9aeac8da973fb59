//! `kind = "lagrangian"` problem files through `sparkgen run`/`verify --problem-file`: a body in
//! the Kepler potential in three dimensions, `L = ½m|v|² + k/|q|` (the shipped
//! `problems/kepler.toml`), on the run-time engine as the
//! implicit DAE of its Euler–Lagrange equations with no constraint (M = 0). The VPARK families
//! keep the energy to their order and the angular momentum `q × p` to round-off (the Lagrangian
//! is invariant under rotations: discrete Noether) and `verify` measures their declared orders.
//! The SPARK families carry the velocity only through the constraint's `u(Q̃, P̃, Λ̃)`, which is
//! zero here: `q` stays at `q₀`, and `verify` reports no order; every method does one or the
//! other.
use super::{fails_with_code, floats, json, problem_file, run_file_args, sparkgen, success_json};

fn cross(q: &[f64], p: &[f64]) -> [f64; 3] {
    [
        q[1] * p[2] - q[2] * p[1],
        q[2] * p[0] - q[0] * p[2],
        q[0] * p[1] - q[1] * p[0],
    ]
}

#[test]
fn a_lagrangian_file_runs_and_verifies_on_the_engine() {
    let file = problem_file("kepler.toml");
    let (q0, p0) = ([1.0, 0.0, 0.2], [0.0, 0.9, 0.1]);
    let l0 = cross(&q0, &p0);
    let run = |method: &str| success_json(&run_file_args(&file, method, "3", "0.01", "1000"));
    for method in [
        "IdaeVparkGlrkpSymplectic",
        "IdaeVparkLobattoIIIBIIIApSymplectic",
    ] {
        let v = run(method);
        assert_eq!(
            (v["path"].as_str(), v["steps"].as_u64()),
            (Some("engine"), Some(1000))
        );
        // A Lagrangian's kernels are not all tapes (its partials are assembled from the
        // file's Hessians): the interpreter runs it, and says so.
        assert_eq!(v["backend"], "interpreter");
        assert!(v["compile_seconds"].is_null(), "{v}");
        let energy = v["max_energy_error"].as_f64().unwrap_or(f64::NAN);
        let (q, p) = (floats(&v["q_final"]), floats(&v["p_final"]));
        let l = cross(&q, &p);
        let drift = (0..3).fold(0.0f64, |m, k| m.max((l[k] - l0[k]).abs()));
        println!("{method}: energy error {energy:.1e}, |Δ(q × p)| {drift:.1e}");
        assert!(energy <= 1e-6, "{method}: {energy:e}");
        assert!(drift <= 1e-12, "{method}: {drift:e}");
        assert!((q[0] - q0[0]).abs() > 1e-3, "{method}: the body moves");
    }
    let v = run("IdaeSparkGlrk");
    assert_eq!(
        floats(&v["q_final"]),
        q0.to_vec(),
        "SPARK stands still: q = q₀"
    );
    let out = sparkgen(&["verify", "--quick", "--json", "--problem-file", &file]);
    let v = json(&out);
    assert_eq!(v["path"], "engine");
    let methods = v["methods"].as_array().expect("a list");
    // Every method either measures its declared order and passes, or stands still: its error
    // at T = 1 is |q₀ − q(1)| for every h of the sweep.
    let mut passed = Vec::new();
    for m in methods {
        let declared = m["declared_order"].as_f64().unwrap_or(f64::NAN);
        match m["measured_order"].as_f64() {
            Some(order) => {
                assert_eq!(m["pass"], true, "{m}");
                assert!((order - declared).abs() <= 0.3, "{m}");
                passed.push(m["name"].as_str().unwrap_or_default());
            }
            None => {
                assert_eq!(m["pass"], false, "{m}");
                let errors = floats(&m["errors"]);
                assert!(errors.len() >= 3, "{m}");
                assert!(errors.iter().all(|e| *e == errors[0]), "stands still: {m}");
            }
        }
    }
    println!(
        "{} of {} methods measure their order: {passed:?}",
        passed.len(),
        methods.len()
    );
    for name in [
        "IdaeVparkGlrkpSymplectic3",
        "IdaeVparkLobattoIIIBIIIApSymplectic3",
    ] {
        assert!(passed.contains(&name), "{name}");
    }
    let stderr = fails_with_code(&["run", "--problem-file", &file, "--method", "Rattle"], 2);
    assert!(stderr.contains("Rattle"), "{stderr}");
}
