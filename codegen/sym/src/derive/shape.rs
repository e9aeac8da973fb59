//! Shape checks of attribute values: name lists `[x, y]`, vectors `[e₁, …]` and matrices
//! `[[…], …]`, with length errors at the offending bracket.

use super::attr::{Entries, Entry};
use super::ctxt::Errors;
use super::extent::Extent;
use super::lower::Lowerer;
use syn::{Expr, Ident};

/// The names of a list like `q = [x, y]`; records an error for anything else.
pub(crate) fn names(entry: &Entry, errors: &mut Errors) -> Vec<Ident> {
    let Expr::Array(array) = &entry.value else {
        errors.spanned(
            &entry.value,
            format!("expected a list of names, like `{} = [x, y]`", entry.key),
        );
        return Vec::new();
    };
    let mut names: Vec<Ident> = Vec::new();
    for element in &array.elems {
        match element {
            Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                let name = p.path.segments[0].ident.clone();
                if names.contains(&name) {
                    errors.spanned(&name, format!("duplicate name `{name}`"));
                } else {
                    names.push(name);
                }
            }
            other => errors.spanned(other, "expected a plain name"),
        }
    }
    if names.is_empty() && array.elems.is_empty() {
        errors.spanned(&entry.value, "expected at least one name");
    }
    names
}

/// Checks that the name list `value` (of `found` names: velocities, momenta, …, called `noun`
/// in the error) has one name per coordinate in `q`, `d` in all.
pub(crate) fn one_per_coordinate(
    value: &Expr,
    found: usize,
    d: usize,
    noun: &str,
    errors: &mut Errors,
) {
    if found != d {
        errors.spanned(
            value,
            format!("expected {d} {noun} names (one per coordinate in `q`), found {found}"),
        );
    }
}

/// The components of a vector value `[e₁, …, eₙ]`, checking `n == len` when `len` is known.
///
/// `what` describes the expected length in the error, e.g. "one per coordinate in `q`". The
/// components are returned even on a length mismatch so that their own errors are reported too.
pub(crate) fn vector<'a>(
    value: &'a Expr,
    len: Option<usize>,
    what: &str,
    errors: &mut Errors,
) -> Vec<&'a Expr> {
    let Expr::Array(array) = value else {
        errors.spanned(Extent::of(value), format!("expected a list `[…]` ({what})"));
        return Vec::new();
    };
    let found = array.elems.len();
    match len {
        Some(n) if n != found => errors.spanned(
            Extent::of(value),
            format!(
                "expected {n} component{} ({what}), found {found}",
                plural(n)
            ),
        ),
        None if found == 0 => errors.spanned(
            Extent::of(value),
            format!("expected at least one component ({what})"),
        ),
        _ => {}
    }
    array.elems.iter().collect()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The names of `v = [...]` or `p = [...]` (none when the key is missing), one per coordinate
/// in `q` (`d` in all; `noun` names them in the error).
pub(crate) fn coordinate_names(
    entry: Option<&Entry>,
    d: usize,
    noun: &str,
    errors: &mut Errors,
) -> Vec<Ident> {
    let Some(entry) = entry else {
        return Vec::new();
    };
    let names = names(entry, errors);
    one_per_coordinate(&entry.value, names.len(), d, noun, errors);
    names
}

/// Defines the named subexpressions of the attribute's `definitions = [name = expression, …]`
/// (when given) in `lw`, whose coordinates are bound (see [`Lowerer::define`]); an entry of
/// another form is reported at it.
pub(crate) fn define(lw: &mut Lowerer, entries: &Entries, errors: &mut Errors) {
    let Some(entry) = entries.get("definitions") else {
        return;
    };
    let Expr::Array(array) = &entry.value else {
        errors.spanned(
            Extent::of(&entry.value),
            "expected a list of definitions, like `definitions = [r = hypot(x, y)]`",
        );
        return;
    };
    let definitions: Vec<(Ident, &Expr)> = array
        .elems
        .iter()
        .filter_map(|element| match element {
            Expr::Assign(assign) => match &*assign.left {
                Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                    Some((p.path.segments[0].ident.clone(), &*assign.right))
                }
                other => {
                    errors.spanned(other, "expected a plain name to define");
                    None
                }
            },
            other => {
                errors.spanned(
                    Extent::of(other),
                    "expected a definition `name = expression`",
                );
                None
            }
        })
        .collect();
    lw.define(&definitions, errors);
}
