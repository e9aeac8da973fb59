//! Typed errors of problem files: every mistake in the file is reported at its line and column.

use std::fmt;

/// What is wrong at a place in a problem file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The file is not valid TOML.
    #[error("TOML syntax: {0}")]
    Toml(String),
    /// A key the problem kind does not use.
    #[error("unknown key `{key}`; expected one of {expected}")]
    UnknownKey {
        /// The key.
        key: String,
        /// The keys allowed there.
        expected: String,
    },
    /// A required key is absent (reported at the table that lacks it).
    #[error("missing key `{0}`")]
    MissingKey(String),
    /// `kind` is none of the supported problem kinds.
    #[error(
        "unknown problem kind `{0}`; expected one of `degenerate_lagrangian`, `holonomic`, `lagrangian`"
    )]
    UnknownKind(String),
    /// A value of the wrong TOML type.
    #[error("`{key}` must be {expected}")]
    WrongType {
        /// The key.
        key: String,
        /// What it must be, e.g. "a list of strings".
        expected: &'static str,
    },
    /// A list whose length does not match the number of coordinates.
    #[error("`{key}` has {found} entries, expected {expected} ({per})")]
    WrongDimension {
        /// The key.
        key: String,
        /// Required length.
        expected: usize,
        /// Length found.
        found: usize,
        /// What fixes the length, e.g. "one per coordinate".
        per: &'static str,
    },
    /// A list longer than problem files support (coordinates, constraints, …).
    #[error("`{key}` has {found} entries; a problem file may have at most {limit}")]
    TooMany {
        /// The key.
        key: String,
        /// Length found.
        found: usize,
        /// The largest supported length.
        limit: usize,
    },
    /// More holonomic constraints than coordinates: M gradients in a space of dimension D < M
    /// are linearly dependent at every q, so the Gram matrix `G M⁻¹ Gᵀ` is singular everywhere
    /// and the multipliers are never determined.
    #[error(
        "`constraints` has {found} entries for {coordinates} coordinates: {found} constraint gradients in {coordinates} dimensions are linearly dependent at every point, so the multipliers are never determined (at most {coordinates} constraints can be independent)"
    )]
    TooManyConstraints {
        /// Constraints M.
        found: usize,
        /// Coordinates D.
        coordinates: usize,
    },
    /// A parameter or initial value that is NaN or infinite.
    #[error("`{key}` must be finite, found {value}")]
    NotFinite {
        /// The key.
        key: String,
        /// The value found, as written by Rust (`NaN`, `inf`, `-inf`).
        value: String,
    },
    /// A mass matrix that is not positive definite at the file's parameter values (the
    /// [`MassError`]'s message).
    #[error("{0}")]
    NotPositiveDefinite(String),
    /// A name in an expression that is neither a coordinate nor a parameter.
    #[error("{0}")]
    UnknownName(String),
    /// A function outside the supported set.
    #[error("{0}")]
    UnsupportedFunction(String),
    /// A function without a derivative where a derivative is required.
    #[error("{0}")]
    NotDifferentiable(String),
    /// A subexpression whose value is never finite: constant and NaN or infinite (`1/0`,
    /// `ln(0)`, `1e308 * 1e308`), or a quotient whose divisor is the constant 0 once folded
    /// (`0/0`, `q1 / (q1 - q1)`).
    #[error("{0}")]
    NotFiniteExpression(String),
    /// An expression that does not parse, or another invalid construct (unsupported operator,
    /// duplicate name, singular mass matrix, …).
    #[error("{0}")]
    InvalidExpression(String),
    /// A bug of sparkgen, not of the file.
    #[error("internal error: {0}")]
    Internal(String),
}

/// One error at a place in the file: line and column from 1, the column counted in characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct Located {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in characters (Unicode scalar values).
    pub column: usize,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// Why a problem file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ProblemFileError {
    /// The file could not be read.
    #[error("cannot read the problem file: {0}")]
    Io(#[from] std::io::Error),
    /// The file is larger than problem files may be (checked before it is parsed).
    #[error("the problem file is larger than {limit} bytes")]
    TooLarge {
        /// The largest size read, in bytes.
        limit: u64,
    },
    /// The file has errors: all of them, in file order (never empty).
    #[error("{}", Summary(.0))]
    Invalid(Vec<Located>),
}

