//! The multiplier solves shared by RATTLE, SHAKE and the projections.
//!
//! Positions: with `B = M⁻¹G(q_b)ᵀ` at a base configuration `q_b` and a predicted position `q̃`,
//! find `x ∈ ℝᴹ` with `c(q̃ − B x) = 0` (RATTLE and SHAKE: `x = h²λ`, `q_b = q_n`; projection:
//! `q̃ = q_b`). Newton's method: `x ← x + N⁻¹ c(q̃ − B x)` with `N = G(q̃ − B x) B` (exact) or
//! `N = A(q_b) = G(q_b) B` (simplified).
//!
//! Velocities: given `p̂` at `q₁`, find `μ` with `G(q₁) M⁻¹ (p̂ − h G(q₁)ᵀ μ) = 0`, i.e.
//! `h A(q₁) μ = G(q₁) M⁻¹ p̂`: one linear solve, refined while the residual exceeds `τ_v`.

use super::geometry::{Block, Column, Geometry, Shapes, Solvable};
use super::gram::{Degenerate, Gram, factor, solve};
use super::options::{MultiplierNewton, Tolerances};
use nalgebra::{DefaultAllocator, Dim, U1};

/// The constraint geometry at one configuration `q`: `G(q)`, `B = M⁻¹G(q)ᵀ` and the checked,
/// factored Gram matrix `A(q) = G B`.
#[derive(Clone, Debug)]
pub struct ConstraintFrame<D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// The configuration.
    pub q: Column<D>,
    /// `G(q) = Dc(q)`.
    pub g: Block<M, D>,
    /// `B = M⁻¹ G(q)ᵀ`.
    pub minv_gt: Block<D, M>,
    /// `A(q) = G(q) M⁻¹ G(q)ᵀ`.
    pub gram: Gram<M>,
}

impl<D: Dim, M: Solvable> ConstraintFrame<D, M>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// The frame at `q`; rank deficiency of `A(q)` (relative threshold `τ_A`) is an error.
    pub fn new<P: Geometry<D, M>>(
        problem: &P,
        minv: &Block<D, D>,
        q: &Column<D>,
        threshold: f64,
    ) -> Result<Self, Degenerate> {
        let g = problem.constraint_gradients(q);
        let minv_gt = minv * g.transpose();
        let gram = Gram::new(&g, &minv_gt, threshold)?;
        Ok(ConstraintFrame {
            q: q.clone(),
            g,
            minv_gt,
            gram,
        })
    }

    /// The frame at `q`, reusing `cache` when it was built at exactly this `q`.
    pub fn cached<'c, P: Geometry<D, M>>(
        cache: &'c mut Option<Self>,
        problem: &P,
        minv: &Block<D, D>,
        q: &Column<D>,
        threshold: f64,
    ) -> Result<&'c Self, Degenerate> {
        let frame = match cache.take() {
            Some(frame) if frame.q == *q => frame,
            _ => Self::new(problem, minv, q, threshold)?,
        };
        Ok(cache.insert(frame))
    }

    /// `max_a |c_a| / (‖∇c_a(q)‖₂ L)`: the largest displacement normal to a constraint surface
    /// relative to the length `L`.
    pub fn relative_residual(&self, c: &Column<M>, length: f64) -> f64 {
        (0..c.len()).fold(0.0f64, |worst, a| {
            let scale = self.g.row(a).norm() * length;
            let r = if c[a] == 0.0 { 0.0 } else { c[a].abs() / scale };
            worst.max(r)
        })
    }
}

/// A converged position solve.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionSolution<D: Dim, M: Dim>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// `q₁ = q̃ − B x`.
    pub q: Column<D>,
    /// The multipliers `x`.
    pub x: Column<M>,
    /// Newton updates done.
    pub iterations: usize,
    /// The relative residual of `c(q₁)` (see [`ConstraintFrame::relative_residual`]).
    pub residual: f64,
}

/// Why a multiplier solve failed (the caller adds step and time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolveFailure {
    /// The cap was reached with the residual above the tolerance.
    NotConverged {
        /// Iterations done.
        iterations: usize,
        /// The last residual (relative for positions, absolute for velocities).
        residual: f64,
    },
    /// The exact Newton matrix is singular.
    Singular {
        /// The iteration.
        iteration: usize,
        /// The negligible pivot.
        pivot: f64,
    },
    /// A non-finite residual.
    NonFinite,
}

