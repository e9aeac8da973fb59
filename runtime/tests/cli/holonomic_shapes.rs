//! Holonomic problem files of every shape up to (D, M) = (12, 4) through
//! `sparkgen run --problem-file`: chains of n = 1 … 4 unit masses joined by rigid links of
//! length ℓ, the first hung from the origin, under gravity, in the plane (D = 2n) and in space
//! (D = 3n), M = n. Every shape runs on the run-time engine (`"path": "engine"`). Lobatto
//! IIIA–IIIB RATTLE with s = 2, 3 holds `c(q) = 0` to round-off on every shape, its energy
//! error stays at the accuracy of its order 2s − 2, and in space the angular momentum about the vertical,
//! `L_z = Σ_i (x_i p_{y,i} − y_i p_{x,i})`, is conserved to round-off (the constraints and the
//! potential are invariant under rotations about z: discrete Noether). RATTLE and SHAKE run on
//! run-time sized storage there too, with the same checks: RATTLE holds `c(q) = 0` and `L_z` to
//! round-off, SHAKE `c(q) = 0`; initial data off the constraints are refused, or projected with
//! `--project-initial`.
use super::{
    fails_with_code, floats, json, problem_file, run_file_args, scratch, sparkgen, success_json,
};
use sparkgen::problem_file::ProblemFile;

/// A chain of `n` links in `k = 2` or `3` space dimensions, with the link directions and angular
/// rates of each link spread so that the motion is not rigid.
struct Chain {
    k: usize,
    n: usize,
}

impl Chain {
    /// `(coordinates, q₀, p₀)`: link j points along `u_j` (the angle θ_j = 0.3 + 0.2 j from
    /// the downward vertical, azimuth 0.7 j in space) and turns with velocity
    /// `w_j = ω_j ℓ e_⊥(u_j)`, `ω_j = 0.5 + 0.3 j`, perpendicular to `u_j`, so `G M⁻¹ p₀ = 0`.
    fn initial(&self) -> (Vec<String>, Vec<f64>, Vec<f64>) {
        let names = ["x", "y", "z"];
        let (mut coordinates, mut q, mut p) = (Vec::new(), Vec::new(), Vec::new());
        let (mut r, mut v) = (vec![0.0; self.k], vec![0.0; self.k]);
        for j in 0..self.n {
            let theta = 0.3 + 0.2 * j as f64;
            let omega = 0.5 + 0.3 * j as f64;
            let (u, w) = if self.k == 2 {
                (
                    vec![theta.sin(), -theta.cos()],
                    vec![omega * theta.cos(), omega * theta.sin()],
                )
            } else {
                let phi = 0.7 * j as f64;
                let u = vec![
                    theta.sin() * phi.cos(),
                    theta.sin() * phi.sin(),
                    -theta.cos(),
                ];
                let w = vec![-omega * u[1], omega * u[0], 0.0];
                (u, w)
            };
            for a in 0..self.k {
                r[a] += u[a];
                v[a] += w[a];
                coordinates.push(format!("{}{j}", names[a]));
            }
            q.extend(&r);
            p.extend(&v);
        }
        (coordinates, q, p)
    }

    fn file(&self) -> String {
        let (coordinates, q, p) = self.initial();
        let vertical = if self.k == 2 { "y" } else { "z" };
        let potential: Vec<String> = (0..self.n).map(|j| format!("{vertical}{j}")).collect();
        let constraints: Vec<String> = (0..self.n)
            .map(|j| {
                let terms: Vec<String> = (0..self.k)
                    .map(|a| {
                        let x = &coordinates[j * self.k + a];
                        if j == 0 {
                            format!("{x} * {x}")
                        } else {
                            let y = &coordinates[(j - 1) * self.k + a];
                            format!("({x} - {y}) * ({x} - {y})")
                        }
                    })
                    .collect();
                format!("\"{} - l * l\"", terms.join(" + "))
            })
            .collect();
        let list = |v: &[f64]| {
            let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
            format!("[{}]", items.join(", "))
        };
        let names: Vec<String> = coordinates.iter().map(|c| format!("\"{c}\"")).collect();
        format!(
            "kind = \"holonomic\"\ncoordinates = [{}]\nmass = \"m\"\npotential = \"m * g * ({})\"\n\
             constraints = [{}]\n\n[parameters]\nm = 1.0\ng = 1.0\nl = 1.0\n\n\
             [initial]\nq = {}\np = {}\n",
            names.join(", "),
            potential.join(" + "),
            constraints.join(", "),
            list(&q),
            list(&p)
        )
    }

