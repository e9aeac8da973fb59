//! `sparkgen verify`: for every method on its built-in problem, the empirical order (least-
//! squares slope of `log |q_N − q_ref(1)|∞` against `log h` over a sweep `h = 1/n` at `T = 1`,
//! [`empirical_order`]) against the declared order, and the maxima of the constraint residual
//! and the relative energy error over a long run.
//!
//! Problems: SLRK on Lotka–Volterra in the SPARK test configuration (`a = (1, 1)`,
//! `b = (−1, −2)`, `q₀ = (1, 1)`); the methods whose declared order needs a linear one-form
//! (`MethodFacts::needs_linear_one_form`: VPRK, collocation on the ODE there; on Lotka–Volterra
//! VPRK Gauss(s) drops to order `2⌈s/2⌉`) on the degenerate pendulum; RATTLE,
//! SHAKE and the generated Lobatto IIIA–IIIB RATTLE steppers on the Cartesian pendulum
//! (θ₀ = 1); the implicit-DAE steppers also on the same pendulum in Jay's index-2 form, whose
//! multiplier is the tension (pinned in the method facts, `pinned_on_index_two_pendulum`). References:
//! Gauss(8) at h = 1/400 on the ODE `Ω(q) q̇ = −∇H(q)`, and on `θ̈ = −sin θ` for the pendulums.
//!
//! Every run is on the run-time engine, the built-in problems as their problem files (the
//! index-2 pendulum as its derive's view). With `--problem-file`, every method of the file's
//! kind on the file's problem, from the file's initial data: the
//! reference is Gauss(8) on the ODE for a degenerate Lagrangian (its vector field from the
//! file's tapes), and for a holonomic system (which has no ODE form here) the order-8
//! `RattleLobattoIIIAIIIB5` at h = 1/1000 ([`HOLONOMIC_REFERENCE_STEPS`]), whose error is far
//! below the floor.

use super::choice::{self, Choice, Kind};
use super::error::CliError;
use super::problem_files;
use super::problems::{Made, ProblemInfo, file_at, find, run_made};
use super::registry::{HAMILTONIAN_STEPPERS, HOLONOMIC_STEPPERS, IMPLICIT_STEPPERS, STEPPERS};
use super::run::{PATH, Run, RunSpec, Subject};
use crate::diagnostics::{empirical_order, gauss8, gauss8_on_slices, maximum};
use crate::engine::{Kernels, Work};
use crate::generated::types::{CarriedMultiplier, MethodFacts, Pinned};
use crate::holonomic::problems::Pendulum;
use crate::integrate::vector_field;
use crate::problem::{DegenerateLagrangian, Vector};
use crate::problem_file::{
    DegenerateLagrangianFile, LagrangianFile, LagrangianMethod, ProblemFile,
};
use crate::problems::{DegeneratePendulum, IndexTwoPendulum, LotkaVolterra2d};
use crate::solve::{Dynamic, Lu};
use serde::Serialize;

/// Errors at or below this are at the round-off floor of `|q(1)|∞ ≈ 1`.
pub const FLOOR: f64 = 1e-13;

/// The error below which a sweep is said to approach the solution ([`Pinned::NoConvergence`]
/// expects every point above it).
pub const NO_CONVERGENCE: f64 = 1e-2;

/// Largest allowed `|measured − declared|` order.
pub const TOLERANCE: f64 = 0.3;

