//! The interpreter: evaluates graph nodes over any [`Real`] (the test oracle).

use crate::graph::{Graph, Node, NodeId};
use crate::input::Input;
use crate::number::Number;
use crate::real::Real;

impl Graph {
    /// Values of `roots`, with input values from `input` and constants at precision `prec`
    /// (bits; ignored by `f64`). Only the nodes the roots depend on are evaluated, each once,
    /// in topological order.
    pub fn eval<R: Real>(
        &self,
        roots: &[NodeId],
        prec: u32,
        mut input: impl FnMut(&Input) -> R,
    ) -> Vec<R> {
        let Some(top) = roots.iter().max() else {
            return Vec::new();
        };
        let mut needed = vec![false; top.index() + 1];
        for r in roots {
            needed[r.index()] = true;
        }
        for i in (0..needed.len()).rev() {
            if needed[i] {
                for c in self.node(NodeId(i as u32)).operands() {
                    needed[c.index()] = true;
                }
            }
        }
        let mut values: Vec<Option<R>> = vec![None; needed.len()];
        for i in (0..needed.len()).filter(|&i| needed[i]) {
            let node = self.node(NodeId(i as u32));
            let value = match node {
                Node::Const(Number::Rational(r)) => R::from_rational(*r, prec),
                Node::Const(Number::Float(x)) => R::from_f64(*x, prec),
                Node::Input(inp) => input(inp),
                Node::Unary(op, _) | Node::Binary(op, _) => {
                    let args: Vec<R> = node
                        .operands()
                        .iter()
                        .filter_map(|c| values[c.index()].clone())
                        .collect();
                    op.eval(&args)
                }
            };
            values[i] = Some(value);
        }
        roots
            .iter()
            .filter_map(|r| values[r.index()].clone())
            .collect()
    }
}
