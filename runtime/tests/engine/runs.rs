//! Runs of the run-time engine through the one driver (`sparkgen::integrate::run_into`) against
//! the compiled steppers through the same driver: for every degenerate-Lagrangian method, 100
//! steps on Lotka–Volterra (D = 2, the engine on the compiled problem's kernels) and on the
//! guiding-centre example (D = 4, the engine on the problem file's tapes, the compiled stepper on
//! the derive) agree point by point, and both runs stop at the same step where one stops.
//! Through the engine on the file, the momentum conjugate to the cyclic coordinate z of the
//! guiding centre is conserved over 1000 steps (discrete Noether). The compiled runs agree with
//! the same runs whose LU takes the static pivots of the method's description first
//! (`LinearSolve::StaticPivots`, `StageMethod::ELIMINATION`) to [`STRUCTURED`]. The engine's
//! runs on the file, whose kernel calls at each stage point are fused into one tape, are its
//! runs without fusion bit for bit.

use sparkgen::engine::{self, Engine, Kernels, Stepping, Work};
use sparkgen::integrate::{Compiled, Options, StepEquations, run_into};
use sparkgen::layout::Dims;
use sparkgen::problem::{DegenerateLagrangian, Vector};
use sparkgen::problem_file::{DegenerateLagrangianFile, ProblemFile};
use sparkgen::problems::{GuidingCentre, LotkaVolterra2d};
use sparkgen::solution::{Observer, Point, Stopped};
use sparkgen::solve::{LinearSolve, NewtonOptions};
use sparkgen::stage::StageMethod;
use sparkgen_description::structure::{AtomKind, Kernel, ProblemKind};
use std::cell::Cell;
use std::convert::Infallible;

/// The agreement asked of every point: `|a − b|∞ ≤ TOLERANCE · max(1, |a|∞)` in `q` and in `p`,
/// or, where round-off in the problem's functions carries the method's trajectory further,
/// within [`MARGIN`] times that ([`Perturbed`], the largest over [`SAMPLES`] runs).
const TOLERANCE: f64 = 1e-13;

/// The engine's functions differ from the compiled ones by a few units in the last place, not
/// by the random perturbations of the reference: its discrepancy is allowed this multiple of
/// the reference.
const MARGIN: f64 = 4.0;

/// The agreement asked of the runs with and without static pivots: `|a − b|∞ ≤ STRUCTURED ·
/// max(1, |a|∞)` at every point, or within [`MARGIN`] times the [`Perturbed`] reference where
/// round-off carries the method's trajectory further.
const STRUCTURED: f64 = 1e-14;

/// Perturbed runs per method.
const SAMPLES: u64 = 3;

/// Steps of each compared run.
const STEPS: usize = 100;

/// Every point of a run, flat.
#[derive(Default)]
pub(super) struct Trace {
    states: Vec<Vec<f64>>,
}

impl Observer for Trace {
    type Error = Infallible;
    fn observe(&mut self, point: &Point<'_>) -> Result<(), Infallible> {
        self.states
            .push(point.q.iter().chain(point.p).copied().collect());
        Ok(())
    }
}

/// The points of `equations` from `(q₀, p₀)`, and the step that failed, if one did.
pub(super) fn trace<E: StepEquations>(
    equations: E,
    q0: &[f64],
    p0: &[f64],
    h: f64,
) -> (Trace, Option<usize>) {
    trace_with(equations, q0, p0, &Options::new(h, STEPS))
}

/// [`trace`] with the given options.
fn trace_with<E: StepEquations>(
    equations: E,
    q0: &[f64],
    p0: &[f64],
    options: &Options,
) -> (Trace, Option<usize>) {
    let mut trace = Trace::default();
    let result = run_into(equations, q0, p0, options, &mut trace);
    let failed = match result {
        Ok(_) => None,
        Err(Stopped::Step(_)) => Some(trace.states.len()),
        Err(Stopped::Observer(never)) => match never {},
    };
    (trace, failed)
}

/// `max_n |a_n − b_n|∞ / max(1, |a_n|∞)` over the common points; NaN anywhere gives NaN.
pub(super) fn discrepancy(a: &Trace, b: &Trace) -> f64 {
    a.states
        .iter()
        .zip(&b.states)
        .map(|(x, y)| {
            let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            let d = x.iter().zip(y).fold(0.0f64, |m, (u, v)| {
                let e = (u - v).abs();
                if e.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.max(e)
                }
            });
            d / scale
        })
        .fold(0.0f64, |m, d| {
            if d.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(d)
            }
        })
}

