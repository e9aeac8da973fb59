//! Symplecticity and symmetry residuals.

use rug::Float;

use super::CheckError;
use super::dense::max_abs;
use super::shape::dims;

/// Residuals of the symplecticity conditions of a partitioned pair (A, b)/(Ā, b̄).
#[derive(Debug, Clone, PartialEq)]
pub struct PairSymplecticity {
    /// max_ij |b_i ā_ij + b̄_j a_ji − b_i b̄_j|.
    pub coefficients: Float,
    /// max_i |b_i − b̄_i|.
    pub weights: Float,
}

impl PairSymplecticity {
    /// The larger of the two residuals.
    pub fn max(&self) -> Float {
        self.coefficients.clone().max(&self.weights)
    }
}

/// Residuals of the symmetry conditions of a tableau (indices reflected by i ↦ s + 1 − i).
#[derive(Debug, Clone, PartialEq)]
pub struct Symmetry {
    /// max_ij |a_{s+1−i, s+1−j} + a_ij − b_j| (the condition RungeKutta.jl checks).
    pub coefficients: Float,
    /// max_i |c_{s+1−i} + c_i − 1|.
    pub nodes: Float,
    /// max_i |b_{s+1−i} − b_i|.
    pub weights: Float,
}

impl Symmetry {
    /// The largest of the three residuals.
    pub fn max(&self) -> Float {
        self.coefficients
            .clone()
            .max(&self.nodes)
            .max(&self.weights)
    }
}

/// Symplecticity residual of a single tableau: max_ij |b_i a_ij + b_j a_ji − b_i b_j|.
pub fn symplecticity_residual(a: &[Vec<Float>], b: &[Float]) -> Result<Float, CheckError> {
    Ok(symplecticity_residual_partitioned(a, b, a, b)?.coefficients)
}

/// Symplecticity residuals of a partitioned pair (A, b)/(Ā, b̄):
/// b_i ā_ij + b̄_j a_ji − b_i b̄_j and b_i − b̄_i.
pub fn symplecticity_residual_partitioned(
    a: &[Vec<Float>],
    b: &[Float],
    a_bar: &[Vec<Float>],
    b_bar: &[Float],
) -> Result<PairSymplecticity, CheckError> {
    let d = dims(&[("a", a), ("a_bar", a_bar)], &[("b", b), ("b_bar", b_bar)])?;
    let prec = d.prec;
    let coefficients = (0..d.s).flat_map(|i| {
        (0..d.s).map(move |j| {
            let bb = Float::with_val(prec, &b[i] * &b_bar[j]);
            Float::with_val(prec, &b[i] * &a_bar[i][j])
                + Float::with_val(prec, &b_bar[j] * &a[j][i])
                - bb
        })
    });
    Ok(PairSymplecticity {
        coefficients: max_abs(coefficients, prec),
        weights: max_abs(
            b.iter()
                .zip(b_bar)
                .map(|(x, y)| Float::with_val(prec, x - y)),
            prec,
        ),
    })
}

/// Symmetry residuals of a tableau (A, b, c).
pub fn symmetry_residual(
    a: &[Vec<Float>],
    b: &[Float],
    c: &[Float],
) -> Result<Symmetry, CheckError> {
    let d = dims(&[("a", a)], &[("b", b), ("c", c)])?;
    let (s, prec) = (d.s, d.prec);
    let coefficients = (0..s).flat_map(|i| {
        (0..s).map(move |j| Float::with_val(prec, &a[s - 1 - i][s - 1 - j] + &a[i][j]) - &b[j])
    });
    let nodes = (0..s).map(|i| Float::with_val(prec, &c[s - 1 - i] + &c[i]) - 1u32);
    let weights = (0..s).map(|i| Float::with_val(prec, &b[s - 1 - i] - &b[i]));
    Ok(Symmetry {
        coefficients: max_abs(coefficients, prec),
        nodes: max_abs(nodes, prec),
        weights: max_abs(weights, prec),
    })
}
