//! Time stepping of degenerate Lagrangian systems and implicit DAEs with a generated
//! [`StageMethod`].
//!
//! Each step solves the stage equations by Newton's method with the exact Jacobian
//! ([`crate::solve::Newton`]; by default simplified Newton, one factorisation per step).
//! Initial guess: velocity stages `V_i` by Hermite extrapolation, to `t_n + c_i h`, of the cubic
//! through `(q_{n−1}, v_{n−1})` and `(q_n, v_n)`, where `v` is the velocity the problem kind
//! gives ([`Access::velocity`]: `Ω(q) v = −∇H(q)` for a degenerate Lagrangian, `Ω = J − Jᵀ`;
//! the guess `v̄(q, p)` of an implicit DAE); start-up rule: at the first step `V_i = v(q_0)`.
//! Stage increments `Y_i = (Q_i − q_n)/h` from the same cubic, `(q̂(t_n + c_i h) − q_n)/h`
//! (`c_i v(q_0)` at the first step). Where the kind gives a momentum rate
//! ([`Access::momentum_rate`]: holonomic systems and Hamiltonian DAEs, `ṗ` with the multiplier
//! `λ(q, p)` that holds the constraint), stage momenta and momentum increments come from the
//! cubic through `(p_{n−1}, ṗ_{n−1})` and `(p_n, ṗ_n)` (`p_n + c_i h ṗ_n` at the first step),
//! and the multiplier stages `Λ_i` from `λ` extrapolated linearly. A block at the projective
//! stages takes their nodes `c̃_j` in place of `c_i` ([`crate::layout::Nodes`]). Other unknowns
//! start from the previous step's values (zero at the first step). Methods that carry a
//! multiplier ([`StageMethod::MULTIPLIER`]) read `λ_n`, starting from the `λ_0`
//! consistent with the initial data ([`Access::initial_multiplier`]: 0 for a degenerate
//! Lagrangian), and hand `λ_{n+1}` to the observer with the state. The loop itself allocates
//! nothing; an in-memory [`Record`] preallocates up to [`crate::solution::PREALLOCATED_POINTS`]
//! points before it starts and grows geometrically beyond them.

use crate::error::IntegrateError;
use crate::holonomic::Tolerances;
use crate::layout::Role;
use crate::problem::DegenerateLagrangian;
use crate::solution::{
    Departed, Failure, Observer, Point, Record, RunStats, Solution, StepStats, Stopped,
};
use crate::solve::{
    Buffer, LinearSolve, Newton, NewtonError, NewtonOptions, SingularMatrix, Space,
};
use crate::stage::{StageMethod, tangent_map};
use nalgebra::{SMatrix, SVector};
use std::convert::Infallible;

pub mod constraint_watch;
pub mod equations;
mod initial;
pub mod multiplier_watch;
mod vectors;
#[cfg(doc)]
use crate::kind::Access;
use constraint_watch::ConstraintWatch;
pub use equations::{Compiled, Inputs, StepEquations};
use multiplier_watch::MultiplierWatch;
use vectors::Vectors;

/// What a watched quantity leaving its documented bound does to a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Watch {
    /// Stop the run with a typed error naming step, time and quantity.
    #[default]
    Stop,
    /// Let the run go on and record the first departure in its statistics (a warning).
    Warn,
    /// Not watched.
    Off,
}

