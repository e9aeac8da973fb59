//! Emission of `registry.rs`: the generated steppers as data, a `macro_rules!` listing
//! `(Type, "Family", s, order, pair, facts)` that a runtime expands into its dispatch by name.

use super::literal::int;
use crate::catalogue::Catalogue;
use crate::method::facts::{Facts, Multiplier};
use crate::method::ir::ProblemKind;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The source of `registry.rs`: `for_each_stepper!(callback)` expands to
/// `callback! { degenerate: [(Type, "Family", s, order, "Pair(s)", facts), …], holonomic: [ … ],
/// implicit: [ … ], hamiltonian: [ … ] }`.
pub fn registry_module(catalogue: &Catalogue) -> TokenStream {
    let rows = |kind: ProblemKind| {
        catalogue
            .methods
            .iter()
            .filter(move |m| m.problem == kind)
            .map(|m| {
                let ty = format_ident!("{}", m.name);
                let family = &m.family;
                let (s, order) = (int(m.s), int(m.order));
                let pair = format!("{}({})", m.pair.name(), m.s);
                let facts = facts_tokens(&m.facts);
                quote!((#ty, #family, #s, #order, #pair, #facts))
            })
    };
    let (degenerate, holonomic, implicit, hamiltonian) = (
        rows(ProblemKind::DegenerateLagrangian),
        rows(ProblemKind::Holonomic),
        rows(ProblemKind::ImplicitDae),
        rows(ProblemKind::HamiltonianDae),
    );
    quote! {
        //! The generated steppers as data: `for_each_stepper!(callback)` invokes
        //! `callback! { degenerate: [(Type, "Family", s, order, pair, facts), …], holonomic: […],
        //! implicit: […], hamiltonian: […] }` with the type name in `steppers`, its family,
        //! stages, classical order, the catalogue pair (`"LobattoIIIAIIIB(3)"`, a name in
        //! `catalogue::PAIRS`) it is built on and its `types::MethodFacts` (an expression),
        //! grouped by the problem kind it applies to
        //! (degenerate Lagrangians; holonomic systems, implicit and Hamiltonian DAEs, whose
        //! steppers take the number of constraints as a const parameter).

        /// Expands `$callback! { degenerate: [(Type, "Family", s, order, pair, facts), …],
        /// holonomic: […], implicit: […], hamiltonian: […] }` over every stepper.
        #[macro_export]
        macro_rules! for_each_stepper {
            ($callback:ident) => {
                $callback! {
                    degenerate: [#(#degenerate),*],
                    holonomic: [#(#holonomic),*],
                    implicit: [#(#implicit),*],
                    hamiltonian: [#(#hamiltonian),*]
                }
            };
        }
    }
}

/// `$crate::types::MethodFacts { … }` of `facts`.
fn facts_tokens(facts: &Facts) -> TokenStream {
    let preserves = facts.preserves_constraint;
    let linear = facts.needs_linear_one_form;
    let multiplier = match facts.multiplier {
        None => quote!(None),
        Some(Multiplier::Projection) => {
            quote!(Some($crate::types::CarriedMultiplier::Projection))
        }
        Some(Multiplier::Velocity) => quote!(Some($crate::types::CarriedMultiplier::Velocity)),
    };
    quote!($crate::types::MethodFacts {
        preserves_constraint: #preserves,
        multiplier: #multiplier,
        needs_linear_one_form: #linear,
    })
}
