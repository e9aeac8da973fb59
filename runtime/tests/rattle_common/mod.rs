//! Helpers shared by the RATTLE and SHAKE integration tests.

use sparkgen::error::IntegrateError;

use sparkgen::holonomic::problems::Pendulum;
use sparkgen::problem::Vector;

/// Least-squares slope of `log e` against `log h`.
pub fn slope(h: &[f64], e: &[f64]) -> f64 {
    let x: Vec<f64> = h.iter().map(|v| v.ln()).collect();
    let y: Vec<f64> = e.iter().map(|v| v.ln()).collect();
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(&y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// The pendulum angle ODE `θ̈ = −(g/ℓ) sin θ` integrated by classical RK4 with step
/// `T / steps` (an independent formulation of the Cartesian pendulum); returns `(θ(T), θ̇(T))`.
pub fn pendulum_angle(
    pendulum: &Pendulum,
    theta: f64,
    theta_dot: f64,
    t: f64,
    steps: usize,
) -> (f64, f64) {
    let k = pendulum.g / pendulum.l;
    let f = |(a, w): (f64, f64)| (w, -k * a.sin());
    let h = t / steps as f64;
    let mut y = (theta, theta_dot);
    for _ in 0..steps {
        let k1 = f(y);
        let k2 = f((y.0 + 0.5 * h * k1.0, y.1 + 0.5 * h * k1.1));
        let k3 = f((y.0 + 0.5 * h * k2.0, y.1 + 0.5 * h * k2.1));
        let k4 = f((y.0 + h * k3.0, y.1 + h * k3.1));
        y.0 += h / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
        y.1 += h / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
    }
    y
}

/// The exact Cartesian state of the pendulum at time `t` from angle data, via [`pendulum_angle`].
pub fn pendulum_reference(
    pendulum: &Pendulum,
    theta: f64,
    theta_dot: f64,
    t: f64,
) -> (Vector<2>, Vector<2>) {
    let (a, w) = pendulum_angle(pendulum, theta, theta_dot, t, 200_000);
    pendulum.state(a, w)
}

/// `[a, b, …]` in scientific notation with two decimals.
pub fn sci(v: &[f64]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x:.2e}")).collect();
    format!("[{}]", items.join(", "))
}

/// The step and time of `error`, which must be the position-multiplier failure of a run with
/// `τ_c = 0` capped at `cap` iterations, past the first step.
pub fn capped_position_failure(error: &IntegrateError, cap: usize) -> (usize, f64) {
    match *error {
        IntegrateError::PositionMultipliers {
            step,
            time,
            iterations,
            residual,
            tolerance,
        } => {
            assert_eq!(iterations, cap);
            assert_eq!(tolerance, 0.0);
            assert!(residual > 0.0);
            assert!(step > 1, "fails at the first step");
            (step, time)
        }
        ref other => panic!("expected PositionMultipliers, got {other:?}"),
    }
}
