//! Emission of `measured.rs`: the text of every measured cause and limitation, once, as a named
//! constant that the steppers' facts name (`types::MethodFacts`, built by
//! `sparkgen_macros::stepper_registry!` from the names the descriptions carry).

use crate::measured::REASONS;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The source of `measured.rs`: every reason and limitation text as a named constant.
pub fn measured_module() -> TokenStream {
    let consts = REASONS.iter().map(|r| {
        let name = format_ident!("{}", r.name);
        let text = r.text;
        quote! {
            #[doc = " A cause or limitation, measured, of the steppers whose `types::MethodFacts` name it."]
            pub const #name: &str = #text;
        }
    });
    quote! {
        //! The causes of the pinned behaviours and the measured limitations of the generated
        //! steppers (`types::MethodFacts`), as data kept beside the generator's builders.
        #(#consts)*
    }
}
