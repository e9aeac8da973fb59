//! The state-level operations of a problem at run time, from its kernels: what
//! [`crate::kind::Access`] gives the compiled steppers (a velocity for the initial guess, the
//! constraint's residual, a consistent momentum), for the kinds whose kernels determine them.
//! Degenerate Lagrangians: `Ω(q) v = −∇H(q)` with `Ω = J − Jᵀ`, `J = ∂ϑ/∂q`, the residual
//! `|p − ϑ(q)|∞`, the momentum `ϑ(q)` and `dφ = (−J, I)`. Holonomic systems: `v = M⁻¹ p`, the
//! relative violations of `c(q) = 0` and `G(q) M⁻¹ p = 0`, and the momentum rate `ṗ` with the
//! index-1 multiplier `λ(q, p)` the stage momenta and multipliers are guessed from.

use super::Kernels;
use crate::holonomic::{ConsistencyResiduals, worst_residuals};
use crate::kind::constraint_names;
use crate::layout::Dims;
use crate::problem::inverse_legendre;
use crate::solve::{Dynamic, Lu};
use sparkgen_description::structure::{AtomKind, DaeFunction, Kernel, ProblemKind};

/// The storage of the state-level operations, allocated once for the widths `(D, M)`.
#[derive(Clone, Debug)]
pub struct Work {
    matrix: Vec<f64>,
    vector: Vec<f64>,
    lu: Lu<Dynamic>,
    /// `G`, `∂(G v)/∂q` (`M × D` each) and `M⁻¹Gᵀ` (`D × M`); a DAE's `∂φ/∂q`, `∂φ/∂p`
    /// (`M × D`), `∂u/∂λ` and `∂g/∂λ` (`D × M`).
    rows: Vec<f64>,
    /// `A = G M⁻¹ Gᵀ`, or a DAE's `∂ψ/∂λ` (`M × M`).
    gram: Vec<f64>,
    /// `v = M⁻¹p` and `M⁻¹∇V` (`D` each).
    columns: Vec<f64>,
    gram_lu: Lu<Dynamic>,
    /// A DAE's `v`, `f`, `u`, `g` (`D` each) and `ψ` (`M`).
    dae: Vec<f64>,
    /// A DAE's multiplier `λ` (`M`).
    multiplier: Vec<f64>,
}

impl Work {
    /// Storage for a problem of widths `dims`; `None` where a `D × D` matrix does not fit in
    /// the address space.
    pub fn new(dims: Dims) -> Option<Work> {
        let (d, m) = (dims.coordinates, dims.constraints);
        Some(Work {
            matrix: vec![0.0; d.checked_mul(d)?],
            vector: vec![0.0; d.max(m)],
            lu: Lu::new(Dynamic::new(d)?),
            rows: vec![0.0; m.checked_mul(d)?.checked_mul(4)?],
            gram: vec![0.0; m.checked_mul(m)?],
            columns: vec![0.0; d.checked_mul(2)?],
            gram_lu: Lu::new(Dynamic::new(m)?),
            dae: vec![0.0; d.checked_mul(4)?.checked_add(m)?],
            multiplier: vec![0.0; m],
        })
    }
}

/// `max_k |v_k|`.
fn amax(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |a, b| a.max(b.abs()))
}

/// The velocity at `(q, p)` into `v`: `Ω(q) v = −∇H(q)` (LU with partial pivoting, as the
/// compiled [`crate::problem::DegenerateLagrangian::vector_field`]), `v = M⁻¹ p`, or a
/// Hamiltonian DAE's `q̇ = v(q, p) + u(q, p, λ)` with the multiplier `multiplier` or else that of
/// the hidden constraint (`v` alone where it has none); `false` for another kind, a singular
/// `Ω(q)` or a velocity that is not finite.
pub(super) fn velocity<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    multiplier: Option<&[f64]>,
    v: &mut [f64],
    work: &mut Work,
) -> bool {
    let d = q.len();
    if problem.kind() == ProblemKind::HamiltonianDae {
        let mut hidden = std::mem::take(&mut work.multiplier);
        let lambda = match multiplier {
            Some(lambda) => Some(lambda),
            None => hidden_multiplier(problem, q, p, &mut hidden, work)
                .ok()
                .map(|()| &hidden[..]),
        };
        problem.vector(Kernel::Dae(DaeFunction::Velocity), &[q, p], v);
        if let Some(lambda) = lambda {
            let u = &mut work.dae[..d];
            problem.vector(Kernel::Dae(DaeFunction::U), &[q, p, lambda], u);
            v.iter_mut().zip(u.iter()).for_each(|(v, u)| *v += u);
        }
        work.multiplier = hidden;
        return v.iter().all(|x| x.is_finite());
    }
    let Work { matrix, lu, .. } = work;
    match problem.kind() {
        ProblemKind::DegenerateLagrangian => {
            let j = vector_of(matrix, d * d);
            problem.matrix(AtomKind::J, &[q], j);
            for r in 0..d {
                for c in r..d {
                    let (upper, lower) = (j[r * d + c], j[c * d + r]);
                    (j[r * d + c], j[c * d + r]) = (upper - lower, lower - upper);
                }
            }
            if lu.refactor(j).is_err() {
                return false;
            }
            problem.vector(Kernel::Gradient, &[q], v);
            v.iter_mut().for_each(|x| *x = -*x);
            lu.solve_in_place(v);
        }
        ProblemKind::Holonomic => {
            problem.matrix(AtomKind::MassInverse, &[], vector_of(matrix, d * d));
            product(matrix, p, v);
        }
        _ => return false,
    }
    v.iter().all(|x| x.is_finite())
}

