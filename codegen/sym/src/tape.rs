//! The compiled tape: a [`Kernel`] flattened into a straight-line register program, for
//! evaluating graph outputs at run time without emitting and compiling Rust.
//!
//! Registers are laid out as `[inputs | constants | results]`; every instruction applies one
//! [`Op`] to one or two registers and writes the next result register. The instructions are
//! the kernel's operations in the kernel's order (its `let`s, then the stores), so a tape
//! computes bit for bit what the code emitted from the same kernel computes: the same `f64`
//! operations on the same operands, constants rounded once when the kernel was scheduled.

use crate::input::Input;
use crate::kernel::{KExpr, Kernel, OutputSlot};
use crate::op::Op;
use std::collections::HashMap;

/// One operation: `registers[result] = op(registers[a], registers[b])` (`b = a` when unary).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Instruction {
    op: Op,
    a: u32,
    b: u32,
}

/// A kernel compiled to registers (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Tape {
    /// For each input register: (segment, index) of the value it is loaded from.
    inputs: Vec<(u32, u32)>,
    /// The constant registers' values.
    constants: Vec<f64>,
    instructions: Vec<Instruction>,
    /// (register, position in the output slice) of every stored value.
    stores: Vec<(u32, u32)>,
    /// Length of the output slice.
    outputs: usize,
}

/// An input symbol the caller's layout does not place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnboundInput(pub Input);

impl std::fmt::Display for UnboundInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the input `{}` has no place in the tape's layout",
            self.0
        )
    }
}

impl std::error::Error for UnboundInput {}

/// One tape of a [`Tape::fuse`] and where its input segments are in the fused tape's.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The tape.
    pub tape: &'a Tape,
    /// The fused tape's segment of each of the tape's segments.
    pub segments: &'a [usize],
}

/// What a tape's registers become in another program ([`Tape::replay`]).
pub trait Replay {
    /// A register's value there.
    type Value: Copy;
    /// The input at `index` of the input slice `segment`.
    fn input(&mut self, segment: usize, index: usize) -> Self::Value;
    /// The constant `x`.
    fn constant(&mut self, x: f64) -> Self::Value;
    /// `op(a, b)` (`b = a` for a unary op).
    fn apply(&mut self, op: Op, a: Self::Value, b: Self::Value) -> Self::Value;
}

impl Tape {
    /// Compiles `kernel`. `input` places every input symbol as (segment, index) of the slices
    /// passed to [`Tape::eval`]; `output` places every output slot in the output slice of
    /// length `outputs` (structurally zero slots are left at zero by `eval`).
    pub fn new(
        kernel: &Kernel,
        mut input: impl FnMut(&Input) -> Option<(usize, usize)>,
        mut output: impl FnMut(&OutputSlot) -> usize,
        outputs: usize,
    ) -> Result<Tape, UnboundInput> {
        let mut builder = Builder::default();
        let mut temps = Vec::with_capacity(kernel.lets().len());
        for l in kernel.lets() {
            let register = builder.expr(&l.value, &temps, &mut input)?;
            temps.push(register);
        }
        let mut stores = Vec::with_capacity(kernel.stores().len());
        for s in kernel.stores() {
            let register = builder.expr(&s.value, &temps, &mut input)?;
            stores.push((register, output(&s.slot)));
        }
        Ok(builder.finish(stores, outputs))
    }

