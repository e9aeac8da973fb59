//! The typed error of every property check.

use thiserror::Error;

/// Why a property check could not be carried out on the coefficients it was given.
///
/// Indices in the payloads are 0-based positions into the slices that were passed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// The tableau has no stages (s = 0).
    #[error("the tableau has no stages")]
    Empty,
    /// A vector (b, c, or the number of rows of a matrix) does not have s entries.
    #[error("`{name}` has {found} entries where {expected} are required")]
    Length {
        /// Which argument is malformed (`"b"`, `"c"`, `"a"`, …).
        name: &'static str,
        /// The number of stages s fixed by the first matrix.
        expected: usize,
        /// The length found.
        found: usize,
    },
    /// A row of a coefficient matrix does not have s entries (the matrix is not s×s).
    #[error("row {row} of `{name}` has {found} entries where {expected} are required")]
    RowLength {
        /// Which matrix is malformed (`"a"`, `"a_bar"`).
        name: &'static str,
        /// The 0-based row index.
        row: usize,
        /// The number of stages s.
        expected: usize,
        /// The length found.
        found: usize,
    },
    /// A coefficient is NaN or infinite.
    #[error("`{name}` holds a value that is not finite")]
    NonFinite {
        /// Which argument holds the value.
        name: &'static str,
    },
    /// The tolerance is negative, NaN or infinite.
    #[error("the tolerance must be finite and non-negative")]
    Tolerance,
}
