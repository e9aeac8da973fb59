//! Seed 002's ill-conditioned family `J_ε` (constraint rows `(0, 0, 1)` and `(0, ε, 1)`, unit
//! mass): `λ_min(A_ε)/ε² → 1/2`, and RATTLE reports `DegenerateConstraints` with σ_min once
//! `λ_min ≤ τ_A λ_max` (default `τ_A = 10⁻¹⁰`, i.e. for `ε ≲ 2·10⁻⁵`).

use sparkgen::error::IntegrateError;
use sparkgen::holonomic::gram::symmetric_eigenvalue_range;
use sparkgen::holonomic::{Rattle, Tolerances};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::solve;

/// A particle moving freely along x in a harmonic well, held by `c = (z, ε y + z)`.
#[derive(HolonomicSystem)]
#[holonomic(q = [x, y, z], mass = 1.0, potential = x * x / 2.0, constraints = [z, eps * y + z])]
struct JEpsilon {
    eps: f64,
}

fn initial() -> (Vector<3>, Vector<3>) {
    (Vector::from([1.0, 0.0, 0.0]), Vector::from([0.0, 0.0, 0.0]))
}

#[test]
fn smallest_gram_eigenvalue_over_eps_squared_tends_to_one_half() {
    let mut previous = f64::INFINITY;
    for eps in [1e-1, 1e-2, 1e-3, 1e-4] {
        let problem = JEpsilon { eps };
        let g = problem.constraint_jacobian(&initial().0);
        let (lambda_min, lambda_max) = symmetric_eigenvalue_range(&(g * g.transpose()));
        let ratio = lambda_min / (eps * eps);
        // Seed 002: λ_min = 2ε²/(2 + ε² + √(4 + ε⁴)), λ_max = (2 + ε² + √(4 + ε⁴))/2.
        let root = (4.0 + eps.powi(4)).sqrt();
        let exact = 2.0 / (2.0 + eps * eps + root);
        println!("ε = {eps:e}: λ_min/ε² = {ratio:.12}, λ_max = {lambda_max:.12}");
        // Symmetric eigenvalues are accurate to a few ε·λ_max in absolute terms.
        let accuracy = 4.0 * f64::EPSILON * lambda_max;
        assert!(
            (lambda_min - exact * eps * eps).abs() <= accuracy,
            "{ratio} vs {exact}"
        );
        assert!(((lambda_max - (2.0 + eps * eps + root) / 2.0) / lambda_max).abs() <= 1e-14);
        let distance = (ratio - 0.5).abs();
        assert!(distance < previous && distance <= eps * eps);
        previous = distance;
    }
}

#[test]
fn degenerate_constraints_fire_below_the_threshold() {
    let (q0, p0) = initial();
    let options = Options::new(0.1, 20);
    let threshold = Tolerances::default().gram;
    for eps in [1e-1, 1e-3, 1e-4, 3e-5] {
        let sol = solve(&JEpsilon { eps }, Rattle, q0, p0, &options).unwrap();
        let x_end = sol.q[20][0];
        println!(
            "ε = {eps:e}: 20 steps, x(2) = {x_end:.6} (cos 2 = {:.6})",
            2f64.cos()
        );
        assert!((x_end - 2f64.cos()).abs() < 1e-2);
        assert!(sol.q.iter().all(|q| q[1] == 0.0 && q[2] == 0.0));
    }
    for eps in [1e-5, 1e-7, 0.0] {
        let failure = solve(&JEpsilon { eps }, Rattle, q0, p0, &options).unwrap_err();
        println!("ε = {eps:e}: {}", failure.error);
        match failure.error {
            IntegrateError::DegenerateConstraints {
                step,
                sigma_min,
                sigma_max,
                threshold: t,
                ..
            } => {
                // Refused at the initial data, before the first step (as a projection of
                // them is refused), not met again as a failed step 1.
                assert_eq!(step, 0);
                assert_eq!(t, threshold);
                assert!(sigma_min <= threshold * sigma_max);
                let accuracy = 4.0 * f64::EPSILON * sigma_max;
                assert!((sigma_min - eps * eps / 2.0).abs() <= accuracy + eps.powi(4));
            }
            other => panic!("expected DegenerateConstraints, got {other:?}"),
        }
        // Initial data refused: no point was written.
        assert!(failure.solution.q.is_empty(), "{:?}", failure.solution.q);
    }
}
