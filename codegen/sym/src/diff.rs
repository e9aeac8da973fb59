//! Symbolic differentiation and the derivative objects integrators need, with the derivative
//! rule of every operation (`Op::partial`).
//!
//! ∂f/∂x is memoised per (node, x) and skipped for every node that does not depend on x
//! (its derivative is the structural zero), so Jacobians are built with their sparsity.
//! Contractions such as ∂(Jᵀw)/∂q are formed from the contracted vector, so no third-order
//! tensor is ever built.

use crate::error::DiffError;
use crate::graph::{Graph, Node, NodeId};
use crate::matrix::Matrix;
use crate::op::Op;
use crate::rational::Rational;
use std::collections::HashSet;

impl Graph {
    /// ∂f/∂var, where `var` is an input node.
    ///
    /// Forward accumulation over the dependency cone of `f` in topological order (no recursion):
    /// ∂n/∂var = Σᵢ (∂n/∂argᵢ) · ∂argᵢ/∂var over the operands that depend on `var`, with the
    /// partials ∂n/∂argᵢ from the operator table.
    pub fn diff(&mut self, f: NodeId, var: NodeId) -> Result<NodeId, DiffError> {
        if self.as_input(var).is_none() {
            return Err(DiffError::NotAnInput(var));
        }
        if !self.depends_on(f, var) {
            return Ok(self.int(0));
        }
        if let Some(&d) = self.diff_memo.get(&(f, var)) {
            return Ok(d);
        }
        // The cone: nodes reachable from f that depend on var and lack a memo entry, found by
        // a search with an explicit stack (its cost is the cone's size, not f's index), then
        // differentiated in topological (id) order.
        let mut cone = vec![f];
        let mut seen = HashSet::from([f]);
        let mut stack = vec![f];
        while let Some(id) = stack.pop() {
            for &c in self.node(id).operands() {
                if self.depends_on(c, var)
                    && !self.diff_memo.contains_key(&(c, var))
                    && seen.insert(c)
                {
                    cone.push(c);
                    stack.push(c);
                }
            }
        }
        cone.sort_unstable();
        for id in cone {
            let d = self.diff_step(id, var)?;
            self.diff_memo.insert((id, var), d);
        }
        Ok(self.diff_memo[&(f, var)])
    }

    /// One chain-rule step for `id`, whose dependent operands already have memoised derivatives.
    fn diff_step(&mut self, id: NodeId, var: NodeId) -> Result<NodeId, DiffError> {
        let (op, args) = match self.node(id) {
            Node::Input(_) => return Ok(self.int(if id == var { 1 } else { 0 })),
            Node::Const(_) => return Ok(self.int(0)),
            node => (node.op(), node.operands().to_vec()),
        };
        let Some(op) = op else {
            return Ok(self.int(0));
        };
        let mut total = self.int(0);
        for (i, &a) in args.iter().enumerate() {
            if !self.depends_on(a, var) {
                continue;
            }
            let da = self.diff_memo[&(a, var)];
            if self.is_zero(da) {
                continue;
            }
            let p = op.partial(self, id, &args, i)?;
            let term = self.mul(p, da);
            total = self.add(total, term);
        }
        Ok(total)
    }

    /// ∇f = (∂f/∂x₀, …, ∂f/∂xₙ₋₁).
    pub fn gradient(&mut self, f: NodeId, vars: &[NodeId]) -> Result<Vec<NodeId>, DiffError> {
        vars.iter().map(|&x| self.diff(f, x)).collect()
    }

    /// The Jacobian J_ij = ∂fᵢ/∂xⱼ (rows = `fs`, columns = `vars`).
    pub fn jacobian(&mut self, fs: &[NodeId], vars: &[NodeId]) -> Result<Matrix, DiffError> {
        let mut entries = Vec::with_capacity(fs.len() * vars.len());
        for &f in fs {
            entries.extend(self.gradient(f, vars)?);
        }
        Ok(Matrix::new(fs.len(), vars.len(), entries))
    }

    /// The Hessian ∇²f, H_ij = ∂²f/∂xᵢ∂xⱼ; the lower triangle reuses the upper one's nodes.
    pub fn hessian(&mut self, f: NodeId, vars: &[NodeId]) -> Result<Matrix, DiffError> {
        let n = vars.len();
        let grad = self.gradient(f, vars)?;
        let mut entries = vec![NodeId(0); n * n];
        for i in 0..n {
            for j in i..n {
                let h = self.diff(grad[i], vars[j])?;
                entries[i * n + j] = h;
                entries[j * n + i] = h;
            }
        }
        Ok(Matrix::new(n, n, entries))
    }

    /// Σᵢ termsᵢ (0 for no terms), summed left to right.
    pub fn sum(&mut self, terms: &[NodeId]) -> NodeId {
        let zero = self.int(0);
        terms.iter().fold(zero, |acc, &t| self.add(acc, t))
    }

    /// a · b = Σᵢ aᵢ bᵢ.
    pub fn dot(&mut self, a: &[NodeId], b: &[NodeId]) -> Result<NodeId, DiffError> {
        check_len(a.len(), b.len())?;
        let terms: Vec<NodeId> = a.iter().zip(b).map(|(&x, &y)| self.mul(x, y)).collect();
        Ok(self.sum(&terms))
    }

