// Every error of the attribute is reported in one compile.
use sparkgen::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    q = [x, y],
    v = [u],
    lagrangian = m * u * u / 2 - k * x * x + foo(y) + x % y,
    q = [z],
)]
struct Problem {
    m: f64,
    k: i32,
}

fn main() {}
