//! Error accumulator: every user error of a derive is collected and reported in one compile.

use proc_macro2::Span;
use std::fmt::Display;

/// Collects `syn::Error`s at their spans instead of failing on the first one.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// Records `message` at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records `message` spanning all tokens of `tokens`.
    pub(crate) fn spanned(&mut self, tokens: impl quote::ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error produced by syn (e.g. a parse error).
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// `true` when no error was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// All recorded errors combined into one, or `None`.
    pub(crate) fn combined(self) -> Option<syn::Error> {
        self.errors.into_iter().reduce(|mut all, e| {
            all.combine(e);
            all
        })
    }
}
