//! Parsing of the `#[name(key = value, …)]` helper attributes into spanned key–value entries.
//!
//! Syntax errors inside one attribute stop that attribute; unknown and duplicate keys are recorded
//! and parsing goes on, so the user sees every such error at once.

use super::ctxt::Errors;
use super::parse::MAX_NESTING;
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree, token_stream};
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
    /// An attribute was not read (a syntax error, or nesting too deep, was reported): its keys
    /// are unknown, so none is reported missing.
    unread: bool,
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
        let mut unread = false;
        for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
            found = Some(attr.path().segments[0].ident.span());
            if let Ok(list) = attr.meta.require_list()
                && let Err(error) = check_nesting(&list.tokens)
            {
                errors.push(error);
                unread = true;
                continue;
            }
            let parsed = attr.parse_args_with(Punctuated::<Entry, Token![,]>::parse_terminated);
            let Ok(list) = parsed.map_err(|e| errors.push(e)) else {
                unread = true;
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
        Some(Entries {
            entries,
            span,
            unread,
        })
    }

    /// The entry `key`, if given.
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The entry `key`; records "missing key" at the attribute when absent.
    pub(crate) fn require(&self, key: &str, errors: &mut Errors) -> Option<&Entry> {
        let entry = self.get(key);
        if entry.is_none() && !self.unread {
            errors.at(self.span, format!("missing key `{key}`"));
        }
        entry
    }

    /// Records `message` (a missing key and what may replace it) at the attribute.
    pub(crate) fn missing(&self, message: String, errors: &mut Errors) {
        if !self.unread {
            errors.at(self.span, message);
        }
    }
}

/// `` `a`, `b`, `c` `` for error messages.
fn quoted(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One level of groups in [`check_nesting`]'s walk.
struct Level {
    tokens: token_stream::IntoIter,
    /// Nesting of this level's tokens.
    depth: usize,
    /// Method calls chained so far at this level (each nests its receiver once more).
    chain: usize,
    /// Consecutive prefix operators just read.
    signs: usize,
    /// The last tokens were `.` (1) or `.` and a name (2).
    dotted: u8,
}

/// Rejects an attribute whose expressions nest deeper than the text front end allows (more
/// than [`MAX_NESTING`] levels of parentheses, brackets and chained method calls, or more than
/// that many prefix operators in a row), before syn parses them: syn's expression parser
/// recurses once per level, and in a derive the compiler's stack is the limit. The tokens are
/// walked with an explicit stack, at most [`MAX_NESTING`] levels deep.
fn check_nesting(tokens: &TokenStream) -> syn::Result<()> {
    let too_deep = |span: Span, what: &str| {
        syn::Error::new(
            span,
            format!("the expression is nested too deeply: more than {MAX_NESTING} {what}"),
        )
    };
    let level = |tokens: TokenStream, depth| Level {
        tokens: tokens.into_iter(),
        depth,
        chain: 0,
        signs: 0,
        dotted: 0,
    };
    let mut stack = vec![level(tokens.clone(), 0)];
    while let Some(top) = stack.last_mut() {
        let Some(token) = top.tokens.next() else {
            stack.pop();
            continue;
        };
        let dotted = std::mem::take(&mut top.dotted);
        match token {
            TokenTree::Group(group) => {
                top.signs = 0;
                let call = dotted == 2 && group.delimiter() == Delimiter::Parenthesis;
                top.chain += usize::from(call);
                let depth = top.depth + if call { top.chain } else { 1 };
                if depth > MAX_NESTING {
                    return Err(too_deep(
                        group.span_open(),
                        "levels of parentheses, brackets and calls",
                    ));
                }
                stack.push(level(group.stream(), depth));
            }
            TokenTree::Punct(punct) => match punct.as_char() {
                '.' => top.dotted = 1,
                '-' | '!' | '*' | '&' => {
                    top.chain = 0;
                    top.signs += 1;
                    if top.signs > MAX_NESTING {
                        return Err(too_deep(punct.span(), "prefix operators in a row"));
                    }
                }
                _ => {
                    top.chain = 0;
                    top.signs = 0;
                }
            },
            TokenTree::Ident(_) => {
                top.signs = 0;
                top.dotted = if dotted == 1 { 2 } else { 0 };
            }
            TokenTree::Literal(_) => top.signs = 0,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(source: &str) -> Result<(), String> {
        let tokens: TokenStream = source.parse().expect("tokens");
        check_nesting(&tokens).map_err(|e| e.to_string())
    }

    /// The limit is exact for nested calls, chained method calls and runs of signs, and the
    /// nesting of a list's brackets counts like a group.
    #[test]
    fn nesting_is_checked_up_to_the_limit() {
        let nested = |n: usize| format!("h = {}x{}", "sin(".repeat(n), ")".repeat(n));
        let chained = |n: usize| format!("h = x{}", ".sin()".repeat(n));
        let signs = |n: usize| format!("h = {}x", "- ".repeat(n));
        let listed = |n: usize| format!("theta = [{}x{}]", "(".repeat(n - 1), ")".repeat(n - 1));
        for form in [nested, chained, signs, listed] {
            assert_eq!(checked(&form(MAX_NESTING)), Ok(()));
            let error = checked(&form(MAX_NESTING + 1)).expect_err("one level too deep");
            assert!(error.contains("nested too deeply"), "{error}");
        }
        // Chains restart after an operator; long flat sums are not nesting.
        let sum = format!(
            "h = {}",
            vec![chained(100)[4..].to_owned(); 100].join(" + ")
        );
        assert_eq!(checked(&sum), Ok(()));
        assert_eq!(checked(&format!("h = {}x", "x * ".repeat(10_000))), Ok(()));
    }
}
