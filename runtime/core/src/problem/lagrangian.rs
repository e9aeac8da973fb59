//! General Lagrangians `L(q, v)`.

use super::{Matrix, Vector};
use crate::solve::{Fixed, Lu, Space};

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
        let (mut v, mut step) = (Vector::<D>::zeros(), Vector::<D>::zeros());
        // Flat row-major storage of ∂²L/∂v² (nalgebra's storage order is not read).
        let mut hessian = Matrix::<D, D>::zeros();
        let solved = inverse_legendre(
            &mut Lu::new(Fixed::<D>),
            |v, out| {
                out.copy_from_slice(self.momentum(q, &Vector::from_column_slice(v)).as_slice())
            },
            |v, out| {
                let h = self.velocity_hessian(q, &Vector::from_column_slice(v));
                for (k, o) in out.iter_mut().enumerate() {
                    *o = h[(k / D, k % D)];
                }
            },
            p.as_slice(),
            (
                v.as_mut_slice(),
                step.as_mut_slice(),
                hessian.as_mut_slice(),
            ),
        );
        solved.then_some(v)
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

/// The inverse Legendre transform on slices of any length `D`: the velocity `v` with
/// `p(v) = p` for the momentum map `momentum` (`v ↦ ∂L/∂v(q, v)` at a fixed `q`), by Newton's
/// method from `v = 0` with the Jacobian `hessian` (`v ↦ ∂²L/∂v²`, row-major), factored by `lu`
/// (LU with partial pivoting). Converged when an update is below `10⁻¹⁰ max(1, |v|∞)`; `false`
/// where the Jacobian is singular, an update is not finite, or 32 iterations do not converge.
/// `v` receives the velocity; `step` (`D`) and `matrix` (`D × D`) are work storage.
pub fn inverse_legendre<S: Space>(
    lu: &mut Lu<S>,
    momentum: impl Fn(&[f64], &mut [f64]),
    hessian: impl Fn(&[f64], &mut [f64]),
    p: &[f64],
    (v, step, matrix): (&mut [f64], &mut [f64], &mut [f64]),
) -> bool {
    let amax = |x: &[f64]| x.iter().fold(0.0f64, |m, y| m.max(y.abs()));
    v.fill(0.0);
    for _ in 0..32 {
        momentum(v, step);
        for (s, pk) in step.iter_mut().zip(p) {
            *s = -(*s - pk);
        }
        hessian(v, matrix);
        if lu.refactor(matrix).is_err() {
            return false;
        }
        lu.solve_in_place(step);
        if !step.iter().all(|x| x.is_finite()) {
            return false;
        }
        for (vk, s) in v.iter_mut().zip(step.iter()) {
            *vk += s;
        }
        if amax(step) <= 1e-10 * amax(v).max(1.0) {
            return true;
        }
    }
    false
}
