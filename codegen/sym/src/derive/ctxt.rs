//! Error accumulator: every user error of a derive is collected and reported in one compile.

use proc_macro2::Span;
use std::fmt::Display;

/// What a user error is about, for front ends that classify errors (the text front end's
/// callers); the derives report only the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The expression does not parse.
    Syntax,
    /// A name that is neither a coordinate nor a parameter, or a coordinate of a state vector
    /// the expression's function does not depend on.
    UnknownName,
    /// A function outside the supported set.
    UnsupportedFunction,
    /// A derivative is required of an expression containing a non-differentiable function.
    NotDifferentiable,
    /// A subexpression whose value is never finite: constant and NaN or ±∞, or a quotient whose
    /// divisor is the constant 0.
    NotFinite,
    /// Any other invalid input (unsupported operator or literal, wrong shape, singular mass
    /// matrix, duplicate name, …).
    Invalid,
}

/// Collects `syn::Error`s at their spans instead of failing on the first one.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<(ErrorKind, syn::Error)>,
}

impl Errors {
    /// Records `message` at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl Display) {
        self.errors
            .push((ErrorKind::Invalid, syn::Error::new(span, message)));
    }

    /// Records `message` spanning all tokens of `tokens`.
    pub(crate) fn spanned(&mut self, tokens: impl quote::ToTokens, message: impl Display) {
        self.spanned_as(ErrorKind::Invalid, tokens, message);
    }

    /// Records a `kind` error `message` spanning all tokens of `tokens`.
    pub(crate) fn spanned_as(
        &mut self,
        kind: ErrorKind,
        tokens: impl quote::ToTokens,
        message: impl Display,
    ) {
        self.errors
            .push((kind, syn::Error::new_spanned(tokens, message)));
    }

    /// Records an error produced by syn (a parse error).
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push((ErrorKind::Syntax, error));
    }

    /// The number of errors recorded.
    pub(crate) fn len(&self) -> usize {
        self.errors.len()
    }

    /// `true` when no error was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// All recorded errors combined into one, or `None`.
    pub(crate) fn combined(self) -> Option<syn::Error> {
        self.errors
            .into_iter()
            .map(|(_, e)| e)
            .reduce(|mut all, e| {
                all.combine(e);
                all
            })
    }

    /// The recorded errors in order, with their kinds.
    pub(crate) fn into_vec(self) -> Vec<(ErrorKind, syn::Error)> {
        self.errors
    }
}
