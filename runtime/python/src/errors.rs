//! The module's exceptions: `sparkgen.Error` and one subclass per class of the library's errors,
//! each carrying the typed error's message (the step, the time, the quantity; a problem file's
//! `FILE:LINE:COLUMN`).

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use sparkgen::cli::CliError;

pyo3::create_exception!(
    sparkgen,
    Error,
    PyException,
    "Every error sparkgen raises: its message is the library's typed error."
);
pyo3::create_exception!(
    sparkgen,
    ProblemError,
    Error,
    "A problem that cannot be read or used: located errors of a problem file or of keyword \
     arguments, an unknown parameter, parameter values the problem cannot take, a problem no \
     method is available for."
);
pyo3::create_exception!(
    sparkgen,
    MethodError,
    Error,
    "An unknown method, a stage count its family does not ship, or a method of another problem \
     kind."
);
pyo3::create_exception!(
    sparkgen,
    OptionsError,
    Error,
    "An option that cannot be used: a step size, a step count or end time, `every`, threads."
);
pyo3::create_exception!(
    sparkgen,
    InitialStateError,
    Error,
    "Initial data refused before the first step: wrong length, not finite, inconsistent with \
     the constraints (pass project_initial=True to project them), a non-finite energy."
);
pyo3::create_exception!(
    sparkgen,
    IntegrationError,
    Error,
    "A run that stopped early: the message names the step, the time and the cause; the \
     attribute `solution` holds what was integrated up to the last accepted step."
);
pyo3::create_exception!(
    sparkgen,
    OutputError,
    Error,
    "A file that could not be written."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("ProblemError", py.get_type::<ProblemError>())?;
    m.add("MethodError", py.get_type::<MethodError>())?;
    m.add("OptionsError", py.get_type::<OptionsError>())?;
    m.add("InitialStateError", py.get_type::<InitialStateError>())?;
    m.add("IntegrationError", py.get_type::<IntegrationError>())?;
    m.add("OutputError", py.get_type::<OutputError>())?;
    Ok(())
}

/// The exception of `error`, with its message.
pub fn raise(error: CliError) -> PyErr {
    let message = error.to_string();
    match error {
        CliError::UnknownProblem { .. }
        | CliError::UnknownParameter { .. }
        | CliError::ProblemFile { .. }
        | CliError::UnsupportedProblemFile { .. }
        | CliError::InvalidParameters { .. }
        | CliError::Unverifiable { .. } => ProblemError::new_err(message),
        CliError::UnknownMethod { .. }
        | CliError::UnknownStages { .. }
        | CliError::UnknownFamily { .. } => MethodError::new_err(message),
        CliError::InvalidValue { .. } | CliError::UnknownExtension { .. } => {
            OptionsError::new_err(message)
        }
        CliError::InitialState { .. } | CliError::InitialStates { .. } => {
            InitialStateError::new_err(message)
        }
        CliError::StepFailed { .. }
        | CliError::MembersFailed { .. }
        | CliError::Diagnostics(_)
        | CliError::Ranks { .. }
        | CliError::VerificationFailed { .. } => IntegrationError::new_err(message),
        CliError::Write { .. } | CliError::Stdout(_) => OutputError::new_err(message),
    }
}

/// An option of `what` that cannot be used, and why.
pub fn option(what: &str, reason: impl std::fmt::Display) -> PyErr {
    OptionsError::new_err(format!("invalid {what}: {reason}"))
}

/// A Python value that is not what an argument takes (a `TypeError`-like misuse reported as a
/// `ValueError`, whose message names the argument).
pub fn value(what: &str, reason: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{what}: {reason}"))
}
