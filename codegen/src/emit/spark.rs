//! Emission of the SPARK coefficients: ω matrices, null vectors, Lobatto–Gauss coefficients.

use super::literal::int;
use super::naming::constant;
use super::tableaus::{doc_attrs, matrix_doc, matrix_tokens, vector_doc, vector_tokens};
use crate::catalogue::Catalogue;
use crate::exact::{Matrix, Num};
use crate::spark::LobattoGauss;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `pub const NAME_S: Coefficients<R, C> = …;` for an ω matrix.
pub fn omega_const(
    name: &str,
    s: usize,
    omega: &Matrix,
    summary: &str,
    types: &TokenStream,
) -> TokenStream {
    let ident = format_ident!("{}", constant(name, &[s]));
    let (rows, cols) = (int(omega.len()), int(omega.first().map_or(0, Vec::len)));
    let full = format!("{name}({s})");
    let docs = doc_attrs(&format!("{full}: {summary}"), &matrix_doc("ω", omega));
    let (value, lo) = (matrix_tokens(omega, false), matrix_tokens(omega, true));
    quote! {
        #docs
        pub const #ident: #types::Coefficients<#rows, #cols> =
            #types::Coefficients { name: #full, value: #value, lo: #lo };
    }
}

/// `pub const LOBATTO_NULL_VECTOR_S: Vector<S> = …;`.
pub fn null_vector_const(s: usize, d: &[Num], types: &TokenStream) -> TokenStream {
    let name = "LobattoNullVector";
    let ident = format_ident!("{}", constant(name, &[s]));
    let full = format!("{name}({s})");
    let summary = format!(
        "{full}: d with Σ_i d_i c_i^k = 0 (k = 0..{}) at the Lobatto nodes, ‖d‖₂ = 1, d₁ > 0.",
        s - 2
    );
    let docs = doc_attrs(&summary, &vector_doc("d", d));
    let (value, lo) = (vector_tokens(d, false), vector_tokens(d, true));
    let n = int(s);
    quote! {
        #docs
        pub const #ident: #types::Vector<#n> = #types::Vector { name: #full, value: #value, lo: #lo };
    }
}

/// `pub const LOBATTO_GAUSS_S_SIGMA: LobattoGauss<S, Σ> = …;`.
pub fn lobatto_gauss_const(lg: &LobattoGauss, types: &TokenStream) -> TokenStream {
    let (s, sigma) = (lg.s, lg.sigma);
    let name = "LobattoGauss";
    let ident = format_ident!("{}", constant(name, &[s, sigma]));
    let full = format!("{name}({s}, {sigma})");
    let summary = format!(
        "{full}: Σ_j ā_ij c_j^(k−1) = c̄_i^k/k (k = 1..{s}), c = Gauss({s}) nodes, c̄ = Lobatto({sigma}) nodes."
    );
    let mut exact = vector_doc("c̄", &lg.c);
    exact.extend(vector_doc("b̄", &lg.b));
    exact.extend(matrix_doc("ā", &lg.a));
    let docs = doc_attrs(&summary, &exact);
    let (a, a_lo) = (matrix_tokens(&lg.a, false), matrix_tokens(&lg.a, true));
    let (b, b_lo) = (vector_tokens(&lg.b, false), vector_tokens(&lg.b, true));
    let (c, c_lo) = (vector_tokens(&lg.c, false), vector_tokens(&lg.c, true));
    let (s_lit, sigma_lit) = (int(s), int(sigma));
    quote! {
        #docs
        pub const #ident: #types::LobattoGauss<#s_lit, #sigma_lit> = #types::LobattoGauss {
            name: #full, a: #a, a_lo: #a_lo, b: #b, b_lo: #b_lo, c: #c, c_lo: #c_lo,
        };
    }
}

/// `ALL: &[CoefficientData]`: every SPARK coefficient array with its shape erased.
pub fn data_list(catalogue: &Catalogue, types: &TokenStream) -> TokenStream {
    let entry = |name: String,
                 konst: String,
                 rows: usize,
                 cols: usize,
                 field: &str,
                 lo_field: &str,
                 matrix: bool| {
        let ident = format_ident!("{konst}");
        let (field, lo_field) = (format_ident!("{field}"), format_ident!("{lo_field}"));
        let (rows, cols) = (int(rows), int(cols));
        let (value, lo) = if matrix {
            (
                quote!(#ident.#field.as_flattened()),
                quote!(#ident.#lo_field.as_flattened()),
            )
        } else {
            (quote!(&#ident.#field), quote!(&#ident.#lo_field))
        };
        quote!(#types::CoefficientData { name: #name, rows: #rows, cols: #cols, value: #value, lo: #lo })
    };
    let mut items = Vec::new();
    for (family, list) in [
        ("LobattoOmega", &catalogue.lobatto_omega),
        ("GaussOmega", &catalogue.gauss_omega),
    ] {
        for (s, w) in list {
            let cols = w.first().map_or(0, Vec::len);
            items.push(entry(
                format!("{family}({s})"),
                constant(family, &[*s]),
                w.len(),
                cols,
                "value",
                "lo",
                true,
            ));
        }
    }
    for (s, d) in &catalogue.null_vectors {
        let name = "LobattoNullVector";
        items.push(entry(
            format!("{name}({s})"),
            constant(name, &[*s]),
            1,
            d.len(),
            "value",
            "lo",
            false,
        ));
    }
    for lg in &catalogue.lobatto_gauss {
        let name = "LobattoGauss";
        let konst = constant(name, &[lg.s, lg.sigma]);
        items.push(entry(
            format!("{name}({}, {})", lg.s, lg.sigma),
            konst,
            lg.sigma,
            lg.s,
            "a",
            "a_lo",
            true,
        ));
    }
    quote! {
        /// Every SPARK coefficient array above, with its shape erased.
        pub const ALL: &[#types::CoefficientData] = &[#(#items),*];
    }
}
