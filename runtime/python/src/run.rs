//! `sparkgen.solve`: one run of a method on a problem (the run of `sparkgen run
//! --problem-file`), or an ensemble from a 2-D array of initial states (the run of `sparkgen
//! ensemble`), with the GIL released while it integrates.

use crate::arrays::{self, Floats};
use crate::ensemble::{self, Member};
use crate::errors::{self, IntegrationError};
use crate::problem::Problem;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sparkgen::cli::choice;
use sparkgen::cli::problem_files;
use sparkgen::cli::run::{Run, RunSpec};
use sparkgen::cli::trajectory::{Keep, Memory};
use sparkgen::cli::{CliError, Summary};
use sparkgen::diagnostics::maximum;
use sparkgen::problem_file::{DegenerateMethod, LagrangianMethod, ProblemFile};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;

/// Solves `problem` with `method` (a family as `sparkgen.methods()` lists it; `None` for the
/// command line's default for the problem's kind) of `stages` stages, step size `h` (0.1 when
/// `None`), for `steps` steps or until `t_end` (10⁴ steps when neither is given), keeping
/// every `every`-th point and the last. `q0` (and `p0`, `v0` for a Lagrangian) replace the
/// problem's initial data: a vector runs once and returns a `Solution`, an `M × D` array runs
/// an ensemble of M members on `threads` threads and returns an `EnsembleSolution`.
/// `project_initial` projects inconsistent initial data onto the constraints instead of
/// refusing them. `out` streams the kept points of a single run to a CSV, JSON or `.npy` file
/// as the run goes (columns `t, q, p`, energy error, constraint residual; the file of `sparkgen
/// run --out`). A run that stops early raises `IntegrationError`, whose `solution` holds what
/// was integrated.
#[pyfunction]
#[pyo3(signature = (
    problem, method = None, stages = None, *, h = None, t_end = None, steps = None, every = 1,
    q0 = None, p0 = None, project_initial = false, threads = None, out = None,
))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    problem: &Problem,
    method: Option<&str>,
    stages: Option<usize>,
    h: Option<f64>,
    t_end: Option<f64>,
    steps: Option<usize>,
    every: usize,
    q0: Option<&Bound<'_, PyAny>>,
    p0: Option<&Bound<'_, PyAny>>,
    project_initial: bool,
    threads: Option<usize>,
    out: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let (h, steps) = sparkgen::cli::steps(h, steps, t_end).map_err(errors::raise)?;
    let every = NonZeroUsize::new(every).ok_or_else(|| errors::option("every", "must be ≥ 1"))?;
    let subject = problem_files::subject(&problem.file, problem.name.clone());
    let method = choice::resolve(subject.kind, method, stages).map_err(errors::raise)?;
    let spec = RunSpec {
        keep: Keep {
            memory: Memory::Every,
            out: out.clone(),
            every,
            progress: false,
        },
        project_initial,
        ..RunSpec::new(method, h, steps)
    };
    let (second, _) = initial_names(&problem.file);
    let q0 = q0.map(|q| arrays::floats(q, "q0")).transpose()?;
    let p0 = p0.map(|p| arrays::floats(p, second)).transpose()?;
    match q0 {
        Some(q0) if q0.shape.len() == 2 => {
            if out.is_some() {
                return Err(errors::option(
                    "out",
                    "an ensemble returns its final states; `out` writes one run's trajectory",
                ));
            }
            let threads = threads
                .map(|n| {
                    NonZeroUsize::new(n).ok_or_else(|| errors::option("threads", "must be ≥ 1"))
                })
                .transpose()?;
            let initial = ensemble_states(&problem.file, &q0, p0.as_ref())?;
            let start = Instant::now();
            let (members, compile_seconds) = py
                .detach(|| ensemble::run(&problem.file, &subject, &spec, &initial, threads))
                .map_err(errors::raise)?;
            let wall_seconds = start.elapsed().as_secs_f64();
            let timing = (wall_seconds, compile_seconds);
            EnsembleSolution::of(py, &members, &spec, timing, threads)
        }
        q0 => {
            let file = match (q0, p0) {
                (None, None) => None,
                (None, Some(_)) => {
                    return Err(errors::value(second, "is given without q0"));
                }
                (Some(q0), p0) => {
                    let mut file = problem.file.clone();
                    let p0 = p0
                        .as_ref()
                        .map(|p| one_dimensional(p, second))
                        .transpose()?;
                    file.set_initial(one_dimensional(&q0, "q0")?, p0)
                        .map_err(|e| errors::InitialStateError::new_err(e.to_string()))?;
                    Some(file)
                }
            };
            let file = file.as_ref().unwrap_or(&problem.file);
            let run = py
                .detach(|| problem_files::run(file, &subject, &spec))
                .map_err(errors::raise)?;
            Solution::of(py, run)
        }
    }
}

