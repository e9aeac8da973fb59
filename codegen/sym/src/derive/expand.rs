//! The derive driver shared by all problem traits: parse the input, build the trait's methods,
//! and emit the impl — with kernels when the user's attribute is valid, with `unreachable!()`
//! bodies next to the `compile_error!`s otherwise.

use super::ast::Input;
use super::attr::Entries;
use super::ctxt::Errors;
use super::method::Method;
use crate::Graph;
use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use syn::Item;

/// The methods of one trait impl, over the graph they were built in.
pub(crate) struct Problem {
    /// Const-generic arguments of the trait: `[D]` or `[D, M]`.
    pub(crate) dims: Vec<usize>,
    /// The graph holding every method's output.
    pub(crate) graph: Graph,
    /// The required methods of the trait, in trait order.
    pub(crate) methods: Vec<Method>,
    /// The methods of `DaeConstraint` (`u`, `g`, `φ` and their Jacobians), implemented
    /// alongside the trait of a DAE; empty for the other traits.
    pub(crate) constraint: Vec<Method>,
}

/// What distinguishes one derive from another.
pub(crate) struct Derive {
    /// The trait in `::sparkgen::problem`, also the derive's name.
    pub(crate) trait_name: &'static str,
    /// The helper attribute, e.g. `lagrangian` for `#[lagrangian(…)]`.
    pub(crate) attribute: &'static str,
    /// The keys the attribute accepts.
    pub(crate) keys: &'static [&'static str],
    /// Builds the methods; `None` when even the dimensions are unknown.
    pub(crate) build: fn(&Entries, &Input, &mut Errors) -> Option<Problem>,
}

/// Expands `derive` on the item `tokens`.
pub(crate) fn expand(tokens: TokenStream, derive: &Derive) -> TokenStream {
    let item: Item = match syn::parse2(tokens) {
        Ok(item) => item,
        Err(error) => return error.into_compile_error(),
    };
    let mut errors = Errors::default();
    let Some(input) = Input::from_syn(&item, derive.trait_name, &mut errors) else {
        return syn::Error::new(Span::call_site(), "expected a struct").into_compile_error();
    };
    let problem = Entries::parse(
        input.attrs,
        derive.attribute,
        derive.keys,
        Span::call_site(),
        &mut errors,
    )
    .and_then(|entries| (derive.build)(&entries, &input, &mut errors));
    let valid = errors.is_empty();
    let implementation =
        problem.map(|problem| implementation(&input, derive.trait_name, &problem, valid));
    let compile_errors = errors.combined().map(syn::Error::into_compile_error);
    quote!(#compile_errors #implementation)
}

/// `impl ::sparkgen::problem::Trait<D, …> for Type { … }`, with the impl of `DaeConstraint`
/// where the problem has its methods.
fn implementation(input: &Input, trait_name: &str, problem: &Problem, valid: bool) -> TokenStream {
    let own = impl_block(input, trait_name, &problem.methods, problem, valid);
    let constraint = (!problem.constraint.is_empty())
        .then(|| impl_block(input, "DaeConstraint", &problem.constraint, problem, valid));
    quote!(#own #constraint)
}

/// One impl block of `methods` for the trait `trait_name`.
fn impl_block(
    input: &Input,
    trait_name: &str,
    methods: &[Method],
    problem: &Problem,
    valid: bool,
) -> TokenStream {
    let trait_ident = format_ident!("{}", trait_name);
    let dims = problem.dims.iter().map(|d| Literal::usize_unsuffixed(*d));
    let methods = methods.iter().map(|m| {
        if valid {
            m.emit(&problem.graph)
        } else {
            m.emit_unreachable()
        }
    });
    let ident = input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::sparkgen::problem::#trait_ident<#(#dims),*> for #ident #type_generics #where_clause {
            #(#methods)*
        }
    }
}
