//! The stage structure of a method: a residual structure over named tableau slots.
//!
//! Every quantity is a vector of one step, of width `D` (coordinates) or `M` (constraints): the
//! step inputs `q_n`, `p_n`, the unknown blocks (e.g. `V_i`, `Λ_i`, `μ`), and named values built
//! from them by linear combinations with coefficients `c·h^k` (tableau entries as exact numbers)
//! or by problem kernels. The kernels are those of the problem kind ([`ProblemKind`]): for a
//! degenerate Lagrangian the map is `ϑ(q)` with `J = ∂ϑ/∂q` and the gradient `∇H(q)`; for a
//! holonomic system the map is `c(q)` with `J = G = Dc`, the gradient `∇V(q)`, and the velocity
//! `M⁻¹p`. Residual rows are values; the exact Jacobian follows by the chain rule
//! ([`crate::jacobian`]).
//!
//! The structure is generic over its coefficient type `C` ([`Slot`]): the generator builds it
//! with exact numbers, the description holds [`crate::Coefficient`]s, and the chain rule and
//! emission run on any [`crate::Scalar`].

use crate::facts::Facts;
use crate::scalar::Slot;
use crate::spark::Declaration;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A step input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Input {
    /// `q_n`.
    Q,
    /// `p_n`.
    P,
    /// `λ_n`, the multiplier carried from the previous step (width M; zero before the first
    /// step). The tangent map holds it fixed.
    Lambda,
}

/// The kind of problem a method applies to, which names its kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProblemKind {
    /// `L = ϑ(q)·v − H(q)` (`DegenerateLagrangian<D>`): map `ϑ`, gradient `∇H`, `M = D`.
    DegenerateLagrangian,
    /// `H = ½pᵀM⁻¹p + V(q)`, `c(q) = 0` (`HolonomicSystem<D, M>`): map `c`, gradient `∇V`,
    /// velocity `M⁻¹p`.
    Holonomic,
    /// Jay's index-2 form `q̇ = v + u(q, p, λ)`, `ṗ = f(q, v) + g(q, p, λ)`, `p = ϑ(q, v)`,
    /// `0 = φ(q, p)` (`ImplicitDae<D, M>`): the kernels [`DaeFunction`].
    ImplicitDae,
    /// A Hamiltonian DAE `q̇ = v(q, p) + u(q, p, λ)`, `ṗ = f(q, p) + g(q, p, λ)`, `0 = φ(q, p)`
    /// (`HamiltonianDae<D, M>`): the kernels [`DaeFunction`] `Velocity`, `HamiltonianForce`,
    /// `U`, `G`, `Phi`, `Psi`.
    HamiltonianDae,
}

impl ProblemKind {
    /// Whether the kind's problems are DAEs with `M` constraints given by [`DaeFunction`]s.
    pub fn is_dae(self) -> bool {
        matches!(self, ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae)
    }
}

/// A function of an implicit DAE (`ImplicitDae<D, M>`), a kernel whose every first partial is a
/// problem method (`theta_dq`, `u_dlambda`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DaeFunction {
    /// `ϑ(q, v)` (width D).
    Theta,
    /// `f(q, v)` (width D).
    Force,
    /// `u(q, p, λ)` (width D).
    U,
    /// `g(q, p, λ)` (width D).
    G,
    /// `φ(q, p)` (width M).
    Phi,
    /// `v(q, p)` of a Hamiltonian DAE (width D).
    Velocity,
    /// `f(q, p)` of a Hamiltonian DAE (width D).
    HamiltonianForce,
    /// The secondary constraint `ψ(q, p, q̇, ṗ) = ∂φ/∂q · q̇ + ∂φ/∂p · ṗ` of a Hamiltonian DAE
    /// (width M).
    Psi,
}

