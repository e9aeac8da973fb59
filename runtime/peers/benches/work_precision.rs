//! Work-precision diagrams against diffsol: `cargo bench -p sparkgen-peers --bench
//! work_precision [-- lotka-volterra | guiding-centre]` (both problems without an argument).
//!
//! Problems, each a degenerate Lagrangian `L = ϑ(q)·q̇ − H(q)` from `(q₀, ϑ(q₀))`, whose
//! Euler–Lagrange equations `Ω(q) q̇ = −∇H(q)` (`Ω = Dϑ − Dϑᵀ`) are the ODE diffsol solves:
//! - Lotka–Volterra 2d with upstream's defaults (`LotkaVolterra2d::UPSTREAM`,
//!   a = (−1, −1), b = (1, 2)), q₀ = (2, 1): the vector field in closed form,
//!   q̇₁ = q₁(a₂q₂ + b₂), q̇₂ = −q₂(a₁q₁ + b₁), and H(q) = a₁q₁ + a₂q₂ + b₁ ln q₁ + b₂ ln q₂;
//! - the guiding centre in an elliptic screw pinch (`GuidingCentre::SCREW_PINCH`, D = 4,
//!   q = (x, y, z, u), a trapped orbit from q₀ = (1/2, 0, 0, 1/10); `problems/guiding_centre.toml`
//!   states it): the vector field `Ω(q)⁻¹(−∇H(q))` by LU from the derived kernels at every
//!   evaluation (`DegenerateLagrangian::vector_field`), H = u²/2 + μ|B|.
//!
//! - sparkgen: VPRK Gauss(3), VPRKpMidpoint Gauss(3) and Gauss(4)
//!   (`VsparkPrimaryGlrkpMidpoint3`, `…4`: the Gauss stages of VPRK Gauss(s) and one
//!   projective stage that enforces p_{n+1} = ϑ(q_{n+1}), upstream's midpoint projection), and on
//!   Lotka–Volterra also SLRK Lobatto IIIE(3) and IIID(3) and VPRK Gauss(2), stepped one step at
//!   a time through `sparkgen::integrate::Driver` (default Newton options: simplified Newton with
//!   the exact Jacobian), over a sweep of step sizes h;
//! - diffsol: `tsit45`, and on Lotka–Volterra also `esdirk34` and `bdf` (nalgebra matrices,
//!   `NalgebraLU`) with the exact Jacobian of the vector field given as a closure, over a sweep
//!   of `rtol = atol`, stepped with `OdeSolverMethod::step` to a stop time T.
//!
//! Both sides evaluate H at every step (every accepted step for diffsol) and keep
//! max_n |H(q_n) − H(q₀)|/|H(q₀)|, nothing else: no trajectory is stored. The CPU time of a run is
//! its wall time, from building the stepper (diffsol: the problem and the solver) to T, energy
//! monitoring included. Three sweeps:
//!
//! - T = 10: the error |q(10) − q_ref(10)|∞ against a Gauss(8) reference (2000 steps, checked
//!   against 1000 steps, and on Lotka–Volterra against upstream's independent DOP853 value), best of
//!   [`REPEATS`] runs;
//! - T = 10⁴ and T = 10⁵: the maximum relative energy error, one run each. A run whose time,
//!   predicted from the same method and parameter at the previous T (times the ratio of the
//!   T's), exceeds [`RUN_CAP`] seconds is skipped and listed as skipped;
//! - T = 10⁶, only if diffsol still reaches the energy target faster at T = 10⁵, and T = 10⁷, only
//!   if it still does at T = 10⁶: the fastest method of each code at the T before, around the
//!   target only (see [`crossover_sweep`]).
//!
//! The bench prints, per problem, one table per T, writes the three diagrams (log–log PNG) to
//! `docs/benchmarks/`, and reports the CPU time each method needs for a maximum relative energy
//! error of [`ENERGY_TARGET`] at T = 10, 10⁴, 10⁵ (and 10⁶, 10⁷) (log–log interpolation between sweep
//! points), who wins, and where the fastest sparkgen method overtakes the fastest diffsol method.
//!
//! Smoke mode (`cargo test -p sparkgen-peers --benches`, no `--bench` argument): every method
//! of every problem once to T = 1 (the problem's smoke step size, tolerance 1e−6), checked
//! against the reference; nothing is timed or written.

use diffsol::{
    NalgebraLU, NalgebraMat, OdeBuilder, OdeEquations, OdeSolverMethod, OdeSolverStopReason,
    Vector as _,
};
use plotters::prelude::*;
use sparkgen::cli::plot::{legend, register_font};
use sparkgen::diagnostics::gauss8;
use sparkgen::generated::steppers::{
    SlrkLobattoIIID3, SlrkLobattoIIIE3, VprkGauss2, VprkGauss3, VsparkPrimaryGlrkpMidpoint3,
    VsparkPrimaryGlrkpMidpoint4,
};
use sparkgen::integrate::{Compiled, Driver};
use sparkgen::problem::{DegenerateLagrangian, Vector};
use sparkgen::problems::{GuidingCentre, LotkaVolterra2d};
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;
use std::path::Path;
use std::time::Instant;

