//! The `sparkgen` Python module (built by maturin from `pyproject.toml`): a problem written as
//! expressions (a problem file, or the same keys as Python keyword arguments), any method of the
//! catalogue run on it by name, and the trajectory back as numpy arrays.
//!
//! Everything runs through the library's command-line layer ([`sparkgen::cli`]): a single run is
//! the run of `sparkgen run --problem-file` (the same method choice, the same driver, the same
//! diagnostics), an ensemble the run of `sparkgen ensemble` (the method compiled once on
//! run-time sized storage, every member on rayon's threads), so the Python results equal the
//! command's. Integration releases the GIL.
//!
//! - [`problem`]: `Problem`, from a file, a TOML string or keyword arguments;
//! - [`run`]: `solve`, returning a `Solution` or, for a 2-D array of initial states, an
//!   `EnsembleSolution`;
//! - [`methods`]: `methods()`, the catalogue's facts as `Method` objects;
//! - [`errors`]: the exception classes, one per class of the library's errors.

pub mod arrays;
pub mod ensemble;
pub mod errors;
pub mod methods;
pub mod problem;
pub mod run;

use pyo3::prelude::*;

/// sparkgen: structure-preserving integrators (SPARK, VPARK, VSPARK, HPARK, HSPARK, SLRK, VPRK,
/// RATTLE, SHAKE) for constrained and degenerate mechanical systems. `Problem` holds a problem
/// written as expressions, `solve` runs any method of the catalogue on it and returns numpy
/// arrays, `methods` lists the catalogue with the method guide's recommendations; every error
/// is a `sparkgen.Error`. (In Rust: registers these in the module `m`.)
#[pymodule]
#[pyo3(name = "sparkgen")]
pub fn sparkgen_python(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<problem::Problem>()?;
    m.add_class::<run::Solution>()?;
    m.add_class::<run::EnsembleSolution>()?;
    m.add_class::<methods::Method>()?;
    m.add_function(wrap_pyfunction!(run::solve, m)?)?;
    m.add_function(wrap_pyfunction!(methods::methods, m)?)?;
    errors::register(m)
}
