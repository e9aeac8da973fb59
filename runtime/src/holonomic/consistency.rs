//! Consistency of the data with the constraints: the residuals `c(q)` and `G(q)M⁻¹p`, and the
//! explicit Newton projection onto `c = 0`, `G M⁻¹ p = 0`.

use super::geometry::{Block, Column, Geometry, Shapes, Solvable};
use super::multipliers::{ConstraintFrame, solve_positions, solve_velocities};
use super::options::{Tolerances, validate};
use crate::diagnostics::nan_max;
use crate::error::IntegrateError;
use crate::integrate::Options;
use nalgebra::{DefaultAllocator, Dim, U1};

/// Relative violations of the two constraints at `(q, p)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConsistencyResiduals {
    /// `max_a |c_a(q)| / (‖∇c_a(q)‖₂ ‖q‖_∞)`.
    pub position: f64,
    /// `max_a |(G(q)M⁻¹p)_a| / (‖∇c_a(q)‖₂ ‖M⁻¹p‖_∞)`.
    pub velocity: f64,
}

/// `|x| / scale`, with `0/0 = 0`.
pub(crate) fn ratio(x: f64, scale: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x.abs() / scale }
}

/// The relative constraint violations of `(q, p)` (see [`ConsistencyResiduals`]).
pub fn consistency_residuals<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    q: &Column<D>,
    p: &Column<D>,
) -> ConsistencyResiduals
where
    DefaultAllocator: Shapes<D, M>,
{
    let g = problem.constraint_gradients(q);
    let c = problem.constraint_values(q);
    let v = problem.velocity_of(p);
    let gv = &g * &v;
    let terms = (0..c.len()).map(|a| (c[a], gv[a], g.row(a).norm()));
    worst_residuals(terms, q.amax(), v.amax())
}

/// The worst relative violations from `(c_a, (G M⁻¹ p)_a, ‖∇c_a‖₂)` for each constraint and
/// the lengths `‖q‖_∞` and `‖M⁻¹p‖_∞` (see [`ConsistencyResiduals`]).
pub(crate) fn worst_residuals(
    terms: impl Iterator<Item = (f64, f64, f64)>,
    q_len: f64,
    v_len: f64,
) -> ConsistencyResiduals {
    let zero = ConsistencyResiduals {
        position: 0.0,
        velocity: 0.0,
    };
    // A NaN (a constraint or a gradient that is not finite) is never skipped.
    terms.fold(zero, |worst, (c, gv, norm)| ConsistencyResiduals {
        position: nan_max(worst.position, ratio(c, norm * q_len)),
        velocity: nan_max(worst.velocity, ratio(gv, norm * v_len)),
    })
}

/// Projects `(q, p)` onto the constraint manifold: `q' = q − M⁻¹G(q)ᵀx` with `c(q') = 0` by
/// Newton's method (tolerances as in RATTLE), then `p' = p − G(q')ᵀμ` with `G(q')M⁻¹p' = 0`.
pub fn project<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    q: &Column<D>,
    p: &Column<D>,
    tolerances: &Tolerances,
) -> Result<(Column<D>, Column<D>), IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    tolerances
        .validate()
        .map_err(IntegrateError::InvalidOptions)?;
    project_at(problem, &problem.inverse_mass(), q, p, tolerances, 0, 0.0)
}

/// [`project`] with the step and time errors are reported at.
pub(crate) fn project_at<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    minv: &Block<D, D>,
    q: &Column<D>,
    p: &Column<D>,
    tolerances: &Tolerances,
    step: usize,
    time: f64,
) -> Result<(Column<D>, Column<D>), IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    let degenerate = |d| IntegrateError::degenerate(d, step, time, tolerances.gram);
    let frame = ConstraintFrame::new(problem, minv, q, tolerances.gram).map_err(degenerate)?;
    let zeros = Column::<M>::zeros_generic(problem.shape().1, U1);
    let positions = solve_positions(problem, &frame, q, zeros, tolerances)
        .map_err(|f| IntegrateError::multipliers(f, false, step, time, tolerances))?;
    let frame =
        ConstraintFrame::new(problem, minv, &positions.q, tolerances.gram).map_err(degenerate)?;
    let velocities = solve_velocities(&frame, minv, p, 1.0, tolerances)
        .map_err(|f| IntegrateError::multipliers(f, true, step, time, tolerances))?;
    Ok((positions.q, velocities.p))
}

/// The initial state of a run: `(q₀, p₀)` if consistent within `τ₀`
/// ([`Options::initial_tolerance`]), projected if [`Options::project_initial`] is set, an
/// error otherwise; `h` and the constraint tolerances are validated first.
pub(crate) fn initial_state<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    q0: &Column<D>,
    p0: &Column<D>,
    options: &Options,
) -> Result<(Column<D>, Column<D>), IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    validate(options.h, &options.constraints)?;
    if needs_projection(&consistency_residuals(problem, q0, p0), options)? {
        let minv = problem.inverse_mass();
        project_at(problem, &minv, q0, p0, &options.constraints, 0, 0.0)
    } else {
        Ok((q0.clone(), p0.clone()))
    }
}

/// Whether initial data with relative violations `residuals` are kept (`false`) or projected
/// (`true`): data consistent within `τ₀` are kept, others projected if `project_initial` is
/// set and rejected with [`IntegrateError::InconsistentConstraints`] otherwise.
pub(crate) fn needs_projection(
    residuals: &ConsistencyResiduals,
    options: &Options,
) -> Result<bool, IntegrateError> {
    let tolerance = options.initial_tolerance;
    if residuals.position <= tolerance && residuals.velocity <= tolerance {
        Ok(false)
    } else if options.project_initial {
        Ok(true)
    } else {
        Err(IntegrateError::InconsistentConstraints {
            position: residuals.position,
            velocity: residuals.velocity,
            tolerance,
        })
    }
}

/// The tolerances of consistency restoration: the user's, with the position tolerance
/// tightened to the default round-off level `4ε`.
pub(crate) fn restoration_tolerances(tolerances: &Tolerances) -> Tolerances {
    Tolerances {
        position: tolerances.position.min(Tolerances::default().position),
        ..*tolerances
    }
}
