//! Shared helpers of the solver tests: random cases from uniform samples, conversions between
//! nalgebra's dynamic matrices (the independent reference) and fixed-size arrays, and a driver
//! over the sizes N = 2..=12.

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

/// Takes the next `rows × cols` samples as a matrix.
pub fn take(samples: &mut &[f64], rows: usize, cols: usize) -> DMatrix<f64> {
    let (head, tail) = samples.split_at(rows * cols);
    *samples = tail;
    DMatrix::from_column_slice(rows, cols, head)
}

/// The matrix as a fixed-size array.
pub fn to_array<const N: usize>(m: &DMatrix<f64>) -> [[f64; N]; N] {
    std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)]))
}

/// The vector as a fixed-size array.
pub fn to_vector<const N: usize>(v: &DVector<f64>) -> [f64; N] {
    std::array::from_fn(|i| v[i])
}

/// Runs `$check::<N>(args)` for N = 2..=12 and folds the returned measurements with `max`.
macro_rules! for_sizes {
    ($check:ident($($arg:expr),*)) => {{
        let all = [
            $check::<2>($($arg),*)?, $check::<3>($($arg),*)?, $check::<4>($($arg),*)?,
            $check::<5>($($arg),*)?, $check::<6>($($arg),*)?, $check::<7>($($arg),*)?,
            $check::<8>($($arg),*)?, $check::<9>($($arg),*)?, $check::<10>($($arg),*)?,
            $check::<11>($($arg),*)?, $check::<12>($($arg),*)?,
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
