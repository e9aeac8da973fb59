use sparkgen::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, x], hamiltonian = x + y, theta = [x, y])]
struct Problem;

fn main() {}
