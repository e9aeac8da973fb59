// Each function of an implicit DAE sees only the state vectors it depends on: ϑ and f of
// (q, v), u and g of (q, p, λ), φ, the initial velocity and the energy of (q, p).
use sparkgen::ImplicitDae;

#[derive(ImplicitDae)]
#[implicit_dae(
    q = [x],
    v = [w],
    p = [s],
    lambda = [mu],
    theta = [m * w + s],
    force = [mu],
    u = [w],
    g = [-mu * x],
    phi = [x * s + w],
    velocity = [mu],
    energy = s * s / 2.0 + w,
)]
struct Problem {
    m: f64,
}

fn main() {}
