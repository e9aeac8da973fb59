//! Running a [`Program`] on a [`Workspace`]: the operations of one function of the step, then
//! its block additions. Nothing here allocates.

use super::Kernels;
use super::fusion::{Fused, MAX_ARGS};
use super::lower::Outputs;
use super::native::{Native, Part};
use super::program::{Op, Program, ScalarSpec, Section, Target, input_offsets, shift_entry};
pub use crate::stage::Tangent;
use std::sync::Arc;

/// The storage of one evaluation: the arena and the scalars of the current step size, allocated
/// once per engine ([`super::Engine::workspace`]).
#[derive(Clone, Debug)]
pub struct Workspace {
    pub(super) arena: Vec<f64>,
    scalars: Vec<f64>,
    /// `[1, −1, s₀, −s₀, s₁, −s₁, …]`: the coefficients of the block additions' terms.
    signed: Vec<f64>,
    powers: Vec<f64>,
    /// The step size the scalars were computed for (NaN before the first call).
    h: f64,
    /// Whether the residual's operations last ran on the inputs in the arena.
    pub(super) residual_current: bool,
    /// The fused evaluation of each group of kernel calls, where the problem has one
    /// ([`Engine::workspace_for`](super::Engine::workspace_for)).
    pub(super) fused: Vec<Option<Fused>>,
    /// The stage functions as machine code, where the workspace was made for a problem whose
    /// kernels are tapes with [`Backend::Jit`](super::Backend::Jit).
    pub(super) native: Option<Arc<Native>>,
    /// The problem's parameter values as the machine code reads them.
    pub(super) parameters: Vec<f64>,
}

impl Workspace {
    pub(super) fn new(program: &Program) -> Workspace {
        let mut arena = vec![0.0; program.arena];
        arena[program.one] = 1.0;
        let mut signed = vec![0.0; 2 * program.scalars.len() + 2];
        signed[..2].copy_from_slice(&[1.0, -1.0]);
        Workspace {
            arena,
            scalars: vec![0.0; program.scalars.len()],
            signed,
            powers: vec![0.0; program.max_power as usize + 1],
            h: f64::NAN,
            residual_current: false,
            fused: Vec::new(),
            native: None,
            parameters: Vec::new(),
        }
    }
}

/// The inputs of one evaluation: the step `h` from `(q_n, p_n)` (`D` long) with the carried
/// multiplier `λ_n` (`M` long, or empty for a method that carries none) at the unknowns `x`
/// (`N` long).
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    /// The step size h.
    pub h: f64,
    /// `q_n`.
    pub q: &'a [f64],
    /// `p_n`.
    pub p: &'a [f64],
    /// `λ_n`.
    pub lambda: &'a [f64],
    /// The unknowns.
    pub x: &'a [f64],
}

/// Whether `new` equals `old` bit for bit.
fn same(old: &[f64], new: &[f64]) -> bool {
    old.iter().zip(new).all(|(a, b)| a.to_bits() == b.to_bits())
}

/// Loads the inputs and the scalars of `h`; inputs that differ from those in the arena mark the
/// residual's values stale.
pub(super) fn load(program: &Program, ws: &mut Workspace, inputs: &Step<'_>) {
    let [q, p, lambda, x] = input_offsets(program.dims);
    let (d, m, n) = (
        program.dims.coordinates,
        program.dims.constraints,
        program.n,
    );
    // λ_n is M long for methods that carry it, empty otherwise (and then never read).
    let read = inputs.lambda.len().min(m);
    let arena = &mut ws.arena;
    let unchanged = ws.h.to_bits() == inputs.h.to_bits()
        && same(&arena[q..q + d], &inputs.q[..d])
        && same(&arena[p..p + d], &inputs.p[..d])
        && same(&arena[lambda..lambda + read], &inputs.lambda[..read])
        && arena[lambda + read..lambda + m]
            .iter()
            .all(|l| l.to_bits() == 0)
        && same(&arena[x..x + n], &inputs.x[..n]);
    if unchanged {
        return;
    }
    ws.residual_current = false;
    arena[q..q + d].copy_from_slice(&inputs.q[..d]);
    arena[p..p + d].copy_from_slice(&inputs.p[..d]);
    arena[lambda..lambda + read].copy_from_slice(&inputs.lambda[..read]);
    arena[lambda + read..lambda + m].fill(0.0);
    arena[x..x + n].copy_from_slice(&inputs.x[..n]);
    if ws.h.to_bits() != inputs.h.to_bits() {
        scalars(program, ws, inputs.h);
    }
}

