//! Emission of `exact.rs`: every catalogue tableau's coefficients as exact text (`p/q` for
//! rationals, 40 significant digits otherwise), for `sparkgen tableau --exact`.

use super::literal::exact_text;
use crate::catalogue::Catalogue;
use crate::exact::Num;
use proc_macro2::TokenStream;
use quote::quote;

fn texts(v: &[Num]) -> TokenStream {
    let items = v.iter().map(exact_text);
    quote!(&[#(#items),*])
}

/// The source of `exact.rs`: the type `ExactTableau` and `EXACT_TABLEAUS`, in the order of
/// `catalogue::TABLEAUS`.
pub fn exact_module(catalogue: &Catalogue) -> TokenStream {
    let rows = catalogue.tableaus.iter().map(|e| {
        let t = &e.tableau;
        let name = t.name();
        let a_flat: Vec<Num> = t.a.iter().flatten().cloned().collect();
        let (a, b, c) = (texts(&a_flat), texts(&t.b), texts(&t.c));
        quote!(ExactTableau { name: #name, a: #a, b: #b, c: #c })
    });
    quote! {
        //! Exact tableau coefficients as text: `p/q` where the value is rational, 40 significant
        //! digits otherwise (computed in the generator's working precision).

        /// A tableau's exact coefficients (`a` row-major, s×s).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct ExactTableau {
            /// Name with stage count, e.g. `Gauss(2)`.
            pub name: &'static str,
            /// `a_ij` at index `i·s + j`.
            pub a: &'static [&'static str],
            /// `b_i`.
            pub b: &'static [&'static str],
            /// `c_i`.
            pub c: &'static [&'static str],
        }

        /// Every shipped tableau, in the order of `catalogue::TABLEAUS`.
        pub const EXACT_TABLEAUS: &[ExactTableau] = &[#(#rows),*];
    }
}
