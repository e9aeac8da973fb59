//! The Gram matrix `A(q) = G(q) M⁻¹ G(q)ᵀ` of the constraint gradients, its extreme
//! eigenvalues and its LU factors.
//!
//! `A` is symmetric positive semi-definite, so its singular values are its eigenvalues; the
//! constraints are regular at `q` exactly when `λ_min(A) > 0`. The eigenvalues come from the
//! cyclic Jacobi method, exact to a few ε·λ_max for the small fixed `M` of this module. A
//! relative gap `λ_min ≤ τ_A λ_max` is reported as degenerate. The eigenvalues are needed only
//! near that threshold: the Frobenius condition number `κ_F = ‖A‖_F ‖A⁻¹‖_F ≥ κ₂ = λ_max/λ_min`
//! (with `κ_F ≤ M κ₂`), from the LU factors every step needs anyway, certifies `κ₂ < 1/τ_A`
//! whenever `κ_F < 1/τ_A`, and Jacobi decides otherwise. For the seed's family `J_ε` with
//! rows `(0, 0, 1)` and `(0, ε, 1)` and `M = I`, the eigenvalues are `(2 + ε² ± √(4 + ε⁴))/2`,
//! so `λ_min/λ_max ≈ ε²/4` and the default `τ_A = 10⁻¹⁰` fires for `ε ≲ 2·10⁻⁵`.

use super::geometry::{Block, Column, Solvable};
use crate::solve::Lu;
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, U1};

/// The extreme eigenvalues of a symmetric matrix by the cyclic Jacobi method
/// (rotations until the off-diagonal mass is below `ε²` times the total).
pub fn symmetric_eigenvalue_range<N: Dim>(a: &Block<N, N>) -> (f64, f64)
where
    DefaultAllocator: Allocator<N, N>,
{
    let mut a = a.clone();
    let n = a.nrows();
    let total: f64 = a.iter().map(|x| x * x).sum();
    for _sweep in 0..64 {
        let mut off = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                off += 2.0 * a[(i, j)] * a[(i, j)];
            }
        }
        if off <= f64::EPSILON * f64::EPSILON * total {
            break;
        }
        for i in 0..n {
            for j in i + 1..n {
                let apq = a[(i, j)];
                if apq == 0.0 {
                    continue;
                }
                // The rotation zeroing a_ij: t = tan φ with cot 2φ = (a_jj − a_ii)/(2a_ij).
                let theta = (a[(j, j)] - a[(i, i)]) / (2.0 * apq);
                // `signum(0) = 1`: a tie rotates by φ = π/4.
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (aki, akj) = (a[(k, i)], a[(k, j)]);
                    a[(k, i)] = c * aki - s * akj;
                    a[(k, j)] = s * aki + c * akj;
                }
                for k in 0..n {
                    let (aik, ajk) = (a[(i, k)], a[(j, k)]);
                    a[(i, k)] = c * aik - s * ajk;
                    a[(j, k)] = s * aik + c * ajk;
                }
            }
        }
    }
    (0..n).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), i| {
        (lo.min(a[(i, i)]), hi.max(a[(i, i)]))
    })
}

/// The LU factors of the square matrix `a`, or the pivot at which it is singular (`None` when
/// it is too large to factor).
pub(crate) fn factor<N: Solvable>(a: &Block<N, N>) -> Result<Lu<N::Space>, Option<f64>>
where
    DefaultAllocator: Allocator<N, N>,
{
    let (n, _) = a.shape_generic();
    let mut lu = Lu::new(n.space().ok_or(None)?);
    // The column-major storage of `aᵀ` is `a` row by row, as the LU reads it.
    lu.refactor(a.transpose().as_slice())
        .map_err(|e| Some(e.pivot))?;
    Ok(lu)
}

/// `x = A⁻¹ b` from the factors of `A`.
pub(crate) fn solve<N: Solvable>(lu: &Lu<N::Space>, b: &Column<N>) -> Column<N>
where
    DefaultAllocator: Allocator<N>,
{
    let mut x = b.clone();
    lu.solve_in_place(x.as_mut_slice());
    x
}

/// `A(q) = G M⁻¹ Gᵀ` at one configuration, checked for rank and factored.
#[derive(Clone, Debug)]
pub struct Gram<M: Solvable> {
    /// The LU factors of `A`.
    pub lu: Lu<M::Space>,
    /// A lower bound of `λ_min(A)`, the smallest singular value `σ_min`: `1/‖A⁻¹‖_F` when the
    /// Frobenius certificate sufficed, `λ_min` itself otherwise.
    pub sigma_min: f64,
    /// An upper bound of `λ_max(A)`, the largest singular value `σ_max`: `‖A‖_F` when the
    /// Frobenius certificate sufficed, `λ_max` itself otherwise.
    pub sigma_max: f64,
}

