//! Problems read from TOML files and evaluated by the symbolic engine at run time, without
//! compiling Rust.
//!
//! A problem file states a problem with the same expression syntax as the derive attributes
//! (see `sparkgen_sym::derive`): numbers, coordinate and parameter names, `+ - * /`, unary `-`,
//! parentheses and the functions `powi powf sqrt exp ln log sin cos tan asin acos atan atan2
//! sinh cosh tanh abs hypot`, as `f(x, …)` or `x.f(…)`. The expressions are lowered into the
//! symbolic graph and differentiated exactly by the code the derives use, and every trait method
//! is evaluated by a [`Tape`](sparkgen_sym::Tape) compiled from the same kernel the derive would
//! emit, so a file computes bit for bit what the derived struct computes.
//!
//! ```toml
//! kind = "degenerate_lagrangian"        # or "holonomic", "lagrangian"
//! coordinates = ["q1", "q2"]
//! theta = ["q2 + ln(q2) / q1", "q1"]   # ϑ(q), one entry per coordinate
//! hamiltonian = "a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2)"
//!
//! [parameters]                          # optional: name = number
//! a1 = -1.0
//!
//! [definitions]                         # optional, ordered: name = "expression"
//! r = "hypot(q1, q2)"                   # may use coordinates, parameters, earlier definitions
//!
//! [initial]
//! q = [2.0, 1.0]
//! p = [1.0, 2.0]                        # optional: ϑ(q₀) when absent
//! ```
//!
//! | kind | keys | initial | trait |
//! |---|---|---|---|
//! | `degenerate_lagrangian` | `theta` (list), `hamiltonian` | `q`, optional `p` | [`DegenerateLagrangian<D>`](crate::problem::DegenerateLagrangian) |
//! | `holonomic` | optional `mass` (`"m"`, `"[m1, m2]"` or `"[[a, b], [b, c]]"`; identity when absent), `potential`, `constraints` (list) | `q`, `p` | [`HolonomicSystem<D, M>`](crate::problem::HolonomicSystem) |
//! | `lagrangian` | `velocities` (list of names), `lagrangian` | `q`, `v` | [`Lagrangian<D>`](crate::problem::Lagrangian) |
//!
//! `[definitions]` names subexpressions, in order: each is `name = "expression"`, where the
//! expression may use the coordinates (and velocities), the parameters and the definitions
//! above it, and every expression of the file (`theta`, `hamiltonian`, `mass`, `potential`,
//! `constraints`, `lagrangian`) may use the names. A definition is lowered once into the
//! symbolic graph, which hash-conses its nodes: every use is the same node, differentiated
//! once, and the problem computes bit for bit what it computes with every definition written
//! out in parentheses where it is used. A definition named like a coordinate, a velocity, a
//! parameter or another definition, one that uses itself or a later one, and an unknown name
//! in one are errors at their line and column; a definition of coordinates used in `mass` is
//! the error "must be constant" at the mass. The derive attributes take the same as
//! `definitions = [r = hypot(x, y), …]` (see `sparkgen_sym::derive`).
//!
//! The file's problem has its dimensions at run time. Each kind evaluates any method of its
//! trait at run time into caller slices, without const generics:
//! [`DegenerateLagrangianFile::evaluate`] with a [`DegenerateMethod`],
//! [`HolonomicFile::evaluate`] with a [`HolonomicMethod`], [`LagrangianFile::evaluate`] with a
//! [`LagrangianMethod`]; the arguments are the method's state vectors in the trait's order,
//! the output is written in row-major order (entry (i, j) of a matrix at `i · cols + j`), and
//! `signature(method)` gives the lengths, which `evaluate` checks ([`EvaluateError`]). The
//! tapes are resolved by the method enum when the file is read, and their registers are a
//! per-thread buffer that only grows, so evaluation allocates nothing after a thread's first
//! calls and the files are `Sync`. `view::<D>()` (`view::<D, M>()`) checks the dimensions once
//! and returns a value implementing the const-generic trait on the same tapes, so callers with
//! compiled steppers dispatch on D.
//!
//! Every error — TOML syntax, unknown or missing key, wrong type, wrong dimension, unknown name,
//! unsupported function, non-differentiable construct — is reported at its line and column in
//! the file (from 1; columns count characters); all errors of a file are reported at once.
//!
//! Limits, checked before the work they bound: a file has at most [`MAX_FILE_BYTES`] (reading
//! stops there), every list at most [`MAX_DIMENSION`] entries, and an expression (a
//! definition's included; a use of a definition is a name) nests at most 128 levels of
//! parentheses, brackets and calls (chains of `+ - * /` and runs of signs may be
//! of any length; reading, differentiating and compiling take time and memory linear in the
//! file's size). Parameters and initial values must be finite; the mass matrix may depend on
//! parameters only and must be positive definite at their values ([`ProblemFile::validate`]
//! checks again after [`ProblemFile::set_parameter`]).

