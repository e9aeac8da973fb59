//! Typed errors of integration; each carries the step, time and numbers that explain it.

use crate::layout::{Dims, Layout, Position, Width};
use crate::solve::NewtonError;

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum IntegrateError {
    /// The stage Jacobian is singular (the method cannot be applied to this problem or step).
    #[error(
        "step {step} (t = {time}): singular stage Jacobian of {method}, pivot {pivot:e} in column {column}{}{}",
        of_unknown(unknown),
        of_undetermined(undetermined)
    )]
    SingularJacobian {
        /// The step (from 1).
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// The method, e.g. `SlrkLobattoIIIAB2`.
        method: String,
        /// The column without a usable pivot (from 0).
        column: usize,
        /// The unknown of that column: block, stage and component.
        unknown: Option<Position>,
        /// The smallest pivot found there.
        pivot: f64,
        /// The coordinate or constraint whose unknowns carry the direction the stage
        /// equations leave undetermined (where the linear solve could tell).
        undetermined: Option<Box<Undetermined>>,
    },
    /// The stage equations have no solution: the residual has a part outside the range of the
    /// (rank-deficient) stage Jacobian that no Newton update can reduce.
    #[error(
        "step {step} (t = {time}): inconsistent stage equations: Jacobian rank {rank}, unreachable residual {unreachable:e} of {residual:e}"
    )]
    InconsistentStageEquations {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// The numerical rank of the stage Jacobian.
        rank: usize,
        /// `‖r‖₂`.
        residual: f64,
        /// The part of `r` outside the Jacobian's range.
        unreachable: f64,
    },
    /// Newton's method did not converge.
    #[error("step {step} (t = {time}): {source}{}", of_equation(equation))]
    NewtonFailed {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// Iterations, residual history.
        source: NewtonError,
        /// The stage equation Newton names (the row left above its round-off): residual block,
        /// stage and component.
        equation: Option<Position>,
    },
    /// The constraint residual of a method that does not impose the constraint leaves round-off
    /// exponentially ([`crate::integrate::constraint_watch`]): a parasitic mode of the step,
    /// stopped a few doublings above round-off. The state at `step` was handed to the observer.
    #[error(
        "step {step} (t = {time}): the constraint residual {quantity} = {residual:e} ({relative:.1e} of |p|∞) grows exponentially, by a factor {growth:.3} per step: the method carries a parasitic mode on this problem; choose one that imposes the constraint (docs/methods.md)"
    )]
    ConstraintDeparture {
        /// The step whose state departs.
        step: usize,
        /// Its time.
        time: f64,
        /// What the residual measures, e.g. `|p − ϑ(q)|∞`.
        quantity: &'static str,
        /// The residual.
        residual: f64,
        /// The residual relative to `|p|∞`.
        relative: f64,
        /// Its growth factor per step.
        growth: f64,
    },
    /// The carried multiplier's defect `|λ_n − λ̂(q_n, p_n)|∞` grows by a factor per step: a
    /// parasitic multiplier mode ([`crate::integrate::multiplier_watch`]), stopped before it
    /// blows up.
    #[error(
        "step {step} (t = {time}): parasitic multiplier mode: the multiplier's defect |λ − λ̂(q, p)|∞ = {defect:e} grew by a factor {growth:.3} per step over the last {steps} steps{}",
        amplified(*amplification)
    )]
    ParasiticMultiplier {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
        /// `|λ_n − λ̂(q_n, p_n)|∞` after the step (after the last accepted one when the step
        /// itself failed).
        defect: f64,
        /// The defect's geometric mean growth per step.
        growth: f64,
        /// The number of consecutive growing steps.
        steps: usize,
        /// The spectral radius `ρ(R)` of the last step's linearised map of the scaled
        /// constraint and multiplier errors (`sparkgen::amplification`), where it was computed.
        amplification: Option<f64>,
    },
    /// The state stopped being finite (e.g. a step left the domain of ln).
    #[error("step {step} (t = {time}): non-finite state")]
    NonFinite {
        /// The step.
        step: usize,
        /// Time at the start of the step.
        time: f64,
    },
    /// A value needed before the first step is not finite at the initial data: the energy, the
    /// constraint residual, the starting velocity, or an entry of the stage equations or of
    /// their Jacobian at the first step's starting guess (ϑ, H, the constraints, the potential
    /// or their derivatives leave the finite numbers at `(q₀, p₀)`).
    #[error(
        "the initial data are outside the problem's domain: {what} is {value} at (q₀, p₀), before the first step (ϑ, H, the constraints, the potential or their derivatives are not finite there)"
    )]
    NonFiniteInitialData {
        /// What was evaluated, in the method's terms (e.g. the stage Jacobian's row and column).
        what: String,
        /// The value that is not finite.
        value: f64,
    },
    /// The constraint residual `|φ(q₀, p₀)|∞` of `(q₀, p₀)` (`φ = p − ϑ(q)` for a degenerate
    /// Lagrangian, the algebraic constraint of a DAE, `c(q)` for a holonomic system run by the
    /// engine) exceeds `τ₀ max(1, |p₀|∞)` ([`crate::integrate::Options::initial_tolerance`])
    /// and no projection was requested or available.
    #[error(
        "inconsistent initial data: the constraint residual {residual:e} > {tolerance:e} (|p₀ − ϑ(q₀)|∞ for a degenerate Lagrangian, |φ(q₀, p₀)|∞ for a DAE, |c(q₀)|∞ for a holonomic system; `--project-initial`, or `project_initial` in the options, projects them where the kind and shape allow it)"
    )]
    InconsistentInitialData {
        /// `|φ(q₀, p₀)|∞`.
        residual: f64,
        /// The tolerance.
        tolerance: f64,
    },
    /// The initial data of a holonomic system violate the position or the velocity constraint
    /// by more than the relative tolerance `τ₀` ([`crate::integrate::Options::initial_tolerance`])
    /// and projection was not requested.
    #[error(
        "inconsistent initial data: relative |c(q₀)| = {position:e}, relative |G M⁻¹ p₀| = {velocity:e} (tolerance {tolerance:e}; project them onto the constraints with `--project-initial`, or `project_initial` in the options)"
    )]
    InconsistentConstraints {
        /// `max_a |c_a(q₀)| / (‖∇c_a(q₀)‖₂ ‖q₀‖_∞)`.
        position: f64,
        /// `max_a |(G(q₀)M⁻¹p₀)_a| / (‖∇c_a(q₀)‖₂ ‖M⁻¹p₀‖_∞)`.
        velocity: f64,
        /// The tolerance both were held to.
        tolerance: f64,
    },
    /// The Gram matrix `A = G M⁻¹ Gᵀ` of a holonomic system is numerically rank deficient: the
    /// constraint gradients are (nearly) linearly dependent
    /// ([`crate::holonomic::Tolerances::gram`]).
    #[error(
        "step {step} (t = {time}): degenerate constraints, σ_min(A) = {sigma_min:e}, σ_max(A) = {sigma_max:e} (threshold {threshold:e} · σ_max): the constraint gradients are (nearly) linearly dependent"
    )]
    DegenerateConstraints {
        /// The step (0: the initial data).
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
    /// The position multipliers of RATTLE, SHAKE or a projection did not reach the tolerance
    /// within the iteration cap ([`crate::holonomic::Tolerances::position`]).
    #[error(
        "step {step} (t = {time}): position multipliers not converged after {iterations} iterations, relative |c(q₁)| = {residual:e} > {tolerance:e}"
    )]
    PositionMultipliers {
        /// The step (0: the initial projection).
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
    /// The initial projection ([`crate::integrate::Options::project_initial`],
    /// [`crate::holonomic::project`]) found no point on the constraints: its damped
    /// Gauss–Newton iteration stalled (`reason`) with `c(q) ≠ 0`.
    #[error(
        "cannot project the initial data onto the constraints: after {iterations} Gauss–Newton iterations |c(q)|∞ = {residual:e} and {reason}; the constraints have no solution near q₀, or their gradients are degenerate there"
    )]
    NoProjection {
        /// Gauss–Newton updates done.
        iterations: usize,
        /// `|c(q)|∞` at the last iterate q.
        residual: f64,
        /// Why the iteration stopped.
        reason: ProjectionStall,
    },
    /// The Newton matrix `G(q₁) M⁻¹ G(q_n)ᵀ` of the position multipliers (exact variant, or a
    /// tangent map) became singular.
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
    /// The velocity constraints `G(q₁) M⁻¹ p₁ = 0` were not met within the iteration cap
    /// ([`crate::holonomic::Tolerances::velocity`]).
    #[error(
        "step {step} (t = {time}): velocity multipliers not converged after {iterations} iterations, |G M⁻¹ p₁| = {residual:e} > {tolerance:e}"
    )]
    VelocityMultipliers {
        /// The step (0: the initial projection).
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
    /// The holonomic system's mass matrix is not symmetric positive definite.
    #[error("{0}")]
    MassMatrix(#[from] crate::problem::MassMatrixError),
    /// No multiplier `λ₀` is consistent with the initial data (the hidden constraint could not
    /// be solved for it).
    #[error("no consistent initial multiplier λ₀: the hidden constraint stays at {residual:e}")]
    InitialMultiplier {
        /// `|ψ(λ)|∞` where Newton's method stopped.
        residual: f64,
    },
    /// The options are unusable.
    #[error("invalid options: {0}")]
    InvalidOptions(&'static str),
    /// The method named at run time cannot run on the problem (another kind, other widths, a
    /// stage system too large for memory).
    #[error(transparent)]
    MethodUnavailable(#[from] crate::engine::EngineError),
}

/// Why the damped Gauss–Newton iteration of an initial projection stopped short of `c = 0`
/// ([`IntegrateError::NoProjection`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProjectionStall {
    /// The Gram matrix `A(q) = G M⁻¹ Gᵀ` at the last iterate is numerically rank deficient
    /// ([`crate::holonomic::Tolerances::gram`]): the constraint gradients are (nearly) linearly
    /// dependent there.
    Degenerate {
        /// The smallest singular value (eigenvalue) of `A`.
        sigma_min: f64,
        /// The largest singular value (eigenvalue) of `A`.
        sigma_max: f64,
        /// The relative rank threshold `τ_A`.
        threshold: f64,
    },
    /// No step along the Gauss–Newton direction decreases `|c|₂` sufficiently: the iterate is
    /// (numerically) a local minimum of `|c|` with `c ≠ 0`.
    NoDescent,
    /// The iteration cap ([`crate::holonomic::Tolerances::max_iterations`]) was reached.
    IterationCap,
}

impl std::fmt::Display for ProjectionStall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProjectionStall::Degenerate {
                sigma_min,
                sigma_max,
                threshold,
            } => write!(
                f,
                "the constraint gradients are (nearly) linearly dependent there, σ_min(A) = {sigma_min:e}, σ_max(A) = {sigma_max:e} (threshold {threshold:e} · σ_max)"
            ),
            ProjectionStall::NoDescent => {
                write!(f, "no step along the Gauss–Newton direction reduces |c|")
            }
            ProjectionStall::IterationCap => write!(f, "the iteration cap was reached"),
        }
    }
}

