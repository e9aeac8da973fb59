//! `sparkgen.Problem`: a problem written as expressions, read from a problem file, from TOML
//! text, or from keyword arguments with the file's keys (`kind`, `coordinates`, `theta`,
//! `hamiltonian`, `mass`, `potential`, `constraints`, `velocities`, `lagrangian`, and the
//! tables `parameters`, `definitions`, `initial`). Keyword arguments are written as a problem
//! file's TOML ([`keywords`]) and read by the same reader, so they take the same expressions and
//! are checked by the same rules; their errors name the keyword (and entry) instead of a line.

pub mod keywords;

use crate::arrays;
use crate::errors::{self, ProblemError};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use sparkgen::cli::CliError;
use sparkgen::cli::problem_files;
use sparkgen::problem_file::ProblemFile;

/// A problem written as expressions: `Problem(**keys)` with a problem file's keys as keyword
/// arguments (`kind`, `coordinates`; per kind `theta` and `hamiltonian`, `mass`, `potential` and
/// `constraints`, or `velocities` and `lagrangian`; the mappings `parameters`, `definitions` and
/// `initial`), `Problem.from_file(path, parameters)` or `Problem.from_toml(text)`.
#[pyclass(frozen, module = "sparkgen")]
#[derive(Clone)]
pub struct Problem {
    /// The problem.
    pub(crate) file: ProblemFile,
    /// How it was given: the file's path, `<string>` or `<keywords>`.
    pub(crate) name: String,
}

#[pymethods]
impl Problem {
    /// The problem of the keyword arguments `keys`, the keys of a problem file.
    #[new]
    #[pyo3(signature = (**keys))]
    fn new(keys: Option<&Bound<'_, PyDict>>) -> PyResult<Problem> {
        let document = keywords::Document::of(keys)?;
        match ProblemFile::parse(document.text()) {
            Ok(file) => Ok(Problem {
                file,
                name: keywords::NAME.to_owned(),
            }),
            Err(source) => Err(ProblemError::new_err(document.message(&source))),
        }
    }

    /// The problem file at `path`, with the values of `parameters` (a mapping of names to
    /// numbers) set.
    #[staticmethod]
    #[pyo3(signature = (path, parameters = None))]
    fn from_file(
        path: std::path::PathBuf,
        parameters: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Problem> {
        let (file, subject) = problem_files::load(&path, &[]).map_err(errors::raise)?;
        Problem {
            file,
            name: subject.name,
        }
        .with(parameters)
    }

    /// The problem file `text` (TOML), named `name` in messages.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<string>"))]
    fn from_toml(text: &str, name: &str) -> PyResult<Problem> {
        let file = ProblemFile::parse(text).map_err(|source| {
            errors::raise(CliError::ProblemFile {
                path: name.into(),
                source,
            })
        })?;
        Ok(Problem {
            file,
            name: name.to_owned(),
        })
    }

    /// The same problem with the parameters given as keyword arguments set.
    #[pyo3(signature = (**values))]
    fn with_parameters(&self, values: Option<&Bound<'_, PyDict>>) -> PyResult<Problem> {
        self.clone().with(values)
    }

    /// The same problem from the initial data `q` and `p` (`v` for a Lagrangian); `p` may be
    /// left out for a degenerate Lagrangian, which then starts from `p = ϑ(q)`.
    #[pyo3(signature = (q, p = None))]
    fn with_initial(
        &self,
        q: &Bound<'_, PyAny>,
        p: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Problem> {
        let q = arrays::vector(q, "q")?;
        let p = p.map(|p| arrays::vector(p, "p")).transpose()?;
        let mut problem = self.clone();
        problem
            .file
            .set_initial(&q, p.as_deref())
            .map_err(|e| crate::errors::InitialStateError::new_err(e.to_string()))?;
        Ok(problem)
    }

    /// `degenerate_lagrangian`, `holonomic` or `lagrangian`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.file {
            ProblemFile::DegenerateLagrangian(_) => "degenerate_lagrangian",
            ProblemFile::Holonomic(_) => "holonomic",
            ProblemFile::Lagrangian(_) => "lagrangian",
        }
    }

    /// The number of coordinates D.
    #[getter]
    fn dimension(&self) -> usize {
        self.file.dimension()
    }

    /// The coordinate names.
    #[getter]
    fn coordinates(&self) -> Vec<String> {
        self.file.coordinates().to_vec()
    }

    /// The parameters and their values, in the file's order.
    #[getter]
    fn parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.file.parameters() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The initial data `(q, p)` (`(q, v)` for a Lagrangian) as numpy arrays.
    #[getter]
    fn initial<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (q, second) = self.file.initial();
        PyTuple::new(
            py,
            [PyArray1::from_vec(py, q), PyArray1::from_vec(py, second)],
        )
    }

    /// The file's path, `<string>` or `<keywords>`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem({}, kind={}, D={})",
            self.name,
            self.kind(),
            self.dimension()
        )
    }
}

impl Problem {
    /// `self` with the parameters of `values` set.
    fn with(mut self, values: Option<&Bound<'_, PyDict>>) -> PyResult<Problem> {
        let Some(values) = values else {
            return Ok(self);
        };
        let mut pairs: Vec<(String, f64)> = Vec::with_capacity(values.len());
        for (name, value) in values.iter() {
            let name: String = name.extract()?;
            let value: f64 = value
                .extract()
                .map_err(|_| errors::value(&format!("parameter `{name}`"), "must be a number"))?;
            pairs.push((name, value));
        }
        let pairs = pairs.iter().map(|(n, v)| (n.as_str(), *v));
        problem_files::set_parameters(&mut self.file, &self.name, pairs).map_err(errors::raise)?;
        Ok(self)
    }
}
