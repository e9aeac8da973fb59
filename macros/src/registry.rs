//! `stepper_registry!(generated, callback, [Family, …])`: the catalogue's steppers as data,
//! read from their descriptions. It expands to `callback! { degenerate: [(Type, "Family", s,
//! order, "Pair(s)", facts), …], holonomic: […], implicit: […], hamiltonian: […] }`: every
//! method of the listed families (in the order listed, each family's methods in the order of
//! its description), grouped by the problem kind it applies to, with its
//! `types::MethodFacts` built from its description's facts (its pins and limitations naming
//! the constants of `measured`), `generated` being the path of the generated crate. The
//! generated crate's `for_each_stepper!` invokes it with the families in catalogue order.

use crate::stepper::{DESCRIPTIONS, read_description};
use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::{format_ident, quote};
use sparkgen_description::facts::{Facts, Multiplier, Pin};
use sparkgen_description::literal::int;
use sparkgen_description::structure::ProblemKind;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, Token, bracketed};

/// `generated, callback, [Family, …]`.
struct Input {
    /// The path of the generated crate (`$crate` where `for_each_stepper!` expands).
    generated: TokenStream,
    callback: Ident,
    families: Punctuated<Ident, Token![,]>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // A path, `$crate` among them, taken as its tokens up to the comma.
        let mut generated = TokenStream::new();
        while !input.is_empty() && !input.peek(Token![,]) {
            generated.extend([input.parse::<TokenTree>()?]);
        }
        input.parse::<Token![,]>()?;
        let callback = input.parse()?;
        input.parse::<Token![,]>()?;
        let content;
        bracketed!(content in input);
        let families = Punctuated::parse_terminated(&content)?;
        Ok(Input {
            generated,
            callback,
            families,
        })
    }
}

/// The problem kinds in the order of the callback's groups, with the groups' names.
const GROUPS: [(&str, ProblemKind); 4] = [
    ("degenerate", ProblemKind::DegenerateLagrangian),
    ("holonomic", ProblemKind::Holonomic),
    ("implicit", ProblemKind::ImplicitDae),
    ("hamiltonian", ProblemKind::HamiltonianDae),
];

