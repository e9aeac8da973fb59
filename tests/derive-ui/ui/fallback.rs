// After a user error the trait is still implemented (with unreachable bodies), so code using it
// compiles and the only error shown is the real one.
use sparkgen::problem::DegenerateLagrangian;

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, x], hamiltonian = x + w)]
struct Problem;

fn energy<P: DegenerateLagrangian<2>>(p: &P) -> f64 {
    p.hamiltonian(&nalgebra::vector![1.0, 2.0])
}

fn main() {
    energy(&Problem);
}