/// Options of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Time step h.
    pub h: f64,
    /// Number of steps.
    pub steps: usize,
    /// Newton tolerances and limits.
    pub newton: NewtonOptions,
    /// Project inconsistent initial data onto the constraints instead of rejecting them: for a
    /// degenerate Lagrangian `p₀ ← ϑ(q₀)`; for a holonomic system run by RATTLE, SHAKE or a
    /// holonomic stage method, `q₀` onto `c = 0` by damped Gauss–Newton steps
    /// `q ← q − t M⁻¹G(q)ᵀA(q)⁻¹c(q)`, which converge from any point where a projection exists
    /// (the iterations in [`RunStats::initial_projection_iterations`]), then
    /// `p₀ ← p₀ − G(q₀)ᵀμ` with `G(q₀)M⁻¹p₀ = 0` ([`crate::holonomic::project`], with the
    /// tolerances [`Options::constraints`]); distance-constraint systems
    /// ([`crate::holonomic::distance`]) project `q₀ ← q₀ − M⁻¹G(q₀)ᵀx` with `c(q₀) = 0` by
    /// the multipliers' Newton iteration. Kinds without a projection reject the data.
    pub project_initial: bool,
    /// The tolerance `τ₀` of the initial consistency check, relative to the state's scale. For
    /// a holonomic system run by RATTLE, SHAKE or a holonomic stage method, every constraint is
    /// held to it relative to its gradient and the state,
    /// `|c_a(q₀)| ≤ τ₀ ‖∇c_a(q₀)‖₂ ‖q₀‖_∞` and `|(G(q₀)M⁻¹p₀)_a| ≤ τ₀ ‖∇c_a(q₀)‖₂ ‖M⁻¹p₀‖_∞`
    /// (both constraints, each scale-free); otherwise the kind's residual is,
    /// `|φ(q₀, p₀)|∞ ≤ τ₀ max(1, |p₀|∞)` ([`crate::kind::Access::constraint`]).
    pub initial_tolerance: f64,
    /// The multiplier solves of holonomic systems: the tolerances and iteration cap of RATTLE's
    /// and SHAKE's position and velocity multipliers and of every projection, their Newton
    /// variant, and the rank threshold `τ_A` of the Gram matrix `A = G M⁻¹ Gᵀ`, which RATTLE,
    /// SHAKE and the holonomic stage methods check at every step. The stage equations of a
    /// stage method are solved with [`Options::newton`].
    pub constraints: Tolerances,
    /// Re-project `(q_n, p_n)` onto `c = 0`, `G M⁻¹ p = 0` after every step of RATTLE or a
    /// holonomic stage method ("consistency restoration"), with [`Options::constraints`] and
    /// the position tolerance tightened to at most its default round-off level: a residual
    /// tolerance alone is no forward-error certificate. Holonomic systems only: SHAKE (whose
    /// momenta are differences of positions) and the other kinds reject it.
    pub restore_consistency: bool,
    /// What a constraint residual that leaves round-off exponentially ([`constraint_watch`])
    /// does to the run: stop it with [`IntegrateError::ConstraintDeparture`] (the default),
    /// or only be recorded ([`RunStats::departure`]), or nothing, for a study of the growth
    /// itself.
    pub watch_constraint: Watch,
}

impl Options {
    /// `steps` steps of size `h` with default Newton options and constraint tolerances, no
    /// projection or restoration, an initial consistency tolerance of 1e−12, and the
    /// constraint watched.
    pub fn new(h: f64, steps: usize) -> Options {
        Options {
            h,
            steps,
            newton: NewtonOptions::default(),
            project_initial: false,
            initial_tolerance: 1e-12,
            constraints: Tolerances::default(),
            restore_consistency: false,
            watch_constraint: Watch::Stop,
        }
    }

    /// A run from t = 0 to `t_end` with steps of at most `h`: the fewest equal steps
    /// `n = ⌈t_end/h⌉` of size `t_end/n`, so that the last point is at `n · (t_end/n)`, `t_end`
    /// to rounding (a fixed step size keeps the method's structure; the step size is not changed
    /// within the run). `t_end = 0` is no step. Defaults as [`Options::new`].
    pub fn until(h: f64, t_end: f64) -> Result<Options, IntegrateError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(IntegrateError::InvalidOptions(
                "h must be finite and positive",
            ));
        }
        if !(t_end.is_finite() && t_end >= 0.0) {
            return Err(IntegrateError::InvalidOptions(
                "the end time must be finite and non-negative",
            ));
        }
        // Steps beyond 2⁵³ are not distinct in f64 (nor countable in a run).
        let n = (t_end / h).ceil();
        if n > (1u64 << 53) as f64 {
            return Err(IntegrateError::InvalidOptions(
                "the end time is more than 2⁵³ steps of h away",
            ));
        }
        let steps = n as usize;
        Ok(match steps {
            0 => Options::new(h, 0),
            _ => Options::new(t_end / n, steps),
        })
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

