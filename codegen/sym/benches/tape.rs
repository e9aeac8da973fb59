//! Run-time evaluation of graph outputs: the interpreter `Graph::eval` against the compiled
//! `Tape` of the same outputs (Lotka–Volterra: ϑ, J = ∂ϑ/∂q, ∇H and ∇²H):
//! `cargo bench -p sparkgen-sym --bench tape`. The ratio of the two, from one run, is what the
//! tape saves per evaluation.

use sparkgen_sym::{Cse, Graph, Input, KernelBuilder, NodeId, SlotIndex, Tape};

fn main() {
    divan::main();
}

/// The LV outputs, their graph and the parameter values a₁, a₂, b₁, b₂.
fn lotka_volterra() -> (Graph, Vec<NodeId>) {
    let mut g = Graph::new();
    let q = g.vector("q", 2);
    let a: Vec<NodeId> = ["a1", "a2", "b1", "b2"]
        .iter()
        .map(|n| g.param(n))
        .collect();
    let (l1, l2) = (g.ln(q[0]), g.ln(q[1]));
    let r = g.div(l2, q[0]);
    let theta = [g.add(q[1], r), q[0]];
    let terms = [
        g.mul(a[0], q[0]),
        g.mul(a[1], q[1]),
        g.mul(a[2], l1),
        g.mul(a[3], l2),
    ];
    let h = g.sum(&terms);
    let mut outputs = theta.to_vec();
    let jacobian = g.jacobian(&theta, &q).expect("differentiable");
    outputs.extend_from_slice(jacobian.entries());
    outputs.extend(g.gradient(h, &q).expect("differentiable"));
    let hessian = g.hessian(h, &q).expect("differentiable");
    outputs.extend_from_slice(hessian.entries());
    (g, outputs)
}

const Q: [f64; 2] = [2.0, 1.0];
const PARAMETERS: [f64; 4] = [-1.0, -1.0, 1.0, 2.0];

fn value(input: &Input) -> f64 {
    match input {
        Input::Component { index, .. } => Q[*index],
        Input::Param(name) => match name.as_str() {
            "a1" => PARAMETERS[0],
            "a2" => PARAMETERS[1],
            "b1" => PARAMETERS[2],
            _ => PARAMETERS[3],
        },
    }
}

#[divan::bench]
fn graph_eval(bencher: divan::Bencher) {
    let (g, outputs) = lotka_volterra();
    bencher.bench_local(|| g.eval::<f64>(divan::black_box(&outputs), 53, value));
}

#[divan::bench]
fn tape_eval(bencher: divan::Bencher) {
    let (g, outputs) = lotka_volterra();
    let kernel = KernelBuilder::new()
        .vector("out", &outputs)
        .build(&g, Cse::On);
    let tape = Tape::new(
        &kernel,
        |input| match input {
            Input::Component { index, .. } => Some((0, *index)),
            Input::Param(name) => ["a1", "a2", "b1", "b2"]
                .iter()
                .position(|n| n == name)
                .map(|i| (1, i)),
        },
        |slot| match slot.index {
            SlotIndex::Vector(i) => i,
            _ => 0,
        },
        outputs.len(),
    )
    .expect("every input is placed");
    let mut registers = Vec::new();
    let mut out = vec![0.0; outputs.len()];
    bencher.bench_local(|| {
        tape.eval(
            &[divan::black_box(&Q), &PARAMETERS],
            &mut registers,
            &mut out,
        );
        out[0]
    });
}
