//! SHAKE on the Cartesian pendulum: order 2 (positions and central-difference momenta) against
//! the angle ODE, positions identical to RATTLE's, `|c(q_n)|` at round-off over 10⁵ steps.

#[allow(dead_code)]
mod rattle_common;

use rattle_common::{pendulum_reference, sci, slope};
use sparkgen::error::IntegrateError;
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{Rattle, Shake};
use sparkgen::integrate::Options;
use sparkgen::problem::HolonomicSystem;
use sparkgen::solve;
use std::time::Instant;

const PENDULUM: Pendulum = Pendulum {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};

#[test]
fn order_two() {
    let hs = [0.2, 0.1, 0.05, 0.025, 0.0125];
    let t_end = 2.0;
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let (q_ref, p_ref) = pendulum_reference(&PENDULUM, 1.0, 0.0, t_end);
    let (mut eq, mut ep) = (Vec::new(), Vec::new());
    for h in hs {
        let steps = (t_end / h).round() as usize;
        let sol = solve(&PENDULUM, Shake, q0, p0, &Options::new(h, steps)).unwrap();
        assert_eq!(sol.q.len(), steps + 1);
        eq.push((sol.q[steps] - q_ref).amax());
        ep.push((sol.p[steps] - p_ref).amax());
    }
    let (sq, sp) = (slope(&hs, &eq), slope(&hs, &ep));
    println!(
        "SHAKE positions {} slope {sq:.3}; momenta {} slope {sp:.3}",
        sci(&eq),
        sci(&ep)
    );
    assert!((sq - 2.0).abs() <= 0.3 && (sp - 2.0).abs() <= 0.3);
}

#[test]
fn positions_agree_with_rattle_and_constraint_at_round_off_over_1e5_steps() {
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let options = Options::new(0.05, 100_000);
    let start = Instant::now();
    let shake = solve(&PENDULUM, Shake, q0, p0, &options).unwrap();
    let elapsed = start.elapsed();
    let c_max = shake
        .q
        .iter()
        .map(|q| PENDULUM.constraints(q).amax())
        .fold(0.0, f64::max);
    let rattle = solve(&PENDULUM, Rattle, q0, p0, &Options::new(0.05, 1000)).unwrap();
    let gap = (0..=1000)
        .map(|n| (shake.q[n] - rattle.q[n]).amax())
        .fold(0.0, f64::max);
    println!(
        "SHAKE 10⁵ steps in {elapsed:.2?}: max |c(q_n)| = {c_max:.1e}; max |q_SHAKE − q_RATTLE| over 1000 steps = {gap:.1e}"
    );
    assert!(c_max <= 1e-14 * PENDULUM.l * PENDULUM.l);
    // Same positions in exact arithmetic; the two recursions round differently.
    assert!(gap <= 1e-11);
}

#[test]
fn restoration_is_rejected() {
    let (q0, p0) = PENDULUM.state(1.0, 0.0);
    let mut options = Options::new(0.05, 10);
    options.restore_consistency = true;
    let failure = solve(&PENDULUM, Shake, q0, p0, &options).unwrap_err();
    assert!(matches!(failure.error, IntegrateError::InvalidOptions(_)));
    assert!(failure.solution.t.is_empty());
}
