//! Zero heap allocation per step: a counting global allocator shows that the number of
//! allocations of a run does not depend on its number of steps (the in-memory solution is
//! allocated once, before the step loop, for up to `PREALLOCATED_POINTS` points; only a longer
//! run grows it).
//!
//! A problem file's problem (evaluated by its tapes, whose registers are a per-thread buffer that
//! grows on the first step) is measured after a one-step run, so "after the first step". The
//! run-time engine (`sparkgen::engine`, the same driver on vectors sized at run time) allocates
//! its program's workspace and Newton's storage when a run starts, and nothing per step, the
//! energy and constraint residual it measures at every point included; so does `solve`, whose
//! stage storage is sized from the method's layout when a run starts (the holonomic stage method
//! here, with its Gram-matrix check at every step). A run written to a
//! thinned `.npy` file allocates the file's header, row and buffer once, nothing per point.
//!
//! A test without the libtest harness (`harness = false`): the counting allocator sees every
//! thread, and the harness's own threads allocate at times of their choosing.
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

use sparkgen::engine::{self, DaeForm, DaeView, Engine, Kernels, Stepping, Work};
use sparkgen::generated::steppers::{
    RattleLobattoIIIAIIIB3, SlrkLobattoIIIE3, SparkGlrk1, VprkGauss2,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::{Options, run_into};
use sparkgen::observers::Every;
use sparkgen::output::{Format, TrajectoryFile};
use sparkgen::problem::Vector;
use sparkgen::problem_file::{
    DegenerateLagrangianFile, HolonomicFile, LagrangianFile, ProblemFile,
};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solution::{Observer, Point};
use sparkgen::solve;
use std::convert::Infallible;
use std::num::NonZeroUsize;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The steppers measured.
#[derive(Clone, Copy, Debug)]
enum Stepper {
    Slrk,
    Vprk,
    RattleLobatto,
    /// SLRK on Lotka–Volterra read from its problem file.
    SlrkFile,
    /// The engine's SLRK Lobatto IIIE(3) on the compiled Lotka–Volterra.
    EngineSlrk,
    /// The engine's VPRK Gauss(3) on the guiding-centre problem file (D = 4).
    EngineFile,
    /// The engine's Lobatto IIIA–IIIB RATTLE(3) on the pendulum's problem file, whose guess
    /// evaluates the momentum rate at every step.
    EngineHolonomicFile,
    /// The engine's VPARK Lobatto IIIB–IIIA(3), which carries a multiplier whose defect the
    /// driver watches at every step, on the guiding-centre file's view as an implicit DAE.
    EngineLagrangianDaeFile,
    /// The engine's HSPARK GLRK(2) on the guiding-centre file's Dirac view.
    EngineDiracFile,
    /// VPRK Gauss(2) on Lotka–Volterra written to a `.npy` trajectory file, every tenth point
    /// and the last ([`Every`] of a [`TrajectoryFile`]).
    ThinnedNpy,
    /// The engine's VPARK GLRK(2) on the Kepler file, whose velocity guess and energy are
    /// inverse Legendre transforms (Newton's method) at every step and point.
    EngineLagrangianFile,
}

/// Counts the points of a run and measures, as the command line does, the energy and the
/// constraint residual of each (into the work storage allocated once).
struct Measure<'k, K> {
    problem: &'k K,
    work: Work,
    count: usize,
    energy: f64,
}

impl<K: Kernels> Observer for Measure<'_, K> {
    type Error = Infallible;
    fn observe(&mut self, point: &Point<'_>) -> Result<(), Infallible> {
        let (q, p) = (point.q, point.p);
        let energy = self
            .problem
            .energy(q, p, &mut self.work)
            .unwrap_or(f64::NAN);
        self.energy = energy + self.problem.constraint(q, p, &mut self.work);
        self.count = point.step;
        Ok(())
    }
}

/// `steps` steps of the catalogue method `name` run by the engine on `problem` from `(q₀, p₀)`,
/// measured at every point.
fn engine_run<K: Kernels>(
    name: &str,
    problem: &K,
    q0: &[f64],
    p0: &[f64],
    steps: usize,
) -> Result<usize, ()> {
    let engine = Engine::catalogue(name, problem.dims()).map_err(|_| ())?;
    let stepping = Stepping::new(&engine, problem).map_err(|_| ())?;
    let work = Work::new(problem.dims()).ok_or(())?;
    let mut measure = Measure {
        problem,
        work,
        count: 0,
        energy: f64::NAN,
    };
    run_into(stepping, q0, p0, &Options::new(0.1, steps), &mut measure).map_err(|_| ())?;
    // Every kind measured here has an energy.
    if measure.energy.is_finite() {
        Ok(measure.count)
    } else {
        Err(())
    }
}

