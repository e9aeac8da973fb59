//! The equations of one step as the one-step driver ([`super::Driver`]) sees them, whatever
//! evaluates them: a compiled stepper ([`Compiled`], `D` a constant, the `N` unknowns sized
//! once from its layout) or the run-time engine ([`crate::engine::Stepping`], sizes known only at run time). States are slices of
//! `D` entries, multipliers of `M`.

use crate::error::IntegrateError;
use crate::kind::Access;
use crate::layout::{Dims, Layout, Nodes};
use crate::solve::{Dynamic, NonlinearSystem, Space};
use crate::stage::{MultiplierUpdate, StageMethod, StageSystem, Tangent};
use nalgebra::SVector;
use std::cell::RefCell;
use std::marker::PhantomData;

/// The inputs of one step: its size `h`, the state `(q_n, p_n)` and the carried multiplier
/// `λ_n` (`M` long; empty for methods that carry none).
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// The step size h.
    pub h: f64,
    /// `q_n`.
    pub q: &'a [f64],
    /// `p_n`.
    pub p: &'a [f64],
    /// `λ_n`.
    pub lambda: &'a [f64],
}

/// A method on a problem: its stage equations `r(x; q_n, p_n, λ_n, h) = 0`, the update
/// `(q_{n+1}, p_{n+1}) = Ψ(x; q_n, p_n, λ_n, h)`, and the state-level operations of the
/// problem's kind ([`Access`]) that start and watch a run.
pub trait StepEquations {
    /// Where Newton keeps the `N` unknowns.
    type Space: Space;
    /// The stage equations of one step.
    type System<'s>: NonlinearSystem<Self::Space>
    where
        Self: 's;

    /// The method's name, e.g. `SlrkLobattoIIIE3`, for errors.
    fn method(&self) -> &str;
    /// The `N` unknowns' space.
    fn space(&self) -> Self::Space;
    /// The widths `D`, `M`.
    fn dims(&self) -> Dims;
    /// The unknown vector's layout.
    fn unknowns(&self) -> &Layout;
    /// The residual vector's layout.
    fn residuals(&self) -> &Layout;
    /// The nodes of the internal or the projective stages.
    fn nodes(&self, at: Nodes) -> &[f64];
    /// Whether the stage Jacobian is rank-deficient by construction.
    fn rank_deficient(&self) -> bool;
    /// How `λ_{n+1}` is formed, for a method that carries a multiplier.
    fn multiplier(&self) -> Option<MultiplierUpdate>;

