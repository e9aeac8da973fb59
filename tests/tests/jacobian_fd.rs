//! The exact stage Jacobian `∂r/∂x` of every generated stepper agrees with central differences
//! of the residual `r` at random states (and carried multipliers) inside the problems' domains, for
//! h ∈ {0.01, 0.1, 0.5, 0.99, 1.0}.
//!
//! Central differences: see `support/fd.rs`.
#[macro_use]
#[path = "support/steppers.rs"]
mod steppers;
#[path = "support/fd.rs"]
mod fd;

use fd::{Rng, largest_discrepancy};
use nalgebra::SVector;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::{DegeneratePendulum, LotkaVolterra2d, LotkaVolterra2dSingular};
use sparkgen::stage::StageMethod;

/// Checks `M` on `problem` at 4 random states per step size: `q ∈ [1, 2]²`, `p = ϑ(q)` plus a
/// perturbation in `[−0.1, 0.1]`, unknowns in `[−0.3, 0.3]` (stages stay in `q > 0`).
fn check<M, P, const N: usize>(problem: &P, rng: &mut Rng, worst: &mut Vec<(&'static str, f64)>)
where
    M: StageMethod<P, 2>,
    P: DegenerateLagrangian<2>,
{
    let state = |rng: &mut Rng| {
        let q = SVector::from([rng.uniform(1.0, 2.0), rng.uniform(1.0, 2.0)]);
        let p = problem.theta(&q) + SVector::from([rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1)]);
        (q, p)
    };
    worst.push((M::NAME, largest_discrepancy::<M, P, N>(problem, rng, state)));
}

#[test]
fn exact_jacobians_match_central_differences() {
    let mut rng = Rng(0x5eed);
    let mut worst = Vec::new();
    let standard = LotkaVolterra2d::UPSTREAM;
    let singular = LotkaVolterra2dSingular::SPARK_TEST;
    let pendulum = DegeneratePendulum;
    for_every_stepper!(check(&standard, &mut rng, &mut worst));
    for_every_stepper!(check(&singular, &mut rng, &mut worst));
    for_every_stepper!(check(&pendulum, &mut rng, &mut worst));
    assert_eq!(worst.len(), 3 * 34);
    let (name, e) = worst
        .iter()
        .fold(("", 0.0f64), |a, b| if b.1 > a.1 { *b } else { a });
    println!(
        "largest |J_fd − J|_max / max(1, |J|_max) over 34 steppers × 3 problems × 5 h × 4 states: {e:.2e} ({name})"
    );
}

/// Upstream's two forms of SPARK's μ (`…UpstreamMu`, whose positions carry the component shift
/// Σ, and `…OmegaMu`), kept for side-by-side measurement, have exact Jacobians too.
#[test]
fn upstream_mu_compatibility_jacobians_match_central_differences() {
    use sparkgen::generated::steppers::*;
    let mut rng = Rng(0x3a17);
    let mut worst = Vec::new();
    let lv = LotkaVolterra2d::UPSTREAM;
    check::<SparkLobattoIIIAIIIBUpstreamMu2, _, 6>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIAIIIBUpstreamMu3, _, 8>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIAIIIBUpstreamMu4, _, 10>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIBIIIAUpstreamMu2, _, 6>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIBIIIAUpstreamMu3, _, 8>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIBIIIAUpstreamMu4, _, 10>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIAIIIBOmegaMu2, _, 6>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIAIIIBOmegaMu3, _, 8>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIAIIIBOmegaMu4, _, 10>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIBIIIAOmegaMu2, _, 6>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIBIIIAOmegaMu3, _, 8>(&lv, &mut rng, &mut worst);
    check::<SparkLobattoIIIBIIIAOmegaMu4, _, 10>(&lv, &mut rng, &mut worst);
    let (name, e) = worst
        .iter()
        .fold(("", 0.0f64), |a, b| if b.1 > a.1 { *b } else { a });
    println!("largest |J_fd − J|_max / max(1, |J|_max) over the 12 μ forms: {e:.2e} ({name})");
}
