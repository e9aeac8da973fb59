//! Degenerate (phase-space) Lagrangians `L(q, v) = ϑ(q)·v − H(q)`.

use super::{Matrix, Vector};
use crate::solve::Lu;

/// A degenerate Lagrangian `L(q, v) = ϑ(q)·v − H(q)` on `D` coordinates, linear in the velocity.
///
/// The momentum is `p = ϑ(q)` (primary constraint `φ = p − ϑ(q) = 0`), the Jacobian of the
/// one-form is `J = ∂ϑ/∂q` with `J_ij = ∂ϑ_i/∂q_j`, the two-form is `Ω = J − Jᵀ` and the
/// Euler–Lagrange equations read `Ω v = −∇H`.
///
/// Its view as Jay's index-2 implicit DAE is [`LagrangianDae`](super::LagrangianDae); a
/// reference `&T` is a degenerate Lagrangian whenever `T` is (so `LagrangianDae(&problem)`
/// borrows).
///
/// Implement it with `#[derive(DegenerateLagrangian)]`, which differentiates ϑ and H symbolically
/// at compile time. The required methods are the kernels of SLRK and VPRK; the provided methods
/// assemble them.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a degenerate Lagrangian, which the method needs",
    label = "this method needs a degenerate Lagrangian",
    note = "the method applies to problems of kind DegenerateLagrangian (`#[derive(DegenerateLagrangian)]`); choose a method of the problem's kind (`sparkgen methods`)"
)]
pub trait DegenerateLagrangian<const D: usize> {
    /// The one-form `ϑ(q)` (the momentum `p = ϑ(q)`).
    fn theta(&self, q: &Vector<D>) -> Vector<D>;

    /// The Jacobian of the one-form, `J = ∂ϑ/∂q` with `J_ij = ∂ϑ_i/∂q_j`.
    fn theta_jacobian(&self, q: &Vector<D>) -> Matrix<D, D>;

    /// The Hamiltonian `H(q)`.
    fn hamiltonian(&self, q: &Vector<D>) -> f64;

    /// The gradient `∇H(q)`, `(∇H)_i = ∂H/∂q_i`.
    fn hamiltonian_gradient(&self, q: &Vector<D>) -> Vector<D>;

    /// The Hessian `∇²H(q)`, `(∇²H)_ij = ∂²H/∂q_i∂q_j`.
    fn hamiltonian_hessian(&self, q: &Vector<D>) -> Matrix<D, D>;

    /// The derivative of the "f-type" contraction `Jᵀw` with respect to `q` at fixed `w`:
    /// `(∂(Jᵀw)/∂q)_kl = ∂(Jᵀw)_k/∂q_l = Σ_i w_i ∂²ϑ_i/∂q_k∂q_l` (the Hessian of `w·ϑ(q)`,
    /// symmetric).
    fn jacobian_transpose_product_derivative(&self, q: &Vector<D>, w: &Vector<D>) -> Matrix<D, D>;

    /// The derivative of the "g-type" contraction `Jv` with respect to `q` at fixed `v`:
    /// `(∂(Jv)/∂q)_kl = ∂(Jv)_k/∂q_l = Σ_j v_j ∂²ϑ_k/∂q_j∂q_l`.
    fn jacobian_product_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;

    /// `(ϑ(q), J(q), ∇H(q))` at one point `q`, with `J = ∂ϑ/∂q`: what the stage equations read
    /// at a stage point `Q_i` (the momentum `ϑ(Q_i)`, the force `J(Q_i)ᵀV_i − ∇H(Q_i)`). The
    /// generated steppers call it wherever they need two or three of these at the same point.
    ///
    /// The default calls [`theta`](Self::theta), [`theta_jacobian`](Self::theta_jacobian) and
    /// [`hamiltonian_gradient`](Self::hamiltonian_gradient). Override it where evaluating them
    /// together is cheaper than one by one (a problem file evaluates one tape in which the
    /// subexpressions the three share are computed once); it must return the same values.
    fn stage_point(&self, q: &Vector<D>) -> (Vector<D>, Matrix<D, D>, Vector<D>) {
        (
            self.theta(q),
            self.theta_jacobian(q),
            self.hamiltonian_gradient(q),
        )
    }