impl DaeFunction {
    /// The problem method that evaluates the function.
    pub fn method(self) -> &'static str {
        match self {
            DaeFunction::Theta => "theta",
            DaeFunction::Force | DaeFunction::HamiltonianForce => "force",
            DaeFunction::Velocity => "velocity",
            DaeFunction::U => "u",
            DaeFunction::G => "g",
            DaeFunction::Phi => "phi",
            DaeFunction::Psi => "psi",
        }
    }

    /// The names of the arguments, in order.
    pub fn arguments(self) -> &'static [&'static str] {
        match self {
            DaeFunction::Theta | DaeFunction::Force => &["q", "v"],
            DaeFunction::U | DaeFunction::G => &["q", "p", "lambda"],
            DaeFunction::Phi | DaeFunction::Velocity | DaeFunction::HamiltonianForce => &["q", "p"],
            DaeFunction::Psi => &["q", "p", "qdot", "pdot"],
        }
    }

    /// Whether problems of `kind` have this function.
    pub fn exists_for(self, kind: ProblemKind) -> bool {
        match self {
            DaeFunction::Theta | DaeFunction::Force => kind == ProblemKind::ImplicitDae,
            DaeFunction::Velocity | DaeFunction::HamiltonianForce | DaeFunction::Psi => {
                kind == ProblemKind::HamiltonianDae
            }
            DaeFunction::U | DaeFunction::G | DaeFunction::Phi => kind.is_dae(),
        }
    }
}

/// The width of a vector: `D` coordinates or `M` constraints (emitted as
/// `sparkgen_core::layout::Width`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Width {
    /// `D`.
    Coordinates,
    /// `M` (`D` for degenerate Lagrangians).
    Constraints,
}

/// A problem kernel with a vector value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kernel {
    /// The map `ϑ(q)` or `c(q)` (width M); ∂/∂q = `J(q)`.
    Map,
    /// `∇H(q)` or `∇V(q)` (width D); ∂/∂q = the Hessian.
    Gradient,
    /// `J(q)ᵀ w` (f-type, width D); ∂/∂q = `∂(Jᵀw)/∂q`, ∂/∂w = `Jᵀ`.
    JacT,
    /// `J(q) v` (g-type, width M); ∂/∂q = `∂(Jv)/∂q`, ∂/∂v = `J`.
    Jac,
    /// `M⁻¹p` (holonomic systems, width D); ∂/∂p = `M⁻¹`.
    Velocity,
    /// A function of an implicit DAE; ∂/∂(argument k) = [`AtomKind::DaePartial`].
    Dae(DaeFunction),
    /// A constant permutation of components `Σ w` (width D, from a width-M vector, M = D),
    /// ∂/∂w = [`AtomKind::Shift`]: only upstream's mis-indexed SPARK multiplier uses it.
    Shift(Shift),
}

/// A constant component shift `Σ` of a D-vector, the index arithmetic of the null multiplier μ
/// in upstream's SPARK integrator (GeometricIntegrators.jl; `docs/upstream_cases.md`, μ), which adds
/// `μ_k` to component `k + 1` of the same stage and `μ_D` to component 1 of the next stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Shift {
    /// `(Σw)_{k+1} = w_k` for `k < D`, `(Σw)_1 = 0`.
    Next,
    /// `(Σw)_1 = w_D`, every other component 0.
    Wrap,
}

impl Kernel {
    /// The number of arguments.
    pub fn arity(self) -> usize {
        match self {
            Kernel::Map | Kernel::Gradient | Kernel::Velocity | Kernel::Shift(_) => 1,
            Kernel::JacT | Kernel::Jac => 2,
            Kernel::Dae(f) => f.arguments().len(),
        }
    }

    /// The width of the value.
    pub fn width(self) -> Width {
        match self {
            Kernel::Map
            | Kernel::Jac
            | Kernel::Dae(DaeFunction::Phi)
            | Kernel::Dae(DaeFunction::Psi) => Width::Constraints,
            Kernel::Gradient
            | Kernel::JacT
            | Kernel::Velocity
            | Kernel::Dae(_)
            | Kernel::Shift(_) => Width::Coordinates,
        }
    }

    /// The partial derivative with respect to argument `arg` as a matrix atom.
    pub fn partial(self, arg: usize) -> AtomKind {
        match (self, arg) {
            (Kernel::Map, _) => AtomKind::J,
            (Kernel::Gradient, _) => AtomKind::Hessian,
            (Kernel::JacT, 0) => AtomKind::DJacT,
            (Kernel::JacT, _) => AtomKind::JT,
            (Kernel::Jac, 0) => AtomKind::DJac,
            (Kernel::Jac, _) => AtomKind::J,
            (Kernel::Velocity, _) => AtomKind::MassInverse,
            (Kernel::Dae(f), k) => AtomKind::DaePartial(f, k),
            (Kernel::Shift(shift), _) => AtomKind::Shift(shift),
        }
    }

