//! The compiled back end against the reference interpreter of the same function: equal bit for
//! bit on every operation of the graph, on random programs and hostile operands, and every
//! malformed function or call refused with a typed error.

use proptest::prelude::*;
use sparkgen_jit::{Arg, Compiled, Function, JitError, Tier};
use sparkgen_sym::Op;

/// Every operation of the graph, `Powi` at a few exponents.
fn ops() -> Vec<Op> {
    let mut ops = vec![
        Op::Neg,
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::Powf,
        Op::Sqrt,
        Op::Exp,
        Op::Ln,
        Op::Sin,
        Op::Cos,
        Op::Tan,
        Op::Asin,
        Op::Acos,
        Op::Atan,
        Op::Atan2,
        Op::Sinh,
        Op::Cosh,
        Op::Tanh,
        Op::Abs,
        Op::Hypot,
    ];
    ops.extend([-7, -2, -1, 0, 1, 2, 3, 5, 8, 13, 31].map(Op::Powi));
    ops
}

/// Values where the functions differ in their corner cases.
const HOSTILE: [f64; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1e-310,
    1e300,
    -1e300,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    std::f64::consts::PI,
];

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Runs `f` both ways on `reads` with a writable output of `outputs` values; the two outputs.
fn both(f: &Function, reads: &[&[f64]], outputs: usize) -> (Vec<f64>, Vec<f64>) {
    let compiled = Compiled::new(f).expect("compiles");
    let (mut interpreted, mut machine) = (vec![f64::NAN; outputs], vec![f64::NAN; outputs]);
    f.eval(reads, &mut [&mut interpreted], &mut Vec::new())
        .expect("interprets");
    compiled.call(reads, &mut [&mut machine]).expect("calls");
    (interpreted, machine)
}

/// Every operation on every pair of hostile operands: one function, each result stored.
#[test]
fn every_operation_agrees_on_hostile_operands() {
    let ops = ops();
    let n = HOSTILE.len();
    let mut f = Function::new(vec![n], vec![ops.len() * n * n]);
    let mut out = 0;
    for &op in &ops {
        for i in 0..n {
            for j in 0..n {
                let a = f.load(Arg::Read(0), i);
                let b = f.load(Arg::Read(0), j);
                let v = f.apply(op, a, b);
                f.store(Arg::Write(0), out, v);
                out += 1;
            }
        }
    }
    let (interpreted, machine) = both(&f, &[&HOSTILE], out);
    assert_eq!(bits(&interpreted), bits(&machine));
    // And the interpreter is the graph's own evaluation.
    let mut k = 0;
    for &op in &ops {
        for &a in &HOSTILE {
            for &b in &HOSTILE {
                assert_eq!(
                    interpreted[k].to_bits(),
                    op.eval(&[a, b]).to_bits(),
                    "{op:?}({a}, {b})"
                );
                k += 1;
            }
        }
    }
}

/// `xᵏ` inline equals `f64::powi` bit for bit at every exponent a file can write.
#[test]
fn powers_are_those_of_powi() {
    let exponents: Vec<i32> = (-40..=40).chain([i32::MIN, i32::MAX, 1 << 20]).collect();
    let xs: Vec<f64> = HOSTILE
        .iter()
        .copied()
        .chain((1..40).map(|k| 1.0 + 0.0371 * f64::from(k)))
        .chain((1..40).map(|k| -0.9 + 0.0513 * f64::from(k)))
        .collect();
    let mut f = Function::new(vec![xs.len()], vec![xs.len() * exponents.len()]);
    let mut out = 0;
    for &k in &exponents {
        for i in 0..xs.len() {
            let x = f.load(Arg::Read(0), i);
            let v = f.apply(Op::Powi(k), x, x);
            f.store(Arg::Write(0), out, v);
            out += 1;
        }
    }
    let (_, machine) = both(&f, &[&xs], out);
    let mut at = 0;
    for &k in &exponents {
        for &x in &xs {
            assert_eq!(machine[at].to_bits(), x.powi(k).to_bits(), "{x}^{k}");
            at += 1;
        }
    }
}

