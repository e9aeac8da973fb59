//! Consistency of the data with the constraints: the residuals `c(q)` and `G(q)M⁻¹p`, and the
//! projections onto `c = 0`, `G M⁻¹ p = 0`: the initial one by damped Gauss–Newton (from any
//! point where a projection exists), consistency restoration after a step by the multipliers'
//! Newton iteration.

use super::geometry::{Block, Column, Geometry, Shapes, Solvable};
use super::multipliers::{ConstraintFrame, solve_positions, solve_velocities};
use super::options::{Tolerances, validate};
use crate::diagnostics::nan_max;
use crate::error::{IntegrateError, ProjectionStall};
use crate::integrate::Options;
use nalgebra::allocator::Allocator;
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

/// Projects `(q, p)` onto the constraint manifold from any point where a projection exists:
/// `q'` with `c(q') = 0` by the damped Gauss–Newton iteration of [`project_initial_state`],
/// then `p' = p − G(q')ᵀμ` with `G(q')M⁻¹p' = 0`, with the tolerances and caps of RATTLE
/// (`Tolerances::newton` does not apply: the iteration re-evaluates `G` at every iterate).
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
    let projected = project_initial_state(problem, &problem.inverse_mass(), q, p, tolerances)?;
    Ok((projected.q, projected.p))
}

/// The projection of consistency restoration after a step: `q' = q − M⁻¹G(q)ᵀx` with
/// `c(q') = 0` by the multipliers' Newton iteration from `x = 0` (the Gram matrix frozen at `q`
/// unless `Tolerances::newton` is exact), then the velocities as [`project`]; errors are
/// reported at `step` and `time`.
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
    let p = project_velocities(&frame, minv, p, tolerances, step, time)?;
    Ok((positions.q, p))
}

/// `p' = p − G(q')ᵀμ` with `G(q')M⁻¹p' = 0` at the frame of `q'`; errors at `step` and `time`.
fn project_velocities<D: Dim, M: Solvable>(
    frame: &ConstraintFrame<D, M>,
    minv: &Block<D, D>,
    p: &Column<D>,
    tolerances: &Tolerances,
    step: usize,
    time: f64,
) -> Result<Column<D>, IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    solve_velocities(frame, minv, p, 1.0, tolerances)
        .map(|velocities| velocities.p)
        .map_err(|f| IntegrateError::multipliers(f, true, step, time, tolerances))
}

/// Step halvings of the line search of [`project_initial_state`]: a step `t < 2⁻⁵² = ε` of the
/// Gauss–Newton direction is below the round-off of the direction itself.
const MAX_HALVINGS: usize = 52;

/// Armijo's sufficient-decrease constant σ of that line search.
const ARMIJO: f64 = 1e-4;

/// The initial state of a run, with the Gauss–Newton iterations of its projection.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct InitialState<D: Dim>
where
    DefaultAllocator: Allocator<D>,
{
    /// `q₀`, or its projection.
    pub(crate) q: Column<D>,
    /// `p₀`, or its projection.
    pub(crate) p: Column<D>,
    /// The Gauss–Newton iterations of the projection of `q₀`; `None` where none ran.
    pub(crate) projection_iterations: Option<usize>,
}

