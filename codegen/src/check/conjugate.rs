//! The symplectic conjugate of a tableau.

use rug::Float;

use super::CheckError;
use super::shape::dims;

/// The symplectic conjugate ā_ij = b_j (b_i − a_ji) / b_i of A with respect to the weights b.
///
/// It is the unique Ā with b_i ā_ij + b_j a_ji = b_i b_j, so (A, b)/(Ā, b) is a symplectic
/// partitioned pair; the map is an involution. Requires every b_i ≠ 0.
pub fn symplectic_conjugate(a: &[Vec<Float>], b: &[Float]) -> Result<Vec<Vec<Float>>, CheckError> {
    let d = dims(&[("a", a)], &[("b", b)])?;
    if let Some(index) = b.iter().position(Float::is_zero) {
        return Err(CheckError::ZeroWeight { index });
    }
    Ok((0..d.s)
        .map(|i| {
            (0..d.s)
                .map(|j| Float::with_val(d.prec, &b[i] - &a[j][i]) * &b[j] / &b[i])
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use rug::Float;

    use super::symplectic_conjugate;
    use crate::check::fixtures::{PREC, Rng};
    use crate::check::{CheckError, symplecticity_residual, symplecticity_residual_partitioned};

    #[test]
    fn conjugation_is_an_involution_and_makes_a_symplectic_pair() {
        let mut rng = Rng(3);
        let (a, b) = (rng.matrix(5), rng.vector(5));
        let conj = symplectic_conjugate(&a, &b).unwrap();
        let back = symplectic_conjugate(&conj, &b).unwrap();
        for (x, y) in a.iter().flatten().zip(back.iter().flatten()) {
            assert!(Float::with_val(PREC, x - y).abs() < 1e-70);
        }
        let pair = symplecticity_residual_partitioned(&a, &b, &conj, &b).unwrap();
        assert!(pair.max() < 1e-70, "{pair:?}");
        // A random tableau itself is far from symplectic.
        assert!(symplecticity_residual(&a, &b).unwrap() > 1e-3);
    }

    #[test]
    fn zero_weight_is_an_error() {
        let mut rng = Rng(4);
        let (a, mut b) = (rng.matrix(3), rng.vector(3));
        b[1] = Float::new(PREC);
        assert_eq!(
            symplectic_conjugate(&a, &b),
            Err(CheckError::ZeroWeight { index: 1 })
        );
    }
}
