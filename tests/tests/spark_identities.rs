//! Cross-identities of the SPARK family, over 100 steps at h = 0.1 on Lotka–Volterra in the
//! SPARK test configuration (`a = (1, 1)`, `b = (−1, −2)`, `q₀ = (1, 1)`):
//!
//! - SPARK GLVPRK(s) is VPRK Gauss(s): with `ω = [I | 0]` the projective rows are the discrete
//!   Legendre transforms `P̃_i = ϑ(Q̃_i)` of VPRK with `V_i = Λ̃_i`, and `F_i + G_i =
//!   J(Q_i)ᵀΛ̃_i − ∇H(Q_i)` is VPRK's force.
//! - SPARK over the Lobatto pairs IIIA–IIIB and IIIB–IIIA, corrected (no null vector, no μ),
//!   against SLRK over the same pair: the two reach the same order 2s − 2; whether they are the
//!   same map is measured here.
#[path = "support/step_difference.rs"]
mod step_difference;

use nalgebra::SVector;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::stage::StageMethod;
use step_difference::{driver, largest_step_difference};

const STEPS: usize = 100;
const H: f64 = 0.1;

fn run<M>() -> (Vec<SVector<f64, 2>>, Vec<SVector<f64, 2>>)
where
    M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default,
{
    let lv = LotkaVolterra2d::SPARK_TEST;
    let q0 = SVector::from(LotkaVolterra2d::SPARK_TEST_Q0);
    let solution = solve(
        &lv,
        M::default(),
        q0,
        lv.theta(&q0),
        &Options::new(H, STEPS),
    )
    .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error));
    (solution.q, solution.p)
}

/// `max_n max(|q_n − q'_n|∞, |p_n − p'_n|∞)`.
fn distance(
    a: &(Vec<SVector<f64, 2>>, Vec<SVector<f64, 2>>),
    b: &(Vec<SVector<f64, 2>>, Vec<SVector<f64, 2>>),
) -> f64 {
    a.0.iter()
        .zip(&b.0)
        .chain(a.1.iter().zip(&b.1))
        .map(|(x, y)| (x - y).amax())
        .fold(0.0, f64::max)
}

/// Along the trajectory of `B`, the largest difference of one step of `A` and of `B` from the
/// same state `(q_n, p_n)`: the distance of the two step maps, free of the round-off that
/// accumulates along two separately computed trajectories.
fn step_map_distance<A, B>() -> f64
where
    A: StageMethod<LotkaVolterra2d, 2>,
    B: StageMethod<LotkaVolterra2d, 2>,
{
    let lv = LotkaVolterra2d::SPARK_TEST;
    let start = lv.initial(LotkaVolterra2d::SPARK_TEST_Q0);
    let drivers = (
        &mut driver::<B, _, 2>(&lv, H),
        &mut driver::<A, _, 2>(&lv, H),
    );
    largest_step_difference(drivers, start, H, STEPS)
}

#[test]
fn spark_glvprk_is_vprk_gauss() {
    let maps = [
        step_map_distance::<SparkGlvprk1, VprkGauss1>(),
        step_map_distance::<SparkGlvprk2, VprkGauss2>(),
        step_map_distance::<SparkGlvprk3, VprkGauss3>(),
        step_map_distance::<SparkGlvprk4, VprkGauss4>(),
    ];
    let trajectories = [
        distance(&run::<SparkGlvprk1>(), &run::<VprkGauss1>()),
        distance(&run::<SparkGlvprk2>(), &run::<VprkGauss2>()),
        distance(&run::<SparkGlvprk3>(), &run::<VprkGauss3>()),
        distance(&run::<SparkGlvprk4>(), &run::<VprkGauss4>()),
    ];
    println!("SPARK GLVPRK(s) against VPRK Gauss(s), s = 1..4, {STEPS} steps of h = {H}:");
    println!("  step maps from the same state: {maps:?}");
    println!("  trajectories:                  {trajectories:?}");
    for (s, (m, t)) in maps.iter().zip(&trajectories).enumerate() {
        // Both Newton solves stop at the round-off tolerance, so the two maps agree to the
        // conditioning of the stage systems times that tolerance, not to the last bit.
        assert!(*m <= 1e-13, "s = {}: step maps differ by {m:e}", s + 1);
        // Each step adds a few ulp of disagreement, which the shear of the Lotka–Volterra
        // orbits carries along: about n²ε/2 ≈ 1e-12 after n = 100 steps.
        assert!(*t <= 1e-12, "s = {}: trajectories differ by {t:e}", s + 1);
    }
}

