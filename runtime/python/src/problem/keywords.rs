//! Keyword arguments written as a problem file: every keyword a top-level key (a mapping a
//! table), every array entry and table entry on a line of its own, so that each line of the
//! document is known to come from one keyword (and entry) and the reader's `LINE:COLUMN`
//! errors are reported as that keyword and a column within its text.
//!
//! Values: a `str` is a TOML string, a `bool` a boolean, any other number (`int`, `float`, a
//! numpy scalar) a float; a sequence (list, tuple, 1-D numpy array) an array of such values; a
//! mapping (only at the top level) a table. Anything else is a `ValueError` naming the keyword.

use crate::errors;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use sparkgen::problem_file::ProblemFileError;
use std::fmt::Write as _;

/// How a problem given as keyword arguments is named in messages.
pub const NAME: &str = "<keywords>";

/// Where a line of the document comes from.
struct Origin {
    /// The keyword, with the table and the entry: `theta[1]`, `parameters.a1`.
    label: String,
    /// The column (from 1, in characters) where the value's own text starts on the line.
    column: usize,
}

/// The TOML document of some keyword arguments, and where each of its lines comes from.
pub struct Document {
    text: String,
    lines: Vec<Option<Origin>>,
}

impl Document {
    /// The document of `keys`: the top-level values first, in order, then the tables.
    pub fn of(keys: Option<&Bound<'_, PyDict>>) -> PyResult<Document> {
        let mut document = Document {
            text: String::new(),
            lines: Vec::new(),
        };
        let Some(keys) = keys else {
            return Ok(document);
        };
        let mut tables = Vec::new();
        for (key, value) in keys.iter() {
            let key: String = key.extract()?;
            match value.cast::<PyDict>() {
                Ok(table) => tables.push((key, table.clone())),
                Err(_) => document.entry(&key, &key, &value)?,
            }
        }
        for (name, table) in tables {
            document.line(&format!("[{}]", bare(&name)), None);
            for (key, value) in table.iter() {
                let key: String = key.extract()?;
                document.entry(&format!("{name}.{key}"), &key, &value)?;
            }
        }
        Ok(document)
    }

    /// The TOML text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The reader's errors of `error`, each at its keyword: ``<keywords>: `theta[1]`, column
    /// 5: unknown name `z` `` (the first, and how many follow).
    pub fn message(&self, error: &ProblemFileError) -> String {
        let errors = error.errors();
        let Some(first) = errors.first() else {
            return format!("{NAME}: {error}");
        };
        let place = match self.lines.get(first.line - 1).and_then(Option::as_ref) {
            Some(origin) if first.column >= origin.column => format!(
                "`{}`, column {}",
                origin.label,
                first.column - origin.column + 1
            ),
            Some(origin) => format!("`{}`", origin.label),
            None => "the keywords".to_owned(),
        };
        let more = match errors.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more error)".to_owned(),
            n => format!(" (and {n} more errors)"),
        };
        format!("{NAME}: {place}: {}{more}", first.kind)
    }

    /// Appends `text` as a line from `origin`.
    fn line(&mut self, text: &str, origin: Option<Origin>) {
        self.text.push_str(text);
        self.text.push('\n');
        self.lines.push(origin);
    }

    /// `key = value`, a sequence with one entry per line.
    fn entry(&mut self, label: &str, key: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let head = format!("{} = ", bare(key));
        if let Some(entries) = sequence(value) {
            self.line(&format!("{head}["), None);
            for (i, entry) in entries?.into_iter().enumerate() {
                let label = format!("{label}[{i}]");
                let text = scalar(&entry).ok_or_else(|| unusable(&label))?;
                self.line(&format!("  {text},"), Some(origin(label, 2, &text)));
            }
            self.line("]", None);
        } else {
            let text = scalar(value).ok_or_else(|| unusable(label))?;
            let column = head.chars().count();
            self.line(
                &format!("{head}{text}"),
                Some(origin(label.to_owned(), column, &text)),
            );
        }
        Ok(())
    }
}

/// The origin of a value written after `before` characters: a string's text starts one column
/// after its opening quote.
fn origin(label: String, before: usize, text: &str) -> Origin {
    let quote = usize::from(text.starts_with('"'));
    Origin {
        label,
        column: before + 1 + quote,
    }
}

/// `key` as a TOML key: bare where it can be, else quoted.
fn bare(key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain { key.to_owned() } else { quoted(key) }
}

/// A TOML basic string: JSON's escapes are TOML's.
fn quoted(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// The entries of a sequence value (not a string); `None` for other values.
fn sequence<'py>(value: &Bound<'py, PyAny>) -> Option<PyResult<Vec<Bound<'py, PyAny>>>> {
    if value.is_instance_of::<PyString>() || value.extract::<f64>().is_ok() {
        return None;
    }
    let items = value.try_iter().ok()?;
    Some(items.collect())
}

/// A string, boolean or number as TOML; `None` for anything else.
fn scalar(value: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.to_str().ok().map(quoted);
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Some(flag.is_true().to_string());
    }
    let number: f64 = value.extract().ok()?;
    let mut text = String::new();
    // TOML's special floats are lower case; `{:?}` writes every finite f64 exactly, with a
    // decimal point or an exponent.
    let _ = match number {
        x if x.is_nan() => write!(text, "nan"),
        x if x.is_infinite() => write!(text, "{}inf", if x < 0.0 { "-" } else { "+" }),
        x => write!(text, "{x:?}"),
    };
    Some(text)
}

/// The error for a keyword whose value is not a string, number, boolean or a sequence of them.
fn unusable(label: &str) -> PyErr {
    errors::value(
        &format!("keyword `{label}`"),
        "must be a string, a number, a boolean, or a list of them (a mapping for a table)",
    )
}
