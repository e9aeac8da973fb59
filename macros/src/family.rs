//! `family_steppers!(core, Family)`: every stepper of a catalogue family under its catalogue
//! name, the way `sparkgen::generated::steppers` holds them. The generated crate invokes it once
//! per family, so the catalogue's steppers are emitted from their descriptions where the crate is
//! built and none is committed. A method whose equations are those of an earlier one
//! (`same_equations_as`) is a type alias of it, reached through the parent module, which
//! re-exports every family.

use crate::stepper::{DESCRIPTIONS, read_description};
use proc_macro2::TokenStream;
use quote::quote;
use sparkgen_description::{Coefficient, emit};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, Path, Token};

/// `core_path, Family`.
struct Input {
    core: Path,
    family: Ident,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let core = input.parse()?;
        input.parse::<Token![,]>()?;
        let family = input.parse()?;
        Ok(Input { core, family })
    }
}

/// The expansion of `family_steppers!(input)`.
pub fn expand(input: TokenStream) -> TokenStream {
    let Input { core, family } = match syn::parse2::<Input>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let name = family.to_string();
    let error = |message: String| syn::Error::new(family.span(), message).to_compile_error();
    let Some((_, description)) = DESCRIPTIONS.iter().find(|(f, _)| *f == name) else {
        return error(format!(
            "no method family `{name}` in generated/descriptions"
        ));
    };
    let methods = match read_description(description) {
        Ok(methods) => methods,
        Err(e) => return error(format!("the description of `{name}` does not read: {e}")),
    };
    let core = quote!(#core);
    let mut out = TokenStream::new();
    for method in &methods {
        match &method.same_equations_as {
            Some(target) => out.extend(emit::alias(method, target, &quote!(super))),
            None => match emit::stepper(&method.map(Coefficient::value), &core) {
                Ok(tokens) => out.extend(tokens),
                Err(e) => out.extend(error(e.to_string())),
            },
        }
    }
    out
}
