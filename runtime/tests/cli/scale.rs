//! Inputs whose scale used to hide a failure: a Lotka–Volterra state component of 10²⁰, whose
//! stage equations Newton's method cannot satisfy to the round-off of their own terms, and
//! masses that are not positive. Each ends in a one-line error with the documented exit code
//! (1 for a failed run, 2 for an argument that cannot be used), not in exit 0 with a wrong
//! trajectory.
use super::fails_with_code;
use sparkgen::error::IntegrateError;
use sparkgen::holonomic::Rattle;
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::Options;
use sparkgen::problem::MassMatrixError;
use sparkgen::solve;

/// At `q = (10²⁰, 1)` the two-form `Ω = J − Jᵀ` has the entry `1/(q₁q₂) = 10⁻²⁰`, below the
/// round-off of `∂ϑ₁/∂q₂ = 1 + 1/(q₁q₂)`: the stage Jacobian has lost the first row's
/// information, and the exact flow (`q̇₂ = q₂(q₁ − 1)`) overflows within the step. The residual
/// of the initial guess, 0.05 in a row whose terms are of order 1, is far below the tolerance
/// `σ = 10²⁰` gave the whole system, which used to accept it with 0 iterations and exit 0.
#[test]
fn a_state_of_1e20_fails_at_the_first_step() {
    for method in ["SlrkLobattoIIIE", "VprkGauss"] {
        let stderr = fails_with_code(
            &[
                "run",
                "lotka-volterra",
                "--param",
                "q1=1e20",
                "--method",
                method,
                "--steps",
                "10",
            ],
            1,
        );
        assert!(stderr.contains("step 1 (t = 0)"), "{method}: {stderr}");
    }
}

#[test]
fn a_mass_that_is_not_positive_is_an_unusable_argument() {
    for (problem, param) in [
        ("pendulum", "m=-1"),
        ("spherical-pendulum", "m=0"),
        ("index-two-pendulum", "m=-1"),
        ("triatomic", "m2=-0.5"),
    ] {
        let stderr = fails_with_code(&["run", problem, "--param", param, "--steps", "5"], 2);
        assert!(
            stderr.contains(&format!("--param `{param}`")) && stderr.contains("mass"),
            "{problem}: {stderr}"
        );
    }
}

/// The library refuses the same system before the first step, naming the coordinate.
#[test]
fn rattle_refuses_a_negative_mass() {
    let problem = Pendulum {
        m: -1.0,
        g: 1.0,
        l: 1.0,
    };
    let (q0, p0) = problem.state(1.0, 0.0);
    let failure =
        solve(&problem, Rattle, q0, p0, &Options::new(0.1, 5)).expect_err("a negative mass");
    assert_eq!(
        failure.error,
        IntegrateError::MassMatrix(MassMatrixError::NonPositiveMass {
            coordinate: 1,
            mass: -1.0
        })
    );
    assert!(failure.solution.t.is_empty(), "{:?}", failure.solution.t);
}
