//! VPRK Gauss(3) on Lotka–Volterra (upstream defaults, q₀ = (2, 1), p₀ = ϑ(q₀)) carries `p`
//! beside `q` and does not hold the primary constraint `ϕ = p − ϑ(q) = 0`. Nothing damps `ϕ`
//! (the step is symplectic in (q, p): an eigenvalue of its tangent map inside the unit circle
//! comes with its reciprocal outside; for Gauss(2) all four lie on it, `vprk_parasitic`), so what
//! each step puts into it (truncation error, round-off) stays and wanders, and the energy error
//! follows it: iterating Newton to its round-off floor and compensated summation of the update
//! leave it at the same size (BENCHMARKS.md, table 5). The midpoint projection of the same stages (`VsparkPrimaryGlrkpMidpoint3`:
//! one projective stage that enforces `ϕ(q_{n+1}, p_{n+1}) = 0`) holds `ϕ` at round-off, and its
//! energy error stays at the truncation level of the order-6 Gauss stages, bounded in time.
//!
//! This is the measured reason behind BENCHMARKS.md table 5: at T = 10⁵ VPRK Gauss(3)'s energy
//! error gets *worse* as h shrinks below 0.025, while VPRKpMidpoint Gauss(3) reaches 6.1e-7 at
//! h = 0.2 and keeps it to T = 10⁷.

use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::{VprkGauss2, VprkGauss3, VsparkPrimaryGlrkpMidpoint3};
use sparkgen::integrate::{Options, Watch};
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::Solution;
use sparkgen::solve;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;

const LV: LotkaVolterra2d = LotkaVolterra2d::UPSTREAM;

/// Per step n: `|ϕ(q_n, p_n)|∞` and the relative energy error `|H(q_n) − H(q₀)|/|H(q₀)|`.
fn defects(solution: &Solution<2>) -> (Vec<f64>, Vec<f64>) {
    let h0 = LV.hamiltonian(&solution.q[0]);
    solution
        .q
        .iter()
        .zip(&solution.p)
        .map(|(q, p)| {
            (
                (p - LV.theta(q)).amax(),
                ((LV.hamiltonian(q) - h0) / h0).abs(),
            )
        })
        .unzip()
}

fn run<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default>(
    h: f64,
    steps: usize,
) -> Solution<2> {
    run_with::<M>(&Options::new(h, steps))
}

fn run_with<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default>(
    options: &Options,
) -> Solution<2> {
    let (q0, p0) = LV.initial(LotkaVolterra2d::UPSTREAM_Q0);
    solve(&LV, M::default(), q0, p0, options)
        .unwrap_or_else(|failure| panic!("{}: {}", M::NAME, failure.error))
}

fn max(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(*x))
}

/// Same stages, same h = 0.05, T = 10⁴ (2·10⁵ steps). Measured: VPRK Gauss(3) max |ϕ|∞ 1.4e-6
/// and energy error 1.6e-6; with the projection 7e-15 and 1.2e-10.
#[test]
fn the_midpoint_projection_holds_the_constraint_that_vprk_gauss_lets_wander() {
    let (h, steps) = (0.05, 200_000);
    let (phi_free, energy_free) = defects(&run::<VprkGauss3>(h, steps));
    let (phi_projected, energy_projected) = defects(&run::<VsparkPrimaryGlrkpMidpoint3>(h, steps));
    let [phi_free, energy_free, phi_projected, energy_projected] = [
        max(&phi_free),
        max(&energy_free),
        max(&phi_projected),
        max(&energy_projected),
    ];
    println!(
        "h = {h}, T = 1e4: VPRK Gauss(3) max |ϕ| {phi_free:.2e}, energy {energy_free:.2e}; \
         midpoint projection max |ϕ| {phi_projected:.2e}, energy {energy_projected:.2e}"
    );
    assert!(phi_projected <= 1e-13, "{phi_projected:e}");
    assert!(phi_free >= 1e-8, "{phi_free:e}");
    assert!(
        energy_projected <= 1e-3 * energy_free,
        "{energy_projected:e} vs {energy_free:e}"
    );
}

/// At h = 0.2 over T = 10⁴ (5·10⁴ steps) the projected method's energy error is the same in both
/// halves of the run (no drift) and below 1e-6 (measured 6.1e-7, also to T = 10⁷).
#[test]
fn the_projected_energy_error_is_bounded_at_a_large_step() {
    let (h, steps) = (0.2, 50_000);
    let (phi, energy) = defects(&run::<VsparkPrimaryGlrkpMidpoint3>(h, steps));
    let (first, second) = energy.split_at(steps / 2);
    let (first, second) = (max(first), max(second));
    println!(
        "h = {h}, T = 1e4: energy error {first:.4e} (first half), {second:.4e} (second half); max |ϕ| {:.2e}",
        max(&phi)
    );
    assert!(max(&phi) <= 1e-13, "{:e}", max(&phi));
    assert!(second <= 1e-6, "{second:e}");
    assert!(second <= 1.05 * first, "{first:e} → {second:e}");
}

