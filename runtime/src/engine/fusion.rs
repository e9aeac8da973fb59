//! Kernel calls at one stage point evaluated together.
//!
//! A function of the step calls the problem's kernels at every stage point `Q_i`: the residual
//! `ϑ(Q_i)`, `J(Q_i)` (for `Jᵀ(Q_i)V_i`) and `∇H(Q_i)`, the Jacobian `J`, `∇²H`, `∂(Jᵀw)/∂q` and
//! `∂(Jv)/∂q` there. [`fuse`] gathers the calls of a section that read the same first argument
//! into one [`Group`], placed where its first call was, as long as every argument of a later
//! call is computed before that place. A problem whose kernels are tapes (a problem file)
//! evaluates a group as one fused tape ([`Kernels::fuse`](super::Kernels::fuse),
//! [`sparkgen_sym::Tape::fuse`]), which computes the subexpressions the kernels share (`|B|`,
//! `b = B/|B|` and their derivatives for the guiding centre) once, with every output bit for bit
//! what the separate calls give. Any other problem evaluates a group's calls one by one, as
//! before.

use super::program::{Args, Op, Section};
use sparkgen_description::structure::{AtomKind, Kernel};
use sparkgen_sym::Tape;
use std::collections::HashMap;
use std::sync::Arc;

/// The most distinct argument slices of one group.
pub const MAX_ARGS: usize = 4;

/// What a kernel call evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A vector kernel (`Map`, `Gradient`, `Dae(f)`).
    Vector(Kernel),
    /// A matrix kernel (`J`, `Hessian`, `DJacT`, `DJac`, `DaePartial`).
    Matrix(AtomKind),
}

/// One call of a group: what it evaluates and which of the group's argument slices it reads,
/// in the kernel's argument order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// The kernel.
    pub callee: Callee,
    args: [usize; MAX_ARGS],
    count: usize,
}

impl Call {
    /// The positions of its arguments among the group's argument slices.
    pub fn args(&self) -> &[usize] {
        &self.args[..self.count]
    }
}

/// Kernel calls at one point, evaluated together.
#[derive(Clone, Debug, Default)]
pub(crate) struct Group {
    /// `(arena offset, length)` of each distinct argument slice.
    pub args: Vec<(usize, usize)>,
    /// The calls, in the section's order.
    pub calls: Vec<Call>,
    /// The calls as the section's operations (where each output goes; the separate evaluation).
    pub ops: Vec<Op>,
}

impl Group {
    /// The length of the calls' outputs together.
    pub(crate) fn outputs(&self) -> usize {
        self.ops
            .iter()
            .map(|op| match *op {
                Op::Vector { len, .. } | Op::Matrix { len, .. } => len,
                _ => 0,
            })
            .sum()
    }

    /// Adds the call `op` of `callee` on `args`, unless the group would then read more than
    /// [`MAX_ARGS`] distinct slices.
    fn push(&mut self, op: Op, callee: Callee, args: &Args) -> bool {
        let mut positions = [0; MAX_ARGS];
        let mut added = Vec::new();
        for (k, position) in positions.iter_mut().enumerate().take(args.count) {
            let slice = (args.offsets[k], args.lens[k]);
            *position = match self.args.iter().chain(&added).position(|&a| a == slice) {
                Some(at) => at,
                None => {
                    added.push(slice);
                    self.args.len() + added.len() - 1
                }
            };
        }
        if self.args.len() + added.len() > MAX_ARGS {
            return false;
        }
        self.args.extend(added);
        self.calls.push(Call {
            callee,
            args: positions,
            count: args.count,
        });
        self.ops.push(op);
        true
    }
}

/// The kernel call `op` makes on its own, as a group of one call reading its arguments in order
/// (for a back end that inlines each call's tape, [`super::lower`]); `None` for another
/// operation.
pub(crate) fn single(op: &Op) -> Option<Call> {
    let (callee, args) = match *op {
        Op::Vector { kernel, args, .. } => (Callee::Vector(kernel), args),
        Op::Matrix { atom, args, .. } => (Callee::Matrix(atom), args),
        _ => return None,
    };
    Some(Call {
        callee,
        args: [0, 1, 2, 3],
        count: args.count,
    })
}

