//! The kernel IR: what one emitted function computes, as ordered `let` bindings followed by
//! stores into named output slots.
//!
//! Built from graph outputs with common-subexpression elimination by hash-consing: a node
//! used at least twice (as operand or output) is bound once to a temporary `tᵢ` (numbered
//! in schedule order, so names are stable), a node used once is inlined into its consumer.
//! Structural zeros are not stored: the caller zero-initialises outputs and the kernel
//! lists the omitted slots ([`Kernel::structural_zeros`]). Small integer powers are
//! lowered to products here (x² = x·x, x³ = x·x·x), so `Display`, op counts, the `f64`
//! mirror evaluator and the emitted Rust all see exactly the same operation sequence.

use crate::graph::{Graph, Node, NodeId};
use crate::input::Input;
use crate::matrix::Matrix;
use crate::op::{Op, PREC_ATOM, PREC_NEG};
use std::collections::BTreeMap;
use std::fmt;

/// Position of a value inside an output.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum SlotIndex {
    /// A scalar output.
    Scalar,
    /// Component i of a vector output.
    Vector(usize),
    /// Entry (i, j) of a matrix output.
    Matrix(usize, usize),
}

/// A named output position, e.g. `J[0, 1]`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OutputSlot {
    /// Name of the output (chosen by the caller).
    pub name: String,
    /// Position within it.
    pub index: SlotIndex,
}

impl fmt::Display for OutputSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            SlotIndex::Scalar => f.write_str(&self.name),
            SlotIndex::Vector(i) => write!(f, "{}[{i}]", self.name),
            SlotIndex::Matrix(i, j) => write!(f, "{}[{i}, {j}]", self.name),
        }
    }
}

/// An expression of the kernel IR: every `Apply` is exactly one emitted `f64` operation.
#[derive(Clone, PartialEq, Debug)]
pub enum KExpr {
    /// The temporary `t{index}` bound by an earlier [`Let`].
    Temp(usize),
    /// An input symbol (bound to tokens by the caller at emission).
    Input(Input),
    /// An `f64` constant (exact rationals rounded to nearest once, here).
    Const(f64),
    /// An operation applied to operands.
    Apply(Op, Vec<KExpr>),
}

/// `let t{temp} = value;`
#[derive(Clone, PartialEq, Debug)]
pub struct Let {
    /// Index of the temporary.
    pub temp: usize,
    /// Its value.
    pub value: KExpr,
}

/// `slot = value;`
#[derive(Clone, PartialEq, Debug)]
pub struct Store {
    /// Destination.
    pub slot: OutputSlot,
    /// Stored value.
    pub value: KExpr,
}

/// Whether common subexpressions are bound to temporaries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cse {
    /// Bind nodes used at least twice; inline the rest.
    On,
    /// Inline everything: every output is a tree (for differential tests).
    Off,
}

/// Collects the outputs of a kernel.
#[derive(Clone, Debug, Default)]
pub struct KernelBuilder {
    outputs: Vec<(OutputSlot, NodeId)>,
}

impl KernelBuilder {
    /// No outputs yet.
    pub fn new() -> KernelBuilder {
        KernelBuilder::default()
    }

    /// Adds one output slot.
    pub fn output(&mut self, slot: OutputSlot, value: NodeId) -> &mut KernelBuilder {
        self.outputs.push((slot, value));
        self
    }

    /// Adds the scalar output `name`.
    pub fn scalar(&mut self, name: &str, value: NodeId) -> &mut KernelBuilder {
        self.output(slot(name, SlotIndex::Scalar), value)
    }

    /// Adds the vector output `name` with components `values`.
    pub fn vector(&mut self, name: &str, values: &[NodeId]) -> &mut KernelBuilder {
        for (i, &v) in values.iter().enumerate() {
            self.output(slot(name, SlotIndex::Vector(i)), v);
        }
        self
    }

