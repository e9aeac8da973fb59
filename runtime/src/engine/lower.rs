//! The one lowering of the engine's stage functions: a [`Section`] of the program (its
//! operations, then its block additions into the Jacobian or the tangent partials), with every
//! kernel call of the problem inlined from its tape, as one straight-line scalar
//! [`Function`] — the program both run-time back ends execute (the reference interpreter
//! [`Function::eval`] and the machine code of [`sparkgen_jit::Compiled`]).
//!
//! The function performs the operations of [`super::eval::run`] and
//! [`super::eval::add_blocks`] in their order, on the same operands: a linear combination
//! `Σ ± x_k·|c_k|hᵏ` as `x₀·s₀ + x₁·s₁ + …` with the signed scalars `s_k` of the step size, a
//! product's entry as `0 + a₀b₀ + a₁b₁ + …`, a Jacobian or tangent entry as `0 + Σ a·s` over its
//! terms in order, a kernel as its tape's instructions. Its results are therefore those of the
//! interpreter bit for bit. Every arena slot the section writes is also stored, so a later
//! section (the Jacobian after the residual) reads it as the interpreter's does.
//!
//! Arguments: read-only `[signed scalars, parameters]`; writable `[arena]`, then the Jacobian
//! (`N × N`) for the Jacobian's sections, or the eight tangent blocks
//! (`∂r/∂q, ∂r/∂p, ∂q₁/∂x, ∂p₁/∂x, ∂q₁/∂q, ∂q₁/∂p, ∂p₁/∂q, ∂p₁/∂p`) for the tangent's.

use super::fusion::{self, Fused};
use super::program::{Args, Op, Program, Section, Target, shift_entry};
use sparkgen_jit::{Arg, Function, Value};
use sparkgen_sym::{Op as Operation, Tape};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The read-only argument of the signed scalars `[1, −1, s₀, −s₀, …]`.
const SIGNED: Arg = Arg::Read(0);
/// The read-only argument of the problem's parameters (every tape's, one after another).
const PARAMETERS: Arg = Arg::Read(1);
/// The evaluation arena.
const ARENA: Arg = Arg::Write(0);

/// Where a section's block additions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outputs {
    /// Nowhere (the residual, the update).
    Arena,
    /// The Jacobian `∂r/∂x`.
    Jacobian,
    /// The eight tangent blocks.
    Tangent,
}

/// The tapes a lowering inlines: each group's fused tape and each single call's, with the
/// parameter values each reads; and the parameters of all of them, one after another.
#[derive(Debug, Default)]
pub(crate) struct Tapes {
    /// Per group of [`Program::groups`], its fused tape and where its parameters start.
    groups: Vec<Option<(Arc<Tape>, usize)>>,
    /// Per single call, by its arena output offset, its tape and where its parameters start.
    singles: BTreeMap<usize, (Arc<Tape>, usize)>,
    /// The parameters of every tape.
    pub parameters: Vec<f64>,
}

impl Tapes {
    /// The offset of `values` in [`Tapes::parameters`], appended unless an equal run (bit for
    /// bit) is there already.
    fn parameters(&mut self, values: &[f64]) -> usize {
        let same = |start: &usize| {
            self.parameters[*start..]
                .iter()
                .zip(values)
                .all(|(a, b)| a.to_bits() == b.to_bits())
                && self.parameters.len() - start >= values.len()
        };
        if let Some(start) = (0..=self.parameters.len()).find(same) {
            return start;
        }
        let start = self.parameters.len();
        self.parameters.extend_from_slice(values);
        start
    }

