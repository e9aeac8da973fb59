//! The buffers and solves of the dynamic path: constraint frames (bond vectors, gradient norms,
//! the checked and factored Gram matrix), the position and velocity multiplier solves, the
//! projection onto the constraint manifold and the consistency residuals. All storage is
//! allocated in [`Workspace::new`]; nothing allocates afterwards.
//!
//! The solves are those of the fixed-size path ([`crate::holonomic::multipliers`]): positions
//! by Newton's method on `c(q̃ − B x) = 0`, `B = M⁻¹G(q_b)ᵀ`, with the exact matrix
//! `G(q̃ − Bx) B` or the frozen `A(q_b)`, the same stopping rules; velocities by solves with
//! `A(q₁)` refined until `|G M⁻¹ p₁| ≤ τ_v`.

use super::super::consistency::{ConsistencyResiduals, ratio, worst_residuals};
use super::super::gram::Degenerate;
use super::super::multipliers::SolveFailure;
use super::super::options::{MultiplierNewton, Tolerances};
use super::band::Band;
use super::conditioning::Conditioning;
use super::geometry::{self, Impulse};
use super::model::DistanceConstraints;
use super::potential::Potential;
use crate::error::IntegrateError;
use nalgebra::DVector;

/// The constraint geometry at one configuration.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    /// The configuration (meaningful when `valid`).
    pub(super) q: Vec<f64>,
    /// The bond vectors `d_b(q)`.
    pub(super) d: Vec<f64>,
    /// `‖∇c_b(q)‖₂`.
    pub(super) norms: Vec<f64>,
    /// The LU factors of `A(q)`.
    pub(super) gram: Band,
    /// The estimates `(σ_min, σ_max)` of `A(q)`'s extreme eigenvalues.
    pub(super) extremes: (f64, f64),
    /// Whether the frame was built (and passed the rank check) at `q`.
    pub(super) valid: bool,
}

impl Frame {
    fn new(coordinates: usize, bonds: usize, dim: usize, bandwidth: usize) -> Frame {
        Frame {
            q: vec![0.0; coordinates],
            d: vec![0.0; bonds * dim],
            norms: vec![0.0; bonds],
            gram: Band::zeros(bonds, bandwidth),
            extremes: (f64::NAN, f64::NAN),
            valid: false,
        }
    }
}

/// Newton iterations and the relative residual of a converged position solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PositionReport {
    pub(super) iterations: usize,
    pub(super) residual: f64,
}

/// Buffers for one system: two frames (the current position's and the next one's), the
/// Newton matrix, the conditioning estimator and the vectors of a step.
#[derive(Clone, Debug)]
pub(super) struct Workspace {
    /// The frames; `frames[current]` belongs to the latest position.
    pub(super) frames: [Frame; 2],
    pub(super) current: usize,
    conditioning: Conditioning,
    newton: Band,
    /// Position multipliers `x` (`h²λ` in a step).
    pub(super) x: Vec<f64>,
    /// Velocity multipliers μ.
    pub(super) mu: Vec<f64>,
    /// The new position `q₁`.
    pub(super) q1: Vec<f64>,
    /// The new momentum `p₁`.
    pub(super) p1: Vec<f64>,
    d1: Vec<f64>,
    c: Vec<f64>,
    delta: Vec<f64>,
    tolerance: Vec<f64>,
    dq: Vec<f64>,
}

impl Workspace {
    /// Storage for `system`.
    pub(super) fn new<V>(system: &DistanceConstraints<V>) -> Workspace {
        let (n, m, dim, w) = (
            system.coordinates(),
            system.bonds().len(),
            system.dim(),
            system.bandwidth(),
        );
        Workspace {
            frames: [Frame::new(n, m, dim, w), Frame::new(n, m, dim, w)],
            current: 0,
            conditioning: Conditioning::new(m, n),
            newton: Band::zeros(m, w),
            x: vec![0.0; m],
            mu: vec![0.0; m],
            q1: vec![0.0; n],
            p1: vec![0.0; n],
            d1: vec![0.0; m * dim],
            c: vec![0.0; m],
            delta: vec![0.0; m],
            tolerance: vec![0.0; m],
            dq: vec![0.0; n],
        }
    }

    /// Makes `frames[slot]` the frame at `q` (kept if it already is): bond vectors, gradient
    /// norms, `A(q)` factored, and the rank check `σ_min > τ_A σ_max` on the estimates of
    /// [`Conditioning`].
    pub(super) fn frame_at<V>(
        &mut self,
        system: &DistanceConstraints<V>,
        slot: usize,
        q: &[f64],
        threshold: f64,
    ) -> Result<(), Degenerate> {
        let frame = &mut self.frames[slot];
        if frame.valid && frame.q == q {
            return Ok(());
        }
        frame.valid = false;
        frame.q.copy_from_slice(q);
        geometry::bond_vectors(system, q, &mut frame.d);
        geometry::gradient_norms(system, &frame.d, &mut frame.norms);
        geometry::assemble(system, &frame.d, &frame.d, &mut frame.gram);
        let (sigma_min, sigma_max) = match frame.gram.factor() {
            Ok(min_pivot) => self
                .conditioning
                .estimate(system, &frame.d, &frame.gram, min_pivot),
            // The vanishing pivot bounds σ_min; σ_max is then bounded below by its Gershgorin
            // disc's centre, the largest diagonal entry of A.
            Err(small) => (
                small.pivot,
                geometry::largest_gram_diagonal(system, &frame.d),
            ),
        };
        // Written so that NaN also counts as degenerate.
        if !(sigma_min > threshold * sigma_max && sigma_max.is_finite()) {
            return Err(Degenerate {
                sigma_min,
                sigma_max,
            });
        }
        frame.extremes = (sigma_min, sigma_max);
        frame.valid = true;
        Ok(())
    }

