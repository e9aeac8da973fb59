//! The algebraic part shared by the index-2 DAEs of the SPARK family.

use super::{Matrix, Vector};

/// The constraint part of an index-2 DAE on `D` coordinates with the multiplier `λ ∈ ℝᴹ`,
/// shared by [`ImplicitDae`](super::ImplicitDae) and [`HamiltonianDae`](super::HamiltonianDae):
/// the projections `u(q, p, λ)` of the velocity and `g(q, p, λ)` of the force in
/// `q̇ = … + u`, `ṗ = … + g`, and the algebraic constraint `0 = φ(q, p)`. Index 2 asks
/// `∂φ/∂q · ∂u/∂λ + ∂φ/∂p · ∂g/∂λ` to be invertible along the solution.
///
/// The derives implement it together with their trait. Matrix convention:
/// `(∂a/∂b)_ij = ∂a_i/∂b_j`.
pub trait DaeConstraint<const D: usize, const M: usize> {
    /// The projection of the velocity `u(q, p, λ)`.
    fn u(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Vector<D>;
    /// `∂u/∂q` (`D × D`).
    fn u_dq(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D>;
    /// `∂u/∂p` (`D × D`).
    fn u_dp(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D>;
    /// `∂u/∂λ` (`D × M`).
    fn u_dlambda(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, M>;

    /// The projection of the force `g(q, p, λ)`.
    fn g(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Vector<D>;
    /// `∂g/∂q` (`D × D`).
    fn g_dq(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D>;
    /// `∂g/∂p` (`D × D`).
    fn g_dp(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D>;
    /// `∂g/∂λ` (`D × M`).
    fn g_dlambda(&self, q: &Vector<D>, p: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, M>;

    /// The algebraic constraint `φ(q, p)`.
    fn phi(&self, q: &Vector<D>, p: &Vector<D>) -> Vector<M>;
    /// `∂φ/∂q` (`M × D`).
    fn phi_dq(&self, q: &Vector<D>, p: &Vector<D>) -> Matrix<M, D>;
    /// `∂φ/∂p` (`M × D`).
    fn phi_dp(&self, q: &Vector<D>, p: &Vector<D>) -> Matrix<M, D>;
}

/// Implements [`DaeConstraint<D, D>`] for a view `$view<P>` of a degenerate Lagrangian `P`
/// (its field `0`) with the primary constraint `φ = p − ϑ(q)` and Dirac's projections
/// `u = λ`, `g = Jᵀλ` (`J = ∂ϑ/∂q`).
macro_rules! degenerate_constraint {
    ($view:ident) => {
        impl<P: $crate::problem::DegenerateLagrangian<D>, const D: usize>
            $crate::problem::DaeConstraint<D, D> for $view<P>
        {
            /// `u = λ`.
            fn u(&self, _q: &Vector<D>, _p: &Vector<D>, lambda: &Vector<D>) -> Vector<D> {
                *lambda
            }

            /// `0`.
            fn u_dq(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<D>) -> Matrix<D, D> {
                Matrix::zeros()
            }

            /// `0`.
            fn u_dp(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<D>) -> Matrix<D, D> {
                Matrix::zeros()
            }

            /// `∂u/∂λ = I`.
            fn u_dlambda(
                &self,
                _q: &Vector<D>,
                _p: &Vector<D>,
                _lambda: &Vector<D>,
            ) -> Matrix<D, D> {
                Matrix::identity()
            }

            /// `g = Jᵀλ`.
            fn g(&self, q: &Vector<D>, _p: &Vector<D>, lambda: &Vector<D>) -> Vector<D> {
                self.0.theta_jacobian(q).tr_mul(lambda)
            }

            /// `∂g/∂q = ∂(Jᵀλ)/∂q`.
            fn g_dq(&self, q: &Vector<D>, _p: &Vector<D>, lambda: &Vector<D>) -> Matrix<D, D> {
                self.0.jacobian_transpose_product_derivative(q, lambda)
            }

            /// `0`.
            fn g_dp(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<D>) -> Matrix<D, D> {
                Matrix::zeros()
            }

            /// `∂g/∂λ = Jᵀ`.
            fn g_dlambda(
                &self,
                q: &Vector<D>,
                _p: &Vector<D>,
                _lambda: &Vector<D>,
            ) -> Matrix<D, D> {
                self.0.theta_jacobian(q).transpose()
            }

            /// `φ = p − ϑ(q)`.
            fn phi(&self, q: &Vector<D>, p: &Vector<D>) -> Vector<D> {
                p - self.0.theta(q)
            }

            /// `∂φ/∂q = −J`.
            fn phi_dq(&self, q: &Vector<D>, _p: &Vector<D>) -> Matrix<D, D> {
                -self.0.theta_jacobian(q)
            }

            /// `∂φ/∂p = I`.
            fn phi_dp(&self, _q: &Vector<D>, _p: &Vector<D>) -> Matrix<D, D> {
                Matrix::identity()
            }
        }
    };
}
pub(crate) use degenerate_constraint;