/// The first problem.
const LV: LotkaVolterra2d = LotkaVolterra2d::UPSTREAM;
/// Final time of the error sweep.
const T_SHORT: f64 = 10.0;
/// Final times of the energy sweeps.
const T_LONG: [f64; 2] = [1e4, 1e5];
/// Step sizes of the sparkgen methods on Lotka–Volterra (each divides every T exactly in
/// binary).
const STEP_SIZES: [f64; 7] = [0.4, 0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625];
/// Step sizes on the guiding centre, whose orbit is slower (binary fractions).
const GUIDING_CENTRE_STEP_SIZES: [f64; 7] = [2.0, 1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125];
/// Tolerances `rtol = atol` of the diffsol methods.
const TOLERANCES: [f64; 9] = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12];
/// Runs per point at T = 10 (the fastest is kept); one run per point at T = 10⁴ and 10⁵.
const REPEATS: usize = 5;
/// A run predicted to take longer than this (seconds) is skipped.
const RUN_CAP: f64 = 10.0;
/// Final times of the crossover runs, each made only where diffsol is still faster at the T
/// before it, with the cap of one run there (seconds, predicted from the T before).
const CROSSOVER: [(f64, f64); 2] = [(1e6, 60.0), (1e7, 600.0)];
/// The maximum relative energy error of the acceptance question.
const ENERGY_TARGET: f64 = 1e-6;
/// Steps of the Gauss(8) reference over [0, 10], and of its check.
const REFERENCE_STEPS: [usize; 2] = [2000, 1000];
/// Upstream's independent value of Lotka–Volterra's q(10) (DOP853).
const DOP853_Q10: [f64; 2] = [2.576489958858641, 1.5388112243762107];
/// Where the diagrams go, relative to this package.
const OUT_DIR: &str = "../../docs/benchmarks";

/// A problem of the comparison: the degenerate Lagrangian, its initial point and the vector field
/// of its Euler–Lagrange equations that diffsol and the reference integrate.
trait Subject<const D: usize>: DegenerateLagrangian<D> + Sized + 'static {
    /// The problem with its parameters.
    const PROBLEM: Self;
    /// q₀ (p₀ = ϑ(q₀)).
    const Q0: [f64; D];
    /// `q̇ = v(q)`, NaN where `Ω(q)` is singular.
    fn field(q: &[f64]) -> [f64; D];
}

impl Subject<2> for LotkaVolterra2d {
    const PROBLEM: Self = LV;
    const Q0: [f64; 2] = LotkaVolterra2d::UPSTREAM_Q0;
    fn field(q: &[f64]) -> [f64; 2] {
        field(q)
    }
}

impl Subject<4> for GuidingCentre {
    const PROBLEM: Self = GuidingCentre::SCREW_PINCH;
    const Q0: [f64; 4] = GuidingCentre::SCREW_PINCH_Q0;
    fn field(q: &[f64]) -> [f64; 4] {
        Self::PROBLEM
            .vector_field(&Vector::<4>::from_column_slice(q))
            .map_or([f64::NAN; 4], Into::into)
    }
}

/// The Lotka–Volterra vector field.
fn field(q: &[f64]) -> [f64; 2] {
    [
        q[0] * (LV.a2 * q[1] + LV.b2),
        -q[1] * (LV.a1 * q[0] + LV.b1),
    ]
}

/// Its Jacobian applied to `v`.
fn field_jacobian_times(q: &[f64], v: &[f64]) -> [f64; 2] {
    [
        (LV.a2 * q[1] + LV.b2) * v[0] + LV.a2 * q[0] * v[1],
        -LV.a1 * q[1] * v[0] - (LV.a1 * q[0] + LV.b1) * v[1],
    ]
}

/// The relative energy error of `q` against `h0 = H(q₀)`; `Err` where H is not finite (e.g. a
/// population left the positive quadrant).
fn energy_error<S: Subject<D>, const D: usize>(
    q: &Vector<D>,
    h0: f64,
    t: f64,
) -> Result<f64, String> {
    let error = ((S::PROBLEM.hamiltonian(q) - h0) / h0).abs();
    if error.is_finite() {
        Ok(error)
    } else {
        Err(format!("H not finite at t = {t}: q = {:?}", q.as_slice()))
    }
}

/// What a run reports besides its time.
struct Outcome {
    /// The state at T.
    q: Vec<f64>,
    /// max_n |H(q_n) − H(q₀)|/|H(q₀)|.
    energy: f64,
    /// Accepted steps.
    steps: usize,
    /// Newton iterations.
    newton: usize,
    /// Rejected steps (error test failures; 0 for fixed steps).
    rejected: usize,
}

/// Which code a method belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Code {
    /// Ours: fixed step size h.
    Sparkgen,
    /// The peer: adaptive steps to `rtol = atol`.
    Diffsol,
}

/// A method and how to run it.
struct Method {
    /// Name in tables and legends.
    name: &'static str,
    /// Whose it is.
    code: Code,
    /// One run with the sweep parameter (h, or the tolerance) to the final time.
    run: fn(f64, f64) -> Result<Outcome, String>,
    /// The sweep of its parameter, coarse to fine.
    parameters: &'static [f64],
}

impl Method {
    /// Ours, over the step sizes `h`.
    fn ours(
        name: &'static str,
        run: fn(f64, f64) -> Result<Outcome, String>,
        h: &'static [f64],
    ) -> Method {
        Method {
            name,
            code: Code::Sparkgen,
            run,
            parameters: h,
        }
    }

    /// The peer's, over [`TOLERANCES`].
    fn peer(name: &'static str, run: fn(f64, f64) -> Result<Outcome, String>) -> Method {
        Method {
            name,
            code: Code::Diffsol,
            run,
            parameters: &TOLERANCES,
        }
    }

    /// The sweep of its parameter.
    fn parameters(&self) -> &'static [f64] {
        self.parameters
    }

    /// The parameter's name.
    fn parameter_name(&self) -> &'static str {
        match self.code {
            Code::Sparkgen => "h",
            Code::Diffsol => "tol",
        }
    }
}

