//! The one `solve` (stage storage sized once per run, `N` not written) against the fixed-size
//! path (`integrate::<M, P, D, N>`, arrays of the compile-time `N`) on the same runs: `STEPS`
//! steps of Lotka–Volterra (upstream defaults, h = 0.1) per sample, so divan's item throughput
//! is steps per second and the ratio of the two rows is the cost of run-time sizes. Both give the
//! same trajectory bit for bit (`tests/solve.rs`).
//! Smoke mode: `cargo test --benches -p sparkgen` runs every benchmark once.
use divan::Bencher;
use divan::counter::ItemsCount;
use sparkgen::generated::steppers::{
    SlrkLobattoIIIE3, SparkGlrk2, VprkGauss3, VsparkPrimaryGlrkpMidpoint3,
};
use sparkgen::integrate::{Options, integrate};
use sparkgen::layout::Dims;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::stage::StageMethod;

/// Steps per sample.
const STEPS: usize = 100;
const LV: LotkaVolterra2d = LotkaVolterra2d::UPSTREAM;

/// `fixed` and `sized` benchmarks of `$method` with `$n` unknowns, in a module `$name`.
macro_rules! compare {
    ($($name:ident: $method:ident),* $(,)?) => {$(
        mod $name {
            use super::*;
            const N: usize = $method::UNKNOWN_LAYOUT.len(Dims::uniform(2));

            #[divan::bench]
            fn fixed(bencher: Bencher) {
                let (q0, p0) = LV.initial(LotkaVolterra2d::UPSTREAM_Q0);
                let options = Options::new(0.1, STEPS);
                bencher.counter(ItemsCount::new(STEPS)).bench_local(|| {
                    divan::black_box(integrate::<$method, _, 2, N>(&LV, q0, p0, &options).is_ok())
                });
            }

            #[divan::bench]
            fn sized(bencher: Bencher) {
                let (q0, p0) = LV.initial(LotkaVolterra2d::UPSTREAM_Q0);
                let options = Options::new(0.1, STEPS);
                bencher.counter(ItemsCount::new(STEPS)).bench_local(|| {
                    divan::black_box(solve(&LV, $method, q0, p0, &options).is_ok())
                });
            }
        }
    )*};
}

compare!(
    slrk_lobatto_iiie3: SlrkLobattoIIIE3,
    spark_glrk2: SparkGlrk2,
    vprk_gauss3: VprkGauss3,
    vspark_primary_glrkp_midpoint3: VsparkPrimaryGlrkpMidpoint3,
);

/// Panics unless `method` converges on the benchmark's run (else its timing is not per step).
fn converges<M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct>>(method: M) {
    let (q0, p0) = LV.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let run = solve(&LV, method, q0, p0, &Options::new(0.1, STEPS));
    assert!(run.is_ok(), "{} fails on the benchmark's run", M::NAME);
}

fn main() {
    converges(SlrkLobattoIIIE3);
    converges(SparkGlrk2);
    converges(VprkGauss3);
    converges(VsparkPrimaryGlrkpMidpoint3);
    divan::main();
}
