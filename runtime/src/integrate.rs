//! Time stepping of degenerate Lagrangian systems and implicit DAEs with a generated
//! [`StageMethod`].
//!
//! Each step solves the stage equations by Newton's method with the exact Jacobian
//! ([`crate::solve::Newton`]; by default simplified Newton, one factorisation per step).
//! Initial guess: velocity stages `V_i` by Hermite extrapolation, to `t_n + c_i h`, of the cubic
//! through `(q_{n−1}, v_{n−1})` and `(q_n, v_n)`, where `v` is the velocity the problem kind
//! gives ([`Access::velocity`]: `Ω(q) v = −∇H(q)` for a degenerate Lagrangian, `Ω = J − Jᵀ`;
//! the guess `v̄(q, p)` of an implicit DAE); start-up rule: at the first step `V_i = v(q_0)`.
//! Other unknowns start from the previous step's values (zero at the first step). Methods that
//! carry a multiplier ([`StageMethod::MULTIPLIER`]) read `λ_n`, starting from the `λ_0`
//! consistent with the initial data ([`Access::initial_multiplier`]: 0 for a degenerate
//! Lagrangian), and hand `λ_{n+1}` to the observer with the state. The loop itself allocates
//! nothing; an in-memory [`Record`] preallocates up to [`crate::solution::PREALLOCATED_POINTS`]
//! points before it starts and grows geometrically beyond them.

use crate::amplification::multiplier_amplification;
use crate::error::IntegrateError;
use crate::kind::{Access, State};
use crate::layout::Role;
use crate::problem::DegenerateLagrangian;
use crate::solution::{Failure, Observer, Point, Record, Solution, StepStats, Stopped, accepted};
use crate::solve::{Fixed, LinearSolve, Newton, NewtonOptions, SingularMatrix};
use crate::stage::{StageMethod, StageSystem, tangent_map};
use nalgebra::{SMatrix, SVector};
use std::marker::PhantomData;

pub mod multiplier_watch;
use multiplier_watch::MultiplierWatch;

/// Options of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Time step h.
    pub h: f64,
    /// Number of steps.
    pub steps: usize,
    /// Newton tolerances and limits.
    pub newton: NewtonOptions,
    /// Replace `p₀` by `ϑ(q₀)` instead of rejecting inconsistent initial data.
    pub project_initial: bool,
    /// Tolerance of `|p₀ − ϑ(q₀)|∞`, relative to `max(1, |p₀|∞)`.
    pub initial_tolerance: f64,
}

impl Options {
    /// `steps` steps of size `h` with default Newton options, no projection, and an initial
    /// consistency tolerance of 1e−12.
    pub fn new(h: f64, steps: usize) -> Options {
        Options {
            h,
            steps,
            newton: NewtonOptions::default(),
            project_initial: false,
            initial_tolerance: 1e-12,
        }
    }
}

/// The vector field `v(q)` of `Ω(q) v = −∇H(q)`, if `Ω(q)` is regular
/// ([`DegenerateLagrangian::vector_field`]).
pub fn vector_field<P: DegenerateLagrangian<D>, const D: usize>(
    problem: &P,
    q: &SVector<f64, D>,
) -> Option<SVector<f64, D>> {
    problem.vector_field(q)
}

/// Derivative at `τ = 1 + c` of the cubic Hermite interpolant on `[t_{n−1}, t_n]`.
fn hermite_velocity<const D: usize>(
    q_prev: &SVector<f64, D>,
    v_prev: &SVector<f64, D>,
    q: &SVector<f64, D>,
    v: &SVector<f64, D>,
    h: f64,
    c: f64,
) -> SVector<f64, D> {
    let tau = 1.0 + c;
    let d00 = 6.0 * tau * tau - 6.0 * tau;
    let d10 = 3.0 * tau * tau - 4.0 * tau + 1.0;
    let d11 = 3.0 * tau * tau - 2.0 * tau;
    (q_prev * d00 - q * d00) / h + v_prev * d10 + v * d11
}

/// One-step driver: Newton on the stage equations of `M`, with the initial guess of the
/// module documentation. Keeps its work arrays, so stepping allocates nothing.
pub struct Stepper<'a, M, P, const D: usize, const N: usize> {
    problem: &'a P,
    h: f64,
    newton: Newton<Fixed<N>>,
    x: [f64; N],
    /// `λ_n` in its first `M` entries (`M ≤ N`: it is a combination of unknown vectors).
    lambda: [f64; N],
    /// The `λ_n` the last step read (for its tangent map).
    lambda_read: [f64; N],
    previous: Option<(SVector<f64, D>, SVector<f64, D>)>,
    /// The defect of the carried multiplier, for methods that read it back.
    watch: MultiplierWatch,
    method: PhantomData<M>,
}