    /// The tapes `parts` as one tape whose output slice holds the parts' outputs one after
    /// another, in order. Each part reads its segment `k` from the fused tape's segment
    /// [`Part::segments`]`[k]`.
    ///
    /// Values are numbered: an input, a constant or an instruction whose operation and
    /// operands are those of one already in the fused tape is that one's register. Tapes built
    /// from kernels of one graph compute each shared subexpression by the same instructions, so
    /// the fused tape evaluates it once, and every output is bit for bit the part's own (the
    /// same `f64` operations on the same operands).
    pub fn fuse(parts: &[Part<'_>]) -> Tape {
        let mut builder = Builder::default();
        let mut stores = Vec::new();
        let mut offset = 0;
        for part in parts {
            let tape = part.tape;
            let (n_in, n_const) = (tape.inputs.len(), tape.constants.len());
            let mut registers = Vec::with_capacity(tape.registers());
            for &(segment, index) in &tape.inputs {
                let segment = part
                    .segments
                    .get(segment as usize)
                    .copied()
                    .unwrap_or(usize::MAX);
                registers.push(builder.input((segment, index as usize)));
            }
            registers.extend(tape.constants.iter().map(|&x| builder.constant(x)));
            for instruction in &tape.instructions {
                let a = registers[instruction.a as usize];
                let b = registers[instruction.b as usize];
                registers.push(builder.instruction(instruction.op, a, b));
            }
            debug_assert_eq!(registers.len(), n_in + n_const + tape.instructions.len());
            stores.extend(tape.stores.iter().map(|&(register, position)| {
                (registers[register as usize], offset + position as usize)
            }));
            offset += tape.outputs;
        }
        builder.finish(stores, offset)
    }

    /// Whether `other` performs the same instructions on the same inputs and constants, bit
    /// for bit (unlike `==`, which takes `0.0` and `−0.0` as equal and NaN as unequal), so that
    /// code built from one computes what the other does.
    pub fn identical(&self, other: &Tape) -> bool {
        self.inputs == other.inputs
            && self.instructions == other.instructions
            && self.stores == other.stores
            && self.outputs == other.outputs
            && self.constants.len() == other.constants.len()
            && self
                .constants
                .iter()
                .zip(&other.constants)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// Number of registers [`Tape::eval`] needs.
    pub fn registers(&self) -> usize {
        self.inputs.len() + self.constants.len() + self.instructions.len()
    }

    /// Length of the output slice.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Number of operations per evaluation.
    pub fn operations(&self) -> usize {
        self.instructions.len()
    }

    /// The tape's operations on the values of another program (a lowering, a code generator):
    /// each input register as [`Replay::input`], each constant as [`Replay::constant`], each
    /// instruction as [`Replay::apply`] (`b = a` for a unary op), in the tape's order; returns
    /// the stores as (value, position in the output slice), in order (a later store to a
    /// position replaces an earlier one). [`Tape::eval`] is this on `f64` values.
    pub fn replay<R: Replay>(&self, target: &mut R) -> Vec<(R::Value, usize)> {
        let mut registers = Vec::with_capacity(self.registers());
        for &(segment, index) in &self.inputs {
            registers.push(target.input(segment as usize, index as usize));
        }
        for &x in &self.constants {
            registers.push(target.constant(x));
        }
        for instruction in &self.instructions {
            let (a, b) = (
                registers[instruction.a as usize],
                registers[instruction.b as usize],
            );
            registers.push(target.apply(instruction.op, a, b));
        }
        self.stores
            .iter()
            .map(|&(register, position)| (registers[register as usize], position as usize))
            .collect()
    }

    /// Evaluates the tape on the input `segments` into `out` (length [`Tape::outputs`]), using
    /// `registers` as scratch: it is grown to [`Tape::registers`] when shorter and never shrunk,
    /// so a buffer reused across calls is allocated once, by the first call that needs its size.
    /// Structurally zero outputs are set to zero. Inputs placed outside `segments` read as NaN.
    pub fn eval(&self, segments: &[&[f64]], registers: &mut Vec<f64>, out: &mut [f64]) {
        if registers.len() < self.registers() {
            registers.resize(self.registers(), 0.0);
        }
        let (n_in, n_const) = (self.inputs.len(), self.constants.len());
        for (register, &(s, i)) in registers.iter_mut().zip(&self.inputs) {
            *register = segments
                .get(s as usize)
                .and_then(|segment| segment.get(i as usize))
                .copied()
                .unwrap_or(f64::NAN);
        }
        registers[n_in..n_in + n_const].copy_from_slice(&self.constants);
        for (result, instruction) in (n_in + n_const..).zip(&self.instructions) {
            // A unary instruction names its operand twice (see `Tape::new`).
            let operands = [
                registers[instruction.a as usize],
                registers[instruction.b as usize],
            ];
            registers[result] = instruction.op.eval(&operands);
        }
        out.fill(0.0);
        for &(register, position) in &self.stores {
            if let Some(slot) = out.get_mut(position as usize) {
                *slot = registers[register as usize];
            }
        }
    }
}

fn narrow(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// A register before the final layout is known.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Register {
    Input(usize),
    Constant(usize),
    Result(usize),
}

#[derive(Default)]
struct Builder {
    inputs: Vec<(usize, usize)>,
    /// The register of every placed input.
    input_registers: HashMap<(usize, usize), usize>,
    constants: Vec<f64>,
    /// The register of every constant, by its bits.
    constant_registers: HashMap<u64, usize>,
    instructions: Vec<(Op, Register, Register)>,
    /// The result of every instruction, by its operation and operands (for [`Tape::fuse`]).
    instruction_registers: HashMap<(Op, Register, Register), usize>,
}

impl Builder {
    /// The tape of the instructions built, storing `stores` (register, output position) into an
    /// output slice of length `outputs`.
    fn finish(self, stores: Vec<(Register, usize)>, outputs: usize) -> Tape {
        // Result registers follow the inputs and constants: renumber the provisional ones.
        let (n_in, n_const) = (self.inputs.len(), self.constants.len());
        let place = |r: Register| -> u32 {
            let index = match r {
                Register::Input(i) => i,
                Register::Constant(i) => n_in + i,
                Register::Result(i) => n_in + n_const + i,
            };
            u32::try_from(index).unwrap_or(u32::MAX)
        };
        let instructions = self
            .instructions
            .iter()
            .map(|&(op, a, b)| Instruction {
                op,
                a: place(a),
                // A unary op reads its operand as both (see `Builder::instruction`), so every
                // instruction reads two registers computed before it.
                b: place(b),
            })
            .collect();
        Tape {
            inputs: self
                .inputs
                .iter()
                .map(|&(s, i)| (narrow(s), narrow(i)))
                .collect(),
            constants: self.constants,
            instructions,
            stores: stores
                .into_iter()
                .map(|(r, o)| (place(r), narrow(o)))
                .collect(),
            outputs,
        }
    }

    /// The register of the input at `place`.
    fn input(&mut self, place: (usize, usize)) -> Register {
        let inputs = &mut self.inputs;
        let index = *self.input_registers.entry(place).or_insert_with(|| {
            inputs.push(place);
            inputs.len() - 1
        });
        Register::Input(index)
    }

    /// The register of the constant `x`.
    fn constant(&mut self, x: f64) -> Register {
        let constants = &mut self.constants;
        let index = *self
            .constant_registers
            .entry(x.to_bits())
            .or_insert_with(|| {
                constants.push(x);
                constants.len() - 1
            });
        Register::Constant(index)
    }

    /// The register of `op(a, b)` (`b = a` for a unary op), the earlier one where an
    /// instruction has the same operation and operands.
    fn instruction(&mut self, op: Op, a: Register, b: Register) -> Register {
        let b = if op.arity() == 1 { a } else { b };
        let instructions = &mut self.instructions;
        let index = *self
            .instruction_registers
            .entry((op, a, b))
            .or_insert_with(|| {
                instructions.push((op, a, b));
                instructions.len() - 1
            });
        Register::Result(index)
    }

    /// The register holding `e`, emitting its operations (operands first, left to right).
    fn expr(
        &mut self,
        e: &KExpr,
        temps: &[Register],
        input: &mut impl FnMut(&Input) -> Option<(usize, usize)>,
    ) -> Result<Register, UnboundInput> {
        Ok(match e {
            KExpr::Temp(i) => temps[*i],
            KExpr::Input(symbol) => {
                let place = input(symbol).ok_or_else(|| UnboundInput(symbol.clone()))?;
                self.input(place)
            }
            KExpr::Const(x) => self.constant(*x),
            KExpr::Apply(op, args) => {
                let mut operands = [Register::Constant(0); 2];
                for (slot, arg) in operands.iter_mut().zip(args) {
                    *slot = self.expr(arg, temps, input)?;
                }
                self.instruction(*op, operands[0], operands[1])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cse, Graph, KernelBuilder, NodeId, SlotIndex};

    /// The tape of ϑ-like outputs agrees bit for bit with the kernel's own `f64` evaluation.
    #[test]
    fn tape_matches_kernel_evaluation() {
        let mut g = Graph::new();
        let q = g.vector("q", 2);
        let a = g.param("a");
        let l = g.ln(q[1]);
        let r = g.div(l, q[0]);
        let s = g.powi(r, 2);
        let t = g.mul(a, s);
        let half = g.rational(crate::Rational::new(1, 3).expect("nonzero denominator"));
        let u = g.add(t, half);
        let zero = g.int(0);
        let kernel = KernelBuilder::new()
            .vector("out", &[u, zero, r])
            .build(&g, Cse::On);
        let tape = Tape::new(
            &kernel,
            |input| match input {
                Input::Component { index, .. } => Some((0, *index)),
                Input::Param(_) => Some((1, 0)),
            },
            |slot| match slot.index {
                SlotIndex::Vector(i) => i,
                _ => usize::MAX,
            },
            3,
        )
        .expect("every input is placed");
        let (qv, av) = ([1.3, 2.7], [-0.4]);
        let mut registers = Vec::new();
        let mut out = [f64::NAN; 3];
        tape.eval(&[&qv, &av], &mut registers, &mut out);
        let expected = kernel.eval_f64(|input| match input {
            Input::Component { index, .. } => qv[*index],
            Input::Param(_) => av[0],
        });
        assert_eq!(out[0].to_bits(), expected[0].to_bits());
        assert_eq!(out[1], 0.0);
        assert_eq!(out[2].to_bits(), expected[1].to_bits());
        assert_eq!(registers.len(), tape.registers());
        // A longer buffer is kept as it is, and the result does not depend on its contents.
        registers.resize(2 * tape.registers(), f64::NAN);
        let mut again = [f64::NAN; 3];
        tape.eval(&[&qv, &av], &mut registers, &mut again);
        assert_eq!(registers.len(), 2 * tape.registers());
        assert_eq!(again.map(f64::to_bits), out.map(f64::to_bits));
    }

    /// Two kernels of one graph sharing `ln q₁ / q₀` and `√(q₀² + q₁²)`: a map of `q` and a
    /// derivative-like map of `(q, w)`, with a parameter `a`.
    fn two_kernels() -> (Graph, Kernel, Kernel, Kernel) {
        let mut g = Graph::new();
        let q = g.vector("q", 2);
        let w = g.vector("w", 2);
        let a = g.param("a");
        let l = g.ln(q[1]);
        let r = g.div(l, q[0]);
        let (q0, q1) = (g.powi(q[0], 2), g.powi(q[1], 2));
        let s = g.add(q0, q1);
        let n = g.sqrt(s);
        let first = [g.mul(a, r), g.add(n, r)];
        let wn = g.mul(w[0], n);
        let wr = g.mul(w[1], r);
        let second = [g.sub(wn, wr), g.div(w[1], n), g.neg(r)];
        let build = |outputs: &[(&str, &[NodeId])]| {
            let mut builder = KernelBuilder::new();
            for (name, values) in outputs {
                builder.vector(name, values);
            }
            builder.build(&g, Cse::On)
        };
        let (one, two) = (build(&[("f", &first)]), build(&[("g", &second)]));
        let both = build(&[("f", &first), ("g", &second)]);
        (g, one, two, both)
    }

    /// Places `q`, `w` and `a` in the segments `places` gives them, outputs in order.
    fn tape(kernel: &Kernel, places: [Option<usize>; 3], outputs: usize) -> Tape {
        let mut position = 0;
        Tape::new(
            kernel,
            |input| match input {
                Input::Component { vector, index } => {
                    let segment = if vector == "q" { places[0] } else { places[1] };
                    segment.map(|s| (s, *index))
                }
                Input::Param(_) => places[2].map(|s| (s, 0)),
            },
            |_| {
                position += 1;
                position - 1
            },
            outputs,
        )
        .expect("every input is placed")
    }

    /// A fused tape computes every part's outputs bit for bit, evaluates the shared
    /// subexpressions once (as many operations as the tape of one kernel of both outputs) and
    /// reads each part's segments where the parts say.
    #[test]
    fn fused_tapes_share_subexpressions_and_keep_every_bit() {
        let (_, one, two, both) = two_kernels();
        // The parts' own layouts: [q, a] and [q, w, a]; the fused tape's: [w, a, q].
        let first = tape(&one, [Some(0), None, Some(1)], 2);
        let second = tape(&two, [Some(0), Some(1), Some(2)], 3);
        let fused = Tape::fuse(&[
            Part {
                tape: &first,
                segments: &[2, 1],
            },
            Part {
                tape: &second,
                segments: &[2, 0, 1],
            },
        ]);
        let whole = tape(&both, [Some(2), Some(0), Some(1)], 5);
        assert_eq!(fused.operations(), whole.operations());
        assert!(fused.operations() < first.operations() + second.operations());
        let mut registers = Vec::new();
        for (q, w, a) in [
            ([1.3, 2.7], [0.1, -0.4], [-0.4]),
            ([0.2, 1e-300], [1e300, 3.0], [7.0]),
            ([-1.0, 0.5], [0.0, 0.0], [f64::NAN]),
        ] {
            let (mut f, mut g, mut out) = ([f64::NAN; 2], [f64::NAN; 3], [f64::NAN; 5]);
            first.eval(&[&q, &a], &mut registers, &mut f);
            second.eval(&[&q, &w, &a], &mut registers, &mut g);
            fused.eval(&[&w, &a, &q], &mut registers, &mut out);
            let separate: Vec<u64> = f.iter().chain(&g).map(|x| x.to_bits()).collect();
            let together: Vec<u64> = out.iter().map(|x| x.to_bits()).collect();
            assert_eq!(together, separate);
        }
    }

    /// Replayed on `f64` values, a tape computes what [`Tape::eval`] does, bit for bit, with
    /// the inputs it reads placed where `eval` places them.
    #[test]
    fn replay_on_numbers_is_eval() {
        let (_, _, two, _) = two_kernels();
        let second = tape(&two, [Some(0), Some(1), Some(2)], 3);
        let segments: [&[f64]; 3] = [&[1.3, 2.7], &[0.1, -0.4], &[-0.4]];
        let mut out = [f64::NAN; 3];
        second.eval(&segments, &mut Vec::new(), &mut out);
        let mut replayed = [0.0; 3];
        struct Numbers<'a>(&'a [&'a [f64]]);
        impl Replay for Numbers<'_> {
            type Value = f64;
            fn input(&mut self, segment: usize, index: usize) -> f64 {
                self.0[segment][index]
            }
            fn constant(&mut self, x: f64) -> f64 {
                x
            }
            fn apply(&mut self, op: Op, a: f64, b: f64) -> f64 {
                op.eval(&[a, b])
            }
        }
        let stores = second.replay(&mut Numbers(&segments));
        for (value, position) in stores {
            replayed[position] = value;
        }
        assert_eq!(replayed.map(f64::to_bits), out.map(f64::to_bits));
    }

    /// Tapes are identical when built from the same kernel, not when a constant's sign of
    /// zero differs (which `==` ignores).
    #[test]
    fn identical_tapes_agree_on_every_bit() {
        let (_, one, two, _) = two_kernels();
        let first = tape(&one, [Some(0), None, Some(1)], 2);
        assert!(first.identical(&tape(&one, [Some(0), None, Some(1)], 2)));
        assert!(!first.identical(&tape(&two, [Some(0), Some(1), Some(2)], 3)));
        let mut signed = first.clone();
        signed.constants.push(0.0);
        let mut negative = first.clone();
        negative.constants.push(-0.0);
        assert!(signed == negative && !signed.identical(&negative));
    }

    /// A tape fused alone, with its own segments, is the same tape.
    #[test]
    fn a_tape_fused_alone_is_itself() {
        let (_, _, two, _) = two_kernels();
        let second = tape(&two, [Some(0), Some(1), Some(2)], 3);
        let part = Part {
            tape: &second,
            segments: &[0, 1, 2],
        };
        assert_eq!(Tape::fuse(&[part]), second);
    }

    #[test]
    fn unplaced_inputs_are_reported() {
        let mut g = Graph::new();
        let x = g.param("x");
        let e = g.exp(x);
        let kernel = KernelBuilder::new().scalar("out", e).build(&g, Cse::On);
        let error = Tape::new(&kernel, |_| None, |_| 0, 1).unwrap_err();
        assert_eq!(error, UnboundInput(Input::Param("x".into())));
    }
}
