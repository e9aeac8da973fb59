//! Emission of `registry.rs`: the generated steppers as data, a `macro_rules!` listing
//! `(Type, "Family", s, order, pair, facts)` that a runtime expands into its dispatch by name.

use super::literal::int;
use crate::catalogue::Catalogue;
use crate::measured::{Pinned, REASONS, Reason, measured};
use crate::method::facts::Multiplier;
use crate::method::ir::{Method, ProblemKind};
use crate::recommend::{Recommendation, recommendations};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The source of `registry.rs`: `for_each_stepper!(callback)` expands to
/// `callback! { degenerate: [(Type, "Family", s, order, "Pair(s)", facts), …], holonomic: [ … ],
/// implicit: [ … ], hamiltonian: [ … ] }`.
pub fn registry_module(catalogue: &Catalogue) -> TokenStream {
    let recommended = recommendations(catalogue);
    let rows = |kind: ProblemKind| {
        catalogue
            .methods
            .iter()
            .zip(&recommended)
            .filter(move |(m, _)| m.problem == kind)
            .map(|(m, recommendation)| {
                let ty = format_ident!("{}", m.name);
                let family = &m.family;
                let (s, order) = (int(m.s), int(m.order));
                let pair = format!("{}({})", m.pair, m.s);
                let facts = facts_tokens(m, recommendation);
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

/// `$crate::types::MethodFacts { … }` of `method`: its structural facts, what was measured of
/// it ([`measured`]) and its `recommendation` ([`crate::recommend`]).
fn facts_tokens(method: &Method, recommendation: &Recommendation) -> TokenStream {
    let facts = &method.facts;
    let preserves = facts.preserves_constraint;
    let linear = facts.needs_linear_one_form;
    let multiplier = match facts.multiplier {
        None => quote!(None),
        Some(Multiplier::Projection) => {
            quote!(Some($crate::types::CarriedMultiplier::Projection))
        }
        Some(Multiplier::Velocity) => quote!(Some($crate::types::CarriedMultiplier::Velocity)),
    };
    let m = measured(&method.family, method.s, method.problem, preserves);
    let (pinned, on_index_two) = (
        pinned_tokens(m.pinned, method.s),
        pinned_tokens(m.pinned_on_index_two_pendulum, method.s),
    );
    let limitations = m.limitations.iter().map(|r| reason_path(*r));
    let class = format_ident!("{}", recommendation.class.name());
    let reason = &recommendation.reason;
    quote!($crate::types::MethodFacts {
        preserves_constraint: #preserves,
        multiplier: #multiplier,
        needs_linear_one_form: #linear,
        pinned: #pinned,
        pinned_on_index_two_pendulum: #on_index_two,
        limitations: &[#(#limitations),*],
        recommendation: $crate::types::Recommendation {
            class: $crate::types::RecommendationClass::#class,
            reason: #reason,
        },
    })
}

/// `$crate::measured::NAME` of `reason`.
fn reason_path(reason: Reason) -> TokenStream {
    let name = format_ident!("{}", reason.name);
    quote!($crate::measured::#name)
}

/// `Some($crate::types::Pinned::…)` (orders evaluated at `s` stages) or `None`.
fn pinned_tokens(pinned: Option<Pinned>, s: usize) -> TokenStream {
    let Some(pinned) = pinned else {
        return quote!(None);
    };
    let reason = reason_path(pinned.reason());
    let variant = match pinned {
        Pinned::Order(order, _) => {
            let order = order.at(s);
            quote!(Order { order: #order, reason: #reason })
        }
        Pinned::Fails(error, _) => quote!(Fails { error: #error, reason: #reason }),
        Pinned::Parasitic(order, _) => {
            let order = order.at(s);
            quote!(Parasitic { order: #order, reason: #reason })
        }
        Pinned::Erratic(_) => quote!(Erratic { reason: #reason }),
        Pinned::NoConvergence(_) => quote!(NoConvergence { reason: #reason }),
    };
    quote!(Some($crate::types::Pinned::#variant))
}

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
