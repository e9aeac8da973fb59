//! `solve` runs the hand-written RATTLE and SHAKE (`sparkgen::holonomic::{Rattle, Shake}`) and
//! the generated Lobatto IIIA–IIIB RATTLE stage methods on holonomic systems with the options
//! and errors of every other run, giving bit for bit the trajectories of the former holonomic
//! path (`integrate_rattle`, `integrate_shake`, `integrate_holonomic`), with and without
//! consistency restoration and initial projection, and the run statistics of `solve`.

#[allow(dead_code)] // each test crate uses a subset of the shared helpers
#[path = "rattle_common/symplectic.rs"]
mod symplectic;

use sparkgen::generated::steppers::{RattleLobattoIIIAIIIB2, RattleLobattoIIIAIIIB3};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{
    HolonomicOptions, Rattle, Shake, integrate_holonomic, integrate_rattle, integrate_shake,
};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::run::Method;
use sparkgen::solution::{RunStats, Solution};
use sparkgen::solve;
use sparkgen::stage::StageMethod;
use symplectic::triatomic;

const PENDULUM: Pendulum = Pendulum {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};
const H: f64 = 0.05;
const STEPS: usize = 400;

/// The old options and the new ones of the same run.
fn options(restore: bool, project: bool) -> (HolonomicOptions, Options) {
    let old = HolonomicOptions {
        restore_consistency: restore,
        project_initial: project,
        ..HolonomicOptions::new(H, STEPS)
    };
    let new = Options {
        restore_consistency: restore,
        project_initial: project,
        ..Options::new(H, STEPS)
    };
    (old, new)
}

/// `new` is `old` with the run statistics `solve` fills in (the old path left them at their
/// defaults), and those statistics summarise `new`'s points.
fn same<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    problem: &P,
    new: Solution<D>,
    old: Solution<D>,
    what: &str,
) {
    let run = new.run;
    assert_eq!(
        Solution {
            run: RunStats::default(),
            ..new.clone()
        },
        old,
        "{what}"
    );
    assert_eq!(run.steps, STEPS, "{what}");
    let iterations: usize = new.stats.iter().map(|s| s.iterations).sum();
    assert_eq!(run.newton_iterations, iterations, "{what}");
    let constraint = new
        .q
        .iter()
        .fold(0.0f64, |w, q| w.max(problem.constraints(q).amax()));
    assert_eq!(run.max_constraint, constraint, "{what}");
    let e0 = problem.hamiltonian(&new.q[0], &new.p[0]);
    let energy = (0..new.q.len()).fold(0.0f64, |w, n| {
        w.max((problem.hamiltonian(&new.q[n], &new.p[n]) - e0).abs())
    });
    assert_eq!(run.max_energy_error, Some(energy), "{what}");
}

/// A generated stage method through `solve` against `integrate_holonomic` with `N` unknowns.
fn stages<Meth, P, R, const D: usize, const M: usize, const N: usize>(
    problem: &P,
    method: Meth,
    (q0, p0): (Vector<D>, Vector<D>),
    (restore, project): (bool, bool),
) where
    Meth: StageMethod<P, D> + Method<P, D, R>,
    P: HolonomicSystem<D, M>,
{
    let (old_options, new_options) = options(restore, project);
    let what = format!("{} restore {restore} project {project}", Meth::NAME);
    let old = integrate_holonomic::<Meth, P, D, M, N>(problem, &q0, &p0, &old_options)
        .unwrap_or_else(|f| panic!("{what}: {}", f.error));
    let new = solve(problem, method, q0, p0, &new_options)
        .unwrap_or_else(|f| panic!("{what}: {}", f.error));
    same(problem, new, old, &what);
}

#[test]
fn generated_rattle_stage_methods_through_solve_are_the_old_path() {
    let swing = PENDULUM.state(1.0, 0.0);
    let (molecule, qm, pm) = triatomic();
    for restore in [false, true] {
        let flags = (restore, false);
        stages::<_, _, _, 2, 1, 6>(&PENDULUM, RattleLobattoIIIAIIIB2, swing, flags);
        stages::<_, _, _, 2, 1, 9>(&PENDULUM, RattleLobattoIIIAIIIB3, swing, flags);
        stages::<_, _, _, 9, 3, 24>(&molecule, RattleLobattoIIIAIIIB2, (qm, pm), flags);
        stages::<_, _, _, 9, 3, 36>(&molecule, RattleLobattoIIIAIIIB3, (qm, pm), flags);
    }
    // Off the constraints: projected the same way.
    let off = (swing.0 * 1.01, swing.1);
    stages::<_, _, _, 2, 1, 9>(&PENDULUM, RattleLobattoIIIAIIIB3, off, (false, true));
}

/// RATTLE and SHAKE through `solve` against `integrate_rattle` and `integrate_shake`.
fn hand_written<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    problem: &P,
    (q0, p0): (Vector<D>, Vector<D>),
    (restore, project): (bool, bool),
) {
    let (old_options, new_options) = options(restore, project);
    let what = format!("restore {restore} project {project}");
    let old = integrate_rattle(problem, &q0, &p0, &old_options).unwrap();
    let new = solve(problem, Rattle, q0, p0, &new_options).unwrap();
    same(problem, new, old, &format!("RATTLE {what}"));
    if !restore {
        let old = integrate_shake(problem, &q0, &p0, &old_options).unwrap();
        let new = solve(problem, Shake, q0, p0, &new_options).unwrap();
        same(problem, new, old, &format!("SHAKE {what}"));
    }
}

#[test]
fn rattle_and_shake_through_solve_are_the_old_path() {
    let swing = PENDULUM.state(1.0, 0.0);
    let (molecule, qm, pm) = triatomic();
    for restore in [false, true] {
        hand_written(&PENDULUM, swing, (restore, false));
        hand_written(&molecule, (qm, pm), (restore, false));
    }
    hand_written(&PENDULUM, (swing.0 * 1.01, swing.1), (false, true));
}
