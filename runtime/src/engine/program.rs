//! A method description compiled once for the widths `(D, M)`: flat operations on one arena of
//! `f64`, per function of the step (residual, Jacobian, tangent partials, update).
//!
//! The arena holds `[q_n | p_n | λ_n | x | values | matrices]`. A value of the description is
//! one slot of its width; a matrix (a kernel partial `J(Q_i)`, `∇²H(Q_i)`, …, or a product of
//! them) one slot of `rows × cols`, row-major. Each function evaluates, in the description's
//! order, only the values and matrices it needs (the emitter's choice, [`Method::needed`]), and
//! the Jacobian and tangent add each nonzero block `∂row/∂var = Σ_m (Σ_k c_k h^k) A₁A₂⋯` of the
//! chain rule ([`sparkgen_description::jacobian`]) into their targets. Coefficients enter as
//! the emitter rounds them: `|c|·h^k` with the sign kept apart, `h^k` by repeated products.

use super::fusion::{self, Group};
use sparkgen_core::layout::{Dims, Layout};
use sparkgen_description::jacobian::{Derivative, HPoly, Jacobian, Monomial, Var};
use sparkgen_description::structure::{AtomKind, Expr, Input, Kernel, Method, Shift, Term, Width};
use sparkgen_description::{DoubleDouble, Scalar};
use std::collections::{BTreeMap, BTreeSet};

/// `|c|·h^k`: the literal `|c|` times the power `k` of h, as the emitter writes a coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Magnitude {
    pub literal: f64,
    pub power: u32,
}

/// A scalar evaluated once per call from h: a magnitude, or a polynomial `Σ ±|c_k|·h^k` summed
/// left to right.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ScalarSpec {
    Magnitude(Magnitude),
    Poly(Vec<(Magnitude, bool)>),
}

/// A term `± src · s` of a linear combination (`s` absent: the factor 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LinearTerm {
    pub src: usize,
    pub scalar: Option<usize>,
    pub negative: bool,
}

/// The arguments of a kernel call: arena offsets and lengths.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Args {
    pub offsets: [usize; 4],
    pub lens: [usize; 4],
    pub count: usize,
}

/// One operation on the arena.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    /// `arena[out..out+len] = 0`.
    Zero { out: usize, len: usize },
    /// `arena[out..] = Σ terms[first..last]`.
    Linear {
        out: usize,
        len: usize,
        first: usize,
        last: usize,
    },
    /// A vector kernel of the problem.
    Vector {
        kernel: Kernel,
        args: Args,
        out: usize,
        len: usize,
    },
    /// A matrix kernel (partial) of the problem.
    Matrix {
        atom: AtomKind,
        args: Args,
        out: usize,
        len: usize,
    },
    /// `out_i = Σ_k A[i·out_stride + k·inner_stride] v_k` (`i < len`, `k < inner`): `A v` of a
    /// row-major `len × inner` matrix (strides `inner`, 1) or `Aᵀ v` of a row-major
    /// `inner × len` one (strides 1, `len`).
    MatVec {
        out: usize,
        matrix: usize,
        v: usize,
        len: usize,
        inner: usize,
        out_stride: usize,
        inner_stride: usize,
    },
    /// `out = Aᵀ` (`cols × rows`).
    Transpose {
        out: usize,
        matrix: usize,
        rows: usize,
        cols: usize,
    },
    /// `out = A B` for `A` `rows × inner`, `B` `inner × cols`.
    Product {
        out: usize,
        a: usize,
        b: usize,
        rows: usize,
        inner: usize,
        cols: usize,
    },
    /// The constant `D × D` matrix of a component shift Σ.
    Shift { out: usize, wrap: bool, d: usize },
    /// The kernel calls of [`Program::groups`]`[group]` at one point, evaluated together
    /// ([`super::fusion`]).
    Fused { group: usize },
}

/// Entry `(r, c)` of the `d × d` matrix of a component shift Σ ([`Op::Shift`]): 1 on the
/// subdiagonal, or (`wrap`) at the top right, 0 elsewhere.
pub(crate) fn shift_entry(wrap: bool, d: usize, r: usize, c: usize) -> f64 {
    let hit = if wrap {
        r == 0 && c + 1 == d
    } else {
        r == c + 1
    };
    if hit { 1.0 } else { 0.0 }
}

