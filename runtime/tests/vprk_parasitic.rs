//! VPRK over the Lobatto IIIA–IIIB pair on Lotka–Volterra has a parasitic mode: at the initial
//! state (on the constraint p = ϑ(q)) the exact tangent map DΨ of one step has a real reciprocal
//! eigenvalue pair (λ, 1/λ) off the unit circle, with |λ| − 1 ≈ 3.2·h, i.e. a growth rate of about
//! 3.2 per unit time whatever h. At h = 0.1 (|λ| ≈ 1.37) the solution leaves the domain within
//! a few dozen steps and the run stops with a typed error. VPRK Gauss(2) at the same state has all
//! four eigenvalues on the unit circle. This is a property of the discretisation of the degenerate
//! Lagrangian (the one-form is nonlinear), not of the stage equations: their Jacobian and tangent
//! map pass the central-difference checks (`jacobian_fd`, `tangent_map`).

use nalgebra::SMatrix;
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::{
    VprkGauss2, VprkGauss3, VprkLobattoIIIAIIIB2, VprkLobattoIIIAIIIB3,
};
use sparkgen::integrate::{Compiled, Driver, Options, Watch};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;

/// Moduli of the eigenvalues of DΨ for one step from the upstream initial state, ascending.
fn moduli<M: StageMethod<LotkaVolterra2d, 2>>(h: f64) -> Vec<f64> {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q, p) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let equations = Compiled::<M, _, 2>::sized(&lv).unwrap();
    let mut driver = Driver::new(equations, h, NewtonOptions::default()).unwrap();
    driver.step(q.as_slice(), p.as_slice(), 1, 0.0).unwrap();
    let blocks = driver.tangent_map(&q, &p).unwrap();
    let mut m = SMatrix::<f64, 4, 4>::zeros();
    for (bi, row) in blocks.iter().enumerate() {
        for (bj, block) in row.iter().enumerate() {
            m.fixed_view_mut::<2, 2>(2 * bi, 2 * bj).copy_from(block);
        }
    }
    let mut moduli: Vec<f64> = m.complex_eigenvalues().iter().map(|z| z.norm()).collect();
    moduli.sort_by(f64::total_cmp);
    moduli
}

#[test]
fn lobatto_iiia_iiib_vprk_has_a_parasitic_mode_on_lotka_volterra() {
    for h in [0.1, 0.01] {
        let lobatto = moduli::<VprkLobattoIIIAIIIB2>(h);
        let gauss = moduli::<VprkGauss2>(h);
        let growth = (lobatto[3] - 1.0) / h;
        println!(
            "h = {h}: |eig DΨ| Lobatto IIIA–IIIB(2) = {lobatto:.4?}, Gauss(2) = {gauss:.4?}; (|λ|−1)/h = {growth:.2}"
        );
        // A reciprocal pair off the unit circle: |λ_max|·|λ_min| = 1 (the map is symplectic).
        assert!((lobatto[0] * lobatto[3] - 1.0).abs() < 1e-10, "{lobatto:?}");
        assert!((2.5..4.5).contains(&growth), "growth rate {growth}");
        // On the unit circle, up to round-off: the pair at 1 is a double eigenvalue (a Jordan
        // block), which round-off of order ε in the converged stages moves by about √ε.
        for m in gauss {
            assert!((m - 1.0).abs() < 1e-6, "Gauss(2): {m}");
        }
    }
    // The mode ruins the run at h = 0.1: a typed error after a few dozen steps, no panic or NaN state.
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let failure = solve(&lv, VprkLobattoIIIAIIIB2, q0, p0, &Options::new(0.1, 1000)).unwrap_err();
    println!("h = 0.1: {}", failure.error);
    assert!(failure.solution.steps() < 100);
    assert!(matches!(
        failure.error,
        IntegrateError::NonFinite { .. }
            | IntegrateError::SingularJacobian { .. }
            | IntegrateError::NewtonFailed { .. }
    ));
    assert!(
        failure
            .solution
            .q
            .iter()
            .all(|q| q.iter().all(|x| x.is_finite()))
    );
}

/// `max_n |p_n − ϑ(q_n)|∞` over a (possibly partial) run.
fn max_constraint(solution: &sparkgen::solution::Solution<2>) -> f64 {
    let lv = LotkaVolterra2d::UPSTREAM;
    solution
        .q
        .iter()
        .zip(&solution.p)
        .map(|(q, p)| (p - sparkgen::problem::DegenerateLagrangian::theta(&lv, q)).amax())
        .fold(0.0, |m: f64, v| if v.is_nan() { v } else { m.max(v) })
}

/// The constraint watch stops the Lobatto IIIA–IIIB(3) mode a few doublings above the
/// truncation level of `p − ϑ(q)`, long before it matters, while VPRK Gauss(3), whose `φ`
/// wanders without growing, runs to the end; without the watch the same Lobatto run leaves
/// `|p − ϑ(q)| ≤ 1e−6` (the mode is real).
#[test]
fn the_constraint_watch_stops_the_lobatto_mode_before_p_leaves_the_constraint() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let (h, steps) = (2.5e-4, 40_000);
    let watched = Options::new(h, steps);
    let failure =
        solve(&lv, VprkLobattoIIIAIIIB3, q0, p0, &watched).expect_err("the mode is stopped");
    println!("h = {h}: {}", failure.error);
    let IntegrateError::ConstraintDeparture {
        step,
        residual,
        growth,
        ..
    } = failure.error
    else {
        panic!("{}", failure.error)
    };
    let before = max_constraint(&failure.solution);
    assert_eq!(failure.solution.steps(), step);
    assert!(
        residual <= 1e-6 && before <= 1e-6,
        "{residual:e}, {before:e}"
    );
    // Growth per unit time of the order of the mode's, |μ| − 1 ≈ 3.2 h at the initial state
    // (see above; it varies along the orbit).
    let rate = (growth - 1.0) / h;
    assert!((1.0..10.0).contains(&rate), "rate {rate}");
    // Asked only to warn, the watch records the same departure and the run goes on.
    let warned = Options {
        watch_constraint: Watch::Warn,
        ..watched
    };
    let solution = match solve(&lv, VprkLobattoIIIAIIIB3, q0, p0, &warned) {
        Ok(solution) => solution,
        Err(failure) => failure.solution,
    };
    let grown = max_constraint(&solution);
    assert!(grown > 1e-3, "{grown:e}");
    let departed = solution.run.departure.expect("the departure is recorded");
    assert_eq!((departed.step, departed.residual), (step, residual));
    assert!(solution.steps() > step);
    let gauss = solve(&lv, VprkGauss3, q0, p0, &watched)
        .unwrap_or_else(|f| panic!("Gauss(3): {}", f.error));
    println!("Gauss(3): max |φ| {:.2e}", max_constraint(&gauss));
}
