//! General Lagrangians `L(q, v)`.

use super::{Matrix, Vector};

/// A Lagrangian `L(q, v)` on `D` coordinates with velocities `v = q̇`.
///
/// Implement it with `#[derive(Lagrangian)]`, which differentiates L symbolically at compile time.
/// The methods are the kernels VPRK needs: the Euler–Lagrange equations `d/dt ∂L/∂v = ∂L/∂q` and
/// their Jacobians. Second-derivative index order: the first index belongs to the first variable
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
}
