//! Seed 002: one RATTLE step of uniform rotation (no potential, `c = (|q|² − ℓ²)/2`) rotates by
//! `θ_h = arcsin(hω)` with `λ = μ = mω²/(1 + √(1 − h²ω²))`; the shipped pendulum with
//! `c = |q|² − ℓ²` (c doubled) has half those multipliers. After 1000 steps the rotation angle is
//! `1000·θ_h` to 1e-12 relative.

use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{Rattle, RattleStepper, Tolerances};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::solve;

/// Uniform rotation in the seed's scaling `c = (|q|² − ℓ²)/2`, `G = qᵀ`.
#[derive(HolonomicSystem)]
#[holonomic(q = [x, y], mass = m, potential = 0.0, constraints = [(x * x + y * y - l * l) / 2.0])]
struct Rotation {
    m: f64,
    l: f64,
}

const M: f64 = 1.3;
const L: f64 = 0.7;
const OMEGA: f64 = 1.1;
const EPS: f64 = f64::EPSILON;

fn initial() -> (Vector<2>, Vector<2>) {
    (Vector::from([L, 0.0]), Vector::from([0.0, M * OMEGA * L]))
}

fn seed_multiplier(h_omega: f64) -> f64 {
    M * OMEGA * OMEGA / (1.0 + (1.0 - h_omega * h_omega).sqrt())
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn one_step_rotates_by_arcsin_h_omega() {
    for h_omega in [0.01, 0.1, 0.5] {
        let h = h_omega / OMEGA;
        let theta_h = f64::asin(h_omega);
        let (q0, p0) = initial();
        let problem = Rotation { m: M, l: L };
        let s = RattleStepper::new(&problem, h, Tolerances::default())
            .unwrap()
            .step(&q0, &p0)
            .unwrap();
        let angle = s.q[1].atan2(s.q[0]);
        let (qp, pn) = (s.q.dot(&s.p), s.p.norm());
        let (lam, mu) = (seed_multiplier(h_omega), s.mu[0]);
        println!(
            "hω = {h_omega}: angle rel err {:.1e}, q₁ᵀp₁/(|q₁||p₁|) = {:.1e}, |p₁| rel err {:.1e}, \
             λ rel err {:.1e}, μ rel err {:.1e} (bound {:.1e}), iterations {}",
            relative(angle, theta_h),
            qp / (s.q.norm() * pn),
            relative(pn, M * OMEGA * L),
            relative(s.lambda[0], lam),
            relative(mu, lam),
            10.0 * EPS / (h_omega * h_omega),
            s.iterations,
        );
        assert!(relative(angle, theta_h) <= 4.0 * EPS);
        assert!(qp.abs() <= 4.0 * EPS * s.q.norm() * pn);
        assert!(relative(pn, M * OMEGA * L) <= 4.0 * EPS);
        assert!(relative(s.q.norm(), L) <= 4.0 * EPS);
        let bound = 10.0 * EPS / (h_omega * h_omega);
        assert!(relative(s.lambda[0], lam) <= bound);
        assert!(relative(mu, lam) <= bound);

        // c doubled (the shipped pendulum without gravity): same step, multipliers halved.
        let doubled = Pendulum { m: M, g: 0.0, l: L };
        let d = RattleStepper::new(&doubled, h, Tolerances::default())
            .unwrap()
            .step(&q0, &p0)
            .unwrap();
        assert!((d.q - s.q).amax() <= 4.0 * EPS * L, "{} vs {}", d.q, s.q);
        assert!(relative(2.0 * d.lambda[0], lam) <= bound);
        assert!(relative(2.0 * d.mu[0], lam) <= bound);
    }
}

#[test]
fn thousand_steps_rotate_by_thousand_theta_h() {
    for h_omega in [0.01, 0.1, 0.5] {
        let h = h_omega / OMEGA;
        let (q0, p0) = initial();
        let options = Options::new(h, 1000);
        let sol = solve(&Rotation { m: M, l: L }, Rattle, q0, p0, &options).unwrap();
        // Unwrapped angle minus 1000·θ_h: the sum of the signed angles between successive
        // positions, each less θ_h (summing the angles themselves loses ~1e-12 to rounding).
        let theta_h = f64::asin(h_omega);
        let error: f64 = sol
            .q
            .windows(2)
            .map(|w| (w[0][0] * w[1][1] - w[0][1] * w[1][0]).atan2(w[0].dot(&w[1])) - theta_h)
            .sum();
        let relative_error = error / (1000.0 * theta_h);
        println!(
            "hω = {h_omega}: 1000 steps, angle − 1000·θ_h = {error:.1e} (relative {relative_error:.1e})"
        );
        // Relative: in absolute terms the |p| round-off random walk alone contributes
        // ~N^{3/2}·ε·hω ≈ 1e-12 rad at hω = 0.5.
        assert!(relative_error.abs() <= 1e-12);
    }
}
