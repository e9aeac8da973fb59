//! Generated stage methods on holonomic systems: the Lobatto IIIA–IIIB RATTLE steppers
//! `RattleLobattoIIIAIIIB{s}<M>` of `sparkgen::generated::steppers` (order `2s − 2`, RATTLE at
//! `s = 2`), driven by Newton's method with their exact, generated stage Jacobian.
//!
//! Initial guess of a step from `(q_n, p_n)`: the index-1 multiplier `λ(q, p)`, from
//! `A(q) λ = ∂(G v)/∂q · v − G M⁻¹∇V(q)` with `v = M⁻¹p` (the second derivative of `c(q(t)) = 0`),
//! gives the momentum derivative `ṗ = −∇V − Gᵀλ`. The stage momenta `P_i` are the cubic Hermite
//! extrapolation to `t_n + c_i h` of `(p_{n−1}, ṗ_{n−1})`, `(p_n, ṗ_n)`, the multipliers the
//! linear extrapolation `Λ_i = λ_n + c_i (λ_n − λ_{n−1})`; start-up rule: `P_i = p_0 + c_i h ṗ_0`,
//! `Λ_i = λ_0`. The Gram matrix `A(q_n)` is checked at every step ([`super::gram`]).

use super::core::{OneStep, StepperCore, record, run};
use super::error::{HolonomicError, HolonomicFailure};
use super::multipliers::ConstraintFrame;
use super::options::{HolonomicOptions, Tolerances};
use crate::integrate::hermite_value;
use crate::layout::Role;
use crate::problem::{HolonomicSystem, Matrix, Vector};
use crate::solution::{Observer, Solution, StepStats, Stopped, accepted};
use crate::solve::{Fixed, Newton, NewtonOptions, SingularMatrix};
use crate::stage::{StageMethod, StageSystem, tangent_map};
use std::marker::PhantomData;

/// The state of the previous step the initial guess extrapolates from: `p`, `ṗ`, `λ`.
#[derive(Clone, Copy, Debug)]
struct History<const D: usize, const M: usize> {
    p: Vector<D>,
    p_dot: Vector<D>,
    lambda: Vector<M>,
}

/// A generated stage method `Meth` with `N` unknowns on the holonomic system `P`.
pub struct StageStepper<'a, Meth, P, const D: usize, const M: usize, const N: usize> {
    core: StepperCore<'a, P, D, M>,
    newton: Newton<Fixed<N>>,
    x: [f64; N],
    previous: Option<History<D, M>>,
    method: PhantomData<Meth>,
}

/// Value of the cubic Hermite interpolant on `[t_{n−1}, t_n]` through `(y₀, ẏ₀)`, `(y₁, ẏ₁)` at
/// `τ = 1 + c` (in units of h).
fn hermite<const D: usize>(
    y0: &Vector<D>,
    dy0: &Vector<D>,
    y1: &Vector<D>,
    dy1: &Vector<D>,
    h: f64,
    c: f64,
) -> Vector<D> {
    let mut y = Vector::<D>::zeros();
    let (start, end) = (
        (y0.as_slice(), dy0.as_slice()),
        (y1.as_slice(), dy1.as_slice()),
    );
    hermite_value(start, end, h, c, y.as_mut_slice());
    y
}

