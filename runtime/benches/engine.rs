//! The run-time engine against the compiled stepper of the same method on Lotka–Volterra
//! (upstream defaults, h = 0.1, at `q₀`): one residual, one Jacobian, one Newton solve of the
//! first step's stage equations from the velocity guess, and one step of the one driver
//! (`step_*`: the compiled stepper, the engine on the compiled problem's kernels, the engine on
//! the problem file's tapes); and one step on the guiding-centre example (D = 4) and the Penning
//! trap (D = 6: the compiled derive, the engine on its kernels, the engine on the problem file
//! interpreted, and the same file's stage functions as machine code, `step_jit_file`), side by
//! side in one run:
//! `cargo bench -p sparkgen --bench engine`. The ratio engine / compiled of each pair is the
//! figure to read (absolute times on a shared machine are noise). `compile_jit` times lowering
//! and compiling a method's stage functions on a shipped file (a fresh engine per sample):
//! Lotka–Volterra (D = 2), the guiding centre (D = 4), the Penning trap (D = 6) and the point
//! vortices (D = 16), s = 2–4.
//! Smoke mode: `cargo test --benches -p sparkgen` runs every benchmark once.
use divan::Bencher;
use sparkgen::engine::{self, Backend, Engine, Kernels, Scratch, StageEquations, Step, Stepping};
use sparkgen::integrate::{Compiled, Driver, StepEquations};
use sparkgen::kind::Access;
use sparkgen::layout::{Dims, Role};
use sparkgen::problem::{DegenerateLagrangian, Vector};
use sparkgen::problem_file::{DegenerateLagrangianFile, ProblemFile};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::problems::{GuidingCentre, PenningTrap};
use sparkgen::rows::RowMajor;
use sparkgen::solve::{Dynamic, Newton, NewtonOptions};
use sparkgen::stage::{StageMethod, StageSystem, Tangent};
use std::cell::RefCell;

const H: f64 = 0.1;

/// A shipped problem file of a degenerate Lagrangian.
fn file(name: &str) -> DegenerateLagrangianFile {
    let path = format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR"));
    match ProblemFile::read(path) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        other => panic!("{name} states a degenerate Lagrangian: {other:?}"),
    }
}

/// Steps of the one driver on `equations` from `(q, p)`, one per iteration (the same step
/// each time, started from the previous one's extrapolation).
fn steps<E: StepEquations>(bencher: Bencher, equations: E, q: &[f64], p: &[f64]) {
    let mut driver = Driver::new(equations, H, NewtonOptions::default()).expect("a valid h");
    bencher.bench_local(|| divan::black_box(driver.step(q, p, 1, 0.0).is_ok()));
}

/// The engine of the catalogue method `name` on `problem` with `backend`, stepped from
/// `(q, p)`.
fn engine_steps<K: Kernels>(
    bencher: Bencher,
    name: &str,
    problem: &K,
    (q, p): (&[f64], &[f64]),
    backend: Backend,
) {
    let engine = Engine::catalogue(name, problem.dims()).expect("in catalogue");
    let stepping = Stepping::with_backend(&engine, problem, backend).expect("the problem fits");
    assert_eq!(stepping.backend(), backend, "{name}");
    steps(bencher, stepping, q, p);
}

/// The engine of `name` on the kernels of the compiled degenerate Lagrangian `problem`.
fn engine_on_compiled<P: DegenerateLagrangian<D>, const D: usize>(
    bencher: Bencher,
    name: &str,
    problem: &P,
    q: &Vector<D>,
    p: &Vector<D>,
) {
    engine_steps(
        bencher,
        name,
        &engine::Degenerate(problem),
        (q.as_slice(), p.as_slice()),
        Backend::Interpreter,
    );
}

