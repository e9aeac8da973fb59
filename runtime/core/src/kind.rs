//! What time stepping needs of a problem besides the stage equations, per problem kind: a
//! velocity for the initial guess, the residual of the algebraic constraint, a consistent
//! momentum, and the energy. Every stepper names its kind ([`crate::stage::StageMethod::Kind`]),
//! so one driver serves degenerate Lagrangians, implicit and Hamiltonian DAEs and holonomic
//! systems.

use crate::problem::{
    DaeConstraint, DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae,
};
use crate::solve::Lu;
use nalgebra::{SMatrix, SVector};

/// What the constraint residual of each kind measures, as reports name it.
pub mod constraint_names {
    /// The primary constraint of a degenerate Lagrangian.
    pub const PRIMARY: &str = "|p − ϑ(q)|∞";
    /// The algebraic constraint of an implicit or Hamiltonian DAE.
    pub const DAE: &str = "|φ(q, p)|∞";
    /// The holonomic constraints.
    pub const HOLONOMIC: &str = "|c(q)|∞";
}

/// The state-level operations of problems `P` of one kind with `D` coordinates.
pub trait Access<P, const D: usize> {
    /// What the constraint residual measures, for reports (e.g. `|p − ϑ(q)|∞`).
    const CONSTRAINT: &'static str;