/// `kernels` with every kernel's output perturbed by up to `ulps` units in the last place, at
/// random: runs on it measure how far round-off in the problem's functions carries a method's
/// trajectory on the problem (the reference for the engine's discrepancy, whose functions
/// differ from the compiled ones by round-off). Every other function is forwarded, and it does
/// not fuse kernel calls (the default [`Kernels::fuse`]): with `ulps = 0` it is `kernels` with
/// every call evaluated on its own, bit for bit.
struct Perturbed<'a, K> {
    kernels: &'a K,
    state: Cell<u64>,
    ulps: f64,
}

impl<'a, K> Perturbed<'a, K> {
    /// `kernels` perturbed by up to 2 ulp from the random sequence `seed`.
    fn new(kernels: &'a K, seed: u64) -> Self {
        Perturbed {
            kernels,
            state: Cell::new(seed),
            ulps: 2.0,
        }
    }

    /// `kernels` unperturbed, its kernel calls evaluated one by one.
    fn unfused(kernels: &'a K) -> Self {
        Perturbed {
            kernels,
            state: Cell::new(0),
            ulps: 0.0,
        }
    }

    /// Multiplies each entry by `1 + k ε` with a random integer `k` in `[−ulps, ulps]`.
    fn perturb(&self, out: &mut [f64]) {
        for o in out {
            let s = self
                .state
                .get()
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.state.set(s);
            let u = ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0;
            *o *= 1.0 + (self.ulps * u).round() * f64::EPSILON;
        }
    }
}

impl<K: Kernels> Kernels for Perturbed<'_, K> {
    fn kind(&self) -> ProblemKind {
        self.kernels.kind()
    }
    fn dims(&self) -> Dims {
        self.kernels.dims()
    }
    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        self.kernels.vector(kernel, args, out);
        self.perturb(out);
    }
    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        self.kernels.matrix(atom, args, out);
        self.perturb(out);
    }
    fn velocity(
        &self,
        q: &[f64],
        p: &[f64],
        l: Option<&[f64]>,
        v: &mut [f64],
        w: &mut Work,
    ) -> bool {
        self.kernels.velocity(q, p, l, v, w)
    }
    fn momentum_rate(
        &self,
        q: &[f64],
        p: &[f64],
        p_dot: &mut [f64],
        lambda: &mut [f64],
        w: &mut Work,
    ) -> bool {
        self.kernels.momentum_rate(q, p, p_dot, lambda, w)
    }
    fn constraint(&self, q: &[f64], p: &[f64], w: &mut Work) -> f64 {
        self.kernels.constraint(q, p, w)
    }
    fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool {
        self.kernels.consistent_momentum(q, p)
    }
    fn initial_multiplier(
        &self,
        q: &[f64],
        p: &[f64],
        lambda: &mut [f64],
        w: &mut Work,
    ) -> Result<(), f64> {
        self.kernels.initial_multiplier(q, p, lambda, w)
    }
    fn energy(&self, q: &[f64], p: &[f64], w: &mut Work) -> Option<f64> {
        self.kernels.energy(q, p, w)
    }
    fn constraint_differential(
        &self,
        q: &[f64],
        p: &[f64],
        phi_q: &mut [f64],
        phi_p: &mut [f64],
    ) -> bool {
        self.kernels.constraint_differential(q, p, phi_q, phi_p)
    }
}

/// Whether two runs stop at the same step and agree bit for bit at every point.
fn identical(a: &(Trace, Option<usize>), b: &(Trace, Option<usize>)) -> bool {
    let bits = |t: &Trace| -> Vec<Vec<u64>> {
        t.states
            .iter()
            .map(|x| x.iter().map(|v| v.to_bits()).collect())
            .collect()
    };
    a.1 == b.1 && bits(&a.0) == bits(&b.0)
}

/// One method's comparison: the discrepancy of the runs, the step each stopped at, and the
/// discrepancy between the engine's runs on the problem and on its [`Perturbed`] kernels.
#[derive(Debug)]
struct Compared {
    name: &'static str,
    discrepancy: f64,
    reference: f64,
    stop_sensitive: bool,
    compiled_failed: Option<usize>,
    engine_failed: Option<usize>,
    /// The discrepancy of the compiled run whose LU takes the static pivots first, and where it
    /// stopped.
    pivots: f64,
    pivots_failed: Option<usize>,
    /// Whether the engine's run with the kernel calls at each stage point fused (where the
    /// problem fuses them) is its run without, bit for bit.
    fused_identical: bool,
}