    /// Solves `c(q̃ − B x) = 0` for `x` (initial guess in `self.x`) with `B = M⁻¹G(q_b)ᵀ` of
    /// `frames[base]`; `q̃ − Bx` is left in `self.q1`.
    ///
    /// Converged when every `|c_b| ≤ τ_c ‖∇c_b(q_b)‖₂ L` with `L = max(‖q_b‖_∞, ‖q̃ − q_b‖_∞)`,
    /// or when an update moved `q₁` by at most `2εL`; `‖q_b‖_∞` includes the anchor points
    /// ([`DistanceConstraints::anchor_extent`]).
    pub(super) fn solve_positions<V>(
        &mut self,
        system: &DistanceConstraints<V>,
        base: usize,
        q_pred: &[f64],
        tolerances: &Tolerances,
    ) -> Result<PositionReport, SolveFailure> {
        let frame = &self.frames[base];
        let length = (frame.q.iter().zip(q_pred)).fold(system.anchor_extent(), |m, (qb, qp)| {
            m.max(qb.abs()).max((qp - qb).abs())
        });
        for (t, n) in self.tolerance.iter_mut().zip(&frame.norms) {
            *t = tolerances.position * n * length;
        }
        let relative = |c: &[f64]| {
            (c.iter().zip(&frame.norms)).fold(0.0f64, |m, (cb, n)| m.max(ratio(*cb, n * length)))
        };
        let mut fixed_point = false;
        let mut k = 0;
        loop {
            self.q1.copy_from_slice(q_pred);
            let displacement = Impulse::Displacement;
            geometry::add_impulse(system, &frame.d, &self.x, -1.0, displacement, &mut self.q1);
            geometry::bond_vectors(system, &self.q1, &mut self.d1);
            geometry::constraint_values(system, &self.d1, &mut self.c);
            if !self.c.iter().all(|v| v.is_finite()) {
                return Err(SolveFailure::NonFinite);
            }
            let within = (self.c.iter().zip(&self.tolerance)).all(|(v, t)| v.abs() <= *t);
            if fixed_point || within {
                return Ok(PositionReport {
                    iterations: k,
                    residual: relative(&self.c),
                });
            }
            if k == tolerances.max_iterations {
                return Err(SolveFailure::NotConverged {
                    iterations: k,
                    residual: relative(&self.c),
                });
            }
            self.delta.copy_from_slice(&self.c);
            match tolerances.newton {
                MultiplierNewton::Simplified => frame.gram.solve_in_place(&mut self.delta),
                MultiplierNewton::Exact => {
                    geometry::assemble(system, &self.d1, &frame.d, &mut self.newton);
                    self.newton.factor().map_err(|e| SolveFailure::Singular {
                        iteration: k,
                        pivot: e.pivot,
                    })?;
                    self.newton.solve_in_place(&mut self.delta);
                }
            }
            for (x, dx) in self.x.iter_mut().zip(&self.delta) {
                *x += dx;
            }
            self.dq.fill(0.0);
            geometry::add_impulse(
                system,
                &frame.d,
                &self.delta,
                1.0,
                displacement,
                &mut self.dq,
            );
            let moved = self.dq.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            fixed_point = moved <= 2.0 * f64::EPSILON * length;
            k += 1;
        }
    }

    /// Solves `G M⁻¹ (p̂ − h Gᵀ μ) = 0` at `frames[slot]` from `p̂` in `self.p1`, leaving `p₁` in
    /// `self.p1` and μ in `self.mu`; returns the number of solves.
    pub(super) fn solve_velocities<V>(
        &mut self,
        system: &DistanceConstraints<V>,
        slot: usize,
        h: f64,
        tolerances: &Tolerances,
    ) -> Result<usize, SolveFailure> {
        let frame = &self.frames[slot];
        self.mu.fill(0.0);
        let r = &mut self.c;
        geometry::velocity_constraints(system, &frame.d, &self.p1, r);
        let mut residual = f64::NAN;
        for k in 1..=tolerances.max_iterations {
            self.delta.copy_from_slice(r);
            frame.gram.solve_in_place(&mut self.delta);
            self.delta.iter_mut().for_each(|v| *v /= h);
            for (mu, dm) in self.mu.iter_mut().zip(&self.delta) {
                *mu += dm;
            }
            let momentum = Impulse::Momentum;
            geometry::add_impulse(system, &frame.d, &self.delta, -h, momentum, &mut self.p1);
            geometry::velocity_constraints(system, &frame.d, &self.p1, r);
            residual = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            if !residual.is_finite() {
                return Err(SolveFailure::NonFinite);
            }
            if residual <= tolerances.velocity {
                return Ok(k);
            }
        }
        Err(SolveFailure::NotConverged {
            iterations: tolerances.max_iterations,
            residual,
        })
    }