/// Derivative at `τ = 1 + c` of the cubic Hermite interpolant on `[t_{n−1}, t_n]` through
/// `(q_{n−1}, v_{n−1})` and `(q_n, v_n)`, into `out`.
fn hermite_velocity(
    (q_prev, v_prev): (&[f64], &[f64]),
    (q, v): (&[f64], &[f64]),
    h: f64,
    c: f64,
    out: &mut [f64],
) {
    let tau = 1.0 + c;
    let d00 = 6.0 * tau * tau - 6.0 * tau;
    let d10 = 3.0 * tau * tau - 4.0 * tau + 1.0;
    let d11 = 3.0 * tau * tau - 2.0 * tau;
    for (k, o) in out.iter_mut().enumerate() {
        *o = (q_prev[k] * d00 - q[k] * d00) / h + v_prev[k] * d10 + v[k] * d11;
    }
}

/// Value at `τ = 1 + c` of the cubic Hermite interpolant on `[t_{n−1}, t_n]` through
/// `(y_{n−1}, ẏ_{n−1})` and `(y_n, ẏ_n)`, into `out`.
pub(crate) fn hermite_value(
    (y_prev, dy_prev): (&[f64], &[f64]),
    (y, dy): (&[f64], &[f64]),
    h: f64,
    c: f64,
    out: &mut [f64],
) {
    let t = 1.0 + c;
    let (t2, t3) = (t * t, t * t * t);
    let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h10 = t3 - 2.0 * t2 + t;
    let h01 = -2.0 * t3 + 3.0 * t2;
    let h11 = t3 - t2;
    for (k, o) in out.iter_mut().enumerate() {
        *o = y_prev[k] * h00 + dy_prev[k] * (h10 * h) + y[k] * h01 + dy[k] * (h11 * h);
    }
}

/// The increment `(y − y_n)/h` of the extrapolated value `y` in `out`.
fn increment(out: &mut [f64], y_n: &[f64], h: f64) {
    for (o, y) in out.iter_mut().zip(y_n) {
        *o = (*o - y) / h;
    }
}

/// `max_k |v_k|`.
fn amax(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |a, b| a.max(b.abs()))
}

/// The one-step driver of every stage method, compiled or run by the engine: Newton on the
/// stage equations of `E`, with the initial guess of the module documentation. Its work arrays
/// are allocated when it is made, so stepping allocates nothing.
pub struct Driver<E: StepEquations> {
    equations: E,
    h: f64,
    newton: Newton<E::Space>,
    x: <E::Space as Space>::Vector,
    vectors: Vectors,
    /// Whether a step was taken (`(q_{n−1}, v_{n−1})` is known).
    started: bool,
    /// Whether the last step's start had a momentum rate (`(p_{n−1}, ṗ_{n−1})` is known).
    rated: bool,
    /// The defect of the carried multiplier, for methods that read it back.
    watch: MultiplierWatch,
}