    /// The tapes of `program` on a problem: the fused ones of its groups (`fused`, as the
    /// workspace holds them) and the single calls' (`single`, the problem's tape of a call on
    /// its own). `None` where a call has no tape (a compiled problem).
    pub(crate) fn collect(
        program: &Program,
        fused: &[Option<Fused>],
        mut single: impl FnMut(&fusion::Call, usize) -> Option<Fused>,
    ) -> Option<Tapes> {
        let mut tapes = Tapes::default();
        for k in 0..program.groups.len() {
            let group = fused.get(k).and_then(Option::as_ref).map(|f| {
                let (tape, parameters) = f.tape();
                let start = tapes.parameters(parameters);
                (Arc::clone(tape), start)
            });
            tapes.groups.push(group);
        }
        let mut single_ops: Vec<Op> = Vec::new();
        for section in program.sections() {
            for op in &section.ops {
                match *op {
                    Op::Fused { group } if tapes.groups[group].is_none() => {
                        single_ops.extend(&program.groups[group].ops);
                    }
                    Op::Vector { .. } | Op::Matrix { .. } => single_ops.push(*op),
                    _ => {}
                }
            }
        }
        for op in single_ops {
            let (Op::Vector { args, out, .. } | Op::Matrix { args, out, .. }) = op else {
                continue;
            };
            if tapes.singles.contains_key(&out) {
                continue;
            }
            let call = fusion::single(&op)?;
            let f = single(&call, args.count)?;
            let (tape, parameters) = f.tape();
            let start = tapes.parameters(parameters);
            tapes.singles.insert(out, (Arc::clone(tape), start));
        }
        Some(tapes)
    }

    /// Whether `other` inlines the same tapes (by value) reading their parameters at the same
    /// places: then a function lowered with `self` computes, with `other`'s parameter values,
    /// what one lowered with `other` would.
    pub(crate) fn same_code(&self, other: &Tapes) -> bool {
        let same = |a: &(Arc<Tape>, usize), b: &(Arc<Tape>, usize)| {
            a.1 == b.1 && (Arc::ptr_eq(&a.0, &b.0) || a.0.identical(&b.0))
        };
        self.parameters.len() == other.parameters.len()
            && self.groups.len() == other.groups.len()
            && self
                .groups
                .iter()
                .zip(&other.groups)
                .all(|(a, b)| match (a, b) {
                    (Some(a), Some(b)) => same(a, b),
                    (None, None) => true,
                    _ => false,
                })
            && self.singles.len() == other.singles.len()
            && self
                .singles
                .iter()
                .zip(&other.singles)
                .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
    }
}

/// A lowering in progress: the function and the value each arena slot and signed scalar holds
/// in it so far.
struct Lowering<'a> {
    f: Function,
    /// The value of each arena slot (indexed by slot) and signed scalar, where known.
    slots: Vec<Option<Value>>,
    signed: Vec<Option<Value>>,
    /// Each constant's value, by its bits.
    constants: HashMap<u64, Value>,
    tapes: &'a Tapes,
    /// The arena slots to store (`None`: every slot written).
    keep: Option<&'a [bool]>,
}

