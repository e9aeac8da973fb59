//! The run-time engine evaluates every catalogue method as its compiled stepper does: residual,
//! exact Jacobian, tangent partials and update agree to round-off at states away from any
//! solution (unknowns drawn at random), for every degenerate-Lagrangian stepper on
//! Lotka–Volterra, every holonomic stepper on the pendulum, every implicit-DAE stepper on the
//! index-2 pendulum and every Hamiltonian-DAE stepper on Lotka–Volterra's Dirac Hamiltonian.

use dispatch::StepperVisitor;
use sparkgen::cli::registry::{self, STEPPERS, StepperInfo};
use sparkgen::engine::{
    self, DaeForm, DaeView, Engine, Kernels, Scratch, StageEquations, Step, Tangent,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::kind::Access;
use sparkgen::layout::Dims;
use sparkgen::layout::Role;
use sparkgen::problem::{DegenerateLagrangian, DiracHamiltonian, LagrangianDae, Vector};
use sparkgen::problem_file::ProblemFile;
use sparkgen::problems::{GuidingCentre, IndexTwoPendulum, LotkaVolterra2d};
use sparkgen::rows::RowMajor;
use sparkgen::solve::{Dynamic, LinearSolve, Newton, NewtonOptions, NonlinearSystem};
use sparkgen::stage::{StageMethod, StageSystem};
use std::cell::RefCell;

#[path = "engine/dispatch.rs"]
mod dispatch;
// Whole runs through the one driver, in this binary so that the catalogue's steppers on
// Lotka–Volterra are compiled once for both.
#[path = "engine/runs.rs"]
mod runs;
// A Lagrangian problem file on the engine against the compiled steppers on the derive.
#[path = "engine/lagrangian.rs"]
mod lagrangian;

/// The agreement asked of every entry: `|a − b| ≤ TOLERANCE · max(1, max |a|)` over each
/// function's output.
const TOLERANCE: f64 = 1e-13;

/// The agreement asked of the step solved with the method's static pivots
/// (`LinearSolve::StaticPivots`) and the one solved with the dense LU: `STRUCTURED · max(1,
/// |step|∞)`, or [`MARGIN`]
/// times the discrepancy between the compiled and the engine's steps, where round-off in the
/// functions moves the step further (an ill-conditioned stage system).
const STRUCTURED: f64 = 1e-14;

/// See [`STRUCTURED`].
const MARGIN: f64 = 4.0;

/// A deterministic sequence in `[−1, 1]`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// `max |a − b| / max(1, max |a|)`; NaN anywhere gives NaN.
fn discrepancy(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    let scale = a.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    a.iter().zip(b).fold(0.0f64, |m, (x, y)| {
        let d = (x - y).abs();
        if d.is_nan() || m.is_nan() {
            f64::NAN
        } else {
            m.max(d)
        }
    }) / scale
}

/// The largest discrepancy between the compiled stepper `M` and `engine` on `problem` (seen by
/// the engine as `kernels`) at `(q, p, λ)` and random unknowns, over every function of the step;
/// and that of the steps their Newton solves take ([`solve`]).
#[allow(clippy::too_many_arguments)]
fn compare<M, P, K, const D: usize>(
    engine: &Engine,
    problem: &P,
    kernels: &K,
    h: f64,
    q: &Vector<D>,
    p: &Vector<D>,
    lambda: &[f64],
    rng: &mut Rng,
) -> (f64, f64)
where
    M: StageMethod<P, D>,
    K: Kernels,
{
    let n = M::UNKNOWNS.len(M::DIMS);
    assert_eq!(engine.len(), n, "{}", engine.name());
    engine.check(kernels).expect("the kinds and widths agree");
    let x: Vec<f64> = (0..n).map(|_| 0.1 * rng.next()).collect();
    let mut ws = engine.workspace();
    let step = Step {
        h,
        q: q.as_slice(),
        p: p.as_slice(),
        lambda,
        x: &x,
    };
    let mut worst = 0.0f64;
    let mut record = |d: f64| worst = if d.is_nan() { f64::NAN } else { worst.max(d) };

    let (mut r_c, mut r_e) = (vec![0.0; n], vec![0.0; n]);
    M::residual(problem, h, q, p, lambda, &x, &mut r_c);
    engine.residual(&mut ws, kernels, &step, &mut r_e);
    record(discrepancy(&r_c, &r_e));

    let mut j_c = vec![0.0; n * n];
    let mut j_e = vec![f64::NAN; n * n];
    let mut rows = RowMajor::new(&mut j_c, n).expect("n × n");
    M::jacobian(problem, h, q, p, lambda, &x, &mut rows);
    engine.jacobian(&mut ws, kernels, &step, &mut j_e);
    record(discrepancy(&j_c, &j_e));

    let mut t_c = Tangent::zero(n, D);
    let mut t_e = Tangent::zero(n, D);
    M::tangent(
        problem,
        h,
        q,
        p,
        lambda,
        &x,
        &mut t_c.rows(D).expect("D coordinates"),
    );
    engine.tangent(&mut ws, kernels, &step, &mut t_e);
    for (c, e) in [
        (&t_c.r_q, &t_e.r_q),
        (&t_c.r_p, &t_e.r_p),
        (&t_c.q_x, &t_e.q_x),
        (&t_c.p_x, &t_e.p_x),
        (&t_c.q_q, &t_e.q_q),
        (&t_c.q_p, &t_e.q_p),
        (&t_c.p_q, &t_e.p_q),
        (&t_c.p_p, &t_e.p_p),
    ] {
        record(discrepancy(c, e));
    }

    let (q1_c, p1_c) = M::update(problem, h, q, p, lambda, &x);
    let (mut q1_e, mut p1_e) = ([f64::NAN; D], [f64::NAN; D]);
    engine.update(&mut ws, kernels, &step, &mut q1_e, &mut p1_e);
    record(discrepancy(q1_c.as_slice(), &q1_e));
    record(discrepancy(p1_c.as_slice(), &p1_e));
    let steps = solve::<M, P, K, D>(engine, problem, kernels, h, q, p, lambda);
    (worst, steps)
}

/// `max_i |r_i| / max(1, s_i)` of `system` at `x`, `s_i = Σ_j |∂r_i/∂x_j|·|x_j| + d_i` the size of
/// the terms row `i` is made of: Newton holds a row at its round-off floor to
/// `|r_i| ≤ 10³·c·ε·√N·max(1, s_i)` (`sparkgen::solve`, `NewtonError::AboveRoundOff`); a NaN
/// anywhere gives NaN.
fn row_residual(system: &impl NonlinearSystem<Dynamic>, x: &[f64]) -> f64 {
    let n = x.len();
    let (mut r, mut j, mut d) = (vec![0.0; n], vec![0.0; n * n], vec![0.0; n]);
    system.residual(x, &mut r);
    system.jacobian(x, &mut j);
    system.data_scales(x, &mut d);
    let rows = r.iter().zip(j.chunks_exact(n)).zip(&d);
    rows.map(|((r_i, row), d_i)| {
        let terms = row.iter().zip(x).map(|(a, b)| (a * b).abs()).sum::<f64>() + d_i;
        r_i.abs() / terms.max(1.0)
    })
    .fold(0.0, |m, v| if v > m || v.is_nan() { v } else { m })
}

/// The same Newton on the compiled stage system and on the engine's, from the guess of the
/// problem kind's velocity in the velocity stages: both converge or both fail, and each
/// converged unknown vector solves the other's equations to Newton's round-off floor
/// ([`row_residual`] at most `10³·c·ε·√N`). The converged unknowns themselves agree only to the
/// conditioning of the stage equations (upstream's VSPARKprimary Lobatto variants differ by up to
/// 1e-9 in x and 2e-11 in the step); the step discrepancy is returned for the report. The
/// compiled system solved with the static pivots taken first converges or fails with it, to the
/// same step within [`STRUCTURED`].
fn solve<M, P, K, const D: usize>(
    engine: &Engine,
    problem: &P,
    kernels: &K,
    h: f64,
    q: &Vector<D>,
    p: &Vector<D>,
    lambda: &[f64],
) -> f64
where
    M: StageMethod<P, D>,
    K: Kernels,
{
    let options = NewtonOptions {
        linear: if M::RANK_DEFICIENT {
            LinearSolve::MinimumNorm {
                rank_tolerance: None,
            }
        } else {
            LinearSolve::Lu
        },
        ..NewtonOptions::default()
    };
    let n = M::UNKNOWNS.len(M::DIMS);
    let v = M::Kind::velocity(problem, q, p).unwrap_or_else(Vector::zeros);
    let mut guess = vec![0.0; n];
    for (b, block) in M::UNKNOWNS.blocks.iter().enumerate() {
        if block.role == Role::Velocity {
            for stage in 0..block.stages {
                M::UNKNOWNS.set::<D>(&mut guess, M::DIMS, b, stage, &v);
            }
        }
    }
    let mut x_c = guess.clone();
    let space = Dynamic::new(n).expect("a small system");
    let tangent = RefCell::new(Tangent::zero(n, D));
    let system = StageSystem::<M, P, D>::new(problem, (h, *q, *p), lambda, space, &tangent);
    let mut newton = Newton::new_in(space, options);
    let compiled = newton.solve(&system, &mut x_c);
    let pivot_options = NewtonOptions {
        linear: match options.linear {
            LinearSolve::Lu => LinearSolve::StaticPivots,
            other => other,
        },
        ..options
    };
    let mut x_p = guess.clone();
    let pivoted = Newton::new_in(space, pivot_options).solve(&system, &mut x_p);
    // The step with the method's static pivots against the one factoring the whole Jacobian.
    let structured = match (&compiled, &pivoted) {
        (Ok(_), Ok(_)) => {
            let (q1_d, p1_d) = M::update(problem, h, q, p, lambda, &x_c);
            let (q1_s, p1_s) = M::update(problem, h, q, p, lambda, &x_p);
            discrepancy(q1_d.as_slice(), q1_s.as_slice())
                .max(discrepancy(p1_d.as_slice(), p1_s.as_slice()))
        }
        (Err(_), Err(_)) => 0.0,
        (d, s) => panic!("{}: dense {d:?}, with static pivots {s:?}", engine.name()),
    };
    let scratch = RefCell::new(Scratch::new(engine));
    let equations = StageEquations::new(
        engine,
        kernels,
        space,
        h,
        q.as_slice(),
        p.as_slice(),
        lambda,
        &scratch,
    );
    let mut x_e = guess;
    let run = Newton::new_in(space, options).solve(&equations, &mut x_e);
    match (compiled, run) {
        (Ok(_), Ok(_)) => {
            let floor = 1e3 * options.tolerance_factor * f64::EPSILON * (n as f64).sqrt();
            let (cross_c, cross_e) = (row_residual(&system, &x_e), row_residual(&equations, &x_c));
            assert!(
                cross_c <= floor && cross_e <= floor,
                "{}: the engine's solution leaves {cross_c:e} of its rows' terms in the compiled equations, the compiled one {cross_e:e} in the engine's (floor {floor:e})",
                engine.name()
            );
            let (q1_c, p1_c) = M::update(problem, h, q, p, lambda, &x_c);
            let mut ws = engine.workspace();
            let (mut q1_e, mut p1_e) = ([f64::NAN; D], [f64::NAN; D]);
            let step = Step {
                h,
                q: q.as_slice(),
                p: p.as_slice(),
                lambda,
                x: &x_e,
            };
            engine.update(&mut ws, kernels, &step, &mut q1_e, &mut p1_e);
            let steps =
                discrepancy(q1_c.as_slice(), &q1_e).max(discrepancy(p1_c.as_slice(), &p1_e));
            assert!(
                structured <= STRUCTURED.max(MARGIN * steps),
                "{}: the step with static pivots differs by {structured:e} from the dense LU's (the engine's by {steps:e})",
                engine.name()
            );
            steps
        }
        (Err(_), Err(_)) => 0.0,
        (c, e) => panic!("{}: compiled {c:?}, engine {e:?}", engine.name()),
    }
}

/// The method of `info` as an engine for `dims`.
fn engine_of(info: &StepperInfo, dims: Dims) -> Engine {
    Engine::catalogue(info.name, dims).unwrap_or_else(|e| panic!("{}: {e}", info.name))
}

/// A random multiplier `λ_n` of `m` entries for methods that carry one.
fn multiplier<P, M: StageMethod<P, D>, const D: usize>(m: usize, rng: &mut Rng) -> Vec<f64> {
    if M::MULTIPLIER.is_some() {
        (0..m).map(|_| 0.1 * rng.next()).collect()
    } else {
        Vec::new()
    }
}

struct Degenerate<'a> {
    rng: &'a mut Rng,
}