impl<E: StepEquations> Driver<E> {
    /// A driver of `equations` with step size `h`.
    pub fn new(equations: E, h: f64, newton: NewtonOptions) -> Result<Self, IntegrateError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(IntegrateError::InvalidOptions(
                "h must be finite and positive",
            ));
        }
        let (space, dims) = (equations.space(), equations.dims());
        if equations.unknowns().len(dims) != space.dim() {
            return Err(IntegrateError::InvalidOptions(
                "N differs from the method's number of unknowns",
            ));
        }
        let newton = if equations.rank_deficient() {
            NewtonOptions {
                linear: LinearSolve::MinimumNorm {
                    rank_tolerance: None,
                },
                ..newton
            }
        } else {
            newton
        };
        Ok(Driver {
            h,
            newton: Newton::new_in(space, newton),
            x: space.vector(),
            vectors: Vectors::new(dims),
            started: false,
            rated: false,
            watch: MultiplierWatch::default(),
            equations,
        })
    }

    /// The equations stepped.
    pub fn equations(&self) -> &E {
        &self.equations
    }

    /// The converged unknowns of the last step.
    pub fn unknowns(&self) -> &[f64] {
        self.x.entries()
    }

    /// `(q_{n+1}, p_{n+1})` of the last step.
    pub fn state(&self) -> (&[f64], &[f64]) {
        self.vectors.next()
    }

    /// The carried multiplier `λ_n` after the last step (`M` entries), for methods that carry
    /// one.
    pub fn multiplier(&self) -> Option<&[f64]> {
        self.equations.multiplier().map(|_| self.vectors.lambda())
    }

    /// The `λ_n` the last step read.
    pub fn multiplier_read(&self) -> &[f64] {
        self.vectors.lambda_read()
    }

    /// Starts the carried multiplier at the `λ_0` consistent with `(q₀, p₀)`
    /// ([`Access::initial_multiplier`]); `Err` with the hidden constraint's residual where there
    /// is none.
    pub fn start_multiplier(&mut self, q: &[f64], p: &[f64]) -> Result<(), f64> {
        let lambda = self.vectors.parts().lambda;
        self.equations.initial_multiplier(q, p, lambda)
    }

    fn initial_guess(&mut self, q: &[f64], p: &[f64]) {
        let v = self.vectors.parts();
        if !self.equations.velocity(q, p, None, v.velocity) {
            v.velocity.fill(0.0);
        }
        let rated = self.equations.momentum_rate(q, p, v.p_dot, v.rate_lambda);
        let hermite = rated && self.rated;
        self.rated = rated;
        let (dims, x, h) = (self.equations.dims(), self.x.entries_mut(), self.h);
        let layout = self.equations.unknowns();
        for (b, block) in layout.blocks.iter().enumerate() {
            for i in 0..block.stages {
                let c = self
                    .equations
                    .nodes(block.nodes)
                    .get(i)
                    .copied()
                    .unwrap_or(0.5);
                let o = layout.offset(b, i, dims);
                let guess = &mut x[o..o + dims.of(block.width)];
                match block.role {
                    Role::Velocity if self.started => {
                        hermite_velocity((v.q_prev, v.v_prev), (q, v.velocity), h, c, guess);
                    }
                    Role::Velocity => guess.copy_from_slice(v.velocity),
                    Role::PositionIncrement if self.started => {
                        hermite_value((v.q_prev, v.v_prev), (q, v.velocity), h, c, guess);
                        increment(guess, q, h);
                    }
                    Role::PositionIncrement => {
                        for (g, vk) in guess.iter_mut().zip(v.velocity.iter()) {
                            *g = c * vk;
                        }
                    }
                    Role::MomentumIncrement if hermite => {
                        hermite_value((v.p_prev, v.p_dot_prev), (p, v.p_dot), h, c, guess);
                        increment(guess, p, h);
                    }
                    Role::MomentumIncrement if rated => {
                        for (g, r) in guess.iter_mut().zip(v.p_dot.iter()) {
                            *g = c * r;
                        }
                    }
                    Role::Momentum if hermite => {
                        hermite_value((v.p_prev, v.p_dot_prev), (p, v.p_dot), h, c, guess);
                    }
                    Role::Momentum if rated => {
                        for ((g, p), r) in guess.iter_mut().zip(p).zip(v.p_dot.iter()) {
                            *g = p + c * h * r;
                        }
                    }
                    Role::Multiplier if hermite && guess.len() == v.rate_lambda.len() => {
                        let last = v.rate_lambda.iter().zip(v.rate_lambda_prev.iter());
                        for (g, (l, l_prev)) in guess.iter_mut().zip(last) {
                            *g = l + (l - l_prev) * c;
                        }
                    }
                    Role::Multiplier if rated && guess.len() == v.rate_lambda.len() => {
                        guess.copy_from_slice(v.rate_lambda);
                    }
                    Role::Momentum
                    | Role::MomentumIncrement
                    | Role::Multiplier
                    | Role::Correction
                    | Role::Residual => {}
                }
            }
        }
        if rated {
            v.p_prev.copy_from_slice(p);
            v.p_dot_prev.copy_from_slice(v.p_dot);
            v.rate_lambda_prev.copy_from_slice(v.rate_lambda);
        }
    }

    /// One step from `(q, p)` at time `time` (step number `step`, for errors), its result in
    /// [`Driver::state`]. A step that fails while the carried multiplier's defect grows as a
    /// parasitic mode ([`MultiplierWatch::failing_mode`]) reports the mode.
    pub fn step(
        &mut self,
        q: &[f64],
        p: &[f64],
        step: usize,
        time: f64,
    ) -> Result<StepStats, IntegrateError> {
        self.advance(q, p, step, time).map_err(|error| {
            let watched = self
                .equations
                .multiplier()
                .is_some_and(|update| update.read);
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
        q: &[f64],
        p: &[f64],
        step: usize,
        time: f64,
    ) -> Result<StepStats, IntegrateError> {
        self.initial_guess(q, p);
        let equations = &self.equations;
        let v = self.vectors.parts();
        let inputs = Inputs {
            h: self.h,
            q,
            p,
            lambda: v.lambda,
        };
        let report = {
            let system = equations.system(inputs);
            self.newton.solve(&system, self.x.entries_mut())
        };
        let dims = equations.dims();
        let layouts = [equations.unknowns(), equations.residuals()];
        let newton = &mut self.newton;
        let report = report.map_err(|e| {
            // The failure path only: the undetermined direction of a singular Jacobian.
            let null = match &e {
                NewtonError::Singular { source, .. } => {
                    let mut x = vec![0.0; layouts[0].len(dims)];
                    newton.null_direction(source.column, &mut x).then_some(x)
                }
                _ => None,
            };
            let at = (step, time);
            IntegrateError::from_newton(at, equations.method(), e, layouts, dims, null.as_deref())
        })?;
        let x = self.x.entries();
        equations.update(inputs, x, v.q1, v.p1);
        if !v.q1.iter().chain(v.p1.iter()).all(|z| z.is_finite()) {
            return Err(IntegrateError::NonFinite { step, time });
        }
        if let Some(update) = equations.multiplier() {
            update.apply(equations.unknowns(), dims, x, v.lambda_work);
            if !v.lambda_work.iter().all(|l| l.is_finite()) {
                return Err(IntegrateError::NonFinite { step, time });
            }
            v.lambda_read.copy_from_slice(v.lambda);
            v.lambda.copy_from_slice(v.lambda_work);
            if update.read {
                self.watch_multiplier((q, p), step, time)?;
            }
        }
        let v = self.vectors.parts();
        v.q_prev.copy_from_slice(q);
        v.v_prev.copy_from_slice(v.velocity);
        self.started = true;
        Ok(StepStats {
            iterations: report.iterations,
            residual: report.residual,
            factorisations: report.factorisations,
        })
    }

    /// Watches the defect `|λ_{n+1} − λ̂(q_{n+1}, p_{n+1})|∞` of the multiplier just carried
    /// by the step from `(q, p)` ([`multiplier_watch`]); an error once it grows as a parasitic
    /// mode.
    fn watch_multiplier(
        &mut self,
        (q, p): (&[f64], &[f64]),
        step: usize,
        time: f64,
    ) -> Result<(), IntegrateError> {
        let equations = &self.equations;
        let v = self.vectors.parts();
        let (q1, p1) = (&v.q1[..], &v.p1[..]);
        let consistent = v.lambda_work;
        if equations.initial_multiplier(q1, p1, consistent).is_err() {
            return Ok(());
        }
        let defect = v
            .lambda
            .iter()
            .zip(consistent.iter())
            .fold(0.0f64, |a, (l, c)| a.max((l - c).abs()));
        let velocity = if equations.velocity(q1, p1, Some(consistent), v.v_next) {
            amax(v.v_next)
        } else {
            0.0
        };
        let scale = amax(consistent).max(velocity);
        let inputs = Inputs {
            h: self.h,
            q,
            p,
            lambda: v.lambda_read,
        };
        let x = self.x.entries();
        let amplification = || equations.amplification(inputs, x, (q1, p1));
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
}

impl<M: StageMethod<P, D>, P, const D: usize> Driver<Compiled<'_, M, P, D>> {
    /// The exact tangent map `DΨ = ∂(q₁, p₁)/∂(q, p)` of the last step, taken from `(q, p)`
    /// ([`tangent_map`]), the carried multiplier `λ_n` it read held fixed.
    pub fn tangent_map(
        &self,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
    ) -> Result<[[SMatrix<f64, D, D>; 2]; 2], SingularMatrix> {
        let equations = &self.equations;
        let step = (self.h, q, p);
        let lambda = self.multiplier_read();
        tangent_map::<M, P, D>(
            equations.problem(),
            step,
            lambda,
            equations.space(),
            self.unknowns(),
        )
    }
}

/// Rejects initial data `(q₀, p₀)` without one entry per coordinate (of `d`).
pub(crate) fn check_lengths(d: usize, q0: &[f64], p0: &[f64]) -> Result<(), IntegrateError> {
    if q0.len() == d && p0.len() == d {
        Ok(())
    } else {
        Err(IntegrateError::InvalidOptions(
            "q₀ and p₀ must have one entry per coordinate",
        ))
    }
}

/// Runs `options.steps` steps of `equations` from `(q₀, p₀)` (`D` entries each), handing every
/// accepted state, the initial one first, to `observer` as it is computed, in the one loop of
/// every run (of [`crate::solve_into`]'s stage methods, the engine, and, with their own
/// steppers, RATTLE and SHAKE). The initial data are checked against the kind's constraint,
/// `|φ(q₀, p₀)|∞ ≤ τ₀ max(1, |p₀|∞)` (or projected, [`Options::project_initial`]), and a
/// method that carries a multiplier starts from the consistent `λ_0`;
/// [`Options::restore_consistency`] is rejected (it needs a holonomic system's projection).
pub fn run_into<E, O>(
    equations: E,
    q0: &[f64],
    p0: &[f64],
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    E: StepEquations,
    O: Observer + ?Sized,
{
    let d = equations.dims().coordinates;
    check_lengths(d, q0, p0).map_err(Stopped::Step)?;
    if options.restore_consistency {
        return Err(Stopped::Step(IntegrateError::InvalidOptions(
            "consistency restoration applies to holonomic systems run by RATTLE or a holonomic stage method",
        )));
    }
    let mut driver = Driver::new(equations, options.h, options.newton).map_err(Stopped::Step)?;
    let equations = &driver.equations;
    let residual = equations.constraint(q0, p0);
    let tolerance = options.initial_tolerance * amax(p0).max(1.0);
    let mut state = [q0, p0].concat();
    let (q, p) = state.split_at_mut(d);
    let projected = options.project_initial && equations.consistent_momentum(q0, p);
    let consistent = residual <= tolerance;
    if !(projected || consistent) {
        return Err(Stopped::Step(if residual.is_finite() {
            IntegrateError::InconsistentInitialData {
                residual,
                tolerance,
            }
        } else {
            driver.non_finite_constraint(residual)
        }));
    }
    if equations.multiplier().is_some()
        && let Err(residual) = driver.start_multiplier(q, p)
    {
        return Err(Stopped::Step(IntegrateError::InitialMultiplier {
            residual,
        }));
    }
    driver.check_initial(q, p).map_err(Stopped::Step)?;
    run_steps(&mut driver, q, p, options, observer)
}

/// A one-step method as the run loop ([`run_steps`]) sees it: the step from `(q_n, p_n)`, its
/// result, and what the statistics and the watch measure at a state.
pub(crate) trait OneStep {
    /// What [`OneStep::constraint`] measures, e.g. `|p − ϑ(q)|∞`.
    fn constraint_name(&self) -> &'static str;
    /// The constraint residual at `(q, p)`.
    fn constraint(&self, q: &[f64], p: &[f64]) -> f64;
    /// The energy at `(q, p)`, where the problem defines one.
    fn energy(&self, q: &[f64], p: &[f64]) -> Option<f64>;
    /// The carried multiplier `λ_n` after the last step, for methods that carry one.
    fn multiplier(&self) -> Option<&[f64]>;
    /// The Gauss–Newton iterations of the initial projection of a holonomic system's positions
    /// ([`Options::project_initial`]), `None` where none ran.
    fn initial_projection(&self) -> Option<usize> {
        None
    }
    /// One step from `(q, p)` at time `time` (step number `step`, for errors), its result in
    /// [`OneStep::state`].
    fn step(
        &mut self,
        q: &[f64],
        p: &[f64],
        step: usize,
        time: f64,
    ) -> Result<StepStats, IntegrateError>;
    /// `(q_{n+1}, p_{n+1})` of the last step.
    fn state(&self) -> (&[f64], &[f64]);
}

impl<E: StepEquations> OneStep for Driver<E> {
    fn constraint_name(&self) -> &'static str {
        self.equations.constraint_name()
    }
    fn constraint(&self, q: &[f64], p: &[f64]) -> f64 {
        self.equations.constraint(q, p)
    }
    fn energy(&self, q: &[f64], p: &[f64]) -> Option<f64> {
        self.equations.energy(q, p)
    }
    fn multiplier(&self) -> Option<&[f64]> {
        Driver::multiplier(self)
    }
    fn step(
        &mut self,
        q: &[f64],
        p: &[f64],
        step: usize,
        time: f64,
    ) -> Result<StepStats, IntegrateError> {
        Driver::step(self, q, p, step, time)
    }
    fn state(&self) -> (&[f64], &[f64]) {
        Driver::state(self)
    }
}

/// The one run loop: `options.steps` steps of `stepper` from the (checked) initial state
/// `(q, p)`, updated in place, handing every accepted state, the initial one first, to
/// `observer`, with the run's statistics (steps and Newton work, the largest constraint
/// residual and energy error over the points) and the constraint watch
/// ([`Options::watch_constraint`]); the statistics go to [`Observer::end`] however the run
/// ends.
pub(crate) fn run_steps<S, O>(
    stepper: &mut S,
    q: &mut [f64],
    p: &mut [f64],
    options: &Options,
    observer: &mut O,
) -> Result<RunStats, Stopped<IntegrateError, O::Error>>
where
    S: OneStep + ?Sized,
    O: Observer + ?Sized,
{
    let mut run = RunStats {
        constraint: stepper.constraint_name(),
        initial_projection_iterations: stepper.initial_projection(),
        ..RunStats::default()
    };
    let energy0 = stepper.energy(q, p);
    let mut stats = None;
    let mut watch = ConstraintWatch::default();
    let outcome = (|| {
        for n in 0..=options.steps {
            let t = n as f64 * options.h;
            let point = Point {
                step: n,
                t,
                q,
                p,
                lambda: stepper.multiplier().unwrap_or_default(),
                stats,
            };
            observer.observe(&point).map_err(Stopped::Observer)?;
            let residual = stepper.constraint(q, p);
            let energy = energy0
                .zip(stepper.energy(q, p))
                .map(|(e0, e)| (e - e0).abs());
            run.add(stats, residual, energy);
            let departure = match options.watch_constraint {
                Watch::Off => None,
                Watch::Stop | Watch::Warn => watch.observe(n, residual, amax(p)),
            };
            if let Some(departure) = departure {
                let departed = Departed {
                    step: n,
                    time: t,
                    residual,
                    relative: departure.relative,
                    growth: departure.growth,
                };
                if options.watch_constraint == Watch::Stop {
                    return Err(Stopped::Step(departed.error(stepper.constraint_name())));
                }
                run.departure.get_or_insert(departed);
            }
            if n == options.steps {
                break;
            }
            stats = Some(stepper.step(q, p, n + 1, t).map_err(Stopped::Step)?);
            let (q1, p1) = stepper.state();
            q.copy_from_slice(q1);
            p.copy_from_slice(p1);
        }
        Ok(())
    })();
    let ended = observer.end(&run).map_err(Stopped::Observer);
    outcome.and(ended).map(|()| run)
}

/// The solution of a run of `options.steps` steps that `run` hands to a [`Record`] of every
/// point; on failure, the solution up to the last accepted step with the error.
pub(crate) fn recorded<const D: usize>(
    options: &Options,
    run: impl FnOnce(&mut Record<D>) -> Result<RunStats, Stopped<IntegrateError, Infallible>>,
) -> Result<Solution<D>, Box<Failure<D>>> {
    Record::every_point(
        options.steps,
        |record| run(record).map(|_| ()),
        |solution, error| Box::new(Failure { solution, error }),
    )
}
