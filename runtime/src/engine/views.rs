//! The DAE views of a degenerate Lagrangian `L(q, v) = ϑ(q)·v − H(q)` of run-time size, as
//! [`Kernels`] over the Lagrangian's own kernels (`ϑ`, `∇H`, `J = ∂ϑ/∂q`, `∇²H`, `∂(Jᵀv)/∂q`,
//! `∂(Jv)/∂q`): what [`crate::problem::LagrangianDae`] and [`crate::problem::DiracHamiltonian`]
//! are for a problem of fixed size, so that the implicit- and Hamiltonian-DAE methods run on a
//! problem file of any `D`.
//!
//! Both have `M = D` multipliers, Dirac's primary constraint `φ(q, p) = p − ϑ(q)` and the
//! projections `u = λ`, `g = Jᵀλ`:
//!
//! ```text
//! DaeForm::LagrangianDae:  ϑ(q, v) = ϑ(q),  f(q, v) = Jᵀv − ∇H(q)
//! DaeForm::Dirac:          v(q, p) = 0,     f(q, p) = −∇H(q),     ψ = ṗ − J q̇
//! ```
//!
//! The multiplier of the hidden constraint and the residual `|φ|∞` come from these kernels
//! ([`Work`](super::Work)); the Lagrangian DAE's velocity guess is the vector field of
//! `Ω(q) v = −∇H(q)` (`Ω = J − Jᵀ`), zero where `Ω(q)` is singular; the energy is `H(q)`.

use super::Kernels;
use super::access::{self, Work};
use super::kernels::{dae_matrix, dae_vector};
use crate::layout::Dims;
use sparkgen_description::structure::{AtomKind, DaeFunction, Kernel, ProblemKind};
use std::cell::RefCell;

/// The degenerate Lagrangian `K` with a `D × D` matrix of scratch, which the views' kernels
/// (`Jᵀv`, `Jᵀλ`, `∂(Jᵀv)/∂q − ∇²H`) compose in; allocated once.
#[derive(Clone, Debug)]
struct Inner<'a, K: ?Sized> {
    problem: &'a K,
    scratch: RefCell<Vec<f64>>,
}

impl<'a, K: Kernels + ?Sized> Inner<'a, K> {
    /// `None` unless `problem` is a degenerate Lagrangian whose `D × D` matrices fit in memory.
    fn new(problem: &'a K) -> Option<Self> {
        let d = problem.dims().coordinates;
        let fits = problem.kind() == ProblemKind::DegenerateLagrangian;
        let scratch = vec![0.0; d.checked_mul(d).filter(|_| fits)?];
        Some(Inner {
            problem,
            scratch: RefCell::new(scratch),
        })
    }

    fn d(&self) -> usize {
        self.problem.dims().coordinates
    }

    /// `out = Jᵀx − y` with `J = ∂ϑ/∂q` at `q` and `y` the entries of `out` on entry.
    fn transpose_product(&self, q: &[f64], x: &[f64], out: &mut [f64]) {
        let d = self.d();
        let j = &mut self.scratch.borrow_mut()[..];
        self.problem.matrix(AtomKind::J, &[q], j);
        for (c, o) in out.iter_mut().enumerate() {
            let jt_x: f64 = (0..d).map(|r| j[r * d + c] * x[r]).sum();
            *o = jt_x - *o;
        }
    }

    /// `Jᵀ` at `q` into the `D × D` `out`.
    fn jacobian_transpose(&self, q: &[f64], out: &mut [f64]) {
        self.problem.matrix(AtomKind::J, &[q], out);
        access::transpose(out, self.d());
    }

    /// `−J` at `q` into the `D × D` `out`.
    fn negated_jacobian(&self, q: &[f64], out: &mut [f64]) {
        self.problem.matrix(AtomKind::J, &[q], out);
        Self::negate(out);
    }

    /// The identity, `D × D`, into `out`.
    fn identity(&self, out: &mut [f64]) {
        access::identity(out, self.d());
    }

    /// `out = −out`.
    fn negate(out: &mut [f64]) {
        out.iter_mut().for_each(|x| *x = -*x);
    }

