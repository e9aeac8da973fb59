//! Ensembles (`sparkgen::ensemble`): 64 members of Lotka–Volterra and of the guiding centre
//! (D = 4) give the same results, bit for bit, on one thread and on two, each equal to the
//! member's own `solve`; a member whose run fails is reported with its index, step and time
//! while the others finish; thinned trajectories are streamed to one file per member; split
//! over two ranks (threads standing in for MPI's processes), rank 0 gathers the records one
//! process makes, bit for bit, and names a rank that failed.

use sparkgen::ensemble::ranks::{self, GatherError, Part, Ranks, run_ranked};
use sparkgen::ensemble::{
    EnsembleOptions, MemberFailure, MemberRun, Records, Trajectories, run_ensemble, solve_ensemble,
};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::VprkGauss3;
use sparkgen::integrate::Options;
use sparkgen::output::Format;
use sparkgen::problem::Vector;
use sparkgen::problems::{GuidingCentre, LotkaVolterra2d};
use sparkgen::run::Method;
use sparkgen::solve;
use std::num::NonZeroUsize;
use std::sync::{Mutex, mpsc};

const MEMBERS: usize = 64;

fn threads(n: usize) -> EnsembleOptions {
    EnsembleOptions {
        threads: NonZeroUsize::new(n),
        trajectories: None,
    }
}

/// Runs `initial` on one thread and on two: equal, bit for bit, and member k equal to its own
/// `solve`.
fn serial_and_parallel_agree<P, R, const D: usize>(
    problem: &P,
    initial: &[(Vector<D>, Vector<D>)],
    options: &Options,
) where
    P: Sync,
    VprkGauss3: Method<P, D, R>,
{
    let one = solve_ensemble(problem, VprkGauss3, initial, options, &threads(1)).expect("runs");
    let two = solve_ensemble(problem, VprkGauss3, initial, options, &threads(2)).expect("runs");
    assert_eq!(one, two);
    assert_eq!(one.failed().count(), 0);
    let mut worst = 0.0f64;
    for (k, m) in one.members.iter().enumerate() {
        assert_eq!(m.index, k);
        let (q0, p0) = initial[k];
        let alone = solve(problem, VprkGauss3, q0, p0, options).expect("the member runs");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let last = alone.q.len() - 1;
        assert_eq!(bits(&m.q), bits(alone.q[last].as_slice()), "member {k}");
        assert_eq!(bits(&m.p), bits(alone.p[last].as_slice()), "member {k}");
        assert_eq!(m.run.as_ref(), Some(&alone.run), "member {k}");
        assert_eq!((m.steps, m.t), (options.steps, alone.t[last]), "member {k}");
        worst = worst.max(alone.run.max_constraint);
    }
    let records = one.records();
    assert_eq!(records.max_constraint(), worst);
    assert_eq!(records.steps(), MEMBERS * options.steps);
}

#[test]
fn lotka_volterra_members_agree_on_any_number_of_threads() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let initial: Vec<_> = (0..MEMBERS)
        .map(|k| lv.initial([1.0 + 0.02 * k as f64, 1.0 + 0.01 * (k % 8) as f64]))
        .collect();
    serial_and_parallel_agree(&lv, &initial, &Options::new(0.1, 200));
}

#[test]
fn guiding_centre_members_agree_on_any_number_of_threads() {
    let gc = GuidingCentre::SCREW_PINCH;
    let [x, y, z, u] = GuidingCentre::SCREW_PINCH_Q0;
    let initial: Vec<_> = (0..MEMBERS)
        .map(|k| {
            gc.initial([
                x + 0.002 * k as f64,
                y,
                z,
                u * (1.0 - 0.01 * (k % 5) as f64),
            ])
        })
        .collect();
    serial_and_parallel_agree(&gc, &initial, &Options::new(0.1, 100));
}