/// A problem of the comparison and its methods.
struct Case {
    /// In headings and diagram titles.
    title: &'static str,
    /// The bench argument that selects it.
    tag: &'static str,
    /// The diagrams' file names begin with it.
    file_prefix: &'static str,
    /// Every method run on it.
    methods: Vec<Method>,
    /// The step size of the smoke run.
    smoke_h: f64,
    /// `q(T)` of the reference for `T`, by Gauss(8) with the given steps.
    reference: fn(f64, usize) -> Vec<f64>,
    /// An independent value of `q(10)`, where one is known.
    independent_q10: Option<&'static [f64]>,
}

/// Lotka–Volterra: every method of both codes.
fn lotka_volterra() -> Case {
    type P = LotkaVolterra2d;
    let h = &STEP_SIZES;
    Case {
        title: "Lotka–Volterra",
        tag: "lotka-volterra",
        file_prefix: "work_precision",
        methods: vec![
            Method::ours(
                "SLRK Lobatto IIIE(3)",
                sparkgen_run::<P, SlrkLobattoIIIE3, 2>,
                h,
            ),
            Method::ours(
                "SLRK Lobatto IIID(3)",
                sparkgen_run::<P, SlrkLobattoIIID3, 2>,
                h,
            ),
            Method::ours("VPRK Gauss(2)", sparkgen_run::<P, VprkGauss2, 2>, h),
        ]
        .into_iter()
        .chain(gauss_and_tsit45::<P, 2>(h))
        .chain([
            Method::peer("diffsol esdirk34", |tol, t_end| {
                implicit_run(Implicit::Esdirk34, tol, t_end)
            }),
            Method::peer("diffsol bdf", |tol, t_end| {
                implicit_run(Implicit::Bdf, tol, t_end)
            }),
        ])
        .collect(),
        smoke_h: 0.1,
        reference: reference::<P, 2>,
        independent_q10: Some(&DOP853_Q10),
    }
}

/// The guiding centre (D = 4): the Gauss methods and tsit45.
fn guiding_centre() -> Case {
    type P = GuidingCentre;
    let h = &GUIDING_CENTRE_STEP_SIZES;
    Case {
        title: "Guiding centre (D = 4)",
        tag: "guiding-centre",
        file_prefix: "work_precision_guiding_centre",
        methods: gauss_and_tsit45::<P, 4>(h).into(),
        smoke_h: 0.25,
        reference: reference::<P, 4>,
        independent_q10: None,
    }
}

/// VPRK Gauss(3), VPRKpMidpoint Gauss(3) and (4) over the step sizes `h`, and diffsol's tsit45:
/// the methods of every problem.
fn gauss_and_tsit45<S: Subject<D>, const D: usize>(h: &'static [f64]) -> [Method; 4]
where
    VprkGauss3: StageMethod<S, D>,
    VsparkPrimaryGlrkpMidpoint3: StageMethod<S, D>,
    VsparkPrimaryGlrkpMidpoint4: StageMethod<S, D>,
{
    [
        Method::ours("VPRK Gauss(3)", sparkgen_run::<S, VprkGauss3, D>, h),
        Method::ours(
            "VPRKpMidpoint Gauss(3)",
            sparkgen_run::<S, VsparkPrimaryGlrkpMidpoint3, D>,
            h,
        ),
        Method::ours(
            "VPRKpMidpoint Gauss(4)",
            sparkgen_run::<S, VsparkPrimaryGlrkpMidpoint4, D>,
            h,
        ),
        Method::peer("diffsol tsit45", tsit45_run::<S, D>),
    ]
}

/// `T/h` steps of the sparkgen method `M` from `(q₀, ϑ(q₀))`.
fn sparkgen_run<S: Subject<D>, M: StageMethod<S, D>, const D: usize>(
    h: f64,
    t_end: f64,
) -> Result<Outcome, String> {
    let steps = (t_end / h).round() as usize;
    let problem = S::PROBLEM;
    let equations = Compiled::<M, _, D>::sized(&problem).map_err(|e| e.to_string())?;
    let mut stepper =
        Driver::new(equations, h, NewtonOptions::default()).map_err(|e| e.to_string())?;
    let mut q = Vector::<D>::from(S::Q0);
    let mut p = problem.theta(&q);
    let h0 = problem.hamiltonian(&q);
    let (mut energy, mut newton) = (0.0f64, 0);
    for n in 0..steps {
        let stats = stepper
            .step(q.as_slice(), p.as_slice(), n + 1, n as f64 * h)
            .map_err(|e| e.to_string())?;
        let (q1, p1) = stepper.state();
        q.copy_from_slice(q1);
        p.copy_from_slice(p1);
        newton += stats.iterations;
        energy = energy.max(energy_error::<S, D>(&q, h0, (n + 1) as f64 * h)?);
    }
    Ok(Outcome {
        q: q.as_slice().to_vec(),
        energy,
        steps,
        newton,
        rejected: 0,
    })
}

/// diffsol's `tsit45` with `rtol = atol = tol` from q₀ to `t_end`.
fn tsit45_run<S: Subject<D>, const D: usize>(tol: f64, t_end: f64) -> Result<Outcome, String> {
    let mut problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(tol)
        .atol([tol])
        .rhs(|x, _, _, y| y.copy_from_slice(&S::field(x)))
        .init(|_, _, y| y.copy_from_slice(&S::Q0), D)
        .build()
        .map_err(|e| e.to_string())?;
    // The default budget is 5000 steps per solve.
    problem.ode_options.max_number_timesteps = usize::MAX;
    drive::<S, _, _, D>(problem.tsit45().map_err(|e| e.to_string())?, t_end)
}

/// An implicit diffsol method.
#[derive(Clone, Copy)]
enum Implicit {
    /// ESDIRK 3(4) (Jørgensen et al.), with `NalgebraLU`.
    Esdirk34,
    /// Variable-order BDF/NDF (ode15s-like), with `NalgebraLU`.
    Bdf,
}

/// diffsol's implicit `method` on Lotka–Volterra, with the field's exact Jacobian, `rtol = atol =
/// tol`, from q₀ to `t_end`.
fn implicit_run(method: Implicit, tol: f64, t_end: f64) -> Result<Outcome, String> {
    let mut problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(tol)
        .atol([tol])
        .rhs_implicit(
            |x, _, _, y| y.copy_from_slice(&field(x)),
            |x, _, _, v, y| y.copy_from_slice(&field_jacobian_times(x, v)),
        )
        .init(
            |_, _, y| y.copy_from_slice(&LotkaVolterra2d::UPSTREAM_Q0),
            2,
        )
        .build()
        .map_err(|e| e.to_string())?;
    problem.ode_options.max_number_timesteps = usize::MAX;
    let e = |e: diffsol::DiffsolError| e.to_string();
    type P = LotkaVolterra2d;
    match method {
        Implicit::Esdirk34 => {
            drive::<P, _, _, 2>(problem.esdirk34::<NalgebraLU<f64>>().map_err(e)?, t_end)
        }
        Implicit::Bdf => drive::<P, _, _, 2>(problem.bdf::<NalgebraLU<f64>>().map_err(e)?, t_end),
    }
}

/// Steps `solver` to `t_end`, tracking the energy error at every accepted step.
fn drive<'a, S, Eqn, Solver, const D: usize>(
    mut solver: Solver,
    t_end: f64,
) -> Result<Outcome, String>
where
    S: Subject<D>,
    Eqn: OdeEquations<T = f64> + 'a,
    Solver: OdeSolverMethod<'a, Eqn>,
{
    let e = |e: diffsol::DiffsolError| e.to_string();
    solver.set_stop_time(t_end).map_err(e)?;
    let state = |solver: &Solver| {
        let y = solver.state().y;
        Vector::<D>::from_fn(|i, _| y.get_index(i))
    };
    let h0 = S::PROBLEM.hamiltonian(&state(&solver));
    let mut energy = 0.0f64;
    loop {
        let reason = solver.step().map_err(e)?;
        energy = energy.max(energy_error::<S, D>(&state(&solver), h0, solver.state().t)?);
        if matches!(reason, OdeSolverStopReason::TstopReached) {
            break;
        }
    }
    let t = solver.state().t;
    if (t - t_end).abs() > 1e-9 * t_end {
        return Err(format!("stopped at t = {t}, not at {t_end}"));
    }
    let q = state(&solver);
    let stats = solver.get_statistics();
    Ok(Outcome {
        q: q.as_slice().to_vec(),
        energy,
        steps: stats.number_of_steps,
        newton: stats.number_of_nonlinear_solver_iterations,
        rejected: stats.number_of_error_test_failures,
    })
}

