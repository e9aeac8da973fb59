//! A Lagrangian problem file (`kind = "lagrangian"`) on the run-time engine: its Euler–Lagrange
//! equations as the implicit DAE with no constraint (`M = 0`, as `LagrangianOde`), with the
//! inverse Legendre transform as the velocity. For one method of every implicit-DAE family
//! (s = 2), 100 steps of the engine on the file agree with the compiled stepper on the
//! `LagrangianOde` view of the derive of the same Lagrangian, `L = ½(1 + x²)u² − ½x²`
//! (the regular Lagrangian of `tests/tests/lagrangian_ode.rs`), or both stop at the same step.
use super::runs::{discrepancy, trace};
use sparkgen::engine::{Engine, Kernels, Stepping};
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Compiled;
use sparkgen::layout::Dims;
use sparkgen::problem::{Lagrangian, LagrangianOde};
use sparkgen::problem_file::{LagrangianFile, ProblemFile};

/// A regular Lagrangian with a position-dependent mass.
#[derive(Lagrangian)]
#[lagrangian(q = [x], v = [u], lagrangian = (1 + x * x) * u * u / 2 - x * x / 2)]
struct VariableMass;

fn file() -> LagrangianFile {
    let source = r#"
kind = "lagrangian"
coordinates = ["x"]
velocities = ["u"]
lagrangian = "(1 + x * x) * u * u / 2 - x * x / 2"
initial = { q = [0.5], v = [0.3] }
"#;
    match ProblemFile::parse(source) {
        Ok(ProblemFile::Lagrangian(file)) => file,
        other => panic!("a Lagrangian: {other:?}"),
    }
}

/// The discrepancy of 100 steps of h = 0.1 of `M`, engine on the file against compiled on the
/// derive, and the steps where each stopped.
fn compare<M: sparkgen::stage::StageMethod<LagrangianOde<VariableMass>, 1>>(
    file: &LagrangianFile,
) -> (f64, Option<usize>, Option<usize>) {
    let name = M::NAME;
    let engine = Engine::catalogue(name, Dims::new(1, 0)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(engine.len(), M::UNKNOWNS.len(M::DIMS), "{name}");
    assert_eq!(file.dims(), Dims::new(1, 0));
    let stepping = Stepping::new(&engine, file).unwrap_or_else(|e| panic!("{name}: {e}"));
    // x₀ = 0.5, u₀ = 0.3: p₀ = (1 + x₀²) u₀.
    let (q0, p0) = ([0.5], [(1.0 + 0.25) * 0.3]);
    let problem = LagrangianOde(VariableMass);
    let compiled = Compiled::<M, _, 1>::sized(&problem).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (a, compiled_failed) = trace(compiled, &q0, &p0, 0.1);
    let (b, engine_failed) = trace(stepping, &q0, &p0, 0.1);
    (discrepancy(&a, &b), compiled_failed, engine_failed)
}

macro_rules! every_family {
    ($($method:ident),* $(,)?) => {{
        let file = file();
        vec![$((stringify!($method), compare::<$method<0>>(&file))),*]
    }};
}

#[test]
fn a_lagrangian_file_runs_on_the_engine_as_its_derive_compiled() {
    let results = every_family![
        IdaeSparkGlrk2,
        IdaeSparkLobattoIIIAIIIB2,
        IdaeSparkLobattoIIIBIIIA2,
        IdaeSparkGlrkLobattoIIIAIIIB2,
        IdaeSparkGlrkLobattoIIIBIIIA2,
        IdaeSparkLobABC2,
        IdaeSparkLobABD2,
        IdaeSparkGlvprk2,
        IdaeVparkGlrkpSymplectic2,
        IdaeVparkLobattoIIIAIIIBpSymplectic2,
        IdaeVparkLobattoIIIBIIIApSymplectic2,
    ];
    for (name, (difference, compiled, engine)) in results {
        println!("{name}: discrepancy {difference:.1e}, stops {compiled:?} / {engine:?}");
        assert_eq!(compiled, engine, "{name}");
        assert!(difference <= 1e-12, "{name}: {difference:e}");
    }
}
