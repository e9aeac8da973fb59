//! One trait method of an expansion: its signature and its body, either a kernel emitted from
//! graph outputs or, after a user error, `unreachable!()` (the fallback that keeps downstream code
//! type-checking so the user sees only the real error).

use crate::{
    Cse, Graph, Input as Symbol, Kernel, KernelBuilder, Matrix, NodeId, OutputSlot, SlotIndex,
    bindings,
};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The value a method returns, as graph nodes.
pub(crate) enum Output {
    /// An `f64`.
    Scalar(NodeId),
    /// An `Option<f64>` that is always `Some` (overriding a provided method that returns `None`).
    SomeScalar(NodeId),
    /// An `SVector<f64, n>`.
    Vector(Vec<NodeId>),
    /// An `SMatrix<f64, r, c>`.
    Matrix(Matrix),
}

/// A method `fn name(&self, arg: &SVector<f64, len>, …) -> output`.
pub(crate) struct Method {
    name: &'static str,
    /// State-vector arguments: the name (also the vector name of the graph inputs) and length.
    args: Vec<(&'static str, usize)>,
    output: Output,
}

/// `::core::primitive::f64`.
fn f64_type() -> TokenStream {
    quote!(::core::primitive::f64)
}

fn vector_type(len: usize) -> TokenStream {
    let f64 = f64_type();
    let len = Literal::usize_unsuffixed(len);
    quote!(::sparkgen::__private::SVector<#f64, #len>)
}

fn matrix_type(rows: usize, cols: usize) -> TokenStream {
    let f64 = f64_type();
    let (rows, cols) = (
        Literal::usize_unsuffixed(rows),
        Literal::usize_unsuffixed(cols),
    );
    quote!(::sparkgen::__private::SMatrix<#f64, #rows, #cols>)
}

impl Method {
    /// A method with the given state-vector arguments returning `output`.
    pub(crate) fn new(name: &'static str, args: &[(&'static str, usize)], output: Output) -> Self {
        Method {
            name,
            args: args.to_vec(),
            output,
        }
    }

    fn return_type(&self) -> TokenStream {
        match &self.output {
            Output::Scalar(_) => f64_type(),
            Output::SomeScalar(_) => {
                let f64 = f64_type();
                quote!(::core::option::Option<#f64>)
            }
            Output::Vector(v) => vector_type(v.len()),
            Output::Matrix(m) => matrix_type(m.rows(), m.cols()),
        }
    }

    /// The signature; arguments not in `used` are prefixed with `_`.
    /// (Every identifier the expansion binds starts with `__` — see [`local`] — so that no
    /// constant or unit struct of the user's named `q`, `out` or `t0` can turn a binding into a
    /// pattern.)
    fn signature(&self, used: &BTreeSet<String>) -> TokenStream {
        let name = format_ident!("{}", self.name);
        let args = self.args.iter().map(|(arg, len)| {
            let ident = if used.contains(*arg) {
                local(arg)
            } else {
                format_ident!("_{}", local(arg))
            };
            let ty = vector_type(*len);
            quote!(#ident: &#ty)
        });
        let ret = self.return_type();
        quote!(fn #name(&self, #(#args),*) -> #ret)
    }

    /// The method with `unreachable!()` as its body.
    pub(crate) fn emit_unreachable(&self) -> TokenStream {
        let signature = self.signature(&BTreeSet::new());
        quote! {
            #signature {
                ::core::unreachable!()
            }
        }
    }

    /// The method's name.
    pub(crate) fn name(&self) -> &'static str {
        self.name
    }

    /// The state-vector arguments: name and length.
    pub(crate) fn args(&self) -> &[(&'static str, usize)] {
        &self.args
    }

    /// The shape of the output: (rows, columns), (1, 1) for a scalar and (n, 1) for a vector.
    pub(crate) fn shape(&self) -> (usize, usize) {
        match &self.output {
            Output::Scalar(_) | Output::SomeScalar(_) => (1, 1),
            Output::Vector(v) => (v.len(), 1),
            Output::Matrix(m) => (m.rows(), m.cols()),
        }
    }

    /// The CSE'd kernel computing the output into the slot `out`.
    pub(crate) fn kernel(&self, graph: &Graph) -> Kernel {
        let mut builder = KernelBuilder::new();
        match &self.output {
            Output::Scalar(node) | Output::SomeScalar(node) => builder.scalar("out", *node),
            Output::Vector(nodes) => builder.vector("out", nodes),
            Output::Matrix(matrix) => builder.matrix("out", matrix),
        };
        builder.build(graph, Cse::On)
    }

    /// The method computing its output with a CSE'd kernel: inputs are read as `q[i]` and
    /// `self.field`, vector and matrix outputs written into a zero-initialised `__out`, a scalar
    /// returned as the tail expression (wrapped in `Some` for [`Output::SomeScalar`]).
    pub(crate) fn emit(&self, graph: &Graph) -> TokenStream {
        let kernel = self.kernel(graph);
        let used = RefCell::new(BTreeSet::new());
        let read = |symbol: &Symbol| match symbol {
            Symbol::Component { vector, index } => {
                used.borrow_mut().insert(vector.clone());
                let vector = local(vector);
                let index = Literal::usize_unsuffixed(*index);
                quote!(#vector[#index])
            }
            Symbol::Param(field) => {
                let field = format_ident!("{}", field);
                quote!(self.#field)
            }
        };
        let write = |slot: &OutputSlot, value: TokenStream| match slot.index {
            // The only store of a scalar kernel comes last: it is the body's tail expression.
            SlotIndex::Scalar => value,
            SlotIndex::Vector(i) => {
                let i = Literal::usize_unsuffixed(i);
                quote!(__out[#i] = #value;)
            }
            SlotIndex::Matrix(i, j) => {
                let (i, j) = (Literal::usize_unsuffixed(i), Literal::usize_unsuffixed(j));
                quote!(__out[(#i, #j)] = #value;)
            }
        };
        let statements = kernel.emit(&bindings(read, write).with_temp_prefix("__t"));
        let stored = !kernel.stores().is_empty();
        let body = match (&self.output, stored) {
            (Output::Scalar(_), true) => statements,
            (Output::Scalar(_), false) => quote!(0.0),
            (Output::SomeScalar(_), true) => quote!(::core::option::Option::Some({ #statements })),
            (Output::SomeScalar(_), false) => quote!(::core::option::Option::Some(0.0)),
            (_, false) => {
                let ty = self.return_type();
                quote!(<#ty>::zeros())
            }
            (_, true) => {
                let ty = self.return_type();
                quote! {
                    let mut __out = <#ty>::zeros();
                    #statements
                    __out
                }
            }
        };
        let signature = self.signature(&used.into_inner());
        quote! {
            #[inline]
            #signature {
                #body
            }
        }
    }
}

/// The identifier the expansion binds for `name`: `__name`.
fn local(name: &str) -> proc_macro2::Ident {
    format_ident!("__{}", name)
}
