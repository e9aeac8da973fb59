//! Validation of the plain coefficient slices, and the working precision they carry.

use rug::Float;

use super::CheckError;

/// Lower limit of the working precision (bits): inputs of lower precision (e.g. f64 constants
/// held exactly in 53-bit `Float`s) are evaluated with room to spare, so residuals measure the
/// constants rather than the arithmetic.
pub(crate) const MIN_PRECISION: u32 = 128;

/// Number of stages s and working precision (the largest precision among the inputs, at least
/// [`MIN_PRECISION`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dims {
    /// Number of stages s.
    pub(crate) s: usize,
    /// Working precision in bits.
    pub(crate) prec: u32,
}

/// Validates that every matrix is s×s and every vector has s entries, all finite.
///
/// s is taken from the first matrix, or from the first vector when no matrix is given.
pub(crate) fn dims(
    matrices: &[(&'static str, &[Vec<Float>])],
    vectors: &[(&'static str, &[Float])],
) -> Result<Dims, CheckError> {
    let s = match (matrices.first(), vectors.first()) {
        (Some((_, a)), _) => a.len(),
        (None, Some((_, v))) => v.len(),
        (None, None) => 0,
    };
    if s == 0 {
        return Err(CheckError::Empty);
    }
    let mut prec = MIN_PRECISION;
    for &(name, a) in matrices {
        if a.len() != s {
            return Err(CheckError::Length {
                name,
                expected: s,
                found: a.len(),
            });
        }
        for (row, entries) in a.iter().enumerate() {
            if entries.len() != s {
                return Err(CheckError::RowLength {
                    name,
                    row,
                    expected: s,
                    found: entries.len(),
                });
            }
            prec = prec.max(finite_precision(name, entries)?);
        }
    }
    for &(name, v) in vectors {
        if v.len() != s {
            return Err(CheckError::Length {
                name,
                expected: s,
                found: v.len(),
            });
        }
        prec = prec.max(finite_precision(name, v)?);
    }
    Ok(Dims { s, prec })
}

/// Checks that a tolerance is finite and non-negative.
pub(crate) fn tolerance(tol: &Float) -> Result<(), CheckError> {
    if tol.is_finite() && !tol.is_sign_negative() {
        Ok(())
    } else {
        Err(CheckError::Tolerance)
    }
}

/// The largest precision among `values`, or an error if one of them is not finite.
fn finite_precision(name: &'static str, values: &[Float]) -> Result<u32, CheckError> {
    values.iter().try_fold(1, |prec, x| {
        if x.is_finite() {
            Ok(prec.max(x.prec()))
        } else {
            Err(CheckError::NonFinite { name })
        }
    })
}
