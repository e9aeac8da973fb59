//! Degenerate-Lagrangian problem files of every dimension D = 1 … 8 through
//! `sparkgen run --problem-file`: n = ⌊D/2⌋ point vortices in a rotating frame, with, for odd
//! D, an algebraic coordinate z (`ϑ_z = 0`, `H ∋ z²/2`, so `z = 0`). Every file runs on the
//! run-time engine and says so (`"path": "engine"`). VPRK Gauss(3) keeps `p = ϑ(q)` to round-off and the energy
//! of the vortices to the method's accuracy on every D (D = 1, no vortex and `Ω ≡ 0`, has
//! nothing to integrate but the algebraic `z = 0`, which it keeps). SLRK Lobatto IIIE(3), whose
//! stage Jacobian is singular where a coordinate enters neither ϑ nor the other rows (`ϑ_z ≡ 0`,
//! as `ϑ_u ≡ 0` of the guiding centre, docs/examples.md), stops at step 1 on odd D ≥ 3 naming
//! the unknown, exit 1, and runs on even D. The implicit- and Hamiltonian-DAE methods run on the
//! file's DAE views and keep `φ = p − ϑ(q) = 0` to round-off on even D; on odd D ≥ 3, where
//! `Ω = J − Jᵀ` is singular and the index-2 condition fails, they stop before the first step
//! (exit 2).
use super::{fails_with_code, json, problem_file, run_file_args, scratch, sparkgen};
use sparkgen::cli::registry::{HAMILTONIAN_STEPPERS, IMPLICIT_STEPPERS, STEPPERS};

/// The problem file of D coordinates: vortices `i < n` of circulation `Γ_i = 1 + i/2` with
/// `ϑ = Γ_i (−y_i, x_i) / 2` and
/// `H = −(1/4π) Σ_{i<j} Γ_i Γ_j ln |r_i − r_j|² + (ω/2) Σ_i Γ_i |r_i|²`, and z for odd D.
fn vortices(d: usize) -> String {
    let n = d / 2;
    let mut coordinates = Vec::new();
    let mut theta = Vec::new();
    let mut q0 = Vec::new();
    for i in 0..n {
        let gamma = 1.0 + 0.5 * i as f64;
        coordinates.extend([format!("x{i}"), format!("y{i}")]);
        theta.extend([
            format!("-{gamma:?} * y{i} / 2.0"),
            format!("{gamma:?} * x{i} / 2.0"),
        ]);
        let angle = 2.0 * std::f64::consts::PI * i as f64 / n as f64 + 0.1;
        let radius = 1.0 + 0.1 * i as f64;
        q0.extend([radius * angle.cos(), radius * angle.sin()]);
    }
    let mut h = vec!["0.0".to_owned()];
    for i in 0..n {
        let gi = 1.0 + 0.5 * i as f64;
        h.push(format!(
            "omega / 2.0 * {gi:?} * (x{i} * x{i} + y{i} * y{i})"
        ));
        for j in i + 1..n {
            let gj = 1.0 + 0.5 * j as f64;
            h.push(format!(
                "-{gi:?} * {gj:?} / (4.0 * pi) * ln(powi(x{i} - x{j}, 2) + powi(y{i} - y{j}, 2))"
            ));
        }
    }
    if d % 2 == 1 {
        coordinates.push("z".to_owned());
        theta.push("0.0".to_owned());
        h.push("z * z / 2".to_owned());
        q0.push(0.0);
    }
    let quoted = |v: &[String]| {
        let items: Vec<String> = v.iter().map(|s| format!("\"{s}\"")).collect();
        format!("[{}]", items.join(", "))
    };
    let numbers: Vec<String> = q0.iter().map(|x| format!("{x:?}")).collect();
    format!(
        "kind = \"degenerate_lagrangian\"\ncoordinates = {}\ntheta = {}\nhamiltonian = \"{}\"\n\n\
         [parameters]\nomega = 0.5\npi = 3.141592653589793\n\n[initial]\nq = [{}]\n",
        quoted(&coordinates),
        quoted(&theta),
        h.join(" + "),
        numbers.join(", ")
    )
}

