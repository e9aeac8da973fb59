use sparkgen::HolonomicSystem;

#[derive(HolonomicSystem)]
#[holonomic(q = [x, y], mass = [[1.0, 0.5], [0.25, 1.0]], potential = y, constraints = [x + y])]
struct NotSymmetric;

#[derive(HolonomicSystem)]
#[holonomic(q = [x, y], mass = [[1.0, 1.0], [1.0, 1.0]], potential = y, constraints = [x + y])]
struct Singular;

#[derive(HolonomicSystem)]
#[holonomic(q = [x, y], mass = [1.0, -2.0], potential = y, constraints = [x + y])]
struct Negative;

fn main() {}