/// 100 steps of the compiled `M` on `problem` and of the engine of the same method on `kernels`.
fn compare<M, P, K, const D: usize>(
    name: &'static str,
    problem: &P,
    kernels: &K,
    (q0, p0): (Vector<D>, Vector<D>),
    h: f64,
) -> Compared
where
    M: StageMethod<P, D>,
    K: Kernels,
{
    let engine =
        Engine::catalogue(name, Dims::uniform(D)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(engine.len(), M::UNKNOWNS.len(M::DIMS), "{name}");
    let stepping = Stepping::new(&engine, kernels).unwrap_or_else(|e| panic!("{name}: {e}"));
    let compiled = Compiled::<M, P, D>::sized(problem).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (a, compiled_failed) = trace(compiled, q0.as_slice(), p0.as_slice(), h);
    let with_pivots = Options {
        newton: NewtonOptions {
            linear: LinearSolve::StaticPivots,
            ..NewtonOptions::default()
        },
        ..Options::new(h, STEPS)
    };
    let compiled = Compiled::<M, P, D>::sized(problem).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (d, pivots_failed) = trace_with(compiled, q0.as_slice(), p0.as_slice(), &with_pivots);
    let engine_run = trace(stepping, q0.as_slice(), p0.as_slice(), h);
    let unfused = Perturbed::unfused(kernels);
    let stepping = Stepping::new(&engine, &unfused).unwrap_or_else(|e| panic!("{name}: {e}"));
    let fused_identical = identical(
        &engine_run,
        &trace(stepping, q0.as_slice(), p0.as_slice(), h),
    );
    let (b, engine_failed) = engine_run;
    let (mut reference, mut stop_sensitive) = (0.0f64, false);
    for seed in 1..=SAMPLES {
        let perturbed = Perturbed::new(kernels, seed);
        let stepping = Stepping::new(&engine, &perturbed).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (c, failed) = trace(stepping, q0.as_slice(), p0.as_slice(), h);
        reference = reference.max(discrepancy(&b, &c));
        stop_sensitive |= failed != engine_failed;
    }
    Compared {
        name,
        discrepancy: discrepancy(&a, &b),
        reference,
        stop_sensitive,
        compiled_failed,
        engine_failed,
        pivots: discrepancy(&a, &d),
        pivots_failed,
        fused_identical,
    }
}

/// The guiding-centre example file.
fn guiding_centre_file() -> DegenerateLagrangianFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/guiding_centre.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        other => panic!("the example file states a degenerate Lagrangian: {other:?}"),
    }
}

macro_rules! every_degenerate_method {
    (
        degenerate: [$(($ty:ident, $family:literal, $s:literal, $order:literal, $pair:literal, $facts:expr)),* $(,)?],
        holonomic: [$($hrow:tt),* $(,)?],
        implicit: [$($irow:tt),* $(,)?],
        hamiltonian: [$($arow:tt),* $(,)?] $(,)?
    ) => {
        /// Every degenerate method on Lotka–Volterra (engine on the compiled problem's kernels).
        fn on_lotka_volterra() -> Vec<Compared> {
            let lv = LotkaVolterra2d::UPSTREAM;
            let q0 = Vector::<2>::from(LotkaVolterra2d::UPSTREAM_Q0);
            let start = (q0, lv.theta(&q0));
            vec![$({
                type M = sparkgen::generated::steppers::$ty;
                compare::<M, _, _, 2>(
                    stringify!($ty), &lv, &engine::Degenerate(&lv), start, 0.1,
                )
            }),*]
        }

        /// Every degenerate method on the guiding centre (engine on the problem file, the
        /// compiled stepper on the derive).
        fn on_the_guiding_centre() -> Vec<Compared> {
            let gc = GuidingCentre::SCREW_PINCH;
            let file = guiding_centre_file();
            let start = gc.initial(GuidingCentre::SCREW_PINCH_Q0);
            vec![$({
                type M = sparkgen::generated::steppers::$ty;
                compare::<M, _, _, 4>(
                    stringify!($ty), &gc, &file, start, 0.1,
                )
            }),*]
        }
    };
}

sparkgen::generated::for_each_stepper!(every_degenerate_method);

