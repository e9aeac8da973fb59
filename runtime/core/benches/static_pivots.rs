//! The stage LU with and without static pivots, as the size grows:
//! `cargo bench -p sparkgen-core --bench static_pivots`.
//!
//! The block pattern of SLRK with s = 3 stages over D coordinates (N = 7D unknowns: V, Λ in 3D
//! each, μ in D; rows Φ, Ψ in 3D each, the null row in D): μ enters the Φ rows linearly with
//! constant weights and the null row is linear in V, as in the catalogue's SLRK descriptions;
//! every other block holds random entries in [−1, 1]. The static pivots are those the generator
//! chooses for SLRK (`SlrkLobattoIIIE3::ELIMINATION`: μ's column at Φ₁, the null row at V₂),
//! 2D of the 7D unknowns. For each D: one factorisation (`refactor`) and one solve with it
//! (`solve`), by [`Lu`] on the whole matrix (`LinearSolve::Lu`) and by [`ReducedLu`]
//! (`LinearSolve::StaticPivots`).
use divan::Bencher;
use sparkgen_core::solve::{Dynamic, Lu, ReducedLu};

fn main() {
    divan::main();
}

/// The coordinates D benchmarked.
const DIMS: [usize; 4] = [2, 4, 8, 16];

/// A deterministic sequence in `[−1, 1]`.
fn samples(n: usize) -> Vec<f64> {
    let mut state = 7u64;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// A linear system of the benchmark.
struct System {
    space: Dynamic,
    /// The matrix, row-major.
    a: Vec<f64>,
    /// Its static pivots.
    pivots: Vec<(usize, usize)>,
    /// A right-hand side.
    b: Vec<f64>,
}

/// The SLRK(3) stage Jacobian pattern over `d` coordinates.
fn system(d: usize) -> System {
    let n = 7 * d;
    let mu = 6 * d;
    let mut a = samples(n * n);
    for (i, row) in a.chunks_exact_mut(n).enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            if i >= mu || j >= mu {
                *x = 0.0;
            }
        }
    }
    let (phi_weights, null_weights) = ([-1.41, 0.7, 1.41], [0.7, -0.7, 0.2]);
    for stage in 0..3 {
        for k in 0..d {
            a[(stage * d + k) * n + mu + k] = phi_weights[stage];
            a[(mu + k) * n + stage * d + k] = null_weights[stage];
        }
    }
    let pivots = (0..d)
        .map(|k| (k, mu + k))
        .chain((0..d).map(|k| (mu + k, d + k)))
        .collect();
    System {
        space: Dynamic::new(n).expect("a small system"),
        a,
        pivots,
        b: samples(n),
    }
}

#[divan::bench(args = DIMS)]
fn dense_refactor(bencher: Bencher, d: usize) {
    let System { space, a, .. } = system(d);
    let mut lu = Lu::new(space);
    bencher.bench_local(|| lu.refactor(divan::black_box(&a)));
}

#[divan::bench(args = DIMS)]
fn static_pivots_refactor(bencher: Bencher, d: usize) {
    let System {
        space, a, pivots, ..
    } = system(d);
    let mut lu = ReducedLu::new(space, pivots).expect("the pivots fit");
    bencher.bench_local(|| lu.refactor(divan::black_box(&a)));
}

#[divan::bench(args = DIMS)]
fn dense_solve(bencher: Bencher, d: usize) {
    let System { space, a, b, .. } = system(d);
    let mut lu = Lu::new(space);
    lu.refactor(&a).expect("regular");
    bencher.bench_local(|| {
        let mut x = divan::black_box(b.clone());
        lu.solve_in_place(&mut x);
        x
    });
}

#[divan::bench(args = DIMS)]
fn static_pivots_solve(bencher: Bencher, d: usize) {
    let System {
        space,
        a,
        pivots,
        b,
    } = system(d);
    let mut lu = ReducedLu::new(space, pivots).expect("the pivots fit");
    lu.refactor(&a).expect("regular");
    bencher.bench_local(|| {
        let mut x = divan::black_box(b.clone());
        lu.solve_in_place(&mut x);
        x
    });
}