/// The direction `x` a singular stage Jacobian leaves undetermined (`J x ≈ 0`), by where it
/// lies: the coordinate `q_k` or constraint `φ_k` whose unknowns, over every block and stage,
/// carry the largest share of `‖x‖₂²`: which component of the problem the stage equations fail
/// to determine, whichever column the elimination stopped at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Undetermined {
    /// Coordinates or constraints.
    pub width: Width,
    /// The component, from 1.
    pub component: usize,
    /// Its share of `‖x‖₂²`, in `[0, 1]`.
    pub share: f64,
}

impl Undetermined {
    /// Where the direction `x` of the unknowns laid out by `unknowns` (widths `dims`) lies.
    fn of(x: &[f64], unknowns: &Layout, dims: Dims) -> Option<Undetermined> {
        let mut shares: Vec<(Width, usize, f64)> = Vec::new();
        for (i, xi) in x.iter().enumerate() {
            let at = unknowns.position(i, dims)?;
            match shares
                .iter_mut()
                .find(|(w, k, _)| (*w, *k) == (at.width, at.component))
            {
                Some((_, _, sum)) => *sum += xi * xi,
                None => shares.push((at.width, at.component, xi * xi)),
            }
        }
        let total: f64 = shares.iter().map(|s| s.2).sum();
        let (width, component, largest) = shares.into_iter().max_by(|a, b| a.2.total_cmp(&b.2))?;
        (total.is_finite() && total > 0.0).then_some(Undetermined {
            width,
            component,
            share: largest / total,
        })
    }
}