    /// `L_z` of the state `(q, p)` (zero in the plane).
    fn angular_momentum(&self, q: &[f64], p: &[f64]) -> f64 {
        if self.k == 2 {
            return 0.0;
        }
        (0..self.n)
            .map(|j| q[3 * j] * p[3 * j + 1] - q[3 * j + 1] * p[3 * j])
            .sum()
    }
}

/// The JSON of a successful run of Lobatto IIIA–IIIB RATTLE with `stages` stages on `file`,
/// `steps` steps of h = 0.01.
fn rattle_lobatto(file: &str, stages: &str, steps: &str) -> serde_json::Value {
    success_json(&run_file_args(
        file,
        "RattleLobattoIIIAIIIB",
        stages,
        "0.01",
        steps,
    ))
}

impl Chain {
    /// `|L_z(q₁, p₁) − L_z(q₀, p₀)| / max(|L_z(q₀, p₀)|, 1)` from the initial data to the final
    /// state of the run `v`.
    fn drift(&self, v: &serde_json::Value) -> f64 {
        let (_, q0, p0) = self.initial();
        let (q1, p1) = (floats(&v["q_final"]), floats(&v["p_final"]));
        let l0 = self.angular_momentum(&q0, &p0);
        (self.angular_momentum(&q1, &p1) - l0).abs() / l0.abs().max(1.0)
    }
}

