//! The stage Jacobian by the chain rule over a [`Method`].
//!
//! The derivative of a value with respect to an unknown `(block, stage)` is a sum of terms
//! `(Σ_k c_k h^k) · A₁A₂⋯` where the `A`s are kernel partials ([`Atom`]s) evaluated at stage
//! values and the empty product is the identity. Like terms are collected with exact
//! coefficients (in the arithmetic of the coefficient type, exact in the generator), so structural
//! zeros (e.g. the zero first row of Lobatto IIIA) never reach the emitted code.
//!
//! Why not the expression DAG of `sparkgen-sym`, which differentiates the problem's kernels: its
//! nodes are scalars over `f64` constants and commuting products, while here the atoms are
//! `D×D` (or `D×M`) matrices whose products do not commute (`J(Q̃₁)ᵀ · ∇²H(Q₂)` is not
//! `∇²H(Q₂) · J(Q̃₁)ᵀ`), and the scalars are the method's coefficients, exact in the generator and
//! double-double in the macro, whose cancellations decide which blocks are structural zeros. A
//! product of matrix atoms with a polynomial in `h` over those coefficients is exactly the
//! normal form the emitter needs (one `add_block` per monomial sum); the DAG would have to grow
//! non-commutative matrix nodes and a second constant type to express it.

use crate::scalar::Scalar;
use crate::structure::{AtomKind, Coef, Expr, Input, Method, Term};
use std::collections::BTreeMap;

/// A kernel partial evaluated at given arguments, e.g. `J(Q₂)` or `∂(Jᵀw)/∂q (Q₂, V₂)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    /// Which partial.
    pub kind: AtomKind,
    /// Its arguments.
    pub args: Vec<Term>,
}

/// A product of atoms (indices into [`Jacobian::atoms`]); empty = identity.
pub type Monomial = Vec<usize>;

/// `Σ_k c_k h^k` keyed by the power k.
pub type HPoly<C> = BTreeMap<u32, C>;

/// A derivative `∂value/∂unknown`: monomials with their scalar factors.
pub type Derivative<C> = BTreeMap<Monomial, HPoly<C>>;

/// A variable of differentiation: an unknown `(block, stage)` or a step input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    /// Stage `stage` of unknown block `block`.
    Unknown(usize, usize),
    /// `q_n` or `p_n`.
    Input(Input),
}

/// Derivatives of a value with respect to every variable it depends on.
pub type Gradient<C> = BTreeMap<Var, Derivative<C>>;

/// The derivatives of a method: atoms; for each residual row its nonzero blocks with respect
/// to the unknowns (the stage Jacobian) and the inputs; the same for `q_{n+1}`, `p_{n+1}`.
#[derive(Clone, Debug)]
pub struct Jacobian<C> {
    /// Distinct atoms, in first-use order.
    pub atoms: Vec<Atom>,
    /// For each row of [`Method::rows`]: `∂row/∂var`.
    pub rows: Vec<Gradient<C>>,
    /// `∂q_{n+1}/∂var` and `∂p_{n+1}/∂var`.
    pub update: [Gradient<C>; 2],
}

fn add_into<C: Scalar>(
    target: &mut Derivative<C>,
    source: &Derivative<C>,
    coef: &Coef<C>,
    prefix: Option<usize>,
) {
    for (mono, poly) in source {
        let key: Monomial = prefix.into_iter().chain(mono.iter().copied()).collect();
        let slot = target.entry(key).or_default();
        for (k, c) in poly {
            let entry = slot.entry(k + coef.h_power).or_insert_with(C::zero);
            *entry = entry.add(&c.mul(&coef.value));
        }
    }
}

fn prune<C: Scalar>(d: &mut Gradient<C>) {
    for der in d.values_mut() {
        for poly in der.values_mut() {
            poly.retain(|_, c| !c.is_negligible());
        }
        der.retain(|_, poly| !poly.is_empty());
    }
    d.retain(|_, der| !der.is_empty());
}

/// Differentiates every value of `method` with respect to every unknown.
pub fn jacobian<C: Scalar>(method: &Method<C>) -> Jacobian<C> {
    let mut atoms: BTreeMap<Atom, usize> = BTreeMap::new();
    let mut order: Vec<Atom> = Vec::new();
    let mut per_value: Vec<Gradient<C>> = Vec::with_capacity(method.values.len());
    let one = Coef::new(C::one());
    for value in &method.values {
        let mut d: Gradient<C> = BTreeMap::new();
        let identity: Derivative<C> =
            BTreeMap::from([(Vec::new(), BTreeMap::from([(0, C::one())]))]);
        let add_term = |d: &mut Gradient<C>, term: &Term, coef: &Coef<C>, prefix: Option<usize>| {
            let var = match *term {
                Term::Input(input) => Var::Input(input),
                Term::Unknown { block, stage } => Var::Unknown(block, stage),
                Term::Value(v) => {
                    for (u, der) in &per_value[v] {
                        add_into(d.entry(*u).or_default(), der, coef, prefix);
                    }
                    return;
                }
            };
            add_into(d.entry(var).or_default(), &identity, coef, prefix);
        };
        match &value.expr {
            Expr::Linear(terms) => {
                for (coef, term) in terms {
                    add_term(&mut d, term, coef, None);
                }
            }
            Expr::Kernel(kernel, args) => {
                for (a, term) in args.iter().enumerate() {
                    let atom = Atom {
                        kind: kernel.partial(a),
                        args: args.clone(),
                    };
                    let atom = match atom.kind {
                        // J, Jᵀ and the Hessian depend on q only, M⁻¹ and Σ on nothing.
                        AtomKind::J | AtomKind::JT | AtomKind::Hessian => Atom {
                            args: vec![args[0]],
                            ..atom
                        },
                        AtomKind::MassInverse | AtomKind::Shift(_) => Atom {
                            args: Vec::new(),
                            ..atom
                        },
                        AtomKind::DJacT | AtomKind::DJac | AtomKind::DaePartial(..) => atom,
                    };
                    let index = *atoms.entry(atom.clone()).or_insert_with(|| {
                        order.push(atom);
                        order.len() - 1
                    });
                    add_term(&mut d, term, &one, Some(index));
                }
            }
        }
        prune(&mut d);
        per_value.push(d);
    }
    let rows = method
        .rows
        .iter()
        .map(|r| per_value[r.value].clone())
        .collect();
    let update = [
        per_value[method.q_next].clone(),
        per_value[method.p_next].clone(),
    ];
    Jacobian {
        atoms: order,
        rows,
        update,
    }
}
