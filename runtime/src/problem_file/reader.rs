//! The parts every problem kind shares: coordinates, parameters, expression lists, initial
//! data, and the mapping of the symbolic engine's errors back into the file.

use super::MAX_DIMENSION;
use super::document::{self, Diagnostics, Table};
use super::error::ErrorKind;
use super::model::{Method, Model};
use sparkgen_sym::derive::ErrorKind as SymErrorKind;
use sparkgen_sym::derive::text::{Compiled, Definition, Text, TextError};
use std::ops::Range;

/// Reads one document: collects errors and remembers every string handed to the symbolic
/// engine, so that its errors can be located.
pub(crate) struct Reader<'i> {
    source: &'i str,
    pub(crate) diagnostics: Diagnostics<'i>,
    /// For each [`Text::id`]: the string value's span and its decoded text.
    texts: Vec<(Range<usize>, String)>,
}

impl<'i> Reader<'i> {
    /// A reader of the file `source`.
    pub(crate) fn new(source: &'i str) -> Self {
        Reader {
            source,
            diagnostics: Diagnostics::new(source),
            texts: Vec::new(),
        }
    }

    /// The string `text` of the token at `span` (a string value or a key), numbered for
    /// locating errors.
    fn text<'a>(&mut self, span: Range<usize>, text: &'a str) -> Text<'a> {
        self.texts.push((span, text.to_owned()));
        Text {
            id: self.texts.len() - 1,
            source: text,
        }
    }

    /// The string at `key` of `table` as one expression (required).
    pub(crate) fn expression<'a>(&mut self, table: &Table<'a, '_>, key: &str) -> Option<Text<'a>> {
        let value = table.require(key, &mut self.diagnostics)?;
        let text = document::string(key, value, &mut self.diagnostics)?;
        Some(self.text(value.span(), text))
    }

    /// The list of strings at `key` of `table` (required), with `len` entries when given
    /// (`per` says why) and at least one otherwise, and at most [`MAX_DIMENSION`].
    pub(crate) fn expressions<'a>(
        &mut self,
        table: &Table<'a, '_>,
        key: &str,
        len: Option<(usize, &'static str)>,
    ) -> Option<Vec<Text<'a>>> {
        let value = table.require(key, &mut self.diagnostics)?;
        let strings = document::strings(key, value, &mut self.diagnostics)?;
        if strings.len() > MAX_DIMENSION {
            self.diagnostics.at_value(
                value,
                ErrorKind::TooMany {
                    key: key.to_owned(),
                    found: strings.len(),
                    limit: MAX_DIMENSION,
                },
            );
            return None;
        }
        let (expected, per) = len.unwrap_or((strings.len().max(1), "at least one"));
        if strings.len() != expected {
            self.diagnostics.at_value(
                value,
                ErrorKind::WrongDimension {
                    key: key.to_owned(),
                    expected,
                    found: strings.len(),
                    per,
                },
            );
            return None;
        }
        Some(
            strings
                .into_iter()
                .map(|(v, s)| self.text(v.span(), s))
                .collect(),
        )
    }

    /// The `[definitions]` table (optional): `name = "expression"` in the file's key order.
    pub(crate) fn definitions<'a>(&mut self, root: &Table<'a, '_>) -> Vec<Definition<'a>> {
        let Some(value) = root.get("definitions") else {
            return Vec::new();
        };
        let Some(table) = document::table("definitions", value, &mut self.diagnostics) else {
            return Vec::new();
        };
        Table::open(table, value.span().start)
            .spanned_entries()
            .into_iter()
            .map(|(key, value)| {
                let name = key.get_ref().as_ref();
                // A value of the wrong type is reported here; the name stays defined (as 1,
                // never evaluated: the file is rejected) so that its uses are not reported (1,
                // not 0, so that a division by it is not reported as a division by zero).
                let expression = document::string(name, value, &mut self.diagnostics);
                Definition {
                    name: self.text(key.span(), name),
                    expression: self.text(value.span(), expression.unwrap_or("1")),
                }
            })
            .collect()
    }

    /// The `[parameters]` table (optional): names and values in the file's key order.
    pub(crate) fn parameters<'a>(&mut self, root: &Table<'a, '_>) -> Vec<(&'a str, f64)> {
        let Some(value) = root.get("parameters") else {
            return Vec::new();
        };
        let Some(table) = document::table("parameters", value, &mut self.diagnostics) else {
            return Vec::new();
        };
        // A value of the wrong type is reported here; its name stays known (with the value NaN,
        // never evaluated: the file is rejected) so that expressions using it are not reported.
        Table::open(table, value.span().start)
            .entries()
            .map(|(name, v)| {
                let x = document::number(name, v, &mut self.diagnostics);
                (name, x.unwrap_or(f64::NAN))
            })
            .collect()
    }

    /// The `[initial]` table (required) with the keys `required` and `optional`; each value a
    /// list of `d` numbers. Returns the vectors in the order of `required` then `optional`.
    pub(crate) fn initial(
        &mut self,
        root: &Table<'_, '_>,
        d: usize,
        required: &[&str],
        optional: &[&str],
    ) -> Option<Vec<Option<Vec<f64>>>> {
        let value = root.require("initial", &mut self.diagnostics)?;
        let table = document::table("initial", value, &mut self.diagnostics)?;
        let allowed: Vec<&str> = required.iter().chain(optional).copied().collect();
        let table = Table::new(table, value.span().start, &allowed, &mut self.diagnostics);
        let vectors = allowed
            .iter()
            .enumerate()
            .map(|(i, key)| {
                let value = if i < required.len() {
                    table.require(key, &mut self.diagnostics)
                } else {
                    table.get(key)
                }?;
                let numbers = document::numbers(key, value, &mut self.diagnostics)?;
                if numbers.len() != d {
                    self.diagnostics.at_value(
                        value,
                        ErrorKind::WrongDimension {
                            key: format!("initial.{key}"),
                            expected: d,
                            found: numbers.len(),
                            per: "one per coordinate",
                        },
                    );
                    return None;
                }
                Some(numbers)
            })
            .collect();
        Some(vectors)
    }

    /// The model of the symbolic engine's result with the tapes of the trait methods of `M`;
    /// `None` after recording its errors.
    pub(crate) fn model<M: Method>(
        &mut self,
        compiled: Result<Compiled, Vec<TextError>>,
        coordinates: &[Text],
        parameters: &[(&str, f64)],
    ) -> Option<Model> {
        let compiled = compiled.map_err(|errors| self.report(errors, 0)).ok()?;
        Model::new::<M>(compiled, coordinates, parameters)
            .map_err(|missing| {
                // A bug of the symbolic engine, not a user error.
                let message = format!("the symbolic engine produced no method `{missing}`");
                self.diagnostics.at(0, ErrorKind::Internal(message));
            })
            .ok()
    }

    /// Records the symbolic engine's errors at their places in the file (an error that concerns
    /// no single string at `fallback`).
    pub(crate) fn report(&mut self, errors: Vec<TextError>, fallback: usize) {
        for error in errors {
            let offset = match &error.location {
                Some((id, range)) => match self.texts.get(*id) {
                    Some((span, decoded)) => {
                        document::string_offset(self.source, span.clone(), decoded, range.start)
                    }
                    None => fallback,
                },
                None => fallback,
            };
            let message = error.message;
            let kind = match error.kind {
                SymErrorKind::UnknownName => ErrorKind::UnknownName(message),
                SymErrorKind::UnsupportedFunction => ErrorKind::UnsupportedFunction(message),
                SymErrorKind::NotDifferentiable => ErrorKind::NotDifferentiable(message),
                SymErrorKind::NotFinite => ErrorKind::NotFiniteExpression(message),
                SymErrorKind::Syntax | SymErrorKind::Invalid => {
                    ErrorKind::InvalidExpression(message)
                }
            };
            self.diagnostics.at(offset, kind);
        }
    }
}
