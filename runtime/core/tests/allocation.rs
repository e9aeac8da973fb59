//! Zero heap allocation on the success path of the minimum-norm solves: a counting global
//! allocator around a rank-revealing factorisation and solve, and around Newton with minimum-norm
//! updates (full and simplified) on a system whose Jacobian is singular everywhere.
//!
//! A test without the libtest harness (`harness = false`): the counting allocator sees every
//! thread, and the harness's own threads allocate at times of their choosing.
use sparkgen_core::solve::{
    JacobianUpdate, LinearSolve, Newton, NewtonOptions, NonlinearSystem, Qr,
};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// `r = (g, x₃(1 + s²) − 4, 2g)` with `s = x₁ + x₂`, `g = s + s³ − 2`: rank 2 everywhere,
/// solutions on the line `s = 1, x₃ = 2`.
struct Gauge;

impl NonlinearSystem<3> for Gauge {
    fn residual(&self, x: &[f64; 3], r: &mut [f64; 3]) {
        let s = x[0] + x[1];
        let g = s + s * s * s - 2.0;
        *r = [g, x[2] * (1.0 + s * s) - 4.0, 2.0 * g];
    }
    fn jacobian(&self, x: &[f64; 3], j: &mut [[f64; 3]; 3]) {
        let s = x[0] + x[1];
        let dg = 1.0 + 3.0 * s * s;
        let ds = 2.0 * s * x[2];
        *j = [
            [dg, dg, 0.0],
            [ds, ds, 1.0 + s * s],
            [2.0 * dg, 2.0 * dg, 0.0],
        ];
    }
    fn scale(&self) -> f64 {
        4.0
    }
}

fn main() {
    // Rank 2 (row 2 = 2·row 1), b = A·(1, 0, 2) consistent.
    let a = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]];
    let region = Region::new(GLOBAL);
    let solved = Qr::factor(&a, Qr::<3>::DEFAULT_TOLERANCE)
        .map(|qr| (qr.rank(), qr.solve_min_norm(&[7.0, 14.0, 3.0])));
    let change = region.change();
    let Ok((rank, solution)) = solved else {
        panic!("{solved:?}");
    };
    assert_eq!(rank, 2);
    assert!(solution.relative_residual() <= 1e-15, "{solution:?}");
    assert_eq!(
        (change.allocations, change.reallocations),
        (0, 0),
        "factor and solve"
    );

    for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified] {
        let mut newton = Newton::<3>::new(NewtonOptions {
            jacobian,
            linear: LinearSolve::MinimumNorm {
                rank_tolerance: None,
            },
            ..NewtonOptions::default()
        });
        let mut x = [0.9, -0.3, 1.5];
        let region = Region::new(GLOBAL);
        let solved = newton.solve(&Gauge, &mut x);
        let change = region.change();
        let Ok(report) = solved else {
            panic!("{jacobian:?}: {solved:?}");
        };
        assert_eq!(report.rank, 2);
        assert_eq!(
            (change.allocations, change.reallocations),
            (0, 0),
            "{jacobian:?}: {report:?}"
        );
        println!("{jacobian:?}: {report:?}, no allocation");
    }
}
