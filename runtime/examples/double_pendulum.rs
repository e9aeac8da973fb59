//! A general Lagrangian on the implicit-DAE steppers: the planar double pendulum in its two
//! angles, whose mass matrix depends on the configuration,
//!
//! `L = ½(m₁ + m₂)ℓ₁²θ̇₁² + ½m₂ℓ₂²θ̇₂² + m₂ℓ₁ℓ₂θ̇₁θ̇₂ cos(θ₁ − θ₂) + (m₁ + m₂)gℓ₁ cos θ₁ + m₂gℓ₂ cos θ₂`,
//!
//! written with `#[derive(Lagrangian)]` and integrated through the view `LagrangianOde` (no
//! constraints) by VPARK over Gauss(2), which there is VPRK Gauss(2): symplectic, order 4. The
//! motion is chaotic; what the method keeps is the energy `E = ∂L/∂θ̇ · θ̇ − L`, whose largest
//! relative error over the run is printed with the final angles and Newton's iterations per step.
//!
//! `cargo run --release -p sparkgen --example double_pendulum`
use nalgebra::SVector;
use sparkgen::generated::steppers::IdaeVparkGlrkpSymplectic2;
use sparkgen::integrate::Options;
use sparkgen::problem::{ImplicitDae, Lagrangian, LagrangianOde};
use sparkgen::solve;

#[derive(Lagrangian)]
#[lagrangian(
    q = [a, b],
    v = [u, w],
    lagrangian = (m1 + m2) * l1 * l1 * u * u / 2 + m2 * l2 * l2 * w * w / 2
        + m2 * l1 * l2 * u * w * cos(a - b)
        + (m1 + m2) * g * l1 * cos(a)
        + m2 * g * l2 * cos(b),
)]
struct DoublePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

fn main() {
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let q0 = SVector::from([2.0, 2.5]);
    let p0 = pendulum.momentum(&q0, &SVector::zeros());
    let view = LagrangianOde(&pendulum);
    let (h, steps) = (0.01, 10_000);
    let method = IdaeVparkGlrkpSymplectic2::<0>;
    let solution = match solve(&view, method, q0, p0, &Options::new(h, steps)) {
        Ok(solution) => solution,
        Err(failure) => {
            eprintln!("{}", failure.error);
            std::process::exit(1);
        }
    };
    let energy = |q, p| view.energy(q, p).unwrap_or(f64::NAN);
    let e0 = energy(&q0, &p0);
    let worst = solution
        .q
        .iter()
        .zip(&solution.p)
        .map(|(q, p)| ((energy(q, p) - e0) / e0).abs())
        .fold(0.0, f64::max);
    let iterations: usize = solution.stats.iter().map(|s| s.iterations).sum();
    let (t, q) = (solution.t.last(), solution.q.last());
    println!("double pendulum, VPARK Gauss(2) = VPRK Gauss(2), h = {h}, {steps} steps");
    println!("max relative energy error: {worst:.3e}");
    println!(
        "Newton iterations per step: {:.2}",
        iterations as f64 / steps as f64
    );
    if let (Some(t), Some(q)) = (t, q) {
        println!("θ(t = {t}): ({:.6}, {:.6})", q[0], q[1]);
    }
}
