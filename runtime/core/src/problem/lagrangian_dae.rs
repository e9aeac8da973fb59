//! A degenerate Lagrangian seen as Jay's index-2 implicit DAE.

use super::{DegenerateLagrangian, ImplicitDae, Matrix, Vector};

/// The implicit DAE of a degenerate Lagrangian `L(q, v) = ϑ(q)·v − H(q)` (`M = D` multipliers):
///
/// `q̇ = v + λ`, `ṗ = ∂L/∂q(q, v) + Jᵀλ`, `p = ϑ(q)`, `0 = φ(q, p) = p − ϑ(q)`,
///
/// that is `ϑ(q, v) = ϑ(q)`, `f(q, v) = Jᵀv − ∇H(q)`, `u(q, p, λ) = λ`, `g(q, p, λ) = Jᵀλ`
/// with `J = ∂ϑ/∂q` (`J_ij = ∂ϑ_i/∂q_j`). Differentiating `φ = 0` along a solution gives
/// `Ω(q)(v + λ) = −∇H(q)` with the two-form `Ω = J − Jᵀ`: the Euler–Lagrange equations for
/// `q̇ = v + λ`. Index 2: `∂φ/∂p · ∂g/∂λ + ∂φ/∂q · ∂u/∂λ = Jᵀ − J = −Ω` is invertible exactly
/// where `Ω` is. The energy is `H(q)`; the initial velocity is the vector field `v` of
/// `Ω(q) v = −∇H(q)` ([`DegenerateLagrangian::vector_field`]).
///
/// `LagrangianDae(&problem)` borrows the problem.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LagrangianDae<P>(pub P);

impl<P: DegenerateLagrangian<D>, const D: usize> ImplicitDae<D, D> for LagrangianDae<P> {
    /// `ϑ(q)`, independent of `v`.
    fn theta(&self, q: &Vector<D>, _v: &Vector<D>) -> Vector<D> {
        self.0.theta(q)
    }

    /// `J = ∂ϑ/∂q`.
    fn theta_dq(&self, q: &Vector<D>, _v: &Vector<D>) -> Matrix<D, D> {
        self.0.theta_jacobian(q)
    }

    /// `0`.
    fn theta_dv(&self, _q: &Vector<D>, _v: &Vector<D>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `f = ∂L/∂q = Jᵀv − ∇H`.
    fn force(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        self.0.force(q, v)
    }

    /// `∂f/∂q = ∂(Jᵀv)/∂q − ∇²H`.
    fn force_dq(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.0.jacobian_transpose_product_derivative(q, v) - self.0.hamiltonian_hessian(q)
    }

    /// `∂f/∂v = Jᵀ`.
    fn force_dv(&self, q: &Vector<D>, _v: &Vector<D>) -> Matrix<D, D> {
        self.0.theta_jacobian(q).transpose()
    }

    /// The vector field `v` of `Ω(q) v = −∇H(q)`, or `0` where `Ω(q)` is singular.
    fn initial_velocity(&self, q: &Vector<D>, _p: &Vector<D>) -> Vector<D> {
        self.0.vector_field(q).unwrap_or_else(Vector::zeros)
    }

    /// `H(q)`.
    fn energy(&self, q: &Vector<D>, _p: &Vector<D>) -> Option<f64> {
        Some(self.0.hamiltonian(q))
    }
}

super::dae_constraint::degenerate_constraint!(LagrangianDae);
