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

/// Every point `(q_n, p_n)` of a run, flattened, and the run's statistics.
type Points = (Vec<f64>, sparkgen::solution::RunStats);

/// The points of a run into a [`Closure`](sparkgen::observers::Closure).
fn points<E: std::fmt::Debug>(
    run: impl FnOnce(
        &mut sparkgen::observers::Closure<
            &mut dyn FnMut(&sparkgen::solution::Point<'_>) -> Result<(), ()>,
        >,
    ) -> Result<sparkgen::solution::RunStats, sparkgen::solution::Stopped<E, ()>>,
) -> Points {
    let mut all = Vec::new();
    let mut keep = |point: &sparkgen::solution::Point<'_>| {
        all.extend_from_slice(point.q);
        all.extend_from_slice(point.p);
        Ok(())
    };
    let stats = run(&mut sparkgen::observers::Closure(&mut keep)).expect("the run succeeds");
    (all, stats)
}

/// The largest `|a − b| / max(|b|, 1)` over two runs' points (∞ when they differ in length).
fn discrepancy(a: &[f64], b: &[f64]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b)
        .fold(0.0, |w, (x, y)| w.max((x - y).abs() / y.abs().max(1.0)))
}

/// RATTLE, SHAKE and the Lobatto IIIA–IIIB RATTLE stage methods on run-time sized storage
/// (`run_sized_into` on a problem file, the path of every shape without a compiled
/// instantiation) against the fixed-size path on the same file's `view::<D, M>()`: RATTLE and
/// SHAKE run the same arithmetic and agree bit for bit, initial projection and restoration
/// included; the engine's stage methods agree with the compiled ones to round-off. Shapes
/// (2, 1) (the pendulum) and (12, 4) (the spherical chain of four links).
#[test]
fn run_time_sized_holonomic_runs_equal_the_fixed_size_ones() {
    use sparkgen::engine::{Engine, Kernels};
    use sparkgen::holonomic::{SizedMethod, run_sized_into};
    use sparkgen::problem_file::ProblemFile;
    fn compare<const D: usize, const M: usize>(name: &str) {
        let path = format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR"));
        let Ok(ProblemFile::Holonomic(file)) = ProblemFile::read(&path) else {
            panic!("{name} states a holonomic system");
        };
        let view = file.view::<D, M>().expect("the file's shape");
        let (q0, p0) = view.initial();
        // Off the constraints by 1 %, for the projected runs.
        let off = (q0 * 1.01, p0);
        let sized = |method: SizedMethod<'_>, (q, p): (Vector<D>, Vector<D>), o: &Options| {
            points(|observer| {
                run_sized_into(&file, method, q.as_slice(), p.as_slice(), o, observer)
            })
        };
        for (restore, project, (q, p)) in [
            (false, false, (q0, p0)),
            (true, false, (q0, p0)),
            (false, true, off),
        ] {
            let options = Options {
                restore_consistency: restore,
                project_initial: project,
                ..Options::new(H, STEPS)
            };
            let what = format!("{name} restore {restore} project {project}");
            let fixed = points(|o| Method::run_into(Rattle, &view, q, p, &options, o));
            let run_time = sized(SizedMethod::Rattle, (q, p), &options);
            assert_eq!(run_time, fixed, "RATTLE, {what}");
            if !restore {
                let fixed = points(|o| Method::run_into(Shake, &view, q, p, &options, o));
                let run_time = sized(SizedMethod::Shake, (q, p), &options);
                assert_eq!(run_time, fixed, "SHAKE, {what}");
            }
            let engine = Engine::catalogue("RattleLobattoIIIAIIIB3", file.dims()).expect("found");
            let fixed =
                points(|o| Method::run_into(RattleLobattoIIIAIIIB3, &view, q, p, &options, o));
            let run_time = sized(SizedMethod::Stages(&engine), (q, p), &options);
            let d = discrepancy(&run_time.0, &fixed.0);
            println!("{what}: Lobatto IIIA–IIIB(3), engine against compiled {d:.1e}");
            assert!(d <= 1e-13, "Lobatto IIIA–IIIB(3), {what}: {d:e}");
            assert!(
                run_time.1.max_constraint <= 1e-13,
                "{what}: {:?}",
                run_time.1
            );
        }
        // A wrong length is a typed error, not a panic.
        let short = [0.0; 1];
        let options = Options::new(H, STEPS);
        let e = run_sized_into(
            &file,
            SizedMethod::Rattle,
            &short,
            &short,
            &options,
            &mut sparkgen::observers::Closure(|_: &sparkgen::solution::Point<'_>| Ok::<(), ()>(())),
        );
        assert!(
            matches!(e, Err(sparkgen::solution::Stopped::Step(_))),
            "{e:?}"
        );
    }
    compare::<2, 1>("pendulum.toml");
    compare::<12, 4>("spherical_chain.toml");
}
