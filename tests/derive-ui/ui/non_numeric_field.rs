use sparkgen::HolonomicSystem;

#[derive(HolonomicSystem)]
#[holonomic(q = [x, y], mass = m, potential = m * g * y, constraints = [x * x + y * y - l * l])]
struct Pendulum {
    m: f64,
    g: f32,
    l: f64,
    name: String,
}

fn main() {}
