use sparkgen::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], hamiltonian = x + y)]
struct Problem;

fn main() {}
