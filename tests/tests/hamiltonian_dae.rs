//! `HamiltonianDae`: Lotka–Volterra written with `#[derive(HamiltonianDae)]` from its Hamiltonian
//! and Dirac constraint alone (`sparkgen::problems::LotkaVolterraDirac`) agrees in every method
//! with the view `DiracHamiltonian` of the degenerate Lagrangian `LotkaVolterra2d`, whose
//! kernels come from the one-form instead; the pendulum's index-2 form with explicit u, g
//! (`HamiltonianPendulum`) matches its closed forms; and every derived derivative, the partials
//! of the secondary constraint ψ included, agrees with central differences.

mod common;

use common::{FD_TOLERANCE, assert_close, central_differences, lotka_volterra, pair};
use nalgebra::{SVector, vector};
use proptest::prelude::*;
use sparkgen::problem::{DaeConstraint, DiracHamiltonian, HamiltonianDae};
use sparkgen::problems::{HamiltonianPendulum, LotkaVolterra2d, LotkaVolterraDirac};

/// A state `(q, p, λ, q̇, ṗ)` of a system with D coordinates and M multipliers.
type State<'a, const D: usize, const M: usize> = (
    &'a SVector<f64, D>,
    &'a SVector<f64, D>,
    &'a SVector<f64, M>,
    &'a SVector<f64, D>,
    &'a SVector<f64, D>,
);

/// Every method of `a` and `b` at the state agree to `tolerance` (relative).
fn assert_same_system<A, B, const D: usize, const M: usize>(
    a: &A,
    b: &B,
    (q, p, lambda, qdot, pdot): State<'_, D, M>,
    tolerance: f64,
) where
    A: HamiltonianDae<D, M>,
    B: HamiltonianDae<D, M>,
{
    let t = tolerance;
    assert_close("v", a.velocity(q, p), b.velocity(q, p), t);
    assert_close("∂v/∂q", a.velocity_dq(q, p), b.velocity_dq(q, p), t);
    assert_close("∂v/∂p", a.velocity_dp(q, p), b.velocity_dp(q, p), t);
    assert_close("f", a.force(q, p), b.force(q, p), t);
    assert_close("∂f/∂q", a.force_dq(q, p), b.force_dq(q, p), t);
    assert_close("∂f/∂p", a.force_dp(q, p), b.force_dp(q, p), t);
    assert_close("u", a.u(q, p, lambda), b.u(q, p, lambda), t);
    assert_close("∂u/∂q", a.u_dq(q, p, lambda), b.u_dq(q, p, lambda), t);
    assert_close("∂u/∂p", a.u_dp(q, p, lambda), b.u_dp(q, p, lambda), t);
    let (ua, ub) = (a.u_dlambda(q, p, lambda), b.u_dlambda(q, p, lambda));
    assert_close("∂u/∂λ", ua, ub, t);
    assert_close("g", a.g(q, p, lambda), b.g(q, p, lambda), t);
    assert_close("∂g/∂q", a.g_dq(q, p, lambda), b.g_dq(q, p, lambda), t);
    assert_close("∂g/∂p", a.g_dp(q, p, lambda), b.g_dp(q, p, lambda), t);
    let (ga, gb) = (a.g_dlambda(q, p, lambda), b.g_dlambda(q, p, lambda));
    assert_close("∂g/∂λ", ga, gb, t);
    assert_close("φ", a.phi(q, p), b.phi(q, p), t);
    assert_close("∂φ/∂q", a.phi_dq(q, p), b.phi_dq(q, p), t);
    assert_close("∂φ/∂p", a.phi_dp(q, p), b.phi_dp(q, p), t);
    assert_close("ψ", a.psi(q, p, qdot, pdot), b.psi(q, p, qdot, pdot), t);
    let (psa, psb) = (a.psi_dq(q, p, qdot, pdot), b.psi_dq(q, p, qdot, pdot));
    assert_close("∂ψ/∂q", psa, psb, t);
    let (psa, psb) = (a.psi_dp(q, p, qdot, pdot), b.psi_dp(q, p, qdot, pdot));
    assert_close("∂ψ/∂p", psa, psb, t);
    let (ha, hb) = (a.hamiltonian(q, p), b.hamiltonian(q, p));
    assert!(
        ha.is_some() && hb.is_some(),
        "Hamiltonians {ha:?} and {hb:?}"
    );
    assert_close(
        "H",
        vector![ha.unwrap_or(f64::NAN)],
        vector![hb.unwrap_or(f64::NAN)],
        t,
    );
}

