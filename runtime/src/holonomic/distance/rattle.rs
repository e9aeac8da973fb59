//! The RATTLE stepper of the dynamic path and its driver.

use super::super::consistency::{needs_projection, restoration_tolerances};
use super::super::options::{Tolerances, validate};
use super::geometry::{self, Impulse};
use super::model::DistanceConstraints;
use super::potential::Potential;
use super::solution::{DistanceFailure, DistanceSolution};
use super::workspace::{Workspace, check_lengths};
use crate::error::IntegrateError;
use crate::integrate::Options;
use crate::solution::StepStats;
use nalgebra::DVector;

/// The statistics of one accepted step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceStep {
    /// Newton iterations of the position multipliers.
    pub iterations: usize,
    /// Linear solves of the velocity multipliers.
    pub velocity_iterations: usize,
    /// The relative residual of `c(q₁)` (see [`Tolerances::position`]).
    pub residual: f64,
}

/// RATTLE with step size `h` on a [`DistanceConstraints`] system: the step of
/// [`RattleStepper`](crate::holonomic::RattleStepper) on run-time sized, preallocated storage.
///
/// Keeps the frame of the last `q₁` (reused as `q_n` of the next step) and the last μ, the
/// initial guess of the next λ. A step allocates nothing.
#[derive(Clone, Debug)]
pub struct DistanceRattle<'a, V> {
    system: &'a DistanceConstraints<V>,
    h: f64,
    tolerances: Tolerances,
    steps: usize,
    work: Workspace,
    lambda: Vec<f64>,
    mu: Vec<f64>,
    gradient: Vec<f64>,
    p_kick: Vec<f64>,
    q_pred: Vec<f64>,
}

impl<'a, V: Potential> DistanceRattle<'a, V> {
    /// A stepper; rejects a non-positive or non-finite `h` and invalid tolerances.
    pub fn new(
        system: &'a DistanceConstraints<V>,
        h: f64,
        tolerances: Tolerances,
    ) -> Result<Self, IntegrateError> {
        validate(h, &tolerances)?;
        let (n, m) = (system.coordinates(), system.bonds().len());
        Ok(DistanceRattle {
            system,
            h,
            tolerances,
            steps: 0,
            work: Workspace::new(system),
            lambda: vec![0.0; m],
            mu: vec![0.0; m],
            gradient: vec![0.0; n],
            p_kick: vec![0.0; n],
            q_pred: vec![0.0; n],
        })
    }

    /// The steps accepted so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The time `t = steps · h` at the start of the next step.
    pub fn time(&self) -> f64 {
        self.steps as f64 * self.h
    }

    /// The position multipliers λ of the last accepted step (impulse `h G(q_n)ᵀλ`).
    pub fn lambda(&self) -> &[f64] {
        &self.lambda
    }

    /// The velocity multipliers μ of the last accepted step (impulse `h G(q_{n+1})ᵀμ`), the
    /// initial guess of the next step's λ.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }

    /// The estimates `(σ_min, σ_max)` of the extreme eigenvalues of the Gram matrix `A(q)` at
    /// the latest position (an upper bound on `σ_min` and a lower bound on `σ_max`, converged
    /// by inverse and power iteration, see the rank check of each step); `None` before the
    /// first step.
    pub fn gram_extremes(&self) -> Option<(f64, f64)> {
        let frame = &self.work.frames[self.work.current];
        frame.valid.then_some(frame.extremes)
    }

    /// One step from `(q, p)`, which should be consistent, overwriting them with `(q₁, p₁)`. On
    /// error `(q, p)` are left as they were.
    pub fn step(
        &mut self,
        q: &mut DVector<f64>,
        p: &mut DVector<f64>,
    ) -> Result<DistanceStep, IntegrateError> {
        check_lengths(self.system, q.as_slice(), p.as_slice())?;
        let (system, h, step, time) = (self.system, self.h, self.steps + 1, self.time());
        let tolerances = self.tolerances;
        let degenerate = |d| IntegrateError::degenerate(d, step, time, tolerances.gram);
        let failed =
            |velocity| move |f| IntegrateError::multipliers(f, velocity, step, time, &tolerances);
        let work = &mut self.work;
        let (base, next) = (work.current, 1 - work.current);
        work.frame_at(system, base, q.as_slice(), tolerances.gram)
            .map_err(degenerate)?;
        let particles = system.particles();
        system
            .potential()
            .gradient(particles, q.as_slice(), &mut self.gradient);
        let dim = system.dim();
        for (k, w) in system.inverse_masses().iter().enumerate() {
            for i in dim * k..dim * (k + 1) {
                self.p_kick[i] = p[i] - 0.5 * h * self.gradient[i];
                self.q_pred[i] = q[i] + h * (w * self.p_kick[i]);
            }
        }
        // The last μ, scaled, is the initial guess of x = h²λ.
        for (x, mu) in work.x.iter_mut().zip(&self.mu) {
            *x = h * h * mu;
        }
        let positions = work
            .solve_positions(system, base, &self.q_pred, &tolerances)
            .map_err(failed(false))?;
        work.p1.copy_from_slice(&self.p_kick);
        let d = &work.frames[base].d;
        geometry::add_impulse(
            system,
            d,
            &work.x,
            -1.0 / h,
            Impulse::Momentum,
            &mut work.p1,
        );
        let q1 = std::mem::take(&mut work.q1);
        let framed = work.frame_at(system, next, &q1, tolerances.gram);
        work.q1 = q1;
        framed.map_err(degenerate)?;
        system
            .potential()
            .gradient(particles, &work.q1, &mut self.gradient);
        for (p1, g) in work.p1.iter_mut().zip(&self.gradient) {
            *p1 -= 0.5 * h * g;
        }
        let velocity_iterations = work
            .solve_velocities(system, next, h, &tolerances)
            .map_err(failed(true))?;
        if !work.p1.iter().chain(&work.q1).all(|x| x.is_finite()) {
            return Err(IntegrateError::NonFinite { step, time });
        }
        q.as_mut_slice().copy_from_slice(&work.q1);
        p.as_mut_slice().copy_from_slice(&work.p1);
        for (l, x) in self.lambda.iter_mut().zip(&work.x) {
            *l = x / (h * h);
        }
        self.mu.copy_from_slice(&work.mu);
        work.current = next;
        self.steps = step;
        Ok(DistanceStep {
            iterations: positions.iterations,
            velocity_iterations,
            residual: positions.residual,
        })
    }

