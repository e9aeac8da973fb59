//! The D = 6 example (`problems/penning_trap.toml`, `sparkgen::problems::PenningTrap`): a
//! charged particle in an axisymmetric trap as a phase-space Lagrangian in cylindrical
//! coordinates, whose angle φ is cyclic. For SLRK Lobatto IIIE(3), VPRK Gauss(3) and
//! VSPARKprimary GLRKp-Midpoint(4), the file on the run-time engine (its stage functions and
//! expressions as machine code) follows the compiled stepper on the derive to round-off over
//! 1000 steps, and both keep the canonical angular momentum `p_φ = r (A_φ + v_φ)` to round-off
//! at every point (discrete Noether: the methods are variational and the symmetry is a
//! translation of φ, which every stage equation commutes with).

use sparkgen::engine::{Backend, Engine, Kernels, Stepping};
use sparkgen::generated::steppers::{SlrkLobattoIIIE3, VprkGauss3, VsparkPrimaryGlrkpMidpoint4};
use sparkgen::integrate::{Options, run_into};
use sparkgen::observers::Closure;
use sparkgen::problem_file::{DegenerateLagrangianFile, ProblemFile};
use sparkgen::problems::PenningTrap;
use sparkgen::run::{Method, route};
use sparkgen::solution::Solution;
use sparkgen::solve;

const STEPS: usize = 1000;
const H: f64 = 0.1;

fn file() -> DegenerateLagrangianFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/penning_trap.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        other => panic!("the example states a degenerate Lagrangian: {other:?}"),
    }
}

/// The compiled run of `method` on the derive from the example's state.
fn compiled<M: Method<PenningTrap, 6, route::Direct>>(method: M) -> Solution<6> {
    let trap = PenningTrap::EXAMPLE;
    let (q0, p0) = trap.initial(PenningTrap::EXAMPLE_Q0);
    solve(&trap, method, q0, p0, &Options::new(H, STEPS)).expect("the compiled run converges")
}

/// The points `(q, p)` of the method `name` on the file through the engine (machine code)
/// against those of the compiled run `compiled`; asserts the largest difference and the largest
/// drift of `p_φ` from its initial value over both runs.
fn compare(name: &str, compiled: Solution<6>) {
    let trap = PenningTrap::EXAMPLE;
    let (q0, p0) = trap.initial(PenningTrap::EXAMPLE_Q0);
    let problem = file();
    let engine = Engine::catalogue(name, problem.dims()).expect("a catalogue method");
    let stepping = Stepping::new(&engine, &problem).expect("the method fits");
    assert_eq!(stepping.backend(), Backend::Jit, "{name}");
    let p_phi = p0[1];
    let (mut difference, mut drift, mut points) = (0.0f64, 0.0f64, 0);
    let mut observer = Closure(|point: &sparkgen::solution::Point<'_>| {
        let n = point.step;
        for (a, b) in point.q.iter().zip(compiled.q[n].iter()) {
            difference = difference.max((a - b).abs());
        }
        for (a, b) in point.p.iter().zip(compiled.p[n].iter()) {
            difference = difference.max((a - b).abs());
        }
        drift = drift
            .max((point.p[1] - p_phi).abs())
            .max((compiled.p[n][1] - p_phi).abs());
        points += 1;
        Ok::<(), ()>(())
    });
    let options = Options::new(H, STEPS);
    run_into(
        stepping,
        q0.as_slice(),
        p0.as_slice(),
        &options,
        &mut observer,
    )
    .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    println!("{name}: engine against compiled {difference:.1e}, p_φ drift {drift:.1e}");
    assert_eq!(points, STEPS + 1, "{name}");
    // The orbit stays within |q|, |p| ≲ 2 (r ≤ 1.8); the angle φ grows to about 11 over the
    // run, so its round-off reaches 1000 steps × a few ulp of 11.
    assert!(
        difference <= 1e-11,
        "{name}: the engine differs by {difference:e}"
    );
    assert!(drift <= 1e-13, "{name}: p_φ drifts by {drift:e}");
}

#[test]
fn the_engine_follows_the_compiled_stepper_and_both_keep_the_angular_momentum() {
    compare("SlrkLobattoIIIE3", compiled(SlrkLobattoIIIE3));
    compare("VprkGauss3", compiled(VprkGauss3));
    compare(
        "VsparkPrimaryGlrkpMidpoint4",
        compiled(VsparkPrimaryGlrkpMidpoint4),
    );
}