    /// Adds the matrix output `name`, row-major.
    pub fn matrix(&mut self, name: &str, m: &Matrix) -> &mut KernelBuilder {
        for ((i, j), v) in m.indexed() {
            self.output(slot(name, SlotIndex::Matrix(i, j)), v);
        }
        self
    }

    /// Schedules the kernel (see the module documentation).
    pub fn build(&self, graph: &Graph, cse: Cse) -> Kernel {
        let (stored, zeros): (Vec<_>, Vec<_>) = self
            .outputs
            .iter()
            .cloned()
            .partition(|(_, id)| !graph.is_zero(*id));
        let structural_zeros = zeros.into_iter().map(|(s, _)| s).collect();
        let top = stored
            .iter()
            .map(|(_, id)| id.index() + 1)
            .max()
            .unwrap_or(0);

        // Which nodes are needed, and how often each is used by emitted operations.
        let mut needed = vec![false; top];
        let mut uses = vec![0usize; top];
        for (_, id) in &stored {
            needed[id.index()] = true;
            uses[id.index()] += 1;
        }
        for i in (0..top).rev() {
            if !needed[i] {
                continue;
            }
            let node = graph.node(NodeId(i as u32));
            let times = match node {
                Node::Unary(Op::Powi(k), _) => lowered_power_uses(*k),
                _ => 1,
            };
            for c in node.operands() {
                needed[c.index()] = true;
                uses[c.index()] += times;
            }
        }

        // With CSE, an operation used once is moved into its consumer (no copy: the kernel is
        // linear in the graph's size), and one whose inlined tree would exceed
        // `MAX_INLINE_DEPTH` is bound like a shared one.
        let mut exprs: Vec<Option<KExpr>> = vec![None; top];
        let mut depths = vec![0usize; top];
        let value = |exprs: &mut [Option<KExpr>], c: NodeId| {
            let slot = &mut exprs[c.index()];
            if cse == Cse::On && uses[c.index()] == 1 {
                slot.take()
            } else {
                slot.clone()
            }
        };
        let mut lets = Vec::new();
        for i in (0..top).filter(|&i| needed[i]) {
            let node = graph.node(NodeId(i as u32));
            let expr = match node {
                Node::Const(c) => KExpr::Const(c.to_f64()),
                Node::Input(input) => KExpr::Input(input.clone()),
                Node::Unary(op, _) | Node::Binary(op, _) => {
                    let args: Vec<KExpr> = node
                        .operands()
                        .iter()
                        .filter_map(|&c| value(&mut exprs, c))
                        .collect();
                    depths[i] = 1 + node
                        .operands()
                        .iter()
                        .map(|c| depths[c.index()])
                        .max()
                        .unwrap_or(0);
                    lower(*op, args)
                }
            };
            let bind = cse == Cse::On
                && node.op().is_some()
                && (uses[i] >= 2 || depths[i] > MAX_INLINE_DEPTH);
            exprs[i] = Some(if bind {
                depths[i] = 0;
                let temp = lets.len();
                lets.push(Let { temp, value: expr });
                KExpr::Temp(temp)
            } else {
                expr
            });
        }
        let stores = stored
            .into_iter()
            .filter_map(|(slot, id)| value(&mut exprs, id).map(|value| Store { slot, value }))
            .collect();
        Kernel {
            lets,
            stores,
            structural_zeros,
        }
    }
}

/// The deepest operation tree a kernel inlines (a lowered x² or x³ adds one more level); a
/// deeper one is bound to a temporary, so that evaluating, rendering or dropping a kernel never
/// recurses deeper than this, however long the chain of single-use operations in the graph.
const MAX_INLINE_DEPTH: usize = 64;

fn slot(name: &str, index: SlotIndex) -> OutputSlot {
    OutputSlot {
        name: name.to_owned(),
        index,
    }
}

/// How many times the base of xᵏ appears in its lowered form.
fn lowered_power_uses(k: i32) -> usize {
    match k {
        2 => 2,
        3 => 3,
        _ => 1,
    }
}