/// q(T) by Gauss(8) with `steps` steps.
fn reference<S: Subject<D>, const D: usize>(t_end: f64, steps: usize) -> Vec<f64> {
    let q = gauss8(
        |q| Vector::<D>::from(S::field(q.as_slice())),
        Vector::<D>::from(S::Q0),
        t_end,
        steps,
    );
    q.as_slice().to_vec()
}

/// `|a − b|∞`.
fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

/// One point of a sweep.
enum Point {
    /// Measured: the fastest of the repetitions, and the last outcome.
    Done {
        /// Seconds.
        seconds: f64,
        /// What the run reports.
        outcome: Outcome,
    },
    /// The run failed (the message).
    Failed(String),
    /// Not run: predicted to exceed [`RUN_CAP`] (the prediction, seconds), or the parameter
    /// failed at a shorter T (`None`).
    Skipped(Option<f64>),
    /// Not part of the crossover runs.
    NotRun,
}

impl Point {
    /// Seconds and outcome of a measured point.
    fn done(&self) -> Option<(f64, &Outcome)> {
        match self {
            Point::Done { seconds, outcome } => Some((*seconds, outcome)),
            _ => None,
        }
    }
}

/// The points of one method over its sweep at one T.
struct Curve {
    /// One per parameter of [`Method::parameters`].
    points: Vec<Point>,
}

/// Runs every method over its sweep to `t_end`, `repeats` times per point; `previous` is the
/// sweep at the shorter time `t_previous`, from which each run's time is predicted.
fn sweep(
    methods: &[Method],
    t_end: f64,
    repeats: usize,
    previous: Option<(f64, &[Curve])>,
) -> Vec<Curve> {
    methods
        .iter()
        .enumerate()
        .map(|(m, method)| {
            let points = method
                .parameters()
                .iter()
                .enumerate()
                .map(|(k, &parameter)| {
                    if let Some((t_previous, curves)) = previous {
                        match &curves[m].points[k] {
                            Point::Done { seconds, .. } => {
                                let predicted = seconds * t_end / t_previous;
                                if predicted > RUN_CAP {
                                    return Point::Skipped(Some(predicted));
                                }
                            }
                            Point::Failed(_) | Point::Skipped(None) | Point::NotRun => {
                                return Point::Skipped(None);
                            }
                            Point::Skipped(Some(predicted)) => {
                                return Point::Skipped(Some(predicted * t_end / t_previous));
                            }
                        }
                    }
                    measure(method, parameter, t_end, repeats)
                })
                .collect();
            Curve { points }
        })
        .collect()
}