impl Lowering<'_> {
    /// The value of `arg[index]`: the one `known` holds for it, else loaded (and then known).
    fn known(f: &mut Function, known: &mut [Option<Value>], arg: Arg, index: usize) -> Value {
        *known[index].get_or_insert_with(|| f.load(arg, index))
    }

    fn read(&mut self, slot: usize) -> Value {
        Self::known(&mut self.f, &mut self.slots, ARENA, slot)
    }

    fn write(&mut self, slot: usize, v: Value) {
        if self
            .keep
            .is_none_or(|keep| keep.get(slot).copied().unwrap_or(true))
        {
            self.f.store(ARENA, slot, v);
        }
        self.slots[slot] = Some(v);
    }

    fn constant(&mut self, x: f64) -> Value {
        let f = &mut self.f;
        *self
            .constants
            .entry(x.to_bits())
            .or_insert_with(|| f.constant(x))
    }

    fn signed(&mut self, k: usize) -> Value {
        Self::known(&mut self.f, &mut self.signed, SIGNED, k)
    }

    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.f.apply(Operation::Mul, a, b)
    }

    fn add(&mut self, a: Value, b: Value) -> Value {
        self.f.apply(Operation::Add, a, b)
    }

    /// `0 + Σ_k a_k b_k` in order, as the interpreter's accumulations.
    fn dot(&mut self, pairs: impl Iterator<Item = (usize, usize)>) -> Value {
        let mut acc = self.constant(0.0);
        for (a, b) in pairs {
            let (x, y) = (self.read(a), self.read(b));
            let p = self.mul(x, y);
            acc = self.add(acc, p);
        }
        acc
    }

    /// The tape inlined on the argument slices `args` (arena offset, length), its parameters at
    /// `start`; its outputs written to `outputs` (arena offset, length) one after another, every
    /// output it does not store zero. An input outside its slice reads NaN, as in
    /// [`Tape::eval`].
    fn tape(
        &mut self,
        tape: &Tape,
        start: usize,
        args: &[(usize, usize)],
        outputs: &[(usize, usize)],
    ) {
        let stores = tape.replay(&mut Inline {
            lowering: self,
            args,
            start,
        });
        let total: usize = outputs.iter().map(|&(_, len)| len).sum();
        let mut values: Vec<Option<Value>> = vec![None; total];
        for (value, position) in stores {
            if let Some(slot) = values.get_mut(position) {
                *slot = Some(value);
            }
        }
        let mut values = values.into_iter();
        for &(out, len) in outputs {
            for i in 0..len {
                let v = match values.next().flatten() {
                    Some(v) => v,
                    None => self.constant(0.0),
                };
                self.write(out + i, v);
            }
        }
    }

    /// The operation `op` of the program.
    fn op(&mut self, program: &Program, op: &Op) -> Option<()> {
        match *op {
            Op::Zero { out, len } => {
                for i in 0..len {
                    let zero = self.constant(0.0);
                    self.write(out + i, zero);
                }
            }
            Op::Linear {
                out,
                len,
                first,
                last,
            } => {
                let terms = &program.terms[first..last];
                for i in 0..len {
                    let mut acc: Option<Value> = None;
                    for t in terms {
                        let k = t.scalar.map_or(0, |s| 2 + 2 * s) + usize::from(t.negative);
                        let (x, c) = (self.read(t.src + i), self.signed(k));
                        let term = self.mul(x, c);
                        acc = Some(match acc {
                            None => term,
                            Some(a) => self.add(a, term),
                        });
                    }
                    let v = match acc {
                        Some(v) => v,
                        None => self.constant(0.0),
                    };
                    self.write(out + i, v);
                }
            }
            Op::Vector { args, out, len, .. } | Op::Matrix { args, out, len, .. } => {
                let (tape, start) = self.tapes.singles.get(&out)?.clone();
                self.tape(&tape, start, &slices(&args), &[(out, len)]);
            }
            Op::Fused { group } => match self.tapes.groups.get(group)?.clone() {
                Some((tape, start)) => {
                    let g = &program.groups[group];
                    let outputs: Vec<(usize, usize)> = g
                        .ops
                        .iter()
                        .filter_map(|op| match *op {
                            Op::Vector { out, len, .. } | Op::Matrix { out, len, .. } => {
                                Some((out, len))
                            }
                            _ => None,
                        })
                        .collect();
                    self.tape(&tape, start, &g.args, &outputs);
                }
                None => {
                    for op in &program.groups[group].ops {
                        self.op(program, op)?;
                    }
                }
            },
            Op::MatVec { .. } | Op::Product { .. } => {
                let dot = op.dot()?;
                for r in 0..dot.rows {
                    for c in 0..dot.cols {
                        let (out, factors) = dot.entry(r, c);
                        let acc = self.dot(factors);
                        self.write(out, acc);
                    }
                }
            }
            Op::Transpose {
                out,
                matrix,
                rows,
                cols,
            } => {
                for r in 0..rows {
                    for c in 0..cols {
                        let x = self.read(matrix + r * cols + c);
                        self.write(out + c * rows + r, x);
                    }
                }
            }
            Op::Shift { out, wrap, d } => {
                for r in 0..d {
                    for c in 0..d {
                        let x = self.constant(shift_entry(wrap, d, r, c));
                        self.write(out + r * d + c, x);
                    }
                }
            }
        }
        Some(())
    }
}

/// The argument slices of a single call.
fn slices(args: &Args) -> Vec<(usize, usize)> {
    (0..args.count)
        .map(|k| (args.offsets[k], args.lens[k]))
        .collect()
}

/// A tape's registers as values of the lowering: inputs read from the call's argument slices
/// of the arena or from the parameters.
struct Inline<'l, 'a> {
    lowering: &'l mut Lowering<'a>,
    args: &'l [(usize, usize)],
    start: usize,
}

impl sparkgen_sym::Replay for Inline<'_, '_> {
    type Value = Value;

    fn input(&mut self, segment: usize, index: usize) -> Value {
        let parameters = self.lowering.tapes.parameters.len() - self.start;
        match self.args.get(segment) {
            Some(&(at, len)) if index < len => self.lowering.read(at + index),
            None if segment == self.args.len() && index < parameters => {
                self.lowering.f.load(PARAMETERS, self.start + index)
            }
            _ => self.lowering.constant(f64::NAN),
        }
    }

