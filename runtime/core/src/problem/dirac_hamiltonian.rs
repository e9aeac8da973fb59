//! A degenerate Lagrangian seen as a Hamiltonian DAE with Dirac's primary constraint.

use super::{DegenerateLagrangian, HamiltonianDae, Matrix, Vector};

/// The Hamiltonian DAE of a degenerate Lagrangian `L(q, v) = ϑ(q)·v − H(q)` (`M = D`
/// multipliers), from Dirac's total Hamiltonian `H_T = H(q) + λ·φ` with the primary constraint
/// `φ(q, p) = p − ϑ(q)`:
///
/// `q̇ = ∂H_T/∂p = λ`, `ṗ = −∂H_T/∂q = −∇H(q) + Jᵀλ`, `0 = p − ϑ(q)`,
///
/// that is `v = 0`, `f = −∇H(q)`, `u = λ`, `g = Jᵀλ` with `J = ∂ϑ/∂q`. Differentiating `φ = 0`
/// along a solution gives `Ω(q) λ = −∇H(q)` with `Ω = J − Jᵀ`: `λ` is the velocity `q̇`, and
/// index 2 holds exactly where `Ω` is invertible. Its energy is `H(q)`.
///
/// `DiracHamiltonian(&problem)` borrows the problem.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiracHamiltonian<P>(pub P);

impl<P: DegenerateLagrangian<D>, const D: usize> HamiltonianDae<D, D> for DiracHamiltonian<P> {
    /// `0`.
    fn velocity(&self, _q: &Vector<D>, _p: &Vector<D>) -> Vector<D> {
        Vector::zeros()
    }

    /// `0`.
    fn velocity_dq(&self, _q: &Vector<D>, _p: &Vector<D>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `0`.
    fn velocity_dp(&self, _q: &Vector<D>, _p: &Vector<D>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `f = −∇H(q)`.
    fn force(&self, q: &Vector<D>, _p: &Vector<D>) -> Vector<D> {
        -self.0.hamiltonian_gradient(q)
    }

    /// `∂f/∂q = −∇²H(q)`.
    fn force_dq(&self, q: &Vector<D>, _p: &Vector<D>) -> Matrix<D, D> {
        -self.0.hamiltonian_hessian(q)
    }

    /// `0`.
    fn force_dp(&self, _q: &Vector<D>, _p: &Vector<D>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `ψ = ṗ − J(q) q̇`: `∂ψ/∂q = −∂(J q̇)/∂q`.
    fn psi_dq(
        &self,
        q: &Vector<D>,
        _p: &Vector<D>,
        qdot: &Vector<D>,
        _pdot: &Vector<D>,
    ) -> Matrix<D, D> {
        -self.0.jacobian_product_derivative(q, qdot)
    }

    /// `0`.
    fn psi_dp(
        &self,
        _q: &Vector<D>,
        _p: &Vector<D>,
        _qdot: &Vector<D>,
        _pdot: &Vector<D>,
    ) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `H(q)`.
    fn hamiltonian(&self, q: &Vector<D>, _p: &Vector<D>) -> Option<f64> {
        Some(self.0.hamiltonian(q))
    }
}

super::dae_constraint::degenerate_constraint!(DiracHamiltonian);
