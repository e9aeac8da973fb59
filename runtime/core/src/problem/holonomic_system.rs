//! Mechanical systems with a constant mass matrix and holonomic constraints.

use super::{Matrix, Vector};

/// A mechanical system `H(q, p) = ½ pᵀM⁻¹p + V(q)` on `D` coordinates, constrained to the
/// manifold `c(q) = 0` by `M ≥ 1` holonomic constraints.
///
/// The equations of motion are `q̇ = M⁻¹p`, `ṗ = −∇V(q) − Dc(q)ᵀλ`, `0 = c(q)` with Lagrange
/// multipliers `λ ∈ ℝᴹ`. The mass matrix is constant (it may depend on the struct's parameters);
/// it must be symmetric positive definite.
///
/// Implement it with `#[derive(HolonomicSystem)]`, which differentiates V and c symbolically and
/// inverts the mass matrix symbolically at compile time.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a holonomic system, which the method needs",
    label = "this method needs a holonomic system",
    note = "the method applies to problems of kind HolonomicSystem (`#[derive(HolonomicSystem)]`); choose a method of the problem's kind (`sparkgen methods`)"
)]
pub trait HolonomicSystem<const D: usize, const M: usize> {
    /// The mass matrix `M`.
    fn mass_matrix(&self) -> Matrix<D, D>;

    /// The inverse mass matrix `M⁻¹`.
    fn inverse_mass_matrix(&self) -> Matrix<D, D>;

    /// The potential `V(q)`.
    fn potential(&self, q: &Vector<D>) -> f64;

    /// The gradient `∇V(q)`, `(∇V)_i = ∂V/∂q_i`.
    fn potential_gradient(&self, q: &Vector<D>) -> Vector<D>;

    /// The Hessian `∇²V(q)`, `(∇²V)_ij = ∂²V/∂q_i∂q_j`.
    fn potential_hessian(&self, q: &Vector<D>) -> Matrix<D, D>;

    /// The constraints `c(q)` (zero on the constraint manifold).
    fn constraints(&self, q: &Vector<D>) -> Vector<M>;

    /// The constraint Jacobian `Dc(q)` (`M × D`), `(Dc)_aj = ∂c_a/∂q_j`.
    fn constraint_jacobian(&self, q: &Vector<D>) -> Matrix<M, D>;

    /// The derivative of the constraint force `Dc(q)ᵀλ` with respect to `q` at fixed `λ`:
    /// `(∂(Dcᵀλ)/∂q)_kl = Σ_a λ_a ∂²c_a/∂q_k∂q_l` (`D × D`, symmetric).
    fn constraint_force_derivative(&self, q: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D>;

    /// The derivative of `Dc(q)v` with respect to `q` at fixed `v`:
    /// `(∂(Dc v)/∂q)_al = Σ_k ∂²c_a/∂q_k∂q_l v_k` (`M × D`). It differentiates the hidden
    /// constraint `Dc(q)M⁻¹p = 0`.
    fn constraint_velocity_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<M, D>;

    /// `(c(q), Dc(q), ∇V(q))` at one point `q`: what the stage equations read at a stage point
    /// `Q_i` (the constraints `c(Q_i)`, the force `−∇V(Q_i) − Dc(Q_i)ᵀΛ_i`). The generated
    /// steppers call it wherever they need two or three of these at the same point.
    ///
    /// The default calls [`constraints`](Self::constraints),
    /// [`constraint_jacobian`](Self::constraint_jacobian) and
    /// [`potential_gradient`](Self::potential_gradient). Override it where evaluating them
    /// together is cheaper than one by one (a problem file evaluates one tape in which the
    /// subexpressions the three share are computed once); it must return the same values.
    fn stage_point(&self, q: &Vector<D>) -> (Vector<M>, Matrix<M, D>, Vector<D>) {
        (
            self.constraints(q),
            self.constraint_jacobian(q),
            self.potential_gradient(q),
        )
    }

    /// `(Dc(q), ∇²V(q), ∂(Dcᵀλ)/∂q)` at one point `q` and one `λ`: what the stage Jacobian
    /// reads at a stage point `Q_i` (the derivatives of the force `−∇V(Q_i) − Dc(Q_i)ᵀΛ_i`,
    /// with `λ = Λ_i`). The generated steppers call it wherever they need `∂(Dcᵀλ)/∂q` and
    /// `∇²V` or `Dc` at the same point.
    ///
    /// The default calls [`constraint_jacobian`](Self::constraint_jacobian),
    /// [`potential_hessian`](Self::potential_hessian) and
    /// [`constraint_force_derivative`](Self::constraint_force_derivative); override it where
    /// evaluating them together is cheaper (a problem file's fused tape). It must return the
    /// same values.
    fn stage_point_derivatives(
        &self,
        q: &Vector<D>,
        lambda: &Vector<M>,
    ) -> (Matrix<M, D>, Matrix<D, D>, Matrix<D, D>) {
        (
            self.constraint_jacobian(q),
            self.potential_hessian(q),
            self.constraint_force_derivative(q, lambda),
        )
    }

    /// The velocity `q̇ = M⁻¹p`.
    fn velocity(&self, p: &Vector<D>) -> Vector<D> {
        self.inverse_mass_matrix() * p
    }

    /// The Hamiltonian `H(q, p) = ½ pᵀM⁻¹p + V(q)`.
    fn hamiltonian(&self, q: &Vector<D>, p: &Vector<D>) -> f64 {
        0.5 * p.dot(&self.velocity(p)) + self.potential(q)
    }

    /// Checks that the mass matrix is symmetric positive definite ([`check_mass_matrix`]);
    /// the integrators call it before the first step.
    fn validate_mass_matrix(&self) -> Result<(), MassMatrixError> {
        check_mass_matrix(&self.mass_matrix())
    }
}

/// Why a mass matrix is not symmetric positive definite. Coordinates are numbered from 1 in
/// the order the problem declares them.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum MassMatrixError {
    /// An entry is NaN or infinite.
    #[error("the mass matrix entry M[{row}, {column}] = {value} is not finite")]
    NonFinite {
        /// Its row (coordinate, from 1).
        row: usize,
        /// Its column (coordinate, from 1).
        column: usize,
        /// The entry.
        value: f64,
    },
    /// `M[i, j] ≠ M[j, i]` beyond round-off.
    #[error(
        "the mass matrix is not symmetric: M[{row}, {column}] = {upper:e} but M[{column}, {row}] = {lower:e}"
    )]
    NotSymmetric {
        /// The row of the upper entry (coordinate, from 1).
        row: usize,
        /// Its column (coordinate, from 1).
        column: usize,
        /// `M[row, column]`.
        upper: f64,
        /// `M[column, row]`.
        lower: f64,
    },
    /// A diagonal entry, the mass of one coordinate, is not positive.
    #[error("the mass of coordinate {coordinate} is {mass:e}: a mass must be positive")]
    NonPositiveMass {
        /// The coordinate (from 1).
        coordinate: usize,
        /// `M[coordinate, coordinate]`.
        mass: f64,
    },
    /// Positive masses, but coupled so that the kinetic energy of some velocity is not
    /// positive: the Cholesky factorisation `M = L Lᵀ` meets a non-positive pivot.
    #[error("the mass matrix is not positive definite: eliminating coordinates 1 to {} leaves coordinate {coordinate} with the mass {pivot:e}", coordinate - 1)]
    NotPositiveDefinite {
        /// The coordinate of the pivot (from 2).
        coordinate: usize,
        /// The Cholesky pivot `M[k, k] − Σ_{j<k} L[k, j]²`.
        pivot: f64,
    },
}

