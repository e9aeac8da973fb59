use sparkgen::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, x], hamiltonian = a * x + z)]
struct Problem {
    a: f64,
}

fn main() {}
