//! SLRK is not exactly symplectic: the first Poincaré invariant `∮p·dq` of a loop of initial
//! data drifts. Measured in the seed's setup (`scripts/slrk_verification.jl` of the reference):
//! Lotka–Volterra in the SPARK test configuration (`a = (1, 1)`, `b = (−1, −2)`, the loop around
//! `q₀ = (1, 1)`), the circle `q₀(σ) = (1 + 0.1 cos 2πσ, 1 + 0.1 sin 2πσ)` of radius 0.1 sampled at
//! N = 200 points, `p₀ = ϑ(q₀)`, h = 0.1, drift relative to `|∮p₀·dq₀|`. Because SLRK holds φ = 0
//! to round-off, `∮p·dq = ∮ϑ(q)·dq` here.
//!
//! The seed's figures are reproduced to their two significant digits (IIIA–IIIB(2): 2.6e-4 after
//! one step, 1.6e-1 after 100; IIIA–IIIB(3): 7.8e-8 after one; IIID(3): 8.6e-10, 5.7e-7, 6.1e-6
//! and 1.9e-5 after 1, 100, 1000 and 3000). The seed quotes magnitudes; the signs are printed.
use nalgebra::SVector;
use sparkgen::diagnostics::{DiagnosticsError, ellipse_loop, integrate_loop};
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::stage::StageMethod;

/// The seed's loop: the circle of radius 0.1 around the SPARK test configuration's `q₀ = (1, 1)`,
/// 200 points.
fn seed_loop() -> Vec<SVector<f64, 2>> {
    ellipse_loop(LotkaVolterra2d::SPARK_TEST_Q0, [0.1, 0.1], 200)
}

/// The relative drift of `∮p·dq` after each of `checkpoints` steps of `method` at h = 0.1 (entry 0 is
/// step 0).
fn drift<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Copy>(
    method: M,
    checkpoints: &[usize],
) -> Result<Vec<f64>, DiagnosticsError> {
    let steps = checkpoints.iter().copied().max().unwrap_or(0);
    let options = Options::new(0.1, steps);
    integrate_loop(
        &LotkaVolterra2d::SPARK_TEST,
        method,
        &seed_loop(),
        &options,
        checkpoints,
    )
    .and_then(|run| run.relative_drift())
}

/// Prints the relative drift of `method` after 1, 10, 100 and 1000 steps. SLRK is not exactly
/// symplectic: after 10 steps the drift is far above the round-off level at which VPRK Gauss
/// conserves the same integral (≤ 1e-12 over 3000 steps, `vprk_loop_integral`). Every family
/// integrates the whole loop for 1000 steps in this configuration.
fn report<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Copy>(
    method: M,
) {
    let drift = drift(method, &[1, 10, 100, 1000])
        .unwrap_or_else(|e| panic!("{}: the loop integrates for 1000 steps: {e}", M::NAME));
    let shown: Vec<String> = drift[1..].iter().map(|d| format!("{d:+.2e}")).collect();
    println!("{:22} {}", M::NAME, shown.join("  "));
    assert!(drift.iter().all(|d| d.is_finite()));
    assert!(
        drift[2].abs() > 1e-10,
        "{}: drift after 10 steps {:e}",
        M::NAME,
        drift[2]
    );
}

#[test]
fn slrk_loop_integral_drift_is_measured() {
    println!("relative drift of ∮p·dq after 1, 10, 100, 1000 steps (h = 0.1):");
    report(SlrkLobattoIIIAB2);
    report(SlrkLobattoIIIAB3);
    report(SlrkLobattoIIIBA2);
    report(SlrkLobattoIIIBA3);
    report(SlrkLobattoIIICCBar2);
    report(SlrkLobattoIIICCBar3);
    report(SlrkLobattoIIICBarC2);
    report(SlrkLobattoIIICBarC3);
    report(SlrkLobattoIIID2);
    report(SlrkLobattoIIID3);
    report(SlrkLobattoIIIE2);
    report(SlrkLobattoIIIE3);
}

/// Asserts that `|measured|`, rounded to two significant digits, is `seed`.
fn assert_seed_figure(name: &str, steps: usize, measured: f64, seed: f64) {
    println!("{name} after {steps} steps: {measured:+.3e} (seed {seed:.1e})");
    let rounded: f64 = format!("{:.1e}", measured.abs())
        .parse()
        .expect("a formatted float parses");
    assert_eq!(rounded, seed, "{name} after {steps} steps: {measured:e}");
}

/// The seed's figure for SLRK Lobatto IIIA–IIIB(2): relative drift 2.6e-4 after one step and
/// 1.6e-1 after 100.
#[test]
fn seed_figure_for_iiiab_2() {
    let d = drift(SlrkLobattoIIIAB2, &[1, 100]).expect("the loop integrates for 100 steps");
    assert_seed_figure("SlrkLobattoIIIAB2", 1, d[1], 2.6e-4);
    assert_seed_figure("SlrkLobattoIIIAB2", 100, d[2], 1.6e-1);
}

/// The reference's one-step figure for SLRK Lobatto IIIA–IIIB(3): 7.8e-8.
#[test]
fn seed_figure_for_iiiab_3() {
    let d = drift(SlrkLobattoIIIAB3, &[1]).expect("the loop integrates for one step");
    assert_seed_figure("SlrkLobattoIIIAB3", 1, d[1], 7.8e-8);
}

/// The reference's figures for SLRK Lobatto IIID(3), whose drift grows linearly in the number of
/// steps: 8.6e-10 after one step, 5.7e-7 after 100, 6.1e-6 after 1000, 1.9e-5 after 3000.
#[test]
fn seed_figures_for_iiid_3() {
    let d =
        drift(SlrkLobattoIIID3, &[1, 100, 1000, 3000]).expect("the loop integrates for 3000 steps");
    for (k, (steps, seed)) in [(1, 8.6e-10), (100, 5.7e-7), (1000, 6.1e-6), (3000, 1.9e-5)]
        .into_iter()
        .enumerate()
    {
        assert_seed_figure("SlrkLobattoIIID3", steps, d[k + 1], seed);
    }
}
