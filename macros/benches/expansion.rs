//! Expansion time of `sparkgen::stepper!`: every catalogue stepper declared under its catalogue
//! name (the family's description read, the Jacobian formed by the chain rule, the tokens
//! emitted), single declarations, and the reading of the descriptions alone. Per stepper: the
//! first divided by the number of steppers.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

#[path = "../src/stepper.rs"]
mod stepper;

fn main() {
    divan::main();
}

/// `pub Name = Family(s)` for every method of every description.
fn declarations() -> Vec<TokenStream> {
    stepper::DESCRIPTIONS
        .iter()
        .flat_map(|(family, text)| {
            let family = format_ident!("{family}");
            let methods = stepper::read_description(text).unwrap_or_default();
            methods.into_iter().map(move |m| {
                let name = format_ident!("{}", m.name);
                let s = Literal::usize_unsuffixed(m.s);
                quote!(pub #name = #family(#s))
            })
        })
        .collect()
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn every_catalogue_stepper(bencher: divan::Bencher) {
    let inputs = declarations();
    bencher
        .counter(divan::counter::ItemsCount::new(inputs.len()))
        .bench_local(|| {
            for input in &inputs {
                divan::black_box(stepper::expand(input.clone()));
            }
        });
}

/// Single declarations: the smallest and the largest of the catalogue (by committed lines), and
/// a mid-sized one.
#[divan::bench(args = ["VprkGauss(1)", "VprkGauss(4)", "HsparkGlrkLobattoIIIAIIIB(4)"], sample_count = 20)]
fn one_stepper(bencher: divan::Bencher, method: &str) {
    let input: TokenStream = format!("pub Stepper = {method}")
        .parse()
        .unwrap_or_default();
    bencher.bench_local(|| stepper::expand(input.clone()));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn read_every_description() {
    for (_, text) in stepper::DESCRIPTIONS {
        divan::black_box(stepper::read_description(divan::black_box(text)).ok());
    }
}
