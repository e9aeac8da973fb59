//! Emission of `generated/`: tableau constants, partitioned pairs, SPARK coefficients and the
//! catalogue, as prettyplease-formatted Rust with an `@generated` header.
//!
//! Every `f64` is the correctly rounded value of the exact one, printed in shortest
//! round-trip form, next to the rounding remainder for compensated summation; doc comments
//! carry the exact values (rationals, or 40 significant digits).

mod exact_values;
pub(crate) mod files;
pub(crate) mod literal;
mod measured;
pub(crate) mod naming;
mod roundings;
mod spark;
pub(crate) mod tableaus;
mod types;

pub use files::{
    DESCRIPTION_HEADER, Drift, EmitError, GeneratedFile, HEADER, check, render, write,
};
pub use literal::{f64_text, int};
pub use naming::{constant, snake};
pub use tableaus::properties_tokens;

use crate::catalogue::Catalogue;
use crate::exact::Precision;
use crate::method::describe::describe;
use crate::tableau::{Family, build};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use sparkgen_description::structure::Method as Described;
use sparkgen_description::text;
use std::path::{Path, PathBuf};

/// Where the catalogue's tableau constants keep their exact values (once, as text).
const EXACT_TABLE: &str = "exact::EXACT_TABLEAUS";

/// The path of the emitted types inside the generated crate.
fn crate_types() -> TokenStream {
    quote!(crate::types)
}