/// The fastest of `repeats` runs of `method` (the outcome of the last).
fn measure(method: &Method, parameter: f64, t_end: f64, repeats: usize) -> Point {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..repeats {
        let start = Instant::now();
        let outcome = (method.run)(parameter, t_end);
        best = best.min(start.elapsed().as_secs_f64());
        match outcome {
            Ok(outcome) => last = Some(outcome),
            Err(message) => return Point::Failed(message),
        }
    }
    match last {
        Some(outcome) => Point::Done {
            seconds: best,
            outcome,
        },
        None => Point::Failed("no repetition".to_owned()),
    }
}

/// Prints the table of one sweep; `q_ref` is the reference q(T) where the error in q(T) is
/// measured.
fn print_table(methods: &[Method], curves: &[Curve], t_end: f64, q_ref: Option<&[f64]>) {
    println!("\n### T = {t_end:e}\n");
    println!(
        "| method | parameter | CPU s | {}max rel. energy error | steps | Newton its | rejected |",
        if q_ref.is_some() {
            "|q(T) − q_ref|∞ | "
        } else {
            ""
        }
    );
    println!(
        "|---|---|---|---|---|---|---|{}",
        if q_ref.is_some() { "---|" } else { "" }
    );
    for (method, curve) in methods.iter().zip(curves) {
        for (parameter, point) in method.parameters().iter().zip(&curve.points) {
            let head = format!(
                "| {} | {} = {parameter:e} |",
                method.name,
                method.parameter_name()
            );
            match point {
                Point::Done { seconds, outcome } => {
                    let error = q_ref
                        .map(|r| format!(" {:.2e} |", distance(&outcome.q, r)))
                        .unwrap_or_default();
                    println!(
                        "{head} {seconds:.3e} |{error} {:.2e} | {} | {} | {} |",
                        outcome.energy, outcome.steps, outcome.newton, outcome.rejected
                    );
                }
                Point::Failed(message) => println!("{head} failed: {message} |"),
                Point::Skipped(Some(predicted)) => {
                    println!("{head} skipped: predicted {predicted:.0} s, over the cap of its T |")
                }
                Point::Skipped(None) => println!("{head} skipped: failed at a shorter T |"),
                Point::NotRun => {}
            }
        }
    }
}

/// The CPU time a method needs for `target` of the error `error(outcome)`.
#[derive(Clone, Copy, Debug)]
enum Reach {
    /// Interpolated in log–log between the two sweep points around the target.
    At(f64),
    /// Already the coarsest measured point is below the target: at most this time.
    AtMost(f64),
    /// No measured point reaches the target: more than the time of the most accurate one.
    Beyond(f64),
    /// Nothing measured.
    Unknown,
}

impl Reach {
    /// The time, for comparisons: ∞ where the sweep never reached the target (the time of its
    /// most accurate point is only a lower bound, no time to compare with).
    fn seconds(self) -> f64 {
        match self {
            Reach::At(s) | Reach::AtMost(s) => s,
            Reach::Beyond(_) | Reach::Unknown => f64::INFINITY,
        }
    }
}

impl std::fmt::Display for Reach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reach::At(s) => write!(f, "{s:.3e} s"),
            Reach::AtMost(s) => write!(f, "≤ {s:.3e} s (coarsest point already below)"),
            Reach::Beyond(s) => write!(f, "> {s:.3e} s (not reached in the sweep)"),
            Reach::Unknown => write!(f, "–"),
        }
    }
}

/// Where `curve` (parameters coarse to fine) first reaches `target` of `error`: the first
/// measured point at or below it, interpolated in log–log with the measured point before it.
fn reach(curve: &Curve, target: f64, error: impl Fn(&Outcome) -> f64) -> Reach {
    let measured: Vec<(f64, f64)> = curve
        .points
        .iter()
        .filter_map(Point::done)
        .map(|(seconds, outcome)| (error(outcome), seconds))
        .collect();
    let Some(first) = measured.iter().position(|(e, _)| *e <= target) else {
        return measured
            .iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map_or(Reach::Unknown, |(_, s)| Reach::Beyond(*s));
    };
    if first == 0 {
        return Reach::AtMost(measured[0].1);
    }
    let ((e0, s0), (e1, s1)) = (measured[first - 1], measured[first]);
    if e1 <= 0.0 || e0 <= e1 {
        return Reach::At(s1);
    }
    let w = (target.ln() - e0.ln()) / (e1.ln() - e0.ln());
    Reach::At((s0.ln() + w * (s1.ln() - s0.ln())).exp())
}

/// The crossover runs to `t_end`: for the methods `chosen` (indices) only, from the parameter
/// before the first that reached [`ENERGY_TARGET`] in the last of the sweeps `before` (T and
/// curves, shortest T first), to finer ones until a run reaches it (or its time, predicted from
/// the longest T at which the same parameter was measured, would exceed `cap` seconds).
fn crossover_sweep(
    methods: &[Method],
    chosen: &[usize],
    before: &[(f64, Vec<Curve>)],
    (t_end, cap): (f64, f64),
) -> Vec<Curve> {
    methods
        .iter()
        .enumerate()
        .map(|(m, method)| {
            let mut points: Vec<Point> =
                method.parameters().iter().map(|_| Point::NotRun).collect();
            let Some((_, last)) = before.last().filter(|_| chosen.contains(&m)) else {
                return Curve { points };
            };
            let first = last[m]
                .points
                .iter()
                .position(|p| p.done().is_some_and(|(_, o)| o.energy <= ENERGY_TARGET))
                .unwrap_or(0);
            let start = first.saturating_sub(1);
            for (k, point) in points.iter_mut().enumerate().skip(start) {
                // The longest T this parameter ran to, unless it failed there.
                let latest = before
                    .iter()
                    .rev()
                    .map(|(t, curves)| (*t, &curves[m].points[k]))
                    .find(|(_, p)| !matches!(p, Point::NotRun));
                let Some((t_measured, Point::Done { seconds, .. })) = latest else {
                    *point = Point::Skipped(None);
                    continue;
                };
                let predicted = seconds * t_end / t_measured;
                if predicted > cap {
                    *point = Point::Skipped(Some(predicted));
                    break;
                }
                *point = measure(method, method.parameters()[k], t_end, 1);
                if point.done().is_some_and(|(_, o)| o.energy <= ENERGY_TARGET) {
                    break;
                }
            }
            Curve { points }
        })
        .collect()
}

