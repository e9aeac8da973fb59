use sparkgen::HolonomicSystem;

#[derive(HolonomicSystem)]
struct Problem {
    m: f64,
}

fn main() {}
