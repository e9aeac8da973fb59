//! Mechanical systems with a constant mass matrix and holonomic constraints.

use super::{Matrix, Vector};

/// A mechanical system `H(q, p) = ½ pᵀM⁻¹p + V(q)` on `D` coordinates, constrained to the
/// manifold `c(q) = 0` by `M ≥ 1` holonomic constraints.
///
/// The equations of motion are `q̇ = M⁻¹p`, `ṗ = −∇V(q) − Dc(q)ᵀλ`, `0 = c(q)` with Lagrange
/// multipliers `λ ∈ ℝᴹ`. The mass matrix is constant (it may depend on the struct's parameters);
/// it must be symmetric positive definite.
///
/// Implement it with `#[derive(HolonomicSystem)]`, which differentiates V and c symbolically and
/// inverts the mass matrix symbolically at compile time.
pub trait HolonomicSystem<const D: usize, const M: usize> {
    /// The mass matrix `M`.
    fn mass_matrix(&self) -> Matrix<D, D>;

    /// The inverse mass matrix `M⁻¹`.
    fn inverse_mass_matrix(&self) -> Matrix<D, D>;

    /// The potential `V(q)`.
    fn potential(&self, q: &Vector<D>) -> f64;

    /// The gradient `∇V(q)`, `(∇V)_i = ∂V/∂q_i`.
    fn potential_gradient(&self, q: &Vector<D>) -> Vector<D>;

    /// The Hessian `∇²V(q)`, `(∇²V)_ij = ∂²V/∂q_i∂q_j`.
    fn potential_hessian(&self, q: &Vector<D>) -> Matrix<D, D>;

    /// The constraints `c(q)` (zero on the constraint manifold).
    fn constraints(&self, q: &Vector<D>) -> Vector<M>;

    /// The constraint Jacobian `Dc(q)` (`M × D`), `(Dc)_aj = ∂c_a/∂q_j`.
    fn constraint_jacobian(&self, q: &Vector<D>) -> Matrix<M, D>;

    /// The derivative of the constraint force `Dc(q)ᵀλ` with respect to `q` at fixed `λ`:
    /// `(∂(Dcᵀλ)/∂q)_kl = Σ_a λ_a ∂²c_a/∂q_k∂q_l` (`D × D`, symmetric).
    fn constraint_force_derivative(&self, q: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D>;

    /// The derivative of `Dc(q)v` with respect to `q` at fixed `v`:
    /// `(∂(Dc v)/∂q)_al = Σ_k ∂²c_a/∂q_k∂q_l v_k` (`M × D`). It differentiates the hidden
    /// constraint `Dc(q)M⁻¹p = 0`.
    fn constraint_velocity_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<M, D>;

    /// The velocity `q̇ = M⁻¹p`.
    fn velocity(&self, p: &Vector<D>) -> Vector<D> {
        self.inverse_mass_matrix() * p
    }

    /// The Hamiltonian `H(q, p) = ½ pᵀM⁻¹p + V(q)`.
    fn hamiltonian(&self, q: &Vector<D>, p: &Vector<D>) -> f64 {
        0.5 * p.dot(&self.velocity(p)) + self.potential(q)
    }
}
