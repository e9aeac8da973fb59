use sparkgen::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(q = [x], v = [u], lagrangian = u * u / 2, hamiltonian = x)]
struct Problem;

fn main() {}
