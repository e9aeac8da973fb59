//! Square band matrices and their LU factorisation without pivoting.
//!
//! Why a band LU and not a general sparse factorisation (nalgebra-sparse's CSC Cholesky): the
//! two matrices of a RATTLE step, the Gram matrix `A = G M⁻¹ Gᵀ` (symmetric positive definite)
//! and the exact Newton matrix `G(q₁) M⁻¹ G(q_n)ᵀ` (not symmetric), have the same structure, an
//! entry `(b, b')` for every pair of bonds sharing a particle. With the bonds numbered along the
//! molecule that structure lies in a band of half-width `w` (`w = 1` for a chain), and LU
//! without pivoting keeps all fill inside the band: `O(n w²)` to factor, `O(n w)` to solve, in
//! storage allocated once. A Cholesky-only crate covers `A` but not the Newton matrix, and does
//! no fill-reducing ordering either. No pivoting is needed for `A`: Gaussian elimination on a
//! symmetric positive definite matrix is backward stable without it, and its pivots `u_kk` are
//! the `D` of `A = L D Lᵀ`, each at least `λ_min(A)`. The Newton matrix is `A(q_n) + O(h)`.

/// A square `n × n` matrix with `a_ij = 0` for `|i − j| > w`, row by row in `2w + 1` slots;
/// after [`Band::factor`] it holds `L − I` (unit lower) and `U` in the same slots, and the
/// reciprocal pivots `1/u_kk` (the back substitution multiplies: a division in its dependency
/// chain would triple the cost of a tridiagonal solve).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Band {
    n: usize,
    w: usize,
    data: Vec<f64>,
    inverse_pivots: Vec<f64>,
}

/// The pivot `u_kk` that stopped the factorisation (negligible or not finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SmallPivot {
    /// `u_kk`.
    pub(super) pivot: f64,
}

impl Band {
    /// The zero `n × n` matrix of half-bandwidth `w`.
    pub(super) fn zeros(n: usize, w: usize) -> Band {
        Band {
            n,
            w,
            data: vec![0.0; n * (2 * w + 1)],
            inverse_pivots: vec![0.0; n],
        }
    }

    fn index(&self, i: usize, j: usize) -> usize {
        i * (2 * self.w + 1) + self.w + j - i
    }

    /// Sets every entry to zero.
    pub(super) fn clear(&mut self) {
        self.data.fill(0.0);
    }

    /// `a_ij += v` (`|i − j| ≤ w`).
    pub(super) fn add(&mut self, i: usize, j: usize, v: f64) {
        let k = self.index(i, j);
        self.data[k] += v;
    }

    /// LU factorisation in place, without pivoting; returns the smallest (signed) pivot
    /// `min_k u_kk`. A pivot `|u_kk| ≤ (2w + 1)·ε·max_ij |a_ij|`, or one that is not finite,
    /// stops it (the threshold of the dense LU with the band's row length for `N`).
    pub(super) fn factor(&mut self) -> Result<f64, SmallPivot> {
        let (n, w) = (self.n, self.w);
        let scale = self.data.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let threshold = (2 * w + 1) as f64 * f64::EPSILON * scale;
        let mut smallest = f64::INFINITY;
        for k in 0..n {
            let pivot = self.data[self.index(k, k)];
            // Written so that a NaN pivot also stops it.
            if pivot.abs().partial_cmp(&threshold) != Some(std::cmp::Ordering::Greater) {
                return Err(SmallPivot { pivot });
            }
            smallest = smallest.min(pivot);
            self.inverse_pivots[k] = 1.0 / pivot;
            let end = (k + w + 1).min(n);
            for i in k + 1..end {
                let ik = self.index(i, k);
                let l = self.data[ik] / pivot;
                self.data[ik] = l;
                for j in k + 1..end {
                    let (ij, kj) = (self.index(i, j), self.index(k, j));
                    self.data[ij] -= l * self.data[kj];
                }
            }
        }
        Ok(smallest)
    }

    /// Solves `L U x = b` in place (after [`Band::factor`]).
    pub(super) fn solve_in_place(&self, x: &mut [f64]) {
        let (n, w) = (self.n, self.w);
        let width = 2 * w + 1;
        let rows = self.data.chunks_exact(width);
        // Row i holds a_ij at slot w + j − i: the slots before w are L's, the rest U's.
        for (i, row) in rows.clone().enumerate() {
            let start = i.saturating_sub(w);
            let l = &row[w - (i - start)..w];
            let s: f64 = l.iter().zip(&x[start..i]).map(|(a, b)| a * b).sum();
            x[i] -= s;
        }
        for (i, (row, inverse)) in rows.zip(&self.inverse_pivots).enumerate().rev() {
            let end = (i + w + 1).min(n);
            let u = &row[w + 1..w + end - i];
            let s: f64 = u.iter().zip(&x[i + 1..end]).map(|(a, b)| a * b).sum();
            x[i] = (x[i] - s) * inverse;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random-looking non-symmetric band matrix with a dominant diagonal.
    fn example(n: usize, w: usize) -> (Band, nalgebra::DMatrix<f64>) {
        let mut band = Band::zeros(n, w);
        let mut dense = nalgebra::DMatrix::zeros(n, n);
        for i in 0..n {
            for j in i.saturating_sub(w)..(i + w + 1).min(n) {
                let v = if i == j {
                    4.0 + i as f64 * 0.1
                } else {
                    ((3 * i + 7 * j) % 11) as f64 / 11.0 - 0.5
                };
                band.add(i, j, v);
                dense[(i, j)] = v;
            }
        }
        (band, dense)
    }

    #[test]
    fn solves_agree_with_dense_lu() {
        for (n, w) in [(1usize, 0usize), (7, 1), (12, 3), (5, 6)] {
            let w = w.min(n.saturating_sub(1));
            let (mut band, dense) = example(n, w);
            band.factor().unwrap();
            let b: Vec<f64> = (0..n).map(|i| (i as f64).sin() + 1.0).collect();
            let mut x = b.clone();
            band.solve_in_place(&mut x);
            let expected = dense.lu().solve(&nalgebra::DVector::from(b)).unwrap();
            let error = (nalgebra::DVector::from(x) - &expected).amax();
            assert!(
                error <= 1e-14 * expected.amax(),
                "n = {n}, w = {w}: {error}"
            );
        }
    }

    #[test]
    fn a_negligible_pivot_stops_the_factorisation() {
        // [[1, 1], [1, 1]]: u₂₂ = 0.
        let mut band = Band::zeros(2, 1);
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            band.add(i, j, 1.0);
        }
        assert_eq!(band.factor(), Err(SmallPivot { pivot: 0.0 }));
    }
}