impl StepperVisitor<LotkaVolterra2d, 2> for Degenerate<'_> {
    type Output = (f64, f64);
    fn visit<M: StageMethod<LotkaVolterra2d, 2>>(self, info: &StepperInfo) -> (f64, f64) {
        let lv = LotkaVolterra2d::UPSTREAM;
        let q = Vector::<2>::from([1.0 + 0.5 * self.rng.next().abs(), 1.5]);
        let p = lv.theta(&q) + Vector::<2>::from([0.05, -0.03]);
        let lambda = multiplier::<_, M, 2>(2, self.rng);
        let engine = engine_of(info, Dims::uniform(2));
        compare::<M, _, _, 2>(
            &engine,
            &lv,
            &engine::Degenerate(&lv),
            0.1,
            &q,
            &p,
            &lambda,
            self.rng,
        )
    }
}

struct Shaped<'a> {
    rng: &'a mut Rng,
}

impl StepperVisitor<Pendulum, 2> for Shaped<'_> {
    type Output = (f64, f64);
    fn visit<M: StageMethod<Pendulum, 2>>(self, info: &StepperInfo) -> (f64, f64) {
        let pendulum = Pendulum {
            m: 1.3,
            g: 1.0,
            l: 0.9,
        };
        let (q, p) = pendulum.state(0.7, 0.4);
        let lambda = multiplier::<_, M, 2>(1, self.rng);
        let engine = engine_of(info, Dims::new(2, 1));
        compare::<M, _, _, 2>(
            &engine,
            &pendulum,
            &engine::Holonomic(&pendulum),
            0.05,
            &q,
            &p,
            &lambda,
            self.rng,
        )
    }
}