/// A run of VPRK Gauss(2) on `lv` into a `.npy` file at `path`, every tenth point and the
/// last, by the one `solve` (stage storage sized at run time); the number of steps taken.
fn thinned_npy(
    lv: &LotkaVolterra2d,
    (q0, p0): (Vector<2>, Vector<2>),
    options: &Options,
    path: &std::path::Path,
) -> Result<usize, ()> {
    let every = NonZeroUsize::new(10).ok_or(())?;
    let file = TrajectoryFile::create(path, Format::Npy, 2).map_err(|_| ())?;
    let mut file = Every::new(file, every);
    sparkgen::solve_into(lv, VprkGauss2, q0, p0, options, &mut file).map_err(|_| ())?;
    file.finish()
        .and_then(TrajectoryFile::finish)
        .map_err(|_| ())?;
    Ok(options.steps)
}

/// The guiding-centre example file.
fn guiding_centre_file() -> DegenerateLagrangianFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/guiding_centre.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        other => panic!("the example file states a degenerate Lagrangian: {other:?}"),
    }
}

/// The shipped pendulum problem file.
fn pendulum_file() -> HolonomicFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/pendulum.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::Holonomic(file)) => file,
        other => panic!("the example file states a holonomic system: {other:?}"),
    }
}

/// The shipped Kepler problem file (a general Lagrangian).
fn kepler_file() -> LagrangianFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/kepler.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::Lagrangian(file)) => file,
        other => panic!("the example file states a Lagrangian: {other:?}"),
    }
}

/// The shipped Lotka–Volterra problem file.
fn lotka_volterra_file() -> DegenerateLagrangianFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/lotka_volterra.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        other => panic!("the example file states a degenerate Lagrangian: {other:?}"),
    }
}

/// `steps` steps of SPARK GLRK(1) (h = 0.01) on Lotka–Volterra written to a `.npy` file every
/// `every`-th point and the last: the allocations and reallocations of the run, and the file's
/// header.
fn thinned_run(steps: usize, every: usize) -> ((usize, usize), String) {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let path = std::env::temp_dir().join(format!("sparkgen-thinned-{}.npy", std::process::id()));
    let options = Options::new(0.01, steps);
    let every = NonZeroUsize::new(every).expect("positive");
    let region = Region::new(GLOBAL);
    let file = TrajectoryFile::create(&path, Format::Npy, 2).expect("a writable file");
    let mut file = Every::new(file, every);
    sparkgen::solve_into(&lv, SparkGlrk1, q0, p0, &options, &mut file)
        .unwrap_or_else(|e| panic!("{e:?}"));
    file.finish()
        .and_then(TrajectoryFile::finish)
        .expect("written");
    let change = region.change();
    let bytes = std::fs::read(&path).expect("readable");
    let _ = std::fs::remove_file(&path);
    // The header: magic, version, length, then the dictionary up to its newline.
    let header = bytes.get(10..).unwrap_or_default();
    let end = header
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(header.len());
    let header = String::from_utf8_lossy(&header[..end]).into_owned();
    ((change.allocations, change.reallocations), header)
}