/// `(q₀, p₀)` and the first step's guess: the velocity `v(q₀)` in every velocity stage.
fn data<M: StageMethod<LotkaVolterra2d, 2>>(
    n: usize,
) -> (LotkaVolterra2d, Vector<2>, Vector<2>, Vec<f64>) {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q, p) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let v = M::Kind::velocity(&lv, &q, &p).unwrap_or_else(Vector::zeros);
    let mut x = vec![0.0; n];
    for (b, block) in M::UNKNOWNS.blocks.iter().enumerate() {
        if block.role == Role::Velocity {
            for stage in 0..block.stages {
                M::UNKNOWNS.set::<2>(&mut x, M::DIMS, b, stage, &v);
            }
        }
    }
    (lv, q, p, x)
}

/// The benchmarks of one method `$method` with `$n` unknowns on D = 2, in module `$module`.
macro_rules! pair {
    ($module:ident, $method:ident, $n:literal) => {
        mod $module {
            use super::*;
            use sparkgen::generated::steppers::$method as M;

            fn engine() -> Engine {
                Engine::catalogue(stringify!($method), Dims::uniform(2)).expect("in catalogue")
            }

            #[divan::bench]
            fn residual_compiled(bencher: Bencher) {
                let (lv, q, p, x) = data::<M>($n);
                let mut r = [0.0; $n];
                bencher.bench_local(|| {
                    M::residual(&lv, H, &q, &p, &[], divan::black_box(&x), &mut r);
                    divan::black_box(&r);
                });
            }

            #[divan::bench]
            fn residual_engine(bencher: Bencher) {
                let (lv, q, p, x) = data::<M>($n);
                let (engine, problem) = (engine(), engine::Degenerate(&lv));
                let mut ws = engine.workspace();
                let mut r = [0.0; $n];
                bencher.bench_local(|| {
                    let x = divan::black_box(&x);
                    let step = Step {
                        h: H,
                        q: q.as_slice(),
                        p: p.as_slice(),
                        lambda: &[],
                        x,
                    };
                    engine.residual(&mut ws, &problem, &step, &mut r);
                    divan::black_box(&r);
                });
            }

            #[divan::bench]
            fn jacobian_compiled(bencher: Bencher) {
                let (lv, q, p, x) = data::<M>($n);
                let mut j = [[0.0; $n]; $n];
                bencher.bench_local(|| {
                    M::jacobian(
                        &lv,
                        H,
                        &q,
                        &p,
                        &[],
                        divan::black_box(&x),
                        &mut RowMajor::of(&mut j),
                    );
                    divan::black_box(&j);
                });
            }

            #[divan::bench]
            fn jacobian_engine(bencher: Bencher) {
                let (lv, q, p, x) = data::<M>($n);
                let (engine, problem) = (engine(), engine::Degenerate(&lv));
                let mut ws = engine.workspace();
                let mut j = [0.0; $n * $n];
                bencher.bench_local(|| {
                    let x = divan::black_box(&x);
                    let step = Step {
                        h: H,
                        q: q.as_slice(),
                        p: p.as_slice(),
                        lambda: &[],
                        x,
                    };
                    engine.jacobian(&mut ws, &problem, &step, &mut j);
                    divan::black_box(&j);
                });
            }

            #[divan::bench]
            fn newton_compiled(bencher: Bencher) {
                let (lv, q, p, guess) = data::<M>($n);
                let space = Dynamic::new($n).expect("small");
                let mut newton = Newton::new_in(space, NewtonOptions::default());
                let tangent = RefCell::new(Tangent::zero($n, 2));
                let system = StageSystem::<M, _, 2>::new(&lv, (H, q, p), &[], space, &tangent);
                let mut x = vec![0.0; $n];
                bencher.bench_local(|| {
                    x.copy_from_slice(&guess);
                    divan::black_box(newton.solve(&system, &mut x).is_ok());
                });
            }

            #[divan::bench]
            fn newton_engine(bencher: Bencher) {
                let (lv, q, p, guess) = data::<M>($n);
                let (engine, problem) = (engine(), engine::Degenerate(&lv));
                let space = Dynamic::new($n).expect("small");
                let mut newton = Newton::new_in(space, NewtonOptions::default());
                let scratch = RefCell::new(Scratch::new(&engine));
                let (qs, ps) = (q.as_slice(), p.as_slice());
                let system =
                    StageEquations::new(&engine, &problem, space, H, qs, ps, &[], &scratch);
                let mut x = vec![0.0; $n];
                bencher.bench_local(|| {
                    x.copy_from_slice(&guess);
                    divan::black_box(newton.solve(&system, &mut x).is_ok());
                });
            }

            #[divan::bench]
            fn step_compiled(bencher: Bencher) {
                let (lv, q, p, _) = data::<M>($n);
                let equations = Compiled::<M, _, 2>::sized(&lv).expect("small");
                steps(bencher, equations, q.as_slice(), p.as_slice());
            }

            #[divan::bench]
            fn step_engine(bencher: Bencher) {
                let (lv, q, p, _) = data::<M>($n);
                engine_on_compiled(bencher, stringify!($method), &lv, &q, &p);
            }

            #[divan::bench]
            fn step_engine_file(bencher: Bencher) {
                let (_, q, p, _) = data::<M>($n);
                let problem = file("lotka_volterra.toml");
                let state = (q.as_slice(), p.as_slice());
                engine_steps(
                    bencher,
                    stringify!($method),
                    &problem,
                    state,
                    Backend::Interpreter,
                );
            }

            #[divan::bench]
            fn step_jit_file(bencher: Bencher) {
                let (_, q, p, _) = data::<M>($n);
                let problem = file("lotka_volterra.toml");
                let state = (q.as_slice(), p.as_slice());
                engine_steps(bencher, stringify!($method), &problem, state, Backend::Jit);
            }
        }
    };
}