/// The study of one method.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Study {
    /// Method name, e.g. `SlrkLobattoIIIE3`.
    pub name: String,
    /// Family.
    pub family: &'static str,
    /// Stages.
    pub stages: usize,
    /// The problem (and configuration) it ran on.
    pub problem: String,
    /// Declared order.
    pub declared_order: usize,
    /// The method holds its constraint to round-off at every step (from the generator's facts;
    /// RATTLE, not SHAKE).
    pub constraint_preserving: bool,
    /// Measured behaviour pinned with its cause where it departs from the declared order
    /// (`MethodFacts::pinned`, data of the generator).
    pub pinned: Option<Pinned>,
    /// Measured order (`null` with fewer than 2 points above the floor).
    pub measured_order: Option<f64>,
    /// Sweep points in the fit.
    pub points: usize,
    /// At least 3 points and `|measured − expected| ≤ 0.3`, the expected order being the pinned
    /// one where there is one; for a method pinned to fail or to behave erratically, the
    /// behaviour of [`Pinned`].
    pub pass: bool,
    /// Step sizes of the fitted sweep points (h = 1/n).
    pub h: Vec<f64>,
    /// `|q_N − q_ref(1)|∞` per step size.
    #[serde(serialize_with = "super::numbers::numbers")]
    pub errors: Vec<f64>,
    /// Step sizes of the sweep at which the run failed (coarse steps beyond the method's reach).
    pub sweep_failed_h: Vec<f64>,
    /// Failure of the long run (names the step and the time).
    pub failures: Vec<String>,
    /// Maximum constraint residual over the long run (up to a failure).
    #[serde(serialize_with = "super::numbers::number")]
    pub max_constraint_residual: f64,
    /// Maximum relative energy error over the long run (up to a failure).
    #[serde(serialize_with = "super::numbers::number")]
    pub max_relative_energy_error: f64,
    /// The carried multiplier over the long run, for methods that carry one that vanishes on the
    /// exact flow (a projection multiplier, `MethodFacts::multiplier`).
    pub multiplier: Option<MultiplierRecord>,
}

/// The size of the carried multiplier `λ_n` over a long run. The exact flow has `λ = 0`
/// (the constraint is invariant), so `λ_n` measures the method's defect: a method whose
/// multiplier is bounded keeps `growth` near 1; a parasitic mode grows it step by step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MultiplierRecord {
    /// `max_n |λ_n|∞`.
    #[serde(serialize_with = "super::numbers::number")]
    pub max: f64,
    /// `max |λ_n|∞` over the second half of the run divided by the maximum over the first half
    /// (about 1 for a bounded multiplier, 2 for linear growth).
    #[serde(serialize_with = "super::numbers::number")]
    pub growth: f64,
    /// The multiplier grows without bound: `growth > 1.5`, or it left the finite numbers.
    pub grows: bool,
    /// The time of breakdown of a growing multiplier: the first `t_n` where `|λ_n|∞ ≥ 1`, the
    /// size of the test problems' velocities (or where the run failed, if earlier).
    pub breakdown: Option<f64>,
}

/// A carried multiplier that never exceeds this is round-off: `10³·ε` of the test problems'
/// velocities, which are of size 1 (the scale [`MultiplierRecord::breakdown`] is judged at).
pub const ROUND_OFF_MULTIPLIER: f64 = 1e3 * f64::EPSILON;

impl MultiplierRecord {
    /// The record of `multiplier` (`|λ_n|∞` at the times `t`); `failed_at`, the time at which
    /// the run stopped early, if it did.
    pub fn of(t: &[f64], multiplier: &[f64], failed_at: Option<f64>) -> Option<MultiplierRecord> {
        let max = |v: &[f64]| maximum(v.iter().copied());
        let half = multiplier.len() / 2;
        let (first, second) = multiplier.split_at(half);
        // No multiplier beyond round-off (e.g. d^λ·Λ̃ ≡ 0 up to the rounding of its terms) is no
        // growth: the ratio of two round-off values says nothing about a mode.
        let growth = match (max(first), max(second)) {
            (a, b) if a <= ROUND_OFF_MULTIPLIER && b <= ROUND_OFF_MULTIPLIER => 1.0,
            (a, b) => b / a,
        };
        let finite = multiplier.iter().all(|l| l.is_finite());
        let grows = !finite || growth > 1.5 || failed_at.is_some() && growth > 1.0;
        let threshold = t
            .iter()
            .zip(multiplier)
            .find(|(_, l)| **l >= 1.0 || l.is_nan())
            .map(|(t, _)| *t);
        let breakdown = grows.then(|| threshold.or(failed_at)).flatten();
        (!multiplier.is_empty()).then_some(MultiplierRecord {
            max: max(multiplier),
            growth,
            grows,
            breakdown,
        })
    }
}

