//! Initial consistency (check, typed error, projection), consistency restoration, and the hard
//! iteration cap that keeps the trajectory so far.

#[allow(dead_code)]
mod rattle_common;

use rattle_common::capped_position_failure;
use sparkgen::error::IntegrateError;
use sparkgen::holonomic::problems::{Pendulum, Triatomic};
use sparkgen::holonomic::{Rattle, Tolerances, consistency_residuals};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::solve;

const PENDULUM: Pendulum = Pendulum {
    m: 2.0,
    g: 9.81,
    l: 1.5,
};

#[test]
fn inconsistent_initial_data_are_rejected_with_the_numbers() {
    let (q0, p0) = PENDULUM.state(0.4, 0.3);
    let q_off = q0 * (1.0 + 1e-6);
    let p_off = p0 + Vector::from([0.0, 1e-3]);
    let failure = solve(&PENDULUM, Rattle, q_off, p_off, &Options::new(0.01, 10)).unwrap_err();
    println!("{}", failure.error);
    let expected = consistency_residuals(&PENDULUM, &q_off, &p_off);
    match failure.error {
        IntegrateError::InconsistentConstraints {
            position,
            velocity,
            tolerance,
        } => {
            // |c| = ℓ²((1 + 10⁻⁶)² − 1) relative to ‖∇c‖₂‖q‖_∞ = 2ℓ(1 + 10⁻⁶)·‖q‖_∞.
            let c = PENDULUM.l * PENDULUM.l * ((1.0f64 + 1e-6).powi(2) - 1.0);
            let scale = 2.0 * PENDULUM.l * (1.0 + 1e-6) * q_off.amax();
            assert!((position - c / scale).abs() <= 1e-9 * position);
            assert_eq!((position, velocity), (expected.position, expected.velocity));
            assert!(velocity > 1e-4);
            assert_eq!(tolerance, 1e-12);
        }
        other => panic!("expected InconsistentInitialData, got {other:?}"),
    }
    assert!(failure.solution.t.is_empty());
}

#[test]
fn projection_restores_consistent_initial_data() {
    let problem = Triatomic::WATER_LIKE;
    let q0 = Vector::<9>::from([0.0, 0.0, 0.0, 0.8, 0.6, 0.05, -0.8, 0.62, -0.02]);
    let p0 = Vector::<9>::from([0.1, 0.0, 0.2, 0.3, -0.1, 0.0, 0.0, 0.4, -0.2]);
    let mut options = Options::new(0.01, 100);
    assert!(solve(&problem, Rattle, q0, p0, &options).is_err());
    options.project_initial = true;
    let sol = solve(&problem, Rattle, q0, p0, &options).unwrap();
    let minv = problem.inverse_mass_matrix();
    for (q, p) in sol.q.iter().zip(&sol.p) {
        let r = consistency_residuals(&problem, q, p);
        assert!(r.position <= 4.0 * f64::EPSILON, "{r:?}");
        assert!(
            (problem.constraint_jacobian(q) * (minv * p)).amax() <= 1e-12,
            "{r:?}"
        );
    }
    // The projection moved the positions along the constraint normals: its first Gauss–Newton
    // step along M⁻¹G(q₀)ᵀ, the later ones, O(|Δq|²) long, along the normals at the iterates,
    // which turn by O(|Δq|): q₀ − q = M⁻¹G(q₀)ᵀx + O(|Δq|³).
    let g = problem.constraint_jacobian(&q0);
    let dq = problem.mass_matrix() * (q0 - sol.q[0]);
    let x = (g * g.transpose()).try_inverse().unwrap() * (g * dq);
    let moved = (q0 - sol.q[0]).amax();
    assert!(
        (g.transpose() * x - dq).amax() <= moved.powi(3),
        "not a projection along the normals"
    );
    println!("projected by |Δq|∞ = {:.3e}", (q0 - sol.q[0]).amax());
}

#[test]
fn restoration_holds_constraints_at_round_off_with_loose_tolerances() {
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let mut options = Options::new(0.01, 2000);
    options.constraints.position = 1e-6;
    options.constraints.velocity = 1e-6;
    let loose = solve(&PENDULUM, Rattle, q0, p0, &options).unwrap();
    options.restore_consistency = true;
    let restored = solve(&PENDULUM, Rattle, q0, p0, &options).unwrap();
    let worst = |sol: &sparkgen::solution::Solution<2>| {
        sol.q
            .iter()
            .map(|q| PENDULUM.constraints(q).amax())
            .fold(0.0, f64::max)
    };
    let (w_loose, w_restored) = (worst(&loose), worst(&restored));
    println!("τ_c = 1e-6: max |c(q_n)| = {w_loose:.1e} without, {w_restored:.1e} with restoration");
    assert!(w_loose > 1e-12);
    assert!(w_restored <= 1e-14 * PENDULUM.l * PENDULUM.l);
}

#[test]
fn iteration_cap_is_a_hard_error_keeping_the_solution() {
    // With τ_c = 0 only the floating-point fixed point stops the iteration; a cap of 5 fails a
    // few steps in (never an unconverged step returned), a cap of 50 does not.
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let mut options = Options::new(0.05, 200);
    options.constraints.position = 0.0;
    let full = solve(&PENDULUM, Rattle, q0, p0, &options).unwrap();
    options.constraints.max_iterations = 5;
    let failure = solve(&PENDULUM, Rattle, q0, p0, &options).unwrap_err();
    println!("{failure}");
    let (step, time) = capped_position_failure(&failure.error, 5);
    // The trajectory up to the failing step is kept, identical to the uncapped run's.
    let kept = &failure.solution;
    assert_eq!(kept.steps(), step - 1);
    assert_eq!(kept.t.last().copied(), Some(time));
    assert_eq!(kept.q[..], full.q[..step]);
    assert_eq!(kept.p[..], full.p[..step]);
}

#[test]
fn invalid_options_are_rejected() {
    let (q0, p0) = PENDULUM.state(0.4, 0.0);
    for (h, tolerances) in [
        (0.0, Tolerances::default()),
        (f64::NAN, Tolerances::default()),
        (
            0.1,
            Tolerances {
                max_iterations: 0,
                ..Tolerances::default()
            },
        ),
        (
            0.1,
            Tolerances {
                position: -1.0,
                ..Tolerances::default()
            },
        ),
        (
            0.1,
            Tolerances {
                gram: 1.0,
                ..Tolerances::default()
            },
        ),
    ] {
        let mut options = Options::new(h, 10);
        options.constraints = tolerances;
        let failure = solve(&PENDULUM, Rattle, q0, p0, &options).unwrap_err();
        assert!(
            matches!(failure.error, IntegrateError::InvalidOptions(_)),
            "{failure}"
        );
    }
}