    /// Projects `(q, p)` in place onto `c = 0`, `G M⁻¹ p = 0` with `tolerances` (see
    /// [`super::project`]); errors are reported at the last step and its start time.
    pub fn project(
        &mut self,
        q: &mut DVector<f64>,
        p: &mut DVector<f64>,
        tolerances: &Tolerances,
    ) -> Result<(), IntegrateError> {
        tolerances
            .validate()
            .map_err(IntegrateError::InvalidOptions)?;
        check_lengths(self.system, q.as_slice(), p.as_slice())?;
        let time = self.steps.saturating_sub(1) as f64 * self.h;
        (self.work).project(
            self.system,
            q.as_mut_slice(),
            p.as_mut_slice(),
            tolerances,
            self.steps,
            time,
        )
    }

    /// The initial state of a run, in place: kept if consistent within `τ₀`, projected if
    /// `project_initial` is set, an error otherwise.
    fn initial(
        &mut self,
        q: &mut DVector<f64>,
        p: &mut DVector<f64>,
        options: &Options,
    ) -> Result<(), IntegrateError> {
        check_lengths(self.system, q.as_slice(), p.as_slice())?;
        let residuals = self.work.residuals(self.system, q.as_slice(), p.as_slice());
        if needs_projection(&residuals, options)? {
            self.project(q, p, &options.constraints)?;
        }
        Ok(())
    }
}

/// Integrates `options.steps` RATTLE steps from `(q₀, p₀)` on a [`DistanceConstraints`]
/// system, recording every `record_every`-th state (and the last).
///
/// As [`Rattle`](crate::holonomic::Rattle) (with [`Options::constraints`]): the initial data are checked
/// (or projected), `restore_consistency` projects after every step at round-off tolerance, and
/// on failure the error carries the samples so far, ending with the last accepted state.
pub fn integrate_distance_rattle<V: Potential>(
    system: &DistanceConstraints<V>,
    q0: &DVector<f64>,
    p0: &DVector<f64>,
    options: &Options,
    record_every: usize,
) -> Result<DistanceSolution, Box<DistanceFailure>> {
    let mut solution = DistanceSolution::with_capacity(record_every, options.steps);
    let fail = |solution, error| Box::new(DistanceFailure { solution, error });
    if record_every == 0 {
        let e = IntegrateError::InvalidOptions("record_every must be positive");
        return Err(fail(solution, e));
    }
    let mut rattle = match DistanceRattle::new(system, options.h, options.constraints) {
        Ok(r) => r,
        Err(e) => return Err(fail(solution, e)),
    };
    let (mut q, mut p) = (q0.clone(), p0.clone());
    if let Err(e) = rattle.initial(&mut q, &mut p, options) {
        return Err(fail(solution, e));
    }
    let restoration = restoration_tolerances(&options.constraints);
    let (mut q_last, mut p_last) = (q.clone(), p.clone());
    solution.record(0.0, &q, &p);
    for n in 1..=options.steps {
        if options.restore_consistency {
            q_last.copy_from(&q);
            p_last.copy_from(&p);
        }
        let next = rattle.step(&mut q, &mut p).and_then(|s| {
            if options.restore_consistency {
                rattle.project(&mut q, &mut p, &restoration)?;
            }
            Ok(s)
        });
        let s = match next {
            Ok(s) => s,
            Err(error) => {
                // A failed step leaves (q, p); a failed projection leaves the step's result.
                let (q, p) = if options.restore_consistency {
                    (&q_last, &p_last)
                } else {
                    (&q, &p)
                };
                if (n - 1) % record_every != 0 {
                    solution.record((n - 1) as f64 * options.h, q, p);
                }
                return Err(fail(solution, error));
            }
        };
        solution.stats.push(StepStats {
            iterations: s.iterations,
            residual: s.residual,
            factorisations: 0,
        });
        if n % record_every == 0 || n == options.steps {
            solution.record(rattle.time(), &q, &p);
        }
    }
    Ok(solution)
}
