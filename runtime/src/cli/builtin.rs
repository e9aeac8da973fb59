//! The built-in degenerate Lagrangian problems and those of problem files as one type, so that
//! each generated stepper is instantiated once for all of them (a match per kernel call,
//! against four instantiations of every stepper); [`OrFile`] does the same for each shape of
//! holonomic system, and [`HamiltonianBuiltin`] for the Hamiltonian DAEs of shape (2, 2).

use crate::problem::{
    DaeConstraint, DegenerateLagrangian, DiracHamiltonian, HamiltonianDae, HolonomicSystem, Matrix,
    Vector,
};
use crate::problem_file::{DegenerateLagrangianView, HolonomicView};
use crate::problems::{
    DegeneratePendulum, LotkaVolterra2d, LotkaVolterra2dSingular, LotkaVolterraDirac,
};

/// One of the shipped degenerate Lagrangian problems, or a problem file's.
#[derive(Clone, Copy, Debug)]
pub enum Builtin<'a> {
    /// Lotka–Volterra 2d, standard gauge.
    LotkaVolterra(LotkaVolterra2d),
    /// Lotka–Volterra 2d, singular gauge.
    LotkaVolterraSingular(LotkaVolterra2dSingular),
    /// The degenerate pendulum.
    DegeneratePendulum(DegeneratePendulum),
    /// A problem file of two coordinates, evaluated by the interpreter.
    File(DegenerateLagrangianView<'a, 2>),
}

/// Forwards a kernel to the problem inside.
macro_rules! forward {
    ($self:ident . $kernel:ident($($arg:ident),*)) => {
        match $self {
            Builtin::LotkaVolterra(p) => p.$kernel($($arg),*),
            Builtin::LotkaVolterraSingular(p) => p.$kernel($($arg),*),
            Builtin::DegeneratePendulum(p) => p.$kernel($($arg),*),
            Builtin::File(p) => p.$kernel($($arg),*),
        }
    };
}

impl DegenerateLagrangian<2> for Builtin<'_> {
    fn theta(&self, q: &Vector<2>) -> Vector<2> {
        forward!(self.theta(q))
    }
    fn theta_jacobian(&self, q: &Vector<2>) -> Matrix<2, 2> {
        forward!(self.theta_jacobian(q))
    }
    fn hamiltonian(&self, q: &Vector<2>) -> f64 {
        forward!(self.hamiltonian(q))
    }
    fn hamiltonian_gradient(&self, q: &Vector<2>) -> Vector<2> {
        forward!(self.hamiltonian_gradient(q))
    }
    fn hamiltonian_hessian(&self, q: &Vector<2>) -> Matrix<2, 2> {
        forward!(self.hamiltonian_hessian(q))
    }
    fn jacobian_transpose_product_derivative(&self, q: &Vector<2>, w: &Vector<2>) -> Matrix<2, 2> {
        forward!(self.jacobian_transpose_product_derivative(q, w))
    }
    fn jacobian_product_derivative(&self, q: &Vector<2>, v: &Vector<2>) -> Matrix<2, 2> {
        forward!(self.jacobian_product_derivative(q, v))
    }
    fn stage_point(&self, q: &Vector<2>) -> (Vector<2>, Matrix<2, 2>, Vector<2>) {
        forward!(self.stage_point(q))
    }
    fn stage_point_derivatives(
        &self,
        q: &Vector<2>,
        w: &Vector<2>,
    ) -> (Matrix<2, 2>, Matrix<2, 2>, Matrix<2, 2>) {
        forward!(self.stage_point_derivatives(q, w))
    }
}

/// A built-in holonomic system `B` of shape `(D, M)`, or a problem file's of the same shape.
#[derive(Clone, Copy, Debug)]
pub enum OrFile<'a, B, const D: usize, const M: usize> {
    /// The built-in problem.
    Builtin(B),
    /// A problem file, evaluated by the interpreter.
    File(HolonomicView<'a, D, M>),
}

/// Forwards a kernel to the system inside.
macro_rules! forward_holonomic {
    ($self:ident . $kernel:ident($($arg:ident),*)) => {
        match $self {
            OrFile::Builtin(p) => p.$kernel($($arg),*),
            OrFile::File(p) => p.$kernel($($arg),*),
        }
    };
}

