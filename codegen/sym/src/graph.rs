//! The hash-consed expression DAG: an arena of nodes in which children precede parents,
//! with an intern map so that structurally equal expressions share one `NodeId`.

use crate::input::Input;
use crate::number::Number;
use crate::op::Op;
use std::collections::HashMap;

/// Index of a node in its `Graph` (children always have smaller ids than parents).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// Position in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A node of the DAG.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// A constant.
    Const(Number),
    /// An input symbol.
    Input(Input),
    /// A one-operand op (`Neg`, `Powi(k)`, one-argument functions).
    Unary(Op, NodeId),
    /// A two-operand op; for commutative ops the operands are in canonical order.
    Binary(Op, [NodeId; 2]),
}

impl Node {
    /// The operation of an interior node.
    pub fn op(&self) -> Option<Op> {
        match self {
            Node::Unary(op, _) | Node::Binary(op, _) => Some(*op),
            _ => None,
        }
    }

    /// The operands (empty for leaves).
    pub fn operands(&self) -> &[NodeId] {
        match self {
            Node::Unary(_, a) => std::slice::from_ref(a),
            Node::Binary(_, ab) => ab,
            _ => &[],
        }
    }
}

/// The expression graph. All nodes are created through the canonicalising constructors
/// (`add`, `mul`, `sin`, …), so construction is infallible and deterministic: the same
/// sequence of calls yields the same ids.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    nodes: Vec<Node>,
    /// For every node, the sorted ids of the input nodes it depends on.
    deps: Vec<Box<[NodeId]>>,
    intern: HashMap<Node, NodeId>,
    /// The `f64` value of every interior node that depends on no input (ln 2, √2 · 3, …),
    /// computed from its operands' values when it is interned.
    values: HashMap<NodeId, f64>,
    /// Memo of ∂node/∂var keyed by (node, var).
    pub(crate) diff_memo: HashMap<(NodeId, NodeId), NodeId>,
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Graph {
        Graph::default()
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node behind an id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// All nodes in topological order (children first).
    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (NodeId(i as u32), n))
    }

    /// The input nodes `id` depends on, sorted by id.
    pub fn deps(&self, id: NodeId) -> &[NodeId] {
        &self.deps[id.index()]
    }

    /// Whether `id` depends on the input node `var`.
    pub fn depends_on(&self, id: NodeId, var: NodeId) -> bool {
        self.deps(id).binary_search(&var).is_ok()
    }

    /// The constant value of `id`, if it is a constant.
    pub fn as_const(&self, id: NodeId) -> Option<Number> {
        match self.node(id) {
            Node::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// The input behind `id`, if it is an input.
    pub fn as_input(&self, id: NodeId) -> Option<&Input> {
        match self.node(id) {
            Node::Input(i) => Some(i),
            _ => None,
        }
    }

    /// The `f64` value of `id` when it depends on no input: a constant, or an operation on
    /// constants, evaluated in `f64` (ln 0 = −∞, √−1 = NaN); `None` when it
    /// depends on an input.
    pub fn value(&self, id: NodeId) -> Option<f64> {
        match self.node(id) {
            Node::Const(c) => Some(c.to_f64()),
            _ => self.values.get(&id).copied(),
        }
    }

    /// Whether `id` is the constant 0 (a structural zero).
    pub fn is_zero(&self, id: NodeId) -> bool {
        self.as_const(id).is_some_and(Number::is_zero)
    }

    /// Whether `id` is the constant 1.
    pub fn is_one(&self, id: NodeId) -> bool {
        self.as_const(id).is_some_and(Number::is_one)
    }

    /// Interns a node as is (no canonicalisation): the id of an equal existing node, or a new one.
    /// (Ids are `u32`: a graph holds at most 2³² − 1 nodes.)
    pub(crate) fn intern(&mut self, node: Node) -> NodeId {
        if let Some(&id) = self.intern.get(&node) {
            return id;
        }
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        let deps: Box<[NodeId]> = match &node {
            Node::Const(_) => Box::new([]),
            Node::Input(_) => Box::new([id]),
            Node::Unary(_, a) => self.deps[a.index()].clone(),
            Node::Binary(_, [a, b]) => merge_sorted(&self.deps[a.index()], &self.deps[b.index()]),
        };
        if deps.is_empty()
            && let Some(op) = node.op()
        {
            // The operands depend on no input either, so each has a value.
            let args: Vec<f64> = node
                .operands()
                .iter()
                .map(|a| self.value(*a).unwrap_or(f64::NAN))
                .collect();
            self.values.insert(id, op.eval(&args));
        }
        self.nodes.push(node.clone());
        self.deps.push(deps);
        self.intern.insert(node, id);
        id
    }

    /// The node for an input symbol.
    pub fn input(&mut self, input: Input) -> NodeId {
        self.intern(Node::Input(input))
    }

    /// Component `index` of the state vector `vector` (e.g. `component("q", 0)` is q₀).
    pub fn component(&mut self, vector: &str, index: usize) -> NodeId {
        self.input(Input::Component {
            vector: vector.to_owned(),
            index,
        })
    }

    /// The components 0..len of the state vector `vector`.
    pub fn vector(&mut self, vector: &str, len: usize) -> Vec<NodeId> {
        (0..len).map(|i| self.component(vector, i)).collect()
    }

    /// The scalar parameter `name`.
    pub fn param(&mut self, name: &str) -> NodeId {
        self.input(Input::Param(name.to_owned()))
    }
}

fn merge_sorted(a: &[NodeId], b: &[NodeId]) -> Box<[NodeId]> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out.into_boxed_slice()
}
