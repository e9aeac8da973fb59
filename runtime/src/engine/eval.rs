//! Running a [`Program`] on a [`Workspace`]: the operations of one function of the step, then
//! its block additions. Nothing here allocates.

use super::Kernels;
use super::program::{BlockAdd, Op, Program, ScalarSpec, Section, Target, input_offsets};

/// The storage of one evaluation: the arena and the scalars of the current step size, allocated
/// once per engine ([`super::Engine::workspace`]).
#[derive(Clone, Debug)]
pub struct Workspace {
    pub(super) arena: Vec<f64>,
    scalars: Vec<f64>,
    powers: Vec<f64>,
    /// The step size the scalars were computed for (NaN before the first call).
    h: f64,
}

impl Workspace {
    pub(super) fn new(program: &Program) -> Workspace {
        Workspace {
            arena: vec![0.0; program.arena],
            scalars: vec![0.0; program.scalars.len()],
            powers: vec![0.0; program.max_power as usize + 1],
            h: f64::NAN,
        }
    }
}

/// The partial derivatives of one step at run-time sizes (row-major): `∂r/∂q`, `∂r/∂p`
/// (`N × D`), `∂q₁/∂x`, `∂p₁/∂x` (`D × N`) and the explicit `∂(q₁, p₁)/∂(q, p)` (`D × D`), the
/// run-time counterpart of [`crate::stage::TangentBlocks`].
#[derive(Clone, Debug, PartialEq)]
pub struct Tangent {
    /// `∂r/∂q`.
    pub r_q: Vec<f64>,
    /// `∂r/∂p`.
    pub r_p: Vec<f64>,
    /// `∂q₁/∂x`.
    pub q_x: Vec<f64>,
    /// `∂p₁/∂x`.
    pub p_x: Vec<f64>,
    /// `∂q₁/∂q` at fixed x.
    pub q_q: Vec<f64>,
    /// `∂q₁/∂p` at fixed x.
    pub q_p: Vec<f64>,
    /// `∂p₁/∂q` at fixed x.
    pub p_q: Vec<f64>,
    /// `∂p₁/∂p` at fixed x.
    pub p_p: Vec<f64>,
}

impl Tangent {
    /// Zeros for `n` unknowns and `d` coordinates.
    pub fn zero(n: usize, d: usize) -> Tangent {
        Tangent {
            r_q: vec![0.0; n * d],
            r_p: vec![0.0; n * d],
            q_x: vec![0.0; d * n],
            p_x: vec![0.0; d * n],
            q_q: vec![0.0; d * d],
            q_p: vec![0.0; d * d],
            p_q: vec![0.0; d * d],
            p_p: vec![0.0; d * d],
        }
    }

