//! Emission of tableau constants and partitioned pairs.

use super::literal::{exact_text, int, remainder, signed, value};
use super::naming::constant;
use super::naming::tableau_path;
use crate::exact::Num;
use crate::tableau::{PairProperties, PartitionedTableau, Properties, RInfinity, Tableau};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `[v₀, v₁, …]` of correctly rounded values (or remainders with `lo`).
pub fn vector_tokens(v: &[Num], lo: bool) -> TokenStream {
    let items = v.iter().map(|x| if lo { remainder(x) } else { value(x) });
    quote!([#(#items),*])
}

/// `[[…], …]` row by row.
pub fn matrix_tokens(m: &[Vec<Num>], lo: bool) -> TokenStream {
    let rows = m.iter().map(|row| vector_tokens(row, lo));
    quote!([#(#rows),*])
}

/// Doc lines `name[i] = exact` for a vector.
pub fn vector_doc(name: &str, v: &[Num]) -> Vec<String> {
    v.iter()
        .enumerate()
        .map(|(i, x)| format!("{name}[{i}] = {}", exact_text(x)))
        .collect()
}

/// Doc lines `name[i][j] = exact` for a matrix.
pub fn matrix_doc(name: &str, m: &[Vec<Num>]) -> Vec<String> {
    m.iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(move |(j, x)| format!("{name}[{i}][{j}] = {}", exact_text(x)))
        })
        .collect()
}

/// `#[doc]` attributes: a summary, then the exact values in a text block.
pub fn doc_attrs(summary: &str, exact: &[String]) -> TokenStream {
    let mut lines = vec![
        format!(" {summary}"),
        String::new(),
        " Exact values:".to_owned(),
    ];
    lines.push(" ```text".to_owned());
    lines.extend(exact.iter().map(|l| format!(" {l}")));
    lines.push(" ```".to_owned());
    quote!(#(#[doc = #lines])*)
}

/// The `Properties { … }` expression.
pub fn properties_tokens(p: &Properties, types: &TokenStream) -> TokenStream {
    let Properties {
        order,
        b,
        c,
        d,
        symplectic,
        symmetric,
        r_infinity,
    } = *p;
    let (order, b, c, d) = (int(order), int(b), int(c), int(d));
    let r = match r_infinity {
        RInfinity::Finite(v) => {
            let v = signed(v);
            quote!(#types::RInfinity::Finite(#v))
        }
        RInfinity::Infinite => quote!(#types::RInfinity::Infinite),
    };
    quote! {
        #types::Properties {
            order: #order, b: #b, c: #c, d: #d,
            symplectic: #symplectic, symmetric: #symmetric, r_infinity: #r,
        }
    }
}

/// Emits `pub const FAMILY_S: Tableau<S> = …;`: the correctly rounded values and remainders,
/// with the exact values in its doc comment, or, where they are kept once for a whole catalogue,
/// a pointer to that table (`exact_table`, the path of the table).
pub fn tableau_const(
    t: &Tableau,
    props: &Properties,
    types: &TokenStream,
    exact_table: Option<&str>,
) -> TokenStream {
    let ident = format_ident!("{}", constant(t.family.name(), &[t.s]));
    let s = int(t.s);
    let name = t.name();
    let family = t.family.name();
    let (a, a_lo) = (matrix_tokens(&t.a, false), matrix_tokens(&t.a, true));
    let (b, b_lo) = (vector_tokens(&t.b, false), vector_tokens(&t.b, true));
    let (c, c_lo) = (vector_tokens(&t.c, false), vector_tokens(&t.c, true));
    let rational = t.is_rational();
    let kind = if rational {
        "exact rational"
    } else {
        "irrational"
    };
    let docs = match exact_table {
        Some(table) => {
            let summary = format!(
                " {name}: order {}, {kind}; exact values in `{table}`.",
                props.order
            );
            quote!(#[doc = #summary])
        }
        None => {
            let mut exact = vector_doc("c", &t.c);
            exact.extend(vector_doc("b", &t.b));
            exact.extend(matrix_doc("a", &t.a));
            doc_attrs(&format!("{name}: order {}, {kind}.", props.order), &exact)
        }
    };
    let props = properties_tokens(props, types);
    quote! {
        #docs
        pub const #ident: #types::Tableau<#s> = #types::Tableau {
            name: #name,
            family: #family,
            a: #a,
            a_lo: #a_lo,
            b: #b,
            b_lo: #b_lo,
            c: #c,
            c_lo: #c_lo,
            exact_rational: #rational,
            properties: #props,
        };
    }
}

/// Emits `pub const PAIR_S: PartitionedTableau<S> = …;` referring to the tableau constants
/// in the sibling modules named after the families.
pub fn pair_const(
    pair: &PartitionedTableau,
    props: &PairProperties,
    types: &TokenStream,
) -> TokenStream {
    let PairProperties {
        order,
        symplectic,
        symmetric,
    } = *props;
    let s = pair.q.s;
    let ident = format_ident!("{}", constant(pair.kind.name(), &[s]));
    let order = int(order);
    let (q, p) = (
        tableau_path(pair.q.family, s),
        tableau_path(pair.p.family, s),
    );
    let stages = int(s);
    let name = pair.name();
    let doc = format!(
        " {name}: q-tableau {}, p-tableau {}, order {order}.",
        pair.q.name(),
        pair.p.name()
    );
    quote! {
        #[doc = #doc]
        pub const #ident: #types::PartitionedTableau<#stages> = #types::PartitionedTableau {
            name: #name,
            q: &#q,
            p: &#p,
            order: #order,
            symplectic: #symplectic,
            symmetric: #symmetric,
        };
    }
}
