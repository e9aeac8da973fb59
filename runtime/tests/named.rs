//! A method named at run time (`sparkgen::Named`: family and s, as `sparkgen methods` lists
//! them) goes through the same `solve` as a compiled method, run by the engine from the method's
//! description: on every problem kind, and through the views, its trajectory agrees with the
//! compiled stepper of that name to round-off; a name the catalogue lacks and a method of
//! another kind are typed errors.

use nalgebra::SVector;
use sparkgen::engine::EngineError;
use sparkgen::error::IntegrateError;
use sparkgen::generated::descriptions::{DESCRIPTIONS, ROUNDINGS};
use sparkgen::generated::steppers::{
    HparkGlrk2, IdaeVparkGlrkpSymplectic2, RattleLobattoIIIAIIIB3, SlrkLobattoIIIE3, VprkGauss3,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d, LotkaVolterraDirac};
use sparkgen::solution::Solution;
use sparkgen::{Named, solve};
use sparkgen_description::text::{self, Roundings};

/// A regular Lagrangian with a position-dependent mass.
#[derive(sparkgen::Lagrangian)]
#[lagrangian(q = [x], v = [u], lagrangian = (1 + x * x) * u * u / 2 - x * x / 2)]
struct VariableMass;

/// The largest difference of the two runs' states, relative to the largest state entry.
fn relative_difference<const D: usize>(a: &Solution<D>, b: &Solution<D>) -> f64 {
    assert_eq!(a.t.len(), b.t.len());
    let scale = a.q.iter().chain(&a.p).map(|x| x.amax()).fold(0.0, f64::max);
    let difference = (a.q.iter().zip(&b.q))
        .chain(a.p.iter().zip(&b.p))
        .map(|(x, y)| (x - y).amax())
        .fold(0.0, f64::max);
    assert!(difference.is_finite() && scale > 0.0);
    difference / scale
}

fn named(family: &str, s: usize) -> Named {
    Named::new(family, s).unwrap_or_else(|e| panic!("{family}({s}): {e}"))
}

/// Runs `compiled` and the named method on the same problem and initial data and checks they
/// agree to `1e-13` relative over every step.
macro_rules! agree {
    ($problem:expr, $compiled:expr, $named:expr, ($q0:expr, $p0:expr), $options:expr) => {{
        let compiled = solve($problem, $compiled, $q0, $p0, $options)
            .unwrap_or_else(|e| panic!("compiled: {e}"));
        let named = $named;
        let by_name = solve($problem, &named, $q0, $p0, $options)
            .unwrap_or_else(|e| panic!("{}: {e}", named.name()));
        assert_eq!(by_name.steps(), $options.steps, "{}", named.name());
        let difference = relative_difference(&compiled, &by_name);
        assert!(difference <= 1e-13, "{}: {difference:e}", named.name());
        by_name
    }};
}

#[test]
fn a_named_method_agrees_with_its_compiled_stepper_on_every_problem_kind() {
    let options = Options::new(0.05, 100);
    let lv = LotkaVolterra2d::UPSTREAM;
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let p0 = lv.theta(&q0);
    agree!(
        &lv,
        SlrkLobattoIIIE3,
        named("SlrkLobattoIIIE", 3),
        (q0, p0),
        &options
    );
    agree!(&lv, VprkGauss3, named("VprkGauss", 3), (q0, p0), &options);
    // A Hamiltonian-DAE method on the degenerate Lagrangian (Dirac's view), and on the
    // Hamiltonian DAE derived directly.
    agree!(&lv, HparkGlrk2, named("HparkGlrk", 2), (q0, p0), &options);
    let dirac = LotkaVolterraDirac::from(lv);
    agree!(
        &dirac,
        HparkGlrk2,
        named("HparkGlrk", 2),
        (q0, p0),
        &options
    );

    let pendulum = Pendulum::UNIT;
    let (q, p) = pendulum.state(1.0, 0.0);
    let run = agree!(
        &pendulum,
        RattleLobattoIIIAIIIB3,
        named("RattleLobattoIIIAIIIB", 3),
        (q, p),
        &options
    );
    assert!(run.run.max_constraint < 1e-13, "{:?}", run.run);

    let index_two = IndexTwoPendulum::default();
    let (q, p) = index_two.initial_state(0.5, 0.0);
    agree!(
        &index_two,
        IdaeVparkGlrkpSymplectic2,
        named("IdaeVparkGlrkpSymplectic", 2),
        (q, p),
        &options
    );

    let (x, u) = (0.5, 0.3);
    let (q, p) = (SVector::from([x]), SVector::from([(1.0 + x * x) * u]));
    agree!(
        &VariableMass,
        IdaeVparkGlrkpSymplectic2,
        named("IdaeVparkGlrkpSymplectic", 2),
        (q, p),
        &options
    );
}

#[test]
fn every_catalogue_method_is_found_by_its_family_and_stage_count() {
    let roundings = Roundings::read(ROUNDINGS).expect("the roundings read");
    let mut count = 0;
    for (family, description) in DESCRIPTIONS {
        for method in text::read(description, &roundings).expect("the description reads") {
            assert_eq!(&method.family, family);
            assert_eq!(named(family, method.s).name(), method.name);
            count += 1;
        }
    }
    assert!(count > 100, "{count}");
}

#[test]
fn an_unknown_name_and_a_method_of_another_kind_are_typed_errors() {
    assert_eq!(
        Named::new("VprkGauss", 9),
        Err(EngineError::UnknownMethod {
            name: "VprkGauss(9)".to_owned()
        })
    );
    assert!(matches!(
        Named::new("Vprk Gauss", 3),
        Err(EngineError::UnknownMethod { .. })
    ));
    // A degenerate-Lagrangian method on a holonomic system: the run stops before its first
    // step, the initial point not even observed.
    let pendulum = Pendulum::UNIT;
    let (q, p) = pendulum.state(1.0, 0.0);
    let failure = solve(
        &pendulum,
        named("VprkGauss", 3),
        q,
        p,
        &Options::new(0.1, 10),
    )
    .expect_err("a degenerate-Lagrangian method does not run on a holonomic system");
    assert!(
        matches!(
            failure.error,
            IntegrateError::MethodUnavailable(EngineError::Kind { .. })
        ),
        "{:?}",
        failure.error
    );
    assert!(failure.solution.t.is_empty());
    assert!(failure.to_string().contains("VprkGauss3"), "{failure}");
}