mod degenerate;
mod document;
mod error;
mod fused;
mod holonomic;
mod lagrangian;
mod machine;
mod model;
mod reader;

pub use degenerate::{DegenerateLagrangianFile, DegenerateLagrangianView, DegenerateMethod};
pub use error::{
    DimensionError, ErrorKind, EvaluateError, InitialError, Located, MassError, ProblemFileError,
    ValueError,
};
pub use holonomic::{HolonomicFile, HolonomicMethod, HolonomicView};
pub use lagrangian::{LagrangianFile, LagrangianMethod, LagrangianView};
pub use model::{MethodSignature, UnknownParameter};

use document::{Diagnostics, Table};
use model::Model;
use reader::Reader;
use std::io::Read;
use std::path::Path;
use toml::de::DeTable;

/// The largest problem file, in bytes. Reading, parsing, differentiating and compiling a file
/// take time and memory linear in its size (for a bounded number of coordinates), so this
/// bounds both.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The most entries a list of a problem file may have: coordinates, constraints (and so
/// `theta`, `velocities`). The derivative objects have up to D² entries (D³ operations for
/// the inverse mass matrix), so this bounds the work independently of the expressions' size.
pub const MAX_DIMENSION: usize = 64;

/// The keys every problem kind has.
const COMMON_KEYS: &[&str] = &[
    "kind",
    "coordinates",
    "parameters",
    "definitions",
    "initial",
];

/// A problem read from a file.
#[derive(Clone, Debug, PartialEq)]
pub enum ProblemFile {
    /// `kind = "degenerate_lagrangian"`.
    DegenerateLagrangian(DegenerateLagrangianFile),
    /// `kind = "holonomic"`.
    Holonomic(HolonomicFile),
    /// `kind = "lagrangian"`.
    Lagrangian(LagrangianFile),
}

impl ProblemFile {
    /// Reads and parses the file at `path`; at most [`MAX_FILE_BYTES`] (and one more, to tell
    /// a larger file) are read.
    pub fn read(path: impl AsRef<Path>) -> Result<ProblemFile, ProblemFileError> {
        let mut source = String::new();
        std::fs::File::open(path)?
            .take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut source)?;
        ProblemFile::parse(&source)
    }

    /// Parses the problem file `source` (of at most [`MAX_FILE_BYTES`]).
    pub fn parse(source: &str) -> Result<ProblemFile, ProblemFileError> {
        if source.len() as u64 > MAX_FILE_BYTES {
            return Err(ProblemFileError::TooLarge {
                limit: MAX_FILE_BYTES,
            });
        }
        let root = DeTable::parse(source).map_err(|error| {
            let mut diagnostics = Diagnostics::new(source);
            let offset = error.span().map_or(0, |span| span.start);
            diagnostics.at(offset, ErrorKind::Toml(error.message().trim().to_owned()));
            ProblemFileError::Invalid(diagnostics.into_located())
        })?;
        let mut reader = Reader::new(source);
        let problem = read(&mut reader, root.get_ref());
        match problem {
            Some(problem) if reader.diagnostics.is_empty() => Ok(problem),
            _ => Err(ProblemFileError::Invalid(reader.diagnostics.into_located())),
        }
    }

    /// The number of coordinates D.
    pub fn dimension(&self) -> usize {
        self.model().coordinates().len()
    }

    /// The coordinate names.
    pub fn coordinates(&self) -> &[String] {
        self.model().coordinates()
    }

    /// The parameters and their values, in the file's key order.
    pub fn parameters(&self) -> impl Iterator<Item = (&str, f64)> {
        self.model().parameters()
    }

    /// Sets the parameter `name` to `value` (e.g. from a command line).
    pub fn set_parameter(&mut self, name: &str, value: f64) -> Result<(), UnknownParameter> {
        let model = match self {
            ProblemFile::DegenerateLagrangian(p) => &mut p.model,
            ProblemFile::Holonomic(p) => &mut p.model,
            ProblemFile::Lagrangian(p) => &mut p.model,
        };
        model.set_parameter(name, value)
    }

    /// Checks the values the parameters have now (after [`ProblemFile::set_parameter`]): every
    /// parameter finite and, for a holonomic system, the mass matrix positive definite (both
    /// are checked when the file is read, at their place in the file).
    pub fn validate(&self) -> Result<(), ValueError> {
        if let Some((name, value)) = self.parameters().find(|(_, value)| !value.is_finite()) {
            return Err(ValueError::NotFinite {
                name: name.to_owned(),
                value,
            });
        }
        if let ProblemFile::Holonomic(file) = self {
            file.check_mass()?;
        }
        Ok(())
    }

    /// The names of the initial vectors, as `[initial]` names them: `("q", "p")`, or
    /// `("q", "v")` for a Lagrangian.
    pub fn initial_names(&self) -> (&'static str, &'static str) {
        match self {
            ProblemFile::Lagrangian(_) => ("q", "v"),
            _ => ("q", "p"),
        }
    }

    /// The initial data `(q₀, p₀)` (for a Lagrangian `(q₀, v₀)`), each of D entries; a
    /// degenerate Lagrangian without `p` has `p₀ = ϑ(q₀)`.
    pub fn initial(&self) -> (Vec<f64>, Vec<f64>) {
        match self {
            ProblemFile::DegenerateLagrangian(p) => p.initial(),
            ProblemFile::Holonomic(p) => {
                let (q, p) = p.initial();
                (q.to_vec(), p.to_vec())
            }
            ProblemFile::Lagrangian(p) => {
                let (q, v) = p.initial();
                (q.to_vec(), v.to_vec())
            }
        }
    }

    /// Replaces the initial data by `q₀` and the second vector (`p₀`, or `v₀` for a
    /// Lagrangian), as if the file's `[initial]` gave them: each of D finite entries; the
    /// second may be left out only for a degenerate Lagrangian (then `p₀ = ϑ(q₀)`).
    pub fn set_initial(&mut self, q: &[f64], second: Option<&[f64]>) -> Result<(), InitialError> {
        let d = self.dimension();
        let (q_name, second_name) = self.initial_names();
        let check = |name: &'static str, values: &[f64]| {
            if values.len() != d {
                return Err(InitialError::Length {
                    name,
                    expected: d,
                    found: values.len(),
                });
            }
            match values.iter().position(|x| !x.is_finite()) {
                Some(index) => Err(InitialError::NotFinite {
                    name,
                    index,
                    value: values[index],
                }),
                None => Ok(values.to_vec()),
            }
        };
        let q = check(q_name, q)?;
        let second = second.map(|v| check(second_name, v)).transpose()?;
        let required = || InitialError::Missing { name: second_name };
        match self {
            ProblemFile::DegenerateLagrangian(p) => p.set_initial(q, second),
            ProblemFile::Holonomic(p) => p.set_initial(q, second.ok_or_else(required)?),
            ProblemFile::Lagrangian(p) => p.set_initial(q, second.ok_or_else(required)?),
        }
        Ok(())
    }

    fn model(&self) -> &Model {
        match self {
            ProblemFile::DegenerateLagrangian(p) => &p.model,
            ProblemFile::Holonomic(p) => &p.model,
            ProblemFile::Lagrangian(p) => &p.model,
        }
    }
}

