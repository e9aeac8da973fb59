//! Newton's method with the exact Jacobian: full Newton (a fresh Jacobian and factorisation every
//! iteration) or simplified Newton (one per solve, reused), see [`JacobianUpdate`]; the update
//! solves `J δ = r` by LU, or in the minimum-norm least-squares sense for Jacobians of known rank
//! deficiency, see [`LinearSolve`].
//!
//! Convergence is judged in each quantity's own scale, so that the same options reach the
//! round-off floor whatever the units of the problem. Each row `i` has the scale of the terms
//! it is made of, `s_i = Σ_j |∂r_i/∂x_j|·|x_j| + d_i`: the first-order size of the terms carried
//! by the unknowns plus that of the terms carried by the data ([`NonlinearSystem::data_scales`],
//! taken once per solve): the componentwise backward error of Oettli and Prager,
//! `|r| ≤ κ·(|J||x| + |b|)` for `J x = b`, with the data's sensitivities in place of `|b|`.
//! A solve has converged when
//! - every row is at round-off of its terms, `max_i |r_i|/s_i ≤ c·ε`, after an update that
//!   started at the floor, from an iterate with `max_i |r_i|/s_i ≤ 10³·c·ε` (or the initial
//!   guess is at `c·ε` already); or
//! - the update is at round-off of each unknown's scale, `|δx_j| ≤ c·ε·u_j`
//!   ([`NonlinearSystem::unknown_scales`]: for stage equations, the size of the same component
//!   of the same unknown block, a velocity, a momentum or a multiplier, over its stages); or
//! - `max_i |r_i|/s_i` stopped decreasing (it is not below `ρ` times its best in this solve,
//!   `ρ` the contraction) within `10³·c·ε`.
//!
//! A row at round-off certifies the backward error only. The error an update leaves in the
//! unknowns is its Newton remainder, quadratic (full Newton) or linear in the distance it
//! started from (simplified Newton), and rows whose terms are dominated by the data do not show
//! it: the stage equations' velocity columns scale with `h`, so a residual at `c·ε` of `|q_n|`
//! leaves velocity errors `1/h` times larger. After one update from the extrapolated guess that
//! remainder has the sign of the guess's error, step after step, and a run adds it up into a
//! linear energy drift; an update that starts at the floor leaves a remainder below round-off.
//! At the floor, too, the ratio of two residuals is round-off: simplified Newton never refreshes
//! its Jacobian there ([`JacobianUpdate::Simplified`]).
//!
//! With any `σ` of the residual as a whole in place of the rows' own scales, rows whose terms
//! are small beside the others' (momenta of 10⁻⁴ beside positions of 10⁴) would pass with
//! residuals far above their round-off. When `‖r‖₂` and `max_i |r_i|/s_i` both stop decreasing
//! near the floor `10³·τ_r` (`τ_r = c·ε·√N·max(1, σ)`, `σ` the system's scale), each row must
//! be at `|r_i| ≤ 10³·c·ε·√N·max(1, s_i)`; otherwise the solve fails with
//! [`NewtonError::AboveRoundOff`], naming the row. Far from the floor the iteration is stopped
//! as stagnating or diverging, or, with the minimum-norm solve, as inconsistent (see
//! [`NewtonError::Inconsistent`]).

use super::lu::{Lu, SingularMatrix};
use super::qr::{Qr, default_rank_tolerance};
use super::reduced::ReducedLu;
use super::space::{Buffer, Space};
use crate::layout::Elimination;

/// A square nonlinear system `r(x) = 0` with `n` unknowns and its exact Jacobian, in the space
/// `S` (of `n` unknowns). Vectors are slices of `n` entries, the Jacobian an `n × n` row-major
/// slice; [`Newton`] calls the system with these sizes only.
pub trait NonlinearSystem<S: Space> {
    /// The space of the unknowns (for [`super::Fixed`]`<N>`, `Fixed`).
    fn space(&self) -> S;
    /// Writes the residual `r(x)`.
    fn residual(&self, x: &[f64], r: &mut [f64]);
    /// Writes the Jacobian `∂r/∂x`, row-major (row i: residual i, column j: unknown j; entry
    /// `(i, j)` at `i·n + j`).
    fn jacobian(&self, x: &[f64], j: &mut [f64]);
    /// The magnitude `σ` of the quantities in the residual (e.g. `max(|q_n|, |p_n|)`), which sets
    /// the absolute residual tolerance.
    fn scale(&self) -> f64;
    /// Writes `d_i`, the size of the terms of row `i` at `x` that the unknowns do not carry:
    /// `Σ_k |∂r_i/∂y_k|·|y_k|` over the data `y` the residual is formed from (for the stage
    /// equations, `q_n` and `p_n`). With `Σ_j |∂r_i/∂x_j|·|x_j|` it makes the row scale that
    /// the stopping rule holds `|r_i|` to (see the module documentation). The default, `σ` in
    /// every row, is no stricter than `τ_r`; a system whose rows have scales of their own
    /// should say so.
    fn data_scales(&self, _x: &[f64], d: &mut [f64]) {
        d.fill(self.scale());
    }
    /// Writes `u_j`, the scale of unknown `j` that its update is measured against: Newton's
    /// update test is `|δx_j| ≤ c·ε·u_j`. The default, `max(1, ‖x‖_∞)` for every unknown, is an
    /// absolute floor of 1; a system whose unknowns come in blocks of different physical
    /// dimensions should give each block its own scale (the stage equations do).
    fn unknown_scales(&self, x: &[f64], u: &mut [f64]) {
        u.fill(norm_inf(x).max(1.0));
    }
    /// The pivots of the Jacobian known before its entries ([`Elimination`]), which
    /// [`LinearSolve::StaticPivots`] takes first ([`ReducedLu`]); the default, none, factors
    /// the whole Jacobian with partial pivoting.
    fn elimination(&self) -> Option<Elimination<'_>> {
        None
    }
}

/// Tolerances and limits of Newton's method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonOptions {
    /// Iteration cap.
    pub max_iterations: usize,
    /// The factor `c` of both round-off tolerances (in units of ε). Every solve ends with an
    /// update taken at the round-off floor (see the module documentation), so a smaller `c`
    /// buys no accuracy that a long run would show, only iterations (BENCHMARKS.md, "Newton's
    /// stopping rule"; `runtime/tests/vprk_projection.rs`).
    pub tolerance_factor: f64,
    /// Contraction `ρ` below which an iteration counts as progress.
    pub contraction: f64,
    /// A residual growing beyond this multiple of the initial one is divergence.
    pub divergence_factor: f64,
    /// When the Jacobian is evaluated and factored (default: simplified Newton, measured in
    /// [`JacobianUpdate::Simplified`]).
    pub jacobian: JacobianUpdate,
    /// How the update is solved from the factored Jacobian (default: [`LinearSolve::BySize`]).
    pub linear: LinearSolve,
}

/// How Newton's method solves `J δ = r` for its update `x ← x − δ`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum LinearSolve {
    /// LU with partial pivoting ([`Lu`]): `J` must be nonsingular, a negligible pivot is
    /// [`NewtonError::Singular`].
    Lu,
    /// LU with the static pivots the system names taken first ([`NonlinearSystem::elimination`],
    /// [`ReducedLu`]), the rest with partial pivoting; [`LinearSolve::Lu`] for a system that
    /// names none. A static pivot needs no search and updates only the rows and columns where
    /// its row and column are nonzero, but every solve pays a permutation of `r` and `δ`: with
    /// about one factorisation per four or five solves (simplified Newton), the saving
    /// outweighs the permutation only on larger systems (BENCHMARKS.md, "Static pivots").
    StaticPivots,
    /// [`LinearSolve::StaticPivots`] on systems of at least [`STATIC_PIVOTS_FROM`] unknowns,
    /// [`LinearSolve::Lu`] on smaller ones. The default: the size where the static pivots start
    /// to pay was measured across the families that have them, on problems of 2 to 24
    /// coordinates (BENCHMARKS.md, "Static pivots by size").
    #[default]
    BySize,
    /// The minimum-norm least-squares update `δ = J_k⁺ r` from the complete orthogonal
    /// decomposition [`Qr`], `J_k` being `J` truncated at its numerical rank `k`. For systems whose
    /// Jacobian is singular everywhere with a solution set that is a manifold (a gauge freedom),
    /// the iteration converges to the nearby solution, moving only across the manifold
    /// (`δ ⟂ null(J_k)`). A residual that no update can reduce is
    /// [`NewtonError::Inconsistent`]; with [`JacobianUpdate::Simplified`], a reused factorisation
    /// whose range misses that much of the residual is first refreshed at the current iterate.
    MinimumNorm {
        /// The relative rank tolerance of [`Qr::refactor`]; `None` is
        /// [`default_rank_tolerance`] (`10·n·ε`).
        rank_tolerance: Option<f64>,
    },
}