impl IntegrateError {
    /// Classifies a Newton failure at a step of the method `method` whose unknowns and residual
    /// rows are laid out by `unknowns` and `residuals` for the widths `dims` (which name the
    /// column or row at fault); `null` is the direction a singular Jacobian leaves undetermined,
    /// where the linear solve gave it.
    pub fn from_newton(
        (step, time): (usize, f64),
        method: &str,
        source: NewtonError,
        [unknowns, residuals]: [&Layout; 2],
        dims: Dims,
        null: Option<&[f64]>,
    ) -> IntegrateError {
        match source {
            NewtonError::Singular { source, .. } => IntegrateError::SingularJacobian {
                step,
                time,
                method: method.to_owned(),
                column: source.column,
                unknown: unknowns.position(source.column, dims),
                pivot: source.pivot,
                undetermined: null
                    .and_then(|x| Undetermined::of(x, unknowns, dims))
                    .map(Box::new),
            },
            NewtonError::NonFinite { .. } => IntegrateError::NonFinite { step, time },
            NewtonError::Inconsistent {
                rank,
                residual,
                unreachable,
                ..
            } => IntegrateError::InconsistentStageEquations {
                step,
                time,
                rank,
                residual,
                unreachable,
            },
            other => IntegrateError::NewtonFailed {
                step,
                time,
                equation: position_of(&other, [unknowns, residuals], dims),
                source: other,
            },
        }
    }
}

