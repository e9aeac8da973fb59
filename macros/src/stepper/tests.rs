use crate::stepper::{DESCRIPTIONS, edit_distance, expand, expand_with_core};
use proc_macro2::{Group, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};
use sparkgen_description::{Coefficient, Method, text};
use std::collections::BTreeMap;
use std::path::Path;

/// The methods of `family`, read from its embedded description.
fn methods(family: &str) -> Vec<Method<Coefficient>> {
    let (_, description) = DESCRIPTIONS
        .iter()
        .find(|(name, _)| *name == family)
        .unwrap_or_else(|| panic!("no description of {family}"));
    text::read(description).unwrap_or_else(|e| panic!("{family}: {e}"))
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

/// The committed items of `generated/src/steppers/*.rs`, grouped by the name they declare.
fn committed() -> BTreeMap<String, Vec<syn::Item>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/src/steppers");
    let mut by_name: BTreeMap<String, Vec<syn::Item>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("the steppers directory") {
        let path = entry.expect("a directory entry").path();
        let source = std::fs::read_to_string(&path).expect("a stepper module");
        let file = syn::parse_file(&source).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for item in file.items {
            let name = declared(&item).unwrap_or_else(|| panic!("{path:?}: an item of no stepper"));
            by_name.entry(name).or_default().push(item);
        }
    }
    by_name
}

/// `tokens` with the identifier `from` and the string literal `"from"` renamed to `to`.
fn rename(tokens: TokenStream, from: &str, to: &str) -> TokenStream {
    let quoted = format!("{from:?}");
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Ident(i) if i == from => TokenTree::Ident(format_ident!("{to}")),
            TokenTree::Literal(l) if l.to_string() == quoted => {
                TokenTree::Literal(proc_macro2::Literal::string(to))
            }
            TokenTree::Group(g) => {
                TokenTree::Group(Group::new(g.delimiter(), rename(g.stream(), from, to)))
            }
            other => other,
        })
        .collect()
}

/// The token text of `items`, without the struct's doc comments when `docs` is false.
fn token_text(items: &[syn::Item], docs: bool) -> Vec<String> {
    items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            if let (syn::Item::Struct(s), false) = (&mut item, docs) {
                s.attrs.retain(|a| !a.path().is_ident("doc"));
            }
            item.to_token_stream().to_string()
        })
        .collect()
}

/// Every method of every description, expanded under its catalogue name with core path
/// `::sparkgen_core` and formatted by prettyplease (as the generator formats
/// `generated/src/steppers/`), is the committed stepper token for token. A committed alias
/// (`pub type Name = super::module::Target`) is compared with its target's items renamed,
/// doc comments aside (the two methods' descriptions differ).
#[test]
fn expansions_equal_the_committed_steppers_token_for_token() {
    let committed = committed();
    let mut compared = Vec::new();
    for (family, _) in DESCRIPTIONS {
        let family_ident = format_ident!("{family}");
        for method in methods(family) {
            let name = format_ident!("{}", method.name);
            let stages = proc_macro2::Literal::usize_unsuffixed(method.s);
            let expansion = expand_with_core(
                quote!(pub #name = #family_ident(#stages)),
                &quote!(::sparkgen_core),
            );
            // Formatted as the generator writes the committed files, then read back.
            let expansion =
                syn::parse2::<syn::File>(expansion).expect("the expansion is a sequence of items");
            let expansion = syn::parse_file(&prettyplease::unparse(&expansion))
                .expect("the formatted expansion parses")
                .items;
            let items = committed
                .get(&method.name)
                .unwrap_or_else(|| panic!("{} is not committed", method.name));
            let (expected, docs) = match items.as_slice() {
                [syn::Item::Type(alias)] => {
                    let target = match &*alias.ty {
                        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                        _ => None,
                    }
                    .unwrap_or_else(|| panic!("{}: an alias of no path", method.name));
                    let renamed = committed[&target]
                        .iter()
                        .map(|item| {
                            let tokens = rename(item.to_token_stream(), &target, &method.name);
                            syn::parse2(tokens).expect("a renamed item parses")
                        })
                        .collect();
                    (renamed, false)
                }
                _ => (items.clone(), true),
            };
            assert_eq!(
                token_text(&expansion, docs),
                token_text(&expected, docs),
                "{}",
                method.name
            );
            compared.push(method.name);
        }
    }
    compared.sort();
    let all: Vec<&String> = committed.keys().collect();
    assert_eq!(
        compared.iter().collect::<Vec<_>>(),
        all,
        "every committed stepper"
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
    let files = std::fs::read_dir(dir).expect("the descriptions").count();
    assert_eq!(DESCRIPTIONS.len(), files);
    assert!(DESCRIPTIONS.windows(2).all(|w| w[0].0 < w[1].0));
}
