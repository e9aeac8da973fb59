//! `ImplicitDae`: the derived derivatives of the index-2 pendulum and of a Lotka–Volterra written
//! with `#[derive(ImplicitDae)]` agree with central differences of the derived values; that
//! Lotka–Volterra agrees with the view `LagrangianDae` of the degenerate Lagrangian
//! `LotkaVolterra2d` in every method; and `LagrangianDae::initial_velocity` is the vector field
//! of `Ω v = −∇H` (zero where `Ω` is singular).

mod common;

use common::{FD_TOLERANCE, assert_close, central_differences, lotka_volterra, pair};
use nalgebra::{SVector, vector};
use proptest::prelude::*;
use sparkgen::problem::{DaeConstraint, DegenerateLagrangian, ImplicitDae, LagrangianDae};
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d};

/// Lotka–Volterra 2d as an implicit DAE written out by hand: `ϑ(q) = (y + ln y / x, x)`,
/// `H = a₁x + a₂y + b₁ ln x + b₂ ln y`, `J = ∂ϑ/∂q = [[−ln y/x², 1 + 1/(xy)], [1, 0]]`,
/// `f = Jᵀv − ∇H`, `u = λ`, `g = Jᵀλ`, `φ = p − ϑ(q)`, `v̄ = (x(a₂y + b₂), −y(a₁x + b₁))`, `E = H`.
#[derive(ImplicitDae)]
#[implicit_dae(
    q = [x, y],
    v = [vx, vy],
    p = [px, py],
    lambda = [lx, ly],
    theta = [y + ln(y) / x, x],
    force = [
        -vx * ln(y) / (x * x) + vy - (a1 + b1 / x),
        vx * (1 + 1 / (x * y)) - (a2 + b2 / y),
    ],
    u = [lx, ly],
    g = [-lx * ln(y) / (x * x) + ly, lx * (1 + 1 / (x * y))],
    phi = [px - (y + ln(y) / x), py - x],
    velocity = [x * (a2 * y + b2), -y * (a1 * x + b1)],
    energy = a1 * x + a2 * y + b1 * ln(x) + b2 * ln(y),
)]
struct LotkaVolterraDae {
    a1: f64,
    a2: f64,
    b1: f64,
    b2: f64,
}

/// A closed one-form `ϑ = ∇(xy)`: `Ω = J − Jᵀ ≡ 0`.
#[derive(DegenerateLagrangian)]
#[lagrangian(q = [x, y], theta = [y, x], hamiltonian = x + y * y)]
struct ClosedForm;

/// Every derivative method of `problem` at `(q, v, p, λ)` against central differences of the
/// corresponding value method.
fn check_derivatives<P: ImplicitDae<D, M>, const D: usize, const M: usize>(
    problem: &P,
    q: &SVector<f64, D>,
    v: &SVector<f64, D>,
    p: &SVector<f64, D>,
    lambda: &SVector<f64, M>,
) {
    let t = FD_TOLERANCE;
    let theta_dq = central_differences(|q| problem.theta(q, v), q);
    assert_close("∂ϑ/∂q", problem.theta_dq(q, v), theta_dq, t);
    let theta_dv = central_differences(|v| problem.theta(q, v), v);
    assert_close("∂ϑ/∂v", problem.theta_dv(q, v), theta_dv, t);
    let force_dq = central_differences(|q| problem.force(q, v), q);
    assert_close("∂f/∂q", problem.force_dq(q, v), force_dq, t);
    let force_dv = central_differences(|v| problem.force(q, v), v);
    assert_close("∂f/∂v", problem.force_dv(q, v), force_dv, t);
    let u_dq = central_differences(|q| problem.u(q, p, lambda), q);
    assert_close("∂u/∂q", problem.u_dq(q, p, lambda), u_dq, t);
    let u_dp = central_differences(|p| problem.u(q, p, lambda), p);
    assert_close("∂u/∂p", problem.u_dp(q, p, lambda), u_dp, t);
    let u_dlambda = central_differences(|lambda| problem.u(q, p, lambda), lambda);
    assert_close("∂u/∂λ", problem.u_dlambda(q, p, lambda), u_dlambda, t);
    let g_dq = central_differences(|q| problem.g(q, p, lambda), q);
    assert_close("∂g/∂q", problem.g_dq(q, p, lambda), g_dq, t);
    let g_dp = central_differences(|p| problem.g(q, p, lambda), p);
    assert_close("∂g/∂p", problem.g_dp(q, p, lambda), g_dp, t);
    let g_dlambda = central_differences(|lambda| problem.g(q, p, lambda), lambda);
    assert_close("∂g/∂λ", problem.g_dlambda(q, p, lambda), g_dlambda, t);
    let phi_dq = central_differences(|q| problem.phi(q, p), q);
    assert_close("∂φ/∂q", problem.phi_dq(q, p), phi_dq, t);
    let phi_dp = central_differences(|p| problem.phi(q, p), p);
    assert_close("∂φ/∂p", problem.phi_dp(q, p), phi_dp, t);
}