/// The Gram matrix is numerically rank deficient: `σ_min ≤ τ_A σ_max` (or not finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Degenerate {
    /// `λ_min(A)`.
    pub sigma_min: f64,
    /// `λ_max(A)`.
    pub sigma_max: f64,
}

impl<M: Solvable> Gram<M> {
    /// Forms `A = G M⁻¹ Gᵀ` from `G` and `M⁻¹Gᵀ`, checks `σ_min > τ_A σ_max` and factors it.
    pub fn new<D: Dim>(
        g: &Block<M, D>,
        minv_gt: &Block<D, M>,
        threshold: f64,
    ) -> Result<Gram<M>, Degenerate>
    where
        DefaultAllocator: Allocator<M, D> + Allocator<D, M> + Allocator<M, M> + Allocator<M>,
    {
        let a = g * minv_gt;
        let (m, _) = a.shape_generic();
        if let Ok(lu) = factor(&a) {
            // ‖A⁻¹‖_F² = Σ_k |A⁻¹e_k|².
            let inverse_squared: f64 = (0..m.value())
                .map(|k| {
                    let mut e = Column::<M>::zeros_generic(m, U1);
                    e[k] = 1.0;
                    lu.solve_in_place(e.as_mut_slice());
                    e.iter().map(|x| x * x).sum::<f64>()
                })
                .sum();
            let (norm, inverse) = (a.norm(), inverse_squared.sqrt());
            if norm.is_finite() && inverse.is_finite() && threshold * norm * inverse < 1.0 {
                return Ok(Gram {
                    lu,
                    sigma_min: 1.0 / inverse,
                    sigma_max: norm,
                });
            }
        }
        let (sigma_min, sigma_max) = symmetric_eigenvalue_range(&a);
        let degenerate = Degenerate {
            sigma_min,
            sigma_max,
        };
        // Written so that NaN also counts as degenerate.
        if !(sigma_min > threshold * sigma_max && sigma_max.is_finite()) {
            return Err(degenerate);
        }
        let lu = factor(&a).map_err(|_| degenerate)?;
        Ok(Gram {
            lu,
            sigma_min,
            sigma_max,
        })
    }

    /// Solves `A y = b`.
    pub fn solve(&self, b: &Column<M>) -> Column<M>
    where
        DefaultAllocator: Allocator<M>,
    {
        solve::<M>(&self.lu, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Matrix;
    use nalgebra::matrix;

    #[test]
    fn eigenvalues_of_a_known_symmetric_matrix() {
        // Eigenvalues 1, 2, 4 rotated by an orthogonal Q with rational entries (Q = (1/3)·…).
        let q = matrix![1.0, 2.0, 2.0; 2.0, 1.0, -2.0; 2.0, -2.0, 1.0] / 3.0;
        let d = Matrix::<3, 3>::from_diagonal(&nalgebra::vector![1.0, 2.0, 4.0]);
        let a = q * d * q.transpose();
        let (lo, hi) = symmetric_eigenvalue_range(&a);
        assert!((lo - 1.0).abs() < 1e-14, "{lo}");
        assert!((hi - 4.0).abs() < 1e-14, "{hi}");
    }

    #[test]
    fn certificate_bounds_the_eigenvalues_and_jacobi_decides_near_the_threshold() {
        let g = matrix![1.0, 0.0, 0.0; 0.0, 1.0, 1e-3];
        let gram = Gram::<nalgebra::Const<2>>::new(&g, &g.transpose(), 1e-10).unwrap();
        let (lo, hi) = symmetric_eigenvalue_range(&(g * g.transpose()));
        assert!(gram.sigma_min <= lo && gram.sigma_max >= hi, "{gram:?}");
        // λ = (1, 1, 10⁻⁶): κ₂ = 10⁶, κ_F ≈ √2·10⁶; with τ_A = 0.9·10⁻⁶ the certificate fails
        // (τ_A κ_F > 1) but κ₂ < 1/τ_A: Jacobi accepts with the exact eigenvalues.
        let a = Matrix::<3, 3>::from_diagonal(&nalgebra::vector![1.0, 1.0, 1e-6]);
        let identity = Matrix::<3, 3>::identity();
        let gram = Gram::<nalgebra::Const<3>>::new(&a, &identity, 0.9e-6).unwrap();
        assert_eq!((gram.sigma_min, gram.sigma_max), (1e-6, 1.0));
        assert!(Gram::<nalgebra::Const<3>>::new(&a, &identity, 1.1e-6).is_err());
    }

    #[test]
    fn dependent_gradients_are_degenerate() {
        let g = matrix![1.0, 2.0; 2.0, 4.0];
        let err = Gram::<nalgebra::Const<2>>::new(&g, &g.transpose(), 1e-10).unwrap_err();
        assert!(err.sigma_min.abs() <= 1e-14 * err.sigma_max, "{err:?}");
    }
}
