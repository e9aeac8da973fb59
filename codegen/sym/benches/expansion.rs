//! Expansion time of the problem derives, in-process (parse, lower, differentiate, schedule,
//! emit): `cargo bench -p sparkgen-sym --bench expansion`. Target: under 20 ms for
//! Lotka–Volterra.
//!
//! One case per derive (`DegenerateLagrangian`, `Lagrangian`, `HolonomicSystem`, `ImplicitDae`,
//! `HamiltonianDae`), and two families in growing dimension D = 2, 4, 8, 16, generated from
//! their size: n = D/2 coupled Lotka–Volterra pairs (`DegenerateLagrangian`) and a planar chain
//! of n links (`HolonomicSystem`, M = n constraints).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Problem dimensions D of the families in growing dimension.
const DIMENSIONS: [usize; 4] = [2, 4, 8, 16];

fn main() {
    divan::main();
}

/// Times `expand` on the tokens of `input` (called for each sample, untimed: the expansion
/// consumes its input), after checking that they are valid (their expansion holds no
/// `compile_error!`).
fn bench_expansion(
    bencher: divan::Bencher,
    input: impl Fn() -> TokenStream + Sync,
    expand: fn(TokenStream) -> TokenStream,
) {
    let expansion = expand(input()).to_string();
    assert!(
        !expansion.contains("compile_error"),
        "the benchmarked problem must expand without errors: {expansion}"
    );
    bencher.with_inputs(input).bench_values(expand);
}

/// One benchmark of a fixed problem: `$name` times `sparkgen_sym::derive::$expand` on the
/// problem's tokens.
macro_rules! expansion_case {
    ($(#[$doc:meta])* $name:ident, $expand:ident, $($problem:tt)*) => {
        $(#[$doc])*
        #[divan::bench]
        fn $name(bencher: divan::Bencher) {
            bench_expansion(
                bencher,
                || quote! { $($problem)* },
                sparkgen_sym::derive::$expand,
            );
        }
    };
}

/// `names("x", n)` = `[x1, …, xn]`.
fn names(prefix: &str, n: usize) -> Vec<Ident> {
    (1..=n).map(|k| format_ident!("{prefix}{k}")).collect()
}

expansion_case! {
    degenerate_lagrangian_lotka_volterra, expand_degenerate_lagrangian,
    #[lagrangian(
        q = [x, y],
        theta = [y + ln(y) / x, x],
        hamiltonian = a1 * x + a2 * y + b1 * ln(x) + b2 * ln(y),
    )]
    struct LotkaVolterra2d { a1: f64, a2: f64, b1: f64, b2: f64 }
}

/// D/2 Lotka–Volterra pairs `(xₖ, yₖ)`, each with the one-form `(yₖ + ln yₖ/xₖ, xₖ)` and the
/// Hamiltonian of Lotka–Volterra 2d, coupled all-to-all by `c Σ_{j≠k} x_j y_k` (D = 2 is
/// Lotka–Volterra 2d with an unused coupling parameter).
fn lotka_volterra_pairs(dimension: usize) -> TokenStream {
    let n = dimension / 2;
    let (x, y) = (names("x", n), names("y", n));
    let q = x.iter().zip(&y).flat_map(|(x, y)| [x, y]);
    let theta = x.iter().zip(&y).map(|(x, y)| quote!(#y + ln(#y) / #x, #x));
    let coupling = (0..n)
        .flat_map(|j| (0..n).filter(move |&k| k != j).map(move |k| (j, k)))
        .map(|(j, k)| {
            let (xj, yk) = (&x[j], &y[k]);
            quote!(+ c * #xj * #yk)
        });
    quote! {
        #[lagrangian(
            q = [#(#q),*],
            theta = [#(#theta),*],
            hamiltonian = #(a1 * #x + a2 * #y + b1 * ln(#x) + b2 * ln(#y))+* #(#coupling)*,
        )]
        struct LotkaVolterraPairs { a1: f64, a2: f64, b1: f64, b2: f64, c: f64 }
    }
}

#[divan::bench(args = DIMENSIONS)]
fn degenerate_lagrangian_lotka_volterra_pairs(bencher: divan::Bencher, dimension: usize) {
    bench_expansion(
        bencher,
        || lotka_volterra_pairs(dimension),
        sparkgen_sym::derive::expand_degenerate_lagrangian,
    );
}

expansion_case! {
    /// The double pendulum in its angles: a general (non-degenerate) Lagrangian with a
    /// configuration-dependent mass matrix.
    lagrangian_double_pendulum, expand_lagrangian,
    #[lagrangian(
        q = [a, b],
        v = [u, w],
        lagrangian = (m1 + m2) * l1 * l1 * u * u / 2 + m2 * l2 * l2 * w * w / 2
            + m2 * l1 * l2 * u * w * cos(a - b)
            + (m1 + m2) * g * l1 * cos(a) + m2 * g * l2 * cos(b),
    )]
    struct DoublePendulum { m1: f64, m2: f64, l1: f64, l2: f64, g: f64 }
}

expansion_case! {
    holonomic_cartesian_pendulum, expand_holonomic_system,
    #[holonomic(q = [x, y], mass = m, potential = m * g * y, constraints = [x * x + y * y - l * l])]
    struct Pendulum { m: f64, g: f64, l: f64 }
}

expansion_case! {
    holonomic_sphere_plane, expand_holonomic_system,
    #[holonomic(
        q = [x, y, z],
        mass = [[2.0, 0.5, 0.0], [0.5, 2.0, 0.0], [0.0, 0.0, mz]],
        potential = g * z,
        constraints = [x * x + y * y + z * z - r * r, x + y + z - h],
    )]
    struct SpherePlane { mz: f64, g: f64, r: f64, h: f64 }
}

