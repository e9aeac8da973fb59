use crate::stepper::{DESCRIPTIONS, edit_distance, expand, expand_with_core, read_description};
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};
use sparkgen_description::{Coefficient, Method};
use std::collections::BTreeMap;
use std::path::Path;

/// The methods of `family`, read from its embedded description.
fn methods(family: &str) -> Vec<Method<Coefficient>> {
    let (_, description) = DESCRIPTIONS
        .iter()
        .find(|(name, _)| *name == family)
        .unwrap_or_else(|| panic!("no description of {family}"));
    read_description(description).unwrap_or_else(|e| panic!("{family}: {e}"))
}

/// `input`'s expansion, parsed as a file.
fn file(input: TokenStream) -> syn::File {
    syn::parse2(expand(input)).expect("the expansion is a sequence of items")
}

/// `input`'s expansion, parsed as items.
fn items(input: TokenStream) -> Vec<syn::Item> {
    file(input).items
}

/// The messages of the `compile_error!`s among `items`.
fn errors(items: &[syn::Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m) if m.mac.path.segments.last()?.ident == "compile_error" => {
                Some(m.mac.parse_body::<syn::LitStr>().ok()?.value())
            }
            _ => None,
        })
        .collect()
}

/// The single error `input` expands to: its message, asserting nothing else is emitted.
fn error(input: TokenStream) -> String {
    let items = items(input);
    let errors = errors(&items);
    assert_eq!(
        (items.len(), errors.len()),
        (1, 1),
        "one compile_error!: {items:?}"
    );
    errors[0].clone()
}

