//! The extent of an expression: the spans of its first and last tokens, found without
//! recursion, so that an error about an expression of any size or depth can be spanned over it.

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::Expr;

/// The first and last token spans of an expression (or of a list of expressions).
///
/// As tokens it is two punctuation marks carrying these spans, so `syn::Error::new_spanned`
/// over an extent spans exactly what it spans over the expression's own tokens, without
/// converting the whole expression to tokens (which recurses once per level of its tree).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Extent {
    start: Span,
    end: Span,
}

impl Extent {
    /// The extent of `expr`.
    pub(crate) fn of(expr: &Expr) -> Extent {
        Extent {
            start: first(expr),
            end: last(expr),
        }
    }

    /// From the first token of the first of `exprs` to the last token of the last one.
    pub(crate) fn of_all(exprs: &[&Expr]) -> Option<Extent> {
        match (exprs.first(), exprs.last()) {
            (Some(a), Some(b)) => Some(Extent {
                start: first(a),
                end: last(b),
            }),
            _ => None,
        }
    }

    /// The span of the first token.
    pub(crate) fn start(&self) -> Span {
        self.start
    }
}

impl ToTokens for Extent {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        for span in [self.start, self.end] {
            let mut mark = Punct::new('.', Spacing::Alone);
            mark.set_span(span);
            tokens.extend([TokenTree::Punct(mark)]);
        }
    }
}

/// The span of the first token of `expr`.
fn first(mut expr: &Expr) -> Span {
    loop {
        expr = match expr {
            Expr::Binary(e) if e.attrs.is_empty() => &e.left,
            Expr::MethodCall(e) if e.attrs.is_empty() => &e.receiver,
            Expr::Call(e) if e.attrs.is_empty() => &e.func,
            Expr::Lit(e) if e.attrs.is_empty() => return e.lit.span(),
            Expr::Unary(e) if e.attrs.is_empty() => return boundary(&e.op, true),
            Expr::Paren(e) if e.attrs.is_empty() => return e.paren_token.span.join(),
            Expr::Array(e) if e.attrs.is_empty() => return e.bracket_token.span.join(),
            other => return boundary(other, true),
        }
    }
}

/// The span of the last token of `expr`.
fn last(mut expr: &Expr) -> Span {
    loop {
        expr = match expr {
            Expr::Binary(e) => &e.right,
            Expr::Unary(e) => &e.expr,
            Expr::Lit(e) => return e.lit.span(),
            Expr::Paren(e) => return e.paren_token.span.join(),
            Expr::Call(e) => return e.paren_token.span.join(),
            Expr::MethodCall(e) => return e.paren_token.span.join(),
            Expr::Array(e) => return e.bracket_token.span.join(),
            other => return boundary(other, false),
        }
    }
}

/// The span of the first (or last) token of a node whose tokens are few or that no front end
/// nests deeply (paths, and the unsupported expressions of a derive, which syn parsed).
fn boundary(tokens: &dyn ToTokens, first: bool) -> Span {
    let mut iter = tokens.to_token_stream().into_iter();
    let token = if first { iter.next() } else { iter.last() };
    token.map_or_else(Span::call_site, |t| t.span())
}
