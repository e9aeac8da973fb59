//! One `solve` for every problem kind (`sparkgen::solve`): the method passed as a value, its
//! number of unknowns never written, the stage storage sized once per run. The same call runs a
//! degenerate Lagrangian, a holonomic system, a Hamiltonian DAE and an implicit DAE, each with
//! its kind's constraint watched; `solve_into` hands the same points to an observer, and a
//! [`Record`] of every K-th point holds exactly those points of the in-memory solution, with the
//! statistics of the whole run; the run statistics agree with the trajectory they summarise.

use nalgebra::SVector;
use sparkgen::generated::steppers::{
    HparkGlrk2, IdaeVparkGlrkpSymplectic2, RattleLobattoIIIAIIIB3, SlrkLobattoIIIE3, SparkGlrk2,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::Options;
use sparkgen::kind::constraint_names;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d, LotkaVolterraDirac};
use sparkgen::run::Method;
use sparkgen::solution::{Record, Solution};
use sparkgen::{solve, solve_into};
use std::fmt::Debug;
use std::num::NonZeroUsize;

const LV: LotkaVolterra2d = LotkaVolterra2d::UPSTREAM;

/// Points kept by the thinned record: `n = 0, K, 2K, …` and the last.
const EVERY: usize = 7;

/// `solve` of `method` on `problem`, checked against `solve_into` with a [`Record`] of every
/// point (the same solution, bit for bit, and the same run statistics) and of every
/// [`EVERY`]-th point (the points `n = 0, K, 2K, …` and the last of the full solution, with the
/// statistics and multipliers of those points and of the whole run). The run takes every step
/// and reports `constraint` as the residual it watched.
fn solved<M, P, R, const D: usize>(
    problem: &P,
    method: M,
    (q0, p0): (SVector<f64, D>, SVector<f64, D>),
    options: &Options,
    constraint: &str,
) -> Solution<D>
where
    M: Method<P, D, R> + Copy + Debug,
{
    let kept = solve(problem, method, q0, p0, options)
        .unwrap_or_else(|failure| panic!("{method:?}: {failure}"));
    assert_eq!(kept.steps(), options.steps, "{method:?}");
    assert_eq!(kept.t.len(), options.steps + 1, "{method:?}");
    assert_eq!(kept.run.steps, options.steps, "{method:?}");
    assert_eq!(kept.run.constraint, constraint, "{method:?}");

    let mut every = Record::new(options.steps, NonZeroUsize::MIN);
    let run = solve_into(problem, method, q0, p0, options, &mut every)
        .unwrap_or_else(|stopped| panic!("{method:?}: {stopped:?}"));
    assert_eq!(run, kept.run, "{method:?}");
    assert_eq!(every.into_solution(), kept, "{method:?}");

    let thinning = NonZeroUsize::new(EVERY).expect("positive");
    let mut thinned = Record::new(options.steps, thinning);
    let run = solve_into(problem, method, q0, p0, options, &mut thinned)
        .unwrap_or_else(|stopped| panic!("{method:?}: {stopped:?}"));
    let thinned = thinned.into_solution();
    let points: Vec<usize> = (0..=options.steps)
        .filter(|n| n % EVERY == 0 || *n == options.steps)
        .collect();
    assert_eq!(run, kept.run, "{method:?}");
    assert_eq!(thinned.run, kept.run, "{method:?}");
    assert_eq!(thinned.steps(), kept.steps(), "{method:?}");
    let at = |n: &usize| (kept.t[*n], kept.q[*n], kept.p[*n]);
    let expected: Vec<_> = points.iter().map(at).collect();
    let recorded: Vec<_> = (0..thinned.t.len())
        .map(|k| (thinned.t[k], thinned.q[k], thinned.p[k]))
        .collect();
    assert_eq!(recorded, expected, "{method:?}");
    let stats: Vec<_> = points[1..].iter().map(|n| kept.stats[n - 1]).collect();
    assert_eq!(thinned.stats, stats, "{method:?}");
    let lambda: Vec<&[f64]> = kept.multipliers().collect();
    let lambda: Vec<&[f64]> = points
        .iter()
        .filter_map(|n| lambda.get(*n).copied())
        .collect();
    assert_eq!(
        thinned.multipliers().collect::<Vec<_>>(),
        lambda,
        "{method:?}"
    );
    kept
}

