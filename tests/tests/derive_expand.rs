//! insta snapshots of the prettyplease-formatted expansions of the four problem derives, called
//! in-process on token streams built with `quote!`.

use proc_macro2::TokenStream;
use quote::quote;

/// The expansion as formatted Rust source.
fn pretty(expansion: TokenStream) -> String {
    let file: syn::File = syn::parse2(expansion).expect("the expansion parses as a Rust file");
    prettyplease::unparse(&file)
}

#[test]
fn degenerate_lagrangian_lotka_volterra_2d() {
    let input = quote! {
        #[derive(DegenerateLagrangian)]
        #[lagrangian(
            q = [x, y],
            theta = [y + ln(y) / x, x],
            hamiltonian = a1 * x + a2 * y + b1 * x.ln() + b2 * ln(y),
        )]
        struct LotkaVolterra2d { a1: f64, a2: f64, b1: f64, b2: f64 }
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_degenerate_lagrangian(
        input
    )));
}

#[test]
fn lagrangian_lotka_volterra_2d() {
    let input = quote! {
        #[derive(Lagrangian)]
        #[lagrangian(
            q = [x, y],
            v = [u, w],
            lagrangian = (y + ln(y) / x) * u + x * w - (a1 * x + a2 * y + b1 * ln(x) + b2 * ln(y)),
        )]
        struct LotkaVolterra2d { a1: f64, a2: f64, b1: f64, b2: f64 }
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_lagrangian(input)));
}

#[test]
fn lagrangian_cartesian_pendulum() {
    let input = quote! {
        #[derive(Lagrangian)]
        #[lagrangian(
            q = [x, y],
            v = [u, w],
            lagrangian = m * (u * u + w * w) / 2 - m * g * y,
        )]
        struct Pendulum { m: f64, g: f64, l: f64 }
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_lagrangian(input)));
}

#[test]
fn holonomic_system_cartesian_pendulum() {
    let input = quote! {
        #[derive(HolonomicSystem)]
        #[holonomic(
            q = [x, y],
            mass = m,
            potential = m * g * y,
            constraints = [x.powi(2) + y.powi(2) - l.powi(2)],
        )]
        struct Pendulum { m: f64, g: f64, l: f64 }
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_holonomic_system(input)));
}

#[test]
fn holonomic_system_sphere_plane_intersection() {
    // A particle on the circle where the sphere |q| = r meets the plane x + y + z = h, with a
    // full numeric (exactly inverted) mass matrix.
    let input = quote! {
        #[derive(HolonomicSystem)]
        #[holonomic(
            q = [x, y, z],
            mass = [[2.0, 0.5, 0.0], [0.5, 2.0, 0.0], [0.0, 0.0, 1.0]],
            potential = g * z,
            constraints = [x * x + y * y + z * z - r * r, x + y + z - h],
        )]
        struct SpherePlane { g: f64, r: f64, h: f64 }
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_holonomic_system(input)));
}

#[test]
fn implicit_dae_index_two_pendulum() {
    let input = quote! {
        #[derive(ImplicitDae)]
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
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_implicit_dae(input)));
}

#[test]
fn hamiltonian_dae_lotka_volterra_2d() {
    let input = quote! {
        #[derive(HamiltonianDae)]
        #[hamiltonian_dae(
            q = [q1, q2],
            p = [p1, p2],
            lambda = [l1, l2],
            hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2),
            phi = [p1 - (q2 + ln(q2) / q1), p2 - q1],
        )]
        struct LotkaVolterraDirac { a1: f64, a2: f64, b1: f64, b2: f64 }
    };
    insta::assert_snapshot!(pretty(sparkgen_sym::derive::expand_hamiltonian_dae(input)));
}

#[test]
fn function_and_method_call_forms_expand_identically() {
    let functions = quote! {
        #[holonomic(
            q = [x, y],
            mass = m,
            potential = ln(x) + powi(y, 3) + sin(x) * atan2(y, x) + hypot(x, y) + powf(x, a),
            constraints = [sqrt(x) - exp(y)],
        )]
        struct P { m: f64, a: f64 }
    };
    let methods = quote! {
        #[holonomic(
            q = [x, y],
            mass = m,
            potential = x.ln() + y.powi(3) + x.sin() * y.atan2(x) + x.hypot(y) + x.powf(a),
            constraints = [x.sqrt() - y.exp()],
        )]
        struct P { m: f64, a: f64 }
    };
    let expand = sparkgen_sym::derive::expand_holonomic_system;
    let from_functions = pretty(expand(functions));
    assert!(from_functions.contains("::core::primitive::f64::atan2(__q[1], __q[0])"));
    assert_eq!(from_functions, pretty(expand(methods)));
}