/// A member started near the boundary q₁ = 0 of Lotka–Volterra's phase space (ϑ holds ln q)
/// fails, typed, with its step and time; every other member finishes, and the final-state
/// array keeps its last accepted state.
#[test]
fn a_failing_member_is_reported_and_the_others_finish() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let bad = 5;
    let initial: Vec<_> = (0..16)
        .map(|k| {
            let q = if k == bad {
                [1e-9, 8.0]
            } else {
                [2.0, 1.0 + 0.01 * k as f64]
            };
            lv.initial(q)
        })
        .collect();
    let options = Options::new(0.1, 400);
    let dir = std::env::temp_dir().join(format!("sparkgen-ensemble-{}", std::process::id()));
    let trajectories = Trajectories {
        dir: dir.clone(),
        every: NonZeroUsize::new(50).expect("positive"),
        format: Format::Npy,
    };
    let ensemble = EnsembleOptions {
        threads: NonZeroUsize::new(2),
        trajectories: Some(trajectories.clone()),
    };
    let result = solve_ensemble(&lv, VprkGauss3, &initial, &options, &ensemble).expect("runs");
    let failed: Vec<_> = result.failed().collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    let m = failed[0];
    assert_eq!(m.index, bad);
    let failure = m.failure.as_ref().expect("a failure");
    println!("member {bad}: {failure} after {} steps", m.steps);
    let Some(MemberFailure::Step(error)) = &m.failure else {
        panic!("a step failure: {failure:?}");
    };
    let step = match error {
        IntegrateError::NewtonFailed { step, .. }
        | IntegrateError::NonFinite { step, .. }
        | IntegrateError::SingularJacobian { step, .. }
        | IntegrateError::ConstraintDeparture { step, .. } => *step,
        other => panic!("a failure of a step: {other:?}"),
    };
    assert_eq!(
        m.steps + 1,
        step,
        "the last accepted step precedes the failed one"
    );
    assert!(m.steps < options.steps);
    assert_eq!(m.q.len(), 2);
    for other in result.members.iter().filter(|m| m.index != bad) {
        assert_eq!(other.steps, options.steps, "member {}", other.index);
    }
    // One file per member: rows n = 0, 50, …, 400 (9), and the failed member's up to its last
    // accepted step.
    for k in [0, bad, 15] {
        let bytes = std::fs::read(trajectories.path(k, 16)).expect("written");
        let header = String::from_utf8_lossy(&bytes[10..]);
        let steps = result.members[k].steps;
        let kept = steps / 50 + 1 + usize::from(steps % 50 != 0);
        assert!(
            header.contains(&format!("'shape': ({kept}, 5)")),
            "member {k}: {header}"
        );
    }
    let final_path = dir.join("final.npy");
    result
        .records()
        .write_final(&final_path, Format::Npy)
        .expect("written");
    let bytes = std::fs::read(&final_path).expect("written");
    assert!(String::from_utf8_lossy(&bytes[10..]).contains("'shape': (16, 7)"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The guiding-centre problem file (D = 4) on the run-time engine through `run_ensemble`: one
/// engine shared by every member's run, results equal on one thread and on two, bit for bit,
/// and equal to the compiled derive's ensemble to round-off (the engine's arithmetic differs
/// from the compiled stepper's in the order of its sums).
#[test]
fn an_ensemble_of_a_problem_file_runs_on_the_engine() {
    use sparkgen::engine::{Engine, Kernels, Stepping};
    use sparkgen::integrate::run_into;
    use sparkgen::problem_file::ProblemFile;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/guiding_centre.toml");
    let Ok(ProblemFile::DegenerateLagrangian(file)) = ProblemFile::read(path) else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let gc = GuidingCentre::SCREW_PINCH;
    let [x, y, z, u] = GuidingCentre::SCREW_PINCH_Q0;
    let initial: Vec<_> = (0..MEMBERS)
        .map(|k| gc.initial([x + 0.002 * k as f64, y, z, u]))
        .collect();
    let options = Options::new(0.1, 100);
    let engine = Engine::catalogue("VprkGauss3", file.dims()).expect("in the catalogue");
    let run = |k: usize, observer: sparkgen::ensemble::MemberRun<'_>| {
        let stepping = Stepping::new(&engine, &file)
            .map_err(|e| sparkgen::solution::Stopped::Step(IntegrateError::MethodUnavailable(e)))?;
        let (q0, p0) = &initial[k];
        run_into(stepping, q0.as_slice(), p0.as_slice(), &options, observer)
    };
    let one = run_ensemble(MEMBERS, 4, &threads(1), run, &|_| ()).expect("runs");
    let two = run_ensemble(MEMBERS, 4, &threads(2), run, &|_| ()).expect("runs");
    assert_eq!(one, two);
    let compiled = solve_ensemble(&gc, VprkGauss3, &initial, &options, &threads(2)).expect("runs");
    let mut worst = 0.0f64;
    for (a, b) in one.members.iter().zip(&compiled.members) {
        assert_eq!(a.steps, b.steps);
        for (x, y) in a.q.iter().chain(&a.p).zip(b.q.iter().chain(&b.p)) {
            worst = worst.max((x - y).abs() / y.abs().max(1.0));
        }
    }
    println!("engine against compiled, largest relative difference {worst:.1e}");
    assert!(worst <= 1e-13, "{worst:e}");
}

/// Ranks that are threads of this process, gathering through a channel: MPI's gather as
/// [`Ranks`] sees it, for the splitting and joining of blocks (the MPI transport itself is
/// tested by `sparkgen-mpi` under `mpirun`).
struct ThreadRank {
    rank: usize,
    size: usize,
    to_root: mpsc::Sender<(usize, Part)>,
    at_root: Option<Mutex<mpsc::Receiver<(usize, Part)>>>,
}

impl Ranks for ThreadRank {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn gather(&self, part: Part) -> Result<Option<Vec<Part>>, GatherError> {
        self.to_root
            .send((self.rank, part))
            .expect("rank 0 listens");
        let Some(at_root) = &self.at_root else {
            return Ok(None);
        };
        let at_root = at_root.lock().expect("one rank 0");
        let mut parts: Vec<_> = at_root.iter().take(self.size).collect();
        parts.sort_by_key(|(rank, _)| *rank);
        Ok(Some(parts.into_iter().map(|(_, part)| part).collect()))
    }
}

/// Runs `each(rank)` on `size` ranks, each a thread: rank 0's result.
fn on_ranks<T: Send>(size: usize, each: impl Fn(&ThreadRank) -> T + Sync) -> T {
    let (to_root, at_root) = mpsc::channel();
    let mut at_root = Some(Mutex::new(at_root));
    let ranks: Vec<ThreadRank> = (0..size)
        .map(|rank| ThreadRank {
            rank,
            size,
            to_root: to_root.clone(),
            at_root: at_root.take(),
        })
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = ranks.iter().map(|r| s.spawn(|| each(r))).collect();
        let mut results = handles.into_iter().map(|h| h.join().expect("a rank runs"));
        results.next().expect("rank 0")
    })
}

