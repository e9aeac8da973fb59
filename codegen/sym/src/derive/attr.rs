//! Parsing of the `#[name(key = value, …)]` helper attributes into spanned key–value entries.
//!
//! Syntax errors inside one attribute stop that attribute; unknown and duplicate keys are recorded
//! and parsing goes on, so the user sees every such error at once.

use super::ctxt::Errors;
use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, Token};

/// One `key = value` entry; the value is kept as a spanned `syn::Expr`.
pub(crate) struct Entry {
    /// The key, e.g. `theta`.
    pub(crate) key: Ident,
    /// The value expression, e.g. `[y + ln(y) / x, x]`.
    pub(crate) value: Expr,
}

impl Parse for Entry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key = input.parse()?;
        input.parse::<Token![=]>()?;
        let value = input.parse()?;
        Ok(Entry { key, value })
    }
}

/// The entries of all helper attributes of one name, with unique keys from an allowed set.
pub(crate) struct Entries {
    entries: Vec<Entry>,
    /// Span of the (last) attribute path, where "missing key" errors point.
    span: Span,
}

impl Entries {
    /// Parses every `#[name(…)]` attribute in `attrs`, allowing only `keys`.
    ///
    /// Returns `None` (after recording an error at `derive_span`) when the attribute is absent.
    pub(crate) fn parse(
        attrs: &[Attribute],
        name: &str,
        keys: &[&str],
        derive_span: Span,
        errors: &mut Errors,
    ) -> Option<Entries> {
        let mut found = None;
        let mut entries: Vec<Entry> = Vec::new();
        for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
            found = Some(attr.path().segments[0].ident.span());
            let parsed = attr.parse_args_with(Punctuated::<Entry, Token![,]>::parse_terminated);
            let Ok(list) = parsed.map_err(|e| errors.push(e)) else {
                continue;
            };
            for entry in list {
                if !keys.iter().any(|k| entry.key == k) {
                    errors.spanned(
                        &entry.key,
                        format!(
                            "unknown key `{}`; expected one of {}",
                            entry.key,
                            quoted(keys)
                        ),
                    );
                } else if entries.iter().any(|e| e.key == entry.key) {
                    errors.spanned(&entry.key, format!("duplicate key `{}`", entry.key));
                } else {
                    entries.push(entry);
                }
            }
        }
        let Some(span) = found else {
            errors.at(
                derive_span,
                format!(
                    "missing `#[{name}(…)]` attribute with keys {}",
                    quoted(keys)
                ),
            );
            return None;
        };
        Some(Entries { entries, span })
    }

    /// The entry `key`, if given.
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The entry `key`; records "missing key" at the attribute when absent.
    pub(crate) fn require(&self, key: &str, errors: &mut Errors) -> Option<&Entry> {
        let entry = self.get(key);
        if entry.is_none() {
            errors.at(self.span, format!("missing key `{key}`"));
        }
        entry
    }

    /// Records `message` (a missing key and what may replace it) at the attribute.
    pub(crate) fn missing(&self, message: String, errors: &mut Errors) {
        errors.at(self.span, message);
    }
}

/// `` `a`, `b`, `c` `` for error messages.
fn quoted(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