    /// `(J(q), ∇²H(q), ∂(Jᵀw)/∂q)` at one point `q` and one `w`: what the stage Jacobian reads
    /// at a stage point `Q_i` (the derivatives of `ϑ(Q_i)` and of the force `J(Q_i)ᵀV_i −
    /// ∇H(Q_i)`, with `w = V_i`). The generated steppers call it wherever they need
    /// `∂(Jᵀw)/∂q` and `∇²H` or `J` at the same point.
    ///
    /// The default calls [`theta_jacobian`](Self::theta_jacobian),
    /// [`hamiltonian_hessian`](Self::hamiltonian_hessian) and
    /// [`jacobian_transpose_product_derivative`](Self::jacobian_transpose_product_derivative);
    /// override it where evaluating them together is cheaper (a problem file's fused tape). It
    /// must return the same values.
    fn stage_point_derivatives(
        &self,
        q: &Vector<D>,
        w: &Vector<D>,
    ) -> (Matrix<D, D>, Matrix<D, D>, Matrix<D, D>) {
        (
            self.theta_jacobian(q),
            self.hamiltonian_hessian(q),
            self.jacobian_transpose_product_derivative(q, w),
        )
    }

    /// The Lagrangian `L(q, v) = ϑ(q)·v − H(q)`.
    fn lagrangian(&self, q: &Vector<D>, v: &Vector<D>) -> f64 {
        self.theta(q).dot(v) - self.hamiltonian(q)
    }

    /// The force `f = ∂L/∂q = Jᵀv − ∇H`.
    fn force(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        self.theta_jacobian(q).tr_mul(v) - self.hamiltonian_gradient(q)
    }

    /// The two-form `Ω = J − Jᵀ`, `Ω_ij = ∂ϑ_i/∂q_j − ∂ϑ_j/∂q_i`.
    fn two_form(&self, q: &Vector<D>) -> Matrix<D, D> {
        let j = self.theta_jacobian(q);
        j - j.transpose()
    }

    /// The vector field `v(q)` of the Euler–Lagrange equations `Ω(q) v = −∇H(q)` (LU with
    /// partial pivoting), or `None` when `Ω(q)` is singular or the solution is not finite.
    fn vector_field(&self, q: &Vector<D>) -> Option<Vector<D>> {
        Lu::solve_matrix(&self.two_form(q), &-self.hamiltonian_gradient(q))
    }
}

/// A borrowed degenerate Lagrangian is one: every method forwards to `T`'s.
impl<T: DegenerateLagrangian<D> + ?Sized, const D: usize> DegenerateLagrangian<D> for &T {
    fn theta(&self, q: &Vector<D>) -> Vector<D> {
        (**self).theta(q)
    }

    fn theta_jacobian(&self, q: &Vector<D>) -> Matrix<D, D> {
        (**self).theta_jacobian(q)
    }

    fn hamiltonian(&self, q: &Vector<D>) -> f64 {
        (**self).hamiltonian(q)
    }

    fn hamiltonian_gradient(&self, q: &Vector<D>) -> Vector<D> {
        (**self).hamiltonian_gradient(q)
    }

    fn hamiltonian_hessian(&self, q: &Vector<D>) -> Matrix<D, D> {
        (**self).hamiltonian_hessian(q)
    }

    fn jacobian_transpose_product_derivative(&self, q: &Vector<D>, w: &Vector<D>) -> Matrix<D, D> {
        (**self).jacobian_transpose_product_derivative(q, w)
    }

    fn jacobian_product_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        (**self).jacobian_product_derivative(q, v)
    }

    fn stage_point(&self, q: &Vector<D>) -> (Vector<D>, Matrix<D, D>, Vector<D>) {
        (**self).stage_point(q)
    }

    fn stage_point_derivatives(
        &self,
        q: &Vector<D>,
        w: &Vector<D>,
    ) -> (Matrix<D, D>, Matrix<D, D>, Matrix<D, D>) {
        (**self).stage_point_derivatives(q, w)
    }

    fn lagrangian(&self, q: &Vector<D>, v: &Vector<D>) -> f64 {
        (**self).lagrangian(q, v)
    }

    fn force(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        (**self).force(q, v)
    }

    fn two_form(&self, q: &Vector<D>) -> Matrix<D, D> {
        (**self).two_form(q)
    }

    fn vector_field(&self, q: &Vector<D>) -> Option<Vector<D>> {
        (**self).vector_field(q)
    }
}