/// The whole verification.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verification {
    /// Quick mode.
    pub quick: bool,
    /// Which code evaluated the problems: `engine` ([`super::run::PATH`]).
    pub path: &'static str,
    /// Round-off floor of the fits.
    pub floor: f64,
    /// Order tolerance.
    pub tolerance: f64,
    /// Step size of the long runs.
    pub long_run_h: f64,
    /// Steps of the long runs.
    pub long_run_steps: usize,
    /// Per method.
    pub methods: Vec<Study>,
    /// Methods that pass.
    pub passed: usize,
    /// Methods studied.
    pub total: usize,
}

/// Step counts `n` (h = 1/n) of the sweep for a method of the given expected order: `20·2^k`
/// up to order 4 (the halving sweep of the library's order tests); for higher orders, which
/// reach the round-off floor within a few halvings, ratio √2 from n = 2 (alternately 4/3 and
/// 3/2, so that the error still at least halves per point, as [`empirical_order`] requires,
/// down to order 2.5; n = 1, one step over the whole interval, is not asymptotic).
fn step_counts(order: usize) -> Vec<usize> {
    if order <= 4 {
        (0..=6).map(|k| 20 << k).collect()
    } else {
        (0..=10)
            .flat_map(|k| [1 << k, 3 << k])
            .filter(|&n| (2..=1024).contains(&n))
            .collect::<std::collections::BTreeSet<usize>>()
            .into_iter()
            .collect()
    }
}

/// The problem a study runs on, and what to expect there.
#[derive(Clone, Copy)]
struct On<'a> {
    /// Its name (and configuration) in the report.
    problem: &'a str,
    /// Whether the exact multiplier vanishes (the view of a degenerate Lagrangian, where `λ` is
    /// a projection multiplier), so that the size of a carried `λ_n` measures a defect.
    multiplier_vanishes: bool,
    /// The pinned behaviour of a generated stepper (family, stages) there.
    pinned: fn(&MethodFacts) -> Option<Pinned>,
}

impl<'a> On<'a> {
    /// A problem of the verification tables [`expected`]: a degenerate Lagrangian (or its view)
    /// or a holonomic system.
    fn table(problem: &'a str) -> Self {
        On {
            problem,
            multiplier_vanishes: true,
            pinned: |facts| facts.pinned,
        }
    }
}

