// `v` and `p` have one name per coordinate, `phi` one component per multiplier, and there is
// at least one multiplier.
use sparkgen::ImplicitDae;

#[derive(ImplicitDae)]
#[implicit_dae(
    q = [x, y],
    v = [vx, vy],
    p = [px],
    lambda = [mu],
    theta = [vx, vy],
    force = [0.0, 0.0],
    u = [0.0, 0.0],
    g = [-mu * x, -mu * y],
    phi = [x * px, y],
)]
struct Lengths;

#[derive(ImplicitDae)]
#[implicit_dae(
    q = [x],
    v = [w],
    p = [s],
    lambda = [],
    theta = [w],
    force = [0.0],
    u = [0.0],
    g = [0.0],
    phi = [],
)]
struct NoMultiplier;

fn main() {}
