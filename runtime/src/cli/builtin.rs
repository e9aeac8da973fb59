//! The built-in degenerate Lagrangian problems as one type, so that each generated stepper is
//! instantiated once for all of them (a match per kernel call, against three instantiations
//! of every stepper).

use crate::problem::{DegenerateLagrangian, Matrix, Vector};
use crate::problems::{DegeneratePendulum, LotkaVolterra2d, LotkaVolterra2dSingular};

/// One of the shipped degenerate Lagrangian problems.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Builtin {
    /// Lotka–Volterra 2d, standard gauge.
    LotkaVolterra(LotkaVolterra2d),
    /// Lotka–Volterra 2d, singular gauge.
    LotkaVolterraSingular(LotkaVolterra2dSingular),
    /// The degenerate pendulum.
    DegeneratePendulum(DegeneratePendulum),
}

/// Forwards a kernel to the problem inside.
macro_rules! forward {
    ($self:ident . $kernel:ident($($arg:ident),*)) => {
        match $self {
            Builtin::LotkaVolterra(p) => p.$kernel($($arg),*),
            Builtin::LotkaVolterraSingular(p) => p.$kernel($($arg),*),
            Builtin::DegeneratePendulum(p) => p.$kernel($($arg),*),
        }
    };
}

impl DegenerateLagrangian<2> for Builtin {
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
}
