//! The interface between generated steppers and the runtime.
//!
//! A one-step method is a square nonlinear system `r(x; q_n, p_n, h) = 0` in the unknowns `x`
//! (laid out by [`StageMethod::UNKNOWNS`]) with its exact Jacobian, and an explicit update
//! `(q_{n+1}, p_{n+1}) = Ψ(x; q_n, p_n, h)`. The generator emits one implementation per
//! (family, tableaus, s), fully unrolled with the tableau coefficients as literals.

use crate::layout::Layout;
use nalgebra::SVector;

/// Stage equations of a method applied to problems of type `P` with `D` coordinates.
pub trait StageMethod<P, const D: usize> {
    /// The method's name, e.g. `SlrkLobattoIIIEIIIEBar3`.
    const NAME: &'static str;
    /// Classical order.
    const ORDER: usize;
    /// Nodes `c_i` of the velocity stages (for the initial guess).
    const NODES: &'static [f64];
    /// The unknown vector.
    const UNKNOWNS: Layout;
    /// The residual vector (same length).
    const RESIDUALS: Layout;

    /// Writes `r(x)`.
    fn residual(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        x: &[f64],
        r: &mut [f64],
    );

    /// Writes the exact Jacobian `∂r/∂x` (overwriting `j`).
    fn jacobian<const N: usize>(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        x: &[f64],
        j: &mut [[f64; N]; N],
    );

    /// `(q_{n+1}, p_{n+1})` from the converged unknowns.
    fn update(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        x: &[f64],
    ) -> (SVector<f64, D>, SVector<f64, D>);
}
