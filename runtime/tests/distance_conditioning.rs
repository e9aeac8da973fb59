//! The rank check of the dynamic path: its estimates of the Gram matrix's extreme eigenvalues
//! against a dense eigen-decomposition, and nearly parallel bonds (the `J_ε` family of seed
//! 002 in the form of a swing hung from two anchors `δ` apart) reported as degenerate below
//! the threshold with the right σ_min.

#[allow(dead_code)]
mod distance_common;

use distance_common::{dense_gram, hanging_chain};
use nalgebra::DVector;
use sparkgen::error::IntegrateError;
use sparkgen::holonomic::Tolerances;
use sparkgen::holonomic::distance::{
    Bond, DistanceConstraints, DistanceRattle, Gravity, integrate_distance_rattle,
};
use sparkgen::integrate::Options;

#[test]
fn gram_eigenvalue_estimates_bound_and_match_the_dense_ones() {
    for n in [8, 32, 128] {
        let (chain, mut q, mut p) = hanging_chain(n, 0.8);
        let mut rattle = DistanceRattle::new(&chain, 1e-3, Tolerances::default()).unwrap();
        assert_eq!(rattle.gram_extremes(), None);
        for _ in 0..200 {
            rattle.step(&mut q, &mut p).unwrap();
        }
        let (sigma_min, sigma_max) = rattle.gram_extremes().unwrap();
        let eigen = dense_gram(&chain, &q).symmetric_eigenvalues();
        let (lambda_min, lambda_max) = (eigen.min(), eigen.max());
        println!(
            "{n} links: σ_min {sigma_min:.6e} vs λ_min {lambda_min:.6e}, σ_max {sigma_max:.6e} \
             vs λ_max {lambda_max:.6e}, condition {:.1e}",
            lambda_max / lambda_min
        );
        // An upper bound on λ_min within 10⁻³ (inverse iteration: the bottom of the spectrum
        // is well separated); a lower bound on λ_max within 5 % (power iteration: the top of
        // a chain's spectrum is clustered, so the iterate mixes the top eigenvectors).
        let round_off = 1e-12;
        assert!(sigma_min >= lambda_min * (1.0 - round_off));
        assert!(sigma_min <= lambda_min * (1.0 + 1e-3));
        assert!(sigma_max <= lambda_max * (1.0 + round_off));
        assert!(sigma_max >= lambda_max * (1.0 - 5e-2));
    }
}

/// A particle of unit mass hung in 3-D from the anchors `(0, 0, 1)` and `(δ, 0, 1)` by two bonds
/// of length `√(1 + δ²/4)`, starting below their midpoint with speed 0.3 across the plane of
/// the anchors, under gravity along −z: a swing about the x axis. The bond vectors make the
/// angle `φ = 2 atan(δ/2)`, so `A = ℓ²[[1, cos φ], [cos φ, 1]]` has
/// `λ_min = ℓ²(1 − cos φ) ≈ δ²/2` and `λ_min/λ_max ≈ δ²/4` (the threshold 10⁻¹⁰ is crossed near
/// `δ = 2·10⁻⁵`).
fn swing(
    delta: f64,
) -> (
    DistanceConstraints<Gravity>,
    DVector<f64>,
    DVector<f64>,
    f64,
) {
    let length = (1.0 + delta * delta / 4.0).sqrt();
    let bonds = vec![
        Bond::anchored(0, [0.0, 0.0, 1.0], length),
        Bond::anchored(0, [delta, 0.0, 1.0], length),
    ];
    let system = DistanceConstraints::new(3, vec![1.0], bonds, Gravity { g: 1.0 }).unwrap();
    let q = DVector::from_column_slice(&[delta / 2.0, 0.0, 0.0]);
    let p = DVector::from_column_slice(&[0.0, 0.3, 0.0]);
    let phi = 2.0 * (delta / 2.0).atan();
    // 1 − cos φ = 2 sin²(φ/2), without cancellation.
    let lambda_min = length * length * 2.0 * (phi / 2.0).sin().powi(2);
    (system, q, p, lambda_min)
}

#[test]
fn nearly_parallel_bonds_are_degenerate_below_the_threshold() {
    let options = Options::new(0.01, 100);
    let threshold = Tolerances::default().gram;
    for delta in [1e-1, 1e-3, 1e-4, 3e-5] {
        let (system, q0, p0, _) = swing(delta);
        let sol = integrate_distance_rattle(&system, &q0, &p0, &options, 100).unwrap();
        // The swing stays on the circle of radius 1 about the x axis in the plane x = δ/2.
        let q = &sol.q[1];
        let radius = (q[1] * q[1] + (q[2] - 1.0) * (q[2] - 1.0)).sqrt();
        println!("δ = {delta:e}: x = {:.3e}, radius {radius:.15}", q[0]);
        assert!((radius - 1.0).abs() <= 1e-12 && (q[0] - delta / 2.0).abs() <= 1e-12);
    }
    for delta in [1e-5, 1e-7] {
        let (system, q0, p0, lambda_min) = swing(delta);
        let Err(failure) = integrate_distance_rattle(&system, &q0, &p0, &options, 1) else {
            panic!("δ = {delta:e}: no error");
        };
        println!("δ = {delta:e}: {}", failure.error);
        match failure.error {
            IntegrateError::DegenerateConstraints {
                step,
                sigma_min,
                sigma_max,
                ..
            } => {
                assert_eq!(step, 1);
                assert!(sigma_min <= threshold * sigma_max);
                // λ_max = ℓ²(1 + cos φ) ≈ 2; σ_min is the inverse-iteration estimate, exact to
                // the 10⁻³ of its cold start or to its round-off ε λ_max / λ_min relative.
                assert!((sigma_max - 2.0).abs() <= 1e-9, "{sigma_max}");
                let accuracy = 1e-3 * lambda_min + 4.0 * f64::EPSILON * sigma_max;
                assert!(
                    (sigma_min - lambda_min).abs() <= accuracy,
                    "{sigma_min} vs {lambda_min}"
                );
            }
            other => panic!("expected DegenerateConstraints, got {other:?}"),
        }
        assert_eq!(failure.solution.q, vec![q0]);
    }
}