/// Allocations (and reallocations) during one run of `steps` steps.
fn allocations(steps: usize, stepper: Stepper) -> (usize, usize) {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.1, steps);
    let pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let (x0, y0) = pendulum.state(1.0, 0.0);
    let file = lotka_volterra_file();
    let view = file.view::<2>().expect("two coordinates");
    let gc = guiding_centre_file();
    let (gq, gp) = gc.initial();
    let pf = pendulum_file();
    let (pq, pp) = pf.initial();
    let kernels = engine::Degenerate(&lv);
    let jay = DaeView::new(&gc, DaeForm::LagrangianDae).expect("a degenerate Lagrangian");
    let dirac = DaeView::new(&gc, DaeForm::Dirac).expect("a degenerate Lagrangian");
    let kepler = kepler_file();
    // m = 1: p₀ = v₀.
    let (kq, kp) = kepler.initial();
    let npy = std::env::temp_dir().join(format!("sparkgen-allocation-{}.npy", std::process::id()));
    let region = Region::new(GLOBAL);
    let completed = match stepper {
        Stepper::Slrk => solve(&lv, SlrkLobattoIIIE3, q0, p0, &options)
            .map(|s| s.steps())
            .map_err(|_| ()),
        Stepper::Vprk => solve(&lv, VprkGauss2, q0, p0, &options)
            .map(|s| s.steps())
            .map_err(|_| ()),
        Stepper::RattleLobatto => solve(
            &pendulum,
            RattleLobattoIIIAIIIB3::<1>,
            x0,
            y0,
            &Options::new(0.1, steps),
        )
        .map(|s| s.steps())
        .map_err(|_| ()),
        Stepper::SlrkFile => solve(&view, SlrkLobattoIIIE3, q0, p0, &options)
            .map(|s| s.steps())
            .map_err(|_| ()),
        Stepper::EngineSlrk => engine_run(
            "SlrkLobattoIIIE3",
            &kernels,
            q0.as_slice(),
            p0.as_slice(),
            steps,
        ),
        Stepper::EngineFile => engine_run("VprkGauss3", &gc, &gq, &gp, steps),
        Stepper::EngineHolonomicFile => engine_run("RattleLobattoIIIAIIIB3", &pf, pq, pp, steps),
        Stepper::EngineLagrangianDaeFile => engine_run(
            "IdaeVparkLobattoIIIBIIIApSymplectic3",
            &jay,
            &gq,
            &gp,
            steps,
        ),
        Stepper::EngineDiracFile => engine_run("HsparkGlrk2", &dirac, &gq, &gp, steps),
        Stepper::ThinnedNpy => thinned_npy(&lv, (q0, p0), &options, &npy),
        Stepper::EngineLagrangianFile => {
            engine_run("IdaeVparkGlrkpSymplectic2", &kepler, kq, kp, steps)
        }
    };
    let change = region.change();
    let _ = std::fs::remove_file(&npy);
    assert_eq!(completed.ok(), Some(steps), "{stepper:?}");
    (change.allocations, change.reallocations)
}

fn main() {
    for stepper in [
        Stepper::Slrk,
        Stepper::Vprk,
        Stepper::RattleLobatto,
        Stepper::SlrkFile,
        Stepper::EngineSlrk,
        Stepper::EngineFile,
        Stepper::EngineHolonomicFile,
        Stepper::EngineLagrangianDaeFile,
        Stepper::EngineDiracFile,
        Stepper::EngineLagrangianFile,
        Stepper::ThinnedNpy,
    ] {
        let first = allocations(1, stepper);
        let (short, long) = (allocations(10, stepper), allocations(1000, stepper));
        println!(
            "{stepper:?}: (allocations, reallocations) for 1 step first {first:?}, then for 10 \
             steps {short:?}, for 1000 steps {long:?}"
        );
        assert_eq!(short, long, "{stepper:?}");
        if !matches!(
            stepper,
            Stepper::RattleLobatto
                | Stepper::EngineSlrk
                | Stepper::EngineFile
                | Stepper::EngineHolonomicFile
                | Stepper::EngineLagrangianDaeFile
                | Stepper::EngineDiracFile
                | Stepper::EngineLagrangianFile
                | Stepper::ThinnedNpy
        ) {
            // The solution's four vectors, the driver's vectors and the state (6), the stage
            // storage sized once per run: Newton's seven work vectors, the LU's factors, pivots
            // and pivot reciprocals, the unknowns and the eight tangent blocks (19), and the
            // residual and Jacobian of the check of the initial data before the first step (2).
            assert!(
                short.0 <= 6 + 19 + 2,
                "only the solution, the driver's vectors, the state, the stage storage and the initial check are allocated: {short:?}"
            );
        }
    }
    // 10⁶ steps thinned to 10³ points allocate what 10⁴ steps thinned to 10³ points do: nothing
    // per step or per point; the file holds n = 0, 1000, …, 10⁶.
    let (few, few_header) = thinned_run(10_000, 10);
    let (many, many_header) = thinned_run(1_000_000, 1000);
    println!(
        "10⁴ steps every 10th: {few:?} ({few_header}); 10⁶ every 1000th: {many:?} ({many_header})"
    );
    assert_eq!(few, many);
    for header in [&few_header, &many_header] {
        assert!(header.contains("'shape': (1001, "), "{header}");
    }
}