    /// Whether problems of `kind` have this kernel.
    pub fn exists_for(self, kind: ProblemKind) -> bool {
        match self {
            Kernel::Velocity => kind == ProblemKind::Holonomic,
            Kernel::Dae(f) => f.exists_for(kind),
            // From width M to width D: only where M = D.
            Kernel::Shift(_) => kind == ProblemKind::DegenerateLagrangian,
            Kernel::Map | Kernel::Gradient | Kernel::JacT | Kernel::Jac => !kind.is_dae(),
        }
    }
}

/// A matrix evaluated from problem kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AtomKind {
    /// `J(q)`, `M×D` (argument: q).
    J,
    /// `J(q)ᵀ`, `D×M` (argument: q).
    JT,
    /// `∇²H(q)` or `∇²V(q)`, `D×D` (argument: q).
    Hessian,
    /// `∂(J(q)ᵀw)/∂q`, `D×D` (arguments: q, w).
    DJacT,
    /// `∂(J(q)v)/∂q`, `M×D` (arguments: q, v).
    DJac,
    /// `M⁻¹`, `D×D` (constant).
    MassInverse,
    /// The partial of a DAE function with respect to its argument `k` (arguments: all of the
    /// function's), e.g. `∂u/∂λ` (`D×M`).
    DaePartial(DaeFunction, usize),
    /// The constant matrix of a [`Shift`], `D×D` (no arguments).
    Shift(Shift),
}

/// A reference to a `D`-vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Term {
    /// A step input.
    Input(Input),
    /// Stage `stage` of unknown block `block`.
    Unknown {
        /// Index into [`Method::blocks`].
        block: usize,
        /// Stage (0 for single blocks).
        stage: usize,
    },
    /// A named value (index into [`Method::values`]).
    Value(usize),
}

/// A scalar coefficient `value · h^h_power`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coef<C> {
    /// The number.
    pub value: C,
    /// The power of the step size h.
    pub h_power: u32,
}

impl<C: Slot> Coef<C> {
    /// `value` with no power of h.
    pub fn new(value: C) -> Coef<C> {
        Coef { value, h_power: 0 }
    }

    /// `h · value`.
    pub fn h(value: C) -> Coef<C> {
        Coef { value, h_power: 1 }
    }

    /// `±1`.
    pub fn sign(positive: bool) -> Coef<C> {
        let one = C::one();
        Coef::new(if positive { one } else { one.neg() })
    }
}

/// How a value is computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr<C> {
    /// `Σ_k c_k · t_k`.
    Linear(Vec<(Coef<C>, Term)>),
    /// `kernel(args)`.
    Kernel(Kernel, Vec<Term>),
}

/// A named value of the step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value<C> {
    /// Identifier in emitted code, e.g. `q_2`.
    pub name: String,
    /// Its definition (refers only to earlier values).
    pub expr: Expr<C>,
}

/// What a block holds (emitted as `sparkgen_core::layout::Role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// Stage velocities, guessed by extrapolation.
    Velocity,
    /// Stage momenta, guessed by extrapolation.
    Momentum,
    /// Lagrange multipliers, guessed from the multiplier that holds the constraint at the step's
    /// start where the problem kind gives one, else from the previous step.
    Multiplier,
    /// Stage position increments `Y_i = (Q_i − q_n)/h`, guessed from the extrapolated position.
    PositionIncrement,
    /// Stage momentum increments `Z_i = (P_i − p_n)/h`, guessed from the extrapolated momentum.
    MomentumIncrement,
    /// Multipliers of a correction that vanishes on the exact solution (`μ` of the null-vector
    /// relaxation, the multipliers of a projection onto the secondary constraint), guessed from
    /// the previous step.
    Correction,
    /// Residual rows.
    Residual,
}

/// The stages whose nodes a block's vectors sit at, which places their initial guess in time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Nodes {
    /// The internal stages, at `c_i` ([`Method::nodes`]).
    #[default]
    Internal,
    /// The projective stages, at `c̃_j` ([`Method::projective_nodes`]).
    Projective,
}

/// An unknown (or residual) block: `stages` consecutive vectors of one width.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// Name, e.g. `V`.
    pub name: String,
    /// Number of vectors.
    pub stages: usize,
    /// What it holds.
    pub role: Role,
    /// The width of its vectors.
    pub width: Width,
    /// The stages its vectors sit at.
    pub nodes: Nodes,
}