/// The entries of `a`, which must be 1-D (it is the argument `what`).
fn one_dimensional<'a>(a: &'a Floats, what: &str) -> PyResult<&'a [f64]> {
    match a.shape.len() {
        1 => Ok(&a.values),
        n => Err(errors::value(
            what,
            format!("must be 1-D, found {n} dimensions"),
        )),
    }
}

/// The keyword of the second initial vector (`p0`, or `v0` for a Lagrangian) and its name in
/// the problem file.
fn initial_names(file: &ProblemFile) -> (&'static str, &'static str) {
    match file.initial_names() {
        (_, "v") => ("v0", "v"),
        _ => ("p0", "p"),
    }
}

/// The ensemble's initial states `(q, p)` per member from the rows of `q0` and of `p0` (for a
/// Lagrangian, the velocities `v0`, turned into momenta `p = ∂L/∂v`); a degenerate Lagrangian
/// without `p0` starts each member from `p = ϑ(q)`.
fn ensemble_states(
    file: &ProblemFile,
    q0: &Floats,
    p0: Option<&Floats>,
) -> PyResult<Vec<Vec<f64>>> {
    let d = file.dimension();
    let (second, _) = initial_names(file);
    if q0.shape[1] != d {
        return Err(errors::value(
            "q0",
            format!(
                "has rows of {} entries; the problem has D = {d}",
                q0.shape[1]
            ),
        ));
    }
    if let Some(p0) = p0
        && p0.shape != q0.shape
    {
        return Err(errors::value(
            second,
            format!("has shape {:?}; q0 has shape {:?}", p0.shape, q0.shape),
        ));
    }
    let mut states = Vec::with_capacity(q0.shape[0]);
    for (k, q) in q0.values.chunks_exact(d.max(1)).enumerate() {
        let given = p0.map(|p| &p.values[k * d..(k + 1) * d]);
        let mut p = vec![0.0; d];
        let evaluated = match (file, given) {
            (ProblemFile::Lagrangian(f), Some(v)) => {
                f.evaluate(LagrangianMethod::Momentum, &[q, v], &mut p)
            }
            (_, Some(given)) => {
                p.copy_from_slice(given);
                Ok(())
            }
            (ProblemFile::DegenerateLagrangian(f), None) => {
                f.evaluate(DegenerateMethod::Theta, &[q], &mut p)
            }
            (_, None) => return Err(errors::value(second, "is required for this problem kind")),
        };
        evaluated.map_err(|e| errors::value(second, e))?;
        states.push([q, p.as_slice()].concat());
    }
    Ok(states)
}

/// The run of one method on a problem: the points kept (every `every`-th and the last) as
/// numpy arrays, and the command line's summary of the whole run.
#[pyclass(frozen, module = "sparkgen")]
pub struct Solution {
    /// Times `t_n`, shape `(N,)`.
    #[pyo3(get)]
    t: Py<PyArray1<f64>>,
    /// Positions, shape `(N, D)`.
    #[pyo3(get)]
    q: Py<PyArray2<f64>>,
    /// Momenta, shape `(N, D)`.
    #[pyo3(get)]
    p: Py<PyArray2<f64>>,
    /// The carried multiplier `λ_n`, shape `(N, M)`; `None` for methods that carry none.
    #[pyo3(get)]
    lam: Option<Py<PyArray2<f64>>>,
    /// The energy error at every point (`summary["energy_error_kind"]` says whether relative
    /// or absolute); `None` where the problem has no energy.
    #[pyo3(get)]
    energy_error: Option<Py<PyArray1<f64>>>,
    /// The constraint residual at every point (`summary["constraint"]` says what it measures).
    #[pyo3(get)]
    constraint_residual: Py<PyArray1<f64>>,
    /// The run's statistics: the fields of `sparkgen run --json`.
    #[pyo3(get)]
    summary: Py<PyDict>,
}