    /// The stage equations of the step `inputs`.
    fn system<'s>(&'s self, inputs: Inputs<'s>) -> Self::System<'s>;
    /// Writes `(q_{n+1}, p_{n+1})` from the converged unknowns `x`.
    fn update(&self, inputs: Inputs<'_>, x: &[f64], q1: &mut [f64], p1: &mut [f64]);

    /// Writes a velocity at `(q, p)` ([`Access::velocity`], or
    /// [`Access::velocity_with_multiplier`] with the consistent multiplier `λ̂`); `false`
    /// where the problem determines none.
    fn velocity(&self, q: &[f64], p: &[f64], multiplier: Option<&[f64]>, v: &mut [f64]) -> bool;
    /// Writes the momentum rate `ṗ` at `(q, p)` and the multiplier `λ` it holds, from which
    /// the stage momenta and multipliers are extrapolated; `false` (the default) where the
    /// problem determines none, and the last step's unknowns are the guess.
    fn momentum_rate(&self, q: &[f64], p: &[f64], p_dot: &mut [f64], lambda: &mut [f64]) -> bool {
        let _ = (q, p, p_dot, lambda);
        false
    }
    /// The residual of the algebraic constraint ([`Access::constraint`]).
    fn constraint(&self, q: &[f64], p: &[f64]) -> f64;
    /// What [`StepEquations::constraint`] measures, e.g. `|p − ϑ(q)|∞` ([`Access::CONSTRAINT`]).
    fn constraint_name(&self) -> &'static str;
    /// The energy at `(q, p)` ([`Access::energy`]); `None` where the kind defines none.
    fn energy(&self, q: &[f64], p: &[f64]) -> Option<f64>;
    /// Writes a momentum consistent with `q` ([`Access::consistent_momentum`]); `false` where
    /// the kind has none in closed form.
    fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool;
    /// Writes the multiplier `λ̂` consistent with `(q, p)` ([`Access::initial_multiplier`]).
    fn initial_multiplier(&self, q: &[f64], p: &[f64], lambda: &mut [f64]) -> Result<(), f64>;
    /// `ρ(R)`, the amplification of the carried multiplier's defect over the step from
    /// `inputs` with converged unknowns `x` to `end`
    /// ([`crate::amplification::multiplier_amplification`]); `None` where it is not known.
    fn amplification(&self, inputs: Inputs<'_>, x: &[f64], end: (&[f64], &[f64])) -> Option<f64>;
}

/// A compiled stepper `M` (`D` coordinates) on the problem `P`, its `N` unknowns in buffers
/// sized once from the method's layout.
pub struct Compiled<'a, M, P, const D: usize> {
    problem: &'a P,
    space: Dynamic,
    tangent: RefCell<Tangent>,
    method: PhantomData<M>,
}

impl<'a, M: StageMethod<P, D>, P, const D: usize> Compiled<'a, M, P, D> {
    /// The equations of `M` on `problem`, its unknowns sized from the method's layout.
    pub fn sized(problem: &'a P) -> Result<Self, IntegrateError> {
        let space = Dynamic::new(M::UNKNOWNS.len(M::DIMS)).ok_or(
            IntegrateError::InvalidOptions("the stage Jacobian would not fit in memory"),
        )?;
        Ok(Compiled {
            problem,
            space,
            tangent: RefCell::new(Tangent::zero(space.dim(), D)),
            method: PhantomData,
        })
    }
}

impl<'a, M, P, const D: usize> Compiled<'a, M, P, D> {
    /// The problem.
    pub fn problem(&self) -> &'a P {
        self.problem
    }
}

/// `D` entries of `x` as a vector.
fn vector<const D: usize>(x: &[f64]) -> SVector<f64, D> {
    SVector::from_column_slice(x)
}

/// `v` into `out`, if any.
fn written<const D: usize>(v: Option<SVector<f64, D>>, out: &mut [f64]) -> bool {
    v.map(|v| out.copy_from_slice(v.as_slice())).is_some()
}

/// [`Access`] of the kind `A` on states given as slices of `D` entries: what a driver of
/// run-time vectors asks of a compiled problem.
pub(crate) mod on_slices {
    use super::{Access, vector, written};

    /// [`Access::velocity`], or [`Access::velocity_with_multiplier`] with `λ̂ = multiplier`,
    /// into `v`; `false` where there is none.
    pub(crate) fn velocity<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        q: &[f64],
        p: &[f64],
        multiplier: Option<&[f64]>,
        v: &mut [f64],
    ) -> bool {
        let (q, p) = (vector(q), vector(p));
        let velocity = match multiplier {
            Some(lambda) => A::velocity_with_multiplier(problem, &q, &p, lambda),
            None => A::velocity(problem, &q, &p),
        };
        written(velocity, v)
    }

    /// [`Access::constraint`].
    pub(crate) fn constraint<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        q: &[f64],
        p: &[f64],
    ) -> f64 {
        A::constraint(problem, &vector(q), &vector(p))
    }

    /// [`Access::consistent_momentum`] into `p`; `false` where there is none.
    pub(crate) fn consistent_momentum<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        q: &[f64],
        p: &mut [f64],
    ) -> bool {
        written(A::consistent_momentum(problem, &vector(q)), p)
    }

    /// [`Access::initial_multiplier`].
    pub(crate) fn initial_multiplier<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        q: &[f64],
        p: &[f64],
        lambda: &mut [f64],
    ) -> Result<(), f64> {
        A::initial_multiplier(problem, &vector(q), &vector(p), lambda)
    }

    /// [`Access::momentum_rate`].
    pub(crate) fn momentum_rate<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        (q, p): (&[f64], &[f64]),
        p_dot: &mut [f64],
        lambda: &mut [f64],
    ) -> bool {
        A::momentum_rate(problem, (&vector(q), &vector(p)), p_dot, lambda)
    }

    /// [`Access::constraint_differential`].
    pub(crate) fn constraint_differential<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        q: &[f64],
        p: &[f64],
        phi_q: &mut [f64],
        phi_p: &mut [f64],
    ) -> bool {
        A::constraint_differential(problem, (&vector(q), &vector(p)), phi_q, phi_p)
    }

    /// [`Access::energy`].
    pub(crate) fn energy<A: Access<P, D>, P, const D: usize>(
        problem: &P,
        q: &[f64],
        p: &[f64],
    ) -> Option<f64> {
        A::energy(problem, &vector(q), &vector(p))
    }
}