#[test]
fn blocks_over_ranks_gather_to_the_records_of_one_process() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let bad = 41;
    let initial: Vec<_> = (0..MEMBERS)
        .map(|k| {
            let q = if k == bad {
                [1e-9, 8.0]
            } else {
                [1.0 + 0.02 * k as f64, 1.0 + 0.01 * (k % 8) as f64]
            };
            lv.initial(q)
        })
        .collect();
    let options = Options::new(0.1, 100);
    let run = |k: usize, observer: MemberRun<'_>| {
        let (q0, p0) = initial[k];
        sparkgen::solve_into(&lv, VprkGauss3, q0, p0, &options, observer)
    };
    let alone = run_ensemble(MEMBERS, 2, &threads(1), run, &|_| ()).expect("runs");
    let expected = alone.records();
    let bits = |r: &Records| r.rows.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for size in [2, 3, 5] {
        let gathered = on_ranks(size, |rank| {
            run_ranked(rank, MEMBERS, 2, &threads(1), run, &|_| ()).expect("gathers")
        });
        let (records, peak) = gathered.expect("rank 0 holds the records");
        assert_eq!(bits(&records), bits(&expected), "{size} ranks");
        assert_eq!(
            (&records.lengths, &records.messages),
            (&expected.lengths, &expected.messages)
        );
        assert!(peak.is_some_and(|b| b > 0) || std::fs::metadata("/proc/self/status").is_err());
    }
    // The records read back as the members: index, steps, state and failure.
    assert_eq!(expected.len(), MEMBERS);
    for (r, m) in expected.iter().zip(&alone.members) {
        assert_eq!(
            (r.index, r.steps, r.t.to_bits()),
            (m.index, m.steps, m.t.to_bits())
        );
        assert_eq!((r.q, r.p), (&m.q[..], &m.p[..]));
        let failure = m.failure.as_ref().map(ToString::to_string);
        assert_eq!(r.failure, failure.as_deref());
        assert_eq!(r.max_constraint, m.run.as_ref().map(|s| s.max_constraint));
    }
    let failed: Vec<_> = expected.failed().map(|r| r.index).collect();
    assert_eq!(failed, [bad]);
    // A rank that failed before its block is named by rank 0; no rank waits.
    let error = on_ranks(2, |rank| {
        let records = match rank.rank() {
            1 => Err("cannot read the initial states".to_owned()),
            _ => Ok(Records::new(2)),
        };
        ranks::gather(rank, 2, records)
    });
    assert_eq!(
        error.expect_err("rank 1 failed").to_string(),
        "rank 1 of 2: cannot read the initial states"
    );
}
