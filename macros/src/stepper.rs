//! `sparkgen::stepper!`: the fully unrolled stepper of a catalogue method, emitted at the user's
//! site from the method's description (`generated/descriptions/`, embedded at this crate's build
//! by `build.rs`) by `sparkgen_description::emit::stepper_as`, the emission the catalogue's
//! steppers of `sparkgen::generated` come from (through `family_steppers!`).
//!
//! Input: declarations separated by `;`, each `#[attrs] vis Name = Family(s)` with an optional
//! `: Kind` asserting the method's problem kind (`DegenerateLagrangian`, `Holonomic`,
//! `ImplicitDae`, `HamiltonianDae`). Every error is reported at the offending tokens; the
//! declarations that are correct are emitted beside the errors of the others.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use sparkgen_description::structure::ProblemKind;
use sparkgen_description::text::{ReadError, Roundings};
use sparkgen_description::{Coefficient, Method, emit, text};
use std::sync::LazyLock;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitInt, Token, Visibility, parenthesized};

/// Every family's description text, `(family, text)` sorted by family.
pub const DESCRIPTIONS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/descriptions.rs"));

/// The rounding of every coefficient of the descriptions (`generated/descriptions/roundings.txt`),
/// read once per compiler process.
static ROUNDINGS: LazyLock<Result<Roundings, ReadError>> = LazyLock::new(|| {
    Roundings::read(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../generated/descriptions/roundings.txt"
    )))
});

/// The methods of a family's description text, or why it does not read (at its line, or at a
/// line of the table of roundings).
pub fn read_description(description: &str) -> Result<Vec<Method<Coefficient>>, String> {
    let roundings = ROUNDINGS
        .as_ref()
        .map_err(|e| format!("generated/descriptions/roundings.txt, {e}"))?;
    text::read(description, roundings).map_err(|e| e.to_string())
}

/// The problem kinds a declaration may assert, named as in the descriptions.
const KINDS: [ProblemKind; 4] = [
    ProblemKind::DegenerateLagrangian,
    ProblemKind::Holonomic,
    ProblemKind::ImplicitDae,
    ProblemKind::HamiltonianDae,
];

/// How many of the closest family names an unknown family's error suggests.
const SUGGESTIONS: usize = 3;

/// A family name is suggested for an unknown one when it is within this many edits, or a third
/// of the unknown name's length if that is more.
const CLOSE: usize = 2;

/// The longest prefix of an unknown family name compared with the catalogue's (every family
/// name is shorter), so that suggesting costs time linear in the input.
const COMPARED: usize = 128;

/// The expansion of `sparkgen::stepper!(input)`, whose steppers name `::sparkgen::sparkgen_core`.
pub fn expand(input: TokenStream) -> TokenStream {
    expand_with_core(input, &quote!(::sparkgen::sparkgen_core))
}

/// The expansion of `input` with `core` the path of `sparkgen_core` in the emitted code: the
/// steppers of the valid declarations, then a `compile_error!` for each invalid one.
pub fn expand_with_core(input: TokenStream, core: &TokenStream) -> TokenStream {
    let declarations = match syn::parse2::<Declarations>(input) {
        Ok(declarations) => declarations,
        Err(error) => return error.to_compile_error(),
    };
    let mut out = TokenStream::new();
    let mut errors: Option<syn::Error> = None;
    for declaration in &declarations.0 {
        match declaration.expand(core) {
            Ok(tokens) => out.extend(tokens),
            Err(error) => match &mut errors {
                Some(all) => all.combine(error),
                None => errors = Some(error),
            },
        }
    }
    if let Some(errors) = errors {
        out.extend(errors.to_compile_error());
    }
    out
}

/// The declarations of one invocation.
struct Declarations(Punctuated<Declaration, Token![;]>);

impl Parse for Declarations {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(input.error(
                "expected a stepper declaration: `Name = Family(s)`, e.g. `pub Gauss2 = VprkGauss(2)`",
            ));
        }
        Punctuated::parse_terminated(input).map(Declarations)
    }
}

/// `#[attrs] vis Name = Family(s) [: Kind]`.
struct Declaration {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    family: Ident,
    stages: LitInt,
    kind: Option<Ident>,
}

/// `what` was expected where `error` occurred: the error with the declaration's syntax.
fn expected(what: &str) -> impl FnOnce(syn::Error) -> syn::Error {
    move |error| {
        syn::Error::new(
            error.span(),
            format!("expected {what} in `Name = Family(s)`, e.g. `pub Gauss2 = VprkGauss(2)`"),
        )
    }
}

