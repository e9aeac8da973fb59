//! Typed failures of holonomic integration, with the step, the time and the numbers.

use crate::error::IntegrateError;
use crate::solution::Solution;

/// Why a RATTLE or SHAKE run (or a projection) stopped. `step` counts from 1 (0: the initial
/// data); `time` is the time at the start of the failing step.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HolonomicError {
    /// The initial data violate the constraints and projection was not requested.
    #[error(
        "inconsistent initial data: relative |c(q₀)| = {position:e}, relative |G M⁻¹ p₀| = {velocity:e} (tolerance {tolerance:e}; project them onto the constraints with `--project-initial`, or `project_initial` in the options)"
    )]
    InconsistentInitialData {
        /// `max_a |c_a(q₀)| / (‖∇c_a(q₀)‖₂ ‖q₀‖_∞)`.
        position: f64,
        /// `max_a |(G(q₀)M⁻¹p₀)_a| / (‖∇c_a(q₀)‖₂ ‖M⁻¹p₀‖_∞)`.
        velocity: f64,
        /// The tolerance both were held to.
        tolerance: f64,
    },
    /// The Gram matrix `A = G M⁻¹ Gᵀ` is numerically rank deficient: the constraint gradients
    /// are (nearly) linearly dependent.
    #[error(
        "step {step} (t = {time}): degenerate constraints, σ_min(A) = {sigma_min:e}, σ_max(A) = {sigma_max:e} (threshold {threshold:e} · σ_max)"
    )]
    DegenerateConstraints {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// The smallest singular value (eigenvalue) of `A`.
        sigma_min: f64,
        /// The largest singular value (eigenvalue) of `A`.
        sigma_max: f64,
        /// The relative rank threshold `τ_A`.
        threshold: f64,
    },
    /// The position multipliers did not reach the tolerance within the iteration cap.
    #[error(
        "step {step} (t = {time}): position multipliers not converged after {iterations} iterations, relative |c(q₁)| = {residual:e} > {tolerance:e}"
    )]
    PositionMultipliers {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// Iterations done (the cap).
        iterations: usize,
        /// The largest relative constraint residual at the last iterate.
        residual: f64,
        /// The relative tolerance.
        tolerance: f64,
    },
    /// The Newton matrix `G(q₁) M⁻¹ G(q_n)ᵀ` of the exact variant became singular.
    #[error(
        "step {step} (t = {time}): singular multiplier Newton matrix at iteration {iteration}, pivot {pivot:e}"
    )]
    SingularNewtonMatrix {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// The iteration (from 0).
        iteration: usize,
        /// The negligible pivot.
        pivot: f64,
    },
    /// The velocity constraints were not met within the iteration cap.
    #[error(
        "step {step} (t = {time}): velocity multipliers not converged after {iterations} iterations, |G M⁻¹ p₁| = {residual:e} > {tolerance:e}"
    )]
    VelocityMultipliers {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// Iterations done.
        iterations: usize,
        /// `max_a |(G(q₁)M⁻¹p₁)_a|`.
        residual: f64,
        /// The absolute tolerance.
        tolerance: f64,
    },
    /// The stage equations of a generated stage method have no solution Newton's method
    /// reaches (the driver's error: a singular Jacobian naming the unknown, inconsistent
    /// equations, or Newton's failure naming the stage equation).
    #[error(transparent)]
    StageEquations(crate::error::IntegrateError),
    /// The state stopped being finite.
    #[error("step {step} (t = {time}): non-finite state")]
    NonFinite {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
    },
    /// The options are unusable.
    #[error("invalid options: {0}")]
    InvalidOptions(&'static str),
    /// The problem's mass matrix is not symmetric positive definite.
    #[error("{0}")]
    MassMatrix(#[from] crate::problem::MassMatrixError),
}

/// A run that stopped early: the trajectory up to the last accepted step, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{error} (solution kept up to t = {})", solution.t.last().copied().unwrap_or(f64::NAN))]
pub struct HolonomicFailure<const D: usize> {
    /// The solution up to the last accepted step.
    pub solution: Solution<D>,
    /// Why the next step failed.
    pub error: HolonomicError,
}

impl From<IntegrateError> for HolonomicError {
    /// The old path's name of each error.
    fn from(error: IntegrateError) -> Self {
        match error {
            IntegrateError::NonFinite { step, time } => HolonomicError::NonFinite { step, time },
            IntegrateError::InvalidOptions(reason) => HolonomicError::InvalidOptions(reason),
            IntegrateError::MassMatrix(e) => HolonomicError::MassMatrix(e),
            IntegrateError::InconsistentConstraints {
                position,
                velocity,
                tolerance,
            } => HolonomicError::InconsistentInitialData {
                position,
                velocity,
                tolerance,
            },
            IntegrateError::DegenerateConstraints {
                step,
                time,
                sigma_min,
                sigma_max,
                threshold,
            } => HolonomicError::DegenerateConstraints {
                step,
                time,
                sigma_min,
                sigma_max,
                threshold,
            },
            IntegrateError::PositionMultipliers {
                step,
                time,
                iterations,
                residual,
                tolerance,
            } => HolonomicError::PositionMultipliers {
                step,
                time,
                iterations,
                residual,
                tolerance,
            },
            IntegrateError::SingularNewtonMatrix {
                step,
                time,
                iteration,
                pivot,
            } => HolonomicError::SingularNewtonMatrix {
                step,
                time,
                iteration,
                pivot,
            },
            IntegrateError::VelocityMultipliers {
                step,
                time,
                iterations,
                residual,
                tolerance,
            } => HolonomicError::VelocityMultipliers {
                step,
                time,
                iterations,
                residual,
                tolerance,
            },
            other => HolonomicError::StageEquations(other),
        }
    }
}

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
