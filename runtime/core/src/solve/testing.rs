//! Shared helpers of the solver tests: random cases from uniform samples, conversions between
//! nalgebra's dynamic matrices (the independent reference) and the storage of a [`Space`], and a
//! driver over the sizes n = 2..=12, each in both spaces.

use super::space::{Buffer, Dynamic, Space};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// The largest size tested.
pub const MAX: usize = 12;
/// Uniform samples in [−1, 1) per case: enough for every matrix and vector of every size.
pub const SAMPLES: usize = 4 * MAX * MAX + 4 * MAX;

/// Runs `test` on 256 random cases and panics with the first failure.
pub fn run_cases<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        // Shrinking drives the samples to zero matrices, which say nothing about the failure.
        max_shrink_iters: 0,
        ..ProptestConfig::default()
    });
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

/// The cases of a random matrix test: [`SAMPLES`] uniform samples and a decimal exponent in
/// `−3..=3` to scale them by.
pub fn scaled_samples() -> impl Strategy<Value = (Vec<f64>, i32)> {
    (prop::collection::vec(-1.0f64..1.0, SAMPLES), -3i32..=3)
}

/// The `n × n` matrix `A` (times `10^exponent`) and right-hand side `b` of the first samples.
pub fn scaled_system(n: usize, samples: &[f64], exponent: i32) -> (DMatrix<f64>, DVector<f64>) {
    let mut s = samples;
    let a = take(&mut s, n, n) * 10f64.powi(exponent);
    (a, take(&mut s, n, 1).column(0).into_owned())
}

/// The normwise backward error `η = ‖A x − b‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞)` of a solution `x` of
/// `A x = b` (residual in nalgebra's arithmetic), in units of `n·ε`, required within the bound
/// of partial pivoting, `2·max(1, growth)` (`growth` the elimination's `max|factor| / max|a|`);
/// returns `[η, growth]`, `case` naming the case in the failure.
pub fn backward_stable(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    x: &DVector<f64>,
    growth: f64,
    case: &str,
) -> Result<[f64; 2], TestCaseError> {
    let n = a.nrows();
    let residual = (a * x - b).amax();
    let norm_a = a.row_iter().map(|r| r.abs().sum()).fold(0.0, f64::max);
    let eta = residual / (norm_a * x.amax() + b.amax()) / (n as f64 * f64::EPSILON);
    prop_assert!(
        eta <= 2.0 * growth.max(1.0),
        "{}: backward error {:e} n·ε, growth {:e}",
        case,
        eta,
        growth
    );
    Ok([eta, growth])
}

/// Runs `check` on the cases of [`run_cases`] and returns the componentwise maxima of its
/// measurements.
pub fn worst_case<S: Strategy, const K: usize>(
    strategy: S,
    check: impl Fn(S::Value) -> Result<[f64; K], TestCaseError>,
) -> [f64; K] {
    let worst = std::cell::Cell::new([f64::NEG_INFINITY; K]);
    run_cases(strategy, |value| {
        worst.set(worst.get().max(check(value)?));
        Ok(())
    });
    worst.get()
}

/// Takes the next `rows × cols` samples as a matrix.
pub fn take(samples: &mut &[f64], rows: usize, cols: usize) -> DMatrix<f64> {
    let (head, tail) = samples.split_at(rows * cols);
    *samples = tail;
    DMatrix::from_column_slice(rows, cols, head)
}

/// The matrix in the storage of `space` (row-major).
pub fn to_matrix<S: Space>(space: S, m: &DMatrix<f64>) -> S::Matrix {
    let n = space.dim();
    let mut a = space.matrix();
    for (k, e) in a.entries_mut().iter_mut().enumerate() {
        *e = m[(k / n, k % n)];
    }
    a
}

/// The vector in the storage of `space`.
pub fn to_vector<S: Space>(space: S, v: &DVector<f64>) -> S::Vector {
    let mut x = space.vector();
    x.entries_mut().copy_from_slice(v.as_slice());
    x
}

/// The run-time space of `n` unknowns.
pub fn dynamic(n: usize) -> Dynamic {
    Dynamic::new(n).unwrap_or_else(|| panic!("{n} unknowns"))
}

/// The measurements of one check in the fixed and the run-time space, which must agree to the
/// last bit (the same arithmetic on other storage).
pub fn same_in_both<const K: usize>(
    fixed: [f64; K],
    dynamic: [f64; K],
) -> Result<[f64; K], TestCaseError> {
    if fixed.map(f64::to_bits) == dynamic.map(f64::to_bits) {
        Ok(fixed)
    } else {
        Err(TestCaseError::fail(format!(
            "fixed size {fixed:?} and run-time size {dynamic:?} differ"
        )))
    }
}

/// Runs `$check(space, args)` for n = 2..=12 in [`super::Fixed`]`<n>` and [`Dynamic`]`(n)`,
/// requires bit-identical measurements from both, and folds them with `max`.
macro_rules! for_sizes {
    ($check:ident($($arg:expr),*)) => {{
        use $crate::solve::Fixed;
        use $crate::solve::testing::{dynamic, same_in_both};
        let all = [
            same_in_both($check(Fixed::<2>, $($arg),*)?, $check(dynamic(2), $($arg),*)?)?,
            same_in_both($check(Fixed::<3>, $($arg),*)?, $check(dynamic(3), $($arg),*)?)?,
            same_in_both($check(Fixed::<4>, $($arg),*)?, $check(dynamic(4), $($arg),*)?)?,
            same_in_both($check(Fixed::<5>, $($arg),*)?, $check(dynamic(5), $($arg),*)?)?,
            same_in_both($check(Fixed::<6>, $($arg),*)?, $check(dynamic(6), $($arg),*)?)?,
            same_in_both($check(Fixed::<7>, $($arg),*)?, $check(dynamic(7), $($arg),*)?)?,
            same_in_both($check(Fixed::<8>, $($arg),*)?, $check(dynamic(8), $($arg),*)?)?,
            same_in_both($check(Fixed::<9>, $($arg),*)?, $check(dynamic(9), $($arg),*)?)?,
            same_in_both($check(Fixed::<10>, $($arg),*)?, $check(dynamic(10), $($arg),*)?)?,
            same_in_both($check(Fixed::<11>, $($arg),*)?, $check(dynamic(11), $($arg),*)?)?,
            same_in_both($check(Fixed::<12>, $($arg),*)?, $check(dynamic(12), $($arg),*)?)?,
        ];
        all.into_iter().reduce(|a, b| a.max(b)).unwrap_or_default()
    }};
}

/// Componentwise maxima of measurements.
pub trait Max {
    fn max(self, other: Self) -> Self;
}

impl<const K: usize> Max for [f64; K] {
    fn max(self, other: Self) -> Self {
        std::array::from_fn(|i| self[i].max(other[i]))
    }
}

pub(crate) use for_sizes;

/// An orthonormal basis of the whole space whose first `cols(m)` columns span `range(m)` (`m` of
/// full column rank): nalgebra's QR of `m` completed by random columns.
pub fn completed_basis(m: &DMatrix<f64>, samples: &mut &[f64]) -> DMatrix<f64> {
    let n = m.nrows();
    let mut square = take(samples, n, n);
    square.columns_mut(0, m.ncols()).copy_from(m);
    square.qr().q()
}
