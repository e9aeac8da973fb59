//! One `solve` for every problem kind (`sparkgen::solve`): the method passed as a value, its
//! number of unknowns never written, the stage storage sized once per run. The same call runs a
//! degenerate Lagrangian, a holonomic system, a Hamiltonian DAE and an implicit DAE, and gives
//! bit for bit the trajectory of the fixed-size path (`integrate::<M, P, D, N>`, the same
//! arithmetic on arrays); its run statistics agree with the trajectory they summarise.

use nalgebra::SVector;
use sparkgen::generated::steppers::{
    HparkGlrk2, IdaeVparkGlrkpSymplectic2, RattleLobattoIIIAIIIB3, SlrkLobattoIIIE3, SparkGlrk2,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::{Options, integrate};
use sparkgen::layout::Dims;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d, LotkaVolterraDirac};
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::Solution;
use sparkgen::solve;
use sparkgen::stage::StageMethod;

const LV: LotkaVolterra2d = LotkaVolterra2d::UPSTREAM;

/// `solve` with `method` and the fixed-size `integrate` with `N` unknowns give the same
/// solution, bit for bit (trajectory, multipliers, per-step and run statistics).
fn same_as_fixed<M, P, const D: usize, const N: usize>(
    problem: &P,
    method: M,
    (q0, p0): (SVector<f64, D>, SVector<f64, D>),
    options: &Options,
) -> Solution<D>
where
    M: StageMethod<P, D> + Method<P, D, Direct>,
{
    let new =
        solve(problem, method, q0, p0, options).unwrap_or_else(|e| panic!("{}: {e}", M::NAME));
    let old = integrate::<M, P, D, N>(problem, q0, p0, options)
        .unwrap_or_else(|e| panic!("{}: {e}", M::NAME));
    assert_eq!(new, old, "{}", M::NAME);
    assert_eq!(new.steps(), options.steps, "{}", M::NAME);
    new
}

#[test]
fn one_call_runs_every_problem_kind_as_the_fixed_size_path() {
    let options = Options::new(0.05, 200);
    let q0 = SVector::from(LotkaVolterra2d::UPSTREAM_Q0);
    let lv = (q0, LV.theta(&q0));
    same_as_fixed::<_, _, 2, 14>(&LV, SlrkLobattoIIIE3, lv, &options);
    same_as_fixed::<_, _, 2, 4>(&LV, SparkGlrk2, lv, &options);

    const RATTLE: usize = RattleLobattoIIIAIIIB3::<1>::UNKNOWN_LAYOUT.len(Dims::new(2, 1));
    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let swing = pendulum.state(1.0, 0.0);
    let run = same_as_fixed::<_, _, 2, RATTLE>(&pendulum, RattleLobattoIIIAIIIB3, swing, &options);
    assert!(run.run.max_constraint < 1e-13, "{:?}", run.run);

    const HPARK: usize = HparkGlrk2::<2>::UNKNOWN_LAYOUT.len(Dims::new(2, 2));
    let dirac = LotkaVolterraDirac::from(LV);
    same_as_fixed::<_, _, 2, HPARK>(&dirac, HparkGlrk2, lv, &options);

    const VPARK: usize = IdaeVparkGlrkpSymplectic2::<1>::UNKNOWN_LAYOUT.len(Dims::new(2, 1));
    let index_two = IndexTwoPendulum::default();
    let state = index_two.initial_state(1.0, 0.0);
    same_as_fixed::<_, _, 2, VPARK>(&index_two, IdaeVparkGlrkpSymplectic2, state, &options);
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