    fn constant(&mut self, x: f64) -> Value {
        self.lowering.constant(x)
    }

    fn apply(&mut self, op: Operation, a: Value, b: Value) -> Value {
        self.lowering.f.apply(op, a, b)
    }
}

/// The index of a target among the writable arguments.
fn target_arg(target: Target) -> Arg {
    Arg::Write(match target {
        Target::Jacobian | Target::RQ => 1,
        Target::RP => 2,
        Target::QX => 3,
        Target::PX => 4,
        Target::QQ => 5,
        Target::QP => 6,
        Target::PQ => 7,
        Target::PP => 8,
    })
}

/// `section` of `program` lowered with the problem's `tapes`, adding its blocks into `outputs`
/// and storing the arena slots `keep` of those it writes (`None`: every one); `None` where a
/// kernel call has no tape.
pub(crate) fn lower(
    program: &Program,
    section: &Section,
    tapes: &Tapes,
    outputs: Outputs,
    keep: Option<&[bool]>,
) -> Option<Function> {
    let (n, d) = (program.n, program.dims.coordinates);
    let mut writes = vec![program.arena];
    match outputs {
        Outputs::Arena => {}
        Outputs::Jacobian => writes.push(n * n),
        Outputs::Tangent => writes.extend([n * d, n * d, d * n, d * n, d * d, d * d, d * d, d * d]),
    }
    let signed = 2 * program.scalars.len() + 2;
    let reads = vec![signed, tapes.parameters.len()];
    let mut lowering = Lowering {
        f: Function::new(reads, writes),
        slots: vec![None; program.arena],
        signed: vec![None; signed],
        constants: HashMap::new(),
        tapes,
        keep,
    };
    for op in &section.ops {
        lowering.op(program, op)?;
    }
    for (target, cells) in &section.cells {
        let wanted = match outputs {
            Outputs::Arena => false,
            Outputs::Jacobian => *target == Target::Jacobian,
            Outputs::Tangent => *target != Target::Jacobian,
        };
        if !wanted {
            continue;
        }
        // Each entry `0 + Σ source·signed` over its cells in order.
        let arg = target_arg(*target);
        let len = match arg {
            Arg::Write(k) => lowering.f.arguments().1.get(k).copied().unwrap_or(0),
            Arg::Read(_) => 0,
        };
        let mut sums: Vec<Option<Value>> = vec![None; len];
        for cell in cells {
            let (x, c) = (
                lowering.read(cell.source),
                lowering.signed(cell.coefficient),
            );
            let term = lowering.mul(x, c);
            let sum = match sums.get(cell.at).copied().flatten() {
                Some(sum) => sum,
                None => lowering.constant(0.0),
            };
            let sum = lowering.add(sum, term);
            if let Some(entry) = sums.get_mut(cell.at) {
                *entry = Some(sum);
            }
        }
        for (index, value) in sums.into_iter().enumerate() {
            if let Some(value) = value {
                lowering.f.store(arg, index, value);
            }
        }
    }
    Some(lowering.f)
}

/// The arena slots a function of the step must store: those a section reads before it writes
/// them (`loads`, the arena loads of every section lowered with every store), and those read
/// after a call (the residual rows, `q_{n+1}`, `p_{n+1}`). A section that runs after another
/// (the Jacobian after the residual, or any section the interpreter runs where compilation
/// failed) reads exactly its own loads.
pub(crate) fn kept<'f>(
    program: &Program,
    loads: impl IntoIterator<Item = &'f Function>,
) -> Vec<bool> {
    let d = program.dims.coordinates;
    let mut keep = vec![false; program.arena];
    let mut mark = |slots: std::ops::Range<usize>| {
        for k in slots {
            if let Some(slot) = keep.get_mut(k) {
                *slot = true;
            }
        }
    };
    for function in loads {
        for (arg, index) in function.loads() {
            if arg == ARENA {
                mark(index..index + 1);
            }
        }
    }
    for &(at, _, len) in &program.stores {
        mark(at..at + len);
    }
    mark(program.q_next..program.q_next + d);
    mark(program.p_next..program.p_next + d);
    keep
}