impl Solution {
    /// The solution of `run`; raises `IntegrationError` carrying it when the run stopped early.
    fn of(py: Python<'_>, run: Run) -> PyResult<Py<PyAny>> {
        let out = run.out.as_ref().map(|p| p.display().to_string());
        let summary = json(py, &Summary::new(&run, out, None))?;
        let tr = &run.trajectory;
        let d = tr.dimension();
        let lam = tr
            .lambda
            .first()
            .map(|first| arrays::matrix(py, &tr.lambda, first.len()).map(Bound::unbind))
            .transpose()?;
        let solution = Solution {
            t: PyArray1::from_slice(py, &tr.t).unbind(),
            q: arrays::matrix(py, &tr.q, d)?.unbind(),
            p: arrays::matrix(py, &tr.p, d)?.unbind(),
            lam,
            energy_error: tr
                .energy
                .map(|_| PyArray1::from_slice(py, &tr.energy_error).unbind()),
            constraint_residual: PyArray1::from_slice(py, &tr.constraint_residual).unbind(),
            summary: summary.cast_into::<PyDict>()?.unbind(),
        };
        let solution = Py::new(py, solution)?.into_any();
        match run.failure {
            None => Ok(solution),
            Some(message) => Err(failed(py, message, solution)),
        }
    }
}

#[pymethods]
impl Solution {
    fn __repr__(&self, py: Python<'_>) -> String {
        repr("Solution", &self.summary, py)
    }
}

/// An ensemble's outcome: every member's final state and maxima, member k in row k.
#[pyclass(frozen, module = "sparkgen")]
pub struct EnsembleSolution {
    /// The time of each member's last accepted state, shape `(M,)`.
    #[pyo3(get)]
    t: Py<PyArray1<f64>>,
    /// Final positions, shape `(M, D)` (NaN for a member that failed before its first point).
    #[pyo3(get)]
    q: Py<PyArray2<f64>>,
    /// Final momenta, shape `(M, D)`.
    #[pyo3(get)]
    p: Py<PyArray2<f64>>,
    /// Accepted steps of each member.
    #[pyo3(get)]
    steps: Vec<usize>,
    /// Why each member stopped early (`None` for those that finished).
    #[pyo3(get)]
    errors: Vec<Option<String>>,
    /// Each member's largest constraint residual (NaN if it failed before its first point).
    #[pyo3(get)]
    max_constraint_residual: Py<PyArray1<f64>>,
    /// Each member's largest energy error; `None` where the problem has no energy.
    #[pyo3(get)]
    max_energy_error: Option<Py<PyArray1<f64>>>,
    /// The ensemble's statistics: method, h, steps, members, failed, threads, wall time,
    /// particle-steps per second, and the maxima over all members.
    #[pyo3(get)]
    summary: Py<PyDict>,
}

