//! Run-time evaluation of graph outputs: the interpreter `Graph::eval` against the compiled
//! `Tape` of the same outputs (Lotka–Volterra: ϑ, J = ∂ϑ/∂q, ∇H and ∇²H), and the tapes a
//! stage point of the guiding-centre problem file needs, one by one against fused into one
//! (`Tape::fuse`): `cargo bench -p sparkgen-sym --bench tape`. The ratios, from one run, are
//! what the tape saves per evaluation and what fusion saves per stage point.

use sparkgen_sym::{Cse, Graph, Input, KernelBuilder, NodeId, Part, SlotIndex, Tape};

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

/// The guiding-centre problem file's text (`runtime/problems/guiding_centre.toml`): four
/// coordinates, four parameters, the definitions r², B_x, B_y, |B|.
fn guiding_centre() -> sparkgen_sym::derive::text::Compiled {
    use sparkgen_sym::derive::text::{Definition, Text, degenerate_lagrangian};
    let sources = [
        "x",
        "y",
        "z",
        "u",
        "-b0 * y / 2.0 + u * by / bmod",
        "b0 * x / 2.0 - u * bx / bmod",
        "(x * x + kappa * y * y) / 2.0 + epsilon * r2 * r2 / 4.0 + u * b0 / bmod",
        "0.0",
        "u * u / 2.0 + mu * bmod",
        "r2",
        "x * x + y * y",
        "bx",
        "x * (1.0 + epsilon * r2)",
        "by",
        "y * (kappa + epsilon * r2)",
        "bmod",
        "sqrt(b0 * b0 + powi(bx, 2) + powi(by, 2))",
    ];
    let text = |id: usize| Text {
        id,
        source: sources[id],
    };
    let coordinates: Vec<Text> = (0..4).map(text).collect();
    let theta: Vec<Text> = (4..8).map(text).collect();
    let definitions: Vec<Definition> = (0..4)
        .map(|k| Definition {
            name: text(9 + 2 * k),
            expression: text(10 + 2 * k),
        })
        .collect();
    degenerate_lagrangian(
        &["b0", "kappa", "epsilon", "mu"],
        &coordinates,
        &definitions,
        &theta,
        text(8),
    )
    .expect("the guiding centre is a valid problem")
}

/// A stage point of the guiding centre's trapped orbit: q = (0.5, 0.1, 0, 0.1) and the
/// contraction vectors w = v = (0.3, −0.2, 0.1, 0.05), then the parameters.
const GC_SEGMENTS: [&[f64]; 4] = [
    &[0.5, 0.1, 0.0, 0.1],
    &[0.3, -0.2, 0.1, 0.05],
    &[0.3, -0.2, 0.1, 0.05],
    &[1.0, 4.0, 0.5, 0.025],
];

/// The residual's quantities at a stage point (ϑ, J = ∂ϑ/∂q, ∇H: the trait methods 0, 1, 3)
/// and the Jacobian's (J, ∇²H, ∂(Jᵀw)/∂q, ∂(Jv)/∂q: 1, 4, 5, 6), each with the fused
/// segments [q, w, v, parameters] its arguments read.
const GC_BUNDLES: [&[(usize, &[usize])]; 2] = [
    &[(0, &[0, 3]), (1, &[0, 3]), (3, &[0, 3])],
    &[(1, &[0, 3]), (4, &[0, 3]), (5, &[0, 1, 3]), (6, &[0, 2, 3])],
];

/// The tapes of `bundle` one by one, each on its own segments, as a step on the problem file
/// evaluates them today.
fn separate(bencher: divan::Bencher, bundle: usize) {
    let compiled = guiding_centre();
    let calls: Vec<_> = GC_BUNDLES[bundle]
        .iter()
        .map(|&(method, segments)| {
            let segments: Vec<&[f64]> = segments.iter().map(|&s| GC_SEGMENTS[s]).collect();
            (&compiled.methods[method].tape, segments)
        })
        .collect();
    let mut registers = Vec::new();
    let mut out = vec![0.0; 16];
    bencher.bench_local(|| {
        for (tape, segments) in &calls {
            tape.eval(divan::black_box(segments), &mut registers, &mut out);
        }
        out[0]
    });
}

/// The tapes of `bundle` fused into one ([`Tape::fuse`]).
fn fused(bencher: divan::Bencher, bundle: usize) {
    let compiled = guiding_centre();
    let parts: Vec<Part> = GC_BUNDLES[bundle]
        .iter()
        .map(|&(method, segments)| Part {
            tape: &compiled.methods[method].tape,
            segments,
        })
        .collect();
    let tape = Tape::fuse(&parts);
    let mut registers = Vec::new();
    let mut out = vec![0.0; tape.outputs()];
    bencher.bench_local(|| {
        tape.eval(divan::black_box(&GC_SEGMENTS), &mut registers, &mut out);
        out[0]
    });
}

#[divan::bench]
fn guiding_centre_residual_separate(bencher: divan::Bencher) {
    separate(bencher, 0);
}

#[divan::bench]
fn guiding_centre_residual_fused(bencher: divan::Bencher) {
    fused(bencher, 0);
}

#[divan::bench]
fn guiding_centre_jacobian_separate(bencher: divan::Bencher) {
    separate(bencher, 1);
}

#[divan::bench]
fn guiding_centre_jacobian_fused(bencher: divan::Bencher) {
    fused(bencher, 1);
}
