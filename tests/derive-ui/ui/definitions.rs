// Named subexpressions: each error is reported at the offending name or entry.
use sparkgen::{DegenerateLagrangian, HolonomicSystem, ImplicitDae};

// A definition using a later one, and one using itself: at the use.
#[derive(DegenerateLagrangian)]
#[lagrangian(
    q = [x, y],
    definitions = [r2 = r * r, r = hypot(x, y), s = s + x],
    theta = [y, x],
    hamiltonian = r2,
)]
struct Order {}

// Definitions named like a coordinate, a field or an earlier definition: at the name.
#[derive(DegenerateLagrangian)]
#[lagrangian(
    q = [x, y],
    definitions = [x = y * y, a = 2 * y, b = x, b = y],
    theta = [y, x],
    hamiltonian = a * b,
)]
struct Clash {
    a: f64,
}

// An unknown name inside a definition, and entries that are no definitions.
#[derive(HolonomicSystem)]
#[holonomic(
    q = [x, y],
    definitions = [r = x * x + z, y + 1, 2 = x],
    mass = 1,
    potential = r,
    constraints = [x * x + y * y - 1],
)]
struct Entries {}

// Not a list.
#[derive(HolonomicSystem)]
#[holonomic(
    q = [x, y],
    definitions = x * x,
    mass = 1,
    potential = y,
    constraints = [x * x + y * y - 1],
)]
struct NotAList {}

// A definition of (q, p) used by ϑ, a function of (q, v): at the use.
#[derive(ImplicitDae)]
#[implicit_dae(
    q = [x],
    v = [w],
    p = [s],
    lambda = [mu],
    definitions = [e = s * s / 2.0 + x],
    theta = [w + e],
    force = [w * x],
    u = [mu],
    g = [-mu * x],
    phi = [x * s + e],
)]
struct Restricted {}

fn main() {}