impl Block {
    /// The same block at the projective stages.
    pub fn projective(self) -> Block {
        Block {
            nodes: Nodes::Projective,
            ..self
        }
    }
}

/// A residual row block: `value = 0` at position `(block, stage)` of the residual layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Index into [`Method::rows`] blocks.
    pub block: usize,
    /// Stage within the row block.
    pub stage: usize,
    /// The value that must vanish.
    pub value: usize,
}

/// A method for a given s: unknowns, values, residual rows, update.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Method<C> {
    /// Family name, e.g. `SlrkLobattoIIIE`.
    pub family: String,
    /// Type name of the emitted stepper, e.g. `SlrkLobattoIIIE3`.
    pub name: String,
    /// A description for the doc comment.
    pub doc: String,
    /// The problem kind, which names the kernels.
    pub problem: ProblemKind,
    /// The name of the partitioned tableau pair the method is built on (a `PairKind` of the
    /// catalogue, e.g. `LobattoIIIAIIIB`).
    pub pair: String,
    /// Stages s.
    pub s: usize,
    /// Classical order.
    pub order: usize,
    /// Nodes `c_i` of the internal stages.
    pub nodes: Vec<C>,
    /// Nodes `c̃_j` of the projective stages (empty where no block sits at them).
    pub projective_nodes: Vec<C>,
    /// Unknown blocks (the unknown layout).
    pub blocks: Vec<Block>,
    /// Residual row blocks (the residual layout; same total size).
    pub rows_layout: Vec<Block>,
    /// Values in dependency order.
    pub values: Vec<Value<C>>,
    /// Residual rows.
    pub rows: Vec<Row>,
    /// `q_{n+1}` (index into `values`).
    pub q_next: usize,
    /// `p_{n+1}` (index into `values`).
    pub p_next: usize,
    /// The stage Jacobian is rank-deficient by construction (a gauge freedom of the unknowns),
    /// so Newton takes minimum-norm steps (emitted as `StageMethod::RANK_DEFICIENT`).
    pub rank_deficient: bool,
    /// The multiplier carried to the next step, `λ_{n+1} = Σ_j d^λ_j Λ̃_j`: the unknown block of
    /// the `Λ̃_j` and the weights `d^λ` (emitted as `StageMethod::MULTIPLIER`); `None` for
    /// methods that carry none.
    pub multiplier: Option<(usize, Vec<C>)>,
    /// What the structure implies for its users ([`crate::facts`]).
    pub facts: Facts,
    /// The earlier catalogue method whose unknowns, stage equations and update these are
    /// ([`Method::same_equations`]), if any: one stepper serves both, under both names.
    pub same_equations_as: Option<String>,
    /// The declaration the structure was built from ([`crate::spark::build`]), if any: its
    /// description carries the declaration instead of the blocks, values and rows.
    pub declared: Option<Declaration<C>>,
}

/// A method that cannot be emitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MethodError {
    /// A value uses a kernel that the problem kind does not have.
    #[error(
        "{method}: value `{value}` uses the kernel {kernel:?}, which {kind:?} problems do not have"
    )]
    MissingKernel {
        /// The method's name.
        method: String,
        /// The offending value.
        value: String,
        /// Its kernel.
        kernel: Kernel,
        /// The method's problem kind.
        kind: ProblemKind,
    },
    /// The stage equations read `λ_n` other than as `−λ_n` in the residual row `(b, 1)` of the
    /// carried multiplier's block `b` (the continuity equation `Λ̃_1 − λ_n = 0`), where the
    /// runtime's linearisation in `λ_n` expects it
    /// (`sparkgen_core::stage::MultiplierUpdate::read`).
    #[error("{method}: value `{value}` reads λ_n outside the continuity row Λ̃_1 − λ_n = 0")]
    MultiplierRead {
        /// The method's name.
        method: String,
        /// The offending value.
        value: String,
    },
}

impl<C> Value<C> {
    /// Whether the value reads the previous step's multiplier `λ_n`.
    fn reads_multiplier(&self) -> bool {
        let lambda = Term::Input(Input::Lambda);
        match &self.expr {
            Expr::Linear(terms) => terms.iter().any(|(_, t)| *t == lambda),
            Expr::Kernel(_, args) => args.contains(&lambda),
        }
    }
}