/// The powers `h^k` by repeated products (`h2 = h·h`, `h3 = h2·h`, as the emitter binds them)
/// and every scalar of the program.
fn scalars(program: &Program, ws: &mut Workspace, h: f64) {
    ws.h = h;
    let mut power = 1.0;
    for (k, p) in ws.powers.iter_mut().enumerate() {
        *p = match k {
            0 => 1.0,
            1 => h,
            _ => power * h,
        };
        power = *p;
    }
    let magnitude = |m: &super::program::Magnitude| match (m.power, m.literal == 1.0) {
        (0, _) => m.literal,
        (k, true) => ws.powers[k as usize],
        (k, false) => m.literal * ws.powers[k as usize],
    };
    for ((value, spec), signed) in ws
        .scalars
        .iter_mut()
        .zip(&program.scalars)
        .zip(ws.signed[2..].chunks_exact_mut(2))
    {
        *value = match spec {
            ScalarSpec::Magnitude(m) => magnitude(m),
            ScalarSpec::Poly(parts) => {
                parts
                    .iter()
                    .enumerate()
                    .fold(0.0, |acc, (i, (m, neg))| match (i, *neg) {
                        (0, false) => magnitude(m),
                        (0, true) => -magnitude(m),
                        (_, false) => acc + magnitude(m),
                        (_, true) => acc - magnitude(m),
                    })
            }
        };
        signed.copy_from_slice(&[*value, -*value]);
    }
}

impl Workspace {
    /// The back end that evaluates the stage functions on this workspace.
    pub fn backend(&self) -> super::Backend {
        match self.native {
            Some(_) => super::Backend::Jit,
            None => super::Backend::Interpreter,
        }
    }

    /// Seconds spent compiling the stage functions this workspace runs (shared with every
    /// workspace of the same engine and problem), so far.
    pub fn compile_seconds(&self) -> f64 {
        self.native.as_ref().map_or(0.0, |n| n.compile_seconds())
    }
}

/// Runs the function `part` of the step, adding its blocks into `jacobian` or `tangent`: as
/// machine code where the workspace has it, else by [`run`] and [`add_blocks`] (the same
/// results bit for bit, [`super::lower`]).
pub(super) fn evaluate<K: Kernels + ?Sized>(
    program: &Program,
    part: Part,
    ws: &mut Workspace,
    problem: &K,
    mut jacobian: Option<&mut [f64]>,
    mut tangent: Option<&mut Tangent>,
) {
    let (section, outputs) = part.section(program);
    if let Workspace {
        native: Some(native),
        arena,
        signed,
        parameters,
        ..
    } = ws
    {
        let inputs = (&signed[..], &parameters[..]);
        let ran = match (outputs, jacobian.as_deref_mut(), tangent.as_deref_mut()) {
            (Outputs::Arena, ..) => native.run(part, inputs, arena, &mut []),
            (Outputs::Jacobian, Some(j), _) => {
                j.fill(0.0);
                native.run(part, inputs, arena, &mut [j])
            }
            (Outputs::Tangent, _, Some(t)) => {
                t.fill(0.0);
                let Tangent {
                    r_q,
                    r_p,
                    q_x,
                    p_x,
                    q_q,
                    q_p,
                    p_q,
                    p_p,
                } = t;
                let mut targets: [&mut [f64]; 8] = [r_q, r_p, q_x, p_x, q_q, q_p, p_q, p_p];
                native.run(part, inputs, arena, &mut targets)
            }
            _ => false,
        };
        if ran {
            return;
        }
    }
    run(program, section, ws, problem);
    add_blocks(section, ws, jacobian, tangent);
}