/// Where the truncation error is far below what round-off can add up to (h = 0.0125: order 6
/// scales h = 0.05's 1.24e-10 down to about 3e-14), the default Newton stopping rule shows as a linear energy drift: the residual test
/// `‖r‖₂ ≤ τ_r = 2ε·√N·max(1, σ)` is met after 1.2 iterations per step on average from the
/// Hermite guess, and what is left of the stage error (the Jacobian's V columns scale with h) is
/// biased, so it adds up step after step. Stopping at `tolerance_factor = 0.25` iterates to the
/// round-off floor (2.95 iterations per step) and the drift goes. Measured over T = 10⁴
/// (8·10⁵ steps): default 4.7e-12 by T/2 and 9.3e-12 by T, tight 2.5e-13; to T = 10⁵ the
/// default reaches 9.0e-11 (linear) and the tight rule 8.3e-13, or 7.9e-14 with compensated
/// summation of the update (Brouwer's law). At h ≥ 0.05 the truncation error hides it
/// (1.24e-10 with either rule).
#[test]
fn the_default_newton_stop_drifts_linearly_at_a_small_step_and_a_tight_one_does_not() {
    let (h, steps) = (0.0125, 800_000);
    let default = Options::new(h, steps);
    let tight = Options {
        newton: NewtonOptions {
            tolerance_factor: 0.25,
            ..NewtonOptions::default()
        },
        ..default
    };
    let halves = |options: &Options| {
        let solution = run_with::<VsparkPrimaryGlrkpMidpoint3>(options);
        let iterations = solution.stats.iter().map(|s| s.iterations).sum::<usize>() as f64;
        let (_, energy) = defects(&solution);
        let (first, _) = energy.split_at(steps / 2);
        (max(first), max(&energy), iterations / steps as f64)
    };
    let (default_half, default_end, default_its) = halves(&default);
    let (tight_half, tight_end, tight_its) = halves(&tight);
    println!(
        "h = {h}: energy error by T/2 and T = 1e4: default {default_half:.2e}, {default_end:.2e} \
         ({default_its:.2} iterations per step); tolerance_factor 0.25 {tight_half:.2e}, \
         {tight_end:.2e} ({tight_its:.2})"
    );
    // The tight rule differs only by iterating further (measured 1.22 → 2.95 per step).
    assert!(
        tight_its >= default_its + 1.0,
        "{default_its} → {tight_its}"
    );
    // Linear: doubling the run doubles the error (measured 1.97).
    assert!(
        default_end >= 1.7 * default_half,
        "{default_half:e} → {default_end:e}"
    );
    assert!(
        tight_end <= 0.1 * default_end,
        "{tight_end:e} vs {default_end:e}"
    );
}

/// VPRK Gauss(2) is no long-time method on Lotka–Volterra: nothing damps `p − ϑ(q)` here either,
/// and its energy error grows without bound. Measured without the constraint watch: at h = 0.1
/// the state stops being finite at t = 2818.7 (step 28188); at h = 0.05 the energy error is
/// 4.8e-2 by T = 10³ and 1.28 by T = 10⁴ (×27 per decade, faster than linear), with
/// max |p − ϑ(q)|∞ = 2.5 (BENCHMARKS.md, table 5: 1.3). With the watch (the default) both runs
/// stop with `ConstraintDeparture` once `p − ϑ(q)` grows exponentially.
#[test]
fn vprk_gauss2_loses_lotka_volterra_over_long_runs() {
    let (q0, p0) = LV.initial(LotkaVolterra2d::UPSTREAM_Q0);
    for (h, steps) in [(0.1, 100_000), (0.05, 200_000)] {
        let stopped = solve(&LV, VprkGauss2, q0, p0, &Options::new(h, steps));
        let failure = stopped.expect_err("VPRK Gauss(2) finished T = 10⁴");
        println!(
            "h = {h}: stopped after {} steps: {}",
            failure.solution.steps(),
            failure.error
        );
        assert!(
            matches!(failure.error, IntegrateError::ConstraintDeparture { .. }),
            "{}",
            failure.error
        );
    }
    let unwatched = Options {
        watch_constraint: Watch::Off,
        ..Options::new(0.05, 200_000)
    };
    let (phi, energy) = defects(&run_with::<VprkGauss2>(&unwatched));
    let (first, _) = energy.split_at(20_000);
    println!(
        "h = 0.05: energy error {:.2e} by T = 10³, {:.2e} by T = 10⁴; max |ϕ| {:.2e}",
        max(first),
        max(&energy),
        max(&phi)
    );
    assert!(max(&energy) >= 0.5, "{:e}", max(&energy));
    assert!(
        max(&energy) >= 10.0 * max(first),
        "{:e} vs {:e}",
        max(&energy),
        max(first)
    );
}
