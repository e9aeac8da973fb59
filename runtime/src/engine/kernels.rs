//! [`Kernels`]: a problem as the engine sees it, every kernel and partial written into caller
//! slices of run-time length; and the views of const-generic problems (a derive, a built-in
//! problem) through it, one per problem trait.

use super::access::{self, Work};
use super::fusion::{Call, Fused};
use crate::integrate::equations::on_slices;
use crate::kind;
use crate::layout::Dims;
use crate::problem::{
    DaeConstraint, DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae, Matrix,
    Vector,
};
use sparkgen_description::structure::{AtomKind, DaeFunction, Kernel, ProblemKind};

/// A problem of run-time size: `D` coordinates, `M` constraints, its kernels evaluated into
/// slices. Vectors are `D` or `M` long; matrices are row-major (`rows × cols`: the partial of a
/// kernel with respect to one argument, e.g. `J = ∂ϑ/∂q` is `M × D`).
///
/// The kernels are those of the problem's kind ([`Kernel::exists_for`]): for a degenerate
/// Lagrangian the map `ϑ(q)` and the gradient `∇H(q)`, for a holonomic system `c(q)` and
/// `∇V(q)` with the constant `M⁻¹`, for the DAEs their functions ([`DaeFunction`]). The engine
/// checks a method's kind against [`Kernels::kind`] before it asks for any kernel; a kernel the
/// kind does not have is written as NaN.
pub trait Kernels {
    /// The problem's kind.
    fn kind(&self) -> ProblemKind;
    /// Its widths `D`, `M` (`M = D` for a degenerate Lagrangian).
    fn dims(&self) -> Dims;
    /// The vector kernel `kernel` (`Map`, `Gradient` or `Dae(f)`) at `args` into `out`.
    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]);
    /// The matrix `atom` (`J`, `Hessian`, `DJacT`, `DJac`, `MassInverse`, `DaePartial`) at
    /// `args` into `out`, row-major.
    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]);

    /// The kernel calls `calls` at one point, reading `args` argument slices, as one
    /// evaluation that computes what they share once, with every output bit for bit what the
    /// calls give one by one ([`Fused`]); `None`, the default, where each call is evaluated on
    /// its own (compiled kernels, whose shared subexpressions the compiler already merges).
    fn fuse(&self, _calls: &[Call], _args: usize) -> Option<Fused> {
        None
    }

    /// A velocity at `(q, p)` into `v`, from which the stage velocities' initial guess is
    /// extrapolated (with `multiplier`, the consistent `λ̂` where the velocity depends on it);
    /// `false` where the problem determines none. By default from the kernels of a degenerate
    /// Lagrangian, a holonomic system or a Hamiltonian DAE ([`Work`](super::Work)); an
    /// implicit DAE has none by default.
    fn velocity(
        &self,
        q: &[f64],
        p: &[f64],
        multiplier: Option<&[f64]>,
        v: &mut [f64],
        work: &mut Work,
    ) -> bool {
        access::velocity(self, q, p, multiplier, v, work)
    }

    /// The momentum rate `ṗ` at `(q, p)` into `p_dot` (`D` long) with the multiplier `λ` it
    /// holds into `lambda` (`M` long), from which the stage momenta and multipliers are
    /// extrapolated; `false` where the problem determines none. By default with the index-1
    /// multiplier of a holonomic system or the multiplier of the hidden constraint of a
    /// Hamiltonian DAE ([`Work`](super::Work)).
    fn momentum_rate(
        &self,
        q: &[f64],
        p: &[f64],
        p_dot: &mut [f64],
        lambda: &mut [f64],
        work: &mut Work,
    ) -> bool {
        access::momentum_rate(self, q, p, p_dot, lambda, work)
    }

    /// The residual of the algebraic constraint at `(q, p)` (`|p − ϑ(q)|∞`, `|c(q)|∞`,
    /// `|φ(q, p)|∞`).
    fn constraint(&self, q: &[f64], p: &[f64], work: &mut Work) -> f64 {
        access::constraint(self, q, p, work)
    }

    /// A momentum consistent with `q` in closed form into `p` (`ϑ(q)`); `false` where the
    /// kind has none.
    fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool {
        access::consistent_momentum(self, q, p)
    }

    /// The multiplier `λ̂` consistent with `(q, p)` into `lambda` (`M` long), from which a
    /// method that carries one starts; `Err` with the residual where none is found. By default
    /// that of a DAE's hidden constraint, zero for the other kinds ([`Work`](super::Work)).
    fn initial_multiplier(
        &self,
        q: &[f64],
        p: &[f64],
        lambda: &mut [f64],
        work: &mut Work,
    ) -> Result<(), f64> {
        access::hidden_multiplier(self, q, p, lambda, work)
    }

    /// The energy of a state, if the problem has one (`work` for what its evaluation needs).
    fn energy(&self, q: &[f64], p: &[f64], work: &mut Work) -> Option<f64> {
        let _ = (q, p, work);
        None
    }

    /// Compiles what the problem evaluates at every step to machine code, before a run
    /// (a problem file's methods); nothing by default (compiled problems are machine code).
    fn compile(&self) {}

    /// The differential `dφ = (∂φ/∂q, ∂φ/∂p)` of the constraint a carried multiplier belongs
    /// to, at `(q, p)` (`M × D` blocks, row-major); `false` where the problem has none. By
    /// default `(−∂ϑ/∂q, I)` for a degenerate Lagrangian and `(∂φ/∂q, ∂φ/∂p)` for a DAE
    /// ([`Work`](super::Work)).
    fn constraint_differential(
        &self,
        q: &[f64],
        p: &[f64],
        phi_q: &mut [f64],
        phi_p: &mut [f64],
    ) -> bool {
        access::constraint_differential(self, q, p, phi_q, phi_p)
    }
}