/// Steps of `name` on the shipped file `path` from its initial state with `backend`.
fn shipped_file(bencher: Bencher, path: &str, name: &str, backend: Backend) {
    let problem = file(path);
    let (q, p) = problem.initial();
    engine_steps(bencher, name, &problem, (&q, &p), backend);
}

/// One step of `$method` on a problem given as a derive (`$problem` of `$d` coordinates, from
/// `$q0`) and as the shipped file `$file`: compiled, by the engine on the compiled problem's
/// kernels, and by the engine on the file, interpreted and as machine code.
macro_rules! derive_and_file {
    ($module:ident, $method:ident, $d:literal, $problem:expr, $q0:expr, $file:literal) => {
        mod $module {
            use super::*;
            use sparkgen::generated::steppers::$method as M;

            #[divan::bench]
            fn step_compiled(bencher: Bencher) {
                let problem = $problem;
                let (q, p) = problem.initial($q0);
                let equations = Compiled::<M, _, $d>::sized(&problem).expect("small");
                steps(bencher, equations, q.as_slice(), p.as_slice());
            }

            #[divan::bench]
            fn step_engine(bencher: Bencher) {
                let problem = $problem;
                let (q, p) = problem.initial($q0);
                engine_on_compiled(bencher, stringify!($method), &problem, &q, &p);
            }

            #[divan::bench]
            fn step_engine_file(bencher: Bencher) {
                shipped_file(bencher, $file, stringify!($method), Backend::Interpreter);
            }

            #[divan::bench]
            fn step_jit_file(bencher: Bencher) {
                shipped_file(bencher, $file, stringify!($method), Backend::Jit);
            }
        }
    };
}

pair!(slrk_lobatto_iiie3, SlrkLobattoIIIE3, 14);
pair!(vprk_gauss3, VprkGauss3, 6);
/// One step of `$method` on the guiding centre (D = 4).
macro_rules! guiding_centre {
    ($module:ident, $method:ident) => {
        derive_and_file!(
            $module,
            $method,
            4,
            GuidingCentre::SCREW_PINCH,
            GuidingCentre::SCREW_PINCH_Q0,
            "guiding_centre.toml"
        );
    };
}

/// One step of `$method` on the Penning trap (D = 6).
macro_rules! penning_trap {
    ($module:ident, $method:ident) => {
        derive_and_file!(
            $module,
            $method,
            6,
            PenningTrap::EXAMPLE,
            PenningTrap::EXAMPLE_Q0,
            "penning_trap.toml"
        );
    };
}

