//! Expansion time of the problem derives, in-process (parse, lower, differentiate, schedule,
//! emit): `cargo bench -p sparkgen-sym --bench expansion`. Target: under 20 ms for
//! Lotka–Volterra.

use quote::quote;

fn main() {
    divan::main();
}

#[divan::bench]
fn degenerate_lagrangian_lotka_volterra(bencher: divan::Bencher) {
    let input = || {
        quote! {
            #[lagrangian(
                q = [x, y],
                theta = [y + ln(y) / x, x],
                hamiltonian = a1 * x + a2 * y + b1 * ln(x) + b2 * ln(y),
            )]
            struct LotkaVolterra2d { a1: f64, a2: f64, b1: f64, b2: f64 }
        }
    };
    bencher
        .with_inputs(input)
        .bench_values(sparkgen_sym::derive::expand_degenerate_lagrangian);
}

#[divan::bench]
fn holonomic_cartesian_pendulum(bencher: divan::Bencher) {
    let input = || {
        quote! {
            #[holonomic(q = [x, y], mass = m, potential = m * g * y, constraints = [x * x + y * y - l * l])]
            struct Pendulum { m: f64, g: f64, l: f64 }
        }
    };
    bencher
        .with_inputs(input)
        .bench_values(sparkgen_sym::derive::expand_holonomic_system);
}

#[divan::bench]
fn holonomic_sphere_plane(bencher: divan::Bencher) {
    let input = || {
        quote! {
            #[holonomic(
                q = [x, y, z],
                mass = [[2.0, 0.5, 0.0], [0.5, 2.0, 0.0], [0.0, 0.0, mz]],
                potential = g * z,
                constraints = [x * x + y * y + z * z - r * r, x + y + z - h],
            )]
            struct SpherePlane { mz: f64, g: f64, r: f64, h: f64 }
        }
    };
    bencher
        .with_inputs(input)
        .bench_values(sparkgen_sym::derive::expand_holonomic_system);
}