    /// The constraint part both views share: `u = λ`, `g = Jᵀλ`, `φ = p − ϑ(q)` (`args` are
    /// `(q, p, λ)` or `(q, p)`); `false` for another function.
    fn constraint(&self, f: DaeFunction, args: &[&[f64]], out: &mut [f64]) -> bool {
        match f {
            DaeFunction::U => out.copy_from_slice(args[2]),
            DaeFunction::G => {
                out.fill(0.0);
                self.transpose_product(args[0], args[2], out);
            }
            DaeFunction::Phi => {
                self.problem.vector(Kernel::Map, &[args[0]], out);
                out.iter_mut().zip(args[1]).for_each(|(o, p)| *o = p - *o);
            }
            _ => return false,
        }
        true
    }

    /// The partials of [`Inner::constraint`] with respect to argument `k`: `∂u/∂λ = I`,
    /// `∂g/∂q = ∂(Jᵀλ)/∂q`, `∂g/∂λ = Jᵀ`, `∂φ/∂q = −J`, `∂φ/∂p = I`, zero otherwise; `false`
    /// for another function.
    fn constraint_partial(
        &self,
        f: DaeFunction,
        k: usize,
        args: &[&[f64]],
        out: &mut [f64],
    ) -> bool {
        match (f, k) {
            (DaeFunction::U, 2) | (DaeFunction::Phi, 1) => self.identity(out),
            (DaeFunction::U, _) | (DaeFunction::G, 1) => out.fill(0.0),
            (DaeFunction::G, 0) => self
                .problem
                .matrix(AtomKind::DJacT, &[args[0], args[2]], out),
            (DaeFunction::G, _) => self.jacobian_transpose(args[0], out),
            (DaeFunction::Phi, _) => self.negated_jacobian(args[0], out),
            _ => return false,
        }
        true
    }
}

/// Which DAE a [`DaeView`] sees a degenerate Lagrangian as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DaeForm {
    /// Jay's index-2 implicit DAE ([`crate::problem::LagrangianDae`]).
    LagrangianDae,
    /// The Hamiltonian DAE of Dirac's total Hamiltonian
    /// ([`crate::problem::DiracHamiltonian`]).
    Dirac,
}

/// A degenerate Lagrangian's borrowed kernels `K` seen as one of its DAEs.
#[derive(Clone, Debug)]
pub struct DaeView<'a, K: ?Sized> {
    inner: Inner<'a, K>,
    form: DaeForm,
}

impl<'a, K: Kernels + ?Sized> DaeView<'a, K> {
    /// The view of `problem` as `form`; `None` unless it is a degenerate Lagrangian whose
    /// `D × D` matrices fit in memory.
    pub fn new(problem: &'a K, form: DaeForm) -> Option<Self> {
        Inner::new(problem).map(|inner| DaeView { inner, form })
    }

    /// `ϑ(q, v) = ϑ(q)`, `f(q, v) = Jᵀv − ∇H(q)` and their partials.
    fn lagrangian_dae(
        &self,
        f: DaeFunction,
        partial: Option<usize>,
        args: &[&[f64]],
        out: &mut [f64],
    ) -> bool {
        let inner = &self.inner;
        match (f, partial) {
            (DaeFunction::Theta, None) => inner.problem.vector(Kernel::Map, &[args[0]], out),
            (DaeFunction::Theta, Some(0)) => inner.problem.matrix(AtomKind::J, &[args[0]], out),
            (DaeFunction::Theta, Some(_)) => out.fill(0.0),
            (DaeFunction::Force, None) => {
                inner.problem.vector(Kernel::Gradient, &[args[0]], out);
                inner.transpose_product(args[0], args[1], out);
            }
            (DaeFunction::Force, Some(0)) => {
                // ∂(Jᵀv)/∂q − ∇²H.
                inner.problem.matrix(AtomKind::DJacT, args, out);
                let hessian = &mut inner.scratch.borrow_mut()[..];
                inner.problem.matrix(AtomKind::Hessian, &[args[0]], hessian);
                out.iter_mut()
                    .zip(hessian.iter())
                    .for_each(|(o, h)| *o -= h);
            }
            (DaeFunction::Force, Some(_)) => inner.jacobian_transpose(args[0], out),
            _ => return false,
        }
        true
    }