guiding_centre!(guiding_centre_slrk_lobatto_iiie3, SlrkLobattoIIIE3);
guiding_centre!(guiding_centre_vprk_gauss3, VprkGauss3);
guiding_centre!(
    guiding_centre_vspark_primary_glrkp_midpoint4,
    VsparkPrimaryGlrkpMidpoint4
);
penning_trap!(penning_trap_slrk_lobatto_iiie3, SlrkLobattoIIIE3);
penning_trap!(penning_trap_vprk_gauss3, VprkGauss3);
penning_trap!(
    penning_trap_vspark_primary_glrkp_midpoint4,
    VsparkPrimaryGlrkpMidpoint4
);

/// `file:method` pairs whose compilation `compile_jit` times.
const COMPILED: [&str; 36] = [
    "lotka_volterra.toml:SlrkLobattoIIIE2",
    "lotka_volterra.toml:SlrkLobattoIIIE3",
    "lotka_volterra.toml:SlrkLobattoIIIE4",
    "lotka_volterra.toml:VprkGauss2",
    "lotka_volterra.toml:VprkGauss3",
    "lotka_volterra.toml:VprkGauss4",
    "lotka_volterra.toml:VsparkPrimaryGlrkpMidpoint2",
    "lotka_volterra.toml:VsparkPrimaryGlrkpMidpoint3",
    "lotka_volterra.toml:VsparkPrimaryGlrkpMidpoint4",
    "guiding_centre.toml:SlrkLobattoIIIE2",
    "guiding_centre.toml:SlrkLobattoIIIE3",
    "guiding_centre.toml:SlrkLobattoIIIE4",
    "guiding_centre.toml:VprkGauss2",
    "guiding_centre.toml:VprkGauss3",
    "guiding_centre.toml:VprkGauss4",
    "guiding_centre.toml:VsparkPrimaryGlrkpMidpoint2",
    "guiding_centre.toml:VsparkPrimaryGlrkpMidpoint3",
    "guiding_centre.toml:VsparkPrimaryGlrkpMidpoint4",
    "penning_trap.toml:SlrkLobattoIIIE2",
    "penning_trap.toml:SlrkLobattoIIIE3",
    "penning_trap.toml:SlrkLobattoIIIE4",
    "penning_trap.toml:VprkGauss2",
    "penning_trap.toml:VprkGauss3",
    "penning_trap.toml:VprkGauss4",
    "penning_trap.toml:VsparkPrimaryGlrkpMidpoint2",
    "penning_trap.toml:VsparkPrimaryGlrkpMidpoint3",
    "penning_trap.toml:VsparkPrimaryGlrkpMidpoint4",
    "point_vortices.toml:SlrkLobattoIIIE2",
    "point_vortices.toml:SlrkLobattoIIIE3",
    "point_vortices.toml:SlrkLobattoIIIE4",
    "point_vortices.toml:VprkGauss2",
    "point_vortices.toml:VprkGauss3",
    "point_vortices.toml:VprkGauss4",
    "point_vortices.toml:VsparkPrimaryGlrkpMidpoint2",
    "point_vortices.toml:VsparkPrimaryGlrkpMidpoint3",
    "point_vortices.toml:VsparkPrimaryGlrkpMidpoint4",
];

/// Lowering and compiling the stage functions of a method on a shipped file, as a stepper on
/// it is made ([`Stepping::new`]) from an engine that has compiled nothing yet.
#[divan::bench(args = COMPILED, sample_count = 5, sample_size = 1)]
fn compile_jit(bencher: Bencher, pair: &str) {
    let (name, method) = pair.split_once(':').expect("file:method");
    let problem = file(name);
    bencher
        .with_inputs(|| {
            let description = engine::catalogue_method(method).expect("in catalogue");
            Engine::new(&description, problem.dims()).expect("compiles")
        })
        .bench_local_values(|engine| {
            let stepping = Stepping::new(&engine, &problem).expect("the problem fits");
            assert_eq!(stepping.backend(), Backend::Jit, "{pair}");
            stepping.compile_seconds()
        });
}

fn main() {
    divan::main();
}
