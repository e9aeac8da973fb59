//! Implicit index-2 DAEs in Jay's form, the problem of the SPARK family.

use super::{DaeConstraint, Matrix, Vector};

/// An implicit differential-algebraic system of index 2 on `D` coordinates with `M` algebraic
/// constraints (Jay's form, GeometricEquations.jl 0.21's IDAE):
///
/// `q̇ = v + u(q, p, λ)`, `ṗ = f(q, v) + g(q, p, λ)`, `p = ϑ(q, v)`, `0 = φ(q, p)`,
///
/// with the multiplier `λ ∈ ℝᴹ`. Index 2 asks `∂φ/∂p · ∂g/∂λ + ∂φ/∂q · ∂u/∂λ` to be invertible
/// along the solution. A degenerate Lagrangian `L = ϑ(q)·v − H(q)` is the case `ϑ(q, v) = ϑ(q)`,
/// `f = ∂L/∂q = ∂ϑ/∂qᵀ v − ∇H`, `u = λ`, `g = ∂ϑ/∂qᵀ λ`, `φ = p − ϑ(q)` (`M = D`): its view
/// `LagrangianDae`.
///
/// Implement it with `#[derive(ImplicitDae)]`, which differentiates the expressions symbolically
/// at compile time. Matrix convention: `(∂a/∂b)_ij = ∂a_i/∂b_j`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a implicit DAE, which the method needs",
    label = "this method needs an implicit DAE",
    note = "the method applies to problems of kind ImplicitDae (`#[derive(ImplicitDae)]`); choose a method of the problem's kind (`sparkgen methods`)"
)]
pub trait ImplicitDae<const D: usize, const M: usize>: DaeConstraint<D, M> {
    /// The momentum map `ϑ(q, v)`.
    fn theta(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D>;
    /// `∂ϑ/∂q` (`D × D`).
    fn theta_dq(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;
    /// `∂ϑ/∂v` (`D × D`).
    fn theta_dv(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;

    /// The force `f(q, v)`.
    fn force(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D>;
    /// `∂f/∂q` (`D × D`).
    fn force_dq(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;
    /// `∂f/∂v` (`D × D`).
    fn force_dv(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D>;

    /// A guess of the velocity `v` at a consistent state `(q, p)` (upstream's `v̄`), used only
    /// to start Newton's method: the integrators extrapolate it over the step. The derive emits
    /// the user's `velocity` expression, or `0` without one.
    fn initial_velocity(&self, q: &Vector<D>, p: &Vector<D>) -> Vector<D>;

    /// An energy `E(q, p)` whose conservation the diagnostics measure, if the system has one.
    fn energy(&self, _q: &Vector<D>, _p: &Vector<D>) -> Option<f64> {
        None
    }
}
