//! VPRK Gauss(2) and Gauss(3) are symplectic: `∮p·dq` of a loop of initial data is conserved to
//! ≤ 1e-12 relative over 3000 steps at h = 0.1 on Lotka–Volterra, with upstream's `a = (−1, −1)`,
//! `b = (1, 2)` and in the seed's setup (the SPARK test configuration, see `slrk_loop_integral`).
//!
//! Upstream's loop: `f_loop` of the reference scaled by ½ about its centre,
//! `q₀(σ) = (1 + 0.1 cos 2πσ, 1 + 0.15 sin 2πσ)`, N = 256 points, `p₀ = ϑ(q₀)`. Over T = 300 the
//! points' different periods wind the loop into a long filament; the spectral quadrature must
//! resolve it: with the full-size loop the quadrature error at T = 300 is 8e-2 (N = 128); with the
//! half-size loop it is 1.4e-7 at N = 128 and below round-off at N = 256. Spectral differentiation
//! amplifies the points' round-off by O(N), which sets the floor (~5e-13 here).
use sparkgen::diagnostics::{ellipse_loop, integrate_loop};
use sparkgen::generated::steppers::{VprkGauss2, VprkGauss3};
use sparkgen::integrate::Options;
use sparkgen::problems::LotkaVolterra2d;

const CHECKPOINTS: [usize; 5] = [1, 10, 100, 1000, 3000];

fn check(name: &str, drift: &[f64]) {
    let shown: Vec<String> = drift[1..].iter().map(|d| format!("{d:+.2e}")).collect();
    println!(
        "{name}: relative drift after {CHECKPOINTS:?} steps: {}",
        shown.join("  ")
    );
    let worst = drift.iter().fold(0.0f64, |m, d| m.max(d.abs()));
    assert!(worst <= 1e-12, "{name}: {worst:e}");
}

/// Both methods over 3000 steps at h = 0.1 from `loop_q0` on `lv`.
fn conserve(lv: &LotkaVolterra2d, loop_q0: &[nalgebra::SVector<f64, 2>]) {
    let options = Options::new(0.1, 3000);
    let gauss2 = integrate_loop(lv, VprkGauss2, loop_q0, &options, &CHECKPOINTS)
        .and_then(|r| r.relative_drift());
    let gauss3 = integrate_loop(lv, VprkGauss3, loop_q0, &options, &CHECKPOINTS)
        .and_then(|r| r.relative_drift());
    check(
        "VprkGauss2",
        &gauss2.expect("VprkGauss2 integrates the loop"),
    );
    check(
        "VprkGauss3",
        &gauss3.expect("VprkGauss3 integrates the loop"),
    );
}

#[test]
fn vprk_gauss_conserves_the_loop_integral() {
    let loop_q0 = ellipse_loop([1.0, 1.0], [0.1, 0.15], 256);
    conserve(&LotkaVolterra2d::UPSTREAM, &loop_q0);
}

/// The control of the seed's SLRK measurement (`slrk_loop_integral`), in its setup: the SPARK
/// test configuration (`a = (1, 1)`, `b = (−1, −2)`), the circle of radius 0.1 around `(1, 1)`,
/// N = 200 points.
#[test]
fn vprk_gauss_conserves_the_loop_integral_in_the_seed_setup() {
    let loop_q0 = ellipse_loop(LotkaVolterra2d::SPARK_TEST_Q0, [0.1, 0.1], 200);
    conserve(&LotkaVolterra2d::SPARK_TEST, &loop_q0);
}
