//! VPARK (GeometricIntegrators.jl: `TableauVPARK`, `src/spark/integrators_vpark.jl`) on
//! Lotka–Volterra in the SPARK test configuration (`a = (1, 1)`, `b = (−1, −2)`, `q₀ = (1, 1)`):
//! the multiplier `λ_n = Λ̃_2` it carries from step to step (through the row `Λ̃_1 = λ_n`) over
//! long runs.
//!
//! The exact flow keeps `p = ϑ(q)` with `λ = 0`, so `λ_n` is the method's defect: with
//! `R∞ = (−1)^{s+1}` it is `O(h²)` and bounded over T = 10 at h = 0.025.
use nalgebra::SVector;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::Solution;
use sparkgen::solve;
use sparkgen::stage::StageMethod;

fn run<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default>(
    h: f64,
    steps: usize,
) -> Solution<2> {
    let lv = LotkaVolterra2d::SPARK_TEST;
    let q0 = SVector::from(LotkaVolterra2d::SPARK_TEST_Q0);
    solve(
        &lv,
        M::default(),
        q0,
        lv.theta(&q0),
        &Options::new(h, steps),
    )
    .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error))
}

fn max_multiplier(lambda: &[&[f64]]) -> f64 {
    lambda
        .iter()
        .flat_map(|l| l.iter())
        .map(|l| l.abs())
        .fold(0.0, f64::max)
}

#[test]
fn vpark_lobatto_iiib_iiia_3_keeps_the_multiplier_of_order_h2_over_t_10() {
    type M = VparkLobattoIIIBIIIApSymplectic3;
    let lv = LotkaVolterra2d::SPARK_TEST;
    let (fine, coarse) = (run::<M>(0.025, 400), run::<M>(0.05, 200));
    for s in [&fine, &coarse] {
        let lambda: Vec<&[f64]> = s.multipliers().collect();
        assert_eq!(lambda.len(), s.q.len(), "λ_n at every point");
        let residual =
            s.q.iter()
                .zip(&s.p)
                .map(|(q, p)| (p - lv.theta(q)).amax())
                .fold(0.0, f64::max);
        assert!(residual <= 1e-13, "max |p − ϑ(q)| = {residual:e}");
        let newton = s.stats.iter().map(|st| st.residual).fold(0.0, f64::max);
        assert!(newton <= 1e-12, "Newton stopped at ‖r‖ = {newton:e}");
        let half = lambda.len() / 2;
        let growth = max_multiplier(&lambda[half..]) / max_multiplier(&lambda[..half]);
        assert!(growth <= 1.5, "the multiplier grows: ×{growth}");
    }
    let all = |s: &Solution<2>| max_multiplier(&s.multipliers().collect::<Vec<_>>());
    let (l_fine, l_coarse) = (all(&fine), all(&coarse));
    let slope = (l_coarse / l_fine).log2();
    println!("max |λ| = {l_coarse:.3e} (h = 0.05), {l_fine:.3e} (h = 0.025): slope {slope:.2}");
    assert!((slope - 2.0).abs() <= 0.4, "max |λ| ~ h^{slope}");
}
