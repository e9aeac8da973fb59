//! The parser of the text front end: the expression language of the derive attributes, read
//! from a string into the `syn::Expr` the lowering takes, in time and memory linear in the
//! string's length.
//!
//! The grammar is exactly the supported language (anything else is a syntax error at the
//! offending token):
//!
//! ```text
//! sum     = product (("+" | "-") product)*
//! product = signed (("*" | "/") signed)*
//! signed  = "-"* postfix
//! postfix = primary ("." name "(" arguments ")")*
//! primary = number | name | name "(" arguments ")" | "(" sum ")" | "[" arguments "]"
//! ```
//!
//! Chains of `+ -` and `* /` and runs of signs are read by loops into left-associative trees
//! (so they are evaluated left to right, as written), which the lowering, [`Extent`] and
//! [`Parsed`]'s drop also walk by loops. Only groups (parentheses, brackets, calls) and method
//! calls nest the parser; their depth is at most [`MAX_NESTING`], beyond which the parser
//! reports the opening token, so no string drives any recursion deeper than that.
//!
//! [`Extent`]: super::extent::Extent

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use std::str::FromStr;
use syn::punctuated::Punctuated;
use syn::token::{Bracket, Paren};
use syn::{BinOp, Expr, UnOp};

/// The deepest nesting of parentheses, brackets, calls and method calls an expression may have.
pub(crate) const MAX_NESTING: usize = 128;

/// An expression parsed from a string; dropped without recursion.
pub(crate) struct Parsed(pub(crate) Expr);

impl Drop for Parsed {
    fn drop(&mut self) {
        let mut stack = vec![std::mem::replace(&mut self.0, placeholder())];
        while let Some(mut expr) = stack.pop() {
            match &mut expr {
                Expr::Binary(e) => {
                    stack.push(take(&mut e.left));
                    stack.push(take(&mut e.right));
                }
                Expr::Unary(e) => stack.push(take(&mut e.expr)),
                Expr::Paren(e) => stack.push(take(&mut e.expr)),
                Expr::MethodCall(e) => {
                    stack.push(take(&mut e.receiver));
                    stack.extend(std::mem::take(&mut e.args));
                }
                Expr::Call(e) => stack.extend(std::mem::take(&mut e.args)),
                Expr::Array(e) => stack.extend(std::mem::take(&mut e.elems)),
                _ => {}
            }
        }
    }
}

fn placeholder() -> Expr {
    Expr::Verbatim(TokenStream::new())
}

fn take(expr: &mut Expr) -> Expr {
    std::mem::replace(expr, placeholder())
}

/// Parses `source` as one expression.
pub(crate) fn expression(source: &str) -> syn::Result<Parsed> {
    let tokens = TokenStream::from_str(source)
        .map_err(|error| syn::Error::new(error.span(), "cannot read the expression: bad token"))?;
    Parser::new(tokens, Span::call_site(), 0)
        .whole()
        .map(Parsed)
}

/// The tokens of one group (or of the whole string) and the position in them.
struct Parser {
    tokens: Vec<TokenTree>,
    position: usize,
    /// Where the tokens end (the closing delimiter, or the call site for the whole string).
    end: Span,
    /// The nesting of this group.
    depth: usize,
}

impl Parser {
    fn new(tokens: TokenStream, end: Span, depth: usize) -> Parser {
        Parser {
            tokens: tokens.into_iter().collect(),
            position: 0,
            end,
            depth,
        }
    }

    fn peek(&self) -> Option<&TokenTree> {
        self.tokens.get(self.position)
    }

    fn next(&mut self) -> Option<TokenTree> {
        let token = self.tokens.get(self.position).cloned();
        self.position += 1;
        token
    }

    /// The punctuation mark at the cursor if it is one of `marks`.
    fn operator(&self, marks: &[char]) -> Option<(char, Span)> {
        match self.peek()? {
            TokenTree::Punct(p) if marks.contains(&p.as_char()) => Some((p.as_char(), p.span())),
            _ => None,
        }
    }

    /// One expression spanning all tokens.
    fn whole(mut self) -> syn::Result<Expr> {
        let expr = self.sum()?;
        match self.peek() {
            None => Ok(expr),
            Some(token) => Err(unexpected(token)),
        }
    }