impl<B: HolonomicSystem<D, M>, const D: usize, const M: usize> HolonomicSystem<D, M>
    for OrFile<'_, B, D, M>
{
    fn mass_matrix(&self) -> Matrix<D, D> {
        forward_holonomic!(self.mass_matrix())
    }
    fn inverse_mass_matrix(&self) -> Matrix<D, D> {
        forward_holonomic!(self.inverse_mass_matrix())
    }
    fn potential(&self, q: &Vector<D>) -> f64 {
        forward_holonomic!(self.potential(q))
    }
    fn potential_gradient(&self, q: &Vector<D>) -> Vector<D> {
        forward_holonomic!(self.potential_gradient(q))
    }
    fn potential_hessian(&self, q: &Vector<D>) -> Matrix<D, D> {
        forward_holonomic!(self.potential_hessian(q))
    }
    fn constraints(&self, q: &Vector<D>) -> Vector<M> {
        forward_holonomic!(self.constraints(q))
    }
    fn constraint_jacobian(&self, q: &Vector<D>) -> Matrix<M, D> {
        forward_holonomic!(self.constraint_jacobian(q))
    }
    fn constraint_force_derivative(&self, q: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D> {
        forward_holonomic!(self.constraint_force_derivative(q, lambda))
    }
    fn constraint_velocity_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<M, D> {
        forward_holonomic!(self.constraint_velocity_derivative(q, v))
    }
    fn stage_point(&self, q: &Vector<D>) -> (Vector<M>, Matrix<M, D>, Vector<D>) {
        forward_holonomic!(self.stage_point(q))
    }
    fn stage_point_derivatives(
        &self,
        q: &Vector<D>,
        lambda: &Vector<M>,
    ) -> (Matrix<M, D>, Matrix<D, D>, Matrix<D, D>) {
        forward_holonomic!(self.stage_point_derivatives(q, lambda))
    }
    fn velocity(&self, p: &Vector<D>) -> Vector<D> {
        forward_holonomic!(self.velocity(p))
    }
    fn hamiltonian(&self, q: &Vector<D>, p: &Vector<D>) -> f64 {
        forward_holonomic!(self.hamiltonian(q, p))
    }
}

/// A Hamiltonian DAE of shape (2, 2) on the command line: the view of a degenerate Lagrangian
/// (`P` is [`Builtin`]), or a built-in Hamiltonian DAE.
#[derive(Clone, Copy, Debug)]
pub enum HamiltonianBuiltin<'a, P> {
    /// The view [`DiracHamiltonian`] of a degenerate Lagrangian.
    Dirac(DiracHamiltonian<&'a P>),
    /// Lotka–Volterra from its Hamiltonian and Dirac constraint.
    LotkaVolterra(LotkaVolterraDirac),
}

/// Forwards a kernel to the Hamiltonian DAE inside.
macro_rules! forward_hamiltonian {
    ($self:ident . $kernel:ident($($arg:ident),*)) => {
        match $self {
            HamiltonianBuiltin::Dirac(p) => p.$kernel($($arg),*),
            HamiltonianBuiltin::LotkaVolterra(p) => p.$kernel($($arg),*),
        }
    };
}

impl<P: DegenerateLagrangian<2>> DaeConstraint<2, 2> for HamiltonianBuiltin<'_, P> {
    fn u(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Vector<2> {
        forward_hamiltonian!(self.u(q, p, lambda))
    }
    fn u_dq(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.u_dq(q, p, lambda))
    }
    fn u_dp(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.u_dp(q, p, lambda))
    }
    fn u_dlambda(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.u_dlambda(q, p, lambda))
    }
    fn g(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Vector<2> {
        forward_hamiltonian!(self.g(q, p, lambda))
    }
    fn g_dq(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.g_dq(q, p, lambda))
    }
    fn g_dp(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.g_dp(q, p, lambda))
    }
    fn g_dlambda(&self, q: &Vector<2>, p: &Vector<2>, lambda: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.g_dlambda(q, p, lambda))
    }
    fn phi(&self, q: &Vector<2>, p: &Vector<2>) -> Vector<2> {
        forward_hamiltonian!(self.phi(q, p))
    }
    fn phi_dq(&self, q: &Vector<2>, p: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.phi_dq(q, p))
    }
    fn phi_dp(&self, q: &Vector<2>, p: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.phi_dp(q, p))
    }
}

impl<P: DegenerateLagrangian<2>> HamiltonianDae<2, 2> for HamiltonianBuiltin<'_, P> {
    fn velocity(&self, q: &Vector<2>, p: &Vector<2>) -> Vector<2> {
        forward_hamiltonian!(self.velocity(q, p))
    }
    fn velocity_dq(&self, q: &Vector<2>, p: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.velocity_dq(q, p))
    }
    fn velocity_dp(&self, q: &Vector<2>, p: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.velocity_dp(q, p))
    }
    fn force(&self, q: &Vector<2>, p: &Vector<2>) -> Vector<2> {
        forward_hamiltonian!(self.force(q, p))
    }
    fn force_dq(&self, q: &Vector<2>, p: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.force_dq(q, p))
    }
    fn force_dp(&self, q: &Vector<2>, p: &Vector<2>) -> Matrix<2, 2> {
        forward_hamiltonian!(self.force_dp(q, p))
    }
    fn psi_dq(
        &self,
        q: &Vector<2>,
        p: &Vector<2>,
        qdot: &Vector<2>,
        pdot: &Vector<2>,
    ) -> Matrix<2, 2> {
        forward_hamiltonian!(self.psi_dq(q, p, qdot, pdot))
    }
    fn psi_dp(
        &self,
        q: &Vector<2>,
        p: &Vector<2>,
        qdot: &Vector<2>,
        pdot: &Vector<2>,
    ) -> Matrix<2, 2> {
        forward_hamiltonian!(self.psi_dp(q, p, qdot, pdot))
    }
    fn hamiltonian(&self, q: &Vector<2>, p: &Vector<2>) -> Option<f64> {
        forward_hamiltonian!(self.hamiltonian(q, p))
    }
}
