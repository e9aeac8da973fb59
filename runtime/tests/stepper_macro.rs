//! Steppers declared with `sparkgen::stepper!` integrate exactly as the catalogue's steppers of
//! the same methods (`sparkgen::generated::steppers`, emitted by `family_steppers!`): 100 steps
//! from the same initial state give the same `q`, `p` and carried multipliers bit for bit, for
//! each problem kind. The two macros emit the same tokens from the same description
//! (`sparkgen_macros`' token test); this checks the expansion at a user's site, through
//! `::sparkgen::sparkgen_core`. Before the steppers stopped being committed, it compared the
//! declared steppers with the committed ones.

use nalgebra::SVector;
use sparkgen::generated::steppers::{
    HsparkLobattoIIIAIIIB3, IdaeVparkLobattoIIIBIIIApSymplectic3, RattleLobattoIIIAIIIB3,
    SlrkLobattoIIIAB3, VprkGauss2, VsparkPrimaryGlrkpMidpoint3,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d, LotkaVolterraDirac};
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::{Failure, Solution};
use sparkgen::solve;
use sparkgen::stage::StageMethod;

sparkgen::stepper! {
    /// SLRK over Lobatto IIIA–IIIB, declared here.
    Slrk3 = SlrkLobattoIIIAB(3);
    Gauss2 = VprkGauss(2): DegenerateLagrangian;
    pub(crate) Midpoint3 = VsparkPrimaryGlrkpMidpoint(3);
    Rattle3 = RattleLobattoIIIAIIIB(3): Holonomic;
    Idae3 = IdaeVparkLobattoIIIBIIIApSymplectic(3): ImplicitDae;
    Hspark3 = HsparkLobattoIIIAIIIB(3): HamiltonianDae;
}

const STEPS: usize = 100;

/// `declared` and `committed` are the same points, bit for bit, with the same multipliers.
fn assert_bitwise_equal(declared: &Solution<2>, committed: &Solution<2>, name: &str) {
    assert_eq!(declared.q.len(), STEPS + 1, "{name}: every point");
    assert_eq!(declared.q.len(), committed.q.len(), "{name}");
    let bits = |s: &Solution<2>| -> Vec<u64> {
        let states = s.q.iter().zip(&s.p).flat_map(|(q, p)| q.iter().chain(p));
        let multipliers = s.multipliers().flatten();
        states.chain(multipliers).map(|x| x.to_bits()).collect()
    };
    assert_eq!(bits(declared), bits(committed), "{name}");
}

/// The solution of a run of `name` that converged.
fn converged(run: Result<Solution<2>, Box<Failure<2>>>, name: &str) -> Solution<2> {
    run.unwrap_or_else(|f| panic!("{name}: {}", f.error))
}

/// 100 steps of h = 0.1 of the upstream Lotka–Volterra from `q₀ = (2, 1)`, `p₀ = ϑ(q₀)`.
fn lotka_volterra<
    M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default,
>() -> Solution<2> {
    let lv = LotkaVolterra2d::UPSTREAM;
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let run = solve(
        &lv,
        M::default(),
        q0,
        lv.theta(&q0),
        &Options::new(0.1, STEPS),
    );
    converged(run, M::NAME)
}

#[test]
fn degenerate_lagrangian_steppers_integrate_as_the_committed_ones() {
    assert_eq!(
        <Slrk3 as StageMethod<LotkaVolterra2d, 2>>::NAME,
        "SlrkLobattoIIIAB3"
    );
    assert_bitwise_equal(
        &lotka_volterra::<Slrk3>(),
        &lotka_volterra::<SlrkLobattoIIIAB3>(),
        "SlrkLobattoIIIAB3",
    );
    assert_bitwise_equal(
        &lotka_volterra::<Gauss2>(),
        &lotka_volterra::<VprkGauss2>(),
        "VprkGauss2",
    );
    let carried = lotka_volterra::<Midpoint3>();
    assert!(carried.multipliers().len() > 0, "a carried multiplier");
    assert_bitwise_equal(
        &carried,
        &lotka_volterra::<VsparkPrimaryGlrkpMidpoint3>(),
        "VsparkPrimaryGlrkpMidpoint3",
    );
}

#[test]
fn a_holonomic_stepper_integrates_as_the_committed_one() {
    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let (q0, p0) = pendulum.state(1.0, 0.0);
    let options = Options::new(0.05, STEPS);
    let run = |declared: bool| {
        if declared {
            solve(&pendulum, Rattle3::<1>, q0, p0, &options)
        } else {
            solve(&pendulum, RattleLobattoIIIAIIIB3::<1>, q0, p0, &options)
        }
        .unwrap_or_else(|f| panic!("RattleLobattoIIIAIIIB3: {}", f.error))
    };
    assert_bitwise_equal(&run(true), &run(false), "RattleLobattoIIIAIIIB3");
}

#[test]
fn dae_steppers_integrate_as_the_committed_ones() {
    let pendulum = IndexTwoPendulum::default();
    let (q0, p0) = pendulum.initial_state(0.8, 0.0);
    let options = Options::new(0.05, STEPS);
    let declared = solve(&pendulum, Idae3::<1>, q0, p0, &options);
    let committed = solve(
        &pendulum,
        IdaeVparkLobattoIIIBIIIApSymplectic3::<1>,
        q0,
        p0,
        &options,
    );
    let name = "IdaeVparkLobattoIIIBIIIApSymplectic3";
    assert_bitwise_equal(
        &converged(declared, name),
        &converged(committed, name),
        name,
    );

    let lv = LotkaVolterra2d::UPSTREAM;
    let dirac = LotkaVolterraDirac::from(lv);
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.1, STEPS);
    let declared = solve(&dirac, Hspark3::<2>, q0, lv.theta(&q0), &options);
    let committed = solve(
        &dirac,
        HsparkLobattoIIIAIIIB3::<2>,
        q0,
        lv.theta(&q0),
        &options,
    );
    let name = "HsparkLobattoIIIAIIIB3";
    assert_bitwise_equal(
        &converged(declared, name),
        &converged(committed, name),
        name,
    );
}
