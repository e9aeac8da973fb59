//! The holonomic failures as [`IntegrateError`]s, with the step, the time and the numbers.

use crate::error::IntegrateError;

impl IntegrateError {
    /// A rank-deficient Gram matrix at `step`.
    pub(crate) fn degenerate(
        d: super::gram::Degenerate,
        step: usize,
        time: f64,
        threshold: f64,
    ) -> IntegrateError {
        IntegrateError::DegenerateConstraints {
            step,
            time,
            sigma_min: d.sigma_min,
            sigma_max: d.sigma_max,
            threshold,
        }
    }

    /// A failed position (`velocity = false`) or velocity multiplier solve at `step`.
    pub(crate) fn multipliers(
        failure: super::multipliers::SolveFailure,
        velocity: bool,
        step: usize,
        time: f64,
        tolerances: &super::options::Tolerances,
    ) -> IntegrateError {
        use super::multipliers::SolveFailure;
        match failure {
            SolveFailure::NotConverged {
                iterations,
                residual,
            } if velocity => IntegrateError::VelocityMultipliers {
                step,
                time,
                iterations,
                residual,
                tolerance: tolerances.velocity,
            },
            SolveFailure::NotConverged {
                iterations,
                residual,
            } => IntegrateError::PositionMultipliers {
                step,
                time,
                iterations,
                residual,
                tolerance: tolerances.position,
            },
            SolveFailure::Singular { iteration, pivot } => IntegrateError::SingularNewtonMatrix {
                step,
                time,
                iteration,
                pivot,
            },
            SolveFailure::NonFinite => IntegrateError::NonFinite { step, time },
        }
    }
}
