//! Invariants of degenerate Lagrangian flows along a run: the primary constraint
//! `φ(q, p) = p − ϑ(q)` and the energy `H(q)`, and how an energy error is measured.

use super::{DiagnosticsError, maximum};
use crate::problem::DegenerateLagrangian;
use crate::solution::Solution;

/// How the energy error `H_n − H₀` of a run is measured: relative to `|H₀|`, or absolute where
/// `H₀ = 0` (a relative error is undefined there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EnergyError {
    /// `|H_n − H₀| / |H₀|`, for `H₀ ≠ 0`.
    Relative {
        /// `H₀`.
        h0: f64,
    },
    /// `|H_n − H₀| = |H_n|`, for `H₀ = 0`.
    Absolute,
}

impl EnergyError {
    /// The measure against the reference `H₀`: relative unless `H₀ = 0`; an error if `H₀` is not
    /// finite.
    pub fn against(h0: f64) -> Result<EnergyError, DiagnosticsError> {
        match h0 {
            0.0 => Ok(EnergyError::Absolute),
            h0 if h0.is_finite() => Ok(EnergyError::Relative { h0 }),
            h0 => Err(DiagnosticsError::DegenerateReference(h0)),
        }
    }

    /// The error of the energy `h`.
    pub fn of(self, h: f64) -> f64 {
        match self {
            EnergyError::Relative { h0 } => ((h - h0) / h0).abs(),
            EnergyError::Absolute => h.abs(),
        }
    }

    /// `relative` or `absolute`.
    pub fn kind(self) -> &'static str {
        match self {
            EnergyError::Relative { .. } => "relative",
            EnergyError::Absolute => "absolute",
        }
    }
}

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
    Ok(maximum(constraint_residuals(problem, solution)?))
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
    Ok(maximum(relative_energy_errors(problem, solution)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::LotkaVolterra2d;
    use nalgebra::SVector;

    #[test]
    fn maxima_keep_nan_and_a_zero_energy_is_measured_absolutely() {
        assert_eq!(maximum([1.0, 3.0, 2.0]), 3.0);
        assert!(maximum([1.0, f64::NAN, 2.0]).is_nan());
        assert!(maximum([f64::NAN, 1.0]).is_nan());
        assert_eq!(maximum(std::iter::empty()), 0.0);
        assert_eq!(EnergyError::against(0.0), Ok(EnergyError::Absolute));
        assert_eq!(EnergyError::Absolute.of(-2e-3), 2e-3);
        let relative = EnergyError::against(-4.0);
        assert_eq!(relative.clone().map(|e| e.of(-3.0)), Ok(0.25));
        assert_eq!(relative.map(EnergyError::kind), Ok("relative"));
        assert!(EnergyError::against(f64::NAN).is_err());
    }

    #[test]
    fn residual_and_energy_of_a_hand_made_run() {
        let lv = LotkaVolterra2d::UPSTREAM;
        let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
        let q1 = SVector::from([2.0, 1.5]);
        let mut solution = Solution::default();
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