/// The emitted form of `op(args)`: x² → x·x, x³ → (x·x)·x, everything else one op.
fn lower(op: Op, mut args: Vec<KExpr>) -> KExpr {
    match op {
        Op::Powi(k @ (2 | 3)) => {
            let x = args.remove(0);
            let square = KExpr::Apply(Op::Mul, vec![x.clone(), x.clone()]);
            if k == 2 {
                square
            } else {
                KExpr::Apply(Op::Mul, vec![square, x])
            }
        }
        _ => KExpr::Apply(op, args),
    }
}

/// A scheduled kernel.
#[derive(Clone, PartialEq, Debug)]
pub struct Kernel {
    lets: Vec<Let>,
    stores: Vec<Store>,
    structural_zeros: Vec<OutputSlot>,
}

/// Number of emitted operations by name (`add`, `mul`, `sin`, …; `powi` only for |k| ≥ 4).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct OpCount(BTreeMap<&'static str, usize>);

impl OpCount {
    /// Count of the named op.
    pub fn get(&self, name: &str) -> usize {
        self.0.get(name).copied().unwrap_or(0)
    }

    /// Total number of operations.
    pub fn total(&self) -> usize {
        self.0.values().sum()
    }

    fn count(&mut self, e: &KExpr) {
        if let KExpr::Apply(op, args) = e {
            *self.0.entry(op.name()).or_default() += 1;
            args.iter().for_each(|a| self.count(a));
        }
    }
}

impl fmt::Display for OpCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "total {}", self.total())?;
        for (name, n) in &self.0 {
            write!(f, ", {name} {n}")?;
        }
        Ok(())
    }
}

impl Kernel {
    /// The `let` bindings in order.
    pub fn lets(&self) -> &[Let] {
        &self.lets
    }

    /// The stores of the structurally non-zero outputs, in the order the outputs were added.
    pub fn stores(&self) -> &[Store] {
        &self.stores
    }

    /// Output slots that are structurally zero (not stored; the caller initialises them to 0).
    pub fn structural_zeros(&self) -> &[OutputSlot] {
        &self.structural_zeros
    }

    /// Emitted operations by kind.
    pub fn op_count(&self) -> OpCount {
        let mut count = OpCount::default();
        for e in self
            .lets
            .iter()
            .map(|l| &l.value)
            .chain(self.stores.iter().map(|s| &s.value))
        {
            count.count(e);
        }
        count
    }

    /// Evaluates the kernel in `f64` performing exactly the emitted operations in the emitted
    /// order; returns the stored values in the order of [`Kernel::stores`].
    pub fn eval_f64(&self, mut input: impl FnMut(&Input) -> f64) -> Vec<f64> {
        let mut temps = Vec::with_capacity(self.lets.len());
        for l in &self.lets {
            let v = eval_expr(&l.value, &temps, &mut input);
            temps.push(v);
        }
        self.stores
            .iter()
            .map(|s| eval_expr(&s.value, &temps, &mut input))
            .collect()
    }
}

fn eval_expr(e: &KExpr, temps: &[f64], input: &mut impl FnMut(&Input) -> f64) -> f64 {
    match e {
        KExpr::Temp(i) => temps[*i],
        KExpr::Input(inp) => input(inp),
        KExpr::Const(x) => *x,
        KExpr::Apply(op, args) => {
            let vals: Vec<f64> = args.iter().map(|a| eval_expr(a, temps, input)).collect();
            op.eval(&vals)
        }
    }
}

/// Precedence of a constant as written: negative values (and −0) print with a unary minus.
pub(crate) fn const_precedence(x: f64) -> u8 {
    if x.is_sign_negative() && !x.is_nan() {
        PREC_NEG
    } else {
        PREC_ATOM
    }
}