/// A matrix product as sums of products of arena slots: entry `(r, c)` of an output of
/// `rows × cols`, at `out + r·cols + c`, is `Σ_k x[x₀ + r·x_r + k·x_k] · y[y₀ + k·y_k + c·y_c]`,
/// summed from `k = 0` ([`Op::MatVec`] with `cols = 1`, [`Op::Product`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dot {
    pub out: usize,
    pub rows: usize,
    pub cols: usize,
    pub inner: usize,
    x: (usize, usize, usize),
    y: (usize, usize, usize),
}

impl Dot {
    /// The output slot of entry `(r, c)` and the slots of its factors, in summation order.
    pub(crate) fn entry(
        &self,
        r: usize,
        c: usize,
    ) -> (usize, impl Iterator<Item = (usize, usize)>) {
        let ((x, x_r, x_k), (y, y_k, y_c)) = (self.x, self.y);
        let factors = (0..self.inner).map(move |k| (x + r * x_r + k * x_k, y + k * y_k + c * y_c));
        (self.out + r * self.cols + c, factors)
    }
}

/// Where a derivative block goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// `∂r/∂x`, `N × N`.
    Jacobian,
    /// `∂r/∂q`, `N × D`.
    RQ,
    /// `∂r/∂p`, `N × D`.
    RP,
    /// `∂q₁/∂x`, `D × N`.
    QX,
    /// `∂p₁/∂x`, `D × N`.
    PX,
    /// `∂q₁/∂q`, `∂q₁/∂p`, `∂p₁/∂q`, `∂p₁/∂p`, `D × D`.
    QQ,
    QP,
    PQ,
    PP,
}

/// `target[row.., col..] += ± s · source` (`source` absent: the identity).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockAdd {
    pub target: Target,
    pub row: usize,
    pub col: usize,
    pub rows: usize,
    pub cols: usize,
    pub source: Option<usize>,
    pub scalar: Option<usize>,
    pub negative: bool,
}

/// One term `target[at] += arena[source] · signed[coefficient]` of a block addition, with
/// `signed = [1, −1, s₀, −s₀, s₁, −s₁, …]` from the scalars `s_k` of the step size (an identity
/// block's `source` is the arena's constant 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    pub at: usize,
    pub source: usize,
    pub coefficient: usize,
}

/// The operations of one function of the step: the values and matrices it needs, then the
/// block additions of its partials, and the same additions as the terms of each target's
/// entries (in the order of the additions, so that every entry sums its terms in that order).
#[derive(Clone, Debug, Default)]
pub(crate) struct Section {
    pub ops: Vec<Op>,
    pub adds: Vec<BlockAdd>,
    pub cells: Vec<(Target, Vec<Cell>)>,
}

impl Section {
    /// Writes [`Section::cells`] from the additions, for `n` unknowns and `d` coordinates and
    /// the arena's constant 1 at `one`.
    fn flatten(&mut self, one: usize, n: usize, d: usize) {
        let mut cells: Vec<(Target, Vec<Cell>)> = Vec::new();
        for add in &self.adds {
            let stride = match add.target {
                Target::Jacobian | Target::QX | Target::PX => n,
                _ => d,
            };
            let coefficient = add.scalar.map_or(0, |s| 2 + 2 * s) + usize::from(add.negative);
            let k = match cells.iter().position(|(t, _)| *t == add.target) {
                Some(k) => k,
                None => {
                    cells.push((add.target, Vec::new()));
                    cells.len() - 1
                }
            };
            let list = &mut cells[k].1;
            let at = |r: usize, c: usize| (add.row + r) * stride + add.col + c;
            match add.source {
                None => list.extend((0..add.rows).map(|k| Cell {
                    at: at(k, k),
                    source: one,
                    coefficient,
                })),
                Some(source) => {
                    for r in 0..add.rows {
                        list.extend((0..add.cols).map(|c| Cell {
                            at: at(r, c),
                            source: source + r * add.cols + c,
                            coefficient,
                        }));
                    }
                }
            }
        }
        self.cells = cells;
    }
}