/// Runs the operations of `section`.
pub(super) fn run<K: Kernels + ?Sized>(
    program: &Program,
    section: &Section,
    ws: &mut Workspace,
    problem: &K,
) {
    let arena = &mut ws.arena;
    for op in &section.ops {
        match *op {
            Op::Zero { out, len } => arena[out..out + len].fill(0.0),
            Op::Linear {
                out,
                len,
                first,
                last,
            } => {
                // `± x·s` as `x·(±s)` and `± x` as `x·(±1)`: equal in IEEE arithmetic, summed
                // left to right in each entry, without a branch per entry.
                let coefficient = |t: &super::program::LinearTerm| {
                    let s = t.scalar.map_or(1.0, |s| ws.scalars[s]);
                    if t.negative { -s } else { s }
                };
                let target = out..out + len;
                match program.terms[first..last].split_first() {
                    None => arena[target].fill(0.0),
                    Some((head, tail)) => {
                        let c = coefficient(head);
                        for i in 0..len {
                            arena[out + i] = arena[head.src + i] * c;
                        }
                        for t in tail {
                            let c = coefficient(t);
                            for i in 0..len {
                                arena[out + i] += arena[t.src + i] * c;
                            }
                        }
                    }
                }
            }
            Op::Vector { .. } | Op::Matrix { .. } => call(op, arena, problem),
            Op::Fused { group: index } => {
                let group = &program.groups[index];
                match ws.fused.get_mut(index).and_then(Option::as_mut) {
                    Some(fused) => {
                        let mut args: [&[f64]; MAX_ARGS] = [&[]; MAX_ARGS];
                        for (slice, &(at, len)) in args.iter_mut().zip(&group.args) {
                            *slice = &arena[at..at + len];
                        }
                        let values = fused.eval(&args[..group.args.len()]);
                        let mut from = 0;
                        for op in &group.ops {
                            if let Op::Vector { out, len, .. } | Op::Matrix { out, len, .. } = *op {
                                arena[out..out + len].copy_from_slice(&values[from..from + len]);
                                from += len;
                            }
                        }
                    }
                    None => {
                        for op in &group.ops {
                            call(op, arena, problem);
                        }
                    }
                }
            }
            Op::MatVec { .. } | Op::Product { .. } => {
                let Some(dot) = op.dot() else { continue };
                for r in 0..dot.rows {
                    for c in 0..dot.cols {
                        let (out, factors) = dot.entry(r, c);
                        let mut acc = 0.0;
                        for (x, y) in factors {
                            acc += arena[x] * arena[y];
                        }
                        arena[out] = acc;
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
                        arena[out + c * rows + r] = arena[matrix + r * cols + c];
                    }
                }
            }
            Op::Shift { out, wrap, d } => {
                for r in 0..d {
                    for c in 0..d {
                        arena[out + r * d + c] = shift_entry(wrap, d, r, c);
                    }
                }
            }
        }
    }
}

/// The problem's kernel that `op` calls, on the arena (nothing for another operation).
fn call<K: Kernels + ?Sized>(op: &Op, arena: &mut [f64], problem: &K) {
    let (Op::Vector { args, out, len, .. } | Op::Matrix { args, out, len, .. }) = *op else {
        return;
    };
    let (inputs, rest) = arena.split_at_mut(out);
    let slices = arguments(inputs, &args);
    let (slices, out) = (&slices[..args.count], &mut rest[..len]);
    match *op {
        Op::Vector { kernel, .. } => problem.vector(kernel, slices, out),
        Op::Matrix { atom, .. } => problem.matrix(atom, slices, out),
        _ => {}
    }
}

/// The argument slices of a kernel call (all before its output in the arena).
fn arguments<'a>(inputs: &'a [f64], args: &super::program::Args) -> [&'a [f64]; 4] {
    let mut slices: [&[f64]; 4] = [&[]; 4];
    for (k, slice) in slices.iter_mut().enumerate().take(args.count) {
        let at = args.offsets[k];
        *slice = &inputs[at..at + args.lens[k]];
    }
    slices
}

/// The storage of a target's matrix.
fn target<'a>(
    tangent: &'a mut Option<&mut Tangent>,
    jacobian: &'a mut Option<&mut [f64]>,
    which: Target,
) -> Option<&'a mut [f64]> {
    match which {
        Target::Jacobian => jacobian.as_deref_mut(),
        other => {
            let t = tangent.as_deref_mut()?;
            Some(match other {
                Target::RQ => &mut t.r_q[..],
                Target::RP => &mut t.r_p[..],
                Target::QX => &mut t.q_x[..],
                Target::PX => &mut t.p_x[..],
                Target::QQ => &mut t.q_q[..],
                Target::QP => &mut t.q_p[..],
                Target::PQ => &mut t.p_q[..],
                Target::PP | Target::Jacobian => &mut t.p_p[..],
            })
        }
    }
}

/// Adds the blocks of `section` into the Jacobian or the tangent (zeroed first), term by term
/// ([`super::program::Cell`]): `± v·s` as `v·(±s)` and an identity's `± s` as `1·(±s)`, equal
/// in IEEE arithmetic.
pub(super) fn add_blocks(
    section: &Section,
    ws: &Workspace,
    mut jacobian: Option<&mut [f64]>,
    mut tangent: Option<&mut Tangent>,
) {
    if let Some(j) = jacobian.as_deref_mut() {
        j.fill(0.0);
    }
    if let Some(t) = tangent.as_deref_mut() {
        t.fill(0.0);
    }
    for (which, cells) in &section.cells {
        let Some(storage) = target(&mut tangent, &mut jacobian, *which) else {
            continue;
        };
        for cell in cells {
            storage[cell.at] += ws.arena[cell.source] * ws.signed[cell.coefficient];
        }
    }
}
