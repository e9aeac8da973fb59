//! Cost of a RATTLE step on the dynamic-size path (`DistanceConstraints`) for planar chains of
//! N links hanging from a pivot, and against the fixed-size path on the derived chains of 3
//! and 5 links: `cargo bench -p sparkgen --bench distance_chain`.
//!
//! Every chain has unit masses, unit links and g = 1, h = 2·10⁻³ (the fastest mode has
//! `ω ≲ 2√N`, so `hω ≤ 0.13` up to N = 1024 and the Newton iteration counts are alike). A
//! sample of the N-link chain integrates `25600/N` steps, so that every sample takes about as
//! long (equally exposed to other load on the machine); divan's item throughput is steps per
//! second (ns per step = 10⁹ / items·s⁻¹). The mean Newton iterations per step are printed
//! first.
//! Smoke mode: `cargo test --benches -p sparkgen`.
use divan::Bencher;
use divan::counter::ItemsCount;
use nalgebra::DVector;
use sparkgen::holonomic::distance::{
    DistanceConstraints, DistanceRattle, Gravity, planar_chain, planar_chain_state,
};
use sparkgen::holonomic::problems::{Chain3, Chain5};
use sparkgen::holonomic::{MultiplierNewton, RattleStepper, Tolerances};
use sparkgen::problem::Vector;
#[path = "support/chain_shape.rs"]
mod chain_shape;
use chain_shape::links;

const H: f64 = 2e-3;

/// Steps per sample for an `n`-link chain.
fn steps_for(n: usize) -> usize {
    (25_600 / n).max(1)
}

fn chain(n: usize) -> (DistanceConstraints<Gravity>, DVector<f64>, DVector<f64>) {
    let chain = planar_chain(n, 1.0, 1.0, 1.0).expect("valid chain");
    let (q, p) = planar_chain_state(1.0, 1.0, &links(n));
    (chain, q, p)
}

fn tolerances(newton: MultiplierNewton) -> Tolerances {
    Tolerances {
        newton,
        ..Tolerances::default()
    }
}

/// `steps` dynamic steps from `(q, p)`; returns the Newton iterations.
fn run_dynamic(
    rattle: &mut DistanceRattle<'_, Gravity>,
    q: &mut DVector<f64>,
    p: &mut DVector<f64>,
    steps: usize,
) -> usize {
    (0..steps)
        .map(|_| rattle.step(q, p).expect("the chain steps").iterations)
        .sum()
}

/// Bench of the dynamic steps of an `n`-link chain with the given Newton variant.
fn bench_dynamic(bencher: Bencher, n: usize, newton: MultiplierNewton) {
    let (chain, mut q, mut p) = chain(n);
    let mut rattle = DistanceRattle::new(&chain, H, tolerances(newton)).expect("valid options");
    // Warm up: the first frame's cold-start conditioning estimate is not part of a step's cost.
    run_dynamic(&mut rattle, &mut q, &mut p, 2);
    let steps = steps_for(n);
    bencher
        .counter(ItemsCount::new(steps))
        .with_inputs(|| (rattle.clone(), q.clone(), p.clone()))
        .bench_local_refs(|(rattle, q, p)| run_dynamic(rattle, q, p, steps));
}

#[divan::bench(args = [16, 64, 256, 1024])]
fn dynamic_simplified(bencher: Bencher, n: usize) {
    bench_dynamic(bencher, n, MultiplierNewton::Simplified);
}

#[divan::bench(args = [16, 64, 256, 1024])]
fn dynamic_exact(bencher: Bencher, n: usize) {
    bench_dynamic(bencher, n, MultiplierNewton::Exact);
}

#[divan::bench(args = [3, 5])]
fn small_dynamic(bencher: Bencher, n: usize) {
    bench_dynamic(bencher, n, MultiplierNewton::Simplified);
}

/// Bench of the fixed-size steps of the `M`-link chain `problem` from `(q, p)`.
fn bench_fixed<P, const D: usize, const M: usize>(
    bencher: Bencher,
    problem: &P,
    q: Vector<D>,
    p: Vector<D>,
    newton: MultiplierNewton,
) where
    P: sparkgen::problem::HolonomicSystem<D, M> + Clone,
{
    let mut rattle = RattleStepper::new(problem, H, tolerances(newton)).expect("valid options");
    // Warm up as the dynamic path does (the frame of the current position is cached).
    let (mut q, mut p) = (q, p);
    for _ in 0..2 {
        let s = rattle.step(&q, &p).expect("the chain steps");
        (q, p) = (s.q, s.p);
    }
    let steps = steps_for(M);
    bencher
        .counter(ItemsCount::new(steps))
        .with_inputs(|| (rattle.clone(), q, p))
        .bench_local_refs(|(rattle, q, p)| {
            (0..steps)
                .map(|_| {
                    let s = rattle.step(q, p).expect("the chain steps");
                    (*q, *p) = (s.q, s.p);
                    s.iterations
                })
                .sum::<usize>()
        });
}

/// A bench of the fixed-size path on the derived chain `$chain` of `$n` links.
macro_rules! fixed {
    ($name:ident, $chain:ident, $n:literal) => {
        #[divan::bench(args = [MultiplierNewton::Simplified, MultiplierNewton::Exact])]
        fn $name(bencher: Bencher, newton: MultiplierNewton) {
            let chain = $chain {
                m: 1.0,
                g: 1.0,
                l: 1.0,
            };
            let links: [(f64, f64); $n] = links($n).try_into().expect("$n links");
            let (q, p) = chain.state(&links);
            bench_fixed(bencher, &chain, q, p, newton);
        }
    };
}

fixed!(small_fixed_3, Chain3, 3);
fixed!(small_fixed_5, Chain5, 5);

fn main() {
    for n in [3, 5, 16, 64, 256, 1024] {
        for newton in [MultiplierNewton::Simplified, MultiplierNewton::Exact] {
            let (chain, mut q, mut p) = chain(n);
            let mut rattle = DistanceRattle::new(&chain, H, tolerances(newton)).expect("valid");
            let steps = steps_for(n);
            let iterations = run_dynamic(&mut rattle, &mut q, &mut p, steps);
            println!(
                "{n} links, {newton:?} Newton: {:.2} iterations per step",
                iterations as f64 / steps as f64
            );
        }
    }
    divan::main();
}