impl<C> Method<C> {
    /// The same method with every coefficient mapped by `f` (e.g. from the generator's exact
    /// numbers to a description's [`crate::Coefficient`]s, or from those to double-doubles).
    pub fn map<D>(&self, f: impl Fn(&C) -> D) -> Method<D> {
        let coef = |c: &Coef<C>| Coef {
            value: f(&c.value),
            h_power: c.h_power,
        };
        Method {
            family: self.family.clone(),
            name: self.name.clone(),
            doc: self.doc.clone(),
            problem: self.problem,
            pair: self.pair.clone(),
            s: self.s,
            order: self.order,
            nodes: self.nodes.iter().map(&f).collect(),
            projective_nodes: self.projective_nodes.iter().map(&f).collect(),
            blocks: self.blocks.clone(),
            rows_layout: self.rows_layout.clone(),
            values: self
                .values
                .iter()
                .map(|v| Value {
                    name: v.name.clone(),
                    expr: match &v.expr {
                        Expr::Linear(terms) => {
                            Expr::Linear(terms.iter().map(|(c, t)| (coef(c), *t)).collect())
                        }
                        Expr::Kernel(kernel, args) => Expr::Kernel(*kernel, args.clone()),
                    },
                })
                .collect(),
            rows: self.rows.clone(),
            q_next: self.q_next,
            p_next: self.p_next,
            rank_deficient: self.rank_deficient,
            multiplier: self
                .multiplier
                .as_ref()
                .map(|(block, weights)| (*block, weights.iter().map(&f).collect())),
            facts: self.facts.clone(),
            same_equations_as: self.same_equations_as.clone(),
            declared: self.declared.as_ref().map(|d| d.map(&f)),
        }
    }
}

impl<C: Slot> Method<C> {
    /// Whether `other` has the same unknowns, stage equations and update as `self`: everything
    /// but the names and the description agree, so one emitted stepper serves both (e.g. the
    /// midpoint and modified-midpoint projections of Gauss coincide).
    pub fn same_equations(&self, other: &Method<C>) -> bool {
        let Method {
            family: _,
            name: _,
            doc: _,
            problem,
            pair,
            s,
            order,
            nodes,
            projective_nodes,
            blocks,
            rows_layout,
            values,
            rows,
            q_next,
            p_next,
            rank_deficient,
            multiplier,
            facts: _,
            same_equations_as: _,
            declared: _,
        } = self;
        (multiplier, rank_deficient, projective_nodes)
            == (
                &other.multiplier,
                &other.rank_deficient,
                &other.projective_nodes,
            )
            && (
                problem,
                pair,
                s,
                order,
                nodes,
                blocks,
                rows_layout,
                values,
                rows,
                q_next,
                p_next,
            ) == (
                &other.problem,
                &other.pair,
                &other.s,
                &other.order,
                &other.nodes,
                &other.blocks,
                &other.rows_layout,
                &other.values,
                &other.rows,
                &other.q_next,
                &other.p_next,
            )
    }

    /// The values that `roots` need, transitively, in dependency (index) order.
    pub fn needed(&self, roots: impl IntoIterator<Item = Term>) -> BTreeSet<usize> {
        let mut need = BTreeSet::new();
        let mut stack: Vec<Term> = roots.into_iter().collect();
        while let Some(t) = stack.pop() {
            if let Term::Value(v) = t
                && need.insert(v)
            {
                match &self.values[v].expr {
                    Expr::Linear(terms) => stack.extend(terms.iter().map(|(_, t)| *t)),
                    Expr::Kernel(_, args) => stack.extend(args.iter().copied()),
                }
            }
        }
        need
    }

    /// Whether the stage equations read the previous step's multiplier `λ_n`.
    pub fn reads_multiplier(&self) -> bool {
        self.values.iter().any(Value::reads_multiplier)
    }