/// When Newton's method evaluates and factors the Jacobian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum JacobianUpdate {
    /// Full Newton: `J(x_k)` evaluated and factored at every iteration (quadratic convergence).
    EveryIteration,
    /// Simplified Newton: `J(x_0)` evaluated and factored once per solve, at the initial guess,
    /// and reused while it contracts (linear convergence, rate `O(‖x_0 − x*‖)`); an iteration
    /// that reduces `‖r‖₂` by less than the factor [`SIMPLIFIED_REFRESH`], away from the
    /// round-off floor (where that ratio is round-off, see the module documentation),
    /// re-evaluates and refactors `J` at the current iterate, so a poor initial guess falls back
    /// to full Newton.
    ///
    /// The default, because it reaches the same final residual in less time on the methods
    /// measured: more iterations, but one evaluation and factorisation of `J` per solve instead
    /// of one per iteration (BENCHMARKS.md, Tables 3 and 29). The refresh rule is what makes it
    /// safe as the default: without it, an iteration that contracts slowly (SLRK Lobatto
    /// IIIC–C̄(2) on Lotka–Volterra at h = 0.1) runs into the iteration cap where full Newton
    /// converges.
    #[default]
    Simplified,
}

/// The contraction `‖r_{k+1}‖ / ‖r_k‖` above which simplified Newton refreshes its Jacobian.
pub const SIMPLIFIED_REFRESH: f64 = 0.25;

/// The number of unknowns from which [`LinearSolve::BySize`] takes the system's static pivots.
pub const STATIC_PIVOTS_FROM: usize = 32;

impl LinearSolve {
    /// The solve taken on a system of `n` unknowns: [`LinearSolve::BySize`] resolved by `n`,
    /// any other as it is.
    pub fn for_unknowns(self, n: usize) -> LinearSolve {
        match self {
            LinearSolve::BySize if n >= STATIC_PIVOTS_FROM => LinearSolve::StaticPivots,
            LinearSolve::BySize => LinearSolve::Lu,
            other => other,
        }
    }
}

impl Default for NewtonOptions {
    /// 30 iterations, c = 2, ρ = 0.9, divergence at 10⁶ × the initial residual, simplified
    /// Newton, LU with static pivots by size ([`LinearSolve::BySize`]).
    ///
    /// c = 2 because constraint rows (e.g. SLRK's `φ(q_{n+1}, p_{n+1}) = 0`) hold only to the
    /// residual tolerance: with c = 16, `|φ|` reaches 7e−14 on Lotka–Volterra; with c = 2 it
    /// stays below 1e−14. A residual that stalls at the round-off floor (within 10³·τ_r) is
    /// still accepted.
    fn default() -> Self {
        NewtonOptions {
            max_iterations: 30,
            tolerance_factor: 2.0,
            contraction: 0.9,
            divergence_factor: 1e6,
            jacobian: JacobianUpdate::default(),
            linear: LinearSolve::default(),
        }
    }
}

/// How a converged solve went.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct NewtonReport {
    /// Newton iterations (updates; with [`JacobianUpdate::EveryIteration`] each one also a
    /// Jacobian factorisation).
    pub iterations: usize,
    /// `‖r‖₂` at the solution.
    pub residual: f64,
    /// Jacobian factorisations (1 for a simplified-Newton solve that kept its Jacobian, more
    /// where it was refreshed; 0 when the initial guess needed none).
    pub factorisations: usize,
    /// `‖δx‖_∞` of the last update.
    pub update: f64,
    /// Smallest pivot of the last factorisation: `min_k |u_kk|` of LU, the smallest retained
    /// `|r_jj|` of the pivoted QR (0 when the initial guess needed no factorisation).
    pub min_pivot: f64,
    /// Numerical rank of the last factorisation: `n` for LU, `k` for the minimum-norm solve (0
    /// when the initial guess needed no factorisation).
    pub rank: usize,
}

/// Why Newton's method stopped without a solution.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NewtonError {
    /// The system, or the initial guess, has another number of unknowns than the solver.
    #[error(
        "a Newton solver on {solver} unknowns was given a system on {system} unknowns and an initial guess of {unknowns}"
    )]
    Size {
        /// The solver's unknowns.
        solver: usize,
        /// The system's unknowns.
        system: usize,
        /// The entries of the initial guess.
        unknowns: usize,
    },
    /// The Jacobian is singular.
    #[error("singular Jacobian at Newton iteration {iteration}: {source}")]
    Singular {
        /// The iteration (from 0).
        iteration: usize,
        /// Column and pivot.
        source: SingularMatrix,
    },
    /// The residual or the update stopped being finite (with the minimum-norm solve, also a
    /// non-finite Jacobian).
    #[error("non-finite residual, update or Jacobian at Newton iteration {iteration}")]
    NonFinite {
        /// The iteration.
        iteration: usize,
    },
    /// The residual grew by more than the divergence factor.
    #[error(
        "Newton diverged: residual {residual:e} after {iterations} iterations (history {history:?})"
    )]
    Diverged {
        /// Iterations done.
        iterations: usize,
        /// Last residual norm.
        residual: f64,
        /// `‖r_k‖₂` for k = 0, 1, ….
        history: Vec<f64>,
    },
    /// No convergence within the cap, or stagnation far from round-off.
    #[error(
        "Newton not converged: residual {residual:e} after {iterations} iterations (tolerance {tolerance:e}, history {history:?})"
    )]
    NotConverged {
        /// Iterations done.
        iterations: usize,
        /// Last residual norm.
        residual: f64,
        /// The residual tolerance.
        tolerance: f64,
        /// `‖r_k‖₂` for k = 0, 1, ….
        history: Vec<f64>,
    },
    /// The residual passed `τ_r` (or the update its tolerance) but one row stayed above the
    /// round-off floor of its own terms, `10³·c·ε·√N·max(1, s_i)`, and the residual stopped
    /// decreasing: the unknowns cannot be made to satisfy that row to the precision its terms
    /// carry (e.g. a Jacobian that lost the row's information to round-off in larger terms).
    #[error(
        "Newton stopped after {iterations} iterations with equation {row} at residual {residual:e}, above the round-off {tolerance:e} of its terms (of size {scale:e}); the residual no longer decreases"
    )]
    AboveRoundOff {
        /// Iterations done.
        iterations: usize,
        /// The row (from 1).
        row: usize,
        /// `|r_i|`.
        residual: f64,
        /// The row scale `s_i`.
        scale: f64,
        /// The row's floor `10³·c·ε·√N·max(1, s_i)`.
        tolerance: f64,
    },
    /// The minimum-norm solve found the residual unreachable: at a Jacobian evaluated at the
    /// current iterate, the part `r_⊥` of `r` outside `range(J_k)` exceeds both the round-off
    /// floor `10³·τ_r` and `ρ·‖r‖₂`. Since `min_δ ‖r − J_k δ‖₂ = ‖r_⊥‖₂`, no update reduces the
    /// residual by the contraction `ρ` that counts as progress, even to first order. Near a
    /// solution of a consistent system of constant rank, `‖r_⊥‖ = O(‖r‖²)`; near a least-squares
    /// point of an inconsistent one (`J_kᵀ r = 0`, `r ≠ 0`), `‖r_⊥‖ → ‖r‖`. The verdict is
    /// local: the iteration stands at a point where `‖r‖` is (nearly) stationary.
    #[error(
        "inconsistent system at Newton iteration {iteration}: {unreachable:e} of the residual {residual:e} lies outside the range of the rank-{rank} Jacobian"
    )]
    Inconsistent {
        /// The iteration (from 0).
        iteration: usize,
        /// The numerical rank `k` of the Jacobian.
        rank: usize,
        /// `‖r‖₂`.
        residual: f64,
        /// `‖r_⊥‖₂`, the part of the residual outside `range(J_k)`.
        unreachable: f64,
    },
}

/// A residual within this multiple of `τ_r` is at the round-off floor: accepted when it stalls,
/// never judged inconsistent.
const ROUND_OFF_FLOOR: f64 = 1e3;