/// The velocity `v` with `ϑ(q, v) = p` of an implicit DAE into `v` (for a Lagrangian's ODE the
/// inverse Legendre transform of `ϑ = ∂L/∂v`), by Newton's method with `∂ϑ/∂v`
/// ([`inverse_legendre`]); `false` where it does not converge.
pub(super) fn momentum_inverse<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    v: &mut [f64],
    work: &mut Work,
) -> bool {
    let d = q.len();
    let Work {
        matrix, vector, lu, ..
    } = work;
    inverse_legendre(
        lu,
        |v, out| problem.vector(Kernel::Dae(DaeFunction::Theta), &[q, v], out),
        |v, out| problem.matrix(AtomKind::DaePartial(DaeFunction::Theta, 1), &[q, v], out),
        p,
        (v, &mut vector[..d], &mut matrix[..d * d]),
    )
}

/// The velocity `v(q, p)` of [`momentum_inverse`] in `work`'s own storage; `None` where it
/// does not converge.
pub(super) fn inverse_legendre_of<'w, K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    work: &'w mut Work,
) -> Option<&'w [f64]> {
    let d = q.len();
    let mut v = std::mem::take(&mut work.columns);
    let converged = momentum_inverse(problem, q, p, &mut v[..d], work);
    work.columns = v;
    converged.then_some(&work.columns[..d])
}

/// `pᵀ M⁻¹ p` of a holonomic system (`M⁻¹` into `work`).
pub(super) fn kinetic<K: Kernels + ?Sized>(problem: &K, p: &[f64], work: &mut Work) -> f64 {
    let d = p.len();
    let minv = vector_of(&mut work.matrix, d * d);
    problem.matrix(AtomKind::MassInverse, &[], minv);
    minv.chunks_exact(d)
        .zip(p)
        .map(|(row, pk)| pk * row.iter().zip(p).map(|(a, b)| a * b).sum::<f64>())
        .sum()
}

/// Transposes the square row-major matrix `m` (`d × d`) in place.
pub(super) fn transpose(m: &mut [f64], d: usize) {
    for r in 0..d {
        for c in r + 1..d {
            m.swap(r * d + c, c * d + r);
        }
    }
}

/// The `d × d` identity, row-major, into `m`.
pub(super) fn identity(m: &mut [f64], d: usize) {
    for (k, x) in m.iter_mut().enumerate() {
        *x = f64::from(u8::from(k % (d + 1) == 0));
    }
}

/// `y = A x` for the row-major `A` of `y.len()` rows and `x.len()` columns.
fn product(a: &[f64], x: &[f64], y: &mut [f64]) {
    for (yi, row) in y.iter_mut().zip(a.chunks_exact(x.len())) {
        *yi = row.iter().zip(x).map(|(a, b)| a * b).sum();
    }
}

/// The first `len` entries of `buffer`.
fn vector_of(buffer: &mut [f64], len: usize) -> &mut [f64] {
    &mut buffer[..len]
}

/// What [`constraint`] measures for a problem of `kind`, for reports.
pub(super) fn constraint_name(kind: ProblemKind) -> &'static str {
    match kind {
        ProblemKind::DegenerateLagrangian => constraint_names::PRIMARY,
        ProblemKind::Holonomic => constraint_names::HOLONOMIC,
        ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae => constraint_names::DAE,
    }
}