impl ProblemFileError {
    /// The located errors (empty for an I/O error).
    pub fn errors(&self) -> &[Located] {
        match self {
            ProblemFileError::Io(_) | ProblemFileError::TooLarge { .. } => &[],
            ProblemFileError::Invalid(errors) => errors,
        }
    }
}

/// The first error and how many follow.
struct Summary<'a>(&'a [Located]);

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [] => f.write_str("invalid problem file"),
            [one] => write!(f, "{one}"),
            [first, rest @ ..] => write!(
                f,
                "{first} (and {} more error{})",
                rest.len(),
                if rest.len() == 1 { "" } else { "s" }
            ),
        }
    }
}

/// The problem has another dimension than the view asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the problem has {found} {what}, not {expected}")]
pub struct DimensionError {
    /// "coordinates" or "constraints".
    pub what: &'static str,
    /// The dimension asked for.
    pub expected: usize,
    /// The problem's.
    pub found: usize,
}

/// A mass matrix that is not positive definite at the parameter values: its Cholesky
/// factorisation M = LLᵀ meets a pivot M_kk − Σⱼ₍ⱼ₍ₖ₎ L_kj² that is not positive (or not finite).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "the mass matrix is not positive definite at the parameter values: pivot {pivot} of its \
     Cholesky factorisation is {value} (every pivot must be positive)"
)]
pub struct MassError {
    /// The pivot's index (from 0).
    pub pivot: usize,
    /// Its value.
    pub value: f64,
}

/// Initial data that the problem cannot take (set after the file was read, see
/// [`ProblemFile::set_initial`](super::ProblemFile::set_initial)).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InitialError {
    /// A vector with another number of entries than the problem's coordinates.
    #[error("the initial `{name}` has {found} entries; the problem has {expected} coordinates")]
    Length {
        /// `q`, `p` or `v`.
        name: &'static str,
        /// D.
        expected: usize,
        /// The entries given.
        found: usize,
    },
    /// An entry that is NaN or infinite.
    #[error("entry {index} of the initial `{name}` must be finite, found {value}")]
    NotFinite {
        /// `q`, `p` or `v`.
        name: &'static str,
        /// The entry (from 0).
        index: usize,
        /// Its value.
        value: f64,
    },
    /// The second vector, which only a degenerate Lagrangian may leave out.
    #[error("the initial `{name}` is required for this kind of problem")]
    Missing {
        /// `p` or `v`.
        name: &'static str,
    },
}

/// A parameter value that the problem cannot take (set after the file was read).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// A parameter that is NaN or infinite.
    #[error("the parameter `{name}` must be finite, found {value}")]
    NotFinite {
        /// The parameter.
        name: String,
        /// Its value.
        value: f64,
    },
    /// The mass matrix is not positive definite.
    #[error("{0}")]
    Mass(#[from] MassError),
}

/// Arguments or an output slice whose lengths do not fit the trait method they are passed to
/// (see [`MethodSignature`](super::MethodSignature)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvaluateError {
    /// Another number of argument vectors than the method takes.
    #[error("`{method}` takes {expected} argument vectors, {found} were given")]
    ArgumentCount {
        /// The trait method.
        method: &'static str,
        /// The number it takes.
        expected: usize,
        /// The number given.
        found: usize,
    },
    /// An argument vector of the wrong length.
    #[error("the argument `{argument}` of `{method}` has {found} entries, expected {expected}")]
    ArgumentLength {
        /// The trait method.
        method: &'static str,
        /// The argument's name (`q`, `w`, `v`, `lambda`).
        argument: &'static str,
        /// Its length.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// An output slice of the wrong length.
    #[error(
        "the output of `{method}` is {rows} × {cols} ({} entries, row-major), the slice has {found}",
        rows * cols
    )]
    OutputLength {
        /// The trait method.
        method: &'static str,
        /// The output's rows.
        rows: usize,
        /// The output's columns.
        cols: usize,
        /// The slice's length.
        found: usize,
    },
}
