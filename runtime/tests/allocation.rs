//! Zero heap allocation per step: a counting global allocator shows that the number of
//! allocations of a run does not depend on its number of steps (the in-memory solution is
//! allocated once, before the step loop, for up to `PREALLOCATED_POINTS` points; only a longer
//! run grows it).
//!
//! A test without the libtest harness (`harness = false`): the counting allocator sees every
//! thread, and the harness's own threads allocate at times of their choosing.
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

use sparkgen::generated::steppers::{RattleLobattoIIIAIIIB3, SlrkLobattoIIIE3, VprkGauss2};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{HolonomicOptions, integrate_holonomic};
use sparkgen::integrate::{Options, integrate};
use sparkgen::problems::LotkaVolterra2d;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The steppers measured.
#[derive(Clone, Copy, Debug)]
enum Stepper {
    Slrk,
    Vprk,
    RattleLobatto,
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
    let region = Region::new(GLOBAL);
    let completed = match stepper {
        Stepper::Slrk => integrate::<SlrkLobattoIIIE3, _, 2, 14>(&lv, q0, p0, &options)
            .map(|s| s.steps())
            .map_err(|_| ()),
        Stepper::Vprk => integrate::<VprkGauss2, _, 2, 4>(&lv, q0, p0, &options)
            .map(|s| s.steps())
            .map_err(|_| ()),
        Stepper::RattleLobatto => integrate_holonomic::<RattleLobattoIIIAIIIB3<1>, _, 2, 1, 9>(
            &pendulum,
            &x0,
            &y0,
            &HolonomicOptions::new(0.1, steps),
        )
        .map(|s| s.steps())
        .map_err(|_| ()),
    };
    let change = region.change();
    assert_eq!(completed.ok(), Some(steps), "{stepper:?}");
    (change.allocations, change.reallocations)
}

fn main() {
    for stepper in [Stepper::Slrk, Stepper::Vprk, Stepper::RattleLobatto] {
        let (short, long) = (allocations(10, stepper), allocations(1000, stepper));
        println!(
            "{stepper:?}: (allocations, reallocations) for 10 steps {short:?}, for 1000 steps {long:?}"
        );
        assert_eq!(short, long);
        assert!(
            short.0 <= 4,
            "only the solution's vectors are allocated: {short:?}"
        );
    }
}
