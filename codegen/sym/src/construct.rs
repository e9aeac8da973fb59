//! Canonicalising constructors of the graph.
//!
//! Every rule is local and O(1) (design §5.2): constant folding with exact rationals,
//! identities x + 0 = x, x · 1 = x, x · 0 = 0, −(−x) = x, x − x = 0, x / x = 1,
//! signs pulled outwards (a · (−b) = −(a · b), a + (−b) = a − b), canonical operand order
//! for commutative ops (constants first, then by `NodeId`), x · x = x², power merging
//! xᵃ · xᵇ = xᵃ⁺ᵇ, xᵃ / xᵇ = xᵃ⁻ᵇ, (xᵃ)ᵇ = xᵃᵇ, negative powers as 1 / x⁻ᵏ, and quotient
//! normalisation (a/b) · (c/d) = (a·c)/(b·d), (a/b)/c = a/(b·c), a/(b/c) = (a·c)/b.
//!
//! The identities hold for finite values: 0 · x = 0, 0 / x = 0, x − x = 0 and x / x = 1 are
//! false for x = ±∞ or NaN (and x / x for x = 0). Differentiation needs them for every
//! non-constant x (most partial derivatives are products with a structural zero), where they
//! hold wherever x is finite. A constant operand that is not finite, or a division by the
//! constant 0, is refused by the front end before it is built
//! ([`derive`](crate::derive)'s lowering), so no identity here hides one; constants
//! themselves fold in IEEE arithmetic (an overflow or `1/0` of `f64` constants gives ±∞ or
//! NaN, and the front end refuses that constant).

use crate::error::CallError;
use crate::graph::{Graph, Node, NodeId};
use crate::number::Number;
use crate::op::{Func, Op};
use crate::rational::Rational;

impl Graph {
    /// The constant `c`.
    pub fn constant(&mut self, c: Number) -> NodeId {
        self.intern(Node::Const(c))
    }

    /// The exact rational constant `r`.
    pub fn rational(&mut self, r: Rational) -> NodeId {
        self.constant(Number::Rational(r))
    }

    /// The integer constant `n`.
    pub fn int(&mut self, n: i128) -> NodeId {
        self.rational(Rational::integer(n))
    }

    /// The constant `x` (exact rational when `x` is a dyadic rational that fits in `i128`).
    pub fn float(&mut self, x: f64) -> NodeId {
        self.constant(Number::from_f64(x))
    }

    /// If `id` is −a or a negative constant −c, returns a (resp. the constant c).
    fn split_neg(&mut self, id: NodeId) -> Option<NodeId> {
        match self.node(id) {
            Node::Unary(Op::Neg, a) => Some(*a),
            Node::Const(c) if c.is_negative() => {
                let c = *c;
                let m = negate(c);
                Some(self.constant(m))
            }
            _ => None,
        }
    }

    /// (x, k) if `id` is xᵏ, else (id, 1).
    fn power_parts(&self, id: NodeId) -> (NodeId, i32) {
        match self.node(id) {
            Node::Unary(Op::Powi(k), x) => (*x, *k),
            _ => (id, 1),
        }
    }

    /// (n, d) if `id` is n / d.
    fn quotient_parts(&self, id: NodeId) -> Option<(NodeId, NodeId)> {
        match self.node(id) {
            Node::Binary(Op::Div, [n, d]) => Some((*n, *d)),
            _ => None,
        }
    }

    /// Canonical order of commutative operands: constants first, then by id.
    fn ordered(&self, a: NodeId, b: NodeId) -> [NodeId; 2] {
        let key = |id: NodeId| (self.as_const(id).is_none(), id);
        if key(a) <= key(b) { [a, b] } else { [b, a] }
    }

    fn binary(&mut self, op: Op, a: NodeId, b: NodeId) -> NodeId {
        let operands = if op.is_commutative() {
            self.ordered(a, b)
        } else {
            [a, b]
        };
        self.intern(Node::Binary(op, operands))
    }