/// A planar chain of D/2 links of length l from a fixed pivot, point masses m at the joints
/// `(xₖ, yₖ)` under gravity: D = 2n coordinates, M = n length constraints.
fn planar_chain(dimension: usize) -> TokenStream {
    let n = dimension / 2;
    let (x, y) = (names("x", n), names("y", n));
    let q = x.iter().zip(&y).flat_map(|(x, y)| [x, y]);
    let joints = x.iter().zip(&y).map(|(x, y)| (quote!(#x), quote!(#y)));
    let previous = std::iter::once((quote!(0.0), quote!(0.0))).chain(joints.clone());
    let constraints = joints.zip(previous).map(
        |((x, y), (px, py))| quote!((#x - #px) * (#x - #px) + (#y - #py) * (#y - #py) - l * l),
    );
    quote! {
        #[holonomic(
            q = [#(#q),*],
            mass = m,
            potential = m * g * (#(#y)+*),
            constraints = [#(#constraints),*],
        )]
        struct PlanarChain { m: f64, g: f64, l: f64 }
    }
}

#[divan::bench(args = DIMENSIONS)]
fn holonomic_planar_chain(bencher: divan::Bencher, dimension: usize) {
    bench_expansion(
        bencher,
        || planar_chain(dimension),
        sparkgen_sym::derive::expand_holonomic_system,
    );
}

expansion_case! {
    /// The index-two pendulum of `sparkgen::problems::IndexTwoPendulum`.
    implicit_dae_index_two_pendulum, expand_implicit_dae,
    #[implicit_dae(
        q = [x, y],
        v = [vx, vy],
        p = [px, py],
        lambda = [lam],
        theta = [m * vx, m * vy],
        force = [0.0, -m * g],
        u = [0.0, 0.0],
        g = [-lam * x, -lam * y],
        phi = [(x * px + y * py) / m],
        velocity = [px / m, py / m],
        energy = (px * px + py * py) / (2.0 * m) + m * g * y,
    )]
    struct IndexTwoPendulum { m: f64, g: f64, l: f64 }
}

expansion_case! {
    /// Lotka–Volterra 2d with Dirac constraints, `sparkgen::problems::LotkaVolterraDirac`: v, f, u
    /// and g all derived from H and φ.
    hamiltonian_dae_lotka_volterra_dirac, expand_hamiltonian_dae,
    #[hamiltonian_dae(
        q = [q1, q2],
        p = [p1, p2],
        lambda = [l1, l2],
        hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2),
        phi = [p1 - (q2 + ln(q2) / q1), p2 - q1],
    )]
    struct LotkaVolterraDirac { a1: f64, a2: f64, b1: f64, b2: f64 }
}