#[test]
fn degenerate_files_of_every_dimension_run() {
    let dir = scratch("dimensions");
    for d in 1..=8 {
        let path = dir.join(format!("vortices_{d}.toml"));
        std::fs::write(&path, vortices(d)).expect("scratch file written");
        let file = path.to_string_lossy().to_string();
        let run = |method: &'static str| run_file_args(&file, method, "3", "0.05", "200");
        let args = run("VprkGauss");
        let out = sparkgen(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "D = {d}: {stderr}");
        let v = json(&out);
        assert_eq!(v["path"], "engine", "D = {d}");
        // On the engine the stage functions ran as machine code, compiled when the run started.
        let (backend, compile) = (Some("jit"), Some(()));
        assert_eq!(v["backend"].as_str(), backend, "D = {d}");
        let seconds = v["compile_seconds"].as_f64();
        assert_eq!(
            seconds.filter(|s| *s > 0.0).map(|_| ()),
            compile,
            "D = {d}: {seconds:?}"
        );
        assert_eq!(v["steps"], 200, "D = {d}");
        assert_eq!(v["q_final"].as_array().map(Vec::len), Some(d), "D = {d}");
        let residual = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
        let energy = v["max_energy_error"].as_f64().unwrap_or(f64::NAN);
        println!("D = {d}: max |p − ϑ(q)| = {residual:.1e}, max energy error = {energy:.1e}");
        assert!(residual <= 1e-12, "D = {d}: {residual:e}");
        assert!(energy <= 1e-10, "D = {d}: {energy:e}");
        let args = run("SlrkLobattoIIIE");
        if d % 2 == 1 && d > 1 {
            let stderr = fails_with_code(&args, 1);
            let z = format!("the unknown Lambda, stage 2, constraint {d}");
            assert!(
                stderr.contains("step 1 (t = 0): singular stage Jacobian"),
                "{stderr}"
            );
            assert!(stderr.contains(&z), "D = {d}: {stderr}");
        } else {
            let out = sparkgen(&args);
            assert!(
                out.status.success(),
                "D = {d}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(json(&out)["steps"], 200, "D = {d}");
        }
        // The DAE views: the index-2 condition asks Ω = J − Jᵀ to be invertible, which the
        // algebraic z breaks: no multiplier solves the hidden constraint Ω λ = −∇H − Ω v (D = 1
        // has ∇H = 0 at z = 0, which every λ solves).
        for family in ["IdaeVparkGlrkpSymplectic", "HsparkGlrk"] {
            let args = run_file_args(&file, family, "2", "0.05", "200");
            if d % 2 == 1 && d > 1 {
                let stderr = fails_with_code(&args, 2);
                assert!(
                    stderr.contains("no consistent initial multiplier"),
                    "D = {d}, {family}: {stderr}"
                );
                continue;
            }
            let out = sparkgen(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "D = {d}, {family}: {stderr}");
            let v = json(&out);
            assert_eq!(v["path"], "engine", "D = {d}, {family}");
            assert_eq!(v["steps"], 200, "D = {d}, {family}");
            assert_eq!(v["constraint"], "|φ(q, p)|∞", "D = {d}, {family}");
            let residual = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
            let energy = v["max_energy_error"].as_f64().unwrap_or(f64::NAN);
            println!("D = {d}, {family}: max |φ| = {residual:.1e}, energy error {energy:.1e}");
            assert!(residual <= 1e-12, "D = {d}, {family}: {residual:e}");
            assert!(energy <= 1e-8, "D = {d}, {family}: {energy:e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verify --problem-file` on the D = 4 guiding centre runs every method for degenerate
/// Lagrangians on the engine, the implicit- and Hamiltonian-DAE methods through the views
/// `engine::DaeView`, and reports, for each, its measured order or why there
/// is none: runs that fail on the sweep or in the long run name the failure, and a sweep whose
/// errors never rise above the floor (the order-8 methods reach 1e-12 at h = 1/2) lists them;
/// SLRK Lobatto IIIE(3) and SPARK GLRK(2) measure their order 4, and every DAE method that
/// measures an order measures its declared one, or the one pinned for it.
#[test]
fn verify_reports_every_method_on_the_guiding_centre() {
    let file = problem_file("guiding_centre.toml");
    let out = sparkgen(&["verify", "--quick", "--json", "--problem-file", &file]);
    let v = json(&out);
    assert_eq!(v["path"], "engine");
    let methods = v["methods"].as_array().expect("a list");
    let views: Vec<&str> = IMPLICIT_STEPPERS
        .iter()
        .chain(HAMILTONIAN_STEPPERS)
        .map(|s| s.name)
        .collect();
    assert_eq!(methods.len(), STEPPERS.len() + views.len());
    let (mut measured, mut views_measured) = (0, 0);
    for m in methods {
        assert_eq!(m["problem"], file.as_str());
        let order = m["measured_order"].as_f64();
        let reported = [&m["sweep_failed_h"], &m["failures"], &m["errors"]]
            .iter()
            .any(|list| list.as_array().is_some_and(|l| !l.is_empty()));
        assert!(order.is_some() || reported, "neither an order nor why: {m}");
        measured += usize::from(order.is_some());
        let name = m["name"].as_str().unwrap_or_default();
        if let (true, Some(order)) = (views.contains(&name), order) {
            let pinned = m["pinned"]["order"]["order"].as_f64();
            let expected = pinned.or(m["declared_order"].as_f64()).unwrap_or(f64::NAN);
            assert!((order - expected).abs() <= 0.3, "{m}");
            views_measured += 1;
        }
        if matches!(m["name"].as_str(), Some("SlrkLobattoIIIE3" | "SparkGlrk2")) {
            let order = order.unwrap_or(f64::NAN);
            assert!((order - 4.0).abs() <= 0.3, "{m}");
        }
    }
    assert!(views_measured > 0, "no DAE method measured an order");
    println!(
        "guiding centre: {measured} of {} methods measure an order, {views_measured} of the {} \
         DAE methods",
        methods.len(),
        views.len()
    );
}