/// One method's runs: `run(h, steps)` gives a run; `q_ref` the reference at `T = 1`.
fn study(
    choice: Choice,
    on: On<'_>,
    declared_order: usize,
    quick: bool,
    q_ref: &[f64],
    run: impl Fn(&RunSpec) -> Result<Run, CliError>,
) -> Study {
    let (family, stages) = choice.family_and_stages();
    let name = choice.name().to_owned();
    let measures_defect =
        choice.facts().and_then(|f| f.multiplier) == Some(CarriedMultiplier::Projection);
    let spec = |h: f64, steps: usize| RunSpec::new(choice, h, steps);
    let pinned = match choice {
        Choice::Stepper(s) | Choice::ImplicitStepper(s) | Choice::HamiltonianStepper(s) => {
            (on.pinned)(&s.facts)
        }
        _ => None,
    };
    // The sweep is made for the order the method is expected to reach: the pinned one where a
    // pin states it (an order-8 sweep reaches the floor within a few points of an order-4
    // method, whose fit would then lean on points at the floor).
    let expected_order = match pinned {
        Some(Pinned::Order { order, .. } | Pinned::Parasitic { order, .. }) => {
            order.ceil() as usize
        }
        _ => declared_order,
    };
    // From coarse to fine until the error reaches the floor; the fit takes the finest `points`
    // points above it (the coarsest ones may be pre-asymptotic).
    let points = if quick { 4 } else { 6 };
    let mut sweep: Vec<(f64, f64)> = Vec::new();
    let mut sweep_failed_h = Vec::new();
    for n in step_counts(expected_order) {
        let h = 1.0 / n as f64;
        let error = run(&spec(h, n))
            .ok()
            .filter(|r| r.failure.is_none())
            .and_then(|r| {
                r.trajectory
                    .q
                    .last()
                    .map(|q| maximum(q.iter().zip(q_ref).map(|(a, b)| (a - b).abs())))
            })
            // A non-finite error is a failed point of the sweep, like a failed run.
            .filter(|e| e.is_finite());
        match error {
            Some(e) if e <= FLOOR => break,
            Some(e) => sweep.push((h, e)),
            None => sweep_failed_h.push(h),
        }
    }
    let fitted = &sweep[sweep.len().saturating_sub(points)..];
    let (h, errors): (Vec<f64>, Vec<f64>) = fitted.iter().copied().unzip();
    let fit = empirical_order(&h, &errors, FLOOR).ok();
    let mut failures = Vec::new();
    let (long_h, long_steps) = long_run(quick);
    let (residual, energy, multiplier) = match run(&spec(long_h, long_steps)) {
        Ok(r) => {
            if let Some(f) = &r.failure {
                failures.push(format!("long run h = {long_h}: {f}"));
            }
            let t = &r.trajectory.t;
            let failed_at = r.failure.as_ref().and(t.last().copied());
            (
                r.trajectory.max_constraint_residual(),
                r.trajectory.max_relative_energy_error(),
                MultiplierRecord::of(t, &r.trajectory.multiplier(), failed_at)
                    .filter(|_| on.multiplier_vanishes && measures_defect),
            )
        }
        Err(e) => {
            failures.push(format!("long run h = {long_h}: {e}"));
            (f64::NAN, f64::NAN, None)
        }
    };
    let fits = |target: f64| {
        fit.as_ref()
            .is_some_and(|f| f.points >= 3 && (f.order - target).abs() <= TOLERANCE)
    };
    let pass = match pinned {
        Some(Pinned::Fails { error, .. }) => {
            !fits(declared_order as f64)
                && fit.as_ref().is_none_or(|f| f.points < 3)
                && failures.iter().any(|f| f.to_lowercase().contains(error))
        }
        Some(Pinned::Erratic { .. }) => !fits(declared_order as f64),
        Some(Pinned::NoConvergence { .. }) => {
            sweep_failed_h.is_empty()
                && sweep.len() >= 3
                && sweep.iter().all(|(_, e)| *e >= NO_CONVERGENCE)
        }
        Some(Pinned::Order { order, .. }) => fits(order),
        Some(Pinned::Parasitic { order, .. }) => fits(order) && multiplier.is_some_and(|l| l.grows),
        None => fits(declared_order as f64),
    };
    Study {
        name,
        family,
        stages,
        problem: on.problem.to_owned(),
        declared_order,
        constraint_preserving: choice.preserves_constraint(),
        pinned,
        measured_order: fit.as_ref().map(|f| f.order),
        points: fit.as_ref().map_or(0, |f| f.points),
        pass,
        h,
        errors,
        sweep_failed_h,
        failures,
        max_constraint_residual: residual,
        max_relative_energy_error: energy,
        multiplier,
    }
}

/// `(h, steps)` of the long runs: T = 100 (quick) or 1000.
fn long_run(quick: bool) -> (f64, usize) {
    (0.1, if quick { 1000 } else { 10_000 })
}

/// The reference `q(1)` of a degenerate Lagrangian problem from `q₀`.
fn reference<P: DegenerateLagrangian<2>>(problem: &P, q0: Vector<2>) -> Vec<f64> {
    let field = |q: &Vector<2>| vector_field(problem, q).unwrap_or(Vector::from([f64::NAN; 2]));
    gauss8(field, q0, 1.0, 400).as_slice().to_vec()
}