/// The index of the method of `code` that reaches the energy target fastest in `curves`.
fn fastest_method(methods: &[Method], curves: &[Curve], code: Code) -> usize {
    methods
        .iter()
        .zip(curves)
        .enumerate()
        .filter(|(_, (method, _))| method.code == code)
        .min_by(|(_, (_, a)), (_, (_, b))| {
            let time = |c: &Curve| reach(c, ENERGY_TARGET, |o| o.energy).seconds();
            time(a).total_cmp(&time(b))
        })
        .map(|(m, _)| m)
        .expect("each code has methods")
}

/// Reports the CPU time each method needs for the energy target at each T, and the fastest of
/// each code; returns (T, fastest sparkgen, fastest diffsol) per T.
fn report_target(methods: &[Method], sweeps: &[(f64, &[Curve])]) -> Vec<(f64, Reach, Reach)> {
    println!("\n### CPU time for a maximum relative energy error of {ENERGY_TARGET:e}\n");
    println!("| method | {} |", {
        let heads: Vec<String> = sweeps.iter().map(|(t, _)| format!("T = {t:e}")).collect();
        heads.join(" | ")
    });
    println!("|---|{}", "---|".repeat(sweeps.len()));
    let reaches: Vec<Vec<Reach>> = methods
        .iter()
        .enumerate()
        .map(|(m, _)| {
            sweeps
                .iter()
                .map(|(_, curves)| reach(&curves[m], ENERGY_TARGET, |o| o.energy))
                .collect()
        })
        .collect();
    for (method, row) in methods.iter().zip(&reaches) {
        let cells: Vec<String> = row.iter().map(Reach::to_string).collect();
        println!("| {} | {} |", method.name, cells.join(" | "));
    }
    let fastest = |code: Code, k: usize| {
        methods
            .iter()
            .zip(&reaches)
            .filter(|(method, _)| method.code == code)
            .map(|(method, row)| (method.name, row[k]))
            .min_by(|a, b| a.1.seconds().total_cmp(&b.1.seconds()))
            .expect("each code has methods")
    };
    println!();
    sweeps
        .iter()
        .enumerate()
        .map(|(k, (t, _))| {
            let (ours_name, ours) = fastest(Code::Sparkgen, k);
            let (peer_name, peer) = fastest(Code::Diffsol, k);
            let verdict = match (ours.seconds(), peer.seconds()) {
                (a, b) if a.is_infinite() && b.is_infinite() => {
                    "neither reaches the target".to_owned()
                }
                (a, b) => {
                    let winner = if a < b { "sparkgen" } else { "diffsol" };
                    format!("diffsol / sparkgen = {:.2}: {winner} wins", b / a)
                }
            };
            println!(
                "T = {t:e}: fastest sparkgen {ours_name} {ours}, fastest diffsol {peer_name} \
                 {peer}; {verdict}"
            );
            (*t, ours, peer)
        })
        .collect()
}

/// Where the fastest sparkgen method overtakes the fastest diffsol method, from the ratio of
/// their times at successive T (log–log interpolation between the T's that bracket the change).
fn report_crossover(fastest: &[(f64, Reach, Reach)]) {
    let ratio = |(_, ours, peer): &(f64, Reach, Reach)| peer.seconds() / ours.seconds();
    for pair in fastest.windows(2) {
        let (r0, r1) = (ratio(&pair[0]), ratio(&pair[1]));
        if r0 < 1.0 && r1 >= 1.0 {
            let (t0, t1) = (pair[0].0, pair[1].0);
            if !(r0 > 0.0 && r1.is_finite()) {
                println!(
                    "crossover between T = {t0:e} and T = {t1:e} (one code does not reach the \
                     target at one of them: no interpolation)"
                );
                return;
            }
            let w = -r0.ln() / (r1.ln() - r0.ln());
            let t = (t0.ln() + w * (t1.ln() - t0.ln())).exp();
            println!(
                "crossover: diffsol / sparkgen goes from {r0:.2} at T = {t0:e} to {r1:.2} at \
                 T = {t1:e}; log–log interpolation puts the crossover at T ≈ {t:.1e}"
            );
            return;
        }
    }
    match (fastest.first(), fastest.last()) {
        (Some(first), Some(last)) if ratio(first) >= 1.0 => println!(
            "no crossover: sparkgen is faster at every T measured ({:e} to {:e})",
            first.0, last.0
        ),
        _ => println!("no crossover to sparkgen within the T measured"),
    }
}

/// One line of a diagram.
struct Line {
    /// Legend.
    label: String,
    /// Dashed with triangles (diffsol) or solid with circles (sparkgen).
    dashed: bool,
    /// (error, seconds), coarse to fine.
    points: Vec<(f64, f64)>,
}

