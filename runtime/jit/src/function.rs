//! The straight-line scalar program both back ends run: loads from and stores into argument
//! slices, constants and the graph's operations, in order.

use crate::JitError;
use sparkgen_sym::{Op, Replay, Tape};

/// An argument slice of a [`Function`]: the `k`-th read-only one or the `k`-th writable one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// Read only (the step's coefficients, the problem's parameters).
    Read(usize),
    /// Read and written (the evaluation arena, the Jacobian, the tangent blocks).
    Write(usize),
}

/// The result of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);

impl Value {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// One instruction. Values are numbered by the instruction that computes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Inst {
    /// `arg[index]`, as the argument holds it when the instruction runs.
    Load { arg: Arg, index: usize },
    /// A constant.
    Const(f64),
    /// `op(a, b)`; a unary operation reads `a` only.
    Apply { op: Op, a: Value, b: Value },
    /// `arg[index] = value` (computes no value).
    Store {
        arg: Arg,
        index: usize,
        value: Value,
    },
}

/// A straight-line program on `f64` slices (see the crate documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    reads: Vec<usize>,
    writes: Vec<usize>,
    pub(crate) insts: Vec<Inst>,
}

impl Function {
    /// An empty function of read-only arguments of the lengths `reads` and writable ones of the
    /// lengths `writes`.
    pub fn new(reads: Vec<usize>, writes: Vec<usize>) -> Function {
        Function {
            reads,
            writes,
            insts: Vec::new(),
        }
    }

