//! Initial data outside the problem's domain, and problems no initial data can make usable,
//! are refused before the first step with what is wrong (exit 2), never written as the run's
//! first point and met again as a failed step 1 (exit 1): an energy, a constraint gradient, a
//! force or a stage-equation entry that is not finite at `(q₀, p₀)`; constraint gradients that
//! are linearly dependent at `q₀`, projected or not; more constraints than coordinates; and
//! `verify` on a degenerate Lagrangian of odd D, where `Ω = dϑ` is singular everywhere.

use super::{degenerate_file, fails_with, fails_with_code, scratch};

/// Writes `text` as `name` into `dir`, returning its path.
fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch problem file");
    path.display().to_string()
}

/// A holonomic system of unit mass on (x, y) with potential `V` and `constraints`, at rest at
/// `q₀`.
fn holonomic(potential: &str, constraints: &[&str], q0: [f64; 2]) -> String {
    let constraints: Vec<String> = constraints.iter().map(|c| format!("\"{c}\"")).collect();
    format!(
        "kind = \"holonomic\"\ncoordinates = [\"x\", \"y\"]\nmass = \"1\"\n\
         potential = \"{potential}\"\nconstraints = [{}]\n\
         [initial]\nq = [{:?}, {:?}]\np = [0.0, 0.0]\n",
        constraints.join(", "),
        q0[0],
        q0[1]
    )
}

fn run(path: &str) -> [&str; 5] {
    ["run", "--problem-file", path, "--steps", "5"]
}

/// Runs the file at `path` with and without `--project-initial`: both exit 2 with `needle`.
fn refused_projected_or_not(path: &str, needle: &str) {
    for extra in [&[][..], &["--project-initial"][..]] {
        let args: Vec<&str> = run(path).into_iter().chain(extra.iter().copied()).collect();
        let stderr = fails_with_code(&args, 2);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn values_that_are_not_finite_at_the_initial_data_are_refused_before_the_first_step() {
    let dir = scratch("domain");
    let cases = [
        // H = 1/q₁ at q₁ = 0: the energy itself.
        (
            degenerate_file(["q2", "0"], "1/q1 + q2*q2", [0.0, 1.0]),
            "the energy is inf",
        ),
        // ϑ₁ = √q₂ at q₂ = 0: ϑ is finite, its derivative (in Ω) is not, and so the stage
        // equations are not.
        (
            degenerate_file(["sqrt(q2)", "0"], "q1*q1 + q2*q2", [1.0, 0.0]),
            "the stage equations' row",
        ),
        // H = √q₁ + q₂² at q₁ = 0: H is finite, ∇H is not.
        (
            degenerate_file(["q2", "0"], "sqrt(q1) + q2*q2", [0.0, 1.0]),
            "the stage equations' row",
        ),
        // A holonomic force ∇V = (0, 1/(2√(y + 1))) at y = −1, on the unit circle.
        (
            holonomic("sqrt(y + 1)", &["x*x + y*y - 1"], [0.0, -1.0]),
            "∂V/∂q_2 is inf",
        ),
    ];
    for (k, (text, needle)) in cases.iter().enumerate() {
        let path = file(&dir, &format!("case{k}.toml"), text);
        let stderr = fails_with_code(&run(&path), 2);
        assert!(stderr.contains(needle), "{text}\n{stderr}");
        assert!(stderr.contains("outside the problem's domain"), "{stderr}");
    }
    // A constraint gradient ∂c/∂y = 1/(2√y) at y = 0, where c itself is 0.
    let gradient = file(
        &dir,
        "constraint.toml",
        &holonomic("y", &["x + sqrt(y) - 1"], [1.0, 0.0]),
    );
    refused_projected_or_not(&gradient, "∂c_1/∂q_2 is inf");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `c = x³` at `x = 0`: `G(q₀) = 0`, the multipliers of the first step are undetermined. The
/// same exit code and step with and without `--project-initial`.
#[test]
fn degenerate_constraints_at_the_initial_data_exit_2_at_step_0_projected_or_not() {
    let dir = scratch("degenerate-constraints");
    let path = file(&dir, "cubic.toml", &holonomic("y", &["x*x*x"], [0.0, 0.0]));
    refused_projected_or_not(&path, "step 0 (t = 0): degenerate constraints");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn more_constraints_than_coordinates_are_refused_where_they_are_written() {
    let dir = scratch("too-many-constraints");
    let constraints = ["x*x + y*y - 1", "x - y", "x + y - 1.4142135623730951"];
    let path = file(
        &dir,
        "three.toml",
        &holonomic("y", &constraints, [0.5f64.sqrt(), 0.5f64.sqrt()]),
    );
    let stderr = fails_with_code(&run(&path), 2);
    assert!(stderr.contains(&format!("{path}:5:")), "{stderr}");
    assert!(stderr.contains("3 entries for 2 coordinates"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A degenerate Lagrangian of odd D has no reference solution: `verify` says why, exit 2,
/// instead of passing methods pinned to fail on a sweep that measured nothing.
#[test]
fn verify_on_an_odd_dimensional_degenerate_lagrangian_says_why_it_cannot() {
    let dir = scratch("odd-verify");
    let path = file(
        &dir,
        "three.toml",
        "kind = \"degenerate_lagrangian\"\ncoordinates = [\"x\", \"y\", \"z\"]\n\
         theta = [\"y\", \"z\", \"x\"]\nhamiltonian = \"x*x + y*y + z*z\"\n\
         [initial]\nq = [1.0, 0.5, 0.2]\n",
    );
    let stderr = fails_with(
        &["verify", "--quick", "--problem-file", &path],
        &["cannot verify", "odd size D = 3", "no reference solution"],
    );
    assert!(stderr.starts_with("error"), "{stderr}");
    fails_with_code(&["verify", "--quick", "--problem-file", &path], 2);
    let _ = std::fs::remove_dir_all(&dir);
}