#[test]
fn one_call_runs_every_problem_kind_and_streams_the_same_points() {
    let options = Options::new(0.05, 200);
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let lv = (q0, LV.theta(&q0));
    let primary = constraint_names::PRIMARY;
    for run in [
        solved(&LV, SlrkLobattoIIIE3, lv, &options, primary),
        solved(&LV, SparkGlrk2, lv, &options, primary),
    ] {
        assert!(run.run.max_constraint < 1e-13, "{:?}", run.run);
    }

    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let swing = pendulum.state(1.0, 0.0);
    let holonomic = constraint_names::HOLONOMIC;
    let run = solved(
        &pendulum,
        RattleLobattoIIIAIIIB3,
        swing,
        &options,
        holonomic,
    );
    assert!(run.run.max_constraint < 1e-13, "{:?}", run.run);

    let dirac = LotkaVolterraDirac::from(LV);
    let dae = constraint_names::DAE;
    let run = solved(&dirac, HparkGlrk2, lv, &options, dae);
    assert_eq!(run.lambda_width, 2, "HPARK carries λ");

    let index_two = IndexTwoPendulum::default();
    let state = index_two.initial_state(1.0, 0.0);
    let run = solved(&index_two, IdaeVparkGlrkpSymplectic2, state, &options, dae);
    assert_eq!(run.lambda_width, 1, "VPARK carries λ");
    assert!(run.run.max_constraint < 1e-13, "{:?}", run.run);
}

/// The run statistics summarise the trajectory: step and iteration counts from the per-step
/// statistics, the largest constraint residual and energy error recomputed from the points.
#[test]
fn run_statistics_summarise_the_trajectory() {
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.1, 500);
    let s = solve(&LV, SparkGlrk2, q0, LV.theta(&q0), &options).expect("converges");
    let run = s.run;
    assert_eq!(run.steps, 500);
    assert_eq!(
        run.newton_iterations,
        s.stats.iter().map(|st| st.iterations).sum::<usize>()
    );
    assert_eq!(
        run.max_newton_iterations,
        s.stats.iter().map(|st| st.iterations).max().unwrap_or(0)
    );
    assert!(run.factorisations >= run.steps, "{run:?}");
    let constraint =
        s.q.iter()
            .zip(&s.p)
            .map(|(q, p)| (p - LV.theta(q)).amax())
            .fold(0.0, f64::max);
    assert_eq!(run.max_constraint, constraint);
    assert_eq!(run.constraint, "|p − ϑ(q)|∞");
    let h0 = LV.hamiltonian(&q0);
    let energy =
        s.q.iter()
            .map(|q| (LV.hamiltonian(q) - h0).abs())
            .fold(0.0, f64::max);
    assert_eq!(run.max_energy_error, Some(energy));
    assert!(energy > 0.0, "SPARK GLRK(2) does not conserve H exactly");
}

/// A run to an end time takes the fewest equal steps of at most h and ends there.
#[test]
fn a_run_to_an_end_time_ends_there() {
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::until(0.3, 1.0).expect("valid");
    assert_eq!(options.steps, 4);
    assert_eq!(options.h, 0.25);
    let s = solve(&LV, SlrkLobattoIIIE3, q0, LV.theta(&q0), &options).expect("converges");
    assert_eq!(s.t.last().copied(), Some(1.0));
    assert_eq!(Options::until(0.1, 0.0).map(|o| o.steps), Ok(0));
    for (h, t_end) in [
        (0.0, 1.0),
        (f64::NAN, 1.0),
        (0.1, -1.0),
        (0.1, f64::INFINITY),
    ] {
        assert!(
            Options::until(h, t_end).is_err(),
            "h = {h}, t_end = {t_end}"
        );
    }
    assert!(Options::until(1e-300, 1.0).is_err());
}