/// A factored Jacobian that Newton's method takes its updates from.
trait Factorisation {
    /// Overwrites `r` with the update `δ` solving `J δ = r` (exactly for LU, in the minimum-norm
    /// least-squares sense for QR) and returns `‖r_⊥‖₂`, the norm of the part of `r` outside
    /// `range(J)` (0 for LU).
    fn update(&mut self, r: &mut [f64]) -> f64;
    /// The numerical rank.
    fn rank(&self) -> usize;
    /// The smallest pivot.
    fn min_pivot(&self) -> f64;
}

impl<S: Space> Factorisation for Lu<S> {
    fn update(&mut self, r: &mut [f64]) -> f64 {
        self.solve_in_place(r);
        0.0
    }
    fn rank(&self) -> usize {
        self.space().dim()
    }
    fn min_pivot(&self) -> f64 {
        Lu::min_pivot(self)
    }
}

impl Factorisation for ReducedLu {
    fn update(&mut self, r: &mut [f64]) -> f64 {
        self.solve_in_place(r);
        0.0
    }
    fn rank(&self) -> usize {
        self.dim()
    }
    fn min_pivot(&self) -> f64 {
        ReducedLu::min_pivot(self)
    }
}

impl<S: Space> Factorisation for Qr<S> {
    fn update(&mut self, r: &mut [f64]) -> f64 {
        self.solve_min_norm_in_place(r).unreachable
    }
    fn rank(&self) -> usize {
        Qr::rank(self)
    }
    fn min_pivot(&self) -> f64 {
        Qr::min_pivot(self)
    }
}

/// The factorisation storage of [`Newton`]: that of [`NewtonOptions::linear`].
#[derive(Clone, Debug)]
enum Factors<S: Space> {
    Lu(Lu<S>),
    Reduced(Box<ReducedLu>),
    Qr(Qr<S>),
}

impl<S: Space> Factors<S> {
    fn new(space: S, linear: LinearSolve) -> Self {
        match linear {
            LinearSolve::Lu | LinearSolve::StaticPivots | LinearSolve::BySize => {
                Factors::Lu(Lu::new(space))
            }
            LinearSolve::MinimumNorm { .. } => Factors::Qr(Qr::new(space)),
        }
    }

    /// The storage for `linear` on a system with the static pivots `elimination`, if the
    /// storage held is not (`None` where it is).
    fn replacement(
        &self,
        space: S,
        linear: LinearSolve,
        elimination: Option<Elimination<'_>>,
    ) -> Option<Self> {
        let linear = linear.for_unknowns(space.dim());
        let pivots = elimination.filter(|_| linear == LinearSolve::StaticPivots);
        match (self, linear, pivots) {
            (Factors::Reduced(lu), LinearSolve::StaticPivots, Some(e))
                if e.scalar_pivots().eq(lu.pivots().iter().copied()) =>
            {
                None
            }
            (_, LinearSolve::StaticPivots, Some(e)) => {
                // Pivots that do not fit the system (a defect of its description) leave the
                // Jacobian to the dense LU.
                let reduced = super::Dynamic::new(space.dim())
                    .and_then(|d| ReducedLu::new(d, e.scalar_pivots()).ok())
                    .map(Box::new);
                Some(reduced.map_or_else(|| Factors::Lu(Lu::new(space)), Factors::Reduced))
            }
            (Factors::Lu(_), LinearSolve::Lu | LinearSolve::StaticPivots, None)
            | (Factors::Qr(_), LinearSolve::MinimumNorm { .. }, _) => None,
            _ => Some(Factors::new(space, linear)),
        }
    }
}

/// The work vectors and matrices of [`Newton`].
#[derive(Clone, Debug)]
struct Work<S: Space> {
    space: S,
    residual: S::Vector,
    jacobian: S::Matrix,
    /// The update `δ`.
    step: S::Vector,
    /// `Σ_j |J_ij|·|x_j|`, then the data scales `d_i`.
    carried: S::Vector,
    data: S::Vector,
    /// The unknowns' scales `u_j`.
    scales: S::Vector,
    /// The data scales `d_i` at the first iterate of this solve that was judged by its rows.
    row_data: S::Vector,
    /// Whether `row_data` belongs to this solve.
    row_data_known: bool,
    history: [f64; 64],
}

