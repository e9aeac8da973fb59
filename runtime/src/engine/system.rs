//! The engine's stage equations of one step as a [`NonlinearSystem`] of run-time size, the
//! counterpart of the compiled steppers' [`crate::stage::StageSystem`]: the same Newton solves
//! both.

use super::{Backend, Engine, Kernels, Step, Tangent, Workspace};
use crate::layout::Elimination;
use crate::solve::{Dynamic, NonlinearSystem};
use crate::stage::carried;
use std::cell::RefCell;

/// The storage of the engine's evaluations in a solve: the workspace and the tangent partials
/// that the row scales read, allocated once per stepper.
#[derive(Clone, Debug)]
pub struct Scratch {
    pub(super) workspace: Workspace,
    tangent: Tangent,
}

impl Scratch {
    /// Storage for `engine`.
    pub fn new(engine: &Engine) -> Scratch {
        Scratch {
            workspace: engine.workspace(),
            tangent: Tangent::zero(engine.len(), engine.dims().coordinates),
        }
    }

    /// Storage for `engine` on `problem` alone, with the problem's fused kernel calls
    /// ([`Engine::workspace_for`]); the caller keeps it with that problem.
    pub(super) fn for_problem<K: Kernels + ?Sized>(
        engine: &Engine,
        problem: &K,
        backend: Backend,
    ) -> Scratch {
        Scratch {
            workspace: engine.workspace_for(problem, backend),
            tangent: Tangent::zero(engine.len(), engine.dims().coordinates),
        }
    }
}

/// The stage equations of the step of size `h` from `(q, p)` with the carried multiplier
/// `λ_n = lambda`, evaluated by `engine` on `problem`.
pub struct StageEquations<'a, K: ?Sized> {
    engine: &'a Engine,
    problem: &'a K,
    space: Dynamic,
    h: f64,
    q: &'a [f64],
    p: &'a [f64],
    lambda: &'a [f64],
    scratch: &'a RefCell<Scratch>,
}

impl<'a, K: Kernels + ?Sized> StageEquations<'a, K> {
    /// The equations of one step (`q`, `p` of the engine's `D`, `lambda` of its `M` or empty);
    /// `space` is the engine's number of unknowns.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        engine: &'a Engine,
        problem: &'a K,
        space: Dynamic,
        h: f64,
        q: &'a [f64],
        p: &'a [f64],
        lambda: &'a [f64],
        scratch: &'a RefCell<Scratch>,
    ) -> Self {
        StageEquations {
            engine,
            problem,
            space,
            h,
            q,
            p,
            lambda,
            scratch,
        }
    }

    fn step<'x>(&self, x: &'x [f64]) -> Step<'x>
    where
        'a: 'x,
    {
        Step {
            h: self.h,
            q: self.q,
            p: self.p,
            lambda: self.lambda,
            x,
        }
    }
}

impl<K: Kernels + ?Sized> NonlinearSystem<Dynamic> for StageEquations<'_, K> {
    fn space(&self) -> Dynamic {
        self.space
    }

    fn residual(&self, x: &[f64], r: &mut [f64]) {
        let scratch = &mut *self.scratch.borrow_mut();
        let step = self.step(x);
        self.engine
            .residual(&mut scratch.workspace, self.problem, &step, r);
    }

    fn jacobian(&self, x: &[f64], j: &mut [f64]) {
        let scratch = &mut *self.scratch.borrow_mut();
        let step = self.step(x);
        // The problem is the same at every call: the residual's values may be reused.
        self.engine
            .jacobian_of(&mut scratch.workspace, self.problem, &step, j, true);
    }

    fn elimination(&self) -> Option<Elimination<'_>> {
        self.engine.elimination()
    }

    fn scale(&self) -> f64 {
        let amax = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        amax(self.q).max(amax(self.p))
    }

    /// Each unknown block's components in their own scale, as the compiled stage system's.
    fn unknown_scales(&self, x: &[f64], u: &mut [f64]) {
        self.engine
            .unknowns()
            .component_scales(self.engine.dims(), x, u);
    }

    /// `d_i = Σ_k |∂r_i/∂q_k|·|q_k| + |∂r_i/∂p_k|·|p_k|`, as the compiled stage system's.
    fn data_scales(&self, x: &[f64], d: &mut [f64]) {
        let scratch = &mut *self.scratch.borrow_mut();
        let step = self.step(x);
        let Scratch { workspace, tangent } = scratch;
        // The problem is the same at every call: the residual's values may be reused.
        self.engine
            .residual_partials(workspace, self.problem, &step, tangent, true);
        let width = self.q.len();
        let rows = tangent
            .r_q
            .chunks_exact(width)
            .zip(tangent.r_p.chunks_exact(width));
        for (di, (r_q, r_p)) in d.iter_mut().zip(rows) {
            *di = carried(r_q, self.q) + carried(r_p, self.p);
        }
    }
}
