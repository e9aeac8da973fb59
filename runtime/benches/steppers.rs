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
use sparkgen::integrate::{Options, integrate};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solution::Failure;
use sparkgen::solve::Lu;
use sparkgen::stage::StageMethod;

/// Steps per sample.
const STEPS: usize = 100;

/// A stepper with its number of unknowns bound: runs `STEPS` steps and returns the total Newton
/// iterations, or the failure (the timing of a failing stepper is then not per step).
trait Run: StageMethod<LotkaVolterra2d, 2> {
    /// The number of unknowns.
    const N: usize;
    fn run(lv: &LotkaVolterra2d) -> Result<usize, Box<Failure<2>>>;
}

/// Implements [`Run`] for each stepper and defines `print_iterations`, which prints the Newton
/// iterations per step of each.
macro_rules! run {
    ($($method:ident $n:literal),* $(,)?) => {
        $(impl Run for $method {
            const N: usize = $n;
            fn run(lv: &LotkaVolterra2d) -> Result<usize, Box<Failure<2>>> {
                let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
                integrate::<$method, _, 2, $n>(lv, q0, p0, &Options::new(0.1, STEPS))
                    .map(|s| s.stats.iter().map(|s| s.iterations).sum())
            }
        })*

        fn print_iterations() {
            $(iterations::<$method>();)*
        }
    };
}

run!(
    SlrkLobattoIIIAB2 10, SlrkLobattoIIIAB3 14, SlrkLobattoIIIAB4 18, SlrkLobattoIIIAB5 22,
    SlrkLobattoIIIBA2 10, SlrkLobattoIIIBA3 14, SlrkLobattoIIIBA4 18, SlrkLobattoIIIBA5 22,
    SlrkLobattoIIICCBar2 10, SlrkLobattoIIICCBar3 14, SlrkLobattoIIICCBar4 18, SlrkLobattoIIICCBar5 22,
    SlrkLobattoIIICBarC2 10, SlrkLobattoIIICBarC3 14, SlrkLobattoIIICBarC4 18, SlrkLobattoIIICBarC5 22,
    SlrkLobattoIIID2 10, SlrkLobattoIIID3 14, SlrkLobattoIIID4 18, SlrkLobattoIIID5 22,
    SlrkLobattoIIIE2 10, SlrkLobattoIIIE3 14, SlrkLobattoIIIE4 18, SlrkLobattoIIIE5 22,
    VprkGauss1 2, VprkGauss2 4, VprkGauss3 6, VprkGauss4 8,
    VprkLobattoIIIAIIIB2 6, VprkLobattoIIIAIIIB3 8, VprkLobattoIIIAIIIB4 10,
    VprkLobattoIIIBIIIA2 6, VprkLobattoIIIBIIIA3 8, VprkLobattoIIIBIIIA4 10,
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
fn step<M: Run>(bencher: Bencher) {
    let lv = LotkaVolterra2d::UPSTREAM;
    bencher
        .counter(ItemsCount::new(STEPS))
        .bench(|| M::run(divan::black_box(&lv)));
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
fn iterations<M: Run>() {
    let lv = LotkaVolterra2d::UPSTREAM;
    match M::run(&lv) {
        Ok(total) => println!(
            "{:22} N = {:2}  Newton its/step = {:.2}",
            M::NAME,
            M::N,
            total as f64 / STEPS as f64
        ),
        Err(failure) => println!(
            "{:22} N = {:2}  FAILED after {} steps: {}",
            M::NAME,
            M::N,
            failure.solution.steps(),
            failure.error
        ),
    }
}

fn main() {
    print_iterations();
    divan::main();
}
