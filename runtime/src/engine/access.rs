//! The state-level operations of a problem at run time, from its kernels: what
//! [`crate::kind::Access`] gives the compiled steppers (a velocity for the initial guess, the
//! constraint's residual, a consistent momentum), for the kinds whose kernels determine them.
//! Degenerate Lagrangians: `Ω(q) v = −∇H(q)` with `Ω = J − Jᵀ`, `J = ∂ϑ/∂q`, the residual
//! `|p − ϑ(q)|∞`, the momentum `ϑ(q)` and `dφ = (−J, I)`. Holonomic systems: `v = M⁻¹ p` and `|c(q)|∞`.

use super::Kernels;
use crate::layout::Dims;
use crate::solve::{Dynamic, Lu};
use sparkgen_description::structure::{AtomKind, Kernel, ProblemKind};

/// The storage of the state-level operations, allocated once for the widths `(D, M)`.
#[derive(Clone, Debug)]
pub struct Work {
    matrix: Vec<f64>,
    vector: Vec<f64>,
    lu: Lu<Dynamic>,
}

impl Work {
    /// Storage for a problem of widths `dims`; `None` where a `D × D` matrix does not fit in
    /// the address space.
    pub fn new(dims: Dims) -> Option<Work> {
        let d = dims.coordinates;
        Some(Work {
            matrix: vec![0.0; d.checked_mul(d)?],
            vector: vec![0.0; d.max(dims.constraints)],
            lu: Lu::new(Dynamic::new(d)?),
        })
    }
}

/// `max_k |v_k|`.
fn amax(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |a, b| a.max(b.abs()))
}

/// The velocity at `(q, p)` into `v`: `Ω(q) v = −∇H(q)` (LU with partial pivoting, as the
/// compiled [`crate::problem::DegenerateLagrangian::vector_field`]) or `v = M⁻¹ p`; `false`
/// for another kind, a singular `Ω(q)` or a velocity that is not finite.
pub(super) fn velocity<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    p: &[f64],
    v: &mut [f64],
    work: &mut Work,
) -> bool {
    let d = q.len();
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
            for (vi, row) in v.iter_mut().zip(matrix.chunks_exact(d)) {
                *vi = row.iter().zip(p).map(|(a, b)| a * b).sum();
            }
        }
        _ => return false,
    }
    v.iter().all(|x| x.is_finite())
}

/// The first `len` entries of `buffer`.
fn vector_of(buffer: &mut [f64], len: usize) -> &mut [f64] {
    &mut buffer[..len]
}

/// `|p − ϑ(q)|∞` or `|c(q)|∞`; NaN for another kind.
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
        ProblemKind::Holonomic => {
            let c = vector_of(&mut work.vector, dims.constraints);
            problem.vector(Kernel::Map, &[q], c);
            amax(c)
        }
        _ => f64::NAN,
    }
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

/// `dφ = (−∂ϑ/∂q, I)` of a degenerate Lagrangian's `φ = p − ϑ(q)`; `false` for another kind.
pub(super) fn constraint_differential<K: Kernels + ?Sized>(
    problem: &K,
    q: &[f64],
    _: &[f64],
    phi_q: &mut [f64],
    phi_p: &mut [f64],
) -> bool {
    let degenerate = problem.kind() == ProblemKind::DegenerateLagrangian;
    if degenerate {
        let d = q.len();
        problem.matrix(AtomKind::J, &[q], phi_q);
        phi_q.iter_mut().for_each(|x| *x = -*x);
        for (k, x) in phi_p.iter_mut().enumerate() {
            *x = f64::from(u8::from(k % (d + 1) == 0));
        }
    }
    degenerate
}