/// What a Newton failure names, as a position of the method's layouts: the unknown of a
/// singular column, or the residual row left above its round-off.
fn position_of(
    source: &NewtonError,
    [unknowns, residuals]: [&Layout; 2],
    dims: Dims,
) -> Option<Position> {
    match source {
        NewtonError::Singular { source, .. } => unknowns.position(source.column, dims),
        NewtonError::AboveRoundOff { row, .. } => residuals.position(row.checked_sub(1)?, dims),
        _ => None,
    }
}

/// The clause naming the unknown of a singular column.
fn of_unknown(unknown: &Option<Position>) -> String {
    unknown.map_or_else(String::new, |at| format!(" (the unknown {at})"))
}

/// The clause saying where the undetermined direction of a singular Jacobian lies.
fn of_undetermined(undetermined: &Option<Box<Undetermined>>) -> String {
    undetermined.as_deref().map_or_else(String::new, |u| {
        let what = match u.width {
            Width::Coordinates => "coordinate",
            Width::Constraints => "constraint",
        };
        format!(
            "; the direction the stage equations leave undetermined lies {:.1} % in the unknowns of {what} {}",
            100.0 * u.share,
            u.component
        )
    })
}

/// The clause naming the stage equation of a Newton failure.
fn of_equation(equation: &Option<Position>) -> String {
    equation.map_or_else(String::new, |at| {
        format!(" (the equation is the residual {at})")
    })
}

/// The clause of [`IntegrateError::ParasiticMultiplier`]'s message on `ρ(R)`.
fn amplified(amplification: Option<f64>) -> String {
    amplification.map_or_else(String::new, |rho| {
        format!("; one step amplifies the (φ/h, λ) error by up to {rho:.3}")
    })
}
