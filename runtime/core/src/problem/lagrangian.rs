//! General Lagrangians `L(q, v)`.

use super::{Matrix, Vector};
use crate::solve::Lu;

/// A Lagrangian `L(q, v)` on `D` coordinates with velocities `v = q̇`.
///
/// Implement it with `#[derive(Lagrangian)]`, which differentiates L symbolically at compile time.
/// The methods are the kernels of the Euler–Lagrange equations `d/dt ∂L/∂v = ∂L/∂q` and their
/// Jacobians; the view [`LagrangianOde`](super::LagrangianOde) hands them to the implicit-DAE
/// steppers. Second-derivative index order: the first index belongs to the first variable
/// named in the method (e.g. `∂²L/∂v∂q` has rows indexed by `v`, columns by `q`).
pub trait Lagrangian<const D: usize> {
    /// The Lagrangian `L(q, v)`.
    fn lagrangian(&self, q: &Vector<D>, v: &Vector<D>) -> f64;

    /// The position gradient (generalised force) `∂L/∂q`, entry `i` is `∂L/∂q_i`.
    fn position_gradient(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D>;

    /// The momentum `p = ∂L/∂v`, entry `i` is `∂L/∂v_i`.
    fn momentum(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D>;

    /// The velocity Hessian `∂²L/∂v²`, entry `(i, j)` is `∂²L/∂v_i∂v_j` (symmetric).
    fn velocity_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;

    /// The mixed Hessian `∂²L/∂v∂q`, entry `(i, j)` is `∂²L/∂v_i∂q_j = ∂p_i/∂q_j`.
    fn mixed_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;

    /// The position Hessian `∂²L/∂q²`, entry `(i, j)` is `∂²L/∂q_i∂q_j` (symmetric).
    fn position_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;

    /// The inverse Legendre transform: the velocity `v` with `∂L/∂v(q, v) = p`, by Newton's
    /// method from `v = 0` with the velocity Hessian `∂²L/∂v²` (LU with partial pivoting; exact
    /// after one step where `L` is quadratic in `v`). Converged when an update is below
    /// `10⁻¹⁰ max(1, |v|∞)`: Newton's quadratic convergence leaves the next error far below
    /// round-off. `None` where the Hessian is singular (a degenerate Lagrangian), the iterate is
    /// not finite, or 32 iterations do not converge.
    fn velocity(&self, q: &Vector<D>, p: &Vector<D>) -> Option<Vector<D>> {
        let mut v = Vector::<D>::zeros();
        for _ in 0..32 {
            let residual = self.momentum(q, &v) - p;
            let step = Lu::solve_matrix(&self.velocity_hessian(q, &v), &-residual)?;
            v += step;
            if step.amax() <= 1e-10 * v.amax().max(1.0) {
                return Some(v);
            }
        }
        None
    }

    /// The energy `E(q, v) = ∂L/∂v · v − L(q, v)`, conserved by the Euler–Lagrange flow of an
    /// autonomous Lagrangian.
    fn energy(&self, q: &Vector<D>, v: &Vector<D>) -> f64 {
        self.momentum(q, v).dot(v) - self.lagrangian(q, v)
    }
}

/// A borrowed Lagrangian is one: every method forwards to `T`'s.
impl<T: Lagrangian<D> + ?Sized, const D: usize> Lagrangian<D> for &T {
    fn lagrangian(&self, q: &Vector<D>, v: &Vector<D>) -> f64 {
        (**self).lagrangian(q, v)
    }

    fn position_gradient(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        (**self).position_gradient(q, v)
    }

    fn momentum(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        (**self).momentum(q, v)
    }

    fn velocity_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        (**self).velocity_hessian(q, v)
    }

    fn mixed_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        (**self).mixed_hessian(q, v)
    }

    fn position_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        (**self).position_hessian(q, v)
    }

    fn velocity(&self, q: &Vector<D>, p: &Vector<D>) -> Option<Vector<D>> {
        (**self).velocity(q, p)
    }

    fn energy(&self, q: &Vector<D>, v: &Vector<D>) -> f64 {
        (**self).energy(q, v)
    }
}