impl Op {
    /// A `MatVec` or `Product` as its sums of products.
    pub(crate) fn dot(&self) -> Option<Dot> {
        match *self {
            Op::MatVec {
                out,
                matrix,
                v,
                len,
                inner,
                out_stride,
                inner_stride,
            } => Some(Dot {
                out,
                rows: len,
                cols: 1,
                inner,
                x: (matrix, out_stride, inner_stride),
                y: (v, 1, 0),
            }),
            Op::Product {
                out,
                a,
                b,
                rows,
                inner,
                cols,
            } => Some(Dot {
                out,
                rows,
                cols,
                inner,
                x: (a, inner, 1),
                y: (b, cols, 1),
            }),
            _ => None,
        }
    }

    /// The arena offset the operation writes; `None` for a group, which writes several.
    pub(crate) fn out(&self) -> Option<usize> {
        match *self {
            Op::Zero { out, .. }
            | Op::Linear { out, .. }
            | Op::Vector { out, .. }
            | Op::Matrix { out, .. }
            | Op::MatVec { out, .. }
            | Op::Transpose { out, .. }
            | Op::Product { out, .. }
            | Op::Shift { out, .. } => Some(out),
            Op::Fused { .. } => None,
        }
    }
}

/// A function of the step's partials: its whole section, and the same without the operations
/// of the residual's section, for inputs whose residual was the last evaluation (every slot
/// holds one value or matrix, so those slots still hold what the operations would write).
#[derive(Clone, Debug, Default)]
pub(crate) struct Partials {
    pub full: Section,
    pub after_residual: Section,
}

impl Partials {
    /// The whole section, or (`after_residual`) the one after the residual.
    pub(crate) fn get(&self, after_residual: bool) -> &Section {
        if after_residual {
            &self.after_residual
        } else {
            &self.full
        }
    }

    fn new(mut full: Section, residual: &Section, (one, n, d): (usize, usize, usize)) -> Partials {
        full.flatten(one, n, d);
        let written: BTreeSet<usize> = residual.ops.iter().filter_map(Op::out).collect();
        let after_residual = Section {
            ops: full
                .ops
                .iter()
                .filter(|op| op.out().is_none_or(|out| !written.contains(&out)))
                .copied()
                .collect(),
            ..full.clone()
        };
        Partials {
            full,
            after_residual,
        }
    }
}

/// A compiled method.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub dims: Dims,
    /// Unknowns (and residual rows) N.
    pub n: usize,
    pub arena: usize,
    /// The arena's constant 1.
    pub one: usize,
    pub terms: Vec<LinearTerm>,
    pub scalars: Vec<ScalarSpec>,
    pub max_power: u32,
    /// `(arena offset, residual offset, length)` of every residual row.
    pub stores: Vec<(usize, usize, usize)>,
    /// Arena offsets of `q_{n+1}` and `p_{n+1}`.
    pub q_next: usize,
    pub p_next: usize,
    pub residual: Section,
    pub jacobian: Partials,
    /// Every partial of the tangent map.
    pub tangent: Partials,
    /// Only `∂r/∂q` and `∂r/∂p`, which the row scales read.
    pub scales: Partials,
    pub update: Section,
    /// The kernel calls the sections evaluate together ([`Op::Fused`]).
    pub groups: Vec<Group>,
}

impl Program {
    /// Every section of the program.
    pub(crate) fn sections(&self) -> impl Iterator<Item = &Section> {
        [&self.residual, &self.update].into_iter().chain(
            [&self.jacobian, &self.tangent, &self.scales]
                .into_iter()
                .flat_map(|p| [&p.full, &p.after_residual]),
        )
    }
}

/// `out = A v` for the row-major `rows × cols` matrix `A` at `matrix`.
fn times(out: usize, matrix: usize, v: usize, rows: usize, cols: usize) -> Op {
    Op::MatVec {
        out,
        matrix,
        v,
        len: rows,
        inner: cols,
        out_stride: cols,
        inner_stride: 1,
    }
}

/// The arena offsets of the step inputs (`x` follows `λ_n`).
pub(crate) fn input_offsets(dims: Dims) -> [usize; 4] {
    let d = dims.coordinates;
    [0, d, 2 * d, 2 * d + dims.constraints]
}