impl EnsembleSolution {
    /// The solution of the ensemble's `members`; raises `IntegrationError` carrying it when a
    /// member failed.
    fn of(
        py: Python<'_>,
        members: &[Member],
        spec: &RunSpec,
        (wall_seconds, compile_seconds): (f64, Option<f64>),
        threads: Option<NonZeroUsize>,
    ) -> PyResult<Py<PyAny>> {
        let d = members.first().map_or(0, |m| m.q.len());
        let q: Vec<f64> = members.iter().flat_map(|m| m.q.iter().copied()).collect();
        let p: Vec<f64> = members.iter().flat_map(|m| m.p.iter().copied()).collect();
        let column = |f: &dyn Fn(&Member) -> f64| {
            PyArray1::from_vec(py, members.iter().map(f).collect()).unbind()
        };
        let has_energy = members.iter().any(|m| m.max_energy_error.is_some());
        let failures: Vec<(usize, &str)> = members
            .iter()
            .enumerate()
            .filter_map(|(k, m)| m.error.as_deref().map(|e| (k, e)))
            .collect();
        let (family, stages) = spec.method.family_and_stages();
        let steps: usize = members.iter().map(|m| m.steps).sum();
        let summary = serde_json::json!({
            "method": family,
            "stages": stages,
            "h": spec.h,
            "steps": spec.steps,
            "members": members.len(),
            "failed": failures.len(),
            "threads": threads.map_or_else(rayon::current_num_threads, |n| {
                n.get().min(members.len().max(1))
            }),
            "max_constraint_residual": number(maximum(members.iter().map(|m| m.max_constraint_residual))),
            "max_energy_error": has_energy.then(|| {
                number(maximum(members.iter().filter_map(|m| m.max_energy_error)))
            }),
            "particle_steps_per_second": steps as f64 / wall_seconds,
            "compile_seconds": compile_seconds,
            "wall_seconds": wall_seconds,
        });
        let solution = EnsembleSolution {
            t: column(&|m| m.t),
            q: arrays::rows_of(py, members.len(), q, d)?.unbind(),
            p: arrays::rows_of(py, members.len(), p, d)?.unbind(),
            steps: members.iter().map(|m| m.steps).collect(),
            errors: members.iter().map(|m| m.error.clone()).collect(),
            max_constraint_residual: column(&|m| m.max_constraint_residual),
            max_energy_error: has_energy
                .then(|| column(&|m| m.max_energy_error.unwrap_or(f64::NAN))),
            summary: json(py, &summary)?.cast_into::<PyDict>()?.unbind(),
        };
        let solution = Py::new(py, solution)?.into_any();
        match failures.first() {
            None => Ok(solution),
            Some((member, error)) => {
                let message = format!(
                    "{} of {} members failed; member {member}: {error}",
                    failures.len(),
                    members.len()
                );
                Err(failed(py, message, solution))
            }
        }
    }
}

#[pymethods]
impl EnsembleSolution {
    fn __repr__(&self, py: Python<'_>) -> String {
        repr("EnsembleSolution", &self.summary, py)
    }
}

/// `name(summary)`, the representation of a result.
fn repr(name: &str, summary: &Py<PyDict>, py: Python<'_>) -> String {
    let summary = summary.bind(py).repr();
    format!(
        "{name}({})",
        summary.map_or_else(|_| String::new(), |r| r.to_string())
    )
}

/// `IntegrationError(message)` with the attribute `solution`.
fn failed(py: Python<'_>, message: String, solution: Py<PyAny>) -> PyErr {
    let error = IntegrationError::new_err(message);
    match error.value(py).setattr("solution", solution) {
        Ok(()) => error,
        Err(e) => e,
    }
}

/// `value` (serialisable) as Python objects: dicts, lists, numbers, strings, `None`.
pub fn json<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(value)
        .map_err(|e| CliError::Write {
            path: "<python>".into(),
            reason: e.to_string(),
        })
        .map_err(errors::raise)?;
    to_python(py, &value)
}

/// `x` as the command's JSON writes it: a number, or the text of a NaN or an infinity (which
/// [`to_python`] turns back into a float).
fn number(x: f64) -> serde_json::Value {
    if x.is_finite() {
        x.into()
    } else {
        x.to_string().into()
    }
}

/// A JSON value as Python objects; the command's text of a number that is not finite (`"NaN"`,
/// `"inf"`, `"-inf"`, see the README's JSON output) as that float.
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    match value {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (None, Some(i)) => i.into_bound_py_any(py),
            // serde_json writes NaN and infinities as null.
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => match s.as_str() {
            "NaN" | "inf" | "-inf" => s.parse::<f64>().unwrap_or(f64::NAN).into_bound_py_any(py),
            _ => s.into_bound_py_any(py),
        },
        Value::Array(items) => {
            let items: PyResult<Vec<_>> = items.iter().map(|v| to_python(py, v)).collect();
            pyo3::types::PyList::new(py, items?)?.into_bound_py_any(py)
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v)?)?;
            }
            dict.into_bound_py_any(py)
        }
    }
}