/// The initial projection onto `c = 0`, `G M⁻¹ p = 0`: the projected `(q', p')` and the
/// Gauss–Newton iterations its positions took. Errors are reported at step 0, time 0.
///
/// Positions: the damped Gauss–Newton iteration on `f(q) = ½|c(q)|₂²` in the metric `M`. At
/// each iterate `q_k`, with `G = G(q_k)` and the Gram matrix `A = G M⁻¹ Gᵀ` (checked for rank
/// and factored, [`ConstraintFrame`]), the direction is the minimum-`M`-norm solution of the
/// linearised constraints `c(q_k) + G d = 0`,
///
/// ```text
/// d = −M⁻¹Gᵀ A⁻¹ c(q_k),     ∇f(q_k)ᵀ d = c(q_k)ᵀ G d = −|c(q_k)|₂² = −2 f(q_k) < 0,
/// ```
///
/// a descent direction for `f` wherever `c ≠ 0`. The step `q_{k+1} = q_k + t d` takes the
/// first `t = 1, ½, ¼, …` (at most [`MAX_HALVINGS`] halvings) with Armijo's decrease
/// `f(q_k + t d) ≤ (1 − 2σt) f(q_k)` (σ = [`ARMIJO`]): far from the manifold the step is
/// shortened until `|c|` decreases, so the iteration converges from any point whose
/// iterates stay bounded and keep `G` of full rank; near it the full step is taken and the iteration is
/// Newton's method on the underdetermined system `c(q) = 0`, quadratically convergent (unlike
/// the frozen Jacobian of [`project_at`], which converges only linearly, with the rate
/// `‖I − A(q₀)⁻¹ G(q') M⁻¹G(q₀)ᵀ‖`, or not at all, far from the manifold). Where `G` has full
/// rank, `∇f = Gᵀc = 0` only at `c = 0`: a stall with `c ≠ 0` (no decrease along `d`, or the
/// iteration cap) means the iterates approach a point where `G` loses rank, i.e. a local
/// minimum of `|c|` with `c ≠ 0`, or one where the rank check fails.
///
/// Converged when the relative residual at the iterate, `max_a |c_a(q_k)| / (‖∇c_a(q_k)‖₂
/// ‖q_k‖_∞)` ([`ConstraintFrame::relative_residual`], the measure of the initial check), is at
/// most `τ_c`, or when the Newton step is below round-off, `|d|_∞ ≤ 2ε ‖q_k‖_∞` (a
/// floating-point fixed point). A rank-deficient `A`, a failed line search and the iteration
/// cap are [`IntegrateError::NoProjection`]. The work is at most `Tolerances::max_iterations`
/// frames and `Tolerances::max_iterations · (MAX_HALVINGS + 1)` constraint evaluations.
///
/// Velocities: `p' = p − G(q')ᵀμ` with `G(q')M⁻¹p' = 0`, as [`project_at`].
pub(crate) fn project_initial_state<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    minv: &Block<D, D>,
    q: &Column<D>,
    p: &Column<D>,
    tolerances: &Tolerances,
) -> Result<InitialState<D>, IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    let mut q = q.clone();
    let mut c = problem.constraint_values(&q);
    if !c.iter().all(|v| v.is_finite()) {
        return Err(IntegrateError::NonFinite { step: 0, time: 0.0 });
    }
    let mut k = 0;
    let (frame, iterations) = loop {
        let stall = |reason, c: &Column<M>| IntegrateError::NoProjection {
            iterations: k,
            residual: c.amax(),
            reason,
        };
        let frame = ConstraintFrame::new(problem, minv, &q, tolerances.gram).map_err(|d| {
            let reason = ProjectionStall::Degenerate {
                sigma_min: d.sigma_min,
                sigma_max: d.sigma_max,
                threshold: tolerances.gram,
            };
            stall(reason, &c)
        })?;
        let length = q.amax();
        if frame.relative_residual(&c, length) <= tolerances.position {
            break (frame, k);
        }
        if k == tolerances.max_iterations {
            return Err(stall(ProjectionStall::IterationCap, &c));
        }
        let d = -(&frame.minv_gt * frame.gram.solve(&c));
        if d.amax() <= 2.0 * f64::EPSILON * length {
            break (frame, k);
        }
        // `2f` in units of `|c(q_k)|∞ > 0` (no overflow where `|c|₂²` would).
        let scale = c.amax();
        let f = (&c / scale).norm_squared();
        let mut t = 1.0;
        let step = (0..=MAX_HALVINGS).find_map(|_| {
            let trial = &q + t * &d;
            let c_trial = problem.constraint_values(&trial);
            // A constraint that is not finite at the trial point fails the test.
            let decrease = (&c_trial / scale).norm_squared() <= (1.0 - 2.0 * ARMIJO * t) * f;
            t *= 0.5;
            decrease.then_some((trial, c_trial))
        });
        (q, c) = step.ok_or_else(|| stall(ProjectionStall::NoDescent, &c))?;
        k += 1;
    };
    let p = project_velocities(&frame, minv, p, tolerances, 0, 0.0)?;
    Ok(InitialState {
        q,
        p,
        projection_iterations: Some(iterations),
    })
}

