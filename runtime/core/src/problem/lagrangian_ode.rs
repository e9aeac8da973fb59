//! A general Lagrangian seen as an implicit DAE without constraints.

use super::{DaeConstraint, ImplicitDae, Lagrangian, Matrix, Vector};
use crate::solve::Lu;

/// The implicit ODE of a Lagrangian `L(q, v)` (upstream's LODE) as an implicit DAE with `M = 0`
/// constraints:
///
/// `q̇ = v`, `ṗ = ∂L/∂q(q, v)`, `p = ∂L/∂v(q, v)`,
///
/// that is `ϑ(q, v) = ∂L/∂v`, `f = ∂L/∂q` and no `u`, `g`, `φ` (`ℝ⁰`-valued). With no
/// multiplier the projective stages of VPARK only evaluate the update, and VPARK over Gauss(s)
/// is VPRK Gauss(s), the variational Runge–Kutta method of `L` (tested to round-off). VPARK over
/// the Lobatto pairs keeps its null-vector row `Σ dᵢVᵢ = 0` and relaxation `μ`, made for the
/// gauge of a degenerate Lagrangian, so on a regular one it is not VPRK over the pair (measured:
/// it still reaches its declared order 2s − 2).
/// The initial velocity is the inverse Legendre transform ([`Lagrangian::velocity`]), or, where
/// `∂²L/∂v²` is singular, the velocity of the Euler–Lagrange equations of a Lagrangian affine in
/// `v` ([`affine_velocity`]); the energy is `E = ∂L/∂v · v − L` at the Legendre velocity.
///
/// `LagrangianOde(&problem)` borrows the problem.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LagrangianOde<P>(pub P);

/// No constraint: `u`, `g` and `φ` are `ℝ⁰`-valued or zero.
impl<P: Lagrangian<D>, const D: usize> DaeConstraint<D, 0> for LagrangianOde<P> {
    /// `0`.
    fn u(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Vector<D> {
        Vector::zeros()
    }

    /// `0`.
    fn u_dq(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `0`.
    fn u_dp(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// Empty (`D × 0`).
    fn u_dlambda(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Matrix<D, 0> {
        Matrix::zeros()
    }

    /// `0`.
    fn g(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Vector<D> {
        Vector::zeros()
    }

    /// `0`.
    fn g_dq(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// `0`.
    fn g_dp(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Matrix<D, D> {
        Matrix::zeros()
    }

    /// Empty (`D × 0`).
    fn g_dlambda(&self, _q: &Vector<D>, _p: &Vector<D>, _lambda: &Vector<0>) -> Matrix<D, 0> {
        Matrix::zeros()
    }

    /// Empty: no constraint.
    fn phi(&self, _q: &Vector<D>, _p: &Vector<D>) -> Vector<0> {
        Vector::zeros()
    }

    /// Empty (`0 × D`).
    fn phi_dq(&self, _q: &Vector<D>, _p: &Vector<D>) -> Matrix<0, D> {
        Matrix::zeros()
    }

    /// Empty (`0 × D`).
    fn phi_dp(&self, _q: &Vector<D>, _p: &Vector<D>) -> Matrix<0, D> {
        Matrix::zeros()
    }
}

impl<P: Lagrangian<D>, const D: usize> ImplicitDae<D, 0> for LagrangianOde<P> {
    /// `ϑ = ∂L/∂v`.
    fn theta(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        self.0.momentum(q, v)
    }

    /// `∂ϑ/∂q = ∂²L/∂v∂q`.
    fn theta_dq(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.0.mixed_hessian(q, v)
    }

    /// `∂ϑ/∂v = ∂²L/∂v²`.
    fn theta_dv(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.0.velocity_hessian(q, v)
    }

    /// `f = ∂L/∂q`.
    fn force(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        self.0.position_gradient(q, v)
    }

    /// `∂f/∂q = ∂²L/∂q²`.
    fn force_dq(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.0.position_hessian(q, v)
    }

    /// `∂f/∂v = ∂²L/∂q∂v = (∂²L/∂v∂q)ᵀ`.
    fn force_dv(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.0.mixed_hessian(q, v).transpose()
    }

    /// The inverse Legendre transform `v(q, p)`; where `∂²L/∂v²` is singular, the
    /// [`affine_velocity`] at `q`, or `0` where neither exists.
    fn initial_velocity(&self, q: &Vector<D>, p: &Vector<D>) -> Vector<D> {
        self.0
            .velocity(q, p)
            .or_else(|| affine_velocity(&self.0, q))
            .unwrap_or_else(Vector::zeros)
    }

    /// `E = ∂L/∂v · v − L` at `v(q, p)`; `None` where the Legendre transform is not invertible.
    fn energy(&self, q: &Vector<D>, p: &Vector<D>) -> Option<f64> {
        self.0.velocity(q, p).map(|v| self.0.energy(q, &v))
    }
}

/// The velocity of the Euler–Lagrange equations of a Lagrangian affine in the velocities,
/// `L = α(q)·v + β(q)` (a degenerate Lagrangian written as a general one):
/// `(∂α/∂q − ∂α/∂qᵀ) v = ∇β(q)`, with `∂α/∂q = ∂²L/∂v∂q` and `∇β = ∂L/∂q(q, 0)` evaluated at
/// `v = 0`. For other Lagrangians with a singular `∂²L/∂v²` it is only a guess (it is used to
/// start Newton's method). `None` where the two-form `∂α/∂q − ∂α/∂qᵀ` is singular.
pub fn affine_velocity<P: Lagrangian<D>, const D: usize>(
    problem: &P,
    q: &Vector<D>,
) -> Option<Vector<D>> {
    let zero = Vector::<D>::zeros();
    let mixed = problem.mixed_hessian(q, &zero);
    Lu::solve_matrix(
        &(mixed - mixed.transpose()),
        &problem.position_gradient(q, &zero),
    )
}