/// Every derivative method of `problem` at the state against central differences of the
/// corresponding value method (ψ's against the provided `psi`).
fn check_derivatives<P: HamiltonianDae<D, M>, const D: usize, const M: usize>(
    problem: &P,
    (q, p, lambda, qdot, pdot): State<'_, D, M>,
) {
    let t = FD_TOLERANCE;
    let fd = central_differences(|q| problem.velocity(q, p), q);
    assert_close("∂v/∂q", problem.velocity_dq(q, p), fd, t);
    let fd = central_differences(|p| problem.velocity(q, p), p);
    assert_close("∂v/∂p", problem.velocity_dp(q, p), fd, t);
    let fd = central_differences(|q| problem.force(q, p), q);
    assert_close("∂f/∂q", problem.force_dq(q, p), fd, t);
    let fd = central_differences(|p| problem.force(q, p), p);
    assert_close("∂f/∂p", problem.force_dp(q, p), fd, t);
    let fd = central_differences(|q| problem.u(q, p, lambda), q);
    assert_close("∂u/∂q", problem.u_dq(q, p, lambda), fd, t);
    let fd = central_differences(|p| problem.u(q, p, lambda), p);
    assert_close("∂u/∂p", problem.u_dp(q, p, lambda), fd, t);
    let fd = central_differences(|lambda| problem.u(q, p, lambda), lambda);
    assert_close("∂u/∂λ", problem.u_dlambda(q, p, lambda), fd, t);
    let fd = central_differences(|q| problem.g(q, p, lambda), q);
    assert_close("∂g/∂q", problem.g_dq(q, p, lambda), fd, t);
    let fd = central_differences(|p| problem.g(q, p, lambda), p);
    assert_close("∂g/∂p", problem.g_dp(q, p, lambda), fd, t);
    let fd = central_differences(|lambda| problem.g(q, p, lambda), lambda);
    assert_close("∂g/∂λ", problem.g_dlambda(q, p, lambda), fd, t);
    let fd = central_differences(|q| problem.phi(q, p), q);
    assert_close("∂φ/∂q", problem.phi_dq(q, p), fd, t);
    let fd = central_differences(|p| problem.phi(q, p), p);
    assert_close("∂φ/∂p", problem.phi_dp(q, p), fd, t);
    let fd = central_differences(|q| problem.psi(q, p, qdot, pdot), q);
    assert_close("∂ψ/∂q", problem.psi_dq(q, p, qdot, pdot), fd, t);
    let fd = central_differences(|p| problem.psi(q, p, qdot, pdot), p);
    assert_close("∂ψ/∂p", problem.psi_dp(q, p, qdot, pdot), fd, t);
    let fd = central_differences(|qdot| problem.psi(q, p, qdot, pdot), qdot);
    assert_close("∂ψ/∂q̇", problem.psi_dqdot(q, p, qdot, pdot), fd, t);
    let fd = central_differences(|pdot| problem.psi(q, p, qdot, pdot), pdot);
    assert_close("∂ψ/∂ṗ", problem.psi_dpdot(q, p, qdot, pdot), fd, t);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn derived_lotka_volterra_is_the_dirac_view(
        [a1, a2, b1, b2] in lotka_volterra(),
        q in pair(0.2..3.0), p in pair(-3.0..3.0), lambda in pair(-3.0..3.0),
        qdot in pair(-3.0..3.0), pdot in pair(-3.0..3.0),
    ) {
        let derived = LotkaVolterraDirac { a1, a2, b1, b2 };
        let view = DiracHamiltonian(LotkaVolterra2d { a1, a2, b1, b2 });
        assert_same_system(&derived, &view, (&q, &p, &lambda, &qdot, &pdot), 1e-13);
        check_derivatives(&derived, (&q, &p, &lambda, &qdot, &pdot));
    }

    #[test]
    fn hamiltonian_pendulum_matches_closed_forms_and_differences(
        m in 0.1..10.0f64, g in 0.1..10.0f64,
        q in pair(-3.0..3.0), p in pair(-2.0..2.0), lambda in -5.0..5.0f64,
        qdot in pair(-3.0..3.0), pdot in pair(-3.0..3.0),
    ) {
        let pendulum = HamiltonianPendulum { m, g };
        let lambda = vector![lambda];
        let t = 1e-14;
        assert_close("v = p/m", pendulum.velocity(&q, &p), p / m, t);
        assert_close("f = (0, −mg)", HamiltonianDae::force(&pendulum, &q, &p), vector![0.0, -m * g], t);
        assert_close("u = 0", pendulum.u(&q, &p, &lambda), SVector::<f64, 2>::zeros(), t);
        assert_close("g = −λq", pendulum.g(&q, &p, &lambda), -q * lambda[0], t);
        assert_close("φ = q·p/m", pendulum.phi(&q, &p), vector![q.dot(&p) / m], t);
        // ψ = (p·q̇ + q·ṗ)/m.
        let psi = vector![(p.dot(&qdot) + q.dot(&pdot)) / m];
        assert_close("ψ", pendulum.psi(&q, &p, &qdot, &pdot), psi, t);
        let h = (p.dot(&p) / (2.0 * m) + m * g * q[1], pendulum.hamiltonian(&q, &p));
        assert_close("H", vector![h.0], vector![h.1.unwrap_or(f64::NAN)], t);
        check_derivatives(&pendulum, (&q, &p, &lambda, &qdot, &pdot));
    }
}
