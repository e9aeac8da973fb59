//! An [`Engine`] on a problem's [`Kernels`] as the equations of the one-step driver
//! ([`crate::integrate::Driver`]): the same Newton, the same initial guess, the same multiplier
//! update and watch as a compiled stepper, on vectors of run-time length.

use super::{Backend, Engine, EngineError, Kernels, Scratch, StageEquations, Step, Tangent, Work};
use crate::amplification::{Carrying, Linearised, amplification};
use crate::integrate::{Inputs, StepEquations};
use crate::layout::{Dims, Layout, Nodes};
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
    /// `engine`'s method on `problem`, its stage functions compiled to machine code where the
    /// problem's kernels are tapes ([`Backend::Jit`]), and the problem's own methods too
    /// ([`Kernels::compile`]): fails if the problem is not of the
    /// method's kind or widths ([`Engine::check`]), or if its `N × N` stage Jacobian would not
    /// fit in memory.
    pub fn new(engine: &'a Engine, problem: &'a K) -> Result<Self, EngineError> {
        Self::with_backend(engine, problem, Backend::Jit)
    }

    /// [`Stepping::new`] with the back end `backend`.
    pub fn with_backend(
        engine: &'a Engine,
        problem: &'a K,
        backend: Backend,
    ) -> Result<Self, EngineError> {
        engine.check(problem)?;
        if backend == Backend::Jit {
            // What the step evaluates outside the stage functions (the velocity guess, the
            // multiplier's state functions) and what observers evaluate at every point.
            problem.compile();
        }
        let too_large = || EngineError::TooLarge {
            unknowns: engine.len(),
        };
        let space = Dynamic::new(engine.len()).ok_or_else(too_large)?;
        let work = Work::new(engine.dims()).ok_or_else(too_large)?;
        Ok(Stepping {
            engine,
            problem,
            space,
            // The scratch lives with `problem`: its fused kernel calls are that problem's.
            scratch: RefCell::new(Scratch::for_problem(engine, problem, backend)),
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

    /// The back end that evaluates the stage functions ([`Backend::Interpreter`] where
    /// [`Backend::Jit`] was asked for and the problem's kernels are not tapes).
    pub fn backend(&self) -> Backend {
        self.scratch.borrow().workspace.backend()
    }

    /// Seconds spent compiling the stage functions so far (shared with every stepper of the
    /// engine on the same problem file).
    pub fn compile_seconds(&self) -> f64 {
        self.scratch.borrow().workspace.compile_seconds()
    }
}

impl<K: Kernels + ?Sized> StepEquations for Stepping<'_, K> {
    type Space = Dynamic;
    type System<'s>
        = StageEquations<'s, K>
    where
        Self: 's;

    fn method(&self) -> &str {
        self.engine.name()
    }
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
    fn nodes(&self, at: Nodes) -> &[f64] {
        self.engine.nodes(at)
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

    fn momentum_rate(&self, q: &[f64], p: &[f64], p_dot: &mut [f64], lambda: &mut [f64]) -> bool {
        let work = &mut self.work.borrow_mut();
        self.problem.momentum_rate(q, p, p_dot, lambda, work)
    }

    fn constraint(&self, q: &[f64], p: &[f64]) -> f64 {
        self.problem.constraint(q, p, &mut self.work.borrow_mut())
    }

    fn constraint_name(&self) -> &'static str {
        super::access::constraint_name(self.problem.kind())
    }

    fn energy(&self, q: &[f64], p: &[f64]) -> Option<f64> {
        self.problem.energy(q, p, &mut self.work.borrow_mut())
    }

    fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool {
        self.problem.consistent_momentum(q, p)
    }

    fn initial_multiplier(&self, q: &[f64], p: &[f64], lambda: &mut [f64]) -> Result<(), f64> {
        self.problem
            .initial_multiplier(q, p, lambda, &mut self.work.borrow_mut())
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
        let linearised = Linearised::of(&jacobian, &t);
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

#[cfg(test)]
mod tests {
    use super::Stepping;
    use crate::engine::{Engine, Holonomic};
    use crate::generated::steppers::{RattleLobattoIIIAIIIB2, RattleLobattoIIIAIIIB3};
    use crate::holonomic::problems::{Chain3, Chain5};
    use crate::holonomic::run_stages;
    use crate::integrate::{Options, run_into};
    use crate::problem::{HolonomicSystem, Vector};
    use crate::solution::{Record, Solution};
    use crate::stage::StageMethod;
    use std::num::NonZeroUsize;

    const STEPS: usize = 100;
    const H: f64 = 0.05;

    /// The largest difference `|y_e − y_c|∞ / max(|y_c|∞, 1)` over every point and both `q` and
    /// `p` between the engine's run of `Meth`'s description on the view of `problem` and the
    /// compiled holonomic stepper `Meth`'s, and the two totals of Newton iterations.
    fn difference<Meth, P, const D: usize, const M: usize>(
        problem: &P,
        (q0, p0): (Vector<D>, Vector<D>),
    ) -> (f64, [usize; 2])
    where
        Meth: StageMethod<P, D>,
        P: HolonomicSystem<D, M>,
    {
        let name = Meth::NAME;
        let mut record = Record::<D>::new(STEPS, NonZeroUsize::MIN);
        let options = Options::new(H, STEPS);
        run_stages::<Meth, P, _, D, M>(problem, q0, p0, &options, &mut record)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let compiled = record.into_solution();
        let view = Holonomic::<P, D, M>(problem);
        let engine =
            Engine::catalogue(name, crate::layout::Dims::new(D, M)).expect("in the catalogue");
        let stepping = Stepping::new(&engine, &view).expect("the view fits");
        let mut record = Record::<D>::new(STEPS, NonZeroUsize::MIN);
        run_into(
            stepping,
            q0.as_slice(),
            p0.as_slice(),
            &options,
            &mut record,
        )
        .unwrap_or_else(|_| panic!("{name}: the engine's run failed"));
        let engine_run = record.into_solution();
        assert_eq!(engine_run.q.len(), compiled.q.len(), "{name}");
        let worst = |a: &[Vector<D>], b: &[Vector<D>]| {
            a.iter().zip(b).fold(0.0f64, |w, (x, y)| {
                w.max((x - y).amax() / y.amax().max(1.0))
            })
        };
        let difference = worst(&engine_run.q, &compiled.q).max(worst(&engine_run.p, &compiled.p));
        let iterations = |s: &Solution<D>| s.stats.iter().map(|s| s.iterations).sum();
        (difference, [iterations(&engine_run), iterations(&compiled)])
    }

    /// The engine with the momentum-rate guess of the holonomic steppers (index-1 multiplier,
    /// Hermite extrapolation) follows the compiled Lobatto IIIA–IIIB RATTLE steppers on chains
    /// of shapes the command line has no compiled instantiation for, to round-off, in as many
    /// Newton iterations (± one per ten steps).
    #[test]
    fn the_engine_follows_the_compiled_holonomic_steppers() {
        let (m, g, l) = (1.0, 1.0, 1.0);
        let (chain3, chain5) = (Chain3 { m, g, l }, Chain5 { m, g, l });
        let s3 = chain3.state(&[(0.3, 0.5), (0.6, -0.4), (0.9, 0.8)]);
        let s5 = chain5.state(&[(0.3, 0.5), (0.5, -0.4), (0.7, 0.8), (0.9, 0.1), (1.1, -0.6)]);
        let runs = [
            difference::<RattleLobattoIIIAIIIB2<3>, _, 6, 3>(&chain3, s3),
            difference::<RattleLobattoIIIAIIIB3<3>, _, 6, 3>(&chain3, s3),
            difference::<RattleLobattoIIIAIIIB2<5>, _, 10, 5>(&chain5, s5),
            difference::<RattleLobattoIIIAIIIB3<5>, _, 10, 5>(&chain5, s5),
        ];
        for (k, (difference, [engine, compiled])) in runs.into_iter().enumerate() {
            println!("run {k}: difference {difference:.1e}, iterations {engine} vs {compiled}");
            assert!(difference <= 1e-12, "run {k}: {difference:e}");
            assert!(
                engine.abs_diff(compiled) <= STEPS / 10,
                "run {k}: {engine} vs {compiled}"
            );
        }
    }
}