/// The state-level methods of [`Kernels`] for a compiled problem `P` of the kind `$access`:
/// the [`crate::kind::Access`] the compiled steppers call, on slices.
macro_rules! compiled_access {
    ($access:ty) => {
        fn velocity(
            &self,
            q: &[f64],
            p: &[f64],
            multiplier: Option<&[f64]>,
            v: &mut [f64],
            _: &mut Work,
        ) -> bool {
            on_slices::velocity::<$access, P, D>(self.0, q, p, multiplier, v)
        }

        fn constraint(&self, q: &[f64], p: &[f64], _: &mut Work) -> f64 {
            on_slices::constraint::<$access, P, D>(self.0, q, p)
        }

        fn consistent_momentum(&self, q: &[f64], p: &mut [f64]) -> bool {
            on_slices::consistent_momentum::<$access, P, D>(self.0, q, p)
        }

        fn initial_multiplier(
            &self,
            q: &[f64],
            p: &[f64],
            lambda: &mut [f64],
            _: &mut Work,
        ) -> Result<(), f64> {
            on_slices::initial_multiplier::<$access, P, D>(self.0, q, p, lambda)
        }

        fn energy(&self, q: &[f64], p: &[f64], _: &mut Work) -> Option<f64> {
            on_slices::energy::<$access, P, D>(self.0, q, p)
        }

        fn constraint_differential(
            &self,
            q: &[f64],
            p: &[f64],
            phi_q: &mut [f64],
            phi_p: &mut [f64],
        ) -> bool {
            on_slices::constraint_differential::<$access, P, D>(self.0, q, p, phi_q, phi_p)
        }
    };
}

fn vector<const N: usize>(x: &[f64]) -> Vector<N> {
    Vector::<N>::from_column_slice(x)
}

/// Writes `m` row-major into `out` (nothing for a matrix without columns, e.g. `D × 0`).
fn put<const R: usize, const C: usize>(m: &Matrix<R, C>, out: &mut [f64]) {
    for (r, row) in out.chunks_exact_mut(C.max(1)).enumerate() {
        for (c, o) in row.iter_mut().enumerate() {
            *o = m[(r, c)];
        }
    }
}

fn put_vector<const N: usize>(v: &Vector<N>, out: &mut [f64]) {
    out.copy_from_slice(v.as_slice());
}

/// A [`DegenerateLagrangian<D>`] as [`Kernels`]: each call converts the slices to fixed-size
/// vectors and calls the trait method the compiled steppers call.
#[derive(Clone, Copy, Debug)]
pub struct Degenerate<'a, P, const D: usize>(pub &'a P);

