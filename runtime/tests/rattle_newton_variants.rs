//! Exact and simplified Newton for the position multipliers reach the same trajectories (both
//! to round-off); prints iterations and wall time of each (run with `--release` to compare
//! costs: the default variant is the faster one).

use sparkgen::holonomic::problems::{Pendulum, SphericalPendulum, Triatomic};
use sparkgen::holonomic::{MultiplierNewton, Rattle, Tolerances, project};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::solve;
use std::time::{Duration, Instant};

/// Runs both variants; returns the largest state difference and prints the statistics.
fn compare<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    name: &str,
    problem: &P,
    q0: Vector<D>,
    p0: Vector<D>,
    h: f64,
    steps: usize,
) -> f64 {
    let (q0, p0) = project(problem, &q0, &p0, &Tolerances::default()).unwrap();
    let mut states = Vec::new();
    for newton in [MultiplierNewton::Exact, MultiplierNewton::Simplified] {
        let mut options = Options::new(h, steps);
        options.constraints.newton = newton;
        let mut best = Duration::MAX;
        let mut sol = None;
        for _ in 0..3 {
            let start = Instant::now();
            sol = Some(solve(problem, Rattle, q0, p0, &options).unwrap());
            best = best.min(start.elapsed());
        }
        let sol = sol.unwrap();
        let iterations: usize = sol.stats.iter().map(|s| s.iterations).sum();
        println!(
            "{name}, {newton:?}: {:.2} iterations/step, {:.3} µs/step",
            iterations as f64 / steps as f64,
            best.as_secs_f64() * 1e6 / steps as f64
        );
        states.push(sol);
    }
    // Over the first 500 steps (the molecule is chaotic: round-off differences grow later).
    let gap = (0..=500.min(steps))
        .map(|n| {
            let dq = (states[0].q[n] - states[1].q[n]).amax();
            dq.max((states[0].p[n] - states[1].p[n]).amax())
        })
        .fold(0.0, f64::max);
    println!("{name}: max |exact − simplified| over 500 steps = {gap:.1e}");
    gap
}

#[test]
fn variants_agree() {
    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let (q, p) = pendulum.state(1.0, 0.0);
    assert!(compare("pendulum h = 0.05", &pendulum, q, p, 0.05, 20_000) <= 1e-11);
    assert!(compare("pendulum h = 0.2", &pendulum, q, p, 0.2, 5000) <= 1e-11);
    let spherical = SphericalPendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let q = Vector::from([0.6, 0.3, -0.9]).normalize();
    let p = Vector::from([0.4, -0.7, 0.1]);
    assert!(compare("spherical h = 0.05", &spherical, q, p, 0.05, 20_000) <= 1e-11);
    let molecule = Triatomic::WATER_LIKE;
    let q = Vector::<9>::from([0.0, 0.0, 0.0, 0.79, 0.61, 0.0, -0.79, 0.61, 0.0]);
    let p = Vector::<9>::from([0.0, 0.0, 1.6, 0.3, -0.1, 0.0, 0.0, 0.4, -0.2]);
    assert!(compare("triatomic h = 0.02", &molecule, q, p, 0.02, 20_000) <= 1e-10);
}
