//! RATTLE on the Cartesian pendulum with gravity: order 2 against the angle ODE, both
//! constraints at round-off and bounded energy error over 10⁶ steps, and O(h²)
//! global error with multiplier tolerances `τ = K h²`.

#[allow(dead_code)]
mod rattle_common;

use rattle_common::{pendulum_reference, sci, slope};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{Rattle, Tolerances};
use sparkgen::integrate::Options;
use sparkgen::problem::HolonomicSystem;
use sparkgen::solve;
use std::time::Instant;

const PENDULUM: Pendulum = Pendulum {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};
const THETA0: f64 = 1.0;
const THETA_DOT0: f64 = 0.0;

/// The error `max(|q_N − q(T)|∞, |p_N − p(T)|∞)` at `T = 2` for each step size.
fn errors(hs: &[f64], tolerances: impl Fn(f64) -> Tolerances, restore: bool) -> Vec<f64> {
    let t_end = 2.0;
    let (q0, p0) = PENDULUM.state(THETA0, THETA_DOT0);
    let (q_ref, p_ref) = pendulum_reference(&PENDULUM, THETA0, THETA_DOT0, t_end);
    hs.iter()
        .map(|&h| {
            let steps = (t_end / h).round() as usize;
            let mut options = Options::new(h, steps);
            options.constraints = tolerances(h);
            options.restore_consistency = restore;
            let sol = solve(&PENDULUM, Rattle, q0, p0, &options).unwrap();
            let (q, p) = (sol.q[steps], sol.p[steps]);
            (q - q_ref).amax().max((p - p_ref).amax())
        })
        .collect()
}

const HS: [f64; 5] = [0.2, 0.1, 0.05, 0.025, 0.0125];

#[test]
fn order_two() {
    let e = errors(&HS, |_| Tolerances::default(), false);
    let s = slope(&HS, &e);
    println!("RATTLE pendulum errors {}, slope {s:.3}", sci(&e));
    assert!((s - 2.0).abs() <= 0.3, "slope {s}");
}

#[test]
fn loose_multiplier_tolerances_k_h_squared_keep_order_two() {
    // τ_c = τ_v = K h² with K = 0.5 (τ_c is relative: 0.5·h²·‖∇c‖·ℓ in c).
    let k = 0.5;
    let loose = |h: f64| Tolerances {
        position: k * h * h,
        velocity: k * h * h,
        ..Tolerances::default()
    };
    for restore in [false, true] {
        let e = errors(&HS, loose, restore);
        let s = slope(&HS, &e);
        println!(
            "τ = {k}·h², restoration {restore}: errors {}, slope {s:.3}",
            sci(&e)
        );
        assert!(s >= 1.7, "slope {s}");
    }
}

/// Runs `steps` steps with h = 0.05 from θ = 1 at rest; prints the timing and the constraint
/// residuals and returns the maxima of `|c(q_n)|` and `|G M⁻¹ p_n|` and the maxima of the
/// relative energy error over the first and the last tenth of the run.
fn long_run(steps: usize) -> (f64, f64, f64, f64) {
    let (q0, p0) = PENDULUM.state(THETA0, THETA_DOT0);
    let start = Instant::now();
    let sol = solve(&PENDULUM, Rattle, q0, p0, &Options::new(0.05, steps)).unwrap();
    let elapsed = start.elapsed();
    let minv = PENDULUM.inverse_mass_matrix();
    let e0 = PENDULUM.hamiltonian(&q0, &p0);
    let tenth = steps / 10;
    let (mut c_max, mut v_max, mut first, mut last) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (n, (q, p)) in sol.q.iter().zip(&sol.p).enumerate() {
        c_max = c_max.max(PENDULUM.constraints(q).amax());
        v_max = v_max.max((PENDULUM.constraint_jacobian(q) * (minv * p)).amax());
        let energy = ((PENDULUM.hamiltonian(q, p) - e0) / e0).abs();
        if n < tenth {
            first = first.max(energy);
        } else if n > steps - tenth {
            last = last.max(energy);
        }
    }
    let iterations: usize = sol.stats.iter().map(|s| s.iterations).sum();
    println!(
        "{steps} steps in {elapsed:.2?}: max |c(q_n)| = {c_max:.1e}, max |G M⁻¹ p_n| = {v_max:.1e}, \
         mean Newton iterations {:.2}, max relative energy error first tenth {first:.3e}, last tenth {last:.3e}",
        iterations as f64 / steps as f64
    );
    (c_max, v_max, first, last)
}

/// Over 10⁶ steps: `|c(q_n)| ≤ 1e-14·ℓ²`, `|G M⁻¹ p_n| ≤ 1e-14`, and the relative energy error
/// stays bounded without drift (its maximum over the last tenth is at most twice that over the
/// first tenth). About 0.5 s with the workspace's `opt-level = 2` for this package in dev.
#[test]
fn constraints_at_round_off_and_energy_bounded_over_1e6_steps() {
    let (c_max, v_max, first, last) = long_run(1_000_000);
    assert!(c_max <= 1e-14 * PENDULUM.l * PENDULUM.l);
    assert!(v_max <= 1e-14);
    assert!(first > 0.0 && last <= 2.0 * first);
}