struct Builder<'a> {
    method: &'a Method<DoubleDouble>,
    dims: Dims,
    unknowns: Layout,
    arena: usize,
    value_slots: Vec<usize>,
    /// `J(q)` per argument term, `M⁻¹`, the atoms and the products of atoms.
    jac_slots: BTreeMap<Term, usize>,
    minv: Option<usize>,
    atom_slots: BTreeMap<usize, usize>,
    product_slots: BTreeMap<Monomial, usize>,
    terms: Vec<LinearTerm>,
    scalars: Vec<ScalarSpec>,
    max_power: u32,
}

/// What one section has computed already.
#[derive(Default)]
struct Done {
    values: BTreeSet<usize>,
    jacs: BTreeSet<Term>,
    minv: bool,
    atoms: BTreeSet<usize>,
    products: BTreeSet<Monomial>,
}

impl Builder<'_> {
    fn allocate(&mut self, len: usize) -> usize {
        let at = self.arena;
        self.arena += len;
        at
    }

    fn width(&self, w: Width) -> usize {
        self.dims.of(super::layout::width(w))
    }

    fn term_width(&self, t: Term) -> usize {
        self.width(self.method.width(t))
    }

    fn offset(&self, t: Term) -> usize {
        let [q, p, lambda, x] = input_offsets(self.dims);
        match t {
            Term::Input(Input::Q) => q,
            Term::Input(Input::P) => p,
            Term::Input(Input::Lambda) => lambda,
            Term::Unknown { block, stage } => x + self.unknowns.offset(block, stage, self.dims),
            Term::Value(v) => self.value_slots[v],
        }
    }

    fn scalar(&mut self, spec: ScalarSpec) -> usize {
        let powers = match &spec {
            ScalarSpec::Magnitude(m) => vec![m.power],
            ScalarSpec::Poly(parts) => parts.iter().map(|(m, _)| m.power).collect(),
        };
        self.max_power = powers.into_iter().fold(self.max_power, u32::max);
        match self.scalars.iter().position(|s| *s == spec) {
            Some(i) => i,
            None => {
                self.scalars.push(spec);
                self.scalars.len() - 1
            }
        }
    }

    /// `|c|·h^k` and the sign of `c`; `None` for the factor 1.
    fn magnitude(&mut self, c: &DoubleDouble, power: u32) -> (Option<usize>, bool) {
        let v = c.to_f64();
        let literal = v.abs();
        let scalar = (power != 0 || literal != 1.0)
            .then(|| self.scalar(ScalarSpec::Magnitude(Magnitude { literal, power })));
        (scalar, v < 0.0)
    }

    fn args(&self, terms: &[Term]) -> Args {
        let mut args = Args {
            offsets: [0; 4],
            lens: [0; 4],
            count: terms.len().min(4),
        };
        for (k, t) in terms.iter().take(4).enumerate() {
            args.offsets[k] = self.offset(*t);
            args.lens[k] = self.term_width(*t);
        }
        args
    }

    /// `J(q)` in the section, evaluated once per argument.
    fn jac(&mut self, q: Term, section: &mut Section, done: &mut Done) -> usize {
        let (m, d) = (self.dims.constraints, self.dims.coordinates);
        let slot = match self.jac_slots.get(&q) {
            Some(&slot) => slot,
            None => {
                let slot = self.allocate(m * d);
                self.jac_slots.insert(q, slot);
                slot
            }
        };
        if done.jacs.insert(q) {
            section.ops.push(Op::Matrix {
                atom: AtomKind::J,
                args: self.args(&[q]),
                out: slot,
                len: m * d,
            });
        }
        slot
    }

    /// `M⁻¹` in the section.
    fn minv(&mut self, section: &mut Section, done: &mut Done) -> usize {
        let d = self.dims.coordinates;
        let slot = match self.minv {
            Some(slot) => slot,
            None => {
                let slot = self.allocate(d * d);
                self.minv = Some(slot);
                slot
            }
        };
        if !done.minv {
            done.minv = true;
            section.ops.push(Op::Matrix {
                atom: AtomKind::MassInverse,
                args: self.args(&[]),
                out: slot,
                len: d * d,
            });
        }
        slot
    }

    /// The values `roots` need, in order.
    fn values(&mut self, roots: impl IntoIterator<Item = Term>, s: &mut Section, done: &mut Done) {
        let (d, m) = (self.dims.coordinates, self.dims.constraints);
        let method = self.method;
        for v in method.needed(roots) {
            if !done.values.insert(v) {
                continue;
            }
            let out = self.value_slots[v];
            let len = self.term_width(Term::Value(v));
            let op = match &method.values[v].expr {
                Expr::Linear(terms) if terms.is_empty() => Op::Zero { out, len },
                Expr::Linear(terms) => {
                    let first = self.terms.len();
                    for (c, t) in terms {
                        let (scalar, negative) = self.magnitude(&c.value, c.h_power);
                        let src = self.offset(*t);
                        self.terms.push(LinearTerm {
                            src,
                            scalar,
                            negative,
                        });
                    }
                    let last = self.terms.len();
                    Op::Linear {
                        out,
                        len,
                        first,
                        last,
                    }
                }
                Expr::Kernel(kernel, args) => match *kernel {
                    Kernel::Map | Kernel::Gradient | Kernel::Dae(_) => Op::Vector {
                        kernel: *kernel,
                        args: self.args(args),
                        out,
                        len,
                    },
                    // Jᵀw of the M × D matrix J(q).
                    Kernel::JacT => Op::MatVec {
                        out,
                        matrix: self.jac(args[0], s, done),
                        v: self.offset(args[1]),
                        len: d,
                        inner: m,
                        out_stride: 1,
                        inner_stride: d,
                    },
                    Kernel::Jac => {
                        times(out, self.jac(args[0], s, done), self.offset(args[1]), m, d)
                    }
                    Kernel::Velocity => times(out, self.minv(s, done), self.offset(args[0]), d, d),
                    Kernel::Shift(shift) => {
                        let matrix = self.allocate(d * d);
                        s.ops.push(Op::Shift {
                            out: matrix,
                            wrap: shift == Shift::Wrap,
                            d,
                        });
                        times(out, matrix, self.offset(args[0]), d, d)
                    }
                },
            };
            s.ops.push(op);
        }
    }

    /// `(rows, cols)` of an atom.
    fn atom_shape(&self, jac: &Jacobian<DoubleDouble>, a: usize) -> (usize, usize) {
        let (d, m) = (self.dims.coordinates, self.dims.constraints);
        let atom = &jac.atoms[a];
        match atom.kind {
            AtomKind::J | AtomKind::DJac => (m, d),
            AtomKind::JT => (d, m),
            AtomKind::Hessian | AtomKind::DJacT | AtomKind::MassInverse | AtomKind::Shift(_) => {
                (d, d)
            }
            AtomKind::DaePartial(f, k) => (
                self.width(Kernel::Dae(f).width()),
                self.term_width(atom.args[k]),
            ),
        }
    }

    /// The atom `a` in the section.
    fn atom(
        &mut self,
        jac: &Jacobian<DoubleDouble>,
        a: usize,
        s: &mut Section,
        done: &mut Done,
    ) -> usize {
        let atom = &jac.atoms[a];
        let (rows, cols) = self.atom_shape(jac, a);
        match atom.kind {
            AtomKind::J => return self.jac(atom.args[0], s, done),
            AtomKind::MassInverse => return self.minv(s, done),
            _ => {}
        }
        let slot = match self.atom_slots.get(&a) {
            Some(&slot) => slot,
            None => {
                let slot = self.allocate(rows * cols);
                self.atom_slots.insert(a, slot);
                slot
            }
        };
        if done.atoms.insert(a) {
            let op = match atom.kind {
                AtomKind::JT => Op::Transpose {
                    out: slot,
                    matrix: self.jac(atom.args[0], s, done),
                    rows: cols,
                    cols: rows,
                },
                AtomKind::Shift(shift) => Op::Shift {
                    out: slot,
                    wrap: shift == Shift::Wrap,
                    d: rows,
                },
                kind => Op::Matrix {
                    atom: kind,
                    args: self.args(&atom.args),
                    out: slot,
                    len: rows * cols,
                },
            };
            s.ops.push(op);
        }
        slot
    }

    /// The product `A₁A₂⋯` of a monomial in the section, by prefixes; its slot and shape.
    fn product(
        &mut self,
        jac: &Jacobian<DoubleDouble>,
        mono: &[usize],
        s: &mut Section,
        done: &mut Done,
    ) -> (usize, usize, usize) {
        let (rows, _) = self.atom_shape(jac, mono[0]);
        let (_, cols) = self.atom_shape(jac, mono[mono.len() - 1]);
        if let [a] = mono {
            return (self.atom(jac, *a, s, done), rows, cols);
        }
        let (prefix, inner) = {
            let (p, r, c) = self.product(jac, &mono[..mono.len() - 1], s, done);
            debug_assert_eq!(r, rows);
            (p, c)
        };
        let last = self.atom(jac, mono[mono.len() - 1], s, done);
        let key = mono.to_vec();
        let slot = match self.product_slots.get(&key) {
            Some(&slot) => slot,
            None => {
                let slot = self.allocate(rows * cols);
                self.product_slots.insert(key.clone(), slot);
                slot
            }
        };
        if done.products.insert(key) {
            s.ops.push(Op::Product {
                out: slot,
                a: prefix,
                b: last,
                rows,
                inner,
                cols,
            });
        }
        (slot, rows, cols)
    }

    /// Adds the blocks of `derivative` at `(row, col)` of `target`; the identity block has
    /// the width of `var`.
    #[allow(clippy::too_many_arguments)]
    fn blocks(
        &mut self,
        jac: &Jacobian<DoubleDouble>,
        derivative: &Derivative<DoubleDouble>,
        target: Target,
        row: usize,
        col: usize,
        var_width: usize,
        s: &mut Section,
        done: &mut Done,
    ) {
        for (mono, poly) in derivative {
            let (scalar, negative) = self.poly(poly);
            let (source, rows, cols) = if mono.is_empty() {
                (None, var_width, var_width)
            } else {
                let (slot, rows, cols) = self.product(jac, mono, s, done);
                (Some(slot), rows, cols)
            };
            s.adds.push(BlockAdd {
                target,
                row,
                col,
                rows,
                cols,
                source,
                scalar,
                negative,
            });
        }
    }

    /// A polynomial `Σ c_k h^k` as a scalar and a sign: one term as its magnitude, several as
    /// their signed sum.
    fn poly(&mut self, poly: &HPoly<DoubleDouble>) -> (Option<usize>, bool) {
        match poly.iter().next() {
            Some((k, c)) if poly.len() == 1 => self.magnitude(c, *k),
            _ => {
                let parts = poly
                    .iter()
                    .map(|(k, c)| {
                        let v = c.to_f64();
                        let magnitude = Magnitude {
                            literal: v.abs(),
                            power: *k,
                        };
                        (magnitude, v < 0.0)
                    })
                    .collect();
                (Some(self.scalar(ScalarSpec::Poly(parts))), false)
            }
        }
    }

    /// The values and matrices the atoms of `derivatives` need, then their blocks.
    fn derivative_section(
        &mut self,
        jac: &Jacobian<DoubleDouble>,
        items: &[(Target, usize, usize, usize, &Derivative<DoubleDouble>)],
    ) -> Section {
        let mut s = Section::default();
        let mut done = Done::default();
        let atoms: BTreeSet<usize> = items
            .iter()
            .flat_map(|(.., d)| d.keys().flatten().copied())
            .collect();
        let args: Vec<Term> = atoms
            .iter()
            .flat_map(|&a| jac.atoms[a].args.clone())
            .collect();
        self.values(args, &mut s, &mut done);
        for &(target, row, col, width, derivative) in items {
            self.blocks(jac, derivative, target, row, col, width, &mut s, &mut done);
        }
        s
    }
}