#[test]
fn holonomic_files_of_every_shape_run() {
    let dir = scratch("holonomic_shapes");
    for k in [2, 3] {
        for n in 1..=4 {
            let chain = Chain { k, n };
            let (d, m) = (k * n, n);
            let path = dir.join(format!("chain_{k}d_{n}.toml"));
            std::fs::write(&path, chain.file()).expect("scratch file written");
            let file = path.to_string_lossy().to_string();
            // The energy error of order 2s − 2 at h = 0.01 over t = 10, with room for the
            // longer, faster-swinging chains.
            for (stages, energy_bound) in [("2", 1e-2), ("3", 1e-5)] {
                let v = rattle_lobatto(&file, stages, "1000");
                let shape = format!("(D, M) = ({d}, {m}), s = {stages}");
                assert_eq!(v["path"], "engine", "{shape}");
                assert_eq!(v["steps"], 1000, "{shape}");
                let residual = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
                let energy = v["max_energy_error"].as_f64().unwrap_or(f64::NAN);
                assert_eq!(floats(&v["q_final"]).len(), d, "{shape}");
                let drift = chain.drift(&v);
                println!(
                    "{shape}: max relative |c| = {residual:.1e}, energy error = {energy:.1e}, \
                     L_z drift = {drift:.1e}"
                );
                assert!(residual <= 1e-13, "{shape}: {residual:e}");
                assert!(energy <= energy_bound, "{shape}: {energy:e}");
                assert!(drift <= 1e-12, "{shape}: {drift:e}");
            }
            // Initial data off c = 0 (q₀'s first entry rounded) are refused, exit 2.
            let (_, q0, _) = chain.initial();
            let rounded = chain.file().replacen(&format!("{:?}", q0[0]), "0.2955", 1);
            let off = dir.join(format!("chain_{k}d_{n}_off.toml"));
            std::fs::write(&off, rounded).expect("scratch file written");
            let off = off.to_string_lossy().to_string();
            let args = [
                "run",
                "--problem-file",
                &off,
                "--method",
                "RattleLobattoIIIAIIIB",
            ];
            let stderr = fails_with_code(&args, 2);
            assert!(stderr.contains("inconsistent initial data"), "{stderr}");
            let projected = success_json(&[&args[..], &["--project-initial", "--json"]].concat());
            let residual = projected["max_constraint_residual"].as_f64();
            assert!(residual.unwrap_or(f64::NAN) <= 1e-13, "{projected}");
            for method in ["Rattle", "Shake"] {
                let args = ["run", "--problem-file", &off, "--method", method];
                let stderr = fails_with_code(&args, 2);
                assert!(stderr.contains("inconsistent initial data"), "{stderr}");
                let v = success_json(&run_file_args(&file, method, "1", "0.01", "1000"));
                let shape = format!("(D, M) = ({d}, {m}), {method}");
                assert_eq!(v["path"], "engine", "{shape}");
                assert_eq!(v["steps"], 1000, "{shape}");
                let residual = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
                let energy = v["max_energy_error"].as_f64().unwrap_or(f64::NAN);
                let drift = chain.drift(&v);
                println!(
                    "{shape}: max relative |c| = {residual:.1e}, energy error = \
                     {energy:.1e}, L_z drift = {drift:.1e}"
                );
                assert!(residual <= 1e-13, "{shape}: {residual:e}");
                if method == "Rattle" {
                    assert!(energy <= 1e-2, "{shape}: {energy:e}");
                    assert!(drift <= 1e-12, "{shape}: {drift:e}");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verify --problem-file` on the spatial chain of four links, (D, M) = (12, 4), runs RATTLE,
/// SHAKE and every Lobatto IIIA–IIIB RATTLE method on run-time sized storage and measures an
/// order for each; the methods of order ≤ 6 measure their order (s = 5, order 8, has left the asymptotic range by the quick
/// sweep's smallest h, where its error nears the reference's floor).
#[test]
fn verify_measures_orders_on_a_chain_of_twelve_coordinates() {
    let dir = scratch("holonomic_verify");
    let path = dir.join("chain.toml");
    std::fs::write(&path, Chain { k: 3, n: 4 }.file()).expect("scratch file written");
    let file = path.to_string_lossy().to_string();
    let out = sparkgen(&["verify", "--quick", "--json", "--problem-file", &file]);
    let v = json(&out);
    assert_eq!(v["path"], "engine");
    let methods = v["methods"].as_array().expect("a list");
    assert!(methods.len() >= 5, "{v}");
    let families: Vec<&str> = methods
        .iter()
        .filter_map(|m| m["family"].as_str())
        .collect();
    for family in ["Rattle", "Shake", "RattleLobattoIIIAIIIB"] {
        assert!(families.contains(&family), "{family} in {families:?}");
    }
    for m in methods {
        let name = m["name"].as_str().unwrap_or_default();
        let order = m["measured_order"].as_f64().unwrap_or(f64::NAN);
        println!("{name}: measured order {order:.3}");
        assert!(order.is_finite(), "{m}");
        let declared = m["declared_order"].as_f64().unwrap_or(f64::NAN);
        if declared <= 6.0 {
            assert!((order - declared).abs() <= 0.3, "{m}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped `spherical_chain.toml` is this test's chain of four links in space, its initial
/// data bit for bit, and runs on the engine holding `c(q) = 0` and `L_z` to round-off.
#[test]
fn the_shipped_spherical_chain_runs_on_the_engine() {
    let chain = Chain { k: 3, n: 4 };
    let (_, q0, p0) = chain.initial();
    let file = problem_file("spherical_chain.toml");
    let Ok(ProblemFile::Holonomic(shipped)) = ProblemFile::read(&file) else {
        panic!("spherical_chain.toml states a holonomic system");
    };
    assert_eq!((shipped.dimension(), shipped.constraints()), (12, 4));
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let (q, p) = shipped.initial();
    assert_eq!((bits(q), bits(p)), (bits(&q0), bits(&p0)));
    let v = rattle_lobatto(&file, "3", "2000");
    assert_eq!(v["path"], "engine");
    let residual = v["max_constraint_residual"].as_f64().unwrap_or(f64::NAN);
    assert!(residual <= 1e-13, "{residual:e}");
    let drift = chain.drift(&v);
    assert!(drift <= 1e-12, "{drift:e}");
}