impl StepperVisitor<IndexTwoPendulum, 2> for Shaped<'_> {
    type Output = (f64, f64);
    fn visit<M: StageMethod<IndexTwoPendulum, 2>>(self, info: &StepperInfo) -> (f64, f64) {
        let pendulum = IndexTwoPendulum::default();
        let (q, p) = pendulum.initial_state(0.8, 0.3);
        let lambda = multiplier::<_, M, 2>(1, self.rng);
        let engine = engine_of(info, Dims::new(2, 1));
        compare::<M, _, _, 2>(
            &engine,
            &pendulum,
            &engine::Implicit(&pendulum),
            0.05,
            &q,
            &p,
            &lambda,
            self.rng,
        )
    }
}

type Dirac = DiracHamiltonian<LotkaVolterra2d>;

impl StepperVisitor<Dirac, 2> for Shaped<'_> {
    type Output = (f64, f64);
    fn visit<M: StageMethod<Dirac, 2>>(self, info: &StepperInfo) -> (f64, f64) {
        let lv = LotkaVolterra2d::UPSTREAM;
        let dirac = DiracHamiltonian(lv);
        let q = Vector::<2>::from([1.7, 1.2]);
        let p = lv.theta(&q) + Vector::<2>::from([0.02, 0.04]);
        let lambda = multiplier::<_, M, 2>(2, self.rng);
        let engine = engine_of(info, Dims::new(2, 2));
        let compiled = compare::<M, _, _, 2>(
            &engine,
            &dirac,
            &engine::Hamiltonian(&dirac),
            0.1,
            &q,
            &p,
            &lambda,
            self.rng,
        );
        // The run-time view of the same Lagrangian's kernels.
        let kernels = engine::Degenerate(&lv);
        let view = DaeView::new(&kernels, DaeForm::Dirac).expect("a degenerate Lagrangian");
        let viewed = compare::<M, _, _, 2>(&engine, &dirac, &view, 0.1, &q, &p, &lambda, self.rng);
        (compiled.0.max(viewed.0), compiled.1.max(viewed.1))
    }
}

