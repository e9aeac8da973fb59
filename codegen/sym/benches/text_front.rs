//! The text front end on long expressions: parsing, lowering, differentiation, kernels and
//! tapes of a degenerate Lagrangian (what reading a problem file does besides TOML) whose
//! Hamiltonian is a sum of n terms: `cargo bench -p sparkgen-sym --bench text_front`.
//!
//! `distinct` sums n different terms `sin(k * q1)` (nothing cancels: the graph, its
//! derivatives and the tapes grow with n); `flat` is `q1 + q1 + …` of about `bytes` bytes
//! (the shape of a computer-algebra dump). The time per term should not grow with n.

use divan::Bencher;
use divan::counter::BytesCount;
use sparkgen_sym::derive::text::{self, Text};

fn main() {
    divan::main();
}

/// Compiles the Lotka–Volterra one-form with the Hamiltonian `hamiltonian`.
fn compile(hamiltonian: &str) -> text::Compiled {
    let coordinates = [
        Text {
            id: 0,
            source: "q1",
        },
        Text {
            id: 1,
            source: "q2",
        },
    ];
    let theta = [
        Text {
            id: 2,
            source: "q2 + ln(q2) / q1",
        },
        Text {
            id: 3,
            source: "q1",
        },
    ];
    let hamiltonian = Text {
        id: 4,
        source: hamiltonian,
    };
    text::degenerate_lagrangian(&[], &coordinates, &[], &theta, hamiltonian)
        .expect("a valid problem")
}

#[divan::bench(args = [1_000, 10_000, 100_000])]
fn distinct(bencher: Bencher, terms: usize) {
    let source: Vec<String> = (1..=terms).map(|k| format!("sin({k} * q1)")).collect();
    let source = source.join(" + ");
    bencher
        .counter(BytesCount::of_str(&source))
        .bench(|| compile(divan::black_box(&source)));
}

#[divan::bench(args = [1_000_000])]
fn flat(bencher: Bencher, bytes: usize) {
    let source = format!("q1{}", " + q1".repeat(bytes / 5));
    bencher
        .counter(BytesCount::of_str(&source))
        .bench(|| compile(divan::black_box(&source)));
}
