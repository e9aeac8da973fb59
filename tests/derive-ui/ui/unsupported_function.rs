use sparkgen::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [gamma(y), x], hamiltonian = x.cbrt() + y)]
struct Problem;

fn main() {}
