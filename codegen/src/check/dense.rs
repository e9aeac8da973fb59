//! Dense vector and matrix arithmetic on plain `rug::Float` slices at a given precision.

use rug::Float;

/// The inner product Σ_i x_i y_i, correctly rounded to `prec` bits.
pub(crate) fn dot(x: &[Float], y: &[Float], prec: u32) -> Float {
    Float::with_val(prec, Float::dot(x.iter().zip(y)))
}

/// The matrix–vector product (A v)_i = Σ_j a_ij v_j, each entry scaled by `scale`.
pub(crate) fn mat_vec(a: &[Vec<Float>], v: &[Float], scale: u32, prec: u32) -> Vec<Float> {
    a.iter().map(|row| dot(row, v, prec) * scale).collect()
}

/// The row sums c_i = Σ_j a_ij, i.e. the nodes implied by A.
pub(crate) fn row_sums(a: &[Vec<Float>], prec: u32) -> Vec<Float> {
    a.iter()
        .map(|row| Float::with_val(prec, Float::sum(row.iter())))
        .collect()
}

/// The largest magnitude max_k |r_k| of a sequence of residuals (0 for an empty sequence).
pub(crate) fn max_abs(residuals: impl IntoIterator<Item = Float>, prec: u32) -> Float {
    residuals
        .into_iter()
        .map(Float::abs)
        .fold(Float::new(prec), |max, r| if r > max { r } else { max })
}