/// Compiles `method` (its coefficients double-double, as the emitter reads them, and its
/// derivatives `jac` by `sparkgen_description::jacobian::jacobian`) for `dims` with the unknown
/// and residual layouts `unknowns`, `residuals`.
pub(crate) fn compile(
    method: &Method<DoubleDouble>,
    jac: &Jacobian<DoubleDouble>,
    dims: Dims,
    unknowns: Layout,
    residuals: Layout,
) -> Program {
    let n = unknowns.len(dims);
    let start = input_offsets(dims)[3] + n;
    let mut b = Builder {
        method,
        dims,
        unknowns,
        arena: start,
        value_slots: Vec::new(),
        jac_slots: BTreeMap::new(),
        minv: None,
        atom_slots: BTreeMap::new(),
        product_slots: BTreeMap::new(),
        terms: Vec::new(),
        scalars: Vec::new(),
        max_power: 1,
    };
    let one = b.allocate(1);
    for v in 0..method.values.len() {
        let len = b.term_width(Term::Value(v));
        let slot = b.allocate(len);
        b.value_slots.push(slot);
    }
    let row_offset =
        |row: &sparkgen_description::structure::Row| residuals.offset(row.block, row.stage, dims);
    // Residual.
    let mut residual = Section::default();
    let mut done = Done::default();
    b.values(
        method.rows.iter().map(|r| Term::Value(r.value)),
        &mut residual,
        &mut done,
    );
    let stores = method
        .rows
        .iter()
        .map(|row| {
            let len = b.width(method.rows_layout[row.block].width);
            (b.value_slots[row.value], row_offset(row), len)
        })
        .collect();
    // Update.
    let mut update = Section::default();
    let mut done = Done::default();
    b.values(
        [Term::Value(method.q_next), Term::Value(method.p_next)],
        &mut update,
        &mut done,
    );
    // Jacobian and tangent.
    let d = dims.coordinates;
    let var_width = |b: &Builder<'_>, var: &Var| match var {
        Var::Unknown(block, _) => b.width(b.method.blocks[*block].width),
        Var::Input(Input::Lambda) => dims.constraints,
        Var::Input(_) => d,
    };
    let mut jacobian_items = Vec::new();
    let mut tangent_items = Vec::new();
    for (row, gradient) in method.rows.iter().zip(&jac.rows) {
        for (var, derivative) in gradient {
            let width = var_width(&b, var);
            match *var {
                Var::Unknown(block, stage) => jacobian_items.push((
                    Target::Jacobian,
                    row_offset(row),
                    unknowns.offset(block, stage, dims),
                    width,
                    derivative,
                )),
                Var::Input(Input::Q) => {
                    tangent_items.push((Target::RQ, row_offset(row), 0, width, derivative))
                }
                Var::Input(Input::P) => {
                    tangent_items.push((Target::RP, row_offset(row), 0, width, derivative))
                }
                Var::Input(Input::Lambda) => {}
            }
        }
    }
    for (k, gradient) in jac.update.iter().enumerate() {
        for (var, derivative) in gradient {
            let width = var_width(&b, var);
            let (target, col) = match (k, *var) {
                (0, Var::Unknown(bl, st)) => (Target::QX, unknowns.offset(bl, st, dims)),
                (_, Var::Unknown(bl, st)) => (Target::PX, unknowns.offset(bl, st, dims)),
                (0, Var::Input(Input::Q)) => (Target::QQ, 0),
                (0, Var::Input(Input::P)) => (Target::QP, 0),
                (_, Var::Input(Input::Q)) => (Target::PQ, 0),
                (_, Var::Input(Input::P)) => (Target::PP, 0),
                (_, Var::Input(Input::Lambda)) => continue,
            };
            tangent_items.push((target, 0, col, width, derivative));
        }
    }
    let residual_rows = |item: &&(Target, usize, usize, usize, &Derivative<DoubleDouble>)| {
        matches!(item.0, Target::RQ | Target::RP)
    };
    let scale_items: Vec<_> = tangent_items
        .iter()
        .filter(residual_rows)
        .copied()
        .collect();
    let sizes = (one, n, d);
    let jacobian = Partials::new(b.derivative_section(jac, &jacobian_items), &residual, sizes);
    let tangent = Partials::new(b.derivative_section(jac, &tangent_items), &residual, sizes);
    let scales = Partials::new(b.derivative_section(jac, &scale_items), &residual, sizes);
    let (mut residual, mut update) = (residual, update);
    let (mut jacobian, mut tangent, mut scales) = (jacobian, tangent, scales);
    let mut groups = Vec::new();
    for section in [&mut residual, &mut update].into_iter().chain(
        [&mut jacobian, &mut tangent, &mut scales]
            .into_iter()
            .flat_map(|p| [&mut p.full, &mut p.after_residual]),
    ) {
        fusion::fuse(section, &mut groups);
    }
    Program {
        dims,
        n,
        arena: b.arena,
        one,
        terms: b.terms,
        scalars: b.scalars,
        max_power: b.max_power,
        stores,
        q_next: b.value_slots[method.q_next],
        p_next: b.value_slots[method.p_next],
        residual,
        jacobian,
        tangent,
        scales,
        update,
        groups,
    }
}
