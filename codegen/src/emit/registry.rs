//! Emission of `registry.rs`: the generated steppers as data, a `macro_rules!` listing
//! `(Type, "Family", s, order, pair)` that a runtime expands into its dispatch by name.

use super::literal::int;
use crate::catalogue::Catalogue;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The catalogue pair a method is built on: the one whose `(q-tableau, p-tableau)` names its
/// description states.
fn pair_name(catalogue: &Catalogue, method: &crate::method::ir::Method) -> Option<String> {
    catalogue
        .pairs
        .iter()
        .find(|e| {
            e.pair.q.s == method.s
                && method
                    .doc
                    .contains(&format!("({}, {})", e.pair.q.name(), e.pair.p.name()))
        })
        .map(|e| e.pair.name())
}

/// The source of `registry.rs`: `for_each_stepper!(callback)` expands to
/// `callback! { (Type, "Family", s, order, Some("Pair(s)") | None), … }` over every stepper.
pub fn registry_module(catalogue: &Catalogue) -> TokenStream {
    let rows = catalogue.methods.iter().map(|m| {
        let ty = format_ident!("{}", m.name);
        let family = &m.family;
        let (s, order) = (int(m.s), int(m.order));
        let pair = match pair_name(catalogue, m) {
            Some(p) => quote!(Some(#p)),
            None => quote!(None),
        };
        quote!((#ty, #family, #s, #order, #pair))
    });
    quote! {
        //! The generated steppers as data: `for_each_stepper!(callback)` invokes
        //! `callback! { (Type, "Family", s, order, pair), … }` with the type name in
        //! `steppers`, its family, stages, classical order and the catalogue pair
        //! (`Some("LobattoIIIAIIIB(3)")`, a name in `catalogue::PAIRS`) it is built on.

        /// Expands `$callback! { (Type, "Family", s, order, pair), … }` over every stepper.
        #[macro_export]
        macro_rules! for_each_stepper {
            ($callback:ident) => {
                $callback! { #(#rows),* }
            };
        }
    }
}
