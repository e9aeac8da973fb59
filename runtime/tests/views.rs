//! Views chosen by trait impls: `solve` runs an implicit-DAE method on a `Lagrangian` through its
//! implicit ODE (`LagrangianOde`) and a Hamiltonian-DAE method on a `DegenerateLagrangian`
//! through Dirac's total Hamiltonian (`DiracHamiltonian`), with no wrapper in the call; each run
//! is, bit for bit, the run on the explicit view.

use nalgebra::SVector;
use sparkgen::generated::steppers::{
    HparkGlrk2, HsparkGlrk3, IdaeVparkGlrkpSymplectic2, SlrkLobattoIIIE3, VparkGlrkpSymplectic2,
};
use sparkgen::integrate::Options;
use sparkgen::problem::{DegenerateLagrangian, DiracHamiltonian, LagrangianOde};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve;

/// A regular Lagrangian with a position-dependent mass.
#[derive(sparkgen::Lagrangian)]
#[lagrangian(q = [x], v = [u], lagrangian = (1 + x * x) * u * u / 2 - x * x / 2)]
struct VariableMass;

#[test]
fn an_implicit_dae_method_runs_on_a_lagrangian_as_on_its_implicit_ode() {
    let (x, u) = (0.5, 0.3);
    let (q0, p0) = (SVector::from([x]), SVector::from([(1.0 + x * x) * u]));
    let options = Options::new(0.1, 100);
    let direct = solve(&VariableMass, IdaeVparkGlrkpSymplectic2, q0, p0, &options)
        .expect("VPARK GLRKp(2) runs on the Lagrangian");
    let view = solve(
        &LagrangianOde(&VariableMass),
        IdaeVparkGlrkpSymplectic2,
        q0,
        p0,
        &options,
    )
    .expect("VPARK GLRKp(2) runs on the view");
    assert_eq!(direct, view);
    assert_eq!(direct.steps(), 100);
    let energy = direct
        .run
        .max_energy_error
        .expect("a regular Lagrangian has an energy");
    assert!(energy < 1e-3, "{energy:e}");
}

#[test]
fn a_hamiltonian_dae_method_runs_on_a_degenerate_lagrangian_as_on_dirac_s_view() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let p0 = lv.theta(&q0);
    let options = Options::new(0.05, 100);
    for (name, direct, view) in [
        (
            "HPARK GLRK(2)",
            solve(&lv, HparkGlrk2, q0, p0, &options),
            solve(&DiracHamiltonian(&lv), HparkGlrk2, q0, p0, &options),
        ),
        (
            "HSPARK GLRK(3)",
            solve(&lv, HsparkGlrk3, q0, p0, &options),
            solve(&DiracHamiltonian(&lv), HsparkGlrk3, q0, p0, &options),
        ),
    ] {
        let direct = direct.unwrap_or_else(|e| panic!("{name}: {e}"));
        let view = view.unwrap_or_else(|e| panic!("{name} on the view: {e}"));
        assert_eq!(direct, view, "{name}");
        assert_eq!(direct.steps(), 100, "{name}");
        assert!(
            direct.run.max_constraint.is_finite(),
            "{name}: {:?}",
            direct.run
        );
    }
}

#[test]
fn a_method_of_the_problem_s_own_kind_takes_the_direct_route() {
    // A degenerate Lagrangian is no Lagrangian and no Hamiltonian DAE: SLRK and VPARK (a
    // degenerate-Lagrangian method) run on it directly, exactly as before views existed.
    let lv = LotkaVolterra2d::UPSTREAM;
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.05, 50);
    for run in [
        solve(&lv, SlrkLobattoIIIE3, q0, lv.theta(&q0), &options),
        solve(&lv, VparkGlrkpSymplectic2, q0, lv.theta(&q0), &options),
    ] {
        let run = run.expect("a method of the problem's kind runs");
        assert!(run.run.max_constraint < 1e-13, "{:?}", run.run);
    }
}