/// Every method of `a` and `b` at `(q, v, p, λ)` agree to `tolerance` (relative).
fn assert_same_system<A, B, const D: usize, const M: usize>(
    a: &A,
    b: &B,
    (q, v, p, lambda): (
        &SVector<f64, D>,
        &SVector<f64, D>,
        &SVector<f64, D>,
        &SVector<f64, M>,
    ),
    tolerance: f64,
) where
    A: ImplicitDae<D, M>,
    B: ImplicitDae<D, M>,
{
    let t = tolerance;
    assert_close("ϑ", a.theta(q, v), b.theta(q, v), t);
    assert_close("∂ϑ/∂q", a.theta_dq(q, v), b.theta_dq(q, v), t);
    assert_close("∂ϑ/∂v", a.theta_dv(q, v), b.theta_dv(q, v), t);
    assert_close("f", a.force(q, v), b.force(q, v), t);
    assert_close("∂f/∂q", a.force_dq(q, v), b.force_dq(q, v), t);
    assert_close("∂f/∂v", a.force_dv(q, v), b.force_dv(q, v), t);
    assert_close("u", a.u(q, p, lambda), b.u(q, p, lambda), t);
    assert_close("∂u/∂q", a.u_dq(q, p, lambda), b.u_dq(q, p, lambda), t);
    assert_close("∂u/∂p", a.u_dp(q, p, lambda), b.u_dp(q, p, lambda), t);
    assert_close(
        "∂u/∂λ",
        a.u_dlambda(q, p, lambda),
        b.u_dlambda(q, p, lambda),
        t,
    );
    assert_close("g", a.g(q, p, lambda), b.g(q, p, lambda), t);
    assert_close("∂g/∂q", a.g_dq(q, p, lambda), b.g_dq(q, p, lambda), t);
    assert_close("∂g/∂p", a.g_dp(q, p, lambda), b.g_dp(q, p, lambda), t);
    assert_close(
        "∂g/∂λ",
        a.g_dlambda(q, p, lambda),
        b.g_dlambda(q, p, lambda),
        t,
    );
    assert_close("φ", a.phi(q, p), b.phi(q, p), t);
    assert_close("∂φ/∂q", a.phi_dq(q, p), b.phi_dq(q, p), t);
    assert_close("∂φ/∂p", a.phi_dp(q, p), b.phi_dp(q, p), t);
    assert_close("v̄", a.initial_velocity(q, p), b.initial_velocity(q, p), t);
    let (ea, eb) = (a.energy(q, p), b.energy(q, p));
    assert!(ea.is_some() && eb.is_some(), "energies {ea:?} and {eb:?}");
    assert_close(
        "E",
        vector![ea.unwrap_or(f64::NAN)],
        vector![eb.unwrap_or(f64::NAN)],
        t,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn index_two_pendulum_derivatives_match_central_differences(
        m in 0.1..10.0f64, g in 0.1..10.0f64, l in 0.1..3.0f64,
        q in pair(-3.0..3.0), v in pair(-2.0..2.0), p in pair(-2.0..2.0), lambda in -5.0..5.0f64,
    ) {
        check_derivatives(&IndexTwoPendulum { m, g, l }, &q, &v, &p, &vector![lambda]);
    }

    #[test]
    fn index_two_pendulum_matches_closed_forms(
        m in 0.1..10.0f64, g in 0.1..10.0f64, l in 0.1..3.0f64,
        q in pair(-3.0..3.0), v in pair(-2.0..2.0), p in pair(-2.0..2.0), lambda in -5.0..5.0f64,
    ) {
        let pendulum = IndexTwoPendulum { m, g, l };
        let lambda = vector![lambda];
        let t = 1e-14;
        assert_close("ϑ = m v", pendulum.theta(&q, &v), v * m, t);
        assert_close("f = (0, −m g)", pendulum.force(&q, &v), vector![0.0, -m * g], t);
        assert_close("u = 0", pendulum.u(&q, &p, &lambda), SVector::zeros(), t);
        assert_close("g = −λ q", pendulum.g(&q, &p, &lambda), -q * lambda[0], t);
        assert_close("φ = q·p/m", pendulum.phi(&q, &p), vector![q.dot(&p) / m], t);
        assert_close("v̄ = p/m", pendulum.initial_velocity(&q, &p), p / m, t);
        let energy = p.dot(&p) / (2.0 * m) + m * g * q[1];
        let derived = pendulum.energy(&q, &p).unwrap_or(f64::NAN);
        assert_close("E = |p|²/(2m) + m g y", vector![derived], vector![energy], t);
    }

    #[test]
    fn index_two_pendulum_initial_state_is_consistent(
        m in 0.1..10.0f64, g in 0.1..10.0f64, l in 0.1..3.0f64,
        theta0 in -3.0..3.0f64, omega0 in -2.0..2.0f64,
    ) {
        let pendulum = IndexTwoPendulum { m, g, l };
        let (q0, p0) = pendulum.initial_state(theta0, omega0);
        // |q₀| = ℓ, φ(q₀, p₀) = 0, and E = m g y + ½ m ℓ² ω₀² with y = −ℓ cos θ₀.
        let scale = l.max(1.0);
        prop_assert!((q0.norm() - l).abs() <= 1e-14 * scale);
        prop_assert!(pendulum.phi(&q0, &p0)[0].abs() <= 1e-14 * (l * p0.amax() / m).max(1.0));
        let energy = -m * g * l * theta0.cos() + m * l * l * omega0 * omega0 / 2.0;
        let derived = pendulum.energy(&q0, &p0).unwrap_or(f64::NAN);
        assert_close("E(q₀, p₀)", vector![derived], vector![energy], 1e-13);
    }

    #[test]
    fn derived_lotka_volterra_derivatives_match_central_differences(
        [a1, a2, b1, b2] in lotka_volterra(),
        q in pair(0.2..4.0), v in pair(-2.0..2.0), p in pair(-2.0..2.0), lambda in pair(-2.0..2.0),
    ) {
        check_derivatives(&LotkaVolterraDae { a1, a2, b1, b2 }, &q, &v, &p, &lambda);
    }

    #[test]
    fn derived_lotka_volterra_is_the_view_of_the_degenerate_lagrangian(
        [a1, a2, b1, b2] in lotka_volterra(),
        q in pair(0.2..4.0), v in pair(-2.0..2.0), p in pair(-2.0..2.0), lambda in pair(-2.0..2.0),
    ) {
        let lagrangian = LotkaVolterra2d { a1, a2, b1, b2 };
        assert_same_system(
            &LotkaVolterraDae { a1, a2, b1, b2 },
            &LagrangianDae(&lagrangian),
            (&q, &v, &p, &lambda),
            1e-14,
        );
    }

    #[test]
    fn lagrangian_dae_initial_velocity_is_the_lotka_volterra_vector_field(
        [a1, a2, b1, b2] in lotka_volterra(),
        q in pair(0.2..4.0), p in pair(-2.0..2.0),
    ) {
        let dae = LagrangianDae(LotkaVolterra2d { a1, a2, b1, b2 });
        let (x, y) = (q[0], q[1]);
        let field = vector![x * (a2 * y + b2), -y * (a1 * x + b1)];
        assert_close("v̄", dae.initial_velocity(&q, &p), field, 1e-14);
    }

    #[test]
    fn lagrangian_dae_initial_velocity_is_zero_where_the_two_form_is_singular(
        q in pair(-3.0..3.0), p in pair(-2.0..2.0),
    ) {
        prop_assert_eq!(ClosedForm.vector_field(&q), None);
        prop_assert_eq!(LagrangianDae(ClosedForm).initial_velocity(&q, &p), SVector::<f64, 2>::zeros());
    }
}