type Jay = LagrangianDae<LotkaVolterra2d>;

/// The implicit-DAE steppers on Lotka–Volterra's Lagrangian DAE, compiled, against the engine on
/// the run-time view [`DaeView`] of its kernels as Jay's DAE.
impl StepperVisitor<Jay, 2> for Shaped<'_> {
    type Output = (f64, f64);
    fn visit<M: StageMethod<Jay, 2>>(self, info: &StepperInfo) -> (f64, f64) {
        let lv = LotkaVolterra2d::UPSTREAM;
        let jay = LagrangianDae(lv);
        let q = Vector::<2>::from([1.3, 0.8]);
        let p = lv.theta(&q) + Vector::<2>::from([-0.03, 0.02]);
        let lambda = multiplier::<_, M, 2>(2, self.rng);
        let engine = engine_of(info, Dims::new(2, 2));
        let kernels = engine::Degenerate(&lv);
        let view = DaeView::new(&kernels, DaeForm::LagrangianDae).expect("a degenerate Lagrangian");
        compare::<M, _, _, 2>(&engine, &jay, &view, 0.1, &q, &p, &lambda, self.rng)
    }
}

/// Asserts every function's discrepancy within [`TOLERANCE`] (a NaN fails) and that every
/// stepper of `table` was compared; prints the largest discrepancies.
fn assert_all(table: &[StepperInfo], results: Vec<(&'static str, Option<(f64, f64)>)>) {
    assert_eq!(results.len(), table.len());
    let (mut worst, mut worst_step) = (("", 0.0f64), ("", 0.0f64));
    for (name, result) in results {
        let (d, step) = result.unwrap_or_else(|| panic!("{name}: no stepper of that name"));
        assert!(d <= TOLERANCE, "{name}: the engine differs by {d:e}");
        assert!(!step.is_nan(), "{name}: a NaN step");
        if d > worst.1 {
            worst = (name, d);
        }
        if step > worst_step.1 {
            worst_step = (name, step);
        }
    }
    println!(
        "largest discrepancy {:.2e} ({}); of the solved steps {:.2e} ({})",
        worst.1, worst.0, worst_step.1, worst_step.0
    );
}

#[test]
fn degenerate_steppers_agree_with_the_engine_on_lotka_volterra() {
    let mut rng = Rng(1);
    let results = STEPPERS
        .iter()
        .map(|info| {
            (
                info.name,
                dispatch::degenerate(info, Degenerate { rng: &mut rng }),
            )
        })
        .collect();
    assert_all(STEPPERS, results);
}

#[test]
fn holonomic_steppers_agree_with_the_engine_on_the_pendulum() {
    let mut rng = Rng(2);
    let table = registry::HOLONOMIC_STEPPERS;
    let results = table
        .iter()
        .map(|info| {
            let visitor = Shaped { rng: &mut rng };
            let out = dispatch::holonomic::<Pendulum, _>(info, visitor);
            (info.name, out)
        })
        .collect();
    assert_all(table, results);
}

#[test]
fn implicit_steppers_agree_with_the_engine_on_the_index_two_pendulum() {
    let mut rng = Rng(3);
    let table = registry::IMPLICIT_STEPPERS;
    let results = table
        .iter()
        .map(|info| {
            let visitor = Shaped { rng: &mut rng };
            let out = dispatch::implicit::<IndexTwoPendulum, _, 1>(info, visitor);
            (info.name, out)
        })
        .collect();
    assert_all(table, results);
}

#[test]
fn hamiltonian_steppers_agree_with_the_engine_on_lotka_volterra() {
    let mut rng = Rng(4);
    let table = registry::HAMILTONIAN_STEPPERS;
    let results = table
        .iter()
        .map(|info| {
            let visitor = Shaped { rng: &mut rng };
            let out = dispatch::hamiltonian::<Dirac, _>(info, visitor);
            (info.name, out)
        })
        .collect();
    assert_all(table, results);
}

#[test]
fn implicit_steppers_agree_with_the_engine_on_the_view_of_lotka_volterra() {
    let mut rng = Rng(5);
    let table = registry::IMPLICIT_STEPPERS;
    let results = table
        .iter()
        .map(|info| {
            let visitor = Shaped { rng: &mut rng };
            let out = dispatch::implicit::<Jay, _, 2>(info, visitor);
            (info.name, out)
        })
        .collect();
    assert_all(table, results);
}

/// The state-level functions of the run-time views (velocity guess, the multiplier of the
/// hidden constraint, `|φ|∞`, `dφ`, the energy) equal the compiled views' at states off the
/// constraint, on Lotka–Volterra and on the D = 4 guiding centre of
/// `runtime/problems/guiding_centre.toml` against its derive.
#[test]
fn the_views_state_functions_agree_with_the_compiled_views() {
    fn agree<A: Kernels, B: Kernels>(a: &A, b: &B, q: &[f64], p: &[f64], what: &str) {
        let dims = a.dims();
        let (d, m) = (dims.coordinates, dims.constraints);
        let mut work = engine::Work::new(dims).expect("small");
        let (mut va, mut vb) = (vec![0.0; d], vec![1.0; d]);
        assert!(a.velocity(q, p, None, &mut va, &mut work), "{what}");
        assert!(b.velocity(q, p, None, &mut vb, &mut work), "{what}");
        let (mut la, mut lb) = (vec![0.0; m], vec![1.0; m]);
        a.initial_multiplier(q, p, &mut la, &mut work)
            .unwrap_or_else(|r| panic!("{what}: {r:e}"));
        b.initial_multiplier(q, p, &mut lb, &mut work)
            .unwrap_or_else(|r| panic!("{what}: {r:e}"));
        let (mut wa, mut wb) = (vec![0.0; d], vec![1.0; d]);
        assert!(a.velocity(q, p, Some(&la), &mut wa, &mut work), "{what}");
        assert!(b.velocity(q, p, Some(&lb), &mut wb, &mut work), "{what}");
        let mut da = [vec![0.0; m * d], vec![0.0; m * d]];
        let mut db = [vec![1.0; m * d], vec![1.0; m * d]];
        let [qa, pa] = &mut da;
        assert!(a.constraint_differential(q, p, qa, pa), "{what}");
        let [qb, pb] = &mut db;
        assert!(b.constraint_differential(q, p, qb, pb), "{what}");
        let worst = [
            discrepancy(&va, &vb),
            discrepancy(&la, &lb),
            discrepancy(&wa, &wb),
            discrepancy(&da[0], &db[0]),
            discrepancy(&da[1], &db[1]),
            discrepancy(
                &[a.constraint(q, p, &mut work)],
                &[b.constraint(q, p, &mut work)],
            ),
            discrepancy(
                &[a.energy(q, p, &mut work).unwrap_or(f64::NAN)],
                &[b.energy(q, p, &mut work).unwrap_or(f64::NAN)],
            ),
        ];
        println!("{what}: {worst:?}");
        assert!(worst.iter().all(|w| *w <= TOLERANCE), "{what}: {worst:?}");
        assert!(la.iter().chain(&va).all(|x| x.is_finite()), "{what}");
    }
    let lv = LotkaVolterra2d::UPSTREAM;
    let kernels = engine::Degenerate(&lv);
    let q = Vector::<2>::from([1.3, 0.8]);
    let p = lv.theta(&q) + Vector::<2>::from([-0.03, 0.02]);
    let (jay, dirac) = (LagrangianDae(lv), DiracHamiltonian(lv));
    let views = (
        DaeView::new(&kernels, DaeForm::LagrangianDae).expect("degenerate"),
        DaeView::new(&kernels, DaeForm::Dirac).expect("degenerate"),
    );
    agree(
        &views.0,
        &engine::Implicit(&jay),
        q.as_slice(),
        p.as_slice(),
        "Lotka–Volterra, Lagrangian DAE",
    );
    agree(
        &views.1,
        &engine::Hamiltonian(&dirac),
        q.as_slice(),
        p.as_slice(),
        "Lotka–Volterra, Dirac",
    );
    let gc = GuidingCentre::SCREW_PINCH;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/guiding_centre.toml");
    let Ok(ProblemFile::DegenerateLagrangian(file)) = ProblemFile::read(path) else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let q = Vector::<4>::from([0.5, 0.05, 0.1, 0.12]);
    let p = gc.theta(&q) + Vector::<4>::from([0.01, -0.02, 0.03, 0.01]);
    let (jay, dirac) = (LagrangianDae(gc), DiracHamiltonian(gc));
    let views = (
        DaeView::new(&file, DaeForm::LagrangianDae).expect("degenerate"),
        DaeView::new(&file, DaeForm::Dirac).expect("degenerate"),
    );
    agree(
        &views.0,
        &engine::Implicit(&jay),
        q.as_slice(),
        p.as_slice(),
        "guiding centre, Lagrangian DAE",
    );
    agree(
        &views.1,
        &engine::Hamiltonian(&dirac),
        q.as_slice(),
        p.as_slice(),
        "guiding centre, Dirac",
    );
    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let holonomic = engine::Holonomic(&pendulum);
    assert!(DaeView::new(&holonomic, DaeForm::Dirac).is_none());
}

#[test]
fn a_method_of_another_kind_is_refused() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let engine =
        Engine::catalogue("RattleLobattoIIIAIIIB2", Dims::new(2, 2)).expect("in catalogue");
    let error = engine.check(&engine::Degenerate(&lv)).unwrap_err();
    assert!(error.to_string().contains("Holonomic"), "{error}");
    let unknown = Engine::catalogue("NoSuchMethod3", Dims::uniform(2)).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "no method `NoSuchMethod3` in the catalogue"
    );
}