/// Renders `e` by combining rendered operands with `apply`, inserting parentheses via `paren`
/// where an operand binds more loosely than its position requires; returns (text, precedence).
pub(crate) fn render<T>(
    e: &KExpr,
    leaf: &mut impl FnMut(&KExpr) -> (T, u8),
    apply: &impl Fn(Op, &[T]) -> T,
    paren: &impl Fn(T) -> T,
) -> (T, u8) {
    match e {
        KExpr::Apply(op, args) => {
            let parts: Vec<T> = args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let (t, p) = render(a, leaf, apply, paren);
                    if p < op.operand_precedence(i) {
                        paren(t)
                    } else {
                        t
                    }
                })
                .collect();
            (apply(*op, &parts), op.precedence())
        }
        _ => leaf(e),
    }
}

fn display_expr(e: &KExpr) -> String {
    let mut leaf = |e: &KExpr| match e {
        KExpr::Temp(i) => (format!("t{i}"), PREC_ATOM),
        KExpr::Input(inp) => (inp.to_string(), PREC_ATOM),
        KExpr::Const(x) => (format!("{x:?}"), const_precedence(*x)),
        KExpr::Apply(..) => (String::new(), PREC_ATOM),
    };
    render(
        e,
        &mut leaf,
        &|op, args: &[String]| op.display(args),
        &|t| format!("({t})"),
    )
    .0
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.lets {
            writeln!(f, "let t{} = {};", l.temp, display_expr(&l.value))?;
        }
        for s in &self.stores {
            writeln!(f, "{} = {};", s.slot, display_expr(&s.value))?;
        }
        if !self.structural_zeros.is_empty() {
            let zeros: Vec<String> = self
                .structural_zeros
                .iter()
                .map(ToString::to_string)
                .collect();
            writeln!(f, "// structural zeros: {}", zeros.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_nodes_are_bound_once_and_single_uses_inlined() {
        let mut g = Graph::new();
        let (x, y) = (g.component("q", 0), g.component("q", 1));
        let e = g.exp(x);
        let s = g.sin(y);
        let f1 = g.mul(e, s);
        let f2 = g.add(e, y);
        let mut b = KernelBuilder::new();
        b.scalar("a", f1).scalar("b", f2).scalar("z", g.int(0));
        let k = b.build(&g, Cse::On);
        assert_eq!(
            k.to_string(),
            "let t0 = exp(q[0]);\na = t0 * sin(q[1]);\nb = q[1] + t0;\n// structural zeros: z\n"
        );
        let tree = b.build(&g, Cse::Off);
        assert!(tree.lets().is_empty());
        assert_eq!(tree.op_count().get("exp"), 2);
        assert_eq!(k.op_count().get("exp"), 1);
        assert_eq!(k.op_count().total(), 4);
    }

    #[test]
    fn small_powers_become_products() {
        let mut g = Graph::new();
        let x = g.component("q", 0);
        let s = g.sin(x);
        let (p2, p3, p4) = (g.powi(s, 2), g.powi(x, 3), g.powi(x, 4));
        let k = KernelBuilder::new()
            .vector("p", &[p2, p3, p4])
            .build(&g, Cse::On);
        assert_eq!(
            k.to_string(),
            "let t0 = sin(q[0]);\np[0] = t0 * t0;\np[1] = q[0] * q[0] * q[0];\np[2] = powi(q[0], 4);\n"
        );
        let count = k.op_count();
        assert_eq!((count.get("mul"), count.get("powi")), (3, 1));
    }

    #[test]
    fn display_parenthesises_by_precedence() {
        let mut g = Graph::new();
        let (a, b, c) = (
            g.component("q", 0),
            g.component("q", 1),
            g.component("q", 2),
        );
        let s = g.add(b, c);
        let m = g.mul(a, s);
        let d = g.div(a, m);
        let n = g.neg(s);
        let k = KernelBuilder::new()
            .vector("o", &[d, n])
            .build(&g, Cse::Off);
        assert_eq!(
            k.to_string(),
            "o[0] = q[0] / (q[0] * (q[1] + q[2]));\no[1] = -(q[1] + q[2]);\n"
        );
    }
}
