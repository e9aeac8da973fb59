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

    /// The partial derivatives of the residual and the update with respect to the step inputs
    /// and the unknowns (overwriting `t`), from which the tangent map of the step follows by
    /// the implicit function theorem.
    fn tangent<const N: usize>(
        problem: &P,
        h: f64,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        x: &[f64],
        t: &mut TangentBlocks<D, N>,
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

/// Partial derivatives of one step `r(x; q, p) = 0`, `(q₁, p₁) = Ψ(x; q, p)`:
/// `∂r/∂q`, `∂r/∂p` (N×D), `∂q₁/∂x`, `∂p₁/∂x` (D×N) and the explicit `∂(q₁, p₁)/∂(q, p)` (D×D).
#[derive(Clone, Debug, PartialEq)]
pub struct TangentBlocks<const D: usize, const N: usize> {
    /// `∂r/∂q`.
    pub r_q: [[f64; D]; N],
    /// `∂r/∂p`.
    pub r_p: [[f64; D]; N],
    /// `∂q₁/∂x`.
    pub q_x: [[f64; N]; D],
    /// `∂p₁/∂x`.
    pub p_x: [[f64; N]; D],
    /// `∂q₁/∂q` at fixed x.
    pub q_q: [[f64; D]; D],
    /// `∂q₁/∂p` at fixed x.
    pub q_p: [[f64; D]; D],
    /// `∂p₁/∂q` at fixed x.
    pub p_q: [[f64; D]; D],
    /// `∂p₁/∂p` at fixed x.
    pub p_p: [[f64; D]; D],
}

impl<const D: usize, const N: usize> TangentBlocks<D, N> {
    /// All zeros.
    pub fn zero() -> Self {
        TangentBlocks {
            r_q: [[0.0; D]; N],
            r_p: [[0.0; D]; N],
            q_x: [[0.0; N]; D],
            p_x: [[0.0; N]; D],
            q_q: [[0.0; D]; D],
            q_p: [[0.0; D]; D],
            p_q: [[0.0; D]; D],
            p_p: [[0.0; D]; D],
        }
    }
}