/// The largest `value` of the comparisons (a NaN counts as largest) and those above `tolerance`,
/// each with the perturbed reference.
fn summary(
    results: &[Compared],
    value: impl Fn(&Compared) -> f64,
    tolerance: f64,
) -> ((&'static str, f64), Vec<String>) {
    let worst = results.iter().fold(("", 0.0f64), |w, r| {
        let v = value(r);
        if v > w.1 || v.is_nan() {
            (r.name, v)
        } else {
            w
        }
    });
    let beyond = results
        .iter()
        .filter(|r| value(r) > tolerance)
        .map(|r| {
            format!(
                "{} {:.1e} (perturbed {:.1e})",
                r.name,
                value(r),
                r.reference
            )
        })
        .collect();
    (worst, beyond)
}

/// Both runs stop at the same step or neither does, and the points agree to [`TOLERANCE`];
/// prints the largest discrepancy and the number of methods that stopped.
fn assert_agree(problem: &str, results: &[Compared]) {
    assert_eq!(results.len(), sparkgen::cli::registry::STEPPERS.len());
    let mut disagree = Vec::new();
    for r in results {
        let same_stop = r.compiled_failed == r.engine_failed || r.stop_sensitive;
        let close = r.discrepancy <= TOLERANCE.max(MARGIN * r.reference);
        if !(same_stop && close) {
            disagree.push(format!(
                "{}: {:e} (perturbed {:e}; stopped at {:?} compiled, {:?} engine)",
                r.name, r.discrepancy, r.reference, r.compiled_failed, r.engine_failed
            ));
        }
        if !r.fused_identical {
            disagree.push(format!(
                "{}: the engine's run with fused kernel calls differs from its run without",
                r.name
            ));
        }
        let pivots_stop = r.compiled_failed == r.pivots_failed || r.stop_sensitive;
        if !(pivots_stop && r.pivots <= STRUCTURED.max(MARGIN * r.reference)) {
            disagree.push(format!(
                "{}: static pivots against the dense LU {:e} (perturbed {:e}; stopped at {:?} dense, {:?} with static pivots)",
                r.name, r.pivots, r.reference, r.compiled_failed, r.pivots_failed
            ));
        }
    }
    let stopped = results
        .iter()
        .filter(|r| r.compiled_failed.is_some())
        .count();
    let (worst, beyond) = summary(results, |r| r.discrepancy, TOLERANCE);
    let (structured, beyond_structured) = summary(results, |r| r.pivots, STRUCTURED);
    println!(
        "{problem}: static pivots against the dense LU, largest discrepancy {:.2e} ({}); beyond {STRUCTURED:e}: {}: {}",
        structured.1,
        structured.0,
        beyond_structured.len(),
        beyond_structured.join(", ")
    );
    let moved: Vec<&str> = results
        .iter()
        .filter(|r| r.compiled_failed != r.engine_failed)
        .map(|r| r.name)
        .collect();
    println!(
        "{problem}: largest discrepancy over {STEPS} steps {:.2e} ({}); {stopped} of {} methods stop early on the compiled path; beyond {TOLERANCE:e}: {}: {}; stopping at another step: {moved:?}",
        worst.1,
        worst.0,
        results.len(),
        beyond.len(),
        beyond.join(", ")
    );
    assert!(
        disagree.is_empty(),
        "{problem}: {} methods disagree:\n{}",
        disagree.len(),
        disagree.join("\n")
    );
}

#[test]
fn every_degenerate_method_runs_on_the_engine_as_compiled_on_lotka_volterra() {
    assert_agree("Lotka–Volterra", &on_lotka_volterra());
}

#[test]
fn every_degenerate_method_runs_on_the_engine_as_compiled_on_the_guiding_centre() {
    assert_agree("guiding centre", &on_the_guiding_centre());
}

/// The largest relative change of `p_z` (the momentum conjugate to the cyclic z) over a run.
struct Noether {
    p_z0: Option<f64>,
    worst: f64,
}

impl Observer for Noether {
    type Error = Infallible;
    fn observe(&mut self, point: &Point<'_>) -> Result<(), Infallible> {
        let p_z = point.p[2];
        let p_z0 = *self.p_z0.get_or_insert(p_z);
        let change = (p_z - p_z0).abs() / p_z0.abs();
        self.worst = if change.is_nan() {
            f64::NAN
        } else {
            self.worst.max(change)
        };
        Ok(())
    }
}

#[test]
fn the_engine_keeps_the_momentum_of_the_cyclic_coordinate_on_the_file() {
    let file = guiding_centre_file();
    let (q0, p0) = file.initial();
    for name in [
        "SlrkLobattoIIIE3",
        "VprkGauss3",
        "SparkGlrk2",
        "VsparkPrimaryGlrkpMidpoint3",
    ] {
        let engine = Engine::catalogue(name, file.dims()).expect("in the catalogue");
        let stepping = Stepping::new(&engine, &file).expect("the file fits");
        let mut noether = Noether {
            p_z0: None,
            worst: 0.0,
        };
        let run = run_into(stepping, &q0, &p0, &Options::new(0.1, 1000), &mut noether);
        assert!(run.is_ok(), "{name}: {run:?}");
        assert!(
            noether.worst <= 1e-12,
            "{name}: p_z changes by {:e}",
            noether.worst
        );
        println!(
            "{name}: max |p_z − p_z0| / |p_z0| over 1000 steps = {:e}",
            noether.worst
        );
    }
}