/// `|p − ϑ(q)|∞`, the larger relative violation of a holonomic system's constraints
/// ([`holonomic_residuals`]), or a DAE's `|φ(q, p)|∞`.
pub(super) fn constraint<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    work: &mut Work,
) -> f64 {
    let dims = problem.dims();
    match problem.kind() {
        ProblemKind::DegenerateLagrangian => {
            let theta = vector_of(&mut work.vector, dims.coordinates);
            problem.vector(Kernel::Map, &[q], theta);
            theta
                .iter()
                .zip(p)
                .fold(0.0f64, |a, (t, p)| a.max((p - t).abs()))
        }
        ProblemKind::Holonomic => holonomic_residuals(problem, q, p, work)
            .map_or(f64::NAN, |r| r.position.max(r.velocity)),
        ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae => {
            let phi = vector_of(&mut work.vector, dims.constraints);
            problem.vector(Kernel::Dae(DaeFunction::Phi), &[q, p], phi);
            norm(phi)
        }
    }
}

/// `max_k |x_k|`, NaN if any entry is.
fn norm(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |a, x| {
        if x.is_nan() || a.is_nan() {
            f64::NAN
        } else {
            a.max(x.abs())
        }
    })
}

/// The multiplier of the hidden constraint of an index-2 DAE at `(q, p)` into `lambda` (`M`
/// long), by Newton's method on `ψ(λ) = ∂φ/∂q (v + u(q, p, λ)) + ∂φ/∂p (f + g(q, p, λ)) = 0`
/// from `λ = 0`, as the compiled [`crate::kind::hidden_multiplier`]: `v` the problem's velocity
/// guess and `f = f(q, v)` for an implicit DAE, `v(q, p)` and `f(q, p)` for a Hamiltonian DAE.
/// Its Jacobian `∂φ/∂q ∂u/∂λ + ∂φ/∂p ∂g/∂λ` is regular for index 2 (one step where `u` and `g`
/// are affine in `λ`). `Err` carries the residual where Newton stops short of it; zero for
/// another kind.
pub(super) fn hidden_multiplier<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    lambda: &mut [f64],
    work: &mut Work,
) -> Result<(), f64> {
    lambda.fill(0.0);
    if lambda.is_empty() {
        return Ok(());
    }
    let mut dae = std::mem::take(&mut work.dae);
    let result = hidden(problem, (q, p), lambda, &mut dae, work);
    work.dae = dae;
    result
}

/// `Work::dae` as [`hidden`] lays it out: `v`, `f`, `u`, `g` (`d` entries each), then `ψ` (`m`).
fn dae_parts(dae: &mut [f64], d: usize, m: usize) -> ([&mut [f64]; 4], &mut [f64]) {
    let (v, rest) = dae.split_at_mut(d);
    let (f, rest) = rest.split_at_mut(d);
    let (u, rest) = rest.split_at_mut(d);
    let (g, rest) = rest.split_at_mut(d);
    ([v, f, u, g], &mut rest[..m])
}