    /// Projects `(q, p)` in place onto `c = 0`, `G M⁻¹ p = 0` (see [`project`]); on success
    /// `frames[current]` is the frame at the projected `q`. Errors carry `step` and `time`.
    pub(super) fn project<V>(
        &mut self,
        system: &DistanceConstraints<V>,
        q: &mut [f64],
        p: &mut [f64],
        tolerances: &Tolerances,
        step: usize,
        time: f64,
    ) -> Result<(), IntegrateError> {
        let degenerate = |d| IntegrateError::degenerate(d, step, time, tolerances.gram);
        let failed =
            |velocity| move |f| IntegrateError::multipliers(f, velocity, step, time, tolerances);
        let (base, next) = (self.current, 1 - self.current);
        self.frame_at(system, base, q, tolerances.gram)
            .map_err(degenerate)?;
        self.x.fill(0.0);
        self.solve_positions(system, base, q, tolerances)
            .map_err(failed(false))?;
        let q1 = std::mem::take(&mut self.q1);
        let framed = self.frame_at(system, next, &q1, tolerances.gram);
        self.q1 = q1;
        framed.map_err(degenerate)?;
        self.p1.copy_from_slice(p);
        self.solve_velocities(system, next, 1.0, tolerances)
            .map_err(failed(true))?;
        q.copy_from_slice(&self.q1);
        p.copy_from_slice(&self.p1);
        self.current = next;
        Ok(())
    }

    /// The relative violations of `(q, p)` (as [`super::super::consistency_residuals`], with
    /// `‖q‖_∞` including the anchor points), computed in the buffers of `frames[1 − current]`, which is invalidated.
    pub(super) fn residuals<V>(
        &mut self,
        system: &DistanceConstraints<V>,
        q: &[f64],
        p: &[f64],
    ) -> ConsistencyResiduals {
        let frame = &mut self.frames[1 - self.current];
        frame.valid = false;
        geometry::bond_vectors(system, q, &mut frame.d);
        geometry::gradient_norms(system, &frame.d, &mut frame.norms);
        geometry::constraint_values(system, &frame.d, &mut self.c);
        geometry::velocity_constraints(system, &frame.d, p, &mut self.delta);
        let q_len = (q.iter()).fold(system.anchor_extent(), |m, v| m.max(v.abs()));
        let v_len = (p.chunks_exact(system.dim()).zip(system.inverse_masses()))
            .flat_map(|(pk, w)| pk.iter().map(move |x| (x * w).abs()))
            .fold(0.0f64, f64::max);
        let terms =
            (self.c.iter().zip(&self.delta).zip(&frame.norms)).map(|((c, r), n)| (*c, *r, *n));
        worst_residuals(terms, q_len, v_len)
    }
}

/// The relative constraint violations of `(q, p)` (see
/// [`ConsistencyResiduals`](crate::holonomic::ConsistencyResiduals), with `‖q‖_∞` including the
/// anchor points); allocates a workspace.
pub fn consistency_residuals<V>(
    system: &DistanceConstraints<V>,
    q: &DVector<f64>,
    p: &DVector<f64>,
) -> Result<ConsistencyResiduals, IntegrateError> {
    check_lengths(system, q.as_slice(), p.as_slice())?;
    Ok(Workspace::new(system).residuals(system, q.as_slice(), p.as_slice()))
}

/// Projects `(q, p)` onto the constraint manifold: `q' = q − M⁻¹G(q)ᵀx` with `c(q') = 0` by
/// Newton's method (tolerances as in RATTLE), then `p' = p − G(q')ᵀμ` with `G(q')M⁻¹p' = 0`;
/// allocates a workspace.
pub fn project<V: Potential>(
    system: &DistanceConstraints<V>,
    q: &DVector<f64>,
    p: &DVector<f64>,
    tolerances: &Tolerances,
) -> Result<(DVector<f64>, DVector<f64>), IntegrateError> {
    tolerances
        .validate()
        .map_err(IntegrateError::InvalidOptions)?;
    check_lengths(system, q.as_slice(), p.as_slice())?;
    let (mut q, mut p) = (q.clone(), p.clone());
    let mut work = Workspace::new(system);
    work.project(
        system,
        q.as_mut_slice(),
        p.as_mut_slice(),
        tolerances,
        0,
        0.0,
    )?;
    Ok((q, p))
}

/// Rejects `q` or `p` without `n d` entries.
pub(super) fn check_lengths<V>(
    system: &DistanceConstraints<V>,
    q: &[f64],
    p: &[f64],
) -> Result<(), IntegrateError> {
    let n = system.coordinates();
    if q.len() == n && p.len() == n {
        Ok(())
    } else {
        Err(IntegrateError::InvalidOptions(
            "q and p must have n·d entries (d coordinates per particle)",
        ))
    }
}