impl<'a, M, P, const D: usize, const N: usize> Stepper<'a, M, P, D, N>
where
    M: StageMethod<P, D>,
{
    /// A stepper with step size `h`; fails if `N` is not the method's number of unknowns.
    pub fn new(problem: &'a P, h: f64, newton: NewtonOptions) -> Result<Self, IntegrateError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(IntegrateError::InvalidOptions(
                "h must be finite and positive",
            ));
        }
        if M::UNKNOWNS.len(M::DIMS) != N {
            return Err(IntegrateError::InvalidOptions(
                "N differs from the method's number of unknowns",
            ));
        }
        let newton = if M::RANK_DEFICIENT {
            NewtonOptions {
                linear: LinearSolve::MinimumNorm {
                    rank_tolerance: None,
                },
                ..newton
            }
        } else {
            newton
        };
        Ok(Stepper {
            problem,
            h,
            newton: Newton::new(newton),
            x: [0.0; N],
            lambda: [0.0; N],
            lambda_read: [0.0; N],
            previous: None,
            watch: MultiplierWatch::default(),
            method: PhantomData,
        })
    }

    /// The converged unknowns of the last step.
    pub fn unknowns(&self) -> &[f64; N] {
        &self.x
    }

    /// The carried multiplier `λ_n` after the last step (`M` entries), for methods that carry
    /// one.
    pub fn multiplier(&self) -> Option<&[f64]> {
        M::MULTIPLIER.map(|_| &self.lambda[..M::DIMS.constraints])
    }

    /// Starts the carried multiplier at the `λ_0` consistent with `(q₀, p₀)`
    /// ([`Access::initial_multiplier`]); `Err` with the hidden constraint's residual where there
    /// is none.
    pub fn start_multiplier(
        &mut self,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
    ) -> Result<(), f64> {
        let m = M::DIMS.constraints;
        M::Kind::initial_multiplier(self.problem, q, p, &mut self.lambda[..m])
    }

    fn initial_guess(&mut self, q: &SVector<f64, D>, p: &SVector<f64, D>) -> SVector<f64, D> {
        let v = M::Kind::velocity(self.problem, q, p).unwrap_or_else(SVector::zeros);
        for (b, block) in M::UNKNOWNS.blocks.iter().enumerate() {
            if block.role == Role::Velocity {
                for i in 0..block.stages {
                    let c = M::NODES.get(i).copied().unwrap_or(0.5);
                    let guess = match &self.previous {
                        Some((qp, vp)) => hermite_velocity(qp, vp, q, &v, self.h, c),
                        None => v,
                    };
                    M::UNKNOWNS.set::<D>(&mut self.x, M::DIMS, b, i, &guess);
                }
            }
        }
        v
    }

    /// One step from `(q, p)` at time `time` (step number `step`, for errors). A step that
    /// fails while the carried multiplier's defect grows as a parasitic mode
    /// ([`MultiplierWatch::failing_mode`]) reports the mode.
    pub fn step(
        &mut self,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        step: usize,
        time: f64,
    ) -> Result<(SVector<f64, D>, SVector<f64, D>, StepStats), IntegrateError> {
        self.advance(q, p, step, time).map_err(|error| {
            let watched = M::MULTIPLIER.is_some_and(|update| update.read);
            match self.watch.failing_mode().filter(|_| watched) {
                Some(mode) if !matches!(error, IntegrateError::ParasiticMultiplier { .. }) => {
                    IntegrateError::ParasiticMultiplier {
                        step,
                        time,
                        defect: mode.defect,
                        growth: mode.growth,
                        steps: mode.steps,
                        amplification: mode.amplification,
                    }
                }
                _ => error,
            }
        })
    }

    fn advance(
        &mut self,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        step: usize,
        time: f64,
    ) -> Result<(SVector<f64, D>, SVector<f64, D>, StepStats), IntegrateError> {
        let v = self.initial_guess(q, p);
        let m = M::DIMS.constraints;
        let system = StageSystem::<M, P, D>::new(self.problem, self.h, *q, *p, &self.lambda[..m]);
        let report = self.newton.solve(&system, &mut self.x).map_err(|e| {
            IntegrateError::from_newton(step, time, e, [&M::UNKNOWNS, &M::RESIDUALS], M::DIMS)
        })?;
        let (q1, p1) = M::update(self.problem, self.h, q, p, &self.lambda[..m], &self.x);
        let result = accepted(q1, p1, &report).ok_or(IntegrateError::NonFinite { step, time })?;
        if let Some(update) = M::MULTIPLIER {
            let mut lambda = [0.0; N];
            update.apply(&M::UNKNOWNS, M::DIMS, &self.x, &mut lambda[..m]);
            if !lambda.iter().all(|l| l.is_finite()) {
                return Err(IntegrateError::NonFinite { step, time });
            }
            self.lambda_read = self.lambda;
            self.lambda = lambda;
            if update.read {
                self.watch_multiplier((q, p), (&result.0, &result.1), step, time)?;
            }
        }
        self.previous = Some((*q, v));
        Ok(result)
    }

    /// Watches the defect `|λ_{n+1} − λ̂(q_{n+1}, p_{n+1})|∞` of the multiplier just carried
    /// by the step from `start` to `(q, p)` ([`multiplier_watch`]); an error once it grows as a
    /// parasitic mode.
    fn watch_multiplier(
        &mut self,
        start: State<'_, D>,
        (q, p): State<'_, D>,
        step: usize,
        time: f64,
    ) -> Result<(), IntegrateError> {
        let m = M::DIMS.constraints;
        let mut consistent = [0.0; N];
        if M::Kind::initial_multiplier(self.problem, q, p, &mut consistent[..m]).is_err() {
            return Ok(());
        }
        let amax = |v: &[f64]| v.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let defect = self.lambda[..m]
            .iter()
            .zip(&consistent)
            .fold(0.0f64, |a, (l, c)| a.max((l - c).abs()));
        let velocity = M::Kind::velocity_with_multiplier(self.problem, q, p, &consistent[..m])
            .map_or(0.0, |v| v.amax());
        let scale = amax(&consistent[..m]).max(velocity);
        let amplification = || {
            let lambda = &self.lambda_read[..m];
            multiplier_amplification::<M, P, D, N>(
                self.problem,
                self.h,
                start,
                lambda,
                &self.x,
                (q, p),
            )
        };
        match self.watch.observe(defect, scale, amplification) {
            Some(mode) => Err(IntegrateError::ParasiticMultiplier {
                step,
                time,
                defect: mode.defect,
                growth: mode.growth,
                steps: mode.steps,
                amplification: mode.amplification,
            }),
            None => Ok(()),
        }
    }

    /// The exact tangent map `DΨ = ∂(q₁, p₁)/∂(q, p)` of the last step taken from `(q, p)`
    /// ([`tangent_map`]).
    pub fn tangent_map(
        &self,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
    ) -> Result<[[SMatrix<f64, D, D>; 2]; 2], SingularMatrix> {
        let lambda = &self.lambda_read[..M::DIMS.constraints];
        tangent_map::<M, P, D, N>(self.problem, self.h, q, p, lambda, &self.x)
    }
}

