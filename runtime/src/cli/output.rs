//! The command's trajectory files: the library's writers ([`crate::output`]) with the
//! command's errors.

use super::error::CliError;
use crate::output::WriteError;
pub use crate::output::{EXTENSIONS, Format, Header, Writer, extension};
use std::path::Path;

/// The format `path`'s extension names; an error naming the extensions understood otherwise.
pub fn format_of(path: &Path) -> Result<Format, CliError> {
    Format::of(path).ok_or_else(|| CliError::UnknownExtension {
        path: path.to_owned(),
        valid: EXTENSIONS,
    })
}

impl From<WriteError> for CliError {
    fn from(e: WriteError) -> CliError {
        CliError::Write {
            path: e.path,
            reason: e.reason,
        }
    }
}
