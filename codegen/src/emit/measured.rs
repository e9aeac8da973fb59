//! Emission of `measured.rs`: the text of every measured cause and limitation, once, as a named
//! constant that the steppers' facts name (`types::MethodFacts`, built by
//! `sparkgen_macros::stepper_registry!` from the names the descriptions carry); every method's
//! long-run measurement (`LONG_RUN`, from its facts) and the method guide's pick for long runs
//! of degenerate Lagrangians, the command's default method.

use super::EmitError;
use crate::catalogue::Catalogue;
use crate::measured::REASONS;
use crate::method::ir::ProblemKind;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use sparkgen_description::facts::Facts;

/// The name of the constant naming the long-run pick for degenerate Lagrangians.
const DEGENERATE_PICK: &str = "LONG_RUN_DEGENERATE_LAGRANGIAN";

/// The source of `measured.rs`: every reason and limitation text as a named constant, and the
/// long-run facts of the catalogue's methods (`facts` in catalogue order). Fails if no method
/// for degenerate Lagrangians is the long-run pick (rule 5 of `crate::recommend`): the command
/// runs it by default.
pub fn measured_module(catalogue: &Catalogue, facts: &[Facts]) -> Result<TokenStream, EmitError> {
    let consts = REASONS.iter().map(|r| {
        let name = format_ident!("{}", r.name);
        let text = r.text;
        quote! {
            #[doc = " A cause, limitation or long-run measurement, measured, of the steppers whose `types::MethodFacts` or `LONG_RUN` entries name it."]
            pub const #name: &str = #text;
        }
    });
    let measured = || {
        catalogue
            .methods
            .iter()
            .zip(facts)
            .filter_map(|(m, f)| f.long_run.as_ref().map(|l| (m, l)))
    };
    let rows = measured().map(|(m, l)| {
        let (method, recommended) = (&m.name, l.recommended);
        let energy = format_ident!("{}", l.energy.name());
        let reason = format_ident!("{}", l.reason);
        quote! {
            LongRun {
                method: #method,
                energy: LongRunEnergy::#energy,
                recommended: #recommended,
                reason: #reason,
            }
        }
    });
    let pick = measured()
        .find(|(m, l)| m.problem == ProblemKind::DegenerateLagrangian && l.recommended)
        .map(|(m, _)| m.name.as_str())
        .ok_or_else(|| EmitError::Check {
            name: DEGENERATE_PICK.to_owned(),
            message: "no method for degenerate Lagrangians is the method guide's pick for long \
                      runs (no clean one was measured bounded)"
                .to_owned(),
        })?;
    let pick_const = format_ident!("{DEGENERATE_PICK}");
    Ok(quote! {
        //! The causes of the pinned behaviours, the measured limitations of the generated
        //! steppers (`types::MethodFacts`) and their long-run measurements, as data kept beside
        //! the generator's builders.
        use crate::types::{LongRun, LongRunEnergy};
        #(#consts)*

        /// Every stepper whose energy error was measured over long runs on Lotka–Volterra, in
        /// catalogue order: bounded or drifting, and whether it is the method guide's pick for
        /// long runs of its problem kind (`docs/methods.md`).
        pub const LONG_RUN: &[LongRun] = &[#(#rows),*];

        /// The method guide's pick for long runs of degenerate Lagrangians (a type name in
        /// `steppers`): of the clean methods whose energy error stays bounded, the one of the
        /// highest order with the fewest unknowns. The command runs it by default.
        pub const #pick_const: &str = #pick;
    })
}