impl Parse for Declaration {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let name = input.parse().map_err(expected("the stepper's name"))?;
        input
            .parse::<Token![=]>()
            .map_err(expected("`=` after the stepper's name"))?;
        let family = input.parse().map_err(expected("a method family"))?;
        if !input.peek(syn::token::Paren) {
            return Err(input.error("expected the number of stages s in parentheses after the family, e.g. `VprkGauss(2)`"));
        }
        let content;
        parenthesized!(content in input);
        let stages = content
            .parse()
            .map_err(expected("the number of stages s in parentheses"))?;
        if !content.is_empty() {
            return Err(content.error("expected only the number of stages s in the parentheses"));
        }
        let kind = if input.peek(Token![:]) {
            input.parse::<Token![:]>()?;
            Some(
                input
                    .parse()
                    .map_err(expected("a problem kind after `:`"))?,
            )
        } else {
            None
        };
        if !input.is_empty() && !input.peek(Token![;]) {
            return Err(input.error("expected `;` between stepper declarations"));
        }
        Ok(Declaration {
            attrs,
            vis,
            name,
            family,
            stages,
            kind,
        })
    }
}

impl Declaration {
    /// The stepper declared, or the error at the offending span.
    fn expand(&self, core: &TokenStream) -> syn::Result<TokenStream> {
        let family = self.family.to_string();
        let Some((_, description)) = DESCRIPTIONS.iter().find(|(name, _)| *name == family) else {
            let suggestion = match closest(&family).as_slice() {
                [] => String::new(),
                names => format!("; did you mean {}?", names.join(", ")),
            };
            return Err(syn::Error::new(
                self.family.span(),
                format!(
                    "no method family `{family}`{suggestion} (`sparkgen methods` lists every family)"
                ),
            ));
        };
        let methods = read_description(description).map_err(|e| {
            syn::Error::new(
                self.family.span(),
                format!("the description of `{family}` does not read: {e}"),
            )
        })?;
        let s: usize = self.stages.base10_parse()?;
        let Some(method) = methods.iter().find(|m| m.s == s) else {
            let stages: Vec<String> = methods.iter().map(|m| m.s.to_string()).collect();
            return Err(syn::Error::new(
                self.stages.span(),
                format!(
                    "`{family}` has no method with s = {s}; its stage counts are s = {}",
                    stages.join(", ")
                ),
            ));
        };
        if let Some(kind) = &self.kind {
            let asserted = kind.to_string();
            let Some(asserted) = KINDS.iter().find(|k| format!("{k:?}") == asserted) else {
                let kinds: Vec<String> = KINDS.iter().map(|k| format!("`{k:?}`")).collect();
                return Err(syn::Error::new(
                    kind.span(),
                    format!(
                        "no problem kind `{asserted}`; the kinds are {}",
                        kinds.join(", ")
                    ),
                ));
            };
            if *asserted != method.problem {
                return Err(syn::Error::new(
                    kind.span(),
                    format!(
                        "`{family}({s})` ({}) is a {:?} method, not {asserted:?}",
                        method.name, method.problem
                    ),
                ));
            }
        }
        let attrs = &self.attrs;
        // The user's doc comment, then the method's as a paragraph of its own.
        let separator = attrs
            .iter()
            .any(|a| a.path().is_ident("doc"))
            .then(|| quote!(#[doc = ""]));
        emit::stepper_as(
            &method.map(Coefficient::value),
            &self.name,
            &self.vis.to_token_stream(),
            &quote!(#(#attrs)* #separator),
            core,
        )
        .map_err(|e| syn::Error::new(self.family.span(), e.to_string()))
    }
}

/// The family names closest to `family` by edit distance (ignoring case), at most
/// [`SUGGESTIONS`] of them and only those within [`CLOSE`] edits or a third of its length,
/// quoted.
fn closest(family: &str) -> Vec<String> {
    let typed: Vec<char> = family
        .chars()
        .take(COMPARED)
        .flat_map(char::to_lowercase)
        .collect();
    let close = CLOSE.max(typed.len() / 3);
    let mut ranked: Vec<(usize, &str)> = DESCRIPTIONS
        .iter()
        .map(|(name, _)| {
            let known: Vec<char> = name.chars().flat_map(char::to_lowercase).collect();
            (edit_distance(&typed, &known), *name)
        })
        .filter(|(distance, _)| *distance <= close)
        .collect();
    ranked.sort_unstable();
    ranked
        .iter()
        .take(SUGGESTIONS)
        .map(|(_, name)| format!("`{name}`"))
        .collect()
}

/// Levenshtein's distance between `a` and `b`: the fewest insertions, deletions and
/// substitutions of one character that turn `a` into `b` (one row of the table at a time).
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}
