//! Hamiltonian DAEs with Dirac constraints, the problem of the HPARK/HSPARK family.

use super::{DaeConstraint, Matrix, Vector};

/// A Hamiltonian differential-algebraic system of index 2 on `D` coordinates with `M` primary
/// constraints (upstream's HDAE/PDAE, GeometricEquations.jl 0.21):
///
/// `q̇ = v(q, p) + u(q, p, λ)`, `ṗ = f(q, p) + g(q, p, λ)`, `0 = φ(q, p)`,
///
/// with the multiplier `λ ∈ ℝᴹ`. For a Hamiltonian `H(q, p)` with Dirac's total Hamiltonian
/// `H_T = H + λ·φ`: `v = ∂H/∂p`, `f = −∂H/∂q`, `u = (∂φ/∂p)ᵀλ`, `g = −(∂φ/∂q)ᵀλ`. Index 2 asks
/// `∂φ/∂q · ∂u/∂λ + ∂φ/∂p · ∂g/∂λ` to be invertible along the solution. A degenerate Lagrangian
/// `L = ϑ(q)·v − H(q)` is the case `H = H(q)`, `φ = p − ϑ(q)`: its view
/// [`DiracHamiltonian`](super::DiracHamiltonian).
///
/// The secondary constraint is the derivative of φ along any motion,
/// `ψ(q, p, q̇, ṗ) = ∂φ/∂q · q̇ + ∂φ/∂p · ṗ` (HSPARKsecondary imposes it on the projected vector
/// field); its partials in `q̇` and `ṗ` are those of φ, and those in `q` and `p` need the second
/// derivatives of φ.
///
/// Matrix convention: `(∂a/∂b)_ij = ∂a_i/∂b_j`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Hamiltonian DAE, which the method needs",
    label = "this method needs a Hamiltonian DAE",
    note = "the method applies to problems of kind HamiltonianDae (`#[derive(HamiltonianDae)]`); choose a method of the problem's kind (`sparkgen methods`)"
)]
pub trait HamiltonianDae<const D: usize, const M: usize>: DaeConstraint<D, M> {
    /// The velocity `v(q, p)` (`∂H/∂p`).
    fn velocity(&self, q: &Vector<D>, p: &Vector<D>) -> Vector<D>;
    /// `∂v/∂q` (`D × D`).
    fn velocity_dq(&self, q: &Vector<D>, p: &Vector<D>) -> Matrix<D, D>;
    /// `∂v/∂p` (`D × D`).
    fn velocity_dp(&self, q: &Vector<D>, p: &Vector<D>) -> Matrix<D, D>;

    /// The force `f(q, p)` (`−∂H/∂q`).
    fn force(&self, q: &Vector<D>, p: &Vector<D>) -> Vector<D>;
    /// `∂f/∂q` (`D × D`).
    fn force_dq(&self, q: &Vector<D>, p: &Vector<D>) -> Matrix<D, D>;
    /// `∂f/∂p` (`D × D`).
    fn force_dp(&self, q: &Vector<D>, p: &Vector<D>) -> Matrix<D, D>;

    /// `∂ψ/∂q = ∂/∂q (∂φ/∂q · q̇ + ∂φ/∂p · ṗ)` at fixed `q̇`, `ṗ` (`M × D`).
    fn psi_dq(
        &self,
        q: &Vector<D>,
        p: &Vector<D>,
        qdot: &Vector<D>,
        pdot: &Vector<D>,
    ) -> Matrix<M, D>;
    /// `∂ψ/∂p = ∂/∂p (∂φ/∂q · q̇ + ∂φ/∂p · ṗ)` at fixed `q̇`, `ṗ` (`M × D`).
    fn psi_dp(
        &self,
        q: &Vector<D>,
        p: &Vector<D>,
        qdot: &Vector<D>,
        pdot: &Vector<D>,
    ) -> Matrix<M, D>;

    /// The secondary constraint `ψ(q, p, q̇, ṗ) = ∂φ/∂q · q̇ + ∂φ/∂p · ṗ`, the rate of change of φ.
    fn psi(&self, q: &Vector<D>, p: &Vector<D>, qdot: &Vector<D>, pdot: &Vector<D>) -> Vector<M> {
        self.phi_dq(q, p) * qdot + self.phi_dp(q, p) * pdot
    }
    /// `∂ψ/∂q̇ = ∂φ/∂q` (`M × D`).
    fn psi_dqdot(
        &self,
        q: &Vector<D>,
        p: &Vector<D>,
        _qdot: &Vector<D>,
        _pdot: &Vector<D>,
    ) -> Matrix<M, D> {
        self.phi_dq(q, p)
    }
    /// `∂ψ/∂ṗ = ∂φ/∂p` (`M × D`).
    fn psi_dpdot(
        &self,
        q: &Vector<D>,
        p: &Vector<D>,
        _qdot: &Vector<D>,
        _pdot: &Vector<D>,
    ) -> Matrix<M, D> {
        self.phi_dp(q, p)
    }

    /// The Hamiltonian `H(q, p)`, whose conservation the diagnostics measure, if the system has
    /// one.
    fn hamiltonian(&self, _q: &Vector<D>, _p: &Vector<D>) -> Option<f64> {
        None
    }
}