    /// Comma-separated expressions spanning all tokens (a trailing comma allowed).
    fn list(mut self) -> syn::Result<Punctuated<Expr, syn::Token![,]>> {
        let mut items = Punctuated::new();
        while self.peek().is_some() {
            items.push_value(self.sum()?);
            match self.next() {
                None => break,
                Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                    items.push_punct(syn::Token![,](p.span()));
                }
                Some(token) => return Err(unexpected(&token)),
            }
        }
        Ok(items)
    }

    fn sum(&mut self) -> syn::Result<Expr> {
        self.chain(&['+', '-'], Parser::product, |mark, span| match mark {
            '+' => BinOp::Add(syn::Token![+](span)),
            _ => BinOp::Sub(syn::Token![-](span)),
        })
    }

    fn product(&mut self) -> syn::Result<Expr> {
        self.chain(&['*', '/'], Parser::signed, |mark, span| match mark {
            '*' => BinOp::Mul(syn::Token![*](span)),
            _ => BinOp::Div(syn::Token![/](span)),
        })
    }

    /// `operand (mark operand)*` for the operators `marks`, as a left-associative tree.
    fn chain(
        &mut self,
        marks: &[char],
        operand: fn(&mut Parser) -> syn::Result<Expr>,
        op: fn(char, Span) -> BinOp,
    ) -> syn::Result<Expr> {
        let mut chain = operand(self)?;
        while let Some((mark, span)) = self.operator(marks) {
            self.position += 1;
            chain = binary(chain, op(mark, span), operand(self)?);
        }
        Ok(chain)
    }

    fn signed(&mut self) -> syn::Result<Expr> {
        let mut signs = Vec::new();
        while let Some(TokenTree::Punct(p)) = self.peek()
            && p.as_char() == '-'
        {
            signs.push(p.span());
            self.position += 1;
        }
        let mut expr = self.postfix()?;
        for span in signs.into_iter().rev() {
            expr = Expr::Unary(syn::ExprUnary {
                attrs: Vec::new(),
                op: UnOp::Neg(syn::Token![-](span)),
                expr: Box::new(expr),
            });
        }
        Ok(expr)
    }

    fn postfix(&mut self) -> syn::Result<Expr> {
        let mut expr = self.primary()?;
        let mut calls = 0;
        while let Some(TokenTree::Punct(dot)) = self.peek()
            && dot.as_char() == '.'
        {
            let dot = dot.span();
            self.position += 1;
            let method = match self.next() {
                Some(TokenTree::Ident(method)) => method,
                Some(token) => return Err(error(token.span(), "expected a method name")),
                None => return Err(error(self.end, "expected a method name after `.`")),
            };
            calls += 1;
            let group = match self.next() {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g,
                Some(TokenTree::Punct(p)) if p.as_char() == ':' => {
                    return Err(error(p.span(), "generic arguments are not supported here"));
                }
                Some(token) => {
                    return Err(error(token.span(), "expected `(` after the method name"));
                }
                None => return Err(error(self.end, "expected `(` after the method name")),
            };
            let args = self.nested(&group, calls)?.list()?;
            expr = Expr::MethodCall(syn::ExprMethodCall {
                attrs: Vec::new(),
                receiver: Box::new(expr),
                dot_token: syn::Token![.](dot),
                method,
                turbofish: None,
                paren_token: Paren {
                    span: group.delim_span(),
                },
                args,
            });
        }
        Ok(expr)
    }

    fn primary(&mut self) -> syn::Result<Expr> {
        match self.next() {
            None => Err(error(
                self.end,
                "unexpected end of input, expected an expression",
            )),
            Some(TokenTree::Literal(literal)) => Ok(Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit: syn::Lit::new(literal),
            })),
            Some(TokenTree::Ident(name)) => match self.peek() {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                    let group = g.clone();
                    self.position += 1;
                    let args = self.nested(&group, 0)?.list()?;
                    Ok(Expr::Call(syn::ExprCall {
                        attrs: Vec::new(),
                        func: Box::new(path(name)),
                        paren_token: Paren {
                            span: group.delim_span(),
                        },
                        args,
                    }))
                }
                _ => Ok(path(name)),
            },
            Some(TokenTree::Group(group)) => match group.delimiter() {
                Delimiter::Parenthesis => Ok(Expr::Paren(syn::ExprParen {
                    attrs: Vec::new(),
                    paren_token: Paren {
                        span: group.delim_span(),
                    },
                    expr: Box::new(self.nested(&group, 0)?.whole()?),
                })),
                Delimiter::Bracket => Ok(Expr::Array(syn::ExprArray {
                    attrs: Vec::new(),
                    bracket_token: Bracket {
                        span: group.delim_span(),
                    },
                    elems: self.nested(&group, 0)?.list()?,
                })),
                _ => Err(error(group.span_open(), "expected an expression")),
            },
            Some(token) => Err(error(token.span(), "expected an expression")),
        }
    }

    /// A parser of the contents of `group`, which follows `calls` method calls of a chain.
    fn nested(&self, group: &Group, calls: usize) -> syn::Result<Parser> {
        let depth = self.depth + calls.max(1);
        if depth > MAX_NESTING {
            return Err(error(
                group.span_open(),
                format!(
                    "the expression is nested too deeply: more than {MAX_NESTING} levels of \
                     parentheses, brackets and calls"
                ),
            ));
        }
        Ok(Parser::new(group.stream(), group.span_close(), depth))
    }
}

