//! The exact tangent map of one RATTLE step, by the implicit function theorem on the
//! converged multiplier equations.

use super::gram::{factor, solve};
use super::rattle::{RattleStep, RattleStepper};
use crate::error::IntegrateError;
use crate::problem::{HolonomicSystem, Vector};
use nalgebra::Const;

impl<P: HolonomicSystem<D, M>, const D: usize, const M: usize>
    RattleStepper<'_, P, Const<D>, Const<M>>
{
    /// The image `(δq₁, δp₁)` of the variation `(δq, δp)` at `(q, p)` under the step `step`
    /// taken from `(q, p)` with this stepper's `h`, by the implicit function theorem on the
    /// converged multiplier equations.
    ///
    /// With `K(q, ν) = ∂(G(q)ᵀν)/∂q`, `∇²V` the Hessian, `G₁ = G(q₁)`, `A₁ = G₁M⁻¹G₁ᵀ`,
    /// `v₁ = M⁻¹p₁` and `S` the `M × D` matrix with rows `(∇²c_a(q₁) v₁)ᵀ`, a variation
    /// `(δq, δp)` maps to
    ///
    /// ```text
    /// a   = δp − (h/2)∇²V(q) δq − h K(q, λ) δq
    /// δλ  = [h² G₁M⁻¹G(q)ᵀ]⁻¹ G₁ (δq + h M⁻¹a)                 (from G₁ δq₁ = 0)
    /// δq₁ = δq + h M⁻¹(a − h G(q)ᵀδλ)
    /// b   = a − h G(q)ᵀδλ − (h/2)∇²V(q₁) δq₁ − h K(q₁, μ) δq₁
    /// δμ  = A₁⁻¹ (S δq₁ + G₁M⁻¹b) / h                         (from δ(G₁M⁻¹p₁) = 0)
    /// δp₁ = b − h G₁ᵀ δμ
    /// ```
    pub fn tangent(
        &self,
        q: &Vector<D>,
        step: &RattleStep<Const<D>, Const<M>>,
        dq: &Vector<D>,
        dp: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>), IntegrateError> {
        let (h, problem, minv) = (self.core.h, self.core.problem, &self.core.minv);
        let singular = |pivot| IntegrateError::SingularNewtonMatrix {
            step: self.steps(),
            time: self.time() - h,
            iteration: 0,
            pivot,
        };
        let solve = |matrix: &crate::problem::Matrix<M, M>, rhs: Vector<M>| {
            let lu = factor(matrix).map_err(|pivot| singular(pivot.unwrap_or(f64::NAN)))?;
            Ok::<Vector<M>, IntegrateError>(solve::<Const<M>>(&lu, &rhs))
        };
        let (q1, p1) = (&step.q, &step.p);
        let g0 = problem.constraint_jacobian(q);
        let g1 = problem.constraint_jacobian(q1);
        let a = dp
            - 0.5 * h * (problem.potential_hessian(q) * dq)
            - h * (problem.constraint_force_derivative(q, &step.lambda) * dq);
        let n = h * h * (g1 * minv * g0.transpose());
        let dlambda = solve(&n, g1 * (dq + h * (minv * a)))?;
        let impulse = a - h * (g0.transpose() * dlambda);
        let dq1 = dq + h * (minv * impulse);
        let b = impulse
            - 0.5 * h * (problem.potential_hessian(q1) * dq1)
            - h * (problem.constraint_force_derivative(q1, &step.mu) * dq1);
        let v1 = minv * p1;
        let s_dq1 = Vector::<M>::from_fn(|i, _| {
            let e = Vector::<M>::from_fn(|k, _| if k == i { 1.0 } else { 0.0 });
            (problem.constraint_force_derivative(q1, &e) * v1).dot(&dq1)
        });
        let a1 = g1 * minv * g1.transpose();
        let dmu = solve(&a1, s_dq1 + g1 * (minv * b))? / h;
        Ok((dq1, b - h * (g1.transpose() * dmu)))
    }
}
