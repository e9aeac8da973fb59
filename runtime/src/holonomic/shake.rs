//! SHAKE: the RATTLE positions written as a two-step recursion on positions only, with
//! central-difference momenta, for users coming from molecular-dynamics codes.
//!
//! ```text
//! q₁      = q₀ + h M⁻¹(p₀ − (h/2)∇V(q₀)) − h² M⁻¹G(q₀)ᵀλ₀,         c(q₁) = 0
//! q_{n+1} = 2q_n − q_{n−1} − h² M⁻¹(∇V(q_n) + G(q_n)ᵀλ_n),          c(q_{n+1}) = 0
//! p_n     = M (q_{n+1} − q_{n−1}) / (2h)
//! ```
//!
//! The positions coincide with RATTLE's; the momenta satisfy `G(q_n)M⁻¹p_n = 0` only to
//! `O(h²)`.

use super::consistency::initial_state;
use super::core::{StepperCore, record};
use super::error::{HolonomicError, HolonomicFailure};
use super::multipliers::{ConstraintFrame, solve_positions};
use super::options::{HolonomicOptions, Tolerances};
use crate::problem::{HolonomicSystem, Vector};
use crate::solution::{Observer, Point, Solution, StepStats, Stopped};

/// One SHAKE position update.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShakeStep<const D: usize, const M: usize> {
    /// The new position.
    pub q: Vector<D>,
    /// Its multipliers λ (impulse `h² M⁻¹G(q_n)ᵀλ`).
    pub lambda: Vector<M>,
    /// Newton iterations.
    pub iterations: usize,
    /// The relative residual of `c` at the new position (see [`Tolerances::position`]).
    pub residual: f64,
}

/// The SHAKE position stepper; keeps the frame of the last position and the last λ (the
/// initial guess of the next one).
#[derive(Clone, Debug)]
pub struct Shake<'a, P, const D: usize, const M: usize> {
    pub(super) core: StepperCore<'a, P, D, M>,
}

impl<'a, P: HolonomicSystem<D, M>, const D: usize, const M: usize> Shake<'a, P, D, M> {
    /// A stepper; rejects a non-positive or non-finite `h` and invalid tolerances.
    pub fn new(problem: &'a P, h: f64, tolerances: Tolerances) -> Result<Self, HolonomicError> {
        Ok(Shake {
            core: StepperCore::new(problem, h, tolerances)?,
        })
    }

    /// The first position `q₁` from consistent `(q₀, p₀)` (RATTLE's first half step).
    pub fn start(
        &mut self,
        q0: &Vector<D>,
        p0: &Vector<D>,
    ) -> Result<ShakeStep<D, M>, HolonomicError> {
        let h = self.core.h;
        let kick = p0 - 0.5 * h * self.core.problem.potential_gradient(q0);
        self.advance(q0, &(q0 + h * (self.core.minv * kick)))
    }

    /// `q_{n+1}` from `q_{n−1}` and `q_n`.
    pub fn step(
        &mut self,
        q_prev: &Vector<D>,
        q: &Vector<D>,
    ) -> Result<ShakeStep<D, M>, HolonomicError> {
        let h = self.core.h;
        let force = self.core.minv * self.core.problem.potential_gradient(q);
        self.advance(q, &(q + (q - q_prev) - h * h * force))
    }

    /// The constrained update from the prediction `q̃` with the constraint normals at `q`.
    fn advance(
        &mut self,
        q: &Vector<D>,
        q_pred: &Vector<D>,
    ) -> Result<ShakeStep<D, M>, HolonomicError> {
        let (h, step) = (self.core.h, self.core.steps + 1);
        let time = self.core.steps as f64 * h;
        let tolerances = self.core.tolerances;
        let frame = ConstraintFrame::cached(
            &mut self.core.frame,
            self.core.problem,
            &self.core.minv,
            q,
            tolerances.gram,
        )
        .map_err(|d| HolonomicError::degenerate(d, step, time, tolerances.gram))?;
        let positions = solve_positions(
            self.core.problem,
            frame,
            q_pred,
            h * h * self.core.guess,
            &tolerances,
        )
        .map_err(|f| HolonomicError::solve(f, false, step, time, &tolerances))?;
        let lambda = positions.x / (h * h);
        self.core.guess = lambda;
        self.core.steps = step;
        Ok(ShakeStep {
            q: positions.q,
            lambda,
            iterations: positions.iterations,
            residual: positions.residual,
        })
    }
}

/// Integrates `options.steps` SHAKE steps from `(q₀, p₀)`: positions `q_n` and the
/// central-difference momenta `p_n` (`p₀` as given), which need one position beyond the last
/// step. `restore_consistency` is rejected (SHAKE's momenta are differences of positions). On
/// failure the error carries the solution up to the last step whose momentum is known.
pub fn integrate_shake<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    problem: &P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
) -> Result<Solution<D>, Box<HolonomicFailure<D>>> {
    record(options, |r| {
        integrate_shake_into(problem, q0, p0, options, r)
    })
}

/// [`integrate_shake`], handing every state `(q_n, p_n)` (the initial one first) to `observer`
/// once its momentum is known instead of keeping it; stops at the first failed step or
/// observer error.
pub fn integrate_shake_into<P, O, const D: usize, const M: usize>(
    problem: &P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
    observer: &mut O,
) -> Result<(), Stopped<HolonomicError, O::Error>>
where
    P: HolonomicSystem<D, M>,
    O: Observer + ?Sized,
{
    if options.restore_consistency {
        let e = HolonomicError::InvalidOptions("SHAKE has no consistency restoration");
        return Err(Stopped::Step(e));
    }
    let (q0, p0) = initial_state(problem, q0, p0, options).map_err(Stopped::Step)?;
    let mass = problem.mass_matrix();
    let mut shake = Shake::new(problem, options.h, options.tolerances).map_err(Stopped::Step)?;
    let initial = Point {
        step: 0,
        t: 0.0,
        q: q0.as_slice(),
        p: p0.as_slice(),
        lambda: &[],
        stats: None,
    };
    observer.observe(&initial).map_err(Stopped::Observer)?;
    let mut current = shake.start(&q0, &p0).map_err(Stopped::Step)?;
    let mut q_prev = q0;
    for n in 1..=options.steps {
        let next = shake.step(&q_prev, &current.q).map_err(Stopped::Step)?;
        let p = mass * (next.q - q_prev) / (2.0 * options.h);
        let point = Point {
            step: n,
            t: n as f64 * options.h,
            q: current.q.as_slice(),
            p: p.as_slice(),
            lambda: &[],
            stats: Some(StepStats {
                iterations: current.iterations,
                residual: current.residual,
                factorisations: 0,
            }),
        };
        observer.observe(&point).map_err(Stopped::Observer)?;
        q_prev = current.q;
        current = next;
    }
    Ok(())
}