/// The reference `q(1)` of a degenerate Lagrangian file of any D from its `q₀`, the vector field
/// `Ω(q) v = −∇H(q)` evaluated on the file's tapes (NaN where `Ω(q)` is singular).
fn reference_at_run_time(file: &DegenerateLagrangianFile) -> Vec<f64> {
    let (q0, p0) = file.initial();
    let Some(mut work) = Work::new(file.dims()) else {
        return vec![f64::NAN; q0.len()];
    };
    let field = |q: &[f64], v: &mut [f64]| {
        if !file.velocity(q, &p0, None, v, &mut work) {
            v.fill(f64::NAN);
        }
    };
    gauss8_on_slices(field, &q0, 1.0, 400)
}

/// The reference `q(1)` of a Lagrangian file from its `(q₀, v₀)`: Gauss(8) on the
/// Euler–Lagrange equations `q̇ = v`, `∂²L/∂v² v̇ = ∂L/∂q − ∂²L/∂v∂q · v` on the file's tapes
/// (NaN where `∂²L/∂v²` is singular).
fn reference_lagrangian(file: &LagrangianFile) -> Vec<f64> {
    let (q0, v0) = file.initial();
    let d = q0.len();
    let (Some(space), Some(square)) = (Dynamic::new(d), d.checked_mul(d)) else {
        return vec![f64::NAN; d];
    };
    let mut lu = Lu::new(space);
    let (mut hessian, mut mixed) = (vec![0.0; square], vec![0.0; square]);
    let field = |x: &[f64], dx: &mut [f64]| {
        let ((q, v), (dq, dv)) = (x.split_at(d), dx.split_at_mut(d));
        dq.copy_from_slice(v);
        let evaluated = [
            file.evaluate(LagrangianMethod::VelocityHessian, &[q, v], &mut hessian),
            file.evaluate(LagrangianMethod::MixedHessian, &[q, v], &mut mixed),
            file.evaluate(LagrangianMethod::PositionGradient, &[q, v], dv),
        ];
        let solved = evaluated.iter().all(Result::is_ok) && lu.refactor(&hessian).is_ok();
        if !solved {
            dv.fill(f64::NAN);
            return;
        }
        for (a, row) in dv.iter_mut().zip(mixed.chunks_exact(d)) {
            *a -= row.iter().zip(v).map(|(m, v)| m * v).sum::<f64>();
        }
        lu.solve_in_place(dv);
    };
    let x0 = [q0, v0].concat();
    let mut x = gauss8_on_slices(field, &x0, 1.0, 400);
    x.truncate(d);
    x
}

fn subject(name: &str) -> Result<Subject, CliError> {
    find(Some(name)).map(ProblemInfo::subject)
}

/// Steps of the holonomic files' reference run over `T = 1`.
pub const HOLONOMIC_REFERENCE_STEPS: usize = 1000;