/// [`hidden_multiplier`] with `v`, `f`, `u`, `g` and `ψ` in `dae` ([`dae_parts`]).
fn hidden<K: Kernels + ?Sized>(
    problem: &K,
    (q, p): (&[f64], &[f64]),
    lambda: &mut [f64],
    dae: &mut [f64],
    work: &mut Work,
) -> Result<(), f64> {
    let (d, m) = (q.len(), lambda.len());
    let ([v, f, u, g], psi) = dae_parts(dae, d, m);
    match problem.kind() {
        ProblemKind::ImplicitDae => {
            if !problem.velocity(q, p, None, v, work) {
                return Err(f64::NAN);
            }
            problem.vector(Kernel::Dae(DaeFunction::Force), &[q, v], f);
        }
        ProblemKind::HamiltonianDae => {
            problem.vector(Kernel::Dae(DaeFunction::Velocity), &[q, p], v);
            problem.vector(Kernel::Dae(DaeFunction::HamiltonianForce), &[q, p], f);
        }
        ProblemKind::DegenerateLagrangian | ProblemKind::Holonomic => return Ok(()),
    }
    let Work {
        rows,
        gram,
        gram_lu,
        ..
    } = work;
    let (phi_q, rest) = rows.split_at_mut(m * d);
    let (phi_p, rest) = rest.split_at_mut(m * d);
    let (u_lambda, rest) = rest.split_at_mut(d * m);
    let g_lambda = &mut rest[..d * m];
    problem.matrix(AtomKind::DaePartial(DaeFunction::Phi, 0), &[q, p], phi_q);
    problem.matrix(AtomKind::DaePartial(DaeFunction::Phi, 1), &[q, p], phi_p);
    let scale = [&*v, &*f, q, p].iter().fold(1.0f64, |s, x| s.max(amax(x)));
    let tolerance = 8.0 * f64::EPSILON * scale * (m as f64).sqrt();
    let mut residual = f64::NAN;
    for iteration in 0..=8 {
        problem.vector(Kernel::Dae(DaeFunction::U), &[q, p, lambda], u);
        problem.vector(Kernel::Dae(DaeFunction::G), &[q, p, lambda], g);
        for ((r, a_q), a_p) in psi
            .iter_mut()
            .zip(phi_q.chunks_exact(d))
            .zip(phi_p.chunks_exact(d))
        {
            *r = (0..d)
                .map(|k| a_q[k] * (v[k] + u[k]) + a_p[k] * (f[k] + g[k]))
                .sum();
        }
        residual = norm(psi);
        if residual <= tolerance || iteration == 8 {
            break;
        }
        let args: [&[f64]; 3] = [q, p, lambda];
        problem.matrix(AtomKind::DaePartial(DaeFunction::U, 2), &args, u_lambda);
        problem.matrix(AtomKind::DaePartial(DaeFunction::G, 2), &args, g_lambda);
        for (a, (a_q, a_p)) in phi_q.chunks_exact(d).zip(phi_p.chunks_exact(d)).enumerate() {
            for b in 0..m {
                gram[a * m + b] = (0..d)
                    .map(|k| a_q[k] * u_lambda[k * m + b] + a_p[k] * g_lambda[k * m + b])
                    .sum();
            }
        }
        if gram_lu.refactor(gram).is_err() {
            return Err(residual);
        }
        gram_lu.solve_in_place(psi);
        lambda.iter_mut().zip(psi.iter()).for_each(|(l, r)| *l -= r);
    }
    // NaN residuals fail the comparison.
    let converged = residual <= tolerance.max(1e-12 * scale);
    if converged && lambda.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(residual)
    }
}

/// The relative violations of `c(q) = 0` and `G(q) M⁻¹ p = 0` of a holonomic system at
/// `(q, p)` ([`ConsistencyResiduals`], as the compiled steppers measure them); `None` for
/// another kind.
pub fn holonomic_residuals<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    work: &mut Work,
) -> Option<ConsistencyResiduals> {
    if problem.kind() != ProblemKind::Holonomic {
        return None;
    }
    let (d, m) = (q.len(), problem.dims().constraints);
    let Work {
        matrix,
        vector,
        rows,
        columns,
        ..
    } = work;
    let (g, rest) = rows.split_at_mut(m * d);
    let gv = &mut rest[..m];
    let (v, _) = columns.split_at_mut(d);
    let c = vector_of(vector, m);
    problem.vector(Kernel::Map, &[q], c);
    problem.matrix(AtomKind::J, &[q], g);
    problem.matrix(AtomKind::MassInverse, &[], vector_of(matrix, d * d));
    product(&matrix[..d * d], p, v);
    product(g, v, gv);
    let norms = g
        .chunks_exact(d)
        .map(|row| row.iter().map(|x| x * x).sum::<f64>().sqrt());
    let terms = c
        .iter()
        .zip(gv.iter())
        .zip(norms)
        .map(|((c, gv), n)| (*c, *gv, n));
    Some(worst_residuals(terms, amax(q), amax(v)))
}

/// The momentum rate at `(q, p)` into `p_dot` and the multiplier that holds it into `lambda`:
/// for a holonomic system `ṗ = −∇V(q) − G(q)ᵀλ` with the index-1 multiplier `λ(q, p)`, the
/// second derivative of `c(q(t)) = 0` along `q̇ = v = M⁻¹p`,
/// `A(q) λ = ∂(G v)/∂q · v − G M⁻¹∇V(q)` with the Gram matrix `A = G M⁻¹ Gᵀ`; for a
/// Hamiltonian DAE `ṗ = f(q, p) + g(q, p, λ)` with the multiplier of the hidden constraint
/// ([`hidden_multiplier`]), as the compiled [`crate::kind::Access::momentum_rate`]. `false` for
/// another kind, a singular `A`, a hidden constraint without multiplier or a rate that is not
/// finite.
pub(super) fn momentum_rate<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    p_dot: &mut [f64],
    lambda: &mut [f64],
    work: &mut Work,
) -> bool {
    match problem.kind() {
        ProblemKind::Holonomic => holonomic_rate(problem, q, p, p_dot, lambda, work),
        ProblemKind::HamiltonianDae => {
            if lambda.is_empty() || hidden_multiplier(problem, q, p, lambda, work).is_err() {
                return false;
            }
            // `hidden` leaves `v, f, u, g` at the multiplier it returns.
            let ([_, f, _, g], _) = dae_parts(&mut work.dae, q.len(), 0);
            for ((r, f), g) in p_dot.iter_mut().zip(f.iter()).zip(g.iter()) {
                *r = f + g;
            }
            p_dot.iter().chain(lambda.iter()).all(|x| x.is_finite())
        }
        ProblemKind::DegenerateLagrangian | ProblemKind::ImplicitDae => false,
    }
}

