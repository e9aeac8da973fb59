//! Cost of the interpreted path (a problem file evaluated by its compiled tapes) against the
//! compiled path (the derive-generated problem) on Lotka–Volterra (upstream defaults) with
//! SLRK Lobatto IIIE(3): `cargo bench -p sparkgen --bench problem_file`.
//!
//! `residual_and_jacobian` evaluates the stage residual and its exact Jacobian once at the
//! initial guess `V_i = v(q₀)`, multipliers 0; `step` integrates `STEPS` steps of h = 0.1
//! per sample (divan's item throughput is steps per second). The ratio interpreted / compiled of
//! the same benchmark, from one run, is the speed-up of the compiled path.
//! Smoke mode: `cargo test --benches -p sparkgen` runs every benchmark once.
use divan::Bencher;
use divan::counter::ItemsCount;
use sparkgen::generated::steppers::SlrkLobattoIIIE3;
use sparkgen::integrate::{Options, vector_field};
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problem_file::{DegenerateLagrangianFile, ProblemFile};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::rows::RowMajor;
use sparkgen::solve;
use sparkgen::stage::StageMethod;

/// Steps per sample of `step`.
const STEPS: usize = 100;
/// Unknowns of SLRK(3) on D = 2: (2s + 1)·D.
const N: usize = 14;

fn file() -> DegenerateLagrangianFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/lotka_volterra.toml");
    match ProblemFile::read(path) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        Ok(_) => panic!("the example file states a degenerate Lagrangian"),
        Err(error) => panic!("{error}"),
    }
}

/// Residual and Jacobian of one Newton iteration at the initial guess, on `problem`.
fn residual_and_jacobian<P: DegenerateLagrangian<2>>(bencher: Bencher, problem: &P) {
    let (q0, p0) = LotkaVolterra2d::UPSTREAM.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let v0 = vector_field(problem, &q0).expect("Ω(q₀) is regular");
    // Unknowns of SLRK(3): V_1..V_3, then the multipliers Λ_1..Λ_3, μ.
    let mut x = [0.0; N];
    for i in 0..3 {
        x[2 * i..2 * i + 2].copy_from_slice(v0.as_slice());
    }
    bencher.bench_local(|| {
        let mut r = [0.0; N];
        let mut j = [[0.0; N]; N];
        SlrkLobattoIIIE3::residual(problem, 0.1, &q0, &p0, &[], divan::black_box(&x), &mut r);
        SlrkLobattoIIIE3::jacobian(
            problem,
            0.1,
            &q0,
            &p0,
            &[],
            divan::black_box(&x),
            &mut RowMajor::of(&mut j),
        );
        (r, j)
    });
}

#[divan::bench]
fn residual_and_jacobian_compiled(bencher: Bencher) {
    residual_and_jacobian(bencher, &LotkaVolterra2d::UPSTREAM);
}

#[divan::bench]
fn residual_and_jacobian_interpreted(bencher: Bencher) {
    let file = file();
    let view = file.view::<2>().expect("two coordinates");
    residual_and_jacobian(bencher, &view);
}

/// `STEPS` steps on `problem`.
fn step<P: DegenerateLagrangian<2>>(bencher: Bencher, problem: &P) {
    let (q0, p0) = LotkaVolterra2d::UPSTREAM.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.1, STEPS);
    bencher.counter(ItemsCount::new(STEPS)).bench_local(|| {
        solve(
            divan::black_box(problem),
            SlrkLobattoIIIE3,
            q0,
            p0,
            &options,
        )
        .map(|s| s.steps())
        .map_err(|failure| failure.error)
    });
}

#[divan::bench]
fn step_compiled(bencher: Bencher) {
    step(bencher, &LotkaVolterra2d::UPSTREAM);
}

#[divan::bench]
fn step_interpreted(bencher: Bencher) {
    let file = file();
    let view = file.view::<2>().expect("two coordinates");
    step(bencher, &view);
}

fn main() {
    divan::main();
}
