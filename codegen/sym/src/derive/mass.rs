//! The constant mass matrix of a holonomic system: `mass = m` (m·I), `mass = [m₁, …]`
//! (diagonal) or `mass = [[…], …]` (full, symmetric), and its inverse.
//!
//! M⁻¹ is formed symbolically at expansion by Gauss–Jordan elimination without pivoting, which
//! is valid for every symmetric positive definite M (all its pivots are positive). Numeric
//! entries are exact rationals in the graph, so a numeric M⁻¹ is exact and rounded once at
//! emission; parameter-dependent entries give M⁻¹ in closed form (its positivity is the user's
//! responsibility). Constant pivots that are zero or negative are rejected at expansion.

use super::ctxt::Errors;
use super::extent::Extent;
use super::lower::Lowerer;
use super::shape;
use crate::{Graph, Matrix, NodeId, Number};
use syn::Expr;

/// How messages name the mass matrix.
const MASS: &str = "the mass matrix";

/// Lowers the `mass` value into a `d × d` matrix, checking shape, symmetry and that no entry
/// depends on the coordinates (after such an error, the identity stands for it).
pub(crate) fn lower(value: &Expr, d: usize, lw: &mut Lowerer, errors: &mut Errors) -> Matrix {
    let zero = lw.graph.int(0);
    let mut entries = vec![zero; d * d];
    let mut constant = true;
    let mut lower_entry = |lw: &mut Lowerer, entry: &Expr, errors: &mut Errors| {
        let node = lw.lower_constant(entry, MASS, errors);
        constant &= node.is_some();
        node.unwrap_or(zero)
    };
    match value {
        Expr::Array(rows)
            if rows.elems.iter().all(|e| matches!(e, Expr::Array(_))) && !rows.elems.is_empty() =>
        {
            let rows = shape::vector(value, Some(d), "one row per coordinate in `q`", errors);
            let rows: Vec<Vec<&Expr>> = rows
                .into_iter()
                .map(|row| shape::vector(row, Some(d), "one entry per coordinate in `q`", errors))
                .collect();
            for (i, row) in rows.iter().enumerate().take(d) {
                for (j, entry) in row.iter().enumerate().take(d) {
                    entries[i * d + j] = lower_entry(lw, entry, errors);
                }
            }
            for i in 0..rows.len().min(d) {
                for j in 0..i.min(rows[i].len()) {
                    if entries[i * d + j] != entries[j * d + i] {
                        errors.spanned(
                            Extent::of(rows[i][j]),
                            format!("the mass matrix must be symmetric: entry ({i}, {j}) differs from entry ({j}, {i})"),
                        );
                    }
                }
            }
        }
        Expr::Array(_) => {
            let diagonal = shape::vector(
                value,
                Some(d),
                "the diagonal, one entry per coordinate in `q`",
                errors,
            );
            for (i, entry) in diagonal.iter().enumerate().take(d) {
                entries[i * d + i] = lower_entry(lw, entry, errors);
            }
        }
        scalar => {
            let m = lower_entry(lw, scalar, errors);
            for i in 0..d {
                entries[i * d + i] = m;
            }
        }
    }
    if !constant {
        return identity(&mut lw.graph, d);
    }
    Matrix::from_row_major(d, d, entries).expect("d · d entries were supplied")
}

/// Why a mass matrix cannot be inverted by elimination without pivoting.
pub(crate) enum Singular {
    /// Pivot `k` is the constant zero.
    Zero(usize),
    /// Pivot `k` is a negative constant: M is not positive definite.
    Negative(usize),
}

impl std::fmt::Display for Singular {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Singular::Zero(k) => write!(
                f,
                "the mass matrix is singular (pivot {k} of its elimination is zero)"
            ),
            Singular::Negative(k) => write!(
                f,
                "the mass matrix is not positive definite (pivot {k} of its elimination is negative)"
            ),
        }
    }
}

/// M⁻¹ by Gauss–Jordan elimination without pivoting on the `[M | I]` rows.
pub(crate) fn inverse(graph: &mut Graph, m: &Matrix) -> Result<Matrix, Singular> {
    let d = m.rows();
    let mut a: Vec<Vec<NodeId>> = (0..d).map(|i| m.row(i).to_vec()).collect();
    let identity = identity(graph, d);
    let mut inv: Vec<Vec<NodeId>> = (0..d).map(|i| identity.row(i).to_vec()).collect();
    for k in 0..d {
        let pivot = a[k][k];
        if graph.is_zero(pivot) {
            return Err(Singular::Zero(k));
        }
        if graph.as_const(pivot).is_some_and(Number::is_negative) {
            return Err(Singular::Negative(k));
        }
        for j in 0..d {
            a[k][j] = graph.div(a[k][j], pivot);
            inv[k][j] = graph.div(inv[k][j], pivot);
        }
        for i in (0..d).filter(|&i| i != k) {
            let factor = a[i][k];
            for j in 0..d {
                let da = graph.mul(factor, a[k][j]);
                a[i][j] = graph.sub(a[i][j], da);
                let dinv = graph.mul(factor, inv[k][j]);
                inv[i][j] = graph.sub(inv[i][j], dinv);
            }
        }
    }
    Ok(Matrix::from_row_major(d, d, inv.concat()).expect("d · d entries were supplied"))
}

/// The `d × d` identity.
pub(crate) fn identity(graph: &mut Graph, d: usize) -> Matrix {
    let (zero, one) = (graph.int(0), graph.int(1));
    let entries = (0..d * d)
        .map(|k| if k / d == k % d { one } else { zero })
        .collect();
    Matrix::from_row_major(d, d, entries).expect("d · d entries were supplied")
}