/// The problem kinds, as `kind` names them.
#[derive(Clone, Copy)]
enum Kind {
    DegenerateLagrangian,
    Holonomic,
    Lagrangian,
}

/// Reads the problem in `root`; `None` after recording errors.
fn read(reader: &mut Reader, root: &DeTable) -> Option<ProblemFile> {
    let kind_value = Table::open(root, 0).require("kind", &mut reader.diagnostics)?;
    let (kind, keys) = match document::string("kind", kind_value, &mut reader.diagnostics)? {
        "degenerate_lagrangian" => (Kind::DegenerateLagrangian, degenerate::KEYS),
        "holonomic" => (Kind::Holonomic, holonomic::KEYS),
        "lagrangian" => (Kind::Lagrangian, lagrangian::KEYS),
        other => {
            let unknown = ErrorKind::UnknownKind(other.to_owned());
            reader.diagnostics.at_value(kind_value, unknown);
            return None;
        }
    };
    let allowed: Vec<&str> = COMMON_KEYS.iter().chain(keys).copied().collect();
    let table = Table::new(root, 0, &allowed, &mut reader.diagnostics);
    let coordinates = reader.expressions(&table, "coordinates", None)?;
    Some(match kind {
        Kind::DegenerateLagrangian => ProblemFile::DegenerateLagrangian(
            DegenerateLagrangianFile::read(reader, &table, &coordinates)?,
        ),
        Kind::Holonomic => {
            ProblemFile::Holonomic(HolonomicFile::read(reader, &table, &coordinates)?)
        }
        Kind::Lagrangian => {
            ProblemFile::Lagrangian(LagrangianFile::read(reader, &table, &coordinates)?)
        }
    })
}

/// The vector of the file's initial `values` (checked to have D entries when read).
fn vector<const D: usize>(values: &[f64]) -> crate::problem::Vector<D> {
    crate::problem::Vector::<D>::from_iterator(values.iter().copied())
}

/// `Ok` when the problem's `found` dimension is the `expected` one.
fn check_dimension(
    what: &'static str,
    expected: usize,
    found: usize,
) -> Result<(), DimensionError> {
    if expected == found {
        Ok(())
    } else {
        Err(DimensionError {
            what,
            expected,
            found,
        })
    }
}