/// The expansion of `stepper_registry!(input)`.
pub fn expand(input: TokenStream) -> TokenStream {
    let Input {
        generated,
        callback,
        families,
    } = match syn::parse2::<Input>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    match rows(&generated, &families) {
        Ok(rows) => {
            let groups = GROUPS.iter().map(|(name, kind)| {
                let name = format_ident!("{name}");
                let rows = rows.iter().filter(|(k, _)| k == kind).map(|(_, row)| row);
                quote!(#name: [#(#rows),*])
            });
            quote!(#callback! { #(#groups),* })
        }
        Err(error) => error.to_compile_error(),
    }
}

/// The row of every method of `families`, with its problem kind; an error at the family that
/// has no description or does not read, or at the list if it leaves a description out.
fn rows(
    generated: &TokenStream,
    families: &Punctuated<Ident, Token![,]>,
) -> syn::Result<Vec<(ProblemKind, TokenStream)>> {
    let mut rows = Vec::new();
    for (i, family) in families.iter().enumerate() {
        let name = family.to_string();
        let error = |message: String| syn::Error::new(family.span(), message);
        if families.iter().take(i).any(|f| *f == name) {
            return Err(error(format!("`{name}` is listed twice")));
        }
        let (_, description) = DESCRIPTIONS
            .iter()
            .find(|(f, _)| *f == name)
            .ok_or_else(|| {
                error(format!(
                    "no method family `{name}` in generated/descriptions"
                ))
            })?;
        let methods = read_description(description)
            .map_err(|e| error(format!("the description of `{name}` does not read: {e}")))?;
        for m in &methods {
            let ty = format_ident!("{}", m.name);
            let (s, order) = (int(m.s), int(m.order));
            let pair = format!("{}({})", m.pair, m.s);
            let facts = facts_tokens(generated, &m.facts)
                .ok_or_else(|| error(format!("`{}` has no recommendation", m.name)))?;
            rows.push((m.problem, quote!((#ty, #name, #s, #order, #pair, #facts))));
        }
    }
    if let Some((missing, _)) = DESCRIPTIONS
        .iter()
        .find(|(f, _)| !families.iter().any(|g| g == f))
    {
        return Err(syn::Error::new(
            callback_span(families),
            format!("the family `{missing}` of generated/descriptions is not listed"),
        ));
    }
    Ok(rows)
}

/// Where an error about the list as a whole is reported: its first family.
fn callback_span(families: &Punctuated<Ident, Token![,]>) -> proc_macro2::Span {
    families
        .first()
        .map_or_else(proc_macro2::Span::call_site, Ident::span)
}

/// `generated::types::MethodFacts { … }` of `facts`; `None` without a recommendation.
fn facts_tokens(generated: &TokenStream, facts: &Facts) -> Option<TokenStream> {
    let preserves = facts.preserves_constraint;
    let linear = facts.needs_linear_one_form;
    let multiplier = match facts.multiplier {
        None => quote!(None),
        Some(Multiplier::Projection) => {
            quote!(Some(#generated::types::CarriedMultiplier::Projection))
        }
        Some(Multiplier::Velocity) => quote!(Some(#generated::types::CarriedMultiplier::Velocity)),
    };
    let (pinned, on_index_two) = (
        pin_tokens(generated, facts.pinned.as_ref()),
        pin_tokens(generated, facts.pinned_on_index_two_pendulum.as_ref()),
    );
    let limitations = facts.limitations.iter().map(|r| reason_path(generated, r));
    let recommendation = facts.recommendation.as_ref()?;
    let class = format_ident!("{}", recommendation.class.name());
    let reason = &recommendation.reason;
    Some(quote!(#generated::types::MethodFacts {
        preserves_constraint: #preserves,
        multiplier: #multiplier,
        needs_linear_one_form: #linear,
        pinned: #pinned,
        pinned_on_index_two_pendulum: #on_index_two,
        limitations: &[#(#limitations),*],
        recommendation: #generated::types::Recommendation {
            class: #generated::types::RecommendationClass::#class,
            reason: #reason,
        },
    }))
}

/// `generated::measured::NAME` of the cause `name`.
fn reason_path(generated: &TokenStream, name: &str) -> TokenStream {
    let name = format_ident!("{name}");
    quote!(#generated::measured::#name)
}

/// `Some(generated::types::Pinned::…)` or `None`.
fn pin_tokens(generated: &TokenStream, pin: Option<&Pin>) -> TokenStream {
    let Some(pin) = pin else {
        return quote!(None);
    };
    let reason = reason_path(generated, pin.reason());
    let variant = match pin {
        Pin::Order { order, .. } => {
            let order = Literal::f64_suffixed(*order);
            quote!(Order { order: #order, reason: #reason })
        }
        Pin::Fails { error, .. } => quote!(Fails { error: #error, reason: #reason }),
        Pin::Parasitic { order, .. } => {
            let order = Literal::f64_suffixed(*order);
            quote!(Parasitic { order: #order, reason: #reason })
        }
        Pin::Erratic { .. } => quote!(Erratic { reason: #reason }),
        Pin::NoConvergence { .. } => quote!(NoConvergence { reason: #reason }),
    };
    quote!(Some(#generated::types::Pinned::#variant))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every family of the descriptions, sorted by name.
    fn all_families() -> Vec<Ident> {
        DESCRIPTIONS
            .iter()
            .map(|(f, _)| format_ident!("{f}"))
            .collect()
    }

    /// The `(group, row)` pairs of an expansion `callback! { group: [row, …], … }`.
    fn groups(expansion: TokenStream) -> Vec<(String, Vec<String>)> {
        let trees: Vec<TokenTree> = expansion.into_iter().collect();
        let [
            TokenTree::Ident(callback),
            TokenTree::Punct(bang),
            TokenTree::Group(body),
        ] = &trees[..]
        else {
            panic!("not a callback invocation: {trees:?}");
        };
        assert_eq!(
            (callback.to_string(), bang.as_char()),
            ("callback".to_owned(), '!')
        );
        let mut groups = Vec::new();
        let mut name = String::new();
        for tree in body.stream() {
            match tree {
                TokenTree::Ident(ident) => name = ident.to_string(),
                TokenTree::Group(rows) => groups.push((
                    name.clone(),
                    rows.stream()
                        .into_iter()
                        .filter_map(|row| match row {
                            TokenTree::Group(row) => Some(row.stream().to_string()),
                            _ => None,
                        })
                        .collect(),
                )),
                TokenTree::Punct(_) | TokenTree::Literal(_) => {}
            }
        }
        groups
    }

    /// Every method of every description has one row, in the group of its problem kind, in the
    /// order of the listed families (and of its description); its facts are those of its
    /// description: a pinned method names its pin's cause, a limited one its limitations.
    #[test]
    fn every_method_has_one_row_in_its_group_with_its_facts() {
        let mut families = all_families();
        families.reverse();
        let groups = groups(expand(quote!(crate, callback, [#(#families),*])));
        let names: Vec<&str> = groups.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(
            names,
            ["degenerate", "holonomic", "implicit", "hamiltonian"]
        );
        let mut rows = 0;
        for (name, kind) in GROUPS {
            let (_, group) = groups.iter().find(|(g, _)| g == name).expect("the group");
            // The methods of this kind, families in the listed order.
            let expected: Vec<_> = families
                .iter()
                .flat_map(|f| {
                    let (_, text) = DESCRIPTIONS.iter().find(|(g, _)| f == g).expect("listed");
                    read_description(text).expect("reads")
                })
                .filter(|m| m.problem == kind)
                .collect();
            assert_eq!(group.len(), expected.len(), "{name}");
            for (row, m) in group.iter().zip(&expected) {
                let head = format!("{} , \"{}\" , {} , {} ,", m.name, m.family, m.s, m.order);
                assert!(row.starts_with(&head), "{row} is not {head}");
                for cause in m
                    .facts
                    .pinned
                    .iter()
                    .map(Pin::reason)
                    .chain(m.facts.limitations.iter().map(String::as_str))
                {
                    assert!(
                        row.contains(&format!("crate :: measured :: {cause}")),
                        "{row}: {cause}"
                    );
                }
                let class = m
                    .facts
                    .recommendation
                    .as_ref()
                    .expect("recommended")
                    .class
                    .name();
                assert!(
                    row.contains(&format!("RecommendationClass :: {class}")),
                    "{row}"
                );
            }
            rows += group.len();
        }
        let methods: usize = DESCRIPTIONS
            .iter()
            .map(|(_, text)| read_description(text).expect("reads").len())
            .sum();
        assert_eq!(rows, methods);
        // Some pins and limitations are there to be named.
        let all: BTreeSet<&String> = groups.iter().flat_map(|(_, rows)| rows).collect();
        assert!(all.iter().any(|row| row.contains("Pinned :: Fails")));
        assert!(
            all.iter()
                .any(|row| row.contains("Pinned :: Order { order : 1f64"))
        );
    }

    /// A family that has no description, one listed twice and a description left out are
    /// refused, each with its message.
    #[test]
    fn a_list_that_is_not_every_family_once_is_refused() {
        let families = all_families();
        let (first, rest) = families.split_first().expect("families");
        let cases = [
            (
                quote!(crate, callback, [Unknown, #(#families),*]),
                "no method family `Unknown`",
            ),
            (
                quote!(crate, callback, [#(#families),*, #first]),
                "listed twice",
            ),
            (quote!(crate, callback, [#(#rest),*]), "is not listed"),
            (quote!(crate, callback), "expected `,`"),
        ];
        for (input, message) in cases {
            let expansion = expand(input).to_string();
            assert!(expansion.contains("compile_error"), "{expansion}");
            assert!(expansion.contains(message), "{message}: {expansion}");
        }
    }
}