#[test]
fn corrected_spark_lobatto_against_slrk() {
    let ab = [
        distance(&run::<SparkLobattoIIIAIIIB2>(), &run::<SlrkLobattoIIIAB2>()),
        distance(&run::<SparkLobattoIIIAIIIB3>(), &run::<SlrkLobattoIIIAB3>()),
        distance(&run::<SparkLobattoIIIAIIIB4>(), &run::<SlrkLobattoIIIAB4>()),
    ];
    let ba = [
        distance(&run::<SparkLobattoIIIBIIIA2>(), &run::<SlrkLobattoIIIBA2>()),
        distance(&run::<SparkLobattoIIIBIIIA3>(), &run::<SlrkLobattoIIIBA3>()),
        distance(&run::<SparkLobattoIIIBIIIA4>(), &run::<SlrkLobattoIIIBA4>()),
    ];
    println!("max |SPARK − SLRK| over {STEPS} steps, s = 2..4: IIIA–IIIB {ab:?}, IIIB–IIIA {ba:?}");
    for d in ab.iter().chain(&ba) {
        assert!(*d <= 1e-13, "{d:e}");
    }
}

/// `(step-map distance, trajectory distance)` of two steppers.
macro_rules! compare {
    ($a:ty, $b:ty) => {
        (
            stringify!($a),
            step_map_distance::<$a, $b>(),
            distance(&run::<$a>(), &run::<$b>()),
        )
    };
}

/// VSPARKsecondary over a Lobatto pair (σ = s) is SLRK over the same pair: the same internal
/// stages and constraint rows, with μ scaled by h on the momentum row instead of the position
/// row.
#[test]
fn vspark_secondary_of_a_lobatto_pair_is_slrk() {
    let rows = [
        compare!(VsparkSecondaryLobattoIIIAB2, SlrkLobattoIIIAB2),
        compare!(VsparkSecondaryLobattoIIIAB3, SlrkLobattoIIIAB3),
        compare!(VsparkSecondaryLobattoIIIAB4, SlrkLobattoIIIAB4),
        compare!(VsparkSecondaryLobattoIIIBA2, SlrkLobattoIIIBA2),
        compare!(VsparkSecondaryLobattoIIIBA3, SlrkLobattoIIIBA3),
        compare!(VsparkSecondaryLobattoIIIBA4, SlrkLobattoIIIBA4),
        compare!(VsparkSecondaryLobattoIIICCBar2, SlrkLobattoIIICCBar2),
        compare!(VsparkSecondaryLobattoIIICCBar3, SlrkLobattoIIICCBar3),
        compare!(VsparkSecondaryLobattoIIICCBar4, SlrkLobattoIIICCBar4),
        compare!(VsparkSecondaryLobattoIIICBarC2, SlrkLobattoIIICBarC2),
        compare!(VsparkSecondaryLobattoIIICBarC3, SlrkLobattoIIICBarC3),
        compare!(VsparkSecondaryLobattoIIICBarC4, SlrkLobattoIIICBarC4),
        compare!(VsparkSecondaryLobattoIIID2, SlrkLobattoIIID2),
        compare!(VsparkSecondaryLobattoIIID3, SlrkLobattoIIID3),
        compare!(VsparkSecondaryLobattoIIID4, SlrkLobattoIIID4),
        compare!(VsparkSecondaryLobattoIIIE2, SlrkLobattoIIIE2),
        compare!(VsparkSecondaryLobattoIIIE3, SlrkLobattoIIIE3),
        compare!(VsparkSecondaryLobattoIIIE4, SlrkLobattoIIIE4),
    ];
    println!("VSPARKsecondary against SLRK, {STEPS} steps of h = {H} (step maps, trajectories):");
    for (name, map, trajectory) in rows {
        println!("  {name:34} {map:.1e} {trajectory:.1e}");
        assert!(map <= 1e-13, "{name}: step maps differ by {map:e}");
        assert!(
            trajectory <= 1e-12,
            "{name}: trajectories differ by {trajectory:e}"
        );
    }
}