/// A random straight-line program: each instruction a load, a constant, an operation of
/// earlier values or a store (which a later load of the same place reads back).
fn program() -> impl Strategy<Value = Vec<(u8, usize, usize, f64)>> {
    prop::collection::vec((0u8..5, 0usize..1000, 0usize..1000, -3.0f64..3.0), 1..200)
}

proptest! {
    #[test]
    fn random_programs_agree(steps in program(), inputs in prop::collection::vec(-2.0f64..2.0, 8)) {
        let ops = ops();
        let mut f = Function::new(vec![inputs.len()], vec![16]);
        let mut values = vec![f.load(Arg::Read(0), 0)];
        for (kind, a, b, x) in steps {
            match kind {
                0 => values.push(f.load(Arg::Read(0), a % inputs.len())),
                1 => values.push(f.constant(x)),
                2 => {
                    let v = values[b % values.len()];
                    f.store(Arg::Write(0), a % 16, v);
                }
                3 => values.push(f.load(Arg::Write(0), a % 16)),
                _ => {
                    let op = ops[a % ops.len()];
                    let (p, q) = (values[a % values.len()], values[b % values.len()]);
                    values.push(f.apply(op, p, q));
                }
            }
        }
        let last = *values.last().expect("one load at least");
        f.store(Arg::Write(0), 15, last);
        let mut interpreted = vec![0.25; 16];
        f.eval(&[&inputs], &mut [&mut interpreted], &mut Vec::new()).expect("interprets");
        // Both register allocators give the same bits: they place values, not operations.
        for tier in [Tier::Optimised, Tier::Quick] {
            let compiled = Compiled::with(&f, tier).expect("compiles");
            let mut machine = vec![0.25; 16];
            compiled.call(&[&inputs], &mut [&mut machine]).expect("calls");
            prop_assert_eq!(bits(&interpreted), bits(&machine));
        }
    }
}

/// Malformed functions and calls are refused, never run.
#[test]
fn malformed_functions_and_calls_are_refused() {
    // A store into a read-only argument, a load beyond its declared length.
    let mut f = Function::new(vec![2], vec![1]);
    let x = f.load(Arg::Read(0), 0);
    f.store(Arg::Read(0), 1, x);
    assert!(matches!(Compiled::new(&f), Err(JitError::Codegen(_))));
    let mut g = Function::new(vec![2], vec![1]);
    let y = g.load(Arg::Read(0), 2);
    g.store(Arg::Write(0), 0, y);
    assert!(matches!(Compiled::new(&g), Err(JitError::Codegen(_))));
    // A well-formed function called with a short slice or the wrong number of slices.
    let mut h = Function::new(vec![2], vec![1]);
    let z = h.load(Arg::Read(0), 1);
    h.store(Arg::Write(0), 0, z);
    let compiled = Compiled::new(&h).expect("compiles");
    let mut out = [0.0];
    assert_eq!(
        compiled.call(&[&[1.0]], &mut [&mut out]),
        Err(JitError::Argument {
            index: 0,
            needed: 2,
            given: 1
        })
    );
    assert_eq!(
        compiled.call(&[], &mut [&mut out]),
        Err(JitError::Arity {
            needed: 2,
            given: 1
        })
    );
    compiled
        .call(&[&[1.0, 2.0]], &mut [&mut out])
        .expect("a valid call runs");
    assert_eq!(out, [2.0]);
}

/// A compiled function is shared by threads, each on its own output.
#[test]
fn one_compiled_function_serves_many_threads() {
    let mut f = Function::new(vec![1], vec![1]);
    let x = f.load(Arg::Read(0), 0);
    let e = f.apply(Op::Exp, x, x);
    let s = f.apply(Op::Sin, e, e);
    f.store(Arg::Write(0), 0, s);
    let compiled = Compiled::new(&f).expect("compiles");
    std::thread::scope(|scope| {
        for k in 0..4 {
            let compiled = &compiled;
            scope.spawn(move || {
                let x = f64::from(k) * 0.3;
                let mut out = [0.0];
                compiled.call(&[&[x]], &mut [&mut out]).expect("calls");
                assert_eq!(out[0].to_bits(), x.exp().sin().to_bits());
            });
        }
    });
}
