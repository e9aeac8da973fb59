//! The Gram matrix `A(q) = G(q) M⁻¹ G(q)ᵀ` of the constraint gradients, its extreme
//! eigenvalues and its LU factors.
//!
//! `A` is symmetric positive semi-definite, so its singular values are its eigenvalues; the
//! constraints are regular at `q` exactly when `λ_min(A) > 0`. The eigenvalues come from the
//! cyclic Jacobi method, exact to a few ε·λ_max for the small fixed `M` of this module. A
//! relative gap `λ_min ≤ τ_A λ_max` is reported as degenerate. For the seed's family `J_ε` with
//! rows `(0, 0, 1)` and `(0, ε, 1)` and `M = I`, the eigenvalues are `(2 + ε² ± √(4 + ε⁴))/2`,
//! so `λ_min/λ_max ≈ ε²/4` and the default `τ_A = 10⁻¹⁰` fires for `ε ≲ 2·10⁻⁵`.

use crate::problem::Matrix;
use crate::solve::Lu;

/// A fixed-size matrix as the row arrays [`Lu`] factors.
pub(crate) fn rows<const N: usize>(a: &Matrix<N, N>) -> [[f64; N]; N] {
    std::array::from_fn(|i| std::array::from_fn(|j| a[(i, j)]))
}

/// The extreme eigenvalues of a symmetric matrix by the cyclic Jacobi method
/// (rotations until the off-diagonal mass is below `ε²` times the total).
pub fn symmetric_eigenvalue_range<const N: usize>(a: &Matrix<N, N>) -> (f64, f64) {
    let mut a = *a;
    let total: f64 = a.iter().map(|x| x * x).sum();
    for _sweep in 0..64 {
        let mut off = 0.0;
        for i in 0..N {
            for j in i + 1..N {
                off += 2.0 * a[(i, j)] * a[(i, j)];
            }
        }
        if off <= f64::EPSILON * f64::EPSILON * total {
            break;
        }
        for i in 0..N {
            for j in i + 1..N {
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
                for k in 0..N {
                    let (aki, akj) = (a[(k, i)], a[(k, j)]);
                    a[(k, i)] = c * aki - s * akj;
                    a[(k, j)] = s * aki + c * akj;
                }
                for k in 0..N {
                    let (aik, ajk) = (a[(i, k)], a[(j, k)]);
                    a[(i, k)] = c * aik - s * ajk;
                    a[(j, k)] = s * aik + c * ajk;
                }
            }
        }
    }
    (0..N).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), i| {
        (lo.min(a[(i, i)]), hi.max(a[(i, i)]))
    })
}

/// `A(q) = G M⁻¹ Gᵀ` at one configuration, checked for rank and factored.
#[derive(Clone, Debug)]
pub struct Gram<const M: usize> {
    /// The LU factors of `A`.
    pub lu: Lu<M>,
    /// `λ_min(A)`, the smallest singular value `σ_min`.
    pub sigma_min: f64,
    /// `λ_max(A)`, the largest singular value `σ_max`.
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

impl<const M: usize> Gram<M> {
    /// Forms `A = G M⁻¹ Gᵀ` from `G` and `M⁻¹Gᵀ`, checks `σ_min > τ_A σ_max` and factors it.
    pub fn new<const D: usize>(
        g: &Matrix<M, D>,
        minv_gt: &Matrix<D, M>,
        threshold: f64,
    ) -> Result<Gram<M>, Degenerate> {
        let a = g * minv_gt;
        let (sigma_min, sigma_max) = symmetric_eigenvalue_range(&a);
        let degenerate = Degenerate {
            sigma_min,
            sigma_max,
        };
        // Written so that NaN also counts as degenerate.
        if !(sigma_min > threshold * sigma_max && sigma_max.is_finite()) {
            return Err(degenerate);
        }
        let lu = Lu::factor(&rows(&a)).map_err(|_| degenerate)?;
        Ok(Gram {
            lu,
            sigma_min,
            sigma_max,
        })
    }

    /// Solves `A y = b`.
    pub fn solve(&self, b: &crate::problem::Vector<M>) -> crate::problem::Vector<M> {
        let mut y: [f64; M] = (*b).into();
        self.lu.solve_in_place(&mut y);
        y.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn dependent_gradients_are_degenerate() {
        let g = matrix![1.0, 2.0; 2.0, 4.0];
        let err = Gram::<2>::new(&g, &g.transpose(), 1e-10).unwrap_err();
        assert!(err.sigma_min.abs() <= 1e-14 * err.sigma_max, "{err:?}");
    }
}