    fn fill(&mut self, value: f64) {
        for part in [
            &mut self.r_q,
            &mut self.r_p,
            &mut self.q_x,
            &mut self.p_x,
            &mut self.q_q,
            &mut self.q_p,
            &mut self.p_q,
            &mut self.p_p,
        ] {
            part.fill(value);
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

/// Loads the inputs and the scalars of `h`.
pub(super) fn load(program: &Program, ws: &mut Workspace, inputs: &Step<'_>) {
    let [q, p, lambda, x] = input_offsets(program.dims);
    let (d, m) = (program.dims.coordinates, program.dims.constraints);
    ws.arena[q..q + d].copy_from_slice(&inputs.q[..d]);
    ws.arena[p..p + d].copy_from_slice(&inputs.p[..d]);
    // λ_n is M long for methods that carry it, empty otherwise (and then never read).
    let read = inputs.lambda.len().min(m);
    ws.arena[lambda..lambda + read].copy_from_slice(&inputs.lambda[..read]);
    ws.arena[lambda + read..lambda + m].fill(0.0);
    ws.arena[x..x + program.n].copy_from_slice(&inputs.x[..program.n]);
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
    for (value, spec) in ws.scalars.iter_mut().zip(&program.scalars) {
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
    }
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
                let terms = &program.terms[first..last];
                for i in 0..len {
                    let mut acc = 0.0;
                    for (k, t) in terms.iter().enumerate() {
                        let x = arena[t.src + i];
                        let product = match t.scalar {
                            Some(s) => x * ws.scalars[s],
                            None => x,
                        };
                        acc = match (k, t.negative) {
                            (0, false) => product,
                            (0, true) => -product,
                            (_, false) => acc + product,
                            (_, true) => acc - product,
                        };
                    }
                    arena[out + i] = acc;
                }
            }
            Op::Vector {
                kernel,
                args,
                out,
                len,
            } => {
                let (inputs, rest) = arena.split_at_mut(out);
                let slices = arguments(inputs, &args);
                problem.vector(kernel, &slices[..args.count], &mut rest[..len]);
            }
            Op::Matrix {
                atom,
                args,
                out,
                len,
            } => {
                let (inputs, rest) = arena.split_at_mut(out);
                let slices = arguments(inputs, &args);
                problem.matrix(atom, &slices[..args.count], &mut rest[..len]);
            }
            Op::MatVec {
                out,
                matrix,
                v,
                len,
                inner,
                out_stride,
                inner_stride,
            } => {
                for i in 0..len {
                    let mut acc = 0.0;
                    for k in 0..inner {
                        acc += arena[matrix + i * out_stride + k * inner_stride] * arena[v + k];
                    }
                    arena[out + i] = acc;
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
            Op::Product {
                out,
                a,
                b,
                rows,
                inner,
                cols,
            } => {
                for r in 0..rows {
                    for c in 0..cols {
                        let mut acc = 0.0;
                        for k in 0..inner {
                            acc += arena[a + r * inner + k] * arena[b + k * cols + c];
                        }
                        arena[out + r * cols + c] = acc;
                    }
                }
            }
            Op::Shift { out, wrap, d } => {
                for r in 0..d {
                    for c in 0..d {
                        let hit = if wrap {
                            r == 0 && c + 1 == d
                        } else {
                            r == c + 1
                        };
                        arena[out + r * d + c] = if hit { 1.0 } else { 0.0 };
                    }
                }
            }
        }
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

/// The rows and columns of a target's matrix, and its storage.
fn target<'a>(
    tangent: &'a mut Option<&mut Tangent>,
    jacobian: &'a mut Option<&mut [f64]>,
    which: Target,
    program: &Program,
) -> Option<(&'a mut [f64], usize)> {
    let (n, d) = (program.n, program.dims.coordinates);
    match which {
        Target::Jacobian => jacobian.as_deref_mut().map(|j| (j, n)),
        other => {
            let t = tangent.as_deref_mut()?;
            Some(match other {
                Target::RQ => (&mut t.r_q[..], d),
                Target::RP => (&mut t.r_p[..], d),
                Target::QX => (&mut t.q_x[..], n),
                Target::PX => (&mut t.p_x[..], n),
                Target::QQ => (&mut t.q_q[..], d),
                Target::QP => (&mut t.q_p[..], d),
                Target::PQ => (&mut t.p_q[..], d),
                Target::PP | Target::Jacobian => (&mut t.p_p[..], d),
            })
        }
    }
}

/// Adds the blocks of `section` into the Jacobian or the tangent (zeroed first).
pub(super) fn add_blocks(
    program: &Program,
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
    for add in &section.adds {
        let BlockAdd {
            target: which,
            row,
            col,
            rows,
            cols,
            source,
            scalar,
            negative,
        } = *add;
        let Some((storage, stride)) = target(&mut tangent, &mut jacobian, which, program) else {
            continue;
        };
        let s = scalar.map_or(1.0, |s| ws.scalars[s]);
        let signed = |v: f64| if negative { -v } else { v };
        match source {
            None => {
                for k in 0..rows {
                    storage[(row + k) * stride + col + k] += signed(s);
                }
            }
            Some(at) => {
                for r in 0..rows {
                    for c in 0..cols {
                        let v = ws.arena[at + r * cols + c];
                        let term = if scalar.is_some() { v * s } else { v };
                        storage[(row + r) * stride + col + c] += signed(term);
                    }
                }
            }
        }
    }
}
