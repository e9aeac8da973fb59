//! Zero heap allocation per step: a counting global allocator shows that the number of
//! allocations of a run does not depend on its number of steps (the solution is allocated once,
//! before the step loop).
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

use sparkgen::generated::steppers::{SlrkLobattoIIIE3, VprkGauss2};
use sparkgen::integrate::{Options, integrate};
use sparkgen::problems::LotkaVolterra2d;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Allocations (and reallocations) during one run of `steps` steps.
fn allocations(steps: usize, slrk: bool) -> (usize, usize) {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let options = Options::new(0.1, steps);
    let region = Region::new(GLOBAL);
    let completed = if slrk {
        integrate::<SlrkLobattoIIIE3, _, 2, 14>(&lv, q0, p0, &options).map(|s| s.steps())
    } else {
        integrate::<VprkGauss2, _, 2, 4>(&lv, q0, p0, &options).map(|s| s.steps())
    };
    let change = region.change();
    assert_eq!(completed.ok(), Some(steps));
    (change.allocations, change.reallocations)
}

#[test]
fn allocation_count_does_not_depend_on_the_number_of_steps() {
    for slrk in [true, false] {
        // The counting allocator sees every thread, the test harness's too (its start-up
        // allocations can land in the first measured region): a discarded run settles them.
        allocations(10, slrk);
        let (short, long) = (allocations(10, slrk), allocations(1000, slrk));
        println!(
            "SLRK: {slrk}: (allocations, reallocations) for 10 steps {short:?}, for 1000 steps {long:?}"
        );
        assert_eq!(short, long);
        assert!(
            short.0 <= 4,
            "only the solution's vectors are allocated: {short:?}"
        );
    }
}
