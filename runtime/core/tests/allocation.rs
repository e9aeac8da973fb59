//! Zero heap allocation on the success path of the solves, at a size known at compile time
//! ([`Fixed`]) and at one known at run time ([`Dynamic`], whose buffers are allocated when the
//! solver is made): a counting global allocator around a rank-revealing factorisation and solve,
//! and around Newton with LU and with minimum-norm updates (full and simplified) on a system
//! whose Jacobian is singular everywhere.
//!
//! A test without the libtest harness (`harness = false`): the counting allocator sees every
//! thread, and the harness's own threads allocate at times of their choosing.
use sparkgen_core::solve::{
    Buffer, Dynamic, Fixed, JacobianUpdate, LinearSolve, Newton, NewtonOptions, NonlinearSystem,
    Qr, Space, default_rank_tolerance,
};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// `r = (g, x₃(1 + s²) − 4, 2g)` with `s = x₁ + x₂`, `g = s + s³ − 2`: rank 2 everywhere,
/// solutions on the line `s = 1, x₃ = 2`; in the space `S` of 3 unknowns.
struct Gauge<S>(S);

impl<S: Space> NonlinearSystem<S> for Gauge<S> {
    fn space(&self) -> S {
        self.0
    }
    fn residual(&self, x: &[f64], r: &mut [f64]) {
        let s = x[0] + x[1];
        let g = s + s * s * s - 2.0;
        r.copy_from_slice(&[g, x[2] * (1.0 + s * s) - 4.0, 2.0 * g]);
    }
    fn jacobian(&self, x: &[f64], j: &mut [f64]) {
        let s = x[0] + x[1];
        let dg = 1.0 + 3.0 * s * s;
        let ds = 2.0 * s * x[2];
        j.copy_from_slice(&[dg, dg, 0.0, ds, ds, 1.0 + s * s, 2.0 * dg, 2.0 * dg, 0.0]);
    }
    fn scale(&self) -> f64 {
        4.0
    }
}

/// `r = (x₁² − 2, x₂ − x₁, x₃ − x₁x₂)`, solution `(√2, √2, 2)`, a regular Jacobian; in the space
/// `S` of 3 unknowns.
struct Regular<S>(S);

impl<S: Space> NonlinearSystem<S> for Regular<S> {
    fn space(&self) -> S {
        self.0
    }
    fn residual(&self, x: &[f64], r: &mut [f64]) {
        r.copy_from_slice(&[x[0] * x[0] - 2.0, x[1] - x[0], x[2] - x[0] * x[1]]);
    }
    fn jacobian(&self, x: &[f64], j: &mut [f64]) {
        j.copy_from_slice(&[2.0 * x[0], 0.0, 0.0, -1.0, 1.0, 0.0, -x[1], -x[0], 1.0]);
    }
    fn scale(&self) -> f64 {
        2.0
    }
}

/// `(allocations, reallocations)` during `f`.
fn counted<T>(f: impl FnOnce() -> T) -> (T, (usize, usize)) {
    let region = Region::new(GLOBAL);
    let value = f();
    let change = region.change();
    (value, (change.allocations, change.reallocations))
}

/// Factors a rank-2 matrix and solves a consistent system, then solves [`Regular`] with Newton
/// and LU updates and [`Gauge`] with minimum-norm updates, each with full and simplified Newton
/// and twice with the same solver, counting allocations after construction.
fn check<S: Space>(space: S) {
    let a = [1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 0.0, 1.0];
    let mut qr = Qr::new(space);
    let mut x = space.vector();
    x.entries_mut().copy_from_slice(&[7.0, 14.0, 3.0]);
    let (solved, change) = counted(|| {
        qr.refactor(&a, default_rank_tolerance(3))
            .map(|()| (qr.rank(), qr.solve_min_norm_in_place(x.entries_mut())))
    });
    let Ok((rank, solution)) = solved else {
        panic!("{space:?}: {solved:?}");
    };
    assert_eq!(rank, 2);
    assert!(solution.relative_residual() <= 1e-15, "{solution:?}");
    assert_eq!(change, (0, 0), "{space:?}: factor and solve");

    for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified] {
        let mut newton = Newton::new_in(
            space,
            NewtonOptions {
                jacobian,
                ..NewtonOptions::default()
            },
        );
        let mut x = space.vector();
        for _ in 0..2 {
            x.entries_mut().copy_from_slice(&[1.0, 0.0, 0.0]);
            let (solved, change) = counted(|| newton.solve(&Regular(space), x.entries_mut()));
            let Ok(report) = solved else {
                panic!("{space:?}, {jacobian:?}: {solved:?}");
            };
            assert!((x.entries()[2] - 2.0).abs() <= 1e-15, "{report:?}");
            assert_eq!(change, (0, 0), "{space:?}, {jacobian:?}: {report:?}");
            println!("{space:?}, {jacobian:?}, LU: {report:?}, no allocation");
        }

        let mut newton = Newton::new_in(
            space,
            NewtonOptions {
                jacobian,
                linear: LinearSolve::MinimumNorm {
                    rank_tolerance: None,
                },
                ..NewtonOptions::default()
            },
        );
        let mut x = space.vector();
        for _ in 0..2 {
            x.entries_mut().copy_from_slice(&[0.9, -0.3, 1.5]);
            let (solved, change) = counted(|| newton.solve(&Gauge(space), x.entries_mut()));
            let Ok(report) = solved else {
                panic!("{space:?}, {jacobian:?}: {solved:?}");
            };
            assert_eq!(report.rank, 2);
            assert_eq!(change, (0, 0), "{space:?}, {jacobian:?}: {report:?}");
            println!("{space:?}, {jacobian:?}, minimum norm: {report:?}, no allocation");
        }
    }
}

fn main() {
    check(Fixed::<3>);
    check(Dynamic::new(3).expect("3 unknowns"));
}