/// The structure families, each at its smallest stage count, pretty-printed as the user's
/// `pub Stepper`: one snapshot per stage structure.
#[test]
fn expansion_of_each_stage_structure_at_its_smallest_s() {
    for family in [
        "SlrkLobattoIIIAB",
        "VprkGauss",
        "RattleLobattoIIIAIIIB",
        "SparkGlrk",
        "VsparkGlrk",
        "VparkGlrkpSymplectic",
        "HparkGlrk",
        "HsparkGlrk",
        "VsparkPrimaryGlrkpInternal",
        "VsparkSecondaryLobattoIIIAB",
        "HsparkSecondaryLobattoIIIAB",
        "HsparkPrimaryGlrkpSymmetric",
        "IdaeSparkGlrk",
        "IdaeVparkGlrkpSymplectic",
    ] {
        let s = methods(family)
            .iter()
            .map(|m| m.s)
            .min()
            .expect("a family has methods");
        let family_ident = format_ident!("{family}");
        let stages = proc_macro2::Literal::usize_unsuffixed(s);
        let file = file(quote!(pub Stepper = #family_ident(#stages)));
        assert!(errors(&file.items).is_empty(), "{family}({s})");
        insta::assert_snapshot!(format!("{family}{s}"), prettyplease::unparse(&file));
    }
}

/// The name an item of a stepper module declares: the struct's, the type alias's, or the type
/// an `impl` is for.
fn declared(item: &syn::Item) -> Option<String> {
    match item {
        syn::Item::Struct(s) => Some(s.ident.to_string()),
        syn::Item::Type(t) => Some(t.ident.to_string()),
        syn::Item::Impl(i) => match &*i.self_ty {
            syn::Type::Path(p) => Some(p.path.segments.last()?.ident.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// The token text of `items`.
fn token_text(items: &[syn::Item]) -> Vec<String> {
    items
        .iter()
        .map(|item| item.to_token_stream().to_string())
        .collect()
}

/// `family_steppers!` emits every method of every family under its catalogue name, and
/// nothing else: the stepper `stepper!` emits for that name, token for token, or, for a method
/// whose description names an earlier method with the same equations, a type alias of that
/// method through the parent module, which is no alias itself and has the same unknowns,
/// stage equations and update. (Until the steppers stopped being committed, a test compared
/// every expansion with the committed `generated/src/steppers/` token for token.)
#[test]
fn each_family_emits_its_steppers_and_aliases_of_equal_methods() {
    let all: BTreeMap<String, Method<Coefficient>> = DESCRIPTIONS
        .iter()
        .flat_map(|(family, _)| methods(family))
        .map(|m| (m.name.clone(), m))
        .collect();
    let mut aliases = 0;
    for (family, _) in DESCRIPTIONS {
        let family_ident = format_ident!("{family}");
        let expansion = crate::family::expand(quote!(::sparkgen_core, #family_ident));
        let mut by_name: BTreeMap<String, Vec<syn::Item>> = BTreeMap::new();
        let expansion = syn::parse2::<syn::File>(expansion).expect("items");
        for item in expansion.items {
            let name = declared(&item).unwrap_or_else(|| {
                panic!(
                    "{family}: an item of no stepper: {}",
                    item.to_token_stream()
                )
            });
            by_name.entry(name).or_default().push(item);
        }
        let members = methods(family);
        assert_eq!(
            by_name.len(),
            members.len(),
            "{family}: one stepper per method"
        );
        for method in members {
            let emitted = &by_name[&method.name];
            match &method.same_equations_as {
                Some(target) => {
                    let [syn::Item::Type(alias)] = emitted.as_slice() else {
                        panic!("{}: not a type alias", method.name)
                    };
                    let path = alias.ty.to_token_stream().to_string();
                    assert!(path.starts_with(&format!("super :: {target}")), "{path}");
                    let original = &all[target];
                    assert_eq!(original.same_equations_as, None, "{target} is an alias");
                    let dd = |m: &Method<Coefficient>| m.map(Coefficient::value);
                    assert!(dd(original).same_equations(&dd(&method)), "{}", method.name);
                    aliases += 1;
                }
                None => {
                    let name = format_ident!("{}", method.name);
                    let stages = proc_macro2::Literal::usize_unsuffixed(method.s);
                    let declared = syn::parse2::<syn::File>(expand_with_core(
                        quote!(pub #name = #family_ident(#stages)),
                        &quote!(::sparkgen_core),
                    ))
                    .expect("items")
                    .items;
                    assert_eq!(
                        token_text(emitted),
                        token_text(&declared),
                        "{}",
                        method.name
                    );
                }
            }
        }
    }
    assert!(
        aliases > 0,
        "the catalogue has methods with coinciding equations"
    );
}

#[test]
fn an_unknown_family_suggests_the_closest_and_the_listing() {
    let message = error(quote!(pub G = VprkGaus(2)));
    assert_eq!(
        message,
        "no method family `VprkGaus`; did you mean `VprkGauss`? (`sparkgen methods` lists every family)"
    );
    // Case aside, the distance is that of the letters; the closest come first.
    let message = error(quote!(G = vprklobattoiiiaiiib(2)));
    assert!(
        message.contains("did you mean `VprkLobattoIIIAIIIB`, "),
        "{message}"
    );
    // Nothing is suggested when nothing is close.
    let message = error(quote!(G = Verlet(2)));
    assert_eq!(
        message,
        "no method family `Verlet` (`sparkgen methods` lists every family)"
    );
}

#[test]
fn an_unknown_family_of_any_length_is_an_error() {
    let long = format_ident!("{}", "Vprk".repeat(10_000));
    let message = error(quote!(G = #long(2)));
    assert!(message.starts_with("no method family"), "{message}");
}

#[test]
fn a_stage_count_out_of_range_lists_the_familys() {
    let message = error(quote!(G = VprkGauss(7)));
    assert_eq!(
        message,
        "`VprkGauss` has no method with s = 7; its stage counts are s = 1, 2, 3, 4"
    );
    let message = error(quote!(G = VprkLobattoIIIAIIIB(1)));
    assert!(message.ends_with("s = 2, 3, 4"), "{message}");
}

#[test]
fn an_asserted_kind_must_be_the_methods() {
    let message = error(quote!(G = VprkGauss(2): Holonomic));
    assert_eq!(
        message,
        "`VprkGauss(2)` (VprkGauss2) is a DegenerateLagrangian method, not Holonomic"
    );
    let message = error(quote!(G = VprkGauss(2): Rigid));
    assert!(message.starts_with("no problem kind `Rigid`"), "{message}");
    let accepted = items(quote!(G = RattleLobattoIIIAIIIB(2): Holonomic));
    assert!(errors(&accepted).is_empty());
}

#[test]
fn malformed_declarations_are_errors() {
    for input in [
        "",
        "pub",
        "G",
        "G VprkGauss(2)",
        "G =",
        "G = VprkGauss",
        "G = VprkGauss()",
        "G = VprkGauss(two)",
        "G = VprkGauss(-1)",
        "G = VprkGauss(2.0)",
        "G = VprkGauss(2, 3)",
        "G = VprkGauss(99999999999999999999999)",
        "G = VprkGauss(2) H = VprkGauss(3)",
        "G = VprkGauss(2):",
        "G = VprkGauss(2): 3",
        "G = VprkGauss[2]",
        "fn = VprkGauss(2)",
        "G = crate::VprkGauss(2)",
        "#[doc] ;",
    ] {
        let tokens: TokenStream = input.parse().expect("the input lexes");
        let items = items(tokens);
        assert_eq!(errors(&items).len(), 1, "{input}: {items:?}");
    }
}

#[test]
fn declarations_are_separated_by_semicolons_and_fail_one_by_one() {
    let items = items(quote! {
        pub A = VprkGauss(1);
        B = VprkGauss(9);
        pub(crate) C = SlrkLobattoIIIAB(2);
    });
    let structs: Vec<String> = items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(structs, ["A", "C"]);
    assert_eq!(errors(&items).len(), 1);
}

#[test]
fn the_users_attributes_and_visibility_go_on_the_struct_and_name_stays_the_methods() {
    let items = items(quote! {
        /// The user's words.
        #[allow(dead_code)]
        pub(crate) G = VprkGauss(2);
    });
    let syn::Item::Struct(s) = &items[0] else {
        panic!("a struct first: {items:?}");
    };
    assert_eq!(s.vis.to_token_stream().to_string(), "pub (crate)");
    let attrs: Vec<String> = s
        .attrs
        .iter()
        .map(|a| a.to_token_stream().to_string())
        .collect();
    assert_eq!(attrs[0], "# [doc = r\" The user's words.\"]");
    assert_eq!(attrs[1], "# [allow (dead_code)]");
    // The method's documentation starts a paragraph of its own.
    assert_eq!(attrs[2], "# [doc = \"\"]");
    let name = quote!(
        const NAME: &'static str = "VprkGauss2";
    )
    .to_string();
    assert!(
        items[2].to_token_stream().to_string().contains(&name),
        "{name}"
    );
}

#[test]
fn edit_distance_counts_insertions_deletions_and_substitutions() {
    let chars = |s: &str| s.chars().collect::<Vec<_>>();
    assert_eq!(edit_distance(&chars("kitten"), &chars("sitting")), 3);
    assert_eq!(edit_distance(&chars(""), &chars("abc")), 3);
    assert_eq!(edit_distance(&chars("abc"), &chars("abc")), 0);
    assert_eq!(edit_distance(&chars("ab"), &chars("ba")), 2);
}

#[test]
fn the_embedded_descriptions_are_every_committed_file_sorted() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/descriptions");
    // Every file but the table of roundings is a family's description.
    let files = std::fs::read_dir(dir).expect("the descriptions").count();
    assert_eq!(DESCRIPTIONS.len() + 1, files);
    assert!(DESCRIPTIONS.windows(2).all(|w| w[0].0 < w[1].0));
}
