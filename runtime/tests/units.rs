//! Newton's tolerances in the problem's own units: the same degenerate Lagrangian written in
//! three systems of length units reaches `|p − ϑ(q)| ≤ 1e−14·max|p|` with default options in
//! each, and the three trajectories are one.
//!
//! Lotka–Volterra (`ϑ = (y + ln(y)/x, x)`, `H = a₁x + a₂y + b₁ ln x + b₂ ln y`) in coordinates
//! `q' = q/α`: `L'(q', q̇') = L(αq', αq̇')` has `ϑ'(q') = α ϑ(αq')` and `H'(q') = H(αq')`, so
//! `q'(t) = q(t)/α` and `p'(t) = α p(t)`. With `α = 10⁴` positions and velocities are 10⁻⁴ of
//! the original and momenta 10⁴ times; with `α = 10⁻⁴` the reverse. An absolute floor in a
//! tolerance (`max(1, ·)`) resolves the small quantities only relative to the large ones: before
//! the rule became relative to each row's terms and each unknown block's scale, `α = 10⁻⁴` left
//! `|p − ϑ(q)|` at 1.7e−10 of `|p|` with SLRK Lobatto IIIE(3).

use sparkgen::generated::steppers::{SlrkLobattoIIIE3, SparkGlrk2, VsparkPrimaryGlrkpMidpoint3};
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::stage::StageMethod;

#[derive(DegenerateLagrangian)]
#[lagrangian(
    q = [x, y],
    theta = [alpha * (alpha * y + ln(alpha * y) / (alpha * x)), alpha * (alpha * x)],
    hamiltonian = a1 * alpha * x + a2 * alpha * y + b1 * ln(alpha * x) + b2 * ln(alpha * y)
)]
struct ScaledLotkaVolterra {
    alpha: f64,
    a1: f64,
    a2: f64,
    b1: f64,
    b2: f64,
}

const ALPHAS: [f64; 3] = [1.0, 1e4, 1e-4];
const STEPS: usize = 2000;

/// For each α: `max_n |p_n − ϑ(q_n)|∞ / max_n |p_n|∞` and the largest relative difference of
/// `α q'_n` from the α = 1 trajectory.
fn run<
    M: StageMethod<ScaledLotkaVolterra, 2> + Method<ScaledLotkaVolterra, 2, Direct> + Default,
>() -> Vec<(f64, f64)> {
    let mut reference: Option<Vec<nalgebra::SVector<f64, 2>>> = None;
    ALPHAS
        .iter()
        .map(|&alpha| {
            let lv = ScaledLotkaVolterra {
                alpha,
                a1: -1.0,
                a2: -1.0,
                b1: 1.0,
                b2: 2.0,
            };
            let q0 = nalgebra::SVector::from([2.0, 1.0]) / alpha;
            let s = solve(
                &lv,
                M::default(),
                q0,
                lv.theta(&q0),
                &Options::new(0.1, STEPS),
            )
            .unwrap_or_else(|f| panic!("{} at α = {alpha}: {}", M::NAME, f.error));
            let phi = s.q.iter().zip(&s.p).map(|(q, p)| (p - lv.theta(q)).amax());
            let p_max = s.p.iter().map(|p| p.amax()).fold(0.0, f64::max);
            let phi = phi.fold(0.0, |m: f64, v| if v.is_nan() { v } else { m.max(v) }) / p_max;
            let q: Vec<_> = s.q.iter().map(|q| q * alpha).collect();
            let reference = reference.get_or_insert_with(|| q.clone());
            let apart = q
                .iter()
                .zip(reference.iter())
                .map(|(a, b)| (a - b).amax() / b.amax())
                .fold(0.0, f64::max);
            (phi, apart)
        })
        .collect()
}

fn check(name: &str, results: &[(f64, f64)]) {
    for (&alpha, &(phi, apart)) in ALPHAS.iter().zip(results) {
        eprintln!("{name} α = {alpha:e}: |φ|/|p| {phi:.2e}, apart {apart:.2e}");
        assert!(phi <= 1e-14, "{name} at α = {alpha}: |φ|/|p| = {phi:e}");
        // The same motion up to the round-off that accumulates over the run.
        assert!(apart <= 1e-9, "{name} at α = {alpha}: {apart:e} from α = 1");
    }
}

#[test]
fn slrk_holds_the_constraint_to_round_off_in_every_unit_system() {
    check("SlrkLobattoIIIE3", &run::<SlrkLobattoIIIE3>());
}

#[test]
fn spark_holds_the_constraint_to_round_off_in_every_unit_system() {
    check("SparkGlrk2", &run::<SparkGlrk2>());
}

#[test]
fn projected_vprk_holds_the_constraint_to_round_off_in_every_unit_system() {
    check(
        "VsparkPrimaryGlrkpMidpoint3",
        &run::<VsparkPrimaryGlrkpMidpoint3>(),
    );
}