/// [`momentum_rate`] of a holonomic system.
fn holonomic_rate<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    p_dot: &mut [f64],
    lambda: &mut [f64],
    work: &mut Work,
) -> bool {
    let (d, m) = (q.len(), lambda.len());
    let Work {
        matrix,
        rows,
        gram,
        columns,
        gram_lu,
        ..
    } = work;
    let minv = vector_of(matrix, d * d);
    let (g, rest) = rows.split_at_mut(m * d);
    let (curvature, rest) = rest.split_at_mut(m * d);
    let minv_gt = &mut rest[..d * m];
    let (v, rest) = columns.split_at_mut(d);
    let minv_grad = &mut rest[..d];
    problem.matrix(AtomKind::MassInverse, &[], minv);
    product(minv, p, v);
    problem.matrix(AtomKind::J, &[q], g);
    problem.matrix(AtomKind::DJac, &[q, v], curvature);
    problem.vector(Kernel::Gradient, &[q], p_dot);
    product(minv, p_dot, minv_grad);
    // λ's right-hand side: ∂(G v)/∂q · v − G (M⁻¹∇V).
    for ((l, dj), g) in lambda
        .iter_mut()
        .zip(curvature.chunks_exact(d))
        .zip(g.chunks_exact(d))
    {
        *l = dj.iter().zip(v.iter()).map(|(a, b)| a * b).sum::<f64>()
            - g.iter()
                .zip(minv_grad.iter())
                .map(|(a, b)| a * b)
                .sum::<f64>();
    }
    // M⁻¹Gᵀ (D × M), then A = G (M⁻¹Gᵀ).
    for (k, row) in minv.chunks_exact(d).enumerate() {
        for (a, g_a) in g.chunks_exact(d).enumerate() {
            minv_gt[k * m + a] = row.iter().zip(g_a).map(|(x, y)| x * y).sum();
        }
    }
    for (a, g_a) in g.chunks_exact(d).enumerate() {
        for b in 0..m {
            gram[a * m + b] = (0..d).map(|k| g_a[k] * minv_gt[k * m + b]).sum();
        }
    }
    if gram_lu.refactor(gram).is_err() {
        return false;
    }
    gram_lu.solve_in_place(lambda);
    for (k, pk) in p_dot.iter_mut().enumerate() {
        *pk = -*pk - (0..m).map(|a| g[a * d + k] * lambda[a]).sum::<f64>();
    }
    p_dot.iter().chain(lambda.iter()).all(|x| x.is_finite())
}

/// `ϑ(q)` into `p` for a degenerate Lagrangian; `false` for another kind.
pub(super) fn consistent_momentum<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &mut [f64],
) -> bool {
    let degenerate = problem.kind() == ProblemKind::DegenerateLagrangian;
    if degenerate {
        problem.vector(Kernel::Map, &[q], p);
    }
    degenerate
}

/// `dφ = (−∂ϑ/∂q, I)` of a degenerate Lagrangian's `φ = p − ϑ(q)`, or `(∂φ/∂q, ∂φ/∂p)` of a
/// DAE; `false` for a holonomic system.
pub(super) fn constraint_differential<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    phi_q: &mut [f64],
    phi_p: &mut [f64],
) -> bool {
    match problem.kind() {
        ProblemKind::DegenerateLagrangian => {
            let d = q.len();
            problem.matrix(AtomKind::J, &[q], phi_q);
            phi_q.iter_mut().for_each(|x| *x = -*x);
            identity(phi_p, d);
            true
        }
        ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae => {
            problem.matrix(AtomKind::DaePartial(DaeFunction::Phi, 0), &[q, p], phi_q);
            problem.matrix(AtomKind::DaePartial(DaeFunction::Phi, 1), &[q, p], phi_p);
            true
        }
        ProblemKind::Holonomic => false,
    }
}
