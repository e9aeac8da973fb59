//! Identifiers of emitted items, derived from the catalogue names.

use crate::tableau::Family;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `LobattoIIICBar` → `lobatto_iiic_bar`: a new word starts at an uppercase letter that
/// follows a lowercase one or precedes a lowercase one.
pub fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            let prev_lower = chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit();
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if prev_lower || (next_lower && chars[i - 1].is_ascii_uppercase()) {
                out.push('_');
            }
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// `LobattoIIICBar`, 3 → `LOBATTO_IIIC_BAR_3`.
pub fn constant(name: &str, stages: &[usize]) -> String {
    let mut out = snake(name).to_ascii_uppercase();
    for s in stages {
        out.push('_');
        out.push_str(&s.to_string());
    }
    out
}

/// The path of a tableau constant from a sibling module of `tableaus`.
pub fn tableau_path(family: Family, s: usize) -> TokenStream {
    let module = format_ident!("{}", snake(family.name()));
    let konst = format_ident!("{}", constant(family.name(), &[s]));
    quote!(super::tableaus::#module::#konst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("LobattoIIICBar"), "lobatto_iiic_bar");
        assert_eq!(snake("LobattoIIIFBarIIIF"), "lobatto_iiif_bar_iiif");
        assert_eq!(snake("RadauIIA"), "radau_iia");
        assert_eq!(snake("Gauss"), "gauss");
        assert_eq!(constant("LobattoIIIAIIIB", &[3]), "LOBATTO_IIIAIIIB_3");
        assert_eq!(constant("LobattoGauss", &[2, 3]), "LOBATTO_GAUSS_2_3");
    }
}
