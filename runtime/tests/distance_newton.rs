//! The two Newton variants of the position multipliers on the dynamic path (exact
//! `G(q₁) M⁻¹ G(q_n)ᵀ`, simplified `A(q_n)`), and consistency restoration with loose
//! tolerances.

#[allow(dead_code)]
mod distance_common;

use distance_common::hanging_chain;
use sparkgen::holonomic::MultiplierNewton;
use sparkgen::holonomic::distance::{DistanceSolution, integrate_distance_rattle};
use sparkgen::integrate::Options;

#[test]
fn exact_and_simplified_newton_reach_round_off_and_agree() {
    let (chain, q0, p0) = hanging_chain(64, 0.5);
    let steps = 500;
    let run = |newton| {
        let mut options = Options::new(2e-3, steps);
        options.constraints.newton = newton;
        integrate_distance_rattle(&chain, &q0, &p0, &options, 1).unwrap()
    };
    let (exact, simplified) = (
        run(MultiplierNewton::Exact),
        run(MultiplierNewton::Simplified),
    );
    let summary = |s: &DistanceSolution| {
        let iterations: usize = s.stats.iter().map(|s| s.iterations).sum();
        let residual = s.stats.iter().map(|s| s.residual).fold(0.0, f64::max);
        (iterations as f64 / steps as f64, residual)
    };
    let ((it_e, r_e), (it_s, r_s)) = (summary(&exact), summary(&simplified));
    let difference = (exact.q.iter().zip(&simplified.q))
        .chain(exact.p.iter().zip(&simplified.p))
        .map(|(a, b)| (a - b).amax())
        .fold(0.0, f64::max);
    println!(
        "64 links, h = 2e-3: mean iterations exact {it_e:.2}, simplified {it_s:.2}; max relative \
         residual {r_e:.1e} / {r_s:.1e}; max difference {difference:.1e}"
    );
    // Both stop at the tolerance 4ε relative (up to the rounding of the ratio), none at the
    // floating-point fixed point with a larger residual.
    let tolerance = 4.0 * f64::EPSILON * (1.0 + 4.0 * f64::EPSILON);
    assert!(r_e <= tolerance && r_s <= tolerance);
    // Exact Newton converges quadratically: fewer iterations than the linear simplified one.
    assert!(it_e < it_s);
    assert!(difference <= 1e-12, "{difference}");
}

#[test]
fn restoration_holds_constraints_at_round_off_with_loose_tolerances() {
    let n = 16;
    let l = 1.0 / n as f64;
    let (chain, q0, p0) = hanging_chain(n, 0.5);
    let mut options = Options::new(2e-3, 2000);
    options.constraints.position = 1e-6;
    options.constraints.velocity = 1e-6;
    let worst = |sol: &DistanceSolution| {
        (sol.q.iter())
            .map(|q| chain.constraints(q).amax() / (l * l))
            .fold(0.0, f64::max)
    };
    let loose = integrate_distance_rattle(&chain, &q0, &p0, &options, 1).unwrap();
    options.restore_consistency = true;
    let restored = integrate_distance_rattle(&chain, &q0, &p0, &options, 1).unwrap();
    let (w_loose, w_restored) = (worst(&loose), worst(&restored));
    println!(
        "τ_c = 1e-6: max |c(q_n)|/ℓ² = {w_loose:.1e} without, {w_restored:.1e} with restoration"
    );
    assert!(w_loose > 1e-12);
    // The chain's coordinates are at most N ℓ: the round-off floor is about N ε ℓ².
    assert!(w_restored <= 1e-14 * n as f64, "{w_restored}");
}