/// Every file of `generated/` for the catalogue.
pub fn generate(catalogue: &Catalogue) -> Result<Vec<GeneratedFile>, EmitError> {
    let types = crate_types();
    let mut files = vec![render(Path::new("src/types.rs"), types::types_module())?];
    let mut family_mods = Vec::new();
    for family in Family::ALL {
        let module = snake(family.name());
        let entries = catalogue
            .tableaus
            .iter()
            .filter(|e| e.tableau.family == family);
        let consts: Vec<TokenStream> = entries
            .map(|e| tableaus::tableau_const(&e.tableau, &e.computed, &types, Some(EXACT_TABLE)))
            .collect();
        let doc = format!(
            " {} tableaus, s = {}..={}.",
            family.name(),
            family.min_stages(),
            catalogue.max_stages
        );
        let path = format!("src/tableaus/{module}.rs");
        files.push(render(
            Path::new(&path),
            quote!(#![doc = #doc] #(#consts)*),
        )?);
        family_mods.push(format_ident!("{module}"));
    }
    files.push(render(
        Path::new("src/tableaus.rs"),
        quote! {
            //! One module per tableau family.
            #(pub mod #family_mods;)*
        },
    )?);
    let pairs = catalogue
        .pairs
        .iter()
        .map(|e| tableaus::pair_const(&e.pair, &e.computed, &types));
    files.push(render(
        Path::new("src/pairs.rs"),
        quote! {
            //! Partitioned pairs `(a, ā)`; every one is a symplectic conjugate pair.
            #(#pairs)*
        },
    )?);
    files.push(render(
        Path::new("src/spark.rs"),
        spark_module(catalogue, &types),
    )?);
    files.push(render(
        Path::new("src/catalogue.rs"),
        catalogue.tokens(&types),
    )?);
    files.push(render(
        Path::new("src/exact.rs"),
        exact_values::exact_module(catalogue),
    )?);
    // Each description carries its method's facts with what was measured of it and its
    // recommendation, and its coefficients' exact texts; their roundings go to one table.
    let facts = crate::recommend::described_facts(catalogue);
    files.push(render(
        Path::new("src/measured.rs"),
        measured::measured_module(catalogue, &facts)?,
    )?);
    let mut roundings = text::Roundings::default();
    let mut families: Vec<&str> = Vec::new();
    for m in &catalogue.methods {
        if !families.contains(&m.family.as_str()) {
            families.push(&m.family);
        }
    }
    let mut modules = Vec::new();
    let mut family_steppers = Vec::new();
    for family in &families {
        let module = format_ident!("{}", snake(family));
        let described: Vec<_> = catalogue
            .methods
            .iter()
            .zip(&facts)
            .filter(|(m, _)| m.family == *family)
            .map(|(m, facts)| Described {
                same_equations_as: catalogue.canonical(m).map(|t| t.name.clone()),
                facts: facts.clone(),
                ..describe(m)
            })
            .collect();
        let text = format!(
            "{DESCRIPTION_HEADER}{}",
            text::write(&described, &mut roundings)?
        );
        // The macro reads the text back: it must give back what was written.
        let read = text::read(&text, &roundings).map_err(|e| EmitError::Check {
            name: (*family).to_owned(),
            message: format!("its description does not read back: {e}"),
        })?;
        if read != described {
            return Err(EmitError::Check {
                name: (*family).to_owned(),
                message: "its description reads back different from what was written".to_owned(),
            });
        }
        files.push(GeneratedFile {
            path: PathBuf::from(format!("descriptions/{module}.txt")),
            contents: text,
        });
        let doc = format!(" {family} steppers.");
        let family = format_ident!("{family}");
        family_steppers.push(quote! {
            #[doc = #doc]
            mod #module {
                ::sparkgen_macros::family_steppers!(::sparkgen_core, #family);
            }
        });
        modules.push(module);
    }
    files.push(roundings::roundings_file(&roundings, Precision::DEFAULT)?);
    let texts = families.iter().zip(&modules).map(|(family, module)| {
        let path = format!("../descriptions/{module}.txt");
        quote!((#family, include_str!(#path)))
    });
    files.push(render(
        Path::new("src/descriptions.rs"),
        quote! {
            //! The method descriptions as text, for the run-time engine: `(family, text)` in
            //! catalogue order, and the table of the coefficients' roundings they refer to
            //! (read with `sparkgen_description::text::read`).

            /// Every family's description.
            pub const DESCRIPTIONS: &[(&str, &str)] = &[#(#texts),*];

            /// The double-double rounding of every exact coefficient of the descriptions.
            pub const ROUNDINGS: &str = include_str!("../descriptions/roundings.txt");
        },
    )?);
    let families: Vec<_> = families.iter().map(|f| format_ident!("{f}")).collect();
    files.insert(0, render(Path::new("src/lib.rs"), lib_module(&families))?);
    files.push(render(
        Path::new("src/steppers.rs"),
        quote! {
            //! The catalogue's steppers: fully unrolled stage residual, exact Jacobian and update
            //! per (family, s), implementing `sparkgen_core::stage::StageMethod`, emitted where
            //! this crate is built by `sparkgen_macros::family_steppers!` from the descriptions in
            //! `descriptions/` (no stepper is committed).
            #(#family_steppers)*
            #(pub use #modules::*;)*
        },
    )?);
    Ok(files)
}

fn spark_module(catalogue: &Catalogue, types: &TokenStream) -> TokenStream {
    let lobatto = catalogue.lobatto_omega.iter().map(|(s, w)| {
        spark::omega_const(
            "LobattoOmega",
            *s,
            w,
            "ω = L⁻¹Q with a_s the rows 2..s of Lobatto IIIA(s), Q = [a_s 0; 0ᵀ 1], L = [a_s; e_sᵀ].",
            types,
        )
    });
    let gauss = catalogue.gauss_omega.iter().map(|(s, w)| {
        spark::omega_const(
            "GaussOmega",
            *s,
            w,
            "ω_ij = b_j c_j^(i−1) (i < s) at the Gauss nodes, ω_(s,s+1) = 1.",
            types,
        )
    });
    let nulls = catalogue
        .null_vectors
        .iter()
        .map(|(s, d)| spark::null_vector_const(*s, d, types));
    let lg = catalogue
        .lobatto_gauss
        .iter()
        .map(|lg| spark::lobatto_gauss_const(lg, types));
    let data = spark::data_list(catalogue, types);
    quote! {
        //! SPARK coefficients: ω matrices, Lobatto null vectors, Lobatto–Gauss coefficients.
        #(#lobatto)*
        #(#gauss)*
        #(#nulls)*
        #(#lg)*
        #data
    }
}

/// The crate root; `families` in catalogue order, whose steppers `for_each_stepper!` lists.
fn lib_module(families: &[proc_macro2::Ident]) -> TokenStream {
    quote! {
        //! Tableaus and SPARK coefficients of sparkgen, emitted by `cargo codegen` from exact
        //! values computed in arbitrary precision. Never edited by hand: a test fails on drift.
        // The null vectors contain 1/√2 and similar values that clippy mistakes for std consts.
        #![allow(clippy::approx_constant)]

        #[rustfmt::skip]
        pub mod catalogue;
        #[rustfmt::skip]
        pub mod descriptions;
        #[rustfmt::skip]
        pub mod exact;
        #[rustfmt::skip]
        pub mod measured;
        #[rustfmt::skip]
        pub mod pairs;
        #[rustfmt::skip]
        pub mod spark;
        #[rustfmt::skip]
        pub mod steppers;
        #[rustfmt::skip]
        pub mod tableaus;
        #[rustfmt::skip]
        pub mod types;

        // In rustfmt's order: the generated file is checked by `cargo fmt --check`.
        #[doc(hidden)]
        pub use sparkgen_macros::stepper_registry;
        pub use types::*;

        /// The generated steppers as data: `for_each_stepper!(callback)` invokes
        /// `callback! { degenerate: [(Type, "Family", s, order, pair, facts), …], holonomic: […],
        /// implicit: […], hamiltonian: […] }` with the type name in `steppers`, its family,
        /// stages, classical order, the catalogue pair (`"LobattoIIIAIIIB(3)"`, a name in
        /// `catalogue::PAIRS`) it is built on and its `types::MethodFacts` (an expression),
        /// grouped by the problem kind it applies to (degenerate Lagrangians; holonomic systems,
        /// implicit and Hamiltonian DAEs, whose steppers take the number of constraints as a
        /// const parameter), in catalogue order. The rows are read from the descriptions of the
        /// families listed here by `sparkgen_macros::stepper_registry!`.
        #[macro_export]
        macro_rules! for_each_stepper {
            ($callback:ident) => {
                $crate::stepper_registry! { $crate, $callback, [#(#families),*] }
            };
        }
    }
}

/// The source of a single tableau constant for a user's `build.rs`: `types` is the path of the
/// emitted types as seen from the including crate, normally `::sparkgen::generated`.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use sparkgen_codegen::{emit, exact::Precision, tableau::Family};
/// let src = emit::tableau_source(Family::Gauss, 12, Precision::DEFAULT, "::sparkgen::generated")?;
/// std::fs::write(std::path::Path::new(&std::env::var("OUT_DIR")?).join("gauss12.rs"), src)?;
/// # Ok(()) }
/// ```
pub fn tableau_source(
    family: Family,
    s: usize,
    prec: Precision,
    types: &str,
) -> Result<String, EmitError> {
    let types: TokenStream = types.parse().map_err(|_| EmitError::Check {
        name: format!("{}({s})", family.name()),
        message: format!("`{types}` is not a Rust path"),
    })?;
    let tableau = build(family, s, prec)?;
    let computed = crate::catalogue::checked_properties(&tableau, prec)?;
    let tokens = tableaus::tableau_const(&tableau, &computed, &types, None);
    Ok(render(Path::new("OUT_DIR"), tokens)?.contents)
}

/// The source of a stepper for a user's `build.rs` (e.g. an SLRK s that the catalogue does not
/// ship): `core` is the path of `sparkgen_core` as seen from the including crate, normally
/// `::sparkgen::sparkgen_core`.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use sparkgen_codegen::{emit, exact::Precision, method::slrk::slrk, tableau::PairKind};
/// let method = slrk(PairKind::LobattoIIIEIIIEBar, 6, Precision::DEFAULT)?;
/// let src = emit::stepper_source(&method, "::sparkgen::sparkgen_core")?;
/// std::fs::write(std::path::Path::new(&std::env::var("OUT_DIR")?).join("slrk6.rs"), src)?;
/// # Ok(()) }
/// ```
pub fn stepper_source(method: &crate::method::ir::Method, core: &str) -> Result<String, EmitError> {
    let core: TokenStream = core.parse().map_err(|_| EmitError::Check {
        name: method.name.clone(),
        message: format!("`{core}` is not a Rust path"),
    })?;
    let tokens = sparkgen_description::emit::stepper(method, &core)?;
    Ok(render(Path::new("OUT_DIR"), tokens)?.contents)
}
