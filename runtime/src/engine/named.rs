//! A method named at run time: [`Named`], a description of the catalogue (or any description)
//! run by the engine, accepted by [`crate::solve`] like a compiled method. Its route
//! ([`crate::run::route::ByName`]) is chosen by the problem's trait: the problem's own kind, or
//! through a view (a degenerate Lagrangian as the Lagrangian DAE or Dirac's Hamiltonian DAE for
//! the implicit- and Hamiltonian-DAE methods, a Lagrangian through its implicit ODE).

use super::{DaeForm, DaeView, Degenerate, Engine, EngineError, Hamiltonian, Holonomic, Implicit};
use super::{Kernels, Stepping};
use crate::error::IntegrateError;
use crate::integrate::{Options, run_into};
use crate::kind;
use crate::problem::{
    DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae, Lagrangian, LagrangianOde,
};
use crate::run::{Method, route};
use crate::solution::{Observer, RunStats, Stopped};
use nalgebra::SVector;
use sparkgen_description::structure::ProblemKind;
use sparkgen_description::{Coefficient, Method as Description};
use std::borrow::Borrow;

/// A method chosen at run time, by the family and stage count `sparkgen methods` lists (e.g.
/// `("VprkGauss", 3)`), evaluated by the run-time [`Engine`] from its description: the same
/// stage equations as the compiled stepper of that name, on storage sized once per run.
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    method: Description<Coefficient>,
}

impl Named {
    /// The catalogue's method of `family` with `stages` stages (`s`).
    #[cfg(feature = "catalogue")]
    pub fn new(family: &str, stages: usize) -> Result<Named, EngineError> {
        let method = super::catalogue_family(family)?
            .into_iter()
            .find(|m| m.s == stages)
            .ok_or_else(|| EngineError::UnknownMethod {
                name: format!("{family}({stages})"),
            })?;
        Ok(Named { method })
    }

    /// The method `description` (e.g. read with `sparkgen_description::text::read`).
    pub fn of(description: Description<Coefficient>) -> Named {
        Named {
            method: description,
        }
    }

    /// The method's name, e.g. `VprkGauss3`.
    pub fn name(&self) -> &str {
        &self.method.name
    }

    /// The kind of problem the method applies to.
    pub fn kind(&self) -> ProblemKind {
        self.method.problem
    }

    /// Runs the method on `kernels`, of widths `dims`, as [`Method::run_into`] does.
    fn run<K: Kernels + ?Sized, O: Observer + ?Sized>(
        &self,
        kernels: &K,
        (q0, p0): (&[f64], &[f64]),
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        let unavailable = |e: EngineError| Stopped::Step(IntegrateError::from(e));
        if kernels.kind() != self.kind() {
            return Err(unavailable(EngineError::Kind {
                method: self.name().to_owned(),
                method_kind: self.kind(),
                problem_kind: kernels.kind(),
            }));
        }
        let engine = Engine::new(&self.method, kernels.dims()).map_err(unavailable)?;
        let stepping = Stepping::new(&engine, kernels).map_err(unavailable)?;
        run_into(stepping, q0, p0, options, observer)
    }

    /// Runs the method on the degenerate Lagrangian `kernels`, through the view of its kind
    /// when the method is an implicit- or Hamiltonian-DAE method.
    fn run_degenerate<K: Kernels + ?Sized, O: Observer + ?Sized>(
        &self,
        kernels: &K,
        state: (&[f64], &[f64]),
        options: &Options,
        observer: &mut O,
    ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
        let form = match self.kind() {
            ProblemKind::ImplicitDae => DaeForm::LagrangianDae,
            ProblemKind::HamiltonianDae => DaeForm::Dirac,
            _ => return self.run(kernels, state, options, observer),
        };
        let view = DaeView::new(kernels, form).ok_or_else(|| {
            Stopped::Step(IntegrateError::from(EngineError::TooLarge {
                unknowns: kernels.dims().coordinates,
            }))
        })?;
        self.run(&view, state, options, observer)
    }
}

/// The routes by name: `Named` or `&Named` on a problem of each kind, through the kernels of
/// that kind ([`Degenerate`], [`Holonomic`], [`Implicit`], [`Hamiltonian`]; a Lagrangian as
/// its implicit ODE).
macro_rules! by_name {
    ($route:ty, [$($consts:tt)*], $bound:path,
     |$named:ident, $problem:ident, $state:ident, $options:ident, $observer:ident| $run:expr) => {
        impl<T, P, const D: usize $($consts)*> Method<P, D, route::ByName<$route>> for T
        where
            T: Borrow<Named>,
            P: $bound,
        {
            fn run_into<O: Observer + ?Sized>(
                self,
                $problem: &P,
                q0: SVector<f64, D>,
                p0: SVector<f64, D>,
                $options: &Options,
                $observer: &mut O,
            ) -> Result<RunStats, Stopped<IntegrateError, O::Error>> {
                let $named: &Named = self.borrow();
                let $state = (q0.as_slice(), p0.as_slice());
                $run
            }
        }
    };
}

by_name!(
    kind::Degenerate,
    [],
    DegenerateLagrangian<D>,
    |named, problem, state, options, observer| {
        named.run_degenerate(&Degenerate(problem), state, options, observer)
    }
);
by_name!(kind::Holonomic<M>, [, const M: usize], HolonomicSystem<D, M>,
|named, problem, state, options, observer| {
    named.run(&Holonomic::<P, D, M>(problem), state, options, observer)
});
by_name!(kind::Implicit<M>, [, const M: usize], ImplicitDae<D, M>,
|named, problem, state, options, observer| {
    named.run(&Implicit::<P, D, M>(problem), state, options, observer)
});
by_name!(kind::Hamiltonian<M>, [, const M: usize], HamiltonianDae<D, M>,
|named, problem, state, options, observer| {
    named.run(&Hamiltonian::<P, D, M>(problem), state, options, observer)
});
by_name!(
    route::ImplicitOde,
    [],
    Lagrangian<D>,
    |named, problem, state, options, observer| {
        let ode = LagrangianOde(problem);
        named.run(&Implicit::<_, D, 0>(&ode), state, options, observer)
    }
);