impl<'a, Meth, P, const D: usize, const M: usize, const N: usize> StageStepper<'a, Meth, P, D, M, N>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    /// A stepper; rejects a non-positive or non-finite `h`, invalid tolerances, and an `N`
    /// that is not the method's number of unknowns for `D` coordinates and `M` constraints.
    /// The stage Newton iteration is capped at `tolerances.max_iterations`.
    pub fn new(problem: &'a P, h: f64, tolerances: Tolerances) -> Result<Self, HolonomicError> {
        if Meth::DIMS.coordinates != D
            || Meth::DIMS.constraints != M
            || Meth::UNKNOWNS.len(Meth::DIMS) != N
        {
            return Err(HolonomicError::InvalidOptions(
                "N differs from the method's number of unknowns (or the method is not for holonomic systems with M constraints)",
            ));
        }
        let newton = NewtonOptions {
            max_iterations: tolerances.max_iterations,
            ..NewtonOptions::default()
        };
        Ok(StageStepper {
            core: StepperCore::new(problem, h, tolerances)?,
            newton: Newton::new(newton),
            x: [0.0; N],
            previous: None,
            method: PhantomData,
        })
    }

    /// The steps accepted so far.
    pub fn steps(&self) -> usize {
        self.core.steps
    }

    /// The time `t = steps · h` at the start of the next step.
    pub fn time(&self) -> f64 {
        self.core.time()
    }

    /// The converged unknowns of the last step.
    pub fn unknowns(&self) -> &[f64; N] {
        &self.x
    }

    /// The index-1 multiplier `λ(q, p)` and `ṗ = −∇V(q) − G(q)ᵀλ`, with the frame at `q`.
    fn momentum_rate(
        frame: &ConstraintFrame<D, M>,
        problem: &P,
        minv: &Matrix<D, D>,
        p: &Vector<D>,
    ) -> (Vector<D>, Vector<M>) {
        let v = minv * p;
        let grad = problem.potential_gradient(&frame.q);
        let curvature = problem.constraint_velocity_derivative(&frame.q, &v) * v;
        let lambda = frame.gram.solve(&(curvature - frame.minv_gt.tr_mul(&grad)));
        (-grad - frame.g.tr_mul(&lambda), lambda)
    }

    /// Writes the initial guess of the module documentation into the unknowns.
    fn initial_guess(&mut self, now: &History<D, M>) {
        let (h, p, p_dot, lambda) = (self.core.h, &now.p, &now.p_dot, now.lambda);
        for (b, block) in Meth::UNKNOWNS.blocks.iter().enumerate() {
            for i in 0..block.stages {
                let c = Meth::NODES.get(i).copied().unwrap_or(0.5);
                match block.role {
                    Role::Momentum => {
                        let guess = match &self.previous {
                            Some(prev) => hermite(&prev.p, &prev.p_dot, p, p_dot, h, c),
                            None => p + p_dot * (c * h),
                        };
                        Meth::UNKNOWNS.set::<D>(&mut self.x, Meth::DIMS, b, i, &guess);
                    }
                    Role::Multiplier => {
                        let guess = match &self.previous {
                            Some(prev) => lambda + (lambda - prev.lambda) * c,
                            None => lambda,
                        };
                        Meth::UNKNOWNS.set::<M>(&mut self.x, Meth::DIMS, b, i, &guess);
                    }
                    Role::Velocity | Role::Residual => {}
                }
            }
        }
    }

    /// One step from `(q, p)`, which should be consistent (`c(q) = 0`, `G(q)M⁻¹p = 0`).
    pub fn step(
        &mut self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>, StepStats), HolonomicError> {
        let (h, step, time) = (self.core.h, self.core.steps + 1, self.time());
        let threshold = self.core.tolerances.gram;
        let frame = ConstraintFrame::cached(
            &mut self.core.frame,
            self.core.problem,
            &self.core.minv,
            q,
            threshold,
        )
        .map_err(|d| HolonomicError::degenerate(d, step, time, threshold))?;
        let (p_dot, lambda) = Self::momentum_rate(frame, self.core.problem, &self.core.minv, p);
        let now = History {
            p: *p,
            p_dot,
            lambda,
        };
        self.initial_guess(&now);
        // The holonomic steppers carry no multiplier from step to step (λ_n is not read).
        let system = StageSystem::<Meth, P, D>::new(self.core.problem, h, *q, *p, &[]);
        let report = self.newton.solve(&system, &mut self.x).map_err(|source| {
            HolonomicError::StageEquations {
                step,
                time,
                at: crate::error::position_of(
                    &source,
                    [&Meth::UNKNOWNS, &Meth::RESIDUALS],
                    Meth::DIMS,
                ),
                source,
            }
        })?;
        let (q1, p1) = Meth::update(self.core.problem, h, q, p, &[], &self.x);
        let result = accepted(q1, p1, &report).ok_or(HolonomicError::NonFinite { step, time })?;
        self.previous = Some(now);
        self.core.steps = step;
        Ok(result)
    }

    /// The exact tangent map `DΨ = ∂(q₁, p₁)/∂(q, p)` of the last step, taken from `(q, p)`
    /// ([`tangent_map`]).
    pub fn tangent_map(
        &self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<[[Matrix<D, D>; 2]; 2], SingularMatrix> {
        tangent_map::<Meth, P, D, N>(self.core.problem, self.core.h, q, p, &[], &self.x)
    }
}

impl<'a, Meth, P, const D: usize, const M: usize, const N: usize> OneStep<'a, P, D, M>
    for StageStepper<'a, Meth, P, D, M, N>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    fn core(&self) -> &StepperCore<'a, P, D, M> {
        &self.core
    }

    fn advance(
        &mut self,
        q: &Vector<D>,
        p: &Vector<D>,
    ) -> Result<(Vector<D>, Vector<D>, StepStats), HolonomicError> {
        self.step(q, p)
    }
}

/// Integrates `options.steps` steps of the generated stage method `Meth` (`N` unknowns) from
/// `(q₀, p₀)`, with the consistency handling of [`integrate_rattle`](super::integrate_rattle)
/// (initial check or projection, optional restoration after every step). The statistics of
/// a step are the Newton iterations and the final scaled residual of its stage equations. On
/// failure the error carries the solution up to the last accepted step.
pub fn integrate_holonomic<Meth, P, const D: usize, const M: usize, const N: usize>(
    problem: &P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
) -> Result<Solution<D>, Box<HolonomicFailure<D>>>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    record(options, |r| {
        integrate_holonomic_into::<Meth, P, _, D, M, N>(problem, q0, p0, options, r)
    })
}

/// [`integrate_holonomic`], handing every accepted state (the initial one first) to `observer`
/// as it is computed instead of keeping it; stops at the first failed step or observer error.
pub fn integrate_holonomic_into<Meth, P, O, const D: usize, const M: usize, const N: usize>(
    problem: &P,
    q0: &Vector<D>,
    p0: &Vector<D>,
    options: &HolonomicOptions,
    observer: &mut O,
) -> Result<(), Stopped<HolonomicError, O::Error>>
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
    O: Observer + ?Sized,
{
    run(
        problem,
        q0,
        p0,
        options,
        || StageStepper::<Meth, P, D, M, N>::new(problem, options.h, options.tolerances),
        observer,
    )
}