/// The kernel call `op` makes, if it calls one with arguments.
fn call(op: &Op) -> Option<(Callee, Args, usize)> {
    match *op {
        Op::Vector {
            kernel, args, out, ..
        } if args.count > 0 => Some((Callee::Vector(kernel), args, out)),
        Op::Matrix {
            atom, args, out, ..
        } if args.count > 0 => Some((Callee::Matrix(atom), args, out)),
        _ => None,
    }
}

/// Gathers the kernel calls of `section` at a common first argument into groups (see the
/// module documentation), appended to `groups`; a call that finds no partner stays as it was.
pub(crate) fn fuse(section: &mut Section, groups: &mut Vec<Group>) {
    let mut ops: Vec<Op> = Vec::with_capacity(section.ops.len());
    // The position in `ops` at which each arena offset is written.
    let mut written: HashMap<usize, usize> = HashMap::new();
    // (first argument's offset, position in `ops`, group).
    let mut open: Vec<(usize, usize, Group)> = Vec::new();
    for op in section.ops.drain(..) {
        let Some((callee, args, out)) = call(&op) else {
            if let Some(out) = op.out() {
                written.insert(out, ops.len());
            }
            ops.push(op);
            continue;
        };
        let ready = |position: usize| {
            (0..args.count).all(|k| {
                written
                    .get(&args.offsets[k])
                    .is_none_or(|&at| at < position)
            })
        };
        let joined = open
            .iter_mut()
            .filter(|(key, position, _)| *key == args.offsets[0] && ready(*position))
            .find_map(|(_, position, group)| group.push(op, callee, &args).then_some(*position));
        let position = match joined {
            Some(position) => position,
            None => {
                let mut group = Group::default();
                group.push(op, callee, &args);
                open.push((args.offsets[0], ops.len(), group));
                ops.push(op);
                ops.len() - 1
            }
        };
        written.insert(out, position);
    }
    for (_, position, group) in open {
        if group.calls.len() > 1 {
            ops[position] = Op::Fused {
                group: groups.len(),
            };
            groups.push(group);
        }
    }
    section.ops = ops;
}

/// A group's calls evaluated as one tape: the fused tape of the problem's kernels (shared by
/// every stepper on the problem) and the problem's parameter values (its last input segment),
/// with its own registers and output.
#[derive(Clone, Debug)]
pub struct Fused {
    tape: Arc<Tape>,
    parameters: Vec<f64>,
    registers: Vec<f64>,
    out: Vec<f64>,
}

impl Fused {
    /// The fused `tape` of a group's calls (outputs one after another, in the calls' order),
    /// reading the group's argument slices and then `parameters`.
    pub fn new(tape: Arc<Tape>, parameters: Vec<f64>) -> Fused {
        let out = vec![0.0; tape.outputs()];
        Fused {
            tape,
            parameters,
            registers: Vec::new(),
            out,
        }
    }

    /// The length of the calls' outputs together.
    pub fn outputs(&self) -> usize {
        self.out.len()
    }

    /// The fused tape and the parameter values it reads after the group's arguments.
    pub(crate) fn tape(&self) -> (&Arc<Tape>, &[f64]) {
        (&self.tape, &self.parameters)
    }

    /// Whether `self` and `other` evaluate the same tape, not two copies of it.
    #[cfg(test)]
    pub(crate) fn shares_tape(&self, other: &Fused) -> bool {
        Arc::ptr_eq(&self.tape, &other.tape)
    }

    /// Evaluates the calls on the group's argument slices `args`; their outputs one after
    /// another.
    pub(crate) fn eval(&mut self, args: &[&[f64]]) -> &[f64] {
        let mut segments: [&[f64]; MAX_ARGS + 1] = [&[]; MAX_ARGS + 1];
        let n = args.len().min(MAX_ARGS);
        segments[..n].copy_from_slice(&args[..n]);
        segments[n] = &self.parameters;
        self.tape
            .eval(&segments[..=n], &mut self.registers, &mut self.out);
        &self.out
    }
}