    /// −x.
    pub fn neg(&mut self, x: NodeId) -> NodeId {
        match self.node(x) {
            Node::Const(c) => {
                let c = negate(*c);
                self.constant(c)
            }
            Node::Unary(Op::Neg, a) => *a,
            Node::Binary(Op::Sub, [a, b]) => {
                let (a, b) = (*a, *b);
                self.sub(b, a)
            }
            _ => self.intern(Node::Unary(Op::Neg, x)),
        }
    }

    /// a + b.
    pub fn add(&mut self, a: NodeId, b: NodeId) -> NodeId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => {
                let c = x.combine(y, Rational::checked_add, |p, q| p + q);
                return self.constant(c);
            }
            (Some(x), _) if x.is_zero() => return b,
            (_, Some(y)) if y.is_zero() => return a,
            _ => {}
        }
        if a == b {
            let two = self.int(2);
            return self.mul(two, a);
        }
        match (self.split_neg(a), self.split_neg(b)) {
            (Some(a), Some(b)) => {
                let s = self.add(a, b);
                return self.neg(s);
            }
            (None, Some(b)) => return self.sub(a, b),
            (Some(a), None) => return self.sub(b, a),
            (None, None) => {}
        }
        let [a, b] = self.ordered(a, b);
        // c₁ + (c₂ + x) = (c₁ + c₂) + x.
        if let (Some(_), Node::Binary(Op::Add, [c2, x])) = (self.as_const(a), self.node(b)) {
            let (c2, x) = (*c2, *x);
            if self.as_const(c2).is_some() {
                let c = self.add(a, c2);
                return self.add(c, x);
            }
        }
        self.binary(Op::Add, a, b)
    }

    /// a − b (x − x = 0: an identity of finite x).
    pub fn sub(&mut self, a: NodeId, b: NodeId) -> NodeId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => {
                let c = x.combine(y, Rational::checked_sub, |p, q| p - q);
                return self.constant(c);
            }
            (Some(x), _) if x.is_zero() => return self.neg(b),
            (_, Some(y)) if y.is_zero() => return a,
            _ => {}
        }
        if a == b {
            return self.int(0);
        }
        if let Some(b) = self.split_neg(b) {
            return self.add(a, b);
        }
        if let Some(a) = self.split_neg(a) {
            let s = self.add(a, b);
            return self.neg(s);
        }
        self.binary(Op::Sub, a, b)
    }

    /// a · b (0 · x = 0 for every non-constant x: an identity of finite x, which
    /// differentiation needs to keep structural zeros).
    pub fn mul(&mut self, a: NodeId, b: NodeId) -> NodeId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => {
                let c = x.combine(y, Rational::checked_mul, |p, q| p * q);
                return self.constant(c);
            }
            (Some(x), _) | (_, Some(x)) if x.is_zero() => return self.int(0),
            (Some(x), _) if x.is_one() => return b,
            (_, Some(y)) if y.is_one() => return a,
            _ => {}
        }
        match (self.split_neg(a), self.split_neg(b)) {
            (Some(a), Some(b)) => return self.mul(a, b),
            (Some(a), None) => {
                let p = self.mul(a, b);
                return self.neg(p);
            }
            (None, Some(b)) => {
                let p = self.mul(a, b);
                return self.neg(p);
            }
            (None, None) => {}
        }
        let ((xa, ka), (xb, kb)) = (self.power_parts(a), self.power_parts(b));
        if xa == xb
            && let Some(k) = ka.checked_add(kb)
        {
            return self.powi(xa, k);
        }
        match (self.quotient_parts(a), self.quotient_parts(b)) {
            (Some((n1, d1)), Some((n2, d2))) => {
                let n = self.mul(n1, n2);
                let d = self.mul(d1, d2);
                return self.div(n, d);
            }
            (Some((n, d)), None) | (None, Some((n, d))) => {
                let x = if self.quotient_parts(a).is_some() {
                    b
                } else {
                    a
                };
                let n = self.mul(x, n);
                return self.div(n, d);
            }
            (None, None) => {}
        }
        let [a, b] = self.ordered(a, b);
        // c₁ · (c₂ · x) = (c₁ c₂) · x.
        if let (Some(_), Node::Binary(Op::Mul, [c2, x])) = (self.as_const(a), self.node(b)) {
            let (c2, x) = (*c2, *x);
            if self.as_const(c2).is_some() {
                let c = self.mul(a, c2);
                return self.mul(c, x);
            }
        }
        self.binary(Op::Mul, a, b)
    }

    /// a / b (0 / x = 0 and x / x = 1: identities of finite x ≠ 0, which fold 0 / 0 to 0 as
    /// well; the front end refuses a division by the constant 0 before it is built).
    pub fn div(&mut self, a: NodeId, b: NodeId) -> NodeId {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if !y.is_zero() => {
                let c = x.combine(y, Rational::checked_div, |p, q| p / q);
                return self.constant(c);
            }
            (Some(x), _) if x.is_zero() => return a,
            (_, Some(y)) if y.is_one() => return a,
            _ => {}
        }
        if a == b {
            return self.int(1);
        }
        match (self.split_neg(a), self.split_neg(b)) {
            (Some(a), Some(b)) => return self.div(a, b),
            (Some(a), None) => {
                let q = self.div(a, b);
                return self.neg(q);
            }
            (None, Some(b)) => {
                let q = self.div(a, b);
                return self.neg(q);
            }
            (None, None) => {}
        }
        let ((xa, ka), (xb, kb)) = (self.power_parts(a), self.power_parts(b));
        if xa == xb
            && let Some(k) = ka.checked_sub(kb)
        {
            return self.powi(xa, k);
        }
        if let Some((n, d)) = self.quotient_parts(a) {
            let d = self.mul(d, b);
            return self.div(n, d);
        }
        if let Some((n, d)) = self.quotient_parts(b) {
            let n2 = self.mul(a, d);
            return self.div(n2, n);
        }
        self.binary(Op::Div, a, b)
    }

    /// xᵏ for an integer k (k < 0 is built as 1 / x⁻ᵏ, so `Powi` nodes always have k ≥ 2).
    pub fn powi(&mut self, x: NodeId, k: i32) -> NodeId {
        match k {
            0 => return self.int(1),
            1 => return x,
            _ => {}
        }
        if let Some(c) = self.as_const(x) {
            let folded = match c {
                Number::Rational(r) => r.checked_powi(k).map(Number::Rational),
                Number::Float(_) => None,
            };
            let folded = folded.unwrap_or_else(|| Number::Float(c.to_f64().powi(k)));
            return self.constant(folded);
        }
        if k < 0 {
            let one = self.int(1);
            // x^(−k); for k = i32::MIN, whose negation overflows, as (x^(2³⁰))².
            let p = match k.checked_neg() {
                Some(m) => self.powi(x, m),
                None => {
                    let half = self.powi(x, 1 << 30);
                    self.intern(Node::Unary(Op::Powi(2), half))
                }
            };
            return self.div(one, p);
        }
        if let Some(y) = self.split_neg(x) {
            let p = self.powi(y, k);
            return if k % 2 == 0 { p } else { self.neg(p) };
        }
        if let Node::Unary(Op::Powi(j), y) = self.node(x) {
            let (j, y) = (*j, *y);
            if let Some(jk) = j.checked_mul(k) {
                return self.powi(y, jk);
            }
        }
        self.intern(Node::Unary(Op::Powi(k), x))
    }

    /// xʸ (an integer constant y gives `powi`, y = ½ gives `sqrt`).
    pub fn powf(&mut self, x: NodeId, y: NodeId) -> NodeId {
        if let Some(Number::Rational(r)) = self.as_const(y) {
            if let Some(k) = r.to_i32() {
                return self.powi(x, k);
            }
            if r == Rational::HALF {
                return self.sqrt(x);
            }
        }
        self.binary(Op::Powf, x, y)
    }

    /// A one-argument function, folding constants only where the result is exact.
    fn unary_fn(&mut self, op: Op, x: NodeId) -> NodeId {
        if let Some(c) = self.as_const(x)
            && let Some(v) = fold_exact(op, c)
        {
            return self.constant(v);
        }
        if op == Op::Abs
            && let Node::Unary(Op::Neg | Op::Abs, a) = self.node(x)
        {
            let a = *a;
            return self.abs(a);
        }
        self.intern(Node::Unary(op, x))
    }

    /// √x.
    pub fn sqrt(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Sqrt, x)
    }
    /// eˣ.
    pub fn exp(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Exp, x)
    }
    /// ln x.
    pub fn ln(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Ln, x)
    }
    /// sin x.
    pub fn sin(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Sin, x)
    }
    /// cos x.
    pub fn cos(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Cos, x)
    }
    /// tan x.
    pub fn tan(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Tan, x)
    }
    /// arcsin x.
    pub fn asin(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Asin, x)
    }
    /// arccos x.
    pub fn acos(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Acos, x)
    }
    /// arctan x.
    pub fn atan(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Atan, x)
    }
    /// sinh x.
    pub fn sinh(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Sinh, x)
    }
    /// cosh x.
    pub fn cosh(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Cosh, x)
    }
    /// tanh x.
    pub fn tanh(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Tanh, x)
    }
    /// |x|.
    pub fn abs(&mut self, x: NodeId) -> NodeId {
        self.unary_fn(Op::Abs, x)
    }

    /// atan2(y, x).
    pub fn atan2(&mut self, y: NodeId, x: NodeId) -> NodeId {
        self.binary(Op::Atan2, y, x)
    }

    /// √(a² + b²) (hypot(a, 0) = |a|).
    pub fn hypot(&mut self, a: NodeId, b: NodeId) -> NodeId {
        if self.is_zero(b) {
            return self.abs(a);
        }
        if self.is_zero(a) {
            return self.abs(b);
        }
        self.binary(Op::Hypot, a, b)
    }

    /// Calls a function looked up with [`Func::from_name`]; `args` includes a method receiver
    /// as its first element. `powi` needs an integer constant exponent.
    pub fn call(&mut self, func: Func, args: &[NodeId]) -> Result<NodeId, CallError> {
        if args.len() != func.arity() {
            return Err(CallError::Arity {
                func,
                expected: func.arity(),
                found: args.len(),
            });
        }
        let x = args[0];
        Ok(match func.op() {
            None => {
                let k = self
                    .as_const(args[1])
                    .and_then(Number::as_rational)
                    .and_then(Rational::to_i32)
                    .ok_or(CallError::NonIntegerExponent)?;
                self.powi(x, k)
            }
            Some(Op::Powf) => self.powf(x, args[1]),
            Some(Op::Atan2) => self.atan2(x, args[1]),
            Some(Op::Hypot) => self.hypot(x, args[1]),
            Some(op) => self.unary_fn(op, x),
        })
    }
}

/// −c (exact when possible).
fn negate(c: Number) -> Number {
    match c {
        Number::Rational(r) => r
            .checked_neg()
            .map_or(Number::Float(-r.to_f64()), Number::Rational),
        Number::Float(x) => Number::Float(-x),
    }
}

/// f(c) when it is exact: the function at 0 or 1 where the value is 0 or 1, and |c|.
fn fold_exact(op: Op, c: Number) -> Option<Number> {
    let (zero, one) = (
        Number::Rational(Rational::ZERO),
        Number::Rational(Rational::ONE),
    );
    let at_zero = c.is_zero();
    match op {
        Op::Abs => Some(if c.is_negative() { negate(c) } else { c }),
        Op::Sqrt if at_zero || c.is_one() => Some(c),
        Op::Sin | Op::Tan | Op::Asin | Op::Atan | Op::Sinh | Op::Tanh if at_zero => Some(zero),
        Op::Exp | Op::Cos | Op::Cosh if at_zero => Some(one),
        Op::Ln | Op::Acos if c.is_one() => Some(zero),
        _ => None,
    }
}