/// Integrates `steps` steps of size `h` from `(q₀, p₀)` with method `M` (`N` unknowns), keeping
/// every point in memory ([`Record`]).
///
/// On failure the error carries the solution up to the last accepted step.
pub fn integrate<M, P, const D: usize, const N: usize>(
    problem: &P,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
) -> Result<Solution<D>, Box<Failure<D>>>
where
    M: StageMethod<P, D>,
{
    Record::every_point(
        options.steps,
        |record| integrate_into::<M, P, _, D, N>(problem, q0, p0, options, record),
        |solution, error| Box::new(Failure { solution, error }),
    )
}

/// Integrates `steps` steps of size `h` from `(q₀, p₀)` with method `M` (`N` unknowns), handing
/// every accepted state, the initial one first, to `observer` as it is computed; nothing is
/// kept here. The run stops at the first failed step ([`Stopped::Step`], after the observer has
/// seen every accepted state) or when the observer returns an error ([`Stopped::Observer`]).
pub fn integrate_into<M, P, O, const D: usize, const N: usize>(
    problem: &P,
    q0: SVector<f64, D>,
    p0: SVector<f64, D>,
    options: &Options,
    observer: &mut O,
) -> Result<(), Stopped<IntegrateError, O::Error>>
where
    M: StageMethod<P, D>,
    O: Observer<D> + ?Sized,
{
    let mut stepper =
        Stepper::<M, P, D, N>::new(problem, options.h, options.newton).map_err(Stopped::Step)?;
    let residual = M::Kind::constraint(problem, &q0, &p0);
    let tolerance = options.initial_tolerance * p0.amax().max(1.0);
    let projected = M::Kind::consistent_momentum(problem, &q0).filter(|_| options.project_initial);
    let p0 = match projected {
        Some(p) => p,
        None if residual <= tolerance => p0,
        None => {
            return Err(Stopped::Step(IntegrateError::InconsistentInitialData {
                residual,
                tolerance,
            }));
        }
    };
    if M::MULTIPLIER.is_some()
        && let Err(residual) = stepper.start_multiplier(&q0, &p0)
    {
        return Err(Stopped::Step(IntegrateError::InitialMultiplier {
            residual,
        }));
    }
    let (mut q, mut p) = (q0, p0);
    let mut stats = None;
    for n in 0..=options.steps {
        let t = n as f64 * options.h;
        let point = Point {
            step: n,
            t,
            q: &q,
            p: &p,
            lambda: stepper.multiplier().unwrap_or_default(),
            stats,
        };
        observer.observe(&point).map_err(Stopped::Observer)?;
        if n == options.steps {
            break;
        }
        let step = stepper.step(&q, &p, n + 1, t).map_err(Stopped::Step)?;
        (q, p, stats) = (step.0, step.1, Some(step.2));
    }
    Ok(())
}