/// Checks that `m` can be a mass matrix: finite, symmetric to round-off
/// (`|M_ij − M_ji| ≤ 4ε(|M_ij| + |M_ji|)`), positive diagonal, and positive definite by the
/// Cholesky factorisation `M = L Lᵀ` (every pivot `M_kk − Σ_{j<k} L_kj²` positive), in that
/// order; the first failure names its coordinates.
pub fn check_mass_matrix<D: nalgebra::Dim>(
    m: &nalgebra::OMatrix<f64, D, D>,
) -> Result<(), MassMatrixError>
where
    nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<D, D>,
{
    let (rows, columns) = m.shape_generic();
    let d = rows.value();
    for (row, column) in (0..d).flat_map(|i| (0..d).map(move |j| (i, j))) {
        let value = m[(row, column)];
        if !value.is_finite() {
            return Err(MassMatrixError::NonFinite {
                row: row + 1,
                column: column + 1,
                value,
            });
        }
    }
    for (row, column) in (0..d).flat_map(|i| (i + 1..d).map(move |j| (i, j))) {
        let (upper, lower) = (m[(row, column)], m[(column, row)]);
        if (upper - lower).abs() > 4.0 * f64::EPSILON * (upper.abs() + lower.abs()) {
            return Err(MassMatrixError::NotSymmetric {
                row: row + 1,
                column: column + 1,
                upper,
                lower,
            });
        }
    }
    if let Some(k) = (0..d).find(|&k| m[(k, k)] <= 0.0) {
        return Err(MassMatrixError::NonPositiveMass {
            coordinate: k + 1,
            mass: m[(k, k)],
        });
    }
    let mut l = nalgebra::OMatrix::<f64, D, D>::zeros_generic(rows, columns);
    for k in 0..d {
        let pivot = m[(k, k)] - (0..k).map(|j| l[(k, j)] * l[(k, j)]).sum::<f64>();
        if pivot <= 0.0 {
            return Err(MassMatrixError::NotPositiveDefinite {
                coordinate: k + 1,
                pivot,
            });
        }
        l[(k, k)] = pivot.sqrt();
        for i in k + 1..d {
            let dot: f64 = (0..k).map(|j| l[(i, j)] * l[(k, j)]).sum();
            l[(i, k)] = (m[(i, k)] - dot) / l[(k, k)];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mass_matrix_must_be_symmetric_positive_definite() {
        let check =
            |rows: [[f64; 3]; 3]| check_mass_matrix(&Matrix::<3, 3>::from(rows).transpose());
        assert_eq!(
            check([[2.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 3.0]]),
            Ok(())
        );
        assert_eq!(
            check([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]]),
            Err(MassMatrixError::NonPositiveMass {
                coordinate: 2,
                mass: -1.0
            })
        );
        // Positive masses coupled into an indefinite matrix (eigenvalues 3 and −1).
        assert_eq!(
            check([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
            Err(MassMatrixError::NotPositiveDefinite {
                coordinate: 2,
                pivot: -3.0
            })
        );
        assert_eq!(
            check([[1.0, 0.5, 0.0], [0.4, 1.0, 0.0], [0.0, 0.0, 1.0]]),
            Err(MassMatrixError::NotSymmetric {
                row: 1,
                column: 2,
                upper: 0.5,
                lower: 0.4
            })
        );
        let err = check([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, f64::NAN]]).unwrap_err();
        assert!(
            matches!(err, MassMatrixError::NonFinite { row: 3, column: 3, value } if value.is_nan()),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "the mass matrix entry M[3, 3] = NaN is not finite"
        );
    }
}