    /// A velocity at `(q, p)`, whose Hermite extrapolation over the step starts Newton's method
    /// on the velocity stages; `None` where the problem does not determine one.
    fn velocity(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<SVector<f64, D>>;

    /// The velocity at `(q, p)` when the multiplier consistent with the state, `λ̂` (`M` long,
    /// from [`Access::initial_multiplier`]), is already known: [`Access::velocity`] unless the
    /// velocity depends on `λ̂`.
    fn velocity_with_multiplier(
        problem: &P,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        _lambda: &[f64],
    ) -> Option<SVector<f64, D>> {
        Self::velocity(problem, q, p)
    }

    /// The residual `|φ(q, p)|∞` of the algebraic constraint at a state.
    fn constraint(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> f64;

    /// A momentum consistent with `q` in closed form (`ϑ(q)`), if the kind has one.
    fn consistent_momentum(problem: &P, q: &SVector<f64, D>) -> Option<SVector<f64, D>>;

    /// The energy of a state, if the problem has one.
    fn energy(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<f64>;

    /// Writes into `lambda` (`M` long) the multiplier consistent with `(q, p)`, with which a
    /// method that carries one starts (`λ_0`); `Err` with the residual it stopped at where none
    /// is found. Zero unless the kind says otherwise.
    fn initial_multiplier(
        _problem: &P,
        _q: &SVector<f64, D>,
        _p: &SVector<f64, D>,
        lambda: &mut [f64],
    ) -> Result<(), f64> {
        lambda.fill(0.0);
        Ok(())
    }

    /// Writes the momentum rate `ṗ` at `(q, p)` into `p_dot` and the multiplier `λ` (`M` long)
    /// that holds it into `lambda`, from which the stage momenta and multipliers are
    /// extrapolated; `false` (the default) where the kind determines none.
    fn momentum_rate(
        _problem: &P,
        _state: State<'_, D>,
        _p_dot: &mut [f64],
        _lambda: &mut [f64],
    ) -> bool {
        false
    }

    /// The differential of the algebraic constraint at the state `(q, p)`,
    /// `dφ = ∂φ/∂q δq + ∂φ/∂p δp`: the blocks `∂φ/∂q` into `phi_q` and `∂φ/∂p` into `phi_p`
    /// (`M × D` each, row-major). `false` where the kind carries no multiplier (for the
    /// multiplier's amplification, [`crate::amplification::multiplier_amplification`]).
    fn constraint_differential(
        _problem: &P,
        _state: State<'_, D>,
        _phi_q: &mut [f64],
        _phi_p: &mut [f64],
    ) -> bool {
        false
    }
}

/// A state `(q, p)`.
pub type State<'a, const D: usize> = (&'a SVector<f64, D>, &'a SVector<f64, D>);

/// [`Access::constraint_differential`] from the blocks `∂φ/∂q`, `∂φ/∂p` (M×D).
fn differential<const D: usize, const M: usize>(
    phi_q: SMatrix<f64, M, D>,
    phi_p: SMatrix<f64, M, D>,
    out_q: &mut [f64],
    out_p: &mut [f64],
) -> bool {
    for (block, out) in [(phi_q, out_q), (phi_p, out_p)] {
        for (r, row) in out.chunks_exact_mut(D).take(M).enumerate() {
            for (c, o) in row.iter_mut().enumerate() {
                *o = block[(r, c)];
            }
        }
    }
    true
}

/// Degenerate Lagrangians `L = ϑ(q)·v − H(q)`: `v(q)` solves `Ω(q) v = −∇H(q)`, `φ = p − ϑ(q)`,
/// energy `H(q)`.
#[derive(Clone, Copy, Debug)]
pub struct Degenerate;

impl<P: DegenerateLagrangian<D>, const D: usize> Access<P, D> for Degenerate {
    const CONSTRAINT: &'static str = constraint_names::PRIMARY;

    fn velocity(problem: &P, q: &SVector<f64, D>, _: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        problem.vector_field(q)
    }

    fn constraint(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> f64 {
        (p - problem.theta(q)).amax()
    }

    fn consistent_momentum(problem: &P, q: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        Some(problem.theta(q))
    }

    fn energy(problem: &P, q: &SVector<f64, D>, _: &SVector<f64, D>) -> Option<f64> {
        Some(problem.hamiltonian(q))
    }

    /// `dφ = (−∂ϑ/∂q, I)`.
    fn constraint_differential(
        problem: &P,
        (q, _): State<'_, D>,
        phi_q: &mut [f64],
        phi_p: &mut [f64],
    ) -> bool {
        let identity = SMatrix::<f64, D, D>::identity();
        differential(-problem.theta_jacobian(q), identity, phi_q, phi_p)
    }
}

/// Implicit DAEs with `M` constraints: the velocity guess `v̄(q, p)`, `φ(q, p)`, the problem's
/// energy if it has one; no closed-form consistent momentum.
#[derive(Clone, Copy, Debug)]
pub struct Implicit<const M: usize>;

impl<P: ImplicitDae<D, M>, const D: usize, const M: usize> Access<P, D> for Implicit<M> {
    const CONSTRAINT: &'static str = constraint_names::DAE;

    fn velocity(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        Some(problem.initial_velocity(q, p))
    }

    fn constraint(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> f64 {
        problem.phi(q, p).amax()
    }

    fn consistent_momentum(_: &P, _: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        None
    }

    fn energy(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<f64> {
        problem.energy(q, p)
    }

    /// Newton's method on the hidden constraint `ψ(λ) = dφ/dt =
    /// ∂φ/∂q (v̄ + u(q, p, λ)) + ∂φ/∂p (f(q, v̄) + g(q, p, λ)) = 0` with `v̄ = v̄(q, p)`
    /// ([`hidden_multiplier`]). For the view of a degenerate Lagrangian `ψ = −Ω λ`, so
    /// `λ_0 = 0`.
    fn initial_multiplier(
        problem: &P,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &mut [f64],
    ) -> Result<(), f64> {
        let v = problem.initial_velocity(q, p);
        let force = problem.force(q, &v);
        let l = hidden_multiplier(problem, q, p, (v, force))?;
        lambda.copy_from_slice(l.as_slice());
        Ok(())
    }

    fn constraint_differential(
        problem: &P,
        (q, p): State<'_, D>,
        phi_q: &mut [f64],
        phi_p: &mut [f64],
    ) -> bool {
        differential(problem.phi_dq(q, p), problem.phi_dp(q, p), phi_q, phi_p)
    }
}

/// Newton's method on the hidden constraint of an index-2 system,
/// `ψ(λ) = ∂φ/∂q (v + u(λ)) + ∂φ/∂p (f + g(λ)) = 0` at a fixed state `(q, p)` with the given
/// `v` and `f`, whose Jacobian `∂φ/∂q ∂u/∂λ + ∂φ/∂p ∂g/∂λ` is regular for index 2 (one step
/// where `u` and `g` are affine in `λ`). `Err` carries the residual where Newton stops short of
/// it.
pub fn hidden_multiplier<P: DaeConstraint<D, M>, const D: usize, const M: usize>(
    problem: &P,
    q: &SVector<f64, D>,
    p: &SVector<f64, D>,
    (v, force): (SVector<f64, D>, SVector<f64, D>),
) -> Result<SVector<f64, M>, f64> {
    let (phi_q, phi_p) = (problem.phi_dq(q, p), problem.phi_dp(q, p));
    let evaluate = |l: &SVector<f64, M>| {
        (
            phi_q * (v + problem.u(q, p, l)) + phi_p * (force + problem.g(q, p, l)),
            phi_q * problem.u_dlambda(q, p, l) + phi_p * problem.g_dlambda(q, p, l),
        )
    };
    let scale = [q, p]
        .iter()
        .fold(v.amax().max(force.amax()).max(1.0), |m, x| m.max(x.amax()));
    let tolerance = 8.0 * f64::EPSILON * scale * (M as f64).sqrt();
    let mut l = SVector::<f64, M>::zeros();
    let (mut residual, mut jacobian) = evaluate(&l);
    for _ in 0..8 {
        if residual.amax() <= tolerance {
            break;
        }
        l += Lu::solve_matrix(&jacobian, &-residual).ok_or(residual.amax())?;
        (residual, jacobian) = evaluate(&l);
    }
    let finite = residual.iter().chain(l.iter()).all(|x| x.is_finite());
    if !finite || residual.amax() > tolerance.max(1e-12 * scale) {
        return Err(residual.amax());
    }
    Ok(l)
}

/// Hamiltonian DAEs with `M` primary constraints: the velocity `q̇ = v + u(λ)` with the
/// multiplier of the hidden constraint, `φ(q, p)`, the Hamiltonian if the problem has one; no
/// closed-form consistent momentum.
#[derive(Clone, Copy, Debug)]
pub struct Hamiltonian<const M: usize>;

impl<const M: usize> Hamiltonian<M> {
    /// The multiplier of the hidden constraint `∂φ/∂q (v + u) + ∂φ/∂p (f + g) = 0` at `(q, p)`.
    fn multiplier<P: HamiltonianDae<D, M>, const D: usize>(
        problem: &P,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
    ) -> Result<SVector<f64, M>, f64> {
        hidden_multiplier(problem, q, p, (problem.velocity(q, p), problem.force(q, p)))
    }
}

impl<P: HamiltonianDae<D, M>, const D: usize, const M: usize> Access<P, D> for Hamiltonian<M> {
    const CONSTRAINT: &'static str = constraint_names::DAE;

    /// `q̇ = v(q, p) + u(q, p, λ)` with the multiplier of the hidden constraint (`v` alone where
    /// it has none).
    fn velocity(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        match Self::multiplier(problem, q, p) {
            Ok(l) => Self::velocity_with_multiplier(problem, q, p, l.as_slice()),
            Err(_) => Some(problem.velocity(q, p)),
        }
    }

    /// `q̇ = v(q, p) + u(q, p, λ̂)`.
    fn velocity_with_multiplier(
        problem: &P,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &[f64],
    ) -> Option<SVector<f64, D>> {
        let l = SVector::<f64, M>::from_column_slice(lambda);
        Some(problem.velocity(q, p) + problem.u(q, p, &l))
    }

    fn constraint(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> f64 {
        problem.phi(q, p).amax()
    }

    fn consistent_momentum(_: &P, _: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        None
    }

    fn energy(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<f64> {
        problem.hamiltonian(q, p)
    }

    /// The multiplier of the hidden constraint.
    fn initial_multiplier(
        problem: &P,
        q: &SVector<f64, D>,
        p: &SVector<f64, D>,
        lambda: &mut [f64],
    ) -> Result<(), f64> {
        let l = Self::multiplier(problem, q, p)?;
        lambda.copy_from_slice(l.as_slice());
        Ok(())
    }

    /// `ṗ = f(q, p) + g(q, p, λ)` with the multiplier `λ` of the hidden constraint; `false`
    /// where it has none or the rate is not finite.
    fn momentum_rate(
        problem: &P,
        (q, p): State<'_, D>,
        p_dot: &mut [f64],
        lambda: &mut [f64],
    ) -> bool {
        let Ok(l) = Self::multiplier(problem, q, p) else {
            return false;
        };
        let rate = problem.force(q, p) + problem.g(q, p, &l);
        p_dot.copy_from_slice(rate.as_slice());
        lambda.copy_from_slice(l.as_slice());
        rate.iter().chain(l.iter()).all(|x| x.is_finite())
    }

    fn constraint_differential(
        problem: &P,
        (q, p): State<'_, D>,
        phi_q: &mut [f64],
        phi_p: &mut [f64],
    ) -> bool {
        differential(problem.phi_dq(q, p), problem.phi_dp(q, p), phi_q, phi_p)
    }
}

/// Holonomic systems with `M` constraints: `q̇ = M⁻¹p`, `c(q)`, `H(q, p)`.
#[derive(Clone, Copy, Debug)]
pub struct Holonomic<const M: usize>;

impl<P: HolonomicSystem<D, M>, const D: usize, const M: usize> Access<P, D> for Holonomic<M> {
    const CONSTRAINT: &'static str = constraint_names::HOLONOMIC;

    fn velocity(problem: &P, _: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        Some(problem.velocity(p))
    }

    fn constraint(problem: &P, q: &SVector<f64, D>, _: &SVector<f64, D>) -> f64 {
        problem.constraints(q).amax()
    }

    fn consistent_momentum(_: &P, _: &SVector<f64, D>) -> Option<SVector<f64, D>> {
        None
    }

    fn energy(problem: &P, q: &SVector<f64, D>, p: &SVector<f64, D>) -> Option<f64> {
        Some(problem.hamiltonian(q, p))
    }

    /// `ṗ = −∇V(q) − G(q)ᵀλ` with the index-1 multiplier `λ(q, p)`: the second derivative of
    /// `c(q(t)) = 0` along `q̇ = v = M⁻¹p`, `A(q) λ = ∂(G v)/∂q · v − G M⁻¹∇V(q)` with the Gram
    /// matrix `A = G M⁻¹ Gᵀ` (LU with partial pivoting); `false` where `A` is singular or the
    /// rate is not finite.
    fn momentum_rate(
        problem: &P,
        (q, p): State<'_, D>,
        p_dot: &mut [f64],
        lambda: &mut [f64],
    ) -> bool {
        let minv = problem.inverse_mass_matrix();
        let g = problem.constraint_jacobian(q);
        let minv_gt = minv * g.transpose();
        let v = minv * p;
        let grad = problem.potential_gradient(q);
        let curvature = problem.constraint_velocity_derivative(q, &v) * v;
        let rhs = curvature - minv_gt.tr_mul(&grad);
        let Some(l) = Lu::solve_matrix(&(g * minv_gt), &rhs) else {
            return false;
        };
        let rate = -grad - g.tr_mul(&l);
        p_dot.copy_from_slice(rate.as_slice());
        lambda.copy_from_slice(l.as_slice());
        rate.iter().chain(l.iter()).all(|x| x.is_finite())
    }
}
