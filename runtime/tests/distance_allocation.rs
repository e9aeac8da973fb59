//! A step of the dynamic-size RATTLE allocates nothing: all buffers belong to the stepper.
//!
//! A test without the libtest harness (`harness = false`): the counting allocator sees every
//! thread, and the harness's own threads allocate at times of their choosing.
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

use sparkgen::holonomic::distance::{DistanceRattle, planar_chain, planar_chain_state};
use sparkgen::holonomic::{MultiplierNewton, Tolerances};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    let n = 64;
    let chain = planar_chain(n, 1.0, 1.0, 1.0).unwrap();
    let links: Vec<(f64, f64)> = (0..n)
        .map(|k| (0.3 * (k as f64 * 0.1).sin(), 0.1))
        .collect();
    for newton in [MultiplierNewton::Simplified, MultiplierNewton::Exact] {
        let (mut q, mut p) = planar_chain_state(1.0, 1.0, &links);
        let tolerances = Tolerances {
            newton,
            ..Tolerances::default()
        };
        let mut rattle = DistanceRattle::new(&chain, 2e-3, tolerances).unwrap();
        // Warm-up steps first (the first steps size nothing, but keep the measured region to
        // steady state).
        for _ in 0..10 {
            rattle.step(&mut q, &mut p).unwrap();
        }
        let region = Region::new(GLOBAL);
        let mut iterations = 0;
        for _ in 0..200 {
            iterations += rattle.step(&mut q, &mut p).unwrap().iterations;
        }
        let change = region.change();
        println!("{newton:?}: 200 steps, {iterations} Newton iterations, {change:?}");
        assert!(iterations > 0);
        assert_eq!((change.allocations, change.reallocations), (0, 0));
    }
}
