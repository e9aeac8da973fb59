use sparkgen::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, x, x * y], hamiltonian = x + y)]
struct Problem;

fn main() {}