    /// The tape `tape` as a function of read-only arguments of the lengths `reads` (its input
    /// segments) and one writable argument, its output slice of [`Tape::outputs`] entries:
    /// the tape's instructions in its order, then its stores in theirs. An input outside
    /// `reads` is NaN, as [`Tape::eval`] reads it; the output entries the tape does not store
    /// are left as they are (`Tape::eval` zeroes them first).
    pub fn of_tape(tape: &Tape, reads: Vec<usize>) -> Function {
        /// The tape's registers as values of the function.
        struct Build<'a>(&'a mut Function);
        impl Replay for Build<'_> {
            type Value = Value;
            fn input(&mut self, segment: usize, index: usize) -> Value {
                if self.0.reads.get(segment).is_some_and(|&len| index < len) {
                    self.0.load(Arg::Read(segment), index)
                } else {
                    self.0.constant(f64::NAN)
                }
            }
            fn constant(&mut self, x: f64) -> Value {
                self.0.constant(x)
            }
            fn apply(&mut self, op: Op, a: Value, b: Value) -> Value {
                self.0.apply(op, a, b)
            }
        }
        let mut f = Function::new(reads, vec![tape.outputs()]);
        let stores = tape.replay(&mut Build(&mut f));
        for (value, position) in stores {
            f.store(Arg::Write(0), position, value);
        }
        f
    }

    /// The declared lengths of the read-only and the writable arguments.
    pub fn arguments(&self) -> (&[usize], &[usize]) {
        (&self.reads, &self.writes)
    }

    /// The places the function loads, in order (with repetitions).
    pub fn loads(&self) -> impl Iterator<Item = (Arg, usize)> + '_ {
        self.insts.iter().filter_map(|inst| match *inst {
            Inst::Load { arg, index } => Some((arg, index)),
            _ => None,
        })
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// Whether the function does nothing.
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    fn push(&mut self, inst: Inst) -> Value {
        self.insts.push(inst);
        Value(u32::try_from(self.insts.len() - 1).unwrap_or(u32::MAX))
    }

    /// `arg[index]`.
    pub fn load(&mut self, arg: Arg, index: usize) -> Value {
        self.push(Inst::Load { arg, index })
    }

    /// The constant `x`.
    pub fn constant(&mut self, x: f64) -> Value {
        self.push(Inst::Const(x))
    }

    /// `op(a, b)`; `b` is not read by a unary operation (pass `a`).
    pub fn apply(&mut self, op: Op, a: Value, b: Value) -> Value {
        let b = if op.arity() == 1 { a } else { b };
        self.push(Inst::Apply { op, a, b })
    }

    /// `arg[index] = value`.
    pub fn store(&mut self, arg: Arg, index: usize, value: Value) {
        self.push(Inst::Store { arg, index, value });
    }

    /// The declared length of `arg`, `None` where it is not declared.
    fn length(&self, arg: Arg) -> Option<usize> {
        match arg {
            Arg::Read(k) => self.reads.get(k).copied(),
            Arg::Write(k) => self.writes.get(k).copied(),
        }
    }

    /// Whether every access is inside a declared argument, every store goes to a writable one
    /// and every operand is a value computed before it: the invariants the compiled code relies
    /// on (checked once, before compilation).
    pub(crate) fn well_formed(&self) -> bool {
        let inside = |arg: Arg, index: usize| self.length(arg).is_some_and(|len| index < len);
        let mut computes = Vec::with_capacity(self.insts.len());
        for (k, inst) in self.insts.iter().enumerate() {
            let before = |v: Value| v.index() < k && computes[v.index()];
            let ok = match *inst {
                Inst::Load { arg, index } => inside(arg, index),
                Inst::Const(_) => true,
                Inst::Apply { a, b, .. } => before(a) && before(b),
                Inst::Store { arg, index, value } => {
                    matches!(arg, Arg::Write(_)) && inside(arg, index) && before(value)
                }
            };
            if !ok {
                return false;
            }
            computes.push(!matches!(inst, Inst::Store { .. }));
        }
        true
    }

    /// `Ok` when `reads` and `writes` have the function's numbers of arguments and each is at
    /// least as long as declared.
    pub(crate) fn check_call(
        &self,
        reads: &[&[f64]],
        writes: &[&mut [f64]],
    ) -> Result<(), JitError> {
        check_call((&self.reads, &self.writes), reads, writes)
    }

    /// Runs the function on `reads` and `writes` (the reference back end), with `registers` as
    /// scratch (grown to the function's length, never shrunk).
    pub fn eval(
        &self,
        reads: &[&[f64]],
        writes: &mut [&mut [f64]],
        registers: &mut Vec<f64>,
    ) -> Result<(), JitError> {
        self.check_call(reads, writes)?;
        if !self.well_formed() {
            return Err(JitError::Codegen("the function is not well formed".into()));
        }
        if registers.len() < self.insts.len() {
            registers.resize(self.insts.len(), 0.0);
        }
        for (k, inst) in self.insts.iter().enumerate() {
            registers[k] = match *inst {
                Inst::Load {
                    arg: Arg::Read(a),
                    index,
                } => reads[a][index],
                Inst::Load {
                    arg: Arg::Write(a),
                    index,
                } => writes[a][index],
                Inst::Const(x) => x,
                Inst::Apply { op, a, b } => op.eval(&[registers[a.index()], registers[b.index()]]),
                Inst::Store { arg, index, value } => {
                    if let Arg::Write(a) = arg {
                        writes[a][index] = registers[value.index()];
                    }
                    0.0
                }
            };
        }
        Ok(())
    }
}

/// `Ok` when `reads` and `writes` are as many as the `declared` lengths (read-only, writable)
/// and each at least as long.
pub(crate) fn check_call(
    declared: (&[usize], &[usize]),
    reads: &[&[f64]],
    writes: &[&mut [f64]],
) -> Result<(), JitError> {
    let given = reads.len() + writes.len();
    let needed = declared.0.len() + declared.1.len();
    if reads.len() != declared.0.len() || writes.len() != declared.1.len() {
        return Err(JitError::Arity { needed, given });
    }
    let lengths = reads
        .iter()
        .map(|s| s.len())
        .chain(writes.iter().map(|s| s.len()));
    for (index, (given, &needed)) in lengths.zip(declared.0.iter().chain(declared.1)).enumerate() {
        if given < needed {
            return Err(JitError::Argument {
                index,
                needed,
                given,
            });
        }
    }
    Ok(())
}
