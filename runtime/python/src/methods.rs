//! `sparkgen.methods()`: every method of the catalogue with its facts, the rows of `sparkgen
//! methods --json` ([`sparkgen::cli::methods::rows`]) as `Method` objects.

use crate::run::json;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sparkgen::cli::choice::Kind;
use sparkgen::cli::methods::{self as listing, MethodRow};
use sparkgen::generated::types::RecommendationClass;

/// A method with what is known of it: orders, structure, limitations, the method guide's class
/// and its energy behaviour over long runs.
#[pyclass(frozen, module = "sparkgen")]
pub struct Method {
    /// Name, e.g. `VprkGauss3`.
    #[pyo3(get)]
    name: String,
    /// Family, the `method` argument of `solve`.
    #[pyo3(get)]
    family: &'static str,
    /// Stages s, the `stages` argument of `solve`.
    #[pyo3(get)]
    stages: usize,
    /// Problem kinds it applies to: `degenerate-lagrangian`, `holonomic`, `implicit-dae`,
    /// `hamiltonian-dae`.
    #[pyo3(get)]
    kinds: Vec<&'static str>,
    /// The order it is built for.
    #[pyo3(get)]
    declared_order: usize,
    /// The order of its pair computed from bi-coloured trees (`None` for RATTLE and SHAKE).
    #[pyo3(get)]
    computed_order: Option<usize>,
    /// Symplectic.
    #[pyo3(get)]
    symplectic: bool,
    /// Symmetric.
    #[pyo3(get)]
    symmetric: bool,
    /// Holds the constraint to round-off.
    #[pyo3(get)]
    constraint_preserving: bool,
    /// Known limitations, measured.
    #[pyo3(get)]
    limitations: Vec<&'static str>,
    /// The method guide's class: `recommended`, `suitable`, `reference` or `avoid` (`None` for
    /// RATTLE and SHAKE).
    #[pyo3(get)]
    recommendation: Option<&'static str>,
    /// Why it has that class.
    #[pyo3(get)]
    reason: Option<&'static str>,
    /// Whether it is the method guide's pick for long runs of its kind.
    #[pyo3(get)]
    long_run_pick: bool,
    /// Every fact as `sparkgen methods --json` gives it (with the pinned behaviour, the
    /// carried multiplier and the long-run measurement).
    #[pyo3(get)]
    facts: Py<PyDict>,
}

impl Method {
    fn of(py: Python<'_>, row: &MethodRow) -> PyResult<Method> {
        Ok(Method {
            name: row.name.clone(),
            family: row.family,
            stages: row.stages,
            kinds: row.kinds.clone(),
            declared_order: row.declared_order,
            computed_order: row.computed_order,
            symplectic: row.symplectic,
            symmetric: row.symmetric,
            constraint_preserving: row.constraint_preserving,
            limitations: row.limitations.clone(),
            recommendation: row.recommendation.map(|r| r.class.name()),
            reason: row.recommendation.map(|r| r.reason),
            long_run_pick: row.long_run.is_some_and(|l| l.recommended),
            facts: json(py, row)?.cast_into::<PyDict>()?.unbind(),
        })
    }
}

#[pymethods]
impl Method {
    /// Whether the method guide recommends it: its class is `recommended`, or it is its kind's
    /// pick for long runs.
    #[getter]
    fn recommended(&self) -> bool {
        self.recommendation == Some(RecommendationClass::Recommended.name()) || self.long_run_pick
    }

    fn __repr__(&self) -> String {
        format!(
            "Method({}, family={}, stages={}, order={}, kinds={:?}, class={})",
            self.name,
            self.family,
            self.stages,
            self.declared_order,
            self.kinds,
            self.recommendation.unwrap_or("–")
        )
    }
}

/// Every method (of `kind` only, when given: `degenerate-lagrangian`, `holonomic`,
/// `implicit-dae`, `hamiltonian-dae`, or a problem file's kind `degenerate_lagrangian`,
/// `lagrangian`); with `recommended`, only those the method guide recommends, as `sparkgen
/// methods --recommended` lists them.
#[pyfunction]
#[pyo3(signature = (kind = None, recommended = false))]
pub fn methods(py: Python<'_>, kind: Option<&str>, recommended: bool) -> PyResult<Vec<Method>> {
    let all = listing::rows();
    let rows = if recommended {
        listing::recommended(&all)
    } else {
        all
    };
    let kind = kind.map(kind_name).transpose()?;
    rows.iter()
        .filter(|r| kind.is_none_or(|k| r.kinds.contains(&k)))
        .map(|r| Method::of(py, r))
        .collect()
}

/// The listing's name of the problem kind `name` (a problem file's `kind` names too).
fn kind_name(name: &str) -> PyResult<&'static str> {
    let file_kind = match name {
        "degenerate_lagrangian" => Some(Kind::Degenerate),
        "lagrangian" => Some(Kind::Implicit),
        _ => None,
    };
    file_kind
        .or_else(|| Kind::ALL.into_iter().find(|k| k.name() == name))
        .map(Kind::name)
        .ok_or_else(|| {
            let valid: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            crate::errors::MethodError::new_err(format!(
                "unknown problem kind `{name}`; valid kinds: {}",
                valid.join(", ")
            ))
        })
}
