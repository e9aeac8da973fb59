//! Invariants of degenerate Lagrangian flows along a run: the primary constraint
//! `φ(q, p) = p − ϑ(q)` and the energy `H(q)`.

use super::DiagnosticsError;
use crate::problem::DegenerateLagrangian;
use crate::solution::Solution;

/// `|φ(q_n, p_n)|∞ = |p_n − ϑ(q_n)|∞` at every point of the run.
pub fn constraint_residuals<P: DegenerateLagrangian<D>, const D: usize>(
    problem: &P,
    solution: &Solution<D>,
) -> Result<Vec<f64>, DiagnosticsError> {
    if solution.q.is_empty() {
        return Err(DiagnosticsError::EmptySolution);
    }
    Ok(solution
        .q
        .iter()
        .zip(&solution.p)
        .map(|(q, p)| (p - problem.theta(q)).amax())
        .collect())
}

/// `max_n |φ(q_n, p_n)|∞ = max_n |p_n − ϑ(q_n)|∞` over the run.
pub fn max_constraint_residual<P: DegenerateLagrangian<D>, const D: usize>(
    problem: &P,
    solution: &Solution<D>,
) -> Result<f64, DiagnosticsError> {
    Ok(constraint_residuals(problem, solution)?
        .into_iter()
        .fold(0.0, f64::max))
}

/// The relative energy error `|H(q_n) − H(q_0)| / |H(q_0)|` at every point of the run.
pub fn relative_energy_errors<P: DegenerateLagrangian<D>, const D: usize>(
    problem: &P,
    solution: &Solution<D>,
) -> Result<Vec<f64>, DiagnosticsError> {
    let q0 = solution.q.first().ok_or(DiagnosticsError::EmptySolution)?;
    let h0 = problem.hamiltonian(q0);
    if h0 == 0.0 || !h0.is_finite() {
        return Err(DiagnosticsError::DegenerateReference(h0));
    }
    Ok(solution
        .q
        .iter()
        .map(|q| ((problem.hamiltonian(q) - h0) / h0).abs())
        .collect())
}

/// The relative energy error `max_n |H(q_n) − H(q_0)| / |H(q_0)|` over the run.
pub fn max_relative_energy_error<P: DegenerateLagrangian<D>, const D: usize>(
    problem: &P,
    solution: &Solution<D>,
) -> Result<f64, DiagnosticsError> {
    Ok(relative_energy_errors(problem, solution)?
        .into_iter()
        .fold(0.0, f64::max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::LotkaVolterra2d;
    use nalgebra::SVector;

    #[test]
    fn residual_and_energy_of_a_hand_made_run() {
        let lv = LotkaVolterra2d::UPSTREAM;
        let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
        let q1 = SVector::from([2.0, 1.5]);
        let mut solution = Solution::with_capacity(1);
        solution.q.extend([q0, q1]);
        solution
            .p
            .extend([p0, lv.theta(&q1) + SVector::from([0.0, 1e-3])]);
        let phi = max_constraint_residual(&lv, &solution).unwrap_or(f64::NAN);
        assert!((phi - 1e-3).abs() < 1e-15, "{phi}");
        // H = −q₁ − q₂ + ln q₁ + 2 ln q₂: H(2, 1) = −3 + ln 2, H(2, 1.5) = −3.5 + ln 2 + 2 ln 1.5.
        let (h0, h1) = (-3.0 + 2f64.ln(), -3.5 + 2f64.ln() + 2.0 * 1.5f64.ln());
        let expected = ((h1 - h0) / h0).abs();
        let measured = max_relative_energy_error(&lv, &solution).unwrap_or(f64::NAN);
        assert!(
            (measured - expected).abs() <= 1e-15,
            "{measured} vs {expected}"
        );
        assert_eq!(
            max_constraint_residual(&lv, &Solution::<2>::default()),
            Err(DiagnosticsError::EmptySolution)
        );
    }
}