/// Runs every study.
pub fn verify(quick: bool, only: Option<&str>) -> Result<Verification, CliError> {
    let lv = LotkaVolterra2d::SPARK_TEST;
    let (lv_q0, _) = lv.initial(LotkaVolterra2d::SPARK_TEST_Q0);
    let lv_ref = reference(&lv, lv_q0);
    let LotkaVolterra2d { a1, a2, b1, b2 } = lv;
    let values = [("a1", a1), ("a2", a2), ("b1", b1), ("b2", b2)];
    let lv_file = file_at("lotka-volterra", &values, lv_q0.as_slice(), None)?;
    let (dp_q0, _) = DegeneratePendulum.initial();
    let dp_ref = reference(&DegeneratePendulum, dp_q0);
    let dp_file = file_at("degenerate-pendulum", &[], dp_q0.as_slice(), None)?;
    let (lv_info, dp_info) = (subject("lotka-volterra")?, subject("degenerate-pendulum")?);
    let lv_run = |spec: &RunSpec| problem_files::run(&lv_file, &lv_info, spec);
    let mut methods = Vec::new();
    for s in STEPPERS.iter().filter(|s| selected(s.name, only)) {
        let choice = Choice::Stepper(s);
        let study = if s.facts.needs_linear_one_form {
            study(
                choice,
                On::table("degenerate-pendulum"),
                s.order,
                quick,
                &dp_ref,
                |spec| problem_files::run(&dp_file, &dp_info, spec),
            )
        } else {
            let on = On::table("lotka-volterra (SPARK test)");
            study(choice, on, s.order, quick, &lv_ref, lv_run)
        };
        methods.push(study);
    }
    for s in IMPLICIT_STEPPERS.iter().filter(|s| selected(s.name, only)) {
        methods.push(study(
            Choice::ImplicitStepper(s),
            On::table("lotka-volterra (SPARK test, implicit-DAE view)"),
            s.order,
            quick,
            &lv_ref,
            lv_run,
        ));
    }
    for s in HAMILTONIAN_STEPPERS
        .iter()
        .filter(|s| selected(s.name, only))
    {
        methods.push(study(
            Choice::HamiltonianStepper(s),
            On::table("lotka-volterra (SPARK test, Hamiltonian-DAE view)"),
            s.order,
            quick,
            &lv_ref,
            lv_run,
        ));
    }
    let (q0, p0) = Pendulum::UNIT.state(1.0, 0.0);
    // θ̈ = −(g/ℓ) sin θ from (θ, θ̇) = (1, 0); q = ℓ(sin θ, −cos θ).
    let angle = gauss8(
        |x| Vector::from([x[1], -x[0].sin()]),
        Vector::from([1.0, 0.0]),
        1.0,
        400,
    );
    let q_ref = [angle[0].sin(), -angle[0].cos()];
    let p_info = subject("pendulum")?;
    let pendulum = file_at("pendulum", &[], q0.as_slice(), Some(p0.as_slice()))?;
    for (method, order) in choice::methods(Kind::Holonomic)
        .into_iter()
        .filter(|(m, _)| selected(m.name(), only))
    {
        methods.push(study(
            method,
            On::table("pendulum"),
            order,
            quick,
            &q_ref,
            |spec| problem_files::run(&pendulum, &p_info, spec),
        ));
    }
    // The same pendulum in Jay's index-2 form: the multiplier is the tension.
    let index_two = IndexTwoPendulum::default();
    let (q0, p0) = index_two.initial_state(1.0, 0.0);
    let index_two = Made::IndexTwoPendulum(index_two, q0, p0);
    let i_info = subject("index-two-pendulum")?;
    let on = On {
        problem: "index-two-pendulum",
        multiplier_vanishes: false,
        pinned: |facts| facts.pinned_on_index_two_pendulum,
    };
    for s in IMPLICIT_STEPPERS.iter().filter(|s| selected(s.name, only)) {
        methods.push(study(
            Choice::ImplicitStepper(s),
            on,
            s.order,
            quick,
            &q_ref,
            |spec| run_made(&index_two, &i_info, spec),
        ));
    }
    verification(quick, only, methods)
}

