//! Test support for the order tests: a Gauss(8) reference solution of the ODE `q̇ = v(q)` and
//! the error sweep `h = 0.05·2^-k` at `T = 1`.
use nalgebra::SVector;
use sparkgen::integrate::Options;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::stage::StageMethod;

pub use sparkgen::diagnostics::gauss8;

/// The step sizes of the standard sweep, `h = 0.05·2^-k`, k = 0..=4.
pub const STEPS: [f64; 5] = [0.05, 0.025, 0.0125, 0.00625, 0.003125];

/// Errors at or below this are at the round-off floor of `|q(1)|∞ ≈ 1`.
pub const FLOOR: f64 = 1e-13;

/// The Lotka–Volterra field `q̇₁ = q₁(a₂q₂ + b₂)`, `q̇₂ = −q₂(a₁q₁ + b₁)`.
pub fn lotka_volterra_field(lv: LotkaVolterra2d) -> impl Fn(&SVector<f64, 2>) -> SVector<f64, 2> {
    move |q| {
        SVector::from([
            q[0] * (lv.a2 * q[1] + lv.b2),
            -q[1] * (lv.a1 * q[0] + lv.b1),
        ])
    }
}

/// `|q_N − q_ref|∞` at `T = N h = 1` for every `h` in `steps` (each dividing 1) with method `M`,
/// from `(q₀, ϑ(q₀))`.
pub fn errors<M, P>(
    steps: &[f64],
    problem: &P,
    q0: SVector<f64, 2>,
    reference: SVector<f64, 2>,
) -> Vec<f64>
where
    M: StageMethod<P, 2> + Method<P, 2, Direct> + Default,
    P: DegenerateLagrangian<2>,
{
    steps
        .iter()
        .map(|&h| {
            let steps = (1.0 / h).round() as usize;
            let options = Options::new(h, steps);
            let solution = solve(problem, M::default(), q0, problem.theta(&q0), &options)
                .unwrap_or_else(|failure| panic!("{} at h = {h}: {}", M::NAME, failure.error));
            (solution.q[steps] - reference).amax()
        })
        .collect()
}
