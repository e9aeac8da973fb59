// The expansion uses fully qualified paths only: it compiles in a crate that shadows `f64`,
// `Result`, `Ok`, `sin` and the nalgebra names, with fields named like the expansion's locals,
// and with constants of those names in scope (a constant turns a `let` binding of the same
// name into a pattern: the expansion must bind only reserved `__` names).
#![allow(non_camel_case_types, non_upper_case_globals, dead_code)]

use sparkgen::problem::{
    DaeConstraint, DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae, Lagrangian,
};

type f64 = f32;
struct Result;
struct Ok;
struct SVector;
struct SMatrix;
fn sin(x: f32) -> f32 {
    x
}
const q: u8 = 0;
const w: u8 = 0;
const v: u8 = 0;
const lambda: u8 = 0;
const p: u8 = 0;
const out: u8 = 0;
const t0: u8 = 0;
const t1: u8 = 0;
const qdot: u8 = 0;
const pdot: u8 = 0;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y + ln(y) / x, x], hamiltonian = out * x + t0 * y + q * sin(x))]
struct Degenerate {
    out: core::primitive::f64,
    t0: ::core::primitive::f64,
    q: std::primitive::f64,
}

#[derive(Lagrangian)]
#[lagrangian(q = [x], v = [w], lagrangian = lambda * w * w / 2 - v * x.sin())]
struct General {
    lambda: core::primitive::f64,
    v: core::primitive::f64,
}

#[derive(HolonomicSystem)]
#[holonomic(q = [a, b], mass = [w, w], potential = out * b, constraints = [a * a + b * b - 1])]
struct Holonomic {
    w: core::primitive::f64,
    out: core::primitive::f64,
}

#[derive(HamiltonianDae)]
#[hamiltonian_dae(
    q = [a],
    p = [c],
    lambda = [d],
    hamiltonian = c * c / (2.0 * out) + t0 * a,
    phi = [c - out * a],
)]
struct Dirac {
    out: core::primitive::f64,
    t0: core::primitive::f64,
}

// `abs` is allowed where no derivative is taken (the initial velocity and the energy).
#[derive(ImplicitDae)]
#[implicit_dae(
    q = [a],
    v = [b],
    p = [c],
    lambda = [d],
    theta = [out * b],
    force = [-t0 * a],
    u = [d],
    g = [d * a],
    phi = [c - out * a],
    velocity = [c.abs() / out],
    energy = c.abs() + t0 * a * a,
)]
struct Implicit {
    out: core::primitive::f64,
    t0: core::primitive::f64,
}

fn main() {
    let position = nalgebra::vector![1.0, 2.0];
    let d = Degenerate {
        out: 1.0,
        t0: 2.0,
        q: 3.0,
    };
    let expected = 1.0 + 2.0 * 2.0 + 3.0 * ::core::primitive::f64::sin(1.0);
    assert!((DegenerateLagrangian::hamiltonian(&d, &position) - expected).abs() < 1e-12);
    let g = General {
        lambda: 2.0,
        v: 0.0,
    };
    let one = nalgebra::vector![1.0];
    assert_eq!(g.momentum(&one, &nalgebra::vector![3.0])[0], 6.0);
    let h = Holonomic { w: 4.0, out: 1.0 };
    assert_eq!(h.inverse_mass_matrix()[(1, 1)], 0.25);
    assert_eq!(h.constraints(&position)[0], 4.0);
    let i = Implicit { out: 2.0, t0: 3.0 };
    let (a, c) = (nalgebra::vector![1.0], nalgebra::vector![-4.0]);
    assert_eq!(i.initial_velocity(&a, &c)[0], 2.0);
    assert_eq!(i.energy(&a, &c), Some(7.0));
    assert_eq!(i.phi_dq(&a, &c)[(0, 0)], -2.0);
    let h = Dirac { out: 2.0, t0: 3.0 };
    assert_eq!(h.velocity(&a, &c)[0], -2.0);
    assert_eq!(HamiltonianDae::force(&h, &a, &c)[0], -3.0);
    assert_eq!(h.g(&a, &c, &nalgebra::vector![5.0])[0], 10.0);
    assert_eq!(h.psi(&a, &c, &nalgebra::vector![1.0], &nalgebra::vector![1.0])[0], -1.0);
}