/// The initial state of a run: `(q₀, p₀)` if consistent within `τ₀`
/// ([`Options::initial_tolerance`]), projected if [`Options::project_initial`] is set
/// ([`project_initial_state`], with the Gauss–Newton iterations it took), an error otherwise;
/// `h` and the constraint tolerances are validated first.
pub(crate) fn initial_state<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    q0: &Column<D>,
    p0: &Column<D>,
    options: &Options,
) -> Result<InitialState<D>, IntegrateError>
where
    DefaultAllocator: Shapes<D, M>,
{
    validate(options.h, &options.constraints)?;
    if needs_projection(&consistency_residuals(problem, q0, p0), options)? {
        let minv = problem.inverse_mass();
        project_initial_state(problem, &minv, q0, p0, &options.constraints)
    } else {
        Ok(InitialState {
            q: q0.clone(),
            p: p0.clone(),
            projection_iterations: None,
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holonomic::Rattle;
    use crate::holonomic::problems::{Pendulum, SphericalPendulum, Triatomic};
    use crate::problem::{HolonomicSystem, Vector};

    /// `c(q) = x² + y² + a`, `a > 0`: `|c|` has its minimum `a ≠ 0` at the origin, where
    /// `G = 2qᵀ` vanishes; no projection exists anywhere.
    #[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
    #[holonomic(q = [x, y], mass = m, potential = y, constraints = [x * x + y * y + a])]
    struct NoCircle {
        m: f64,
        a: f64,
    }

    /// The unit circle and the line `x = b > 1`, which do not meet; `G` loses rank at `y = 0`.
    #[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
    #[holonomic(q = [x, y], mass = m, potential = y, constraints = [x * x + y * y - 1.0, x - b])]
    struct CircleAndLine {
        m: f64,
        b: f64,
    }

    /// Projects `(q, p)` with the default tolerances and checks that the result lies on
    /// `c = 0` to round-off (the relative residual of the initial check at most `τ_c = 4ε`) with
    /// `G M⁻¹ p = 0` (`τ_v`); returns the projected position and the iterations.
    fn projects<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
        problem: &P,
        q: Vector<D>,
        p: Vector<D>,
    ) -> (Vector<D>, usize) {
        let tolerances = Tolerances::default();
        let minv = problem.inverse_mass_matrix();
        let projected = project_initial_state(problem, &minv, &q, &p, &tolerances)
            .unwrap_or_else(|e| panic!("from {q:?}: {e}"));
        let (q1, p1) = (projected.q, projected.p);
        let iterations = projected.projection_iterations.expect("a projection");
        let residuals = consistency_residuals(problem, &q1, &p1);
        assert!(
            residuals.position <= tolerances.position,
            "{q:?}: {residuals:?}"
        );
        let gv = problem.constraint_jacobian(&q1) * (minv * p1);
        assert!(gv.amax() <= tolerances.velocity, "{q:?}: {gv:?}");
        assert!(iterations <= tolerances.max_iterations);
        (q1, iterations)
    }

    #[test]
    fn the_unit_circle_projects_from_far_and_near_points() {
        let p = Vector::<2>::from([0.3, -0.7]);
        // Every Gauss–Newton step is radial (d ∥ q), so the projection is q₀/|q₀|.
        for (q0, expected) in [
            ([3.0, 0.0], [1.0, 0.0]),
            ([3.0, 4.0], [0.6, 0.8]),
            ([100.0, 0.0], [1.0, 0.0]),
            ([1e-3, 0.0], [1.0, 0.0]),
            ([1.2, 1.6], [0.6, 0.8]),
        ] {
            let (q, iterations) = projects(&Pendulum::UNIT, Vector::from(q0), p);
            let error = (q - Vector::from(expected)).amax();
            assert!(
                error <= 4.0 * f64::EPSILON,
                "{q0:?}: {q:?}, {iterations} iterations"
            );
        }
    }

    #[test]
    fn a_sphere_and_a_molecule_project_from_far_points() {
        let sphere = SphericalPendulum {
            m: 2.0,
            g: 1.0,
            l: 1.5,
        };
        let q0 = Vector::<3>::from([30.0, -40.0, 120.0]);
        let (q, _) = projects(&sphere, q0, Vector::from([1.0, 2.0, 3.0]));
        let radial = q0 * (1.5 / q0.norm());
        assert!((q - radial).amax() <= 8.0 * f64::EPSILON, "{q:?}");
        // The water-like molecule (M = 3, masses 16, 1, 1) with every bond 5 and 50 times too
        // long, from a bent configuration.
        let bent = [0.0, 0.0, 0.0, 0.8, 0.6, 0.05, -0.8, 0.62, -0.02];
        let p0 = Vector::<9>::from([0.1, 0.0, 0.2, 0.3, -0.1, 0.0, 0.0, 0.4, -0.2]);
        for scale in [5.0, 50.0] {
            projects(&Triatomic::WATER_LIKE, Vector::from(bent) * scale, p0);
        }
    }

    #[test]
    fn no_projection_is_a_typed_error() {
        let stalled = |e: IntegrateError, floor: f64| match e {
            IntegrateError::NoProjection {
                iterations,
                residual,
                ..
            } => {
                assert!(iterations <= Tolerances::default().max_iterations);
                assert!(residual >= floor, "{residual:e}");
            }
            other => panic!("expected NoProjection, got {other:?}"),
        };
        let tolerances = Tolerances::default();
        let no_circle = NoCircle { m: 1.0, a: 1.0 };
        let minv = no_circle.inverse_mass_matrix();
        let p = Vector::<2>::zeros();
        for q in [[3.0, 0.0], [3.0, 4.0], [0.0, 0.0]] {
            let q = Vector::from(q);
            let e = project_initial_state(&no_circle, &minv, &q, &p, &tolerances);
            stalled(e.expect_err("no projection"), 1.0);
        }
        let apart = CircleAndLine { m: 1.0, b: 3.0 };
        let minv = apart.inverse_mass_matrix();
        for q in [[3.0, 1.0], [0.5, -2.0], [3.0, 0.0]] {
            let q = Vector::from(q);
            let e = project_initial_state(&apart, &minv, &q, &p, &tolerances);
            // |c|∞ ≥ the distance 2 between the circle and the line.
            stalled(e.expect_err("no projection"), 2.0);
        }
    }

    #[test]
    fn a_run_reports_the_iterations_of_its_initial_projection() {
        let p0 = Vector::<2>::zeros();
        let mut options = Options::new(0.01, 3);
        options.project_initial = true;
        let sol = crate::solve(
            &Pendulum::UNIT,
            Rattle,
            Vector::from([3.0, 4.0]),
            p0,
            &options,
        )
        .expect("projected");
        let iterations = sol.run.initial_projection_iterations.expect("projected");
        assert!((1..=options.constraints.max_iterations).contains(&iterations));
        let (q0, p0) = Pendulum::UNIT.state(1.0, 0.5);
        let sol = crate::solve(&Pendulum::UNIT, Rattle, q0, p0, &options).expect("consistent");
        assert_eq!(sol.run.initial_projection_iterations, None);
    }
}