    /// M v, (Mv)ᵢ = Σⱼ M_ij vⱼ.
    pub fn mat_vec(&mut self, m: &Matrix, v: &[NodeId]) -> Result<Vec<NodeId>, DiffError> {
        check_len(m.cols(), v.len())?;
        (0..m.rows()).map(|i| self.dot(m.row(i), v)).collect()
    }

    /// Mᵀ w, (Mᵀw)ⱼ = Σᵢ M_ij wᵢ.
    pub fn mat_t_vec(&mut self, m: &Matrix, w: &[NodeId]) -> Result<Vec<NodeId>, DiffError> {
        check_len(m.rows(), w.len())?;
        (0..m.cols())
            .map(|j| {
                let col: Vec<NodeId> = (0..m.rows()).map(|i| m.row(i)[j]).collect();
                self.dot(&col, w)
            })
            .collect()
    }

    /// ∂(Jᵀw)/∂q with J = ∂f/∂q: entry (j, k) = ∂/∂q_k Σᵢ (∂fᵢ/∂qⱼ) wᵢ (a d × d matrix).
    /// For a one-form ϑ this is the term of ∂/∂q (ϑ'(q)ᵀ w); for constraints c and w = λ it is
    /// ∂(Dcᵀλ)/∂q.
    pub fn jacobian_transpose_vector_derivative(
        &mut self,
        f: &[NodeId],
        q: &[NodeId],
        w: &[NodeId],
    ) -> Result<Matrix, DiffError> {
        let j = self.jacobian(f, q)?;
        let jtw = self.mat_t_vec(&j, w)?;
        self.jacobian(&jtw, q)
    }

    /// ∂(Jv)/∂q with J = ∂f/∂q: entry (i, k) = ∂/∂q_k Σⱼ (∂fᵢ/∂qⱼ) vⱼ (an m × d matrix).
    pub fn jacobian_vector_derivative(
        &mut self,
        f: &[NodeId],
        q: &[NodeId],
        v: &[NodeId],
    ) -> Result<Matrix, DiffError> {
        let j = self.jacobian(f, q)?;
        let jv = self.mat_vec(&j, v)?;
        self.jacobian(&jv, q)
    }
}

fn check_len(expected: usize, found: usize) -> Result<(), DiffError> {
    if expected == found {
        Ok(())
    } else {
        Err(DiffError::LengthMismatch { expected, found })
    }
}

/// The derivative rules of the operations: each `∂f/∂argᵢ` as a graph expression.
impl Op {
    /// ∂f/∂argᵢ for the node f = op(args), built in `g` (may reference f itself, e.g. (eˣ)' = eˣ).
    pub(crate) fn partial(
        self,
        g: &mut Graph,
        f: NodeId,
        args: &[NodeId],
        i: usize,
    ) -> Result<NodeId, DiffError> {
        let x = args[0];
        let one = g.int(1);
        Ok(match self {
            Op::Neg => g.int(-1),
            Op::Add => one,
            Op::Sub => g.int(if i == 0 { 1 } else { -1 }),
            Op::Mul => args[1 - i],
            Op::Div => {
                let b = args[1];
                if i == 0 {
                    g.div(one, b)
                } else {
                    let b2 = g.powi(b, 2);
                    let q = g.div(x, b2);
                    g.neg(q)
                }
            }
            Op::Powi(k) => {
                let c = g.int(i128::from(k));
                let p = g.powi(x, k - 1);
                g.mul(c, p)
            }
            Op::Powf => {
                let y = args[1];
                if i == 0 {
                    let ym1 = g.sub(y, one);
                    let p = g.powf(x, ym1);
                    g.mul(y, p)
                } else {
                    let l = g.ln(x);
                    g.mul(f, l)
                }
            }
            Op::Sqrt => {
                let half = g.rational(Rational::HALF);
                g.div(half, f)
            }
            Op::Exp => f,
            Op::Ln => g.div(one, x),
            Op::Sin => g.cos(x),
            Op::Cos => {
                let s = g.sin(x);
                g.neg(s)
            }
            Op::Tan => {
                let f2 = g.powi(f, 2);
                g.add(one, f2)
            }
            Op::Asin | Op::Acos => {
                let x2 = g.powi(x, 2);
                let d = g.sub(one, x2);
                let r = g.sqrt(d);
                let q = g.div(one, r);
                if self == Op::Asin { q } else { g.neg(q) }
            }
            Op::Atan => {
                let x2 = g.powi(x, 2);
                let d = g.add(one, x2);
                g.div(one, d)
            }
            Op::Atan2 => {
                // f = atan2(y, x): ∂f/∂y = x/(x² + y²), ∂f/∂x = −y/(x² + y²).
                let (y, xx) = (args[0], args[1]);
                let y2 = g.powi(y, 2);
                let x2 = g.powi(xx, 2);
                let r2 = g.add(x2, y2);
                if i == 0 {
                    g.div(xx, r2)
                } else {
                    let q = g.div(y, r2);
                    g.neg(q)
                }
            }
            Op::Sinh => g.cosh(x),
            Op::Cosh => g.sinh(x),
            Op::Tanh => {
                let f2 = g.powi(f, 2);
                g.sub(one, f2)
            }
            Op::Abs => return Err(DiffError::NotDifferentiable { op: "abs", node: f }),
            Op::Hypot => g.div(args[i], f),
        })
    }
}
