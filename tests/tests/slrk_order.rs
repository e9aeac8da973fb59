//! Empirical orders of SLRK at `T = 1`, `h = 0.05·2^-k`: `2s − 2` within ±0.3 for s = 2, 3 (and
//! s = 4 where the round-off floor leaves three points), on Lotka–Volterra in the SPARK test
//! configuration (`a = (1, 1)`, `b = (−1, −2)`, `q₀ = (1, 1)`), against a Gauss(8) solution of
//! the ODE at h = 1/400.
#[path = "support/reference.rs"]
mod reference;

use nalgebra::SVector;
use reference::{FLOOR, STEPS, errors, gauss8, lotka_volterra_field};
use sparkgen::diagnostics::empirical_order;
use sparkgen::generated::steppers::*;
use sparkgen::problems::LotkaVolterra2d;

macro_rules! sweep {
    ($lv:expr, $q0:expr, $reference:expr, $(($method:ty, $s:literal)),* $(,)?) => {
        vec![$((
            stringify!($method),
            $s,
            errors::<$method, _>(&STEPS, &$lv, $q0, $reference),
        )),*]
    };
}

#[test]
fn slrk_reaches_order_2s_minus_2() {
    let lv = LotkaVolterra2d::SPARK_TEST;
    let q0 = SVector::from(LotkaVolterra2d::SPARK_TEST_Q0);
    let reference = gauss8(lotka_volterra_field(lv), q0, 1.0, 400);
    let sweeps = sweep!(
        lv,
        q0,
        reference,
        (SlrkLobattoIIIAB2, 2),
        (SlrkLobattoIIIAB3, 3),
        (SlrkLobattoIIIAB4, 4),
        (SlrkLobattoIIIBA2, 2),
        (SlrkLobattoIIIBA3, 3),
        (SlrkLobattoIIIBA4, 4),
        (SlrkLobattoIIICCBar2, 2),
        (SlrkLobattoIIICCBar3, 3),
        (SlrkLobattoIIICCBar4, 4),
        (SlrkLobattoIIICBarC2, 2),
        (SlrkLobattoIIICBarC3, 3),
        (SlrkLobattoIIICBarC4, 4),
        (SlrkLobattoIIID2, 2),
        (SlrkLobattoIIID3, 3),
        (SlrkLobattoIIID4, 4),
        (SlrkLobattoIIIE2, 2),
        (SlrkLobattoIIIE3, 3),
        (SlrkLobattoIIIE4, 4),
    );
    println!("|q(1) − q_ref(1)|∞ at h = {STEPS:?}:");
    let mut checked = 0;
    for (name, s, error) in &sweeps {
        let fit = empirical_order(&STEPS, error, FLOOR);
        let shown: Vec<String> = error.iter().map(|e| format!("{e:.2e}")).collect();
        println!("{name:22} {}  order {fit:?}", shown.join(" "));
        let expected = (2 * s - 2) as f64;
        match fit {
            Ok(fit) if *s < 4 || fit.points >= 3 => {
                assert!(
                    (fit.order - expected).abs() <= 0.3,
                    "{name}: order {} ≠ {expected}",
                    fit.order
                );
                checked += 1;
            }
            _ => assert_eq!(*s, 4, "{name}: no order above the round-off floor"),
        }
    }
    assert!(checked >= 12, "s = 2, 3 must all be checked");
}
