//! Cost of a step of every generated stepper on Lotka–Volterra (upstream defaults, h = 0.1), and
//! of the LU factorisation of the same size: `cargo bench -p sparkgen`.
//!
//! `step` integrates `STEPS` steps per sample, so divan's item throughput is steps per second
//! (ns per step = 10⁹ / items·s⁻¹). The mean Newton iterations per step are printed before the
//! benchmarks; with the default simplified Newton a step factors its Jacobian once (unless the
//! contraction is poor), so the LU's share of a step is about `lu_factor(N) / step`; the
//! per-part breakdown is `benches/floor.rs`.
//! Smoke mode: `cargo test --benches -p sparkgen` runs every benchmark once.
use divan::Bencher;
use divan::counter::ItemsCount;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::Failure;
use sparkgen::solve;
use sparkgen::solve::Lu;
use sparkgen::stage::StageMethod;

/// Steps per sample.
const STEPS: usize = 100;

/// `STEPS` steps of `M`: the total Newton iterations, or the failure (the timing of a failing
/// stepper is then not per step).
fn run<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default>(
    lv: &LotkaVolterra2d,
) -> Result<usize, Box<Failure<2>>> {
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    solve(lv, M::default(), q0, p0, &Options::new(0.1, STEPS))
        .map(|s| s.stats.iter().map(|s| s.iterations).sum())
}

/// Defines `print_iterations`, which prints the Newton iterations per step of each stepper.
macro_rules! print_iterations {
    ($($method:ident),* $(,)?) => {
        fn print_iterations() {
            $(iterations::<$method>();)*
        }
    };
}

print_iterations!(
    SlrkLobattoIIIAB2,
    SlrkLobattoIIIAB3,
    SlrkLobattoIIIAB4,
    SlrkLobattoIIIAB5,
    SlrkLobattoIIIBA2,
    SlrkLobattoIIIBA3,
    SlrkLobattoIIIBA4,
    SlrkLobattoIIIBA5,
    SlrkLobattoIIICCBar2,
    SlrkLobattoIIICCBar3,
    SlrkLobattoIIICCBar4,
    SlrkLobattoIIICCBar5,
    SlrkLobattoIIICBarC2,
    SlrkLobattoIIICBarC3,
    SlrkLobattoIIICBarC4,
    SlrkLobattoIIICBarC5,
    SlrkLobattoIIID2,
    SlrkLobattoIIID3,
    SlrkLobattoIIID4,
    SlrkLobattoIIID5,
    SlrkLobattoIIIE2,
    SlrkLobattoIIIE3,
    SlrkLobattoIIIE4,
    SlrkLobattoIIIE5,
    VprkGauss1,
    VprkGauss2,
    VprkGauss3,
    VprkGauss4,
    VprkLobattoIIIAIIIB2,
    VprkLobattoIIIAIIIB3,
    VprkLobattoIIIAIIIB4,
    VprkLobattoIIIBIIIA2,
    VprkLobattoIIIBIIIA3,
    VprkLobattoIIIBIIIA4,
);

#[divan::bench(types = [
    SlrkLobattoIIIAB2, SlrkLobattoIIIAB3, SlrkLobattoIIIAB4, SlrkLobattoIIIAB5,
    SlrkLobattoIIIBA2, SlrkLobattoIIIBA3, SlrkLobattoIIIBA4, SlrkLobattoIIIBA5,
    SlrkLobattoIIICCBar2, SlrkLobattoIIICCBar3, SlrkLobattoIIICCBar4, SlrkLobattoIIICCBar5,
    SlrkLobattoIIICBarC2, SlrkLobattoIIICBarC3, SlrkLobattoIIICBarC4, SlrkLobattoIIICBarC5,
    SlrkLobattoIIID2, SlrkLobattoIIID3, SlrkLobattoIIID4, SlrkLobattoIIID5,
    SlrkLobattoIIIE2, SlrkLobattoIIIE3, SlrkLobattoIIIE4, SlrkLobattoIIIE5,
    VprkGauss1, VprkGauss2, VprkGauss3, VprkGauss4,
    VprkLobattoIIIAIIIB2, VprkLobattoIIIAIIIB3, VprkLobattoIIIAIIIB4,
    VprkLobattoIIIBIIIA2, VprkLobattoIIIBIIIA3, VprkLobattoIIIBIIIA4,
])]
fn step<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default>(
    bencher: Bencher,
) {
    let lv = LotkaVolterra2d::UPSTREAM;
    bencher
        .counter(ItemsCount::new(STEPS))
        .bench(|| run::<M>(divan::black_box(&lv)));
}

/// `Lu::factor` of a well-conditioned dense `N × N` matrix, `a_ij = 1/(1 + |i − j|) + N δ_ij`.
#[divan::bench(consts = [2, 4, 6, 8, 10, 14, 18, 22])]
fn lu_factor<const N: usize>(bencher: Bencher) {
    let a: [[f64; N]; N] = std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            1.0 / (1.0 + i.abs_diff(j) as f64) + if i == j { N as f64 } else { 0.0 }
        })
    });
    bencher.bench(|| Lu::factor(divan::black_box(&a)).map(|lu| lu.min_pivot()));
}

/// Prints `name, N, Newton iterations per step` of one run of `M`.
fn iterations<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default>() {
    let lv = LotkaVolterra2d::UPSTREAM;
    let n = M::UNKNOWNS.len(M::DIMS);
    match run::<M>(&lv) {
        Ok(total) => println!(
            "{:22} N = {:2}  Newton its/step = {:.2}",
            M::NAME,
            n,
            total as f64 / STEPS as f64
        ),
        Err(failure) => println!(
            "{:22} N = {:2}  FAILED after {} steps: {}",
            M::NAME,
            n,
            failure.solution.steps(),
            failure.error
        ),
    }
}

fn main() {
    print_iterations();
    divan::main();
}
