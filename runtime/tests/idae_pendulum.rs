//! The implicit-DAE steppers on a problem that is not a degenerate Lagrangian: the planar
//! pendulum in Jay's index-2 form (`IndexTwoPendulum`, `D = 2`, `M = 1`: `p = m v`,
//! `ṗ = −m g e₂ − λ q`, `u = 0`, `φ = q·p/m`), against the angle equation `θ̈ = −(g/ℓ) sin θ`
//! integrated by Gauss(8). The constraint `φ(q_n, p_n) = 0` holds to round-off; the position
//! constraint `|q| = ℓ` is not imposed (index 2) and drifts at the order of the method.
use nalgebra::SVector;
use sparkgen::cli::registry::unknowns;
use sparkgen::diagnostics::{empirical_order, gauss8};
use sparkgen::generated::steppers::*;
use sparkgen::integrate::{Options, integrate};
use sparkgen::layout::Dims;
use sparkgen::problem::ImplicitDae;
use sparkgen::problems::IndexTwoPendulum;
use sparkgen::stage::StageMethod;

/// The error at T = 1 of `n` steps, the maximum |φ| and the maximum Newton residual.
fn run<M: StageMethod<IndexTwoPendulum, 2>, const N: usize>(n: usize) -> (f64, f64, f64) {
    let problem = IndexTwoPendulum::default();
    let (q0, p0) = problem.initial_state(1.0, 0.0);
    let s = integrate::<M, _, 2, N>(&problem, q0, p0, &Options::new(1.0 / n as f64, n))
        .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error));
    let theta = gauss8(|x| SVector::from([x[1], -x[0].sin()]), SVector::from([1.0, 0.0]), 1.0, 400);
    let reference = SVector::from([theta[0].sin(), -theta[0].cos()]);
    let error = s.q.last().map_or(f64::NAN, |q| (q - reference).amax());
    let phi = s.q.iter().zip(&s.p).map(|(q, p)| problem.phi(q, p).amax()).fold(0.0, f64::max);
    let newton = s.stats.iter().map(|st| st.residual).fold(0.0, f64::max);
    (error, phi, newton)
}

fn check<M: StageMethod<IndexTwoPendulum, 2>, const N: usize>(expected: f64) {
    let steps = [10, 20, 40, 80];
    let runs: Vec<_> = steps.iter().map(|&n| run::<M, N>(n)).collect();
    let h: Vec<f64> = steps.iter().map(|&n| 1.0 / n as f64).collect();
    let errors: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let fit = empirical_order(&h, &errors, 1e-13);
    let phi = runs.iter().map(|r| r.1).fold(0.0, f64::max);
    let newton = runs.iter().map(|r| r.2).fold(0.0, f64::max);
    println!("{}: {fit:?} errors {errors:.2e?} max |φ| {phi:.1e} Newton {newton:.1e}", M::NAME);
    let fit = fit.unwrap_or_else(|e| panic!("{}: {e}", M::NAME));
    assert!(fit.points >= 3 && (fit.order - expected).abs() <= 0.4, "{}: order {fit:?}, expected {expected}", M::NAME);
    assert!(phi <= 1e-14, "{}: max |φ| = {phi:e}", M::NAME);
    assert!(newton <= 1e-13, "{}: Newton residual {newton:e}", M::NAME);
}

macro_rules! orders {
    ($($name:ident: $ty:ty => $order:expr;)*) => {$(
        #[test]
        fn $name() {
            check::<$ty, { unknowns(&<$ty>::UNKNOWN_LAYOUT, Dims::new(2, 1)) }>($order);
        }
    )*};
}

orders! {
    spark_glrk_1: IdaeSparkGlrk1<1> => 2.0;
    spark_glrk_2: IdaeSparkGlrk2<1> => 4.0;
    spark_glrk_3: IdaeSparkGlrk3<1> => 6.0;
    spark_lobatto_iiia_iiib_2: IdaeSparkLobattoIIIAIIIB2<1> => 2.0;
    spark_lobatto_iiia_iiib_3: IdaeSparkLobattoIIIAIIIB3<1> => 4.0;
    spark_lobatto_iiib_iiia_3: IdaeSparkLobattoIIIBIIIA3<1> => 4.0;
    spark_lob_abc_3: IdaeSparkLobABC3<1> => 4.0;
    vpark_gauss_2: IdaeVparkGlrkpSymplectic2<1> => 4.0;
    vpark_lobatto_iiib_iiia_3: IdaeVparkLobattoIIIBIIIApSymplectic3<1> => 4.0;
}
