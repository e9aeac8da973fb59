//! The SLRK Lobatto IIIE(6) stepper emitted by this crate's build.rs integrates Lotka–Volterra,
//! holds the primary constraint to round-off and agrees with the shipped s = 5 stepper.

use sparkgen::generated::steppers::SlrkLobattoIIIE5;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve;
use sparkgen_build_example::steppers::SlrkLobattoIIIE6;

#[test]
fn build_script_stepper_holds_the_constraint_and_matches_the_catalogue() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.05, 200);
    let six = solve(&lv, SlrkLobattoIIIE6, q0, p0, &options).unwrap();
    let five = solve(&lv, SlrkLobattoIIIE5, q0, p0, &options).unwrap();
    let phi = six
        .q
        .iter()
        .zip(&six.p)
        .map(|(q, p)| (p - lv.theta(q)).amax())
        .fold(0.0, f64::max);
    let gap = six
        .q
        .iter()
        .zip(&five.q)
        .map(|(a, b)| (a - b).amax())
        .fold(0.0, f64::max);
    println!(
        "SLRK IIIE(6): max |φ| = {phi:.2e}; max |q₆ − q₅| = {gap:.2e} (orders 10 and 8, h = 0.05)"
    );
    assert!(phi < 1e-14);
    assert!(gap < 1e-9);
}
