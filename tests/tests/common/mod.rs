//! Helpers shared by the derive suites: entrywise comparison and central differences.

use nalgebra::{SMatrix, SVector};
use proptest::prelude::*;

/// `|a − b| ≤ tolerance · max(1, |a|_max, |b|_max)` entrywise (a NaN entry fails).
pub fn assert_close<const R: usize, const C: usize>(
    what: &str,
    a: SMatrix<f64, R, C>,
    b: SMatrix<f64, R, C>,
    tolerance: f64,
) {
    let scale = a.amax().max(b.amax()).max(1.0);
    assert!(
        a.iter()
            .zip(b.iter())
            .all(|(x, y)| (x - y).abs() <= tolerance * scale),
        "{what}: {a} differs from {b}"
    );
}

/// The Jacobian of `f` at `x` by central differences, `δ_k = 10⁻⁶·max(1, |x_k|)`: accurate to
/// `O(δ²) + O(ε/δ) ≈ 1e-10` relative.
pub fn central_differences<const R: usize, const C: usize>(
    f: impl Fn(&SVector<f64, C>) -> SVector<f64, R>,
    x: &SVector<f64, C>,
) -> SMatrix<f64, R, C> {
    let mut jacobian = SMatrix::<f64, R, C>::zeros();
    for k in 0..C {
        let delta = 1e-6 * x[k].abs().max(1.0);
        let (mut plus, mut minus) = (*x, *x);
        plus[k] += delta;
        minus[k] -= delta;
        jacobian.set_column(k, &((f(&plus) - f(&minus)) / (2.0 * delta)));
    }
    jacobian
}

/// Relative tolerance of the exact derivatives against central differences.
pub const FD_TOLERANCE: f64 = 1e-7;

/// Points of the plane with both coordinates in `range`.
pub fn pair(range: std::ops::Range<f64>) -> impl Strategy<Value = SVector<f64, 2>> {
    [range.clone(), range].prop_map(SVector::from)
}

/// Lotka–Volterra parameters: the SPARK test configuration a = (1, 1), b = (−1, −2) and
/// arbitrary ones.
pub fn lotka_volterra() -> impl Strategy<Value = [f64; 4]> {
    prop_oneof![
        Just([1.0, 1.0, -1.0, -2.0]),
        [-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64]
    ]
}
