//! Errors of the command line: each is one line naming what was wrong and, for unknown names,
//! the valid ones.

use std::path::PathBuf;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An unknown built-in problem.
    #[error("unknown problem `{name}`; valid problems: {valid}")]
    UnknownProblem {
        /// The name given.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// An unknown method, or one that does not apply to the problem's kind.
    #[error("unknown method `{name}` for {kind} problems; valid methods: {valid}")]
    UnknownMethod {
        /// The name given.
        name: String,
        /// The problem kind.
        kind: &'static str,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// A stage count the method family does not ship.
    #[error("{family} has no s = {stages}; valid stages: {valid}")]
    UnknownStages {
        /// The family.
        family: String,
        /// The stage count given.
        stages: usize,
        /// The valid stage counts, comma-separated.
        valid: String,
    },
    /// An unknown tableau family.
    #[error("unknown tableau family `{name}`; valid families: {valid}")]
    UnknownFamily {
        /// The name given.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// An unknown problem parameter.
    #[error("unknown parameter `{name}` of {problem}; valid parameters: {valid}")]
    UnknownParameter {
        /// The parameter given.
        name: String,
        /// The problem.
        problem: String,
        /// The valid parameters, comma-separated.
        valid: String,
    },
    /// A problem file that cannot be read or has errors: `FILE:LINE:COLUMN: message` (the
    /// first error, and how many follow).
    #[error("{}", problem_file_note(path, source))]
    ProblemFile {
        /// The file.
        path: PathBuf,
        /// The located errors.
        source: crate::problem_file::ProblemFileError,
    },
    /// A valid problem file that `run` and `verify` have no methods or instantiation for.
    #[error("{}: {reason}", path.display())]
    UnsupportedProblemFile {
        /// The file.
        path: PathBuf,
        /// What is unsupported, with the supported kinds or dimensions.
        reason: String,
    },
    /// A number or option value that cannot be used.
    #[error("invalid {what} `{value}`: {reason}")]
    InvalidValue {
        /// What the value is for, e.g. `--h`.
        what: &'static str,
        /// The value given.
        value: String,
        /// Why it is unusable.
        reason: &'static str,
    },
    /// A problem on which no method can be verified: its reference solution does not exist.
    #[error("cannot verify methods on `{name}`: {reason}")]
    Unverifiable {
        /// The problem.
        name: String,
        /// Why it has no reference solution.
        reason: String,
    },
    /// `--param` values that make a problem file's problem unusable (a mass that is not
    /// positive definite).
    #[error("{}: {reason}", path.display())]
    InvalidParameters {
        /// The problem file.
        path: PathBuf,
        /// What is wrong with the values, naming the parameter or the mass entry.
        reason: String,
    },
    /// A file with an extension the command cannot write.
    #[error("cannot write `{path}`: unknown extension, use one of {valid}")]
    UnknownExtension {
        /// The path given.
        path: PathBuf,
        /// The valid extensions.
        valid: &'static str,
    },
    /// Writing a file failed.
    #[error("cannot write `{path}`: {reason}")]
    Write {
        /// The path.
        path: PathBuf,
        /// The operating system's or encoder's message.
        reason: String,
    },
    /// An ensemble's initial states cannot be used.
    #[error(
        "{}{}{}: {reason}",
        path.display(),
        line.map(|l| format!(":{l}")).unwrap_or_default(),
        column.map(|c| format!(":{c}")).unwrap_or_default()
    )]
    InitialStates {
        /// The file.
        path: PathBuf,
        /// The line of a CSV file (from 1).
        line: Option<usize>,
        /// The column of a CSV field (from 1, in characters).
        column: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// Writing to standard output failed (e.g. a closed pipe).
    #[error("cannot write to standard output: {0}")]
    Stdout(#[from] std::io::Error),
    /// The initial state or the step size was refused before the first step (inconsistent
    /// initial data without `--project-initial`, a non-finite initial energy or multiplier).
    #[error("{message}")]
    InitialState {
        /// The integrator's message, with the numbers.
        message: String,
    },
    /// A step failed; the trajectory up to it was written to the requested files.
    #[error("{message}{}", written_note(written))]
    StepFailed {
        /// The integrator's message (names the step and the time).
        message: String,
        /// Files written with the trajectory so far.
        written: Vec<PathBuf>,
    },
    /// Members of an ensemble failed; every member's final state (a failed member's at its
    /// failure) was written to the final-states file.
    #[error(
        "{failed} of {members} members failed; member {member}: {error}; the final state of every member (of a failed one, the last state it reached; NaN for one refused before its first) was written to {}",
        out.display()
    )]
    MembersFailed {
        /// Members that failed.
        failed: usize,
        /// Members in all.
        members: usize,
        /// The first member that failed.
        member: usize,
        /// Its error (names the step and the time, or the file it could not write).
        error: String,
        /// The final-states file.
        out: PathBuf,
    },
    /// An ensemble split over processes failed on another rank, or its records could not be
    /// gathered.
    #[error("{message}")]
    Ranks {
        /// The rank and its error, or the gather's.
        message: String,
    },
    /// A diagnostic could not be evaluated on the run.
    #[error("{0}")]
    Diagnostics(#[from] crate::diagnostics::DiagnosticsError),
    /// Some verification studies fell short of their declared order.
    #[error("verification failed for {failed} of {total} methods: {names}")]
    VerificationFailed {
        /// Failed methods.
        failed: usize,
        /// All methods.
        total: usize,
        /// The failed methods' names, comma-separated.
        names: String,
    },
}

impl CliError {
    /// The process exit code: 2 for arguments that cannot be used, whatever the reason (an
    /// unknown name, an invalid number, a problem file that cannot be read or has errors, initial
    /// data refused before the first step, an unwritable output extension), 1 for failures of the work itself (a failed step, a
    /// diagnostic, a failed verification, a file that could not be written).
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::UnknownProblem { .. }
            | CliError::UnknownMethod { .. }
            | CliError::UnknownStages { .. }
            | CliError::UnknownFamily { .. }
            | CliError::UnknownParameter { .. }
            | CliError::ProblemFile { .. }
            | CliError::UnsupportedProblemFile { .. }
            | CliError::InvalidValue { .. }
            | CliError::InvalidParameters { .. }
            | CliError::Unverifiable { .. }
            | CliError::InitialState { .. }
            | CliError::InitialStates { .. }
            | CliError::UnknownExtension { .. } => 2,
            CliError::Write { .. }
            | CliError::Stdout(_)
            | CliError::StepFailed { .. }
            | CliError::MembersFailed { .. }
            | CliError::Ranks { .. }
            | CliError::Diagnostics(_)
            | CliError::VerificationFailed { .. } => 1,
        }
    }
}

/// `FILE:LINE:COLUMN: message` for errors in the file, `FILE: message` for I/O errors.
fn problem_file_note(
    path: &std::path::Path,
    source: &crate::problem_file::ProblemFileError,
) -> String {
    let separator = if source.errors().is_empty() { " " } else { "" };
    format!("{}:{separator}{source}", path.display())
}

fn written_note(written: &[PathBuf]) -> String {
    if written.is_empty() {
        String::new()
    } else {
        let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        format!(
            "; the trajectory so far was written to {}",
            files.join(", ")
        )
    }
}