impl<P: DegenerateLagrangian<D>, const D: usize> Kernels for Degenerate<'_, P, D> {
    fn kind(&self) -> ProblemKind {
        ProblemKind::DegenerateLagrangian
    }

    fn dims(&self) -> Dims {
        Dims::uniform(D)
    }

    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        let q = vector::<D>(args[0]);
        match kernel {
            Kernel::Map => put_vector(&self.0.theta(&q), out),
            Kernel::Gradient => put_vector(&self.0.hamiltonian_gradient(&q), out),
            _ => out.fill(f64::NAN),
        }
    }

    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        let q = vector::<D>(args[0]);
        match atom {
            AtomKind::J => put(&self.0.theta_jacobian(&q), out),
            AtomKind::Hessian => put(&self.0.hamiltonian_hessian(&q), out),
            AtomKind::DJacT => put(
                &self
                    .0
                    .jacobian_transpose_product_derivative(&q, &vector(args[1])),
                out,
            ),
            AtomKind::DJac => put(
                &self.0.jacobian_product_derivative(&q, &vector(args[1])),
                out,
            ),
            _ => out.fill(f64::NAN),
        }
    }

    compiled_access!(kind::Degenerate);
}

/// A [`HolonomicSystem<D, M>`] as [`Kernels`].
#[derive(Clone, Copy, Debug)]
pub struct Holonomic<'a, P, const D: usize, const M: usize>(pub &'a P);

impl<P: HolonomicSystem<D, M>, const D: usize, const M: usize> Kernels for Holonomic<'_, P, D, M> {
    fn kind(&self) -> ProblemKind {
        ProblemKind::Holonomic
    }

    fn dims(&self) -> Dims {
        Dims::new(D, M)
    }

    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        let q = vector::<D>(args[0]);
        match kernel {
            Kernel::Map => put_vector(&self.0.constraints(&q), out),
            Kernel::Gradient => put_vector(&self.0.potential_gradient(&q), out),
            _ => out.fill(f64::NAN),
        }
    }

    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        let q = || vector::<D>(args[0]);
        match atom {
            AtomKind::J => put(&self.0.constraint_jacobian(&q()), out),
            AtomKind::Hessian => put(&self.0.potential_hessian(&q()), out),
            AtomKind::DJacT => put(
                &self.0.constraint_force_derivative(&q(), &vector(args[1])),
                out,
            ),
            AtomKind::DJac => put(
                &self
                    .0
                    .constraint_velocity_derivative(&q(), &vector(args[1])),
                out,
            ),
            AtomKind::MassInverse => put(&self.0.inverse_mass_matrix(), out),
            _ => out.fill(f64::NAN),
        }
    }

    compiled_access!(kind::Holonomic<M>);
}

/// `u`, `g`, `φ`, which every DAE kind has, and their partials; `false` for another function.
fn dae_constraint<P: DaeConstraint<D, M>, const D: usize, const M: usize>(
    problem: &P,
    f: DaeFunction,
    partial: Option<usize>,
    args: &[&[f64]],
    out: &mut [f64],
) -> bool {
    let (q, p) = (vector::<D>(args[0]), vector::<D>(args[1]));
    let lambda = || vector::<M>(args[2]);
    match (f, partial) {
        (DaeFunction::U, None) => put_vector(&problem.u(&q, &p, &lambda()), out),
        (DaeFunction::U, Some(0)) => put(&problem.u_dq(&q, &p, &lambda()), out),
        (DaeFunction::U, Some(1)) => put(&problem.u_dp(&q, &p, &lambda()), out),
        (DaeFunction::U, Some(_)) => put(&problem.u_dlambda(&q, &p, &lambda()), out),
        (DaeFunction::G, None) => put_vector(&problem.g(&q, &p, &lambda()), out),
        (DaeFunction::G, Some(0)) => put(&problem.g_dq(&q, &p, &lambda()), out),
        (DaeFunction::G, Some(1)) => put(&problem.g_dp(&q, &p, &lambda()), out),
        (DaeFunction::G, Some(_)) => put(&problem.g_dlambda(&q, &p, &lambda()), out),
        (DaeFunction::Phi, None) => put_vector(&problem.phi(&q, &p), out),
        (DaeFunction::Phi, Some(0)) => put(&problem.phi_dq(&q, &p), out),
        (DaeFunction::Phi, Some(_)) => put(&problem.phi_dp(&q, &p), out),
        _ => return false,
    }
    true
}

/// The DAE function `kernel` by `function`; NaN for a kernel a DAE does not have.
pub(super) fn dae_vector(
    kernel: Kernel,
    out: &mut [f64],
    function: impl FnOnce(DaeFunction, &mut [f64]),
) {
    match kernel {
        Kernel::Dae(f) => function(f, out),
        _ => out.fill(f64::NAN),
    }
}

/// The partial `atom` of a DAE function with respect to its argument `k` by `function`; NaN
/// for a matrix a DAE does not have.
pub(super) fn dae_matrix(
    atom: AtomKind,
    out: &mut [f64],
    function: impl FnOnce(DaeFunction, usize, &mut [f64]),
) {
    match atom {
        AtomKind::DaePartial(f, k) => function(f, k, out),
        _ => out.fill(f64::NAN),
    }
}