/// Solves `c(q̃ − B x) = 0` from the guess `x` (see the module documentation).
///
/// Converged when every `|c_a| ≤ τ_c ‖∇c_a(q_b)‖₂ L` with `L = max(‖q_b‖_∞, ‖q̃ − q_b‖_∞)`, or
/// when an update moved `q₁` by at most `2εL`.
pub fn solve_positions<P: Geometry<D, M>, D: Dim, M: Solvable>(
    problem: &P,
    frame: &ConstraintFrame<D, M>,
    q_pred: &Column<D>,
    mut x: Column<M>,
    tolerances: &Tolerances,
) -> Result<PositionSolution<D, M>, SolveFailure>
where
    DefaultAllocator: Shapes<D, M>,
{
    let length = frame.q.amax().max((q_pred - &frame.q).amax());
    let tolerance: Column<M> = Column::from_fn_generic(x.shape_generic().0, U1, |a, _| {
        tolerances.position * frame.g.row(a).norm() * length
    });
    let mut fixed_point = false;
    let mut k = 0;
    loop {
        let q1 = q_pred - &frame.minv_gt * &x;
        let c = problem.constraint_values(&q1);
        if !c.iter().all(|v| v.is_finite()) {
            return Err(SolveFailure::NonFinite);
        }
        if fixed_point || c.iter().zip(tolerance.iter()).all(|(v, t)| v.abs() <= *t) {
            return Ok(PositionSolution {
                q: q1,
                x,
                iterations: k,
                residual: frame.relative_residual(&c, length),
            });
        }
        if k == tolerances.max_iterations {
            return Err(SolveFailure::NotConverged {
                iterations: k,
                residual: frame.relative_residual(&c, length),
            });
        }
        let delta = match tolerances.newton {
            MultiplierNewton::Simplified => frame.gram.solve(&c),
            MultiplierNewton::Exact => {
                let n = problem.constraint_gradients(&q1) * &frame.minv_gt;
                let lu = factor(&n).map_err(|pivot| SolveFailure::Singular {
                    iteration: k,
                    pivot: pivot.unwrap_or(f64::NAN),
                })?;
                solve::<M>(&lu, &c)
            }
        };
        x += &delta;
        fixed_point = (&frame.minv_gt * &delta).amax() <= 2.0 * f64::EPSILON * length;
        k += 1;
    }
}

/// A converged velocity solve: `p₁ = p̂ − h G(q₁)ᵀ μ`.
#[derive(Clone, Debug, PartialEq)]
pub struct VelocitySolution<D: Dim, M: Dim>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// `p₁`.
    pub p: Column<D>,
    /// `μ`.
    pub mu: Column<M>,
    /// Linear solves done (1 unless refinement was needed).
    pub iterations: usize,
    /// `max_a |(G(q₁) M⁻¹ p₁)_a|`.
    pub residual: f64,
}

/// Solves `G M⁻¹ (p̂ − h Gᵀ μ) = 0` at `frame` (see the module documentation).
pub fn solve_velocities<D: Dim, M: Solvable>(
    frame: &ConstraintFrame<D, M>,
    minv: &Block<D, D>,
    p_hat: &Column<D>,
    h: f64,
    tolerances: &Tolerances,
) -> Result<VelocitySolution<D, M>, SolveFailure>
where
    DefaultAllocator: Shapes<D, M>,
{
    let mut p = p_hat.clone();
    let mut mu = Column::<M>::zeros_generic(frame.g.shape_generic().0, U1);
    let mut r = &frame.g * (minv * &p);
    for k in 1..=tolerances.max_iterations {
        let delta = frame.gram.solve(&r) / h;
        mu += &delta;
        p -= h * frame.g.transpose() * delta;
        r = &frame.g * (minv * &p);
        let residual = r.amax();
        if !residual.is_finite() {
            return Err(SolveFailure::NonFinite);
        }
        if residual <= tolerances.velocity {
            return Ok(VelocitySolution {
                p,
                mu,
                iterations: k,
                residual,
            });
        }
    }
    Err(SolveFailure::NotConverged {
        iterations: tolerances.max_iterations,
        residual: r.amax(),
    })
}