fn binary(left: Expr, op: BinOp, right: Expr) -> Expr {
    Expr::Binary(syn::ExprBinary {
        attrs: Vec::new(),
        left: Box::new(left),
        op,
        right: Box::new(right),
    })
}

fn path(name: Ident) -> Expr {
    Expr::Path(syn::ExprPath {
        attrs: Vec::new(),
        qself: None,
        path: name.into(),
    })
}

fn error(span: Span, message: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(span, message)
}

/// The error at a token where none may stand: an operator outside the language, or any other.
fn unexpected(token: &TokenTree) -> syn::Error {
    match token {
        TokenTree::Punct(p) if "%^&|<>=!".contains(p.as_char()) => error(
            p.span(),
            "unsupported operator; use `+`, `-`, `*`, `/` or `powi`/`powf`",
        ),
        _ => error(token.span(), "unexpected token"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser builds exactly the tree syn builds for the language (so lowering, and thus
    /// every tape, is unchanged).
    #[test]
    fn trees_are_those_syn_builds() {
        for source in [
            "a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2)",
            "q2 + ln(q2) / q1 - -x * -(y - z) / w / v",
            "- - -q1.powi(2).sin() * atan2(y, x,) - [1, [2, 3e-4], x.hypot(y)]",
            "1.5e3 - 2f64 * (((x)))",
        ] {
            let ours = expression(source).expect("valid");
            let syns: Expr = syn::parse_str(source).expect("valid");
            assert_eq!(ours.0, syns, "{source}");
        }
    }

    /// (byte range, message) of the parse error of `source`.
    fn error_of(source: &str) -> (std::ops::Range<usize>, String) {
        match expression(source) {
            Ok(_) => panic!("`{source}` does not parse"),
            Err(error) => (error.span().byte_range(), error.to_string()),
        }
    }

    #[test]
    fn nesting_beyond_the_limit_is_an_error_at_its_opening_token() {
        let deep =
            |n: usize, open: &str, close: &str| format!("{}q1{}", open.repeat(n), close.repeat(n));
        assert!(expression(&deep(MAX_NESTING, "(", ")")).is_ok());
        let (range, message) = error_of(&deep(100_000, "(", ")"));
        assert_eq!(range, MAX_NESTING..MAX_NESTING + 1);
        assert!(message.contains("nested too deeply"), "{message}");
        let (range, _) = error_of(&deep(2400, "sin(", ")"));
        assert_eq!(range.start, 4 * MAX_NESTING + 3);
        let chain = format!("q1{}", ".sin()".repeat(1000));
        let (range, _) = error_of(&chain);
        assert_eq!(range.start, 2 + 6 * MAX_NESTING + 4);
    }

    #[test]
    fn long_chains_and_sign_runs_parse_and_drop_without_recursion() {
        let signs = format!("{}q1", "-".repeat(100_000));
        assert!(expression(&signs).is_ok());
        let sum = format!("q1{}", " + q1".repeat(200_000));
        assert!(expression(&sum).is_ok());
    }

    #[test]
    fn syntax_errors_name_the_token() {
        assert_eq!(
            error_of("q1 ^ 2").1,
            "unsupported operator; use `+`, `-`, `*`, `/` or `powi`/`powf`"
        );
        assert_eq!(error_of("q1 ^ 2").0, 3..4);
        assert_eq!(error_of("q1 q2").0, 3..5);
        assert_eq!(error_of("x.powi::<i32>(2)").0, 6..7);
        assert!(error_of("(q1 + )").1.starts_with("unexpected end of input"));
    }
}