/// Every method of the file's kind on the problem of `file` (see the module documentation).
pub fn verify_file(
    file: &ProblemFile,
    subject: &Subject,
    quick: bool,
    only: Option<&str>,
) -> Result<Verification, CliError> {
    let q_ref = match (subject.kind, file) {
        (Kind::Implicit, ProblemFile::Lagrangian(f)) => reference_lagrangian(f),
        (Kind::Implicit | Kind::Hamiltonian, _) => {
            return Err(CliError::InvalidValue {
                what: "--problem-file",
                value: subject.name.clone(),
                reason: "problem files hold degenerate Lagrangians, Lagrangians or holonomic systems",
            });
        }
        (Kind::Degenerate, ProblemFile::DegenerateLagrangian(f)) => {
            let d = f.initial().0.len();
            if d % 2 == 1 {
                return Err(CliError::Unverifiable {
                    name: subject.name.clone(),
                    reason: format!(
                        "Ω = dϑ is antisymmetric of odd size D = {d}, hence singular at every q: the equations of motion Ω(q) q̇ = −∇H(q) do not determine q̇ (they are no ODE), so there is no reference solution and every method would fail"
                    ),
                });
            }
            reference_at_run_time(f)
        }
        (Kind::Degenerate, _) => {
            return Err(CliError::InvalidValue {
                what: "--problem-file",
                value: subject.name.clone(),
                reason: "not a degenerate_lagrangian problem file",
            });
        }
        (Kind::Holonomic, _) => {
            let s = HOLONOMIC_STEPPERS
                .iter()
                .max_by_key(|s| s.order)
                .map(Choice::HolonomicStepper)
                .ok_or_else(|| CliError::InvalidValue {
                    what: "--problem-file",
                    value: subject.name.clone(),
                    reason: "no generated holonomic stepper for the reference",
                })?;
            let spec = RunSpec::new(
                s,
                1.0 / HOLONOMIC_REFERENCE_STEPS as f64,
                HOLONOMIC_REFERENCE_STEPS,
            );
            let run = problem_files::run(file, subject, &spec)?;
            match (run.failure, run.trajectory.q.last()) {
                (None, Some(q)) => q.clone(),
                (failure, _) => {
                    return Err(CliError::StepFailed {
                        message: format!(
                            "reference run ({}, h = {}): {}",
                            s.name(),
                            spec.h,
                            failure.unwrap_or_default()
                        ),
                        written: Vec::new(),
                    });
                }
            }
        }
    };
    if !q_ref.iter().all(|x| x.is_finite()) {
        let field = match file {
            ProblemFile::Lagrangian(_) => "∂²L/∂v² is singular",
            _ => "Ω(q) is singular",
        };
        return Err(CliError::Unverifiable {
            name: subject.name.clone(),
            reason: format!(
                "the reference solution q(1) left the finite numbers: {field} or the vector field is not finite between q₀ and t = 1"
            ),
        });
    }
    // The pinned behaviours were measured with multipliers; a Lagrangian's equations have none
    // (M = 0), where every method is held to its declared order.
    let on = match file {
        ProblemFile::Lagrangian(_) => On {
            problem: &subject.name,
            multiplier_vanishes: false,
            pinned: |_| None,
        },
        _ => On::table(&subject.name),
    };
    let methods = choice::methods(subject.kind)
        .into_iter()
        .filter(|(m, _)| selected(m.name(), only))
        .map(|(method, order)| {
            study(method, on, order, quick, &q_ref, |spec| {
                problem_files::run(file, subject, spec)
            })
        })
        .collect();
    verification(quick, only, methods)
}

/// Whether `name` contains `only` (case-insensitive); every name without a filter.
fn selected(name: &str, only: Option<&str>) -> bool {
    only.is_none_or(|text| name.to_lowercase().contains(&text.to_lowercase()))
}

/// The verification of `methods`, with the pass count; an error if the filter `only` left no
/// method to study.
fn verification(
    quick: bool,
    only: Option<&str>,
    methods: Vec<Study>,
) -> Result<Verification, CliError> {
    if let (Some(text), true) = (only, methods.is_empty()) {
        return Err(CliError::InvalidValue {
            what: "--only",
            value: text.to_owned(),
            reason: "no method's name contains it; `sparkgen methods` lists the methods",
        });
    }
    let (long_run_h, long_run_steps) = long_run(quick);
    let passed = methods.iter().filter(|m| m.pass).count();
    Ok(Verification {
        quick,
        path: PATH,
        floor: FLOOR,
        tolerance: TOLERANCE,
        long_run_h,
        long_run_steps,
        total: methods.len(),
        passed,
        methods,
    })
}
