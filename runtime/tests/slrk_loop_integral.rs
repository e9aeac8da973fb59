//! SLRK is not exactly symplectic: the first Poincaré invariant `∮p·dq` of a loop of initial
//! data drifts. Measured and printed for every family (s = 2, 3) after 1, 10, 100 and 1000 steps
//! at h = 0.1 on Lotka–Volterra (upstream `a = (−1, −1)`, `b = (1, 2)`), loop `f_loop` of the
//! reference scaled by ½ about its centre, `q₀(σ) = (1 + 0.1 cos 2πσ, 1 + 0.15 sin 2πσ)`,
//! N = 128 points, `p₀ = ϑ(q₀)`; drift relative to `|∮p₀·dq₀|`. Because SLRK holds φ = 0 to
//! round-off, `∮p·dq = ∮ϑ(q)·dq` here.
use sparkgen::diagnostics::{DiagnosticsError, LoopRun, ellipse_loop, integrate_loop};
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::stage::StageMethod;

/// `∮p·dq` of `loop_q0` at steps 0 and `checkpoints`, h = 0.1.
fn run<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(
    lv: &LotkaVolterra2d,
    loop_q0: &[nalgebra::SVector<f64, 2>],
    checkpoints: &[usize],
) -> Result<LoopRun, DiagnosticsError> {
    let steps = checkpoints.iter().copied().max().unwrap_or(0);
    integrate_loop::<M, _, 2, N>(lv, loop_q0, &Options::new(0.1, steps), checkpoints)
}

/// Prints the relative drift of `M`, or why the run stopped. SLRK is not exactly symplectic:
/// after 10 steps the drift is far above the round-off level at which VPRK Gauss conserves the
/// same integral (≤ 1e-12 over 3000 steps, `vprk_loop_integral`). Only the two order-2 families
/// whose drift ruins the run within 1000 steps (`slrk_constraint`) may stop, with a typed error.
fn report<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(
    loop_q0: &[nalgebra::SVector<f64, 2>],
) {
    let lv = LotkaVolterra2d::UPSTREAM;
    match run::<M, N>(&lv, loop_q0, &[1, 10, 100, 1000]).and_then(|r| r.relative_drift()) {
        Ok(drift) => {
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
        Err(e) => {
            println!("{:22} stopped: {e}", M::NAME);
            assert!(
                ["SlrkLobattoIIIAB2", "SlrkLobattoIIICCBar2"].contains(&M::NAME),
                "{}: {e}",
                M::NAME
            );
        }
    }
}

#[test]
fn slrk_loop_integral_drift_is_measured() {
    let loop_q0 = ellipse_loop([1.0, 1.0], [0.1, 0.15], 128);
    println!("relative drift of ∮p·dq after 1, 10, 100, 1000 steps (h = 0.1):");
    report::<SlrkLobattoIIIAB2, 10>(&loop_q0);
    report::<SlrkLobattoIIIAB3, 14>(&loop_q0);
    report::<SlrkLobattoIIIBA2, 10>(&loop_q0);
    report::<SlrkLobattoIIIBA3, 14>(&loop_q0);
    report::<SlrkLobattoIIICCBar2, 10>(&loop_q0);
    report::<SlrkLobattoIIICCBar3, 14>(&loop_q0);
    report::<SlrkLobattoIIICBarC2, 10>(&loop_q0);
    report::<SlrkLobattoIIICBarC3, 14>(&loop_q0);
    report::<SlrkLobattoIIID2, 10>(&loop_q0);
    report::<SlrkLobattoIIID3, 14>(&loop_q0);
    report::<SlrkLobattoIIIE2, 10>(&loop_q0);
    report::<SlrkLobattoIIIE3, 14>(&loop_q0);
}

/// The seed's figure for SLRK Lobatto IIIA–IIIB(2) at h = 0.1: relative drift 2.6e-4 after one
/// step and 1.6e-1 after 100 (two significant digits), in the seed's setup
/// (`ldaeproblem_slrk([1, 1])`: upstream `a`, `b`; loop `f_loop` around `(1, 1)`), here with
/// N = 64 points (N = 16, 32, 64 agree to 1e-10 over 100 steps).
#[test]
#[ignore = "not reproduced: this setup measures +4.06e-4 after 1 step and −3.25e-1 after 100 (the SPARK-test a, b give −2.93e-4 and +1.90e-1); see the report"]
fn seed_figure_for_iiiab_2() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let loop_q0 = ellipse_loop([1.0, 1.0], [0.2, 0.3], 64);
    let drift = run::<SlrkLobattoIIIAB2, 10>(&lv, &loop_q0, &[1, 100])
        .and_then(|r| r.relative_drift())
        .expect("the loop stays in q > 0 for 100 steps");
    println!("∮ϑ·dq₀ = {:e}; drift {drift:?}", {
        let p: Vec<_> = loop_q0.iter().map(|q| lv.theta(q)).collect();
        sparkgen::diagnostics::loop_integral(&loop_q0, &p).unwrap_or(f64::NAN)
    });
    assert!(
        (drift[1].abs() - 2.6e-4).abs() < 0.05e-4,
        "after 1 step: {:e}",
        drift[1]
    );
    assert!(
        (drift[2].abs() - 1.6e-1).abs() < 0.05e-1,
        "after 100 steps: {:e}",
        drift[2]
    );
}
