//! An [`Engine`] on a problem's [`Kernels`] as the equations of the one-step driver
//! ([`crate::integrate::Driver`]): the same Newton, the same initial guess, the same multiplier
//! update and watch as a compiled stepper, on vectors of run-time length.

use super::{Engine, EngineError, Kernels, Scratch, StageEquations, Step, Tangent, Work};
use crate::amplification::{Carrying, Linearised, amplification};
use crate::integrate::{Inputs, StepEquations};
use crate::layout::{Dims, Layout};
use crate::solve::Dynamic;
use crate::stage::MultiplierUpdate;
use std::cell::RefCell;

/// The method compiled in `engine`, on `problem`.
pub struct Stepping<'a, K: ?Sized> {
    engine: &'a Engine,
    problem: &'a K,
    space: Dynamic,
    scratch: RefCell<Scratch>,
    work: RefCell<Work>,
}

impl<'a, K: Kernels + ?Sized> Stepping<'a, K> {
    /// `engine`'s method on `problem`: fails if the problem is not of the method's kind or
    /// widths ([`Engine::check`]), or if its `N × N` stage Jacobian would not fit in memory.
    pub fn new(engine: &'a Engine, problem: &'a K) -> Result<Self, EngineError> {
        engine.check(problem)?;
        let too_large = || EngineError::TooLarge {
            unknowns: engine.len(),
        };
        let space = Dynamic::new(engine.len()).ok_or_else(too_large)?;
        let work = Work::new(engine.dims()).ok_or_else(too_large)?;
        Ok(Stepping {
            engine,
            problem,
            space,
            scratch: RefCell::new(Scratch::new(engine)),
            work: RefCell::new(work),
        })
    }

    /// The engine.
    pub fn engine(&self) -> &'a Engine {
        self.engine
    }

    /// The problem.
    pub fn problem(&self) -> &'a K {
        self.problem
    }
}

impl<K: Kernels + ?Sized> StepEquations for Stepping<'_, K> {
    type Space = Dynamic;
    type System<'s>
        = StageEquations<'s, K>
    where
        Self: 's;

    fn space(&self) -> Dynamic {
        self.space
    }
    fn dims(&self) -> Dims {
        self.engine.dims()
    }
    fn unknowns(&self) -> &Layout {
        self.engine.unknowns()
    }
    fn residuals(&self) -> &Layout {
        self.engine.residuals()
    }
    fn nodes(&self) -> &[f64] {
        self.engine.nodes()
    }
    fn rank_deficient(&self) -> bool {
        self.engine.rank_deficient()
    }
    fn multiplier(&self) -> Option<MultiplierUpdate> {
        self.engine.multiplier()
    }

    fn system<'s>(&'s self, inputs: Inputs<'s>) -> StageEquations<'s, K> {
        let Inputs { h, q, p, lambda } = inputs;
        let (engine, problem, space) = (self.engine, self.problem, self.space);
        StageEquations::new(engine, problem, space, h, q, p, lambda, &self.scratch)
    }

    fn update(&self, inputs: Inputs<'_>, x: &[f64], q1: &mut [f64], p1: &mut [f64]) {
        let Inputs { h, q, p, lambda } = inputs;
        let step = Step { h, q, p, lambda, x };
        let workspace = &mut self.scratch.borrow_mut().workspace;
        self.engine.update(workspace, self.problem, &step, q1, p1);
    }

    fn velocity(&self, q: &[f64], p: &[f64], multiplier: Option<&[f64]>, v: &mut [f64]) -> bool {
        let work = &mut self.work.borrow_mut();
        self.problem.velocity(q, p, multiplier, v, work)
    }

    fn constraint(&self, q: &[f64], p: &[f64]) -> f64 {
        self.problem.constraint(q, p, &mut self.work.borrow_mut())
    }

    fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool {
        self.problem.consistent_momentum(q, p)
    }

    fn initial_multiplier(&self, q: &[f64], p: &[f64], lambda: &mut [f64]) -> Result<(), f64> {
        self.problem.initial_multiplier(q, p, lambda)
    }

    /// [`amplification`] from the engine's Jacobian and tangent partials and the problem's
    /// [`Kernels::constraint_differential`]; evaluated only when a defect grows, so its work
    /// arrays are allocated here.
    fn amplification(&self, inputs: Inputs<'_>, x: &[f64], end: (&[f64], &[f64])) -> Option<f64> {
        let update = self.engine.multiplier().filter(|u| u.read)?;
        let Inputs { h, q, p, lambda } = inputs;
        let (dims, n) = (self.engine.dims(), self.engine.len());
        let (d, m) = (dims.coordinates, dims.constraints);
        let mut phi = [
            vec![0.0; m * d],
            vec![0.0; m * d],
            vec![0.0; m * d],
            vec![0.0; m * d],
        ];
        let [start_q, start_p, end_q, end_p] = &mut phi;
        if !(self.problem.constraint_differential(q, p, start_q, start_p)
            && self
                .problem
                .constraint_differential(end.0, end.1, end_q, end_p))
        {
            return None;
        }
        let step = Step { h, q, p, lambda, x };
        let mut jacobian = vec![0.0; n.checked_mul(n)?];
        let mut t = Tangent::zero(n, d);
        let workspace = &mut self.scratch.borrow_mut().workspace;
        self.engine
            .jacobian(workspace, self.problem, &step, &mut jacobian);
        self.engine.tangent(workspace, self.problem, &step, &mut t);
        let linearised = Linearised {
            jacobian: &jacobian,
            r_q: &t.r_q,
            r_p: &t.r_p,
            q_x: &t.q_x,
            p_x: &t.p_x,
            explicit: [[&t.q_q, &t.q_p], [&t.p_q, &t.p_p]],
        };
        let method = Carrying {
            dims,
            unknowns: self.engine.unknowns(),
            residuals: self.engine.residuals(),
            update,
        };
        let [start_q, start_p, end_q, end_p] = &phi;
        amplification(h, &method, &linearised, [start_q, start_p], [end_q, end_p])
    }
}