/// Newton's method on the `n` unknowns of the space `S`: [`super::Fixed`]`<N>` keeps its work
/// arrays inline, [`super::Dynamic`] allocates them once in [`Newton::new_in`]; either way a
/// solve allocates nothing on its success path.
#[derive(Clone, Debug)]
pub struct Newton<S: Space> {
    /// Options. A changed [`NewtonOptions::linear`] takes new factorisation storage at the next
    /// solve (for [`super::Dynamic`], one allocation), as does the first solve of a system with
    /// other static pivots ([`NonlinearSystem::elimination`], the allocations of
    /// [`ReducedLu::new`]).
    pub options: NewtonOptions,
    work: Work<S>,
    factors: Factors<S>,
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn norm_inf(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// The residual tolerance `τ_r = c·ε·√n·max(1, σ)` for `n` unknowns and a system of scale `σ`.
fn residual_tolerance(options: &NewtonOptions, n: usize, scale: f64) -> f64 {
    options.tolerance_factor * f64::EPSILON * (n as f64).sqrt() * scale.max(1.0)
}

impl<S: Space> Newton<S> {
    /// After a solve failed with [`NewtonError::Singular`] at `column` under
    /// [`LinearSolve::Lu`]: writes into `x` the direction the stage Jacobian leaves undetermined
    /// ([`Lu::null_direction`]) and returns `true`; `false` (and `x` untouched) otherwise.
    pub fn null_direction(&mut self, column: usize, x: &mut [f64]) -> bool {
        match &mut self.factors {
            Factors::Lu(lu) if column < x.len() => {
                lu.null_direction(column, x);
                true
            }
            Factors::Reduced(lu) if column < x.len() && x.len() == lu.dim() => {
                lu.null_direction(column, x)
            }
            _ => false,
        }
    }
}

impl<const N: usize> Newton<super::Fixed<N>> {
    /// A solver on `N` unknowns with the given options.
    pub fn new(options: NewtonOptions) -> Self {
        Newton::new_in(super::Fixed, options)
    }
}

impl<S: Space> Newton<S> {
    /// A solver on the unknowns of `space` with the given options: all its storage.
    pub fn new_in(space: S, options: NewtonOptions) -> Self {
        Newton {
            options,
            work: Work {
                space,
                residual: space.vector(),
                jacobian: space.matrix(),
                step: space.vector(),
                carried: space.vector(),
                data: space.vector(),
                scales: space.vector(),
                row_data: space.vector(),
                row_data_known: false,
                history: [0.0; 64],
            },
            factors: Factors::new(space, options.linear),
        }
    }

    /// The space of the unknowns.
    pub fn space(&self) -> S {
        self.work.space
    }

    /// The residual tolerance `τ_r` for a system of scale `σ`.
    pub fn residual_tolerance(&self, scale: f64) -> f64 {
        residual_tolerance(&self.options, self.work.space.dim(), scale)
    }

    /// Solves `r(x) = 0` starting from `x`, which holds the solution on success. A system or an
    /// `x` of another size than the solver's is [`NewtonError::Size`].
    pub fn solve<Sys: NonlinearSystem<S>>(
        &mut self,
        system: &Sys,
        x: &mut [f64],
    ) -> Result<NewtonReport, NewtonError> {
        let n = self.work.space.dim();
        if system.space() != self.work.space || x.len() != n {
            return Err(NewtonError::Size {
                solver: n,
                system: system.space().dim(),
                unknowns: x.len(),
            });
        }
        let options = self.options;
        if let Some(factors) =
            self.factors
                .replacement(self.work.space, options.linear, system.elimination())
        {
            self.factors = factors;
        }
        let singular = |iteration| move |source| NewtonError::Singular { iteration, source };
        match &mut self.factors {
            Factors::Qr(qr) => {
                let tolerance = match options.linear {
                    LinearSolve::MinimumNorm { rank_tolerance } => rank_tolerance,
                    LinearSolve::Lu | LinearSolve::StaticPivots | LinearSolve::BySize => None,
                };
                let tolerance = tolerance.unwrap_or(default_rank_tolerance(n));
                self.work
                    .iterate(&options, system, x, qr, |qr, jacobian, iteration| {
                        qr.refactor(jacobian, tolerance)
                            .map_err(|_| NewtonError::NonFinite { iteration })
                    })
            }
            Factors::Reduced(lu) => {
                self.work
                    .iterate(&options, system, x, &mut **lu, |lu, jacobian, iteration| {
                        lu.refactor(jacobian).map_err(singular(iteration))
                    })
            }
            Factors::Lu(lu) => {
                self.work
                    .iterate(&options, system, x, lu, |lu, jacobian, iteration| {
                        lu.refactor(jacobian).map_err(singular(iteration))
                    })
            }
        }
    }
}

impl<S: Space> Work<S> {
    fn history(&self, k: usize) -> Vec<f64> {
        self.history[..k.min(self.history.len())].to_vec()
    }

    /// The first row of the current residual above the round-off floor of its own scale
    /// `s_i = Σ_j |J_ij|·|x_j| + d_i` (see the module documentation), with `J` the Jacobian
    /// last evaluated in this solve: `(row, |r_i|, s_i, floor)`. The data scales `d` are asked
    /// of the system only when the unknowns' terms alone leave a row above its floor.
    fn row_above_round_off<Sys: NonlinearSystem<S>>(
        &mut self,
        options: &NewtonOptions,
        system: &Sys,
        x: &[f64],
    ) -> Option<(usize, f64, f64, f64)> {
        let n = self.space.dim();
        self.carry(x);
        let carried = self.carried.entries();
        let residual = self.residual.entries();
        let floor = |scale: f64| ROUND_OFF_FLOOR * residual_tolerance(options, n, scale);
        let within = |i: usize, scale: f64| residual[i].abs() <= floor(scale);
        // Not `>`: a NaN scale is no evidence of round-off.
        let above = |i: usize, scale: f64| !within(i, scale);
        if (0..n).all(|i| within(i, carried[i])) {
            return None;
        }
        let data = self.data.entries_mut();
        system.data_scales(x, data);
        (0..n)
            .map(|i| (i, carried[i] + data[i]))
            .find(|&(i, scale)| above(i, scale))
            .map(|(i, scale)| (i, residual[i].abs(), scale, floor(scale)))
    }

    /// Writes `Σ_j |J_ij|·|x_j|` into `carried`, with `J` the Jacobian last evaluated. Four rows
    /// are summed side by side, each in the order of its columns: the sums of a row-by-row
    /// loop, bit for bit, without each addition waiting for the previous one.
    fn carry(&mut self, x: &[f64]) {
        let n = self.space.dim();
        let x = &x[..n];
        let carried = self.carried.entries_mut();
        let width = n.max(1);
        let blocks = self.jacobian.entries().chunks_exact(4 * width);
        let rest = blocks.remainder();
        let (four, single) = carried.split_at_mut(carried.len() - rest.len() / width);
        for (rows, out) in blocks.zip(four.chunks_exact_mut(4)) {
            let (r0, rows) = rows.split_at(n);
            let (r1, rows) = rows.split_at(n);
            let (r2, r3) = rows.split_at(n);
            let mut sums = [0.0; 4];
            for ((((xj, a), b), c), d) in x.iter().zip(r0).zip(r1).zip(r2).zip(r3) {
                sums[0] += (a * xj).abs();
                sums[1] += (b * xj).abs();
                sums[2] += (c * xj).abs();
                sums[3] += (d * xj).abs();
            }
            out.copy_from_slice(&sums);
        }
        for (ci, row) in single.iter_mut().zip(rest.chunks_exact(width)) {
            *ci = row.iter().zip(x).map(|(j, xj)| (j * xj).abs()).sum();
        }
    }

    /// The largest residual row relative to the terms it is made of,
    /// `max_i |r_i| / (Σ_j |J_ij|·|x_j| + d_i)`, the data scales `d_i` taken once per solve
    /// (they vary with the iterate only at second order). A row without terms counts only if
    /// its residual is not zero.
    fn relative_residual<Sys: NonlinearSystem<S>>(&mut self, system: &Sys, x: &[f64]) -> f64 {
        if !self.row_data_known {
            system.data_scales(x, self.row_data.entries_mut());
            self.row_data_known = true;
        }
        self.carry(x);
        let scales = self.carried.entries().iter().zip(self.row_data.entries());
        self.residual
            .entries()
            .iter()
            .zip(scales)
            .map(|(r, (c, d))| if *r == 0.0 { 0.0 } else { r.abs() / (c + d) })
            .fold(0.0, |m, v| if v > m || v.is_nan() { v } else { m })
    }

    /// Whether the update `δ` (in `step`) is at round-off relative to the unknowns' scales,
    /// `|δ_j| ≤ c·ε·u_j`.
    fn update_converged<Sys: NonlinearSystem<S>>(
        &mut self,
        options: &NewtonOptions,
        system: &Sys,
        x: &[f64],
    ) -> bool {
        let scales = self.scales.entries_mut();
        system.unknown_scales(x, scales);
        let relative = options.tolerance_factor * f64::EPSILON;
        self.step
            .entries()
            .iter()
            .zip(scales.iter())
            .all(|(d, u)| d.abs() <= relative * u)
    }

    /// The iteration of [`Newton::solve`] with the factorisation `factor(f, J, iteration)`,
    /// which overwrites `f` with that of `J`.
    fn iterate<Sys: NonlinearSystem<S>, F: Factorisation>(
        &mut self,
        opts: &NewtonOptions,
        system: &Sys,
        x: &mut [f64],
        f: &mut F,
        factor: impl Fn(&mut F, &[f64], usize) -> Result<(), NewtonError>,
    ) -> Result<NewtonReport, NewtonError> {
        let tol = residual_tolerance(opts, self.space.dim(), system.scale());
        self.row_data_known = false;
        system.residual(x, self.residual.entries_mut());
        let mut res = norm2(self.residual.entries());
        let initial = res;
        self.history[0] = res;
        let mut report = NewtonReport {
            residual: res,
            ..NewtonReport::default()
        };
        if !res.is_finite() {
            return Err(NewtonError::NonFinite { iteration: 0 });
        }
        if res == 0.0 {
            return Ok(report);
        }
        // `c·ε`: the round-off of a row relative to its terms.
        let unit = opts.tolerance_factor * f64::EPSILON;
        // `J(x₀)`, which the first iteration factors. `self.jacobian` holds `J(x)` at the
        // current iterate while `evaluated`.
        system.jacobian(x, self.jacobian.entries_mut());
        let mut evaluated = true;
        // `max_i |r_i|/s_i` at the iterate the next update starts from.
        let mut start_relative = self.relative_residual(system, x);
        if res <= tol && start_relative <= unit {
            return Ok(report);
        }
        // The smallest `max_i |r_i|/s_i` of this solve so far.
        let mut best_relative = f64::INFINITY;
        // Whether `f` holds a factorisation from this solve.
        let mut factored = false;
        let mut refresh = true;
        let mut factorisations = 0;
        for it in 0..opts.max_iterations {
            // The unreachable part of r that rules out progress (never reached with LU).
            let unreachable_limit = (ROUND_OFF_FLOOR * tol).max(opts.contraction * res);
            let dx = self.step.entries_mut();
            dx.copy_from_slice(self.residual.entries());
            // A reused Jacobian whose range misses the residual is refreshed before judging.
            let stale = !factored || refresh || f.update(dx) > unreachable_limit;
            if stale {
                if !evaluated {
                    system.jacobian(x, self.jacobian.entries_mut());
                }
                factor(f, self.jacobian.entries(), it)?;
                factored = true;
                factorisations += 1;
                dx.copy_from_slice(self.residual.entries());
                let unreachable = f.update(dx);
                if unreachable > unreachable_limit {
                    return Err(NewtonError::Inconsistent {
                        iteration: it,
                        rank: f.rank(),
                        residual: res,
                        unreachable,
                    });
                }
            }
            for (xi, d) in x.iter_mut().zip(dx.iter()) {
                *xi -= d;
            }
            evaluated = false;
            let update = norm_inf(dx);
            system.residual(x, self.residual.entries_mut());
            let previous = res;
            res = norm2(self.residual.entries());
            if it + 1 < self.history.len() {
                self.history[it + 1] = res;
            }
            report = NewtonReport {
                iterations: it + 1,
                residual: res,
                factorisations,
                update,
                min_pivot: f.min_pivot(),
                rank: f.rank(),
            };
            if !res.is_finite() || !update.is_finite() {
                return Err(NewtonError::NonFinite { iteration: it + 1 });
            }
            let stalled = res > opts.contraction * previous;
            let relative = self.relative_residual(system, x);
            let at_floor = relative <= ROUND_OFF_FLOOR * unit;
            // At the floor the ratio of two residuals is round-off, no sign of a stale Jacobian.
            refresh = opts.jacobian == JacobianUpdate::EveryIteration
                || (res > SIMPLIFIED_REFRESH * previous && !at_floor);
            // Whether this update started at the floor, so that what it leaves of the error in
            // the unknowns is below round-off too (see the module documentation).
            let from_floor = start_relative <= ROUND_OFF_FLOOR * unit;
            start_relative = relative;
            // No progress on the best so far: at the floor, the rows' round-off makes the ratio
            // wander. A row without terms (an infinite ratio) makes none either, nor a NaN.
            let rows_stalled = relative.partial_cmp(&(opts.contraction * best_relative))
                != Some(std::cmp::Ordering::Less);
            best_relative = best_relative.min(relative);
            let converged = (relative <= unit && from_floor)
                || self.update_converged(opts, system, x)
                || (rows_stalled && relative <= ROUND_OFF_FLOOR * unit);
            // Stalled both in ‖r‖₂ near its floor and row by row: no further progress.
            let stuck = stalled && rows_stalled && res <= ROUND_OFF_FLOOR * tol;
            if converged || stuck {
                match self.row_above_round_off(opts, system, x) {
                    None => return Ok(report),
                    Some((row, residual, scale, tolerance)) if stalled => {
                        return Err(NewtonError::AboveRoundOff {
                            iterations: it + 1,
                            row: row + 1,
                            residual,
                            scale,
                            tolerance,
                        });
                    }
                    Some(_) => {}
                }
            }
            if res > opts.divergence_factor * initial.max(tol) {
                return Err(NewtonError::Diverged {
                    iterations: it + 1,
                    residual: res,
                    history: self.history(it + 2),
                });
            }
        }
        Err(NewtonError::NotConverged {
            iterations: opts.max_iterations,
            residual: res,
            tolerance: tol,
            history: self.history(opts.max_iterations + 1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::testing::{
        Max, SAMPLES, completed_basis, dynamic, for_sizes, run_cases, scaled_samples,
        scaled_system, take, to_matrix, to_vector, worst_case,
    };
    use crate::solve::{Dynamic, Fixed};
    use nalgebra::{DMatrix, DVector};
    use proptest::prelude::*;

    /// A system of `N` unknowns seen in the run-time space of `N` unknowns.
    struct OnDynamic<'a, Sys, const N: usize>(&'a Sys);

    impl<const N: usize, Sys: NonlinearSystem<Fixed<N>>> NonlinearSystem<Dynamic>
        for OnDynamic<'_, Sys, N>
    {
        fn space(&self) -> Dynamic {
            dynamic(N)
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            self.0.residual(x, r);
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            self.0.jacobian(x, j);
        }
        fn scale(&self) -> f64 {
            self.0.scale()
        }
        fn data_scales(&self, x: &[f64], d: &mut [f64]) {
            self.0.data_scales(x, d);
        }
    }

    /// Solves `system` from `x` with `newton` (fixed size), and its `copy` with a run-time sized
    /// solver of the same options from the same `x`: both must give the same result to the last bit
    /// (iterate, report or error). Returns the fixed-size one.
    fn solve_both<const N: usize, Sys: NonlinearSystem<Fixed<N>>>(
        newton: &mut Newton<Fixed<N>>,
        [system, copy]: [&Sys; 2],
        x: &mut [f64; N],
    ) -> Result<NewtonReport, NewtonError> {
        let mut y = *x;
        let fixed = newton.solve(system, x);
        let run_time =
            Newton::new_in(dynamic(N), newton.options).solve(&OnDynamic::<_, N>(copy), &mut y);
        assert_eq!(x.map(f64::to_bits), y.map(f64::to_bits), "{x:?} vs {y:?}");
        let bits = |r: &Result<NewtonReport, NewtonError>| format!("{r:?}");
        assert_eq!(bits(&fixed), bits(&run_time));
        fixed
    }

    /// The carried row scales `Σ_j |J_ij|·|x_j|` of a random Jacobian and iterate (entries
    /// uniform in [−1, 1), the Jacobian's times 10^e) against a row-by-row sum in column order:
    /// equal to the last bit. Returns the largest scale.
    fn carried_scales<S: Space>(
        space: S,
        samples: &[f64],
        exponent: i32,
    ) -> Result<[f64; 1], TestCaseError> {
        let n = space.dim();
        let (a, x) = scaled_system(n, samples, exponent);
        let mut work = Newton::new_in(space, NewtonOptions::default()).work;
        work.jacobian = to_matrix(space, &a);
        work.carry(x.as_slice());
        for (i, carried) in work.carried.entries().iter().enumerate() {
            let row: f64 = (0..n).map(|j| (a[(i, j)] * x[j]).abs()).sum();
            prop_assert_eq!(carried.to_bits(), row.to_bits(), "n = {}, row {}", n, i);
        }
        Ok([work.carried.entries().iter().copied().fold(0.0, f64::max)])
    }

    #[test]
    fn carried_row_scales_are_the_row_sums_in_both_spaces() {
        let [largest] = worst_case(scaled_samples(), |(samples, exponent)| {
            Ok(for_sizes!(carried_scales(&samples, exponent)))
        });
        assert!(largest > 0.0 && largest.is_finite(), "{largest}");
    }

    /// x² − 2 = 0, y − x = 0 (solution √2, √2), residual scale 2.
    struct Sqrt2;

    impl NonlinearSystem<Fixed<2>> for Sqrt2 {
        fn space(&self) -> Fixed<2> {
            Fixed
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            r[0] = x[0] * x[0] - 2.0;
            r[1] = x[1] - x[0];
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            j.copy_from_slice(&[2.0 * x[0], 0.0, -1.0, 1.0]);
        }
        fn scale(&self) -> f64 {
            2.0
        }
    }

    #[test]
    fn converges_quadratically_to_round_off() {
        let mut newton = Newton::<Fixed<2>>::new(NewtonOptions {
            jacobian: JacobianUpdate::EveryIteration,
            ..NewtonOptions::default()
        });
        let mut x = [1.0, 0.0];
        let report = solve_both(&mut newton, [&Sqrt2; 2], &mut x).unwrap();
        assert!((x[0] - 2f64.sqrt()).abs() <= 2.0 * f64::EPSILON);
        assert!((x[1] - 2f64.sqrt()).abs() <= 2.0 * f64::EPSILON);
        assert!(report.iterations <= 6, "{report:?}");
    }

    /// From `x₀ = √2 + 10⁻⁹` one full-Newton update leaves an error of order 10⁻¹⁸, below what
    /// the rows resolve, so the residual is at round-off already; the update started off the
    /// floor, though, and the solve takes one more. From `√2·(1 + 10⁻¹⁴)`, within `10³·c·ε` of
    /// the rows' round-off, one update ends it.
    #[test]
    fn a_solve_ends_with_an_update_taken_at_the_floor() {
        let mut newton = Newton::<Fixed<2>>::new(NewtonOptions {
            jacobian: JacobianUpdate::EveryIteration,
            ..NewtonOptions::default()
        });
        let root = 2f64.sqrt();
        for (guess, iterations) in [(root + 1e-9, 2), (root * (1.0 + 1e-14), 1)] {
            let mut x = [guess, guess];
            let report = solve_both(&mut newton, [&Sqrt2; 2], &mut x).unwrap();
            assert_eq!(report.iterations, iterations, "from {guess}: {report:?}");
            assert!((x[0] - root).abs() <= 2.0 * f64::EPSILON, "{x:?}");
        }
    }

    #[test]
    fn a_system_or_guess_of_another_size_is_refused() {
        let mut newton = Newton::new_in(dynamic(3), NewtonOptions::default());
        let mut x = [1.0, 0.0];
        let err = newton
            .solve(&OnDynamic::<_, 2>(&Sqrt2), &mut x)
            .unwrap_err();
        let size = |solver, system, unknowns| NewtonError::Size {
            solver,
            system,
            unknowns,
        };
        assert_eq!(err, size(3, 2, 2));
        assert!(err.to_string().contains("3 unknowns"), "{err}");
        let mut long = [1.0, 0.0, 0.0];
        let err = Newton::<Fixed<2>>::new(NewtonOptions::default())
            .solve(&Sqrt2, &mut long)
            .unwrap_err();
        assert_eq!(err, size(2, 2, 3));
        assert_eq!(long, [1.0, 0.0, 0.0]);
    }

    /// [`Sqrt2`] counting its Jacobian evaluations.
    struct CountingSqrt2(std::cell::Cell<usize>);

    impl NonlinearSystem<Fixed<2>> for CountingSqrt2 {
        fn space(&self) -> Fixed<2> {
            Fixed
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            Sqrt2.residual(x, r);
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            self.0.set(self.0.get() + 1);
            Sqrt2.jacobian(x, j);
        }
        fn scale(&self) -> f64 {
            Sqrt2.scale()
        }
    }

    #[test]
    fn simplified_newton_factors_once_and_reaches_round_off() {
        let solve = |jacobian| {
            let mut newton = Newton::<Fixed<2>>::new(NewtonOptions {
                jacobian,
                ..NewtonOptions::default()
            });
            let system = CountingSqrt2(std::cell::Cell::new(0));
            let copy = CountingSqrt2(std::cell::Cell::new(0));
            let mut x = [1.4, 1.4];
            let report = solve_both(&mut newton, [&system, &copy], &mut x).unwrap();
            assert_eq!(system.0.get(), copy.0.get());
            (x, report, system.0.get())
        };
        let (x_full, full, full_jacobians) = solve(JacobianUpdate::EveryIteration);
        let (x, simplified, jacobians) = solve(JacobianUpdate::Simplified);
        assert_eq!(jacobians, 1, "{simplified:?}");
        assert_eq!(full_jacobians, full.iterations);
        // Linear convergence from an initial guess 0.014 away: more iterations than full Newton.
        assert!(
            simplified.iterations > full.iterations,
            "{simplified:?} vs {full:?}"
        );
        for (a, b) in x.iter().zip(x_full) {
            assert!((a - b).abs() <= 2.0 * f64::EPSILON, "{a} vs {b}");
        }
    }

    /// From x₀ = 100 the frozen slope 2x₀ = 200 against ≈ 2.8 at the root would contract by
    /// ≈ 0.986 per iteration (hundreds of iterations); the refresh rule restores convergence.
    #[test]
    fn simplified_newton_refreshes_a_poor_jacobian() {
        let mut newton = Newton::<Fixed<2>>::new(NewtonOptions {
            jacobian: JacobianUpdate::Simplified,
            ..NewtonOptions::default()
        });
        let system = CountingSqrt2(std::cell::Cell::new(0));
        let copy = CountingSqrt2(std::cell::Cell::new(0));
        let mut x = [100.0, 0.0];
        let report = solve_both(&mut newton, [&system, &copy], &mut x).unwrap();
        assert_eq!(system.0.get(), copy.0.get());
        assert!(
            (x[0] - 2f64.sqrt()).abs() <= 2.0 * f64::EPSILON,
            "{report:?}"
        );
        assert!(system.0.get() > 1, "{report:?}");
        assert!(report.iterations < 30, "{report:?}");
    }

    /// `r = (x₁ − a, g(x₂))` with `a = 10²⁰`: the system's scale `σ = a` is the first row's,
    /// the second row's terms are of order 1 (`d = (a, 2)`).
    struct Huge<G>(G);

    const HUGE: f64 = 1e20;

    impl<G: Fn(f64) -> (f64, f64)> NonlinearSystem<Fixed<2>> for Huge<G> {
        fn space(&self) -> Fixed<2> {
            Fixed
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            r.copy_from_slice(&[x[0] - HUGE, self.0(x[1]).0]);
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            j.copy_from_slice(&[1.0, 0.0, 0.0, self.0(x[1]).1]);
        }
        fn scale(&self) -> f64 {
            HUGE
        }
        fn data_scales(&self, _: &[f64], d: &mut [f64]) {
            d.copy_from_slice(&[HUGE, 2.0]);
        }
    }

    /// `x₂³ + x₂ − 2` (root 1) at `x₂ = 0.999`: a residual of 4e−3 is far below `τ_r ≈ 6e4`,
    /// and `τ_r` alone accepted the initial guess; row 2 is held to the round-off floor of its
    /// own scale `s₂ = |∂r₂/∂x₂|·|x₂| + d₂ ≈ 4 + 2`.
    #[test]
    fn a_large_state_does_not_excuse_a_small_row() {
        let cubic = Huge(|y: f64| (y * y * y + y - 2.0, 3.0 * y * y + 1.0));
        for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified] {
            let mut x = [HUGE, 0.999];
            let mut newton = Newton::<Fixed<2>>::new(NewtonOptions {
                jacobian,
                ..NewtonOptions::default()
            });
            let report = solve_both(&mut newton, [&cubic; 2], &mut x).unwrap();
            assert!(report.iterations >= 1, "{report:?}");
            // |x₂ − 1| ≈ |r₂| / (∂r₂/∂x₂ = 4) within the row's floor.
            let floor = ROUND_OFF_FLOOR * newton.residual_tolerance(6.0);
            assert!(4.0 * (x[1] - 1.0).abs() <= floor, "{x:?} {report:?}");
            assert_eq!(x[0], HUGE);
        }
    }

    /// `x₂ − 1 ± 10⁻⁸` (the sign of `x₂ − 1`) has no root: Newton jumps across 1 with
    /// `|r₂| = 2e−8`, which `τ_r` accepts but row 2's round-off (its terms are of order 1)
    /// does not.
    #[test]
    fn a_row_stalled_above_its_round_off_is_an_error() {
        let jump = Huge(|y: f64| (y - 1.0 + 1e-8f64.copysign(y - 1.0), 1.0));
        let mut x = [HUGE, 1.0 + 0.5e-8];
        let err = solve_both(
            &mut Newton::<Fixed<2>>::new(NewtonOptions::default()),
            [&jump; 2],
            &mut x,
        )
        .unwrap_err();
        let NewtonError::AboveRoundOff {
            row,
            residual,
            scale,
            tolerance,
            ..
        } = err
        else {
            panic!("expected AboveRoundOff, got {err:?}");
        };
        assert_eq!(row, 2, "{err}");
        assert!((residual - 2e-8).abs() <= 1e-15, "{err}");
        // |∂r₂/∂x₂|·|x₂| + d₂ = |x₂| + 2.
        assert!((scale - 3.0).abs() <= 1e-7, "{err}");
        assert!(tolerance < 1e-11, "{err}");
        assert!(err.to_string().contains("equation 2"), "{err}");
    }

    /// x² + 1 = 0 has no real root: Newton cycles without converging.
    struct NoRoot;

    impl NonlinearSystem<Fixed<1>> for NoRoot {
        fn space(&self) -> Fixed<1> {
            Fixed
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            r[0] = x[0] * x[0] + 1.0;
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            j[0] = 2.0 * x[0];
        }
        fn scale(&self) -> f64 {
            1.0
        }
    }

    #[test]
    fn reports_failure_with_history() {
        let mut newton = Newton::<Fixed<1>>::new(NewtonOptions {
            max_iterations: 10,
            ..NewtonOptions::default()
        });
        let mut x = [0.5];
        match solve_both(&mut newton, [&NoRoot; 2], &mut x) {
            Err(NewtonError::NotConverged { history, .. }) => assert_eq!(history.len(), 11),
            Err(NewtonError::Diverged { .. } | NewtonError::Singular { .. }) => {}
            other => panic!("expected a failure, got {other:?}"),
        }
        let mut at_zero = [0.0];
        assert!(matches!(
            solve_both(&mut newton, [&NoRoot; 2], &mut at_zero),
            Err(NewtonError::Singular { iteration: 0, .. })
        ));
    }

    /// `s = x₁ + x₂` is all the system sees of `x₁, x₂` (a gauge: the Jacobian's first two
    /// columns are equal, rank 2 everywhere): `g(s) = s + s³` and
    /// `r = (g(s) − 2, x₃(1 + s²) − 4, g(s) − 2 − δ)`. With `δ = 0` the solutions are the line
    /// `s = 1, x₃ = 2`; with `δ ≠ 0` rows 1 and 3 demand incompatible values of `g(s)`, and the
    /// part of `r` outside `range(J) = span{(1, 0, 1), (0, 1, 0)}` is `|δ|/√2` everywhere.
    struct Gauge {
        delta: f64,
        jacobians: std::cell::Cell<usize>,
    }

    impl Gauge {
        fn new(delta: f64) -> Gauge {
            Gauge {
                delta,
                jacobians: std::cell::Cell::new(0),
            }
        }
    }

    impl NonlinearSystem<Fixed<3>> for Gauge {
        fn space(&self) -> Fixed<3> {
            Fixed
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            let s = x[0] + x[1];
            let g = s + s * s * s;
            r.copy_from_slice(&[g - 2.0, x[2] * (1.0 + s * s) - 4.0, g - 2.0 - self.delta]);
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            self.jacobians.set(self.jacobians.get() + 1);
            let s = x[0] + x[1];
            let dg = 1.0 + 3.0 * s * s;
            let ds = 2.0 * s * x[2];
            j.copy_from_slice(&[dg, dg, 0.0, ds, ds, 1.0 + s * s, dg, dg, 0.0]);
        }
        fn scale(&self) -> f64 {
            4.0
        }
    }

    fn minimum_norm(jacobian: JacobianUpdate) -> NewtonOptions {
        NewtonOptions {
            jacobian,
            linear: LinearSolve::MinimumNorm {
                rank_tolerance: None,
            },
            ..NewtonOptions::default()
        }
    }

    /// Minimum-norm updates lie in `row space(J) = span{(1, 1, 0), (0, 0, 1)}`: the gauge
    /// coordinate `x₁ − x₂` keeps its initial value, and the iteration ends at the solution
    /// nearest to the initial guess. LU stops at the singular Jacobian.
    #[test]
    fn minimum_norm_newton_converges_on_a_gauge_line() {
        let x0 = [0.9, -0.3, 1.5];
        for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified] {
            let (system, copy) = (Gauge::new(0.0), Gauge::new(0.0));
            let mut x = x0;
            let mut newton = Newton::<Fixed<3>>::new(minimum_norm(jacobian));
            let report = solve_both(&mut newton, [&system, &copy], &mut x).unwrap();
            assert_eq!(system.jacobians.get(), copy.jacobians.get());
            assert_eq!(report.rank, 2, "{report:?}");
            let gauge = x0[0] - x0[1];
            let nearest = [(1.0 + gauge) / 2.0, (1.0 - gauge) / 2.0, 2.0];
            for (xi, ni) in x.iter().zip(nearest) {
                assert!(
                    (xi - ni).abs() <= 4.0 * f64::EPSILON,
                    "{x:?} vs {nearest:?}"
                );
            }
            // Every row at round-off relative to its terms, `Σ_j |J_ij|·|x_j|` and the data's 4.
            let (mut r, mut j) = ([0.0; 3], [0.0; 9]);
            copy.residual(&x, &mut r);
            copy.jacobian(&x, &mut j);
            let unit = Newton::<Fixed<3>>::new(NewtonOptions::default()).residual_tolerance(0.0);
            for (ri, row) in r.iter().zip(j.chunks_exact(3)) {
                let terms: f64 = row.iter().zip(&x).map(|(a, b)| (a * b).abs()).sum();
                assert!(ri.abs() <= unit * (terms + 4.0), "{r:?}");
            }
            if jacobian == JacobianUpdate::Simplified {
                assert!(system.jacobians.get() < report.iterations, "{report:?}");
            }
            eprintln!(
                "{jacobian:?}: {report:?}, {} Jacobians",
                system.jacobians.get()
            );
        }
        let mut x = x0;
        assert!(matches!(
            solve_both(
                &mut Newton::<Fixed<3>>::new(NewtonOptions::default()),
                [&Gauge::new(0.0); 2],
                &mut x
            ),
            Err(NewtonError::Singular { iteration: 0, .. })
        ));
    }

    #[test]
    fn minimum_norm_newton_reports_an_inconsistent_system() {
        for delta in [1.0, -0.01] {
            for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified] {
                let mut x = [0.9, -0.3, 1.5];
                let err = solve_both(
                    &mut Newton::<Fixed<3>>::new(minimum_norm(jacobian)),
                    [&Gauge::new(delta); 2],
                    &mut x,
                )
                .unwrap_err();
                let NewtonError::Inconsistent {
                    rank,
                    residual,
                    unreachable,
                    iteration,
                } = err
                else {
                    panic!("expected Inconsistent, got {err:?}");
                };
                eprintln!("δ = {delta}, {jacobian:?}: {err}");
                assert_eq!(rank, 2);
                let expected = delta.abs() / 2f64.sqrt();
                assert!(
                    (unreachable - expected).abs() <= 1e-14 * expected,
                    "{err:?}"
                );
                // The verdict: more than ρ = 0.9 of the residual is out of reach.
                assert!(
                    unreachable > 0.9 * residual && unreachable <= residual,
                    "{err:?}"
                );
                assert!(iteration >= 1, "{err:?}");
            }
        }
    }

    #[test]
    fn minimum_norm_agrees_with_lu_at_full_rank() {
        let mut x_lu = [1.0, 0.0];
        let mut newton = Newton::<Fixed<2>>::new(NewtonOptions {
            jacobian: JacobianUpdate::EveryIteration,
            ..NewtonOptions::default()
        });
        let lu = solve_both(&mut newton, [&Sqrt2; 2], &mut x_lu).unwrap();
        let mut x = [1.0, 0.0];
        // The same solver, its factorisation storage changed with the options.
        newton.options = minimum_norm(JacobianUpdate::EveryIteration);
        let qr = solve_both(&mut newton, [&Sqrt2; 2], &mut x).unwrap();
        assert_eq!((lu.rank, qr.rank, qr.iterations), (2, 2, lu.iterations));
        for (a, b) in x.iter().zip(x_lu) {
            assert!((a - b).abs() <= 2.0 * f64::EPSILON, "{a} vs {b}");
        }
    }

    /// `r(x) = B f(Cᵀx) − t` with `B`, `C` of size `n × k` (full column rank) and
    /// `f(y)_m = y_m + y_m³/3` (`f' ≥ 1`): `J = B diag(f'(Cᵀx)) Cᵀ` has rank `k` everywhere,
    /// `range(J) = range(B)` and `row space(J) = range(C)`.
    struct Projected<S> {
        space: S,
        b: DMatrix<f64>,
        c: DMatrix<f64>,
        target: Vec<f64>,
    }

    impl<S> Projected<S> {
        fn reduced(&self, x: &[f64]) -> Vec<f64> {
            (0..self.c.ncols())
                .map(|m| (0..x.len()).map(|j| self.c[(j, m)] * x[j]).sum())
                .collect()
        }
    }

    impl<S: Space> NonlinearSystem<S> for Projected<S> {
        fn space(&self) -> S {
            self.space
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            let y = self.reduced(x);
            for (i, ri) in r.iter_mut().enumerate() {
                let bf: f64 = (0..y.len())
                    .map(|m| self.b[(i, m)] * (y[m] + y[m].powi(3) / 3.0))
                    .sum();
                *ri = bf - self.target[i];
            }
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            let y = self.reduced(x);
            for (i, row) in j.chunks_exact_mut(x.len()).enumerate() {
                for (l, jil) in row.iter_mut().enumerate() {
                    *jil = (0..y.len())
                        .map(|m| self.b[(i, m)] * (1.0 + y[m] * y[m]) * self.c[(l, m)])
                        .sum();
                }
            }
        }
        fn scale(&self) -> f64 {
            1.0
        }
    }

    /// Random `B`, `C` (entries uniform in [−1, 1)), `k = 1 + seed mod (n − 1)`, a solution `x*`
    /// and an initial guess `x₀ = x* + d` with `|d_i| ≤ 0.3`. Consistent (`t = B f(Cᵀx*)`): both
    /// Jacobian updates converge, with rank `k`, to the solution nearest to `x₀`,
    /// `x₀ + W Wᵀ (x* − x₀)` (`W` an orthonormal basis of `range(C)`), to within
    /// `ε·max(1, ‖x*‖)/(σ_k(B)·σ_k(C))` times the returned factor. Inconsistent
    /// (`t = B f(Cᵀx*) + w`, `w ⟂ range(B)`, `‖w‖ = 10^w_exponent` in [1e−10, 1]):
    /// [`NewtonError::Inconsistent`] with rank `k` and unreachable part `‖w‖` to within `ε·‖t‖`
    /// (the rounding of the residual) times the returned factor. Returns the solution error in its units, the iterations of full and
    /// simplified Newton, and the error of the unreachable part in its units.
    fn projected<S: Space>(
        space: S,
        samples: &[f64],
        seed: usize,
        w_exponent: f64,
    ) -> Result<[f64; 4], TestCaseError> {
        let w_size = 10f64.powf(w_exponent);
        let n = space.dim();
        let k = 1 + seed % (n - 1);
        let mut s = samples;
        let bf = take(&mut s, n, k);
        let cf = take(&mut s, n, k);
        let x_star = take(&mut s, n, 1).column(0).into_owned();
        let x0 = &x_star + take(&mut s, n, 1).column(0) * 0.3;
        let sigma_k = |m: &DMatrix<f64>| m.singular_values().min();
        let conditioning = sigma_k(&bf) * sigma_k(&cf);
        if conditioning <= 1e-6 {
            return Err(TestCaseError::reject("B or C nearly rank deficient"));
        }
        let mut system = Projected {
            space,
            b: bf.clone(),
            c: cf.clone(),
            target: vec![0.0; n],
        };
        let mut at_star = vec![0.0; n];
        system.residual(x_star.as_slice(), &mut at_star);
        system.target = at_star;

        let w_basis = completed_basis(&cf, &mut s);
        let w_basis = w_basis.columns(0, k);
        let x0v = x0.clone();
        let nearest = &x0v + w_basis * (w_basis.transpose() * (&x_star - &x0v));
        let unit = f64::EPSILON * x_star.norm().max(1.0) / conditioning;
        // Simplified Newton contracts by up to SIMPLIFIED_REFRESH = 1/4 per iteration, which can
        // take ~27 iterations from ‖r₀‖ = O(1) to round-off: the cap is not what is tested here.
        let options = |jacobian| NewtonOptions {
            max_iterations: 100,
            ..minimum_norm(jacobian)
        };
        let mut measured = [0.0f64; 4];
        for (slot, jacobian) in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified]
            .into_iter()
            .enumerate()
        {
            let mut x = to_vector(space, &x0);
            let report = Newton::new_in(space, options(jacobian))
                .solve(&system, x.entries_mut())
                .map_err(|e| TestCaseError::fail(format!("n = {n}, k = {k}, {jacobian:?}: {e}")))?;
            prop_assert_eq!(report.rank, k);
            let error = (DVector::from_column_slice(x.entries()) - &nearest).norm() / unit;
            prop_assert!(
                error <= 1e3,
                "n = {}, k = {}, {:?}: error {} units",
                n,
                k,
                jacobian,
                error
            );
            measured[0] = measured[0].max(error);
            measured[1 + slot] = report.iterations as f64;
        }

        // The residual carries rounding errors of order ε·‖t‖.
        let residual_unit = f64::EPSILON * norm2(&system.target).max(1.0);
        let outside = completed_basis(&bf, &mut s).column(n - 1).into_owned() * w_size;
        for (ti, wi) in system.target.iter_mut().zip(outside.iter()) {
            *ti += wi;
        }
        for jacobian in [JacobianUpdate::EveryIteration, JacobianUpdate::Simplified] {
            let mut x = to_vector(space, &x0);
            match Newton::new_in(space, options(jacobian)).solve(&system, x.entries_mut()) {
                Err(NewtonError::Inconsistent {
                    rank, unreachable, ..
                }) => {
                    prop_assert_eq!(rank, k);
                    let error = (unreachable - w_size).abs() / residual_unit;
                    prop_assert!(
                        error <= 1e3,
                        "unreachable {:e} vs {:e}",
                        unreachable,
                        w_size
                    );
                    measured[3] = measured[3].max(error);
                }
                other => prop_assert!(false, "n = {}, k = {}, {:?}: {:?}", n, k, jacobian, other),
            }
        }
        Ok(measured)
    }

    #[test]
    fn minimum_norm_newton_on_random_rank_deficient_systems() {
        let worst = std::cell::Cell::new([0.0; 4]);
        run_cases(
            (
                proptest::collection::vec(-1.0f64..1.0, SAMPLES),
                0usize..1000,
                -10.0f64..0.0,
            ),
            |(samples, seed, w_exponent)| {
                worst.set(
                    worst
                        .get()
                        .max(for_sizes!(projected(&samples, seed, w_exponent))),
                );
                Ok(())
            },
        );
        let [solution, full, simplified, unreachable] = worst.get();
        eprintln!(
            "n = 2..12, fixed and run-time size, worst: solution error {solution:.2} ε·max(1, |x*|)/(σ_k(B)σ_k(C)), \
             unreachable error {unreachable:.2} ε·|t|, iterations {full} full, {simplified} simplified"
        );
    }

    /// Two blocks of `n/2` unknowns `(x, y)`: `r_x = 2x + B y − b`, `r_y = C x + E y + y³/10 − b`
    /// (`B`, `C`, `E` fixed pseudo-random, `E` diagonally dominant), whose block `∂r_x/∂x = 2I`
    /// is named as static pivots.
    struct Bordered {
        n: usize,
        entries: Vec<f64>,
    }

    const BORDERED_BLOCKS: [crate::layout::Block; 2] = {
        use crate::layout::{Block, Nodes, Role, Width};
        [
            Block {
                name: "X",
                stages: 1,
                role: Role::Residual,
                width: Width::Coordinates,
                nodes: Nodes::Internal,
            },
            Block {
                name: "Y",
                stages: 1,
                role: Role::Residual,
                width: Width::Coordinates,
                nodes: Nodes::Internal,
            },
        ]
    };

    impl Bordered {
        fn new(n: usize) -> Self {
            // A linear congruential sequence in [−1, 1): fixed entries, no dependency on a seed.
            let mut state = 0x2545_f491_4f6c_dd1d_u64;
            let entries = (0..n * n)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
                })
                .collect();
            Bordered { n, entries }
        }