    /// Checks that every kernel exists for the method's problem kind, and that `λ_n` is read
    /// only as `−λ_n` in the continuity row ([`MethodError::MultiplierRead`]).
    pub fn check(&self) -> Result<(), MethodError> {
        let continuity = self.multiplier.as_ref().and_then(|(block, _)| {
            self.rows
                .iter()
                .find(|row| row.block == *block && row.stage == 0)
                .map(|row| row.value)
        });
        for (index, value) in self.values.iter().enumerate() {
            let lambda = Term::Input(Input::Lambda);
            let as_continuity = match &value.expr {
                Expr::Linear(terms) => terms
                    .iter()
                    .filter(|(_, t)| *t == lambda)
                    .all(|(c, _)| *c == Coef::sign(false)),
                Expr::Kernel(..) => false,
            };
            if value.reads_multiplier() && !(Some(index) == continuity && as_continuity) {
                return Err(MethodError::MultiplierRead {
                    method: self.name.clone(),
                    value: value.name.clone(),
                });
            }
        }
        for value in &self.values {
            if let Expr::Kernel(kernel, _) = value.expr
                && !kernel.exists_for(self.problem)
            {
                return Err(MethodError::MissingKernel {
                    method: self.name.clone(),
                    value: value.name.clone(),
                    kernel,
                    kind: self.problem,
                });
            }
        }
        Ok(())
    }

    /// Appends a value and returns its term.
    pub fn push(&mut self, name: impl Into<String>, expr: Expr<C>) -> Term {
        self.values.push(Value {
            name: name.into(),
            expr,
        });
        Term::Value(self.values.len() - 1)
    }

    /// The value `expr`, appended under `name` unless an equal expression exists already
    /// (then that one is reused): a stage point shared by an internal and a projective stage,
    /// or a kernel at a shared point, is evaluated once.
    pub fn intern_index(&mut self, name: impl Into<String>, expr: Expr<C>) -> usize {
        match self.values.iter().position(|v| v.expr == expr) {
            Some(index) => index,
            None => {
                self.values.push(Value {
                    name: name.into(),
                    expr,
                });
                self.values.len() - 1
            }
        }
    }

    /// [`Method::intern_index`] as a term.
    pub fn intern(&mut self, name: impl Into<String>, expr: Expr<C>) -> Term {
        Term::Value(self.intern_index(name, expr))
    }

    /// Appends a residual row `value = 0` at `(block, stage)`; a bare input or unknown is
    /// wrapped in a value first.
    pub fn row(&mut self, block: usize, stage: usize, value: Term) {
        let value = match value {
            Term::Value(v) => v,
            other => {
                let name = format!(
                    "row_{}_{}",
                    self.rows_layout[block].name.to_lowercase(),
                    stage + 1
                );
                self.values.push(Value {
                    name,
                    expr: Expr::Linear(vec![(Coef::new(C::one()), other)]),
                });
                self.values.len() - 1
            }
        };
        self.rows.push(Row {
            block,
            stage,
            value,
        });
    }

    /// Appends the force of a degenerate Lagrangian at stage `i` (from 0),
    /// `F_i = ∂L/∂q(Q_i, V_i) = J(Q_i)ᵀV_i − ∇H(Q_i)`, and returns it.
    pub fn force(&mut self, i: usize, q: Term, v: Term) -> Term {
        debug_assert_eq!(self.problem, ProblemKind::DegenerateLagrangian);
        let jtv = self.push(
            format!("jtv_{}", i + 1),
            Expr::Kernel(Kernel::JacT, vec![q, v]),
        );
        let grad = self.push(
            format!("grad_h_{}", i + 1),
            Expr::Kernel(Kernel::Gradient, vec![q]),
        );
        self.push(format!("f_{}", i + 1), minus(jtv, grad))
    }

    /// The number of vectors of unknowns.
    pub fn unknown_vectors(&self) -> usize {
        self.blocks.iter().map(|b| b.stages).sum()
    }

    /// The width of a term.
    pub fn width(&self, t: Term) -> Width {
        match t {
            Term::Input(Input::Lambda) => Width::Constraints,
            Term::Input(_) => Width::Coordinates,
            Term::Unknown { block, .. } => self.blocks[block].width,
            Term::Value(v) => match &self.values[v].expr {
                Expr::Kernel(kernel, _) => kernel.width(),
                Expr::Linear(terms) => terms
                    .first()
                    .map_or(Width::Coordinates, |(_, t)| self.width(*t)),
            },
        }
    }
}

/// A block of `stages` vectors of width `width`.
pub fn block(name: &str, stages: usize, role: Role, width: Width) -> Block {
    Block {
        name: name.to_owned(),
        stages,
        role,
        width,
        nodes: Nodes::Internal,
    }
}

/// `x − y`.
pub fn minus<C: Slot>(x: Term, y: Term) -> Expr<C> {
    Expr::Linear(vec![(Coef::sign(true), x), (Coef::sign(false), y)])
}
