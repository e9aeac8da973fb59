//! `solve` runs the hand-written RATTLE and SHAKE (`sparkgen::holonomic::{Rattle, Shake}`) and
//! the generated Lobatto IIIA–IIIB RATTLE stage methods on holonomic systems with the options
//! and errors of every other run (with and without consistency restoration and initial
//! projection), and its run statistics summarise the trajectory. (Before the former holonomic
//! path was deleted, this test showed `solve` gave its trajectories bit for bit.)

#[allow(dead_code)] // each test crate uses a subset of the shared helpers
#[path = "rattle_common/symplectic.rs"]
mod symplectic;

use sparkgen::generated::steppers::{RattleLobattoIIIAIIIB2, RattleLobattoIIIAIIIB3};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{Rattle, Shake};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::run::Method;
use sparkgen::solution::Solution;
use sparkgen::solve;
use symplectic::triatomic;

const PENDULUM: Pendulum = Pendulum::UNIT;
const H: f64 = 0.05;
const STEPS: usize = 400;

/// The run of `method` from `(q₀, p₀)`; its statistics summarise its points, and with
/// restoration or projection every point is on the constraints to round-off.
fn check<Meth, P, R, const D: usize, const M: usize>(
    problem: &P,
    method: Meth,
    (q0, p0): (Vector<D>, Vector<D>),
    (restore, project): (bool, bool),
) where
    Meth: Method<P, D, R> + std::fmt::Debug + Copy,
    P: HolonomicSystem<D, M>,
{
    let options = Options {
        restore_consistency: restore,
        project_initial: project,
        ..Options::new(H, STEPS)
    };
    let what = format!("{method:?} restore {restore} project {project}");
    let new: Solution<D> =
        solve(problem, method, q0, p0, &options).unwrap_or_else(|f| panic!("{what}: {}", f.error));
    let run = new.run;
    assert_eq!(run.steps, STEPS, "{what}");
    assert_eq!(new.q.len(), STEPS + 1, "{what}");
    let iterations: usize = new.stats.iter().map(|s| s.iterations).sum();
    assert_eq!(run.newton_iterations, iterations, "{what}");
    let constraint = new
        .q
        .iter()
        .fold(0.0f64, |w, q| w.max(problem.constraints(q).amax()));
    assert_eq!(run.max_constraint, constraint, "{what}");
    assert!(constraint <= 1e-13, "{what}: {constraint:e}");
    let e0 = problem.hamiltonian(&new.q[0], &new.p[0]);
    let energy = (0..new.q.len()).fold(0.0f64, |w, n| {
        w.max((problem.hamiltonian(&new.q[n], &new.p[n]) - e0).abs())
    });
    assert_eq!(run.max_energy_error, Some(energy), "{what}");
}

#[test]
fn holonomic_methods_through_solve_report_their_runs() {
    let swing = PENDULUM.state(1.0, 0.0);
    let (molecule, qm, pm) = triatomic();
    for restore in [false, true] {
        let flags = (restore, false);
        check(&PENDULUM, RattleLobattoIIIAIIIB2, swing, flags);
        check(&PENDULUM, RattleLobattoIIIAIIIB3, swing, flags);
        check(&molecule, RattleLobattoIIIAIIIB2, (qm, pm), flags);
        check(&molecule, RattleLobattoIIIAIIIB3, (qm, pm), flags);
        check(&PENDULUM, Rattle, swing, flags);
        check(&molecule, Rattle, (qm, pm), flags);
    }
    check(&PENDULUM, Shake, swing, (false, false));
    check(&molecule, Shake, (qm, pm), (false, false));
    // Off the constraints: projected.
    let off = (swing.0 * 1.01, swing.1);
    check(&PENDULUM, RattleLobattoIIIAIIIB3, off, (false, true));
    check(&PENDULUM, Rattle, off, (false, true));
    check(&PENDULUM, Shake, off, (false, true));
}