        fn matrix(&self, x: &[f64], j: &mut [f64]) {
            let (n, m) = (self.n, self.n / 2);
            for (i, row) in j.chunks_exact_mut(n).enumerate() {
                for (k, a) in row.iter_mut().enumerate() {
                    *a = match (i < m, k < m) {
                        (true, true) => 2.0 * f64::from(u8::from(i == k)),
                        (false, false) if i == k => n as f64 + 0.3 * x[k] * x[k],
                        _ => self.entries[i * n + k],
                    };
                }
            }
        }
    }

    impl NonlinearSystem<Dynamic> for Bordered {
        fn space(&self) -> Dynamic {
            dynamic(self.n)
        }
        fn residual(&self, x: &[f64], r: &mut [f64]) {
            let n = self.n;
            let mut j = vec![0.0; n * n];
            self.matrix(&vec![0.0; n], &mut j);
            for (i, (ri, row)) in r.iter_mut().zip(j.chunks_exact(n)).enumerate() {
                let cubic = if i >= n / 2 { x[i].powi(3) / 10.0 } else { 0.0 };
                *ri = row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + cubic - 1.0;
            }
        }
        fn jacobian(&self, x: &[f64], j: &mut [f64]) {
            self.matrix(x, j);
        }
        fn scale(&self) -> f64 {
            1.0
        }
        fn elimination(&self) -> Option<Elimination<'_>> {
            let layout = crate::layout::Layout::new(&BORDERED_BLOCKS);
            Some(Elimination {
                pivots: &[(0, 0)],
                unknowns: layout,
                residuals: layout,
                dims: crate::layout::Dims::uniform(self.n / 2),
            })
        }
    }

    /// [`LinearSolve::BySize`] is the dense LU below [`STATIC_PIVOTS_FROM`] unknowns and the
    /// static pivots from there on: the factorisation it keeps and its iterate, to the last bit,
    /// are those of the option it stands for.
    #[test]
    fn by_size_takes_the_static_pivots_from_their_threshold() {
        for n in [
            STATIC_PIVOTS_FROM - 2,
            STATIC_PIVOTS_FROM,
            STATIC_PIVOTS_FROM + 2,
        ] {
            let system = Bordered::new(n);
            let solve = |linear| {
                let mut newton = Newton::new_in(
                    dynamic(n),
                    NewtonOptions {
                        linear,
                        ..NewtonOptions::default()
                    },
                );
                let mut x = vec![0.1; n];
                let report = newton.solve(&system, &mut x).expect("a regular system");
                let reduced = matches!(newton.factors, Factors::Reduced(_));
                (
                    x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    report,
                    reduced,
                )
            };
            let (dense, statics) = (solve(LinearSolve::Lu), solve(LinearSolve::StaticPivots));
            assert!(!dense.2 && statics.2, "n = {n}");
            let expected = if n >= STATIC_PIVOTS_FROM {
                statics
            } else {
                dense
            };
            assert_eq!(solve(LinearSolve::BySize), expected, "n = {n}");
            assert_eq!(LinearSolve::default(), LinearSolve::BySize);
        }
    }
}
