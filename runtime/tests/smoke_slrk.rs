//! Smoke test: SLRK Lobatto IIIE(3) on Lotka–Volterra holds the primary constraint to round-off.
use sparkgen::generated::steppers::*;
use sparkgen::integrate::{Options, integrate};
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;

#[test]
fn slrk_iiie_3_on_lotka_volterra() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let sol =
        integrate::<SlrkLobattoIIIE3, _, 2, 14>(&lv, q0, p0, &Options::new(0.1, 1000)).unwrap();
    let phi = sol
        .q
        .iter()
        .zip(&sol.p)
        .map(|(q, p)| (p - lv.theta(q)).amax())
        .fold(0.0, f64::max);
    let h0 = lv.hamiltonian(&q0);
    let dh = sol
        .q
        .iter()
        .map(|q| ((lv.hamiltonian(q) - h0) / h0).abs())
        .fold(0.0, f64::max);
    let iters: usize = sol.stats.iter().map(|s| s.iterations).sum();
    println!(
        "max|φ| = {phi:e}, max rel energy error = {dh:e}, mean Newton its = {}",
        iters as f64 / 1000.0
    );
    assert!(phi < 1e-14);
}