impl<M: StageMethod<P, D>, P, const D: usize> StepEquations for Compiled<'_, M, P, D> {
    type Space = Dynamic;
    type System<'s>
        = StageSystem<'s, M, P, D>
    where
        Self: 's;

    fn method(&self) -> &str {
        M::NAME
    }
    fn space(&self) -> Dynamic {
        self.space
    }
    fn dims(&self) -> Dims {
        M::DIMS
    }
    fn unknowns(&self) -> &Layout {
        &M::UNKNOWNS
    }
    fn residuals(&self) -> &Layout {
        &M::RESIDUALS
    }
    fn nodes(&self, at: Nodes) -> &[f64] {
        match at {
            Nodes::Internal => M::NODES,
            Nodes::Projective => M::PROJECTIVE_NODES,
        }
    }
    fn rank_deficient(&self) -> bool {
        M::RANK_DEFICIENT
    }
    fn multiplier(&self) -> Option<MultiplierUpdate> {
        M::MULTIPLIER
    }

    fn system<'s>(&'s self, inputs: Inputs<'s>) -> StageSystem<'s, M, P, D> {
        let Inputs { h, q, p, lambda } = inputs;
        let step = (h, vector(q), vector(p));
        StageSystem::new(self.problem, step, lambda, self.space, &self.tangent)
    }

    fn update(&self, inputs: Inputs<'_>, x: &[f64], q1: &mut [f64], p1: &mut [f64]) {
        let Inputs { h, q, p, lambda } = inputs;
        let (q, p) = M::update(self.problem, h, &vector(q), &vector(p), lambda, x);
        q1.copy_from_slice(q.as_slice());
        p1.copy_from_slice(p.as_slice());
    }

    fn velocity(&self, q: &[f64], p: &[f64], multiplier: Option<&[f64]>, v: &mut [f64]) -> bool {
        on_slices::velocity::<M::Kind, P, D>(self.problem, q, p, multiplier, v)
    }

    fn momentum_rate(&self, q: &[f64], p: &[f64], p_dot: &mut [f64], lambda: &mut [f64]) -> bool {
        on_slices::momentum_rate::<M::Kind, P, D>(self.problem, (q, p), p_dot, lambda)
    }

    fn constraint(&self, q: &[f64], p: &[f64]) -> f64 {
        on_slices::constraint::<M::Kind, P, D>(self.problem, q, p)
    }

    fn constraint_name(&self) -> &'static str {
        <M::Kind as Access<P, D>>::CONSTRAINT
    }

    fn energy(&self, q: &[f64], p: &[f64]) -> Option<f64> {
        on_slices::energy::<M::Kind, P, D>(self.problem, q, p)
    }

    fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool {
        on_slices::consistent_momentum::<M::Kind, P, D>(self.problem, q, p)
    }

    fn initial_multiplier(&self, q: &[f64], p: &[f64], lambda: &mut [f64]) -> Result<(), f64> {
        on_slices::initial_multiplier::<M::Kind, P, D>(self.problem, q, p, lambda)
    }

    fn amplification(&self, inputs: Inputs<'_>, x: &[f64], end: (&[f64], &[f64])) -> Option<f64> {
        let Inputs { h, q, p, lambda } = inputs;
        let (q, p, q1, p1) = (vector(q), vector(p), vector(end.0), vector(end.1));
        crate::amplification::multiplier_amplification::<M, P, D>(
            self.problem,
            h,
            (&q, &p),
            lambda,
            x,
            (&q1, &p1),
        )
    }
}
