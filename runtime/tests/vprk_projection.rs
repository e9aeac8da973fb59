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
/// scales h = 0.05's 1.24e-10 down to about 3e-14), Newton's stopping rule is what the energy
/// error shows. A residual at round-off after the first update from the Hermite guess leaves that
/// update's remainder in the velocities (their columns scale with h, so the rows do not show it),
/// with the sign of the guess's error at every step: a linear drift (BENCHMARKS.md, "Newton's
/// stopping rule"). Every solve now ends with an update taken at the floor, and the error is
/// round-off's random walk, of order ε·√N ≈ 2e-13 over these N = 8·10⁵ steps: the bound is
/// five times that. A smaller `tolerance_factor` (0.25) iterates further without changing it,
/// and, with no refresh of the Jacobian at the floor, on one factorisation per step.
#[test]
fn every_newton_solve_ends_at_the_floor_so_a_small_step_does_not_drift() {
    let (h, steps) = (0.0125, 800_000);
    let default = Options::new(h, steps);
    let tight = Options {
        newton: NewtonOptions {
            tolerance_factor: 0.25,
            ..NewtonOptions::default()
        },
        ..default
    };
    let measure = |options: &Options| {
        let solution = run_with::<VsparkPrimaryGlrkpMidpoint3>(options);
        let per_step = |n: usize| n as f64 / steps as f64;
        let (_, energy) = defects(&solution);
        let (first, _) = energy.split_at(steps / 2);
        (
            max(first),
            max(&energy),
            per_step(solution.run.newton_iterations),
            per_step(solution.run.factorisations),
        )
    };
    let (default_half, default_end, default_its, default_factors) = measure(&default);
    let (tight_half, tight_end, tight_its, tight_factors) = measure(&tight);
    println!(
        "h = {h}: energy error by T/2 and T = 1e4, iterations and factorisations per step: \
         default {default_half:.2e}, {default_end:.2e} ({default_its:.2}, {default_factors:.3}); \
         tolerance_factor 0.25 {tight_half:.2e}, {tight_end:.2e} ({tight_its:.2}, {tight_factors:.3})"
    );
    for (what, end) in [("default", default_end), ("tight", tight_end)] {
        assert!(end <= 1e-12, "{what}: {end:e}");
    }
    assert!(
        tight_its >= default_its + 0.5,
        "{default_its} → {tight_its}"
    );
    assert!(
        default_factors <= 1.05 && tight_factors <= 1.05,
        "{default_factors}, {tight_factors} factorisations per step"
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