/// The [`Kernels`] of a DAE view `$view` over problems of the trait `$kind`, whose functions
/// and partials its `function` evaluates.
macro_rules! dae_kernels {
    ($view:ident, $kind:ident, $access:ty) => {
        impl<P: $kind<D, M>, const D: usize, const M: usize> Kernels for $view<'_, P, D, M> {
            fn kind(&self) -> ProblemKind {
                ProblemKind::$kind
            }

            fn dims(&self) -> Dims {
                Dims::new(D, M)
            }

            fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
                dae_vector(kernel, out, |f, out| self.function(f, None, args, out));
            }

            fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
                dae_matrix(atom, out, |f, k, out| self.function(f, Some(k), args, out));
            }

            compiled_access!($access);
        }
    };
}

/// An [`ImplicitDae<D, M>`] as [`Kernels`].
#[derive(Clone, Copy, Debug)]
pub struct Implicit<'a, P, const D: usize, const M: usize>(pub &'a P);

impl<P: ImplicitDae<D, M>, const D: usize, const M: usize> Implicit<'_, P, D, M> {
    fn function(&self, f: DaeFunction, partial: Option<usize>, args: &[&[f64]], out: &mut [f64]) {
        if dae_constraint(self.0, f, partial, args, out) {
            return;
        }
        let (q, v) = (vector::<D>(args[0]), vector::<D>(args[1]));
        match (f, partial) {
            (DaeFunction::Theta, None) => put_vector(&self.0.theta(&q, &v), out),
            (DaeFunction::Theta, Some(0)) => put(&self.0.theta_dq(&q, &v), out),
            (DaeFunction::Theta, Some(_)) => put(&self.0.theta_dv(&q, &v), out),
            (DaeFunction::Force, None) => put_vector(&self.0.force(&q, &v), out),
            (DaeFunction::Force, Some(0)) => put(&self.0.force_dq(&q, &v), out),
            (DaeFunction::Force, Some(_)) => put(&self.0.force_dv(&q, &v), out),
            _ => out.fill(f64::NAN),
        }
    }
}

dae_kernels!(Implicit, ImplicitDae, kind::Implicit<M>);

/// A [`HamiltonianDae<D, M>`] as [`Kernels`].
#[derive(Clone, Copy, Debug)]
pub struct Hamiltonian<'a, P, const D: usize, const M: usize>(pub &'a P);

impl<P: HamiltonianDae<D, M>, const D: usize, const M: usize> Hamiltonian<'_, P, D, M> {
    fn function(&self, f: DaeFunction, partial: Option<usize>, args: &[&[f64]], out: &mut [f64]) {
        if dae_constraint(self.0, f, partial, args, out) {
            return;
        }
        let (q, p) = (vector::<D>(args[0]), vector::<D>(args[1]));
        let rates = || (vector::<D>(args[2]), vector::<D>(args[3]));
        match (f, partial) {
            (DaeFunction::Velocity, None) => put_vector(&self.0.velocity(&q, &p), out),
            (DaeFunction::Velocity, Some(0)) => put(&self.0.velocity_dq(&q, &p), out),
            (DaeFunction::Velocity, Some(_)) => put(&self.0.velocity_dp(&q, &p), out),
            (DaeFunction::HamiltonianForce, None) => put_vector(&self.0.force(&q, &p), out),
            (DaeFunction::HamiltonianForce, Some(0)) => put(&self.0.force_dq(&q, &p), out),
            (DaeFunction::HamiltonianForce, Some(_)) => put(&self.0.force_dp(&q, &p), out),
            (DaeFunction::Psi, partial) => {
                let (qdot, pdot) = rates();
                match partial {
                    None => put_vector(&self.0.psi(&q, &p, &qdot, &pdot), out),
                    Some(0) => put(&self.0.psi_dq(&q, &p, &qdot, &pdot), out),
                    Some(1) => put(&self.0.psi_dp(&q, &p, &qdot, &pdot), out),
                    Some(2) => put(&self.0.psi_dqdot(&q, &p, &qdot, &pdot), out),
                    Some(_) => put(&self.0.psi_dpdot(&q, &p, &qdot, &pdot), out),
                }
            }
            _ => out.fill(f64::NAN),
        }
    }
}

dae_kernels!(Hamiltonian, HamiltonianDae, kind::Hamiltonian<M>);