    /// `v(q, p) = 0`, `f(q, p) = −∇H(q)`, `ψ = ṗ − J q̇` and their partials.
    fn dirac(
        &self,
        f: DaeFunction,
        partial: Option<usize>,
        args: &[&[f64]],
        out: &mut [f64],
    ) -> bool {
        let inner = &self.inner;
        match (f, partial) {
            (DaeFunction::Velocity, _) | (DaeFunction::HamiltonianForce, Some(1)) => out.fill(0.0),
            (DaeFunction::HamiltonianForce, None) => {
                inner.problem.vector(Kernel::Gradient, &[args[0]], out);
                Inner::<K>::negate(out);
            }
            (DaeFunction::HamiltonianForce, Some(_)) => {
                inner.problem.matrix(AtomKind::Hessian, &[args[0]], out);
                Inner::<K>::negate(out);
            }
            (DaeFunction::Psi, None) => {
                let d = inner.d();
                let j = &mut inner.scratch.borrow_mut()[..];
                inner.problem.matrix(AtomKind::J, &[args[0]], j);
                for (r, o) in out.iter_mut().enumerate() {
                    let j_qdot: f64 = (0..d).map(|c| j[r * d + c] * args[2][c]).sum();
                    *o = args[3][r] - j_qdot;
                }
            }
            // ∂ψ/∂q = −∂(J q̇)/∂q, ∂ψ/∂p = 0, ∂ψ/∂q̇ = −J, ∂ψ/∂ṗ = I.
            (DaeFunction::Psi, Some(0)) => {
                inner
                    .problem
                    .matrix(AtomKind::DJac, &[args[0], args[2]], out);
                Inner::<K>::negate(out);
            }
            (DaeFunction::Psi, Some(1)) => out.fill(0.0),
            (DaeFunction::Psi, Some(2)) => inner.negated_jacobian(args[0], out),
            (DaeFunction::Psi, Some(_)) => inner.identity(out),
            _ => return false,
        }
        true
    }

    /// The function `f` (or its partial) of this view's DAE, NaN for one it does not have.
    fn function(&self, f: DaeFunction, partial: Option<usize>, args: &[&[f64]], out: &mut [f64]) {
        let own = match self.form {
            DaeForm::LagrangianDae => self.lagrangian_dae(f, partial, args, out),
            DaeForm::Dirac => self.dirac(f, partial, args, out),
        };
        let shared = own
            || match partial {
                None => self.inner.constraint(f, args, out),
                Some(k) => self.inner.constraint_partial(f, k, args, out),
            };
        if !shared {
            out.fill(f64::NAN);
        }
    }
}

impl<K: Kernels + ?Sized> Kernels for DaeView<'_, K> {
    fn compile(&self) {
        self.inner.problem.compile();
    }

    fn kind(&self) -> ProblemKind {
        match self.form {
            DaeForm::LagrangianDae => ProblemKind::ImplicitDae,
            DaeForm::Dirac => ProblemKind::HamiltonianDae,
        }
    }

    fn dims(&self) -> Dims {
        self.inner.problem.dims()
    }

    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        dae_vector(kernel, out, |f, out| self.function(f, None, args, out));
    }

    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        dae_matrix(atom, out, |f, k, out| self.function(f, Some(k), args, out));
    }

    /// Jay's DAE: the vector field of `Ω(q) v = −∇H(q)`, zero where `Ω(q)` is singular.
    /// Dirac's: `q̇ = u(λ) = λ` ([`Work`](super::Work)).
    fn velocity(
        &self,
        q: &[f64],
        p: &[f64],
        multiplier: Option<&[f64]>,
        v: &mut [f64],
        work: &mut Work,
    ) -> bool {
        match self.form {
            DaeForm::LagrangianDae => {
                if !access::velocity(self.inner.problem, q, p, None, v, work) {
                    v.fill(0.0);
                }
                true
            }
            DaeForm::Dirac => access::velocity(self, q, p, multiplier, v, work),
        }
    }

    /// `H(q)`.
    fn energy(&self, q: &[f64], p: &[f64], work: &mut Work) -> Option<f64> {
        self.inner.problem.energy(q, p, work)
    }
}