/// The lines of one sweep, with `error(outcome)` on the horizontal axis.
fn lines(methods: &[Method], curves: &[Curve], error: impl Fn(&Outcome) -> f64) -> Vec<Line> {
    methods
        .iter()
        .zip(curves)
        .map(|(method, curve)| Line {
            label: method.name.to_owned(),
            dashed: method.code == Code::Diffsol,
            points: curve
                .points
                .iter()
                .filter_map(Point::done)
                .map(|(seconds, outcome)| (error(outcome), seconds))
                .filter(|(e, s)| *e > 0.0 && *s > 0.0)
                .collect(),
        })
        .collect()
}

/// Draws a log–log work-precision diagram (error across, CPU time up) to the PNG `path`,
/// with a dotted vertical line at `target` where given.
fn diagram(
    path: &Path,
    title: &str,
    x_desc: &str,
    lines: &[Line],
    target: Option<f64>,
) -> Result<(), String> {
    let all = || lines.iter().flat_map(|l| l.points.iter());
    let fold = |f: fn(f64, f64) -> f64, init: f64, pick: fn(&(f64, f64)) -> f64| {
        all().map(pick).fold(init, f)
    };
    let (mut e_lo, mut e_hi) = (
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, 0.0, |p| p.0),
    );
    if let Some(target) = target {
        (e_lo, e_hi) = (e_lo.min(target), e_hi.max(target));
    }
    let (s_lo, s_hi) = (
        fold(f64::min, f64::INFINITY, |p| p.1),
        fold(f64::max, 0.0, |p| p.1),
    );
    if !(e_lo < e_hi && s_lo < s_hi) {
        return Err(format!("{}: nothing to draw", path.display()));
    }
    // Headroom above and to the right for the legend.
    let (e_lo, e_hi, s_lo, s_hi) = (e_lo / 3.0, e_hi * 1e3, s_lo / 2.0, s_hi * 30.0);
    let root = BitMapBackend::new(path, (1000, 750)).into_drawing_area();
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d((e_lo..e_hi).log_scale(), (s_lo..s_hi).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("CPU time [s]")
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .x_label_formatter(&|v| format!("{v:.0e}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(err)?;
    if let Some(target) = target {
        let grey = BLACK.mix(0.5);
        chart
            .draw_series(DashedLineSeries::new(
                [(target, s_lo), (target, s_hi)],
                3,
                5,
                grey.stroke_width(1),
            ))
            .map_err(err)?
            .label(format!("target {target:.0e}"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey));
    }
    for (i, line) in lines.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let style = colour.stroke_width(2);
        let legend = move |(x, y): (i32, i32)| PathElement::new(vec![(x, y), (x + 20, y)], style);
        let points = line.points.iter().copied();
        if line.dashed {
            chart
                .draw_series(DashedLineSeries::new(points, 8, 5, style))
                .map_err(err)?
                .label(line.label.clone())
                .legend(legend);
            chart
                .draw_series(
                    line.points
                        .iter()
                        .map(|p| TriangleMarker::new(*p, 6, colour.filled())),
                )
                .map_err(err)?;
        } else {
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(err)?
                .label(line.label.clone())
                .legend(legend);
            chart
                .draw_series(
                    line.points
                        .iter()
                        .map(|p| Circle::new(*p, 4, colour.filled())),
                )
                .map_err(err)?;
        }
    }
    legend(&mut chart)?;
    root.present().map_err(err)
}

/// The system's 1, 5 and 15 minute load averages.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// Every method of `case` once to T = 1, checked against the reference: what CI runs.
fn smoke(case: &Case) {
    let q_ref = (case.reference)(1.0, 100);
    for method in &case.methods {
        let parameter = match method.code {
            Code::Sparkgen => case.smoke_h,
            Code::Diffsol => 1e-6,
        };
        let outcome = (method.run)(parameter, 1.0).unwrap_or_else(|e| {
            panic!(
                "{}, {} must integrate to T = 1: {e}",
                case.title, method.name
            )
        });
        let error = distance(&outcome.q, &q_ref);
        println!(
            "{}, {:22} {} = {parameter:e}: |q(1) − q_ref|∞ = {error:.2e}, max rel. energy error \
             {:.2e}, {} steps, {} Newton its",
            case.title,
            method.name,
            method.parameter_name(),
            outcome.energy,
            outcome.steps,
            outcome.newton
        );
        assert!(
            // Loose: VPRK Gauss(2) is order 2 on Lotka–Volterra (1.8e-2 and 3.7e-3 at h = 0.1).
            error < 5e-2 && outcome.energy < 1e-2,
            "{}, {}: q(1) must be within 5e-2 of the reference and H within 1e-2 at T = 1",
            case.title,
            method.name
        );
    }
}

/// Checks the closed-form Lotka–Volterra field handed to diffsol (and to the reference) against
/// the one sparkgen derives from the problem (`Ω(q) v = −∇H(q)`), and its Jacobian against
/// central differences, at points of the orbit's region.
fn check_field() {
    for q in [[2.0, 1.0], [1.0, 2.5], [0.5, 1.5], [2.5, 1.5]] {
        let derived = LV
            .vector_field(&Vector::<2>::from(q))
            .expect("Ω(q) is invertible for q > 0");
        let closed = field(&q);
        assert!(
            distance(&closed, derived.as_slice()) <= 1e-14 * derived.amax().max(1.0),
            "the closed-form field must be the problem's: {closed:?} against {derived:?} at {q:?}"
        );
        for k in 0..2 {
            let step = 1e-6;
            let (mut plus, mut minus) = (q, q);
            plus[k] += step;
            minus[k] -= step;
            let (fp, fm) = (field(&plus), field(&minus));
            let difference = [
                (fp[0] - fm[0]) / (2.0 * step),
                (fp[1] - fm[1]) / (2.0 * step),
            ];
            let mut e = [0.0; 2];
            e[k] = 1.0;
            assert!(
                distance(&field_jacobian_times(&q, &e), &difference) <= 1e-8,
                "the field's Jacobian must match central differences at {q:?}, column {k}"
            );
        }
    }
}

/// Checks the Gauss(8) reference of `case` at T = 10 against itself at half the steps and
/// against an independent value where there is one; returns it.
fn checked_reference(case: &Case) -> Vec<f64> {
    let [fine, coarse] = REFERENCE_STEPS.map(|steps| (case.reference)(T_SHORT, steps));
    let self_difference = distance(&fine, &coarse);
    println!(
        "{}: reference q(10) = {fine:?} (Gauss(8), {} steps); |Δ| against {} steps \
         {self_difference:.1e}",
        case.title, REFERENCE_STEPS[0], REFERENCE_STEPS[1]
    );
    assert!(
        self_difference < 1e-13,
        "{}: the reference must be converged",
        case.title
    );
    if let Some(independent) = case.independent_q10 {
        let difference = distance(&fine, independent);
        println!("against upstream's DOP853 {independent:?}: {difference:.1e}");
        assert!(
            difference < 1e-10,
            "{}: the reference must agree with upstream's DOP853 value",
            case.title
        );
    }
    fine
}

fn main() {
    check_field();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let chosen: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    let cases = [lotka_volterra(), guiding_centre()];
    if let Some(unknown) = chosen.iter().find(|c| !cases.iter().any(|k| k.tag == **c)) {
        let tags: Vec<&str> = cases.iter().map(|k| k.tag).collect();
        eprintln!("unknown problem `{unknown}`; the problems are {tags:?}");
        std::process::exit(2);
    }
    let cases = cases
        .iter()
        .filter(|case| chosen.is_empty() || chosen.contains(&case.tag));
    if !args.iter().any(|a| a == "--bench") {
        for case in cases {
            checked_reference(case);
            smoke(case);
        }
        return;
    }
    register_font();
    for case in cases {
        bench(case);
    }
}

/// The sweeps, tables, reports and diagrams of one problem.
fn bench(case: &Case) {
    let methods = &case.methods[..];
    let q_ref = checked_reference(case);
    let start = Instant::now();
    println!(
        "\n## {}\n\nload average at start: {} ({} CPUs)",
        case.title,
        load_average(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let short = sweep(methods, T_SHORT, REPEATS, None);
    print_table(methods, &short, T_SHORT, Some(&q_ref[..]));
    let medium = sweep(methods, T_LONG[0], 1, Some((T_SHORT, &short)));
    print_table(methods, &medium, T_LONG[0], None);
    let long = sweep(methods, T_LONG[1], 1, Some((T_LONG[0], &medium)));
    print_table(methods, &long, T_LONG[1], None);
    // While diffsol is still faster, measure further out: the fastest method of each code at the
    // last T, around the target only.
    let mut sweeps = vec![(T_SHORT, short), (T_LONG[0], medium), (T_LONG[1], long)];
    for (t_end, cap) in CROSSOVER {
        let (t_last, last) = sweeps.last().expect("three sweeps");
        let chosen =
            [Code::Sparkgen, Code::Diffsol].map(|code| fastest_method(methods, last, code));
        let time_at = |m: usize| reach(&last[m], ENERGY_TARGET, |o| o.energy).seconds();
        if time_at(chosen[0]) < time_at(chosen[1]) {
            break;
        }
        println!(
            "\ndiffsol is faster at T = {t_last:e}: crossover runs to T = {t_end:e} of {} and {} only",
            methods[chosen[0]].name, methods[chosen[1]].name
        );
        let curves = crossover_sweep(methods, &chosen, &sweeps, (t_end, cap));
        print_table(methods, &curves, t_end, None);
        sweeps.push((t_end, curves));
    }
    let fastest = report_target(
        methods,
        &sweeps
            .iter()
            .map(|(t, curves)| (*t, &curves[..]))
            .collect::<Vec<_>>(),
    );
    let (short, medium, long) = (&sweeps[0].1, &sweeps[1].1, &sweeps[2].1);
    report_crossover(&fastest);

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(OUT_DIR);
    std::fs::create_dir_all(&dir).expect("docs/benchmarks must be creatable");
    let title = case.title;
    let figures = [
        (
            "q_T10.png",
            format!("{title}, T = 10: CPU time against the error in q(T)"),
            "|q(10) − q_ref(10)|∞",
            lines(methods, short, |o| distance(&o.q, &q_ref)),
            None,
        ),
        (
            "energy_T1e4.png",
            format!("{title}, T = 10⁴: CPU time against the energy error"),
            "max_n |H(q_n) − H(q₀)| / |H(q₀)|",
            lines(methods, medium, |o| o.energy),
            Some(ENERGY_TARGET),
        ),
        (
            "energy_T1e5.png",
            format!("{title}, T = 10⁵: CPU time against the energy error"),
            "max_n |H(q_n) − H(q₀)| / |H(q₀)|",
            lines(methods, long, |o| o.energy),
            Some(ENERGY_TARGET),
        ),
    ];
    for (file, title, x_desc, lines, target) in &figures {
        let path = dir.join(format!("{}_{file}", case.file_prefix));
        diagram(&path, title, x_desc, lines, *target).expect("the diagram must be written");
        println!("wrote {}", path.display());
    }
    println!(
        "\nload average at end: {}; {} took {:.0} s",
        load_average(),
        case.title,
        start.elapsed().as_secs_f64()
    );
}
