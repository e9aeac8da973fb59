// A holonomic method given a degenerate Lagrangian: `solve` names the problem, the kind the
// method needs and the method.
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;

sparkgen::stepper! {
    Rattle2 = RattleLobattoIIIAIIIB(2);
}

#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, 0.0], hamiltonian = x * x + y * y)]
struct Oscillator;

fn main() {
    let q0 = nalgebra::SVector::from([1.0, 0.0]);
    let p0 = Oscillator.theta(&q0);
    let _ = sparkgen::solve(&Oscillator, Rattle2, q0, p0, &Options::new(0.1, 10));
}
