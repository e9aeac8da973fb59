use sparkgen::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x], theta = [x], hamiltonian = x)]
enum Problem {
    A,
}

fn main() {}
