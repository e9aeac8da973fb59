//! SPARK, VSPARK and VPARK as one declarative builder: a method of these families is its
//! header, its structure variant ([`Structure`]) and the named slots of its SPARK tableau
//! ([`Slots`]), and [`build`] expands them into the stage structure. The builder is generic over
//! the slot entries ([`Slot`]): the generator runs it over exact numbers, the description's
//! reader over [`crate::Coefficient`]s, and both give the same structure, so a description
//! carries the declaration instead of its expansion.
//!
//! The view is the index-2 form of a degenerate Lagrangian `L = ϑ(q)·v − H(q)`:
//! `q̇ = v + u`, `ṗ = f(q, v) + g(q, λ)`, `0 = φ(q, p) = p − ϑ(q)` with `u = λ` and
//! `g = J(q)ᵀλ`, `J = ∂ϑ/∂q` (on an implicit or Hamiltonian DAE, `u`, `g`, `φ` and, on the
//! latter, `v(q, p)`, `f(q, p)` are the problem's). The slots are those of upstream's
//! `TableauSPARK` (GeometricIntegrators.jl): s internal and r projective stages,
//! `Q_i = q_n + h Σ_j a^q_ij V_j + h Σ_j α^q_ij U_j`,
//! `P_i = p_n + h Σ_j a^p_ij F_j + h Σ_j α^p_ij G_j`, the projective `Q̃_i`, `P̃_i` with
//! `ã`, `α̃`, the update `q_{n+1} = q_n + h Σ b^q_i V_i + h Σ β^q_j U_j`,
//! `p_{n+1} = p_n + h Σ b^p_i F_i + h Σ β^p_j G_j`, the ω and δ rows and the null vector d.
//!
//! **SPARK** has no internal velocity (`v ≡ 0`, so `f = −∇H`): the projective multipliers
//! `Λ̃_j = U_j` carry the velocity. Every stage quantity is explicit in `Λ̃`, so the unknowns are
//! `Λ̃_1..Λ̃_r` only:
//! `Q_i = q_n + h Σ_j α^q_ij Λ̃_j`, `F_i = −∇H(Q_i)` (internal, i = 1..s);
//! `Q̃_i = q_n + h Σ_j α̃^q_ij Λ̃_j`, `G_i = J(Q̃_i)ᵀΛ̃_i`,
//! `P̃_i = p_n + h Σ_j ã^p_ij F_j + h Σ_j α̃^p_ij G_j` (projective, i = 1..r);
//! rows `Σ_j ω_ij φ(Q̃_j, P̃_j) + ω_{i,r+1} φ(q_{n+1}, p_{n+1}) = 0` (i ≤ r − ρ) and
//! `Σ_j δ_ij Λ̃_j = 0`. (The internal momenta `P_i` enter nothing and are not formed.) SPARK
//! ignores the tableau's null vector: it has no internal velocities whose gauge d would fix.
//! Upstream adds a multiplier μ along d to the position rows of the next (stage, component) — a
//! mis-indexing that cost `SPARKLobattoIIIAIIIB/IIIBIIIA` their order; without it they reach
//! 2s − 2 and coincide with SLRK over the same pair (`docs/upstream_cases.md`, μ). Both of
//! upstream's forms are kept for side-by-side measurement, never as defaults
//! ([`NullMultiplier`]).
//!
//! **VSPARK** adds internal velocities `V_i` with the primary constraint at every internal
//! stage, relaxed along the null vector d where the tableau has one:
//! `Q_i = q_n + h Σ_j a^q_ij V_j + h Σ_j α^q_ij Λ̃_j`, `F_i = J(Q_i)ᵀV_i − ∇H(Q_i)`,
//! `P_i = p_n + h Σ_j a^p_ij F_j + h Σ_j α^p_ij G_j`, rows `P_i − ϑ(Q_i) − (d_i/b^p_i) μ = 0`,
//! `Σ_i d_i V_i = 0`, and the projective stages and rows of SPARK with the `ã^q V`, `ã^p F`
//! terms. This is also upstream's VSPARKprimary, whose `u ≡ λ` is the view here (it puts μ on
//! the momentum row, which only rescales μ by h). Over SPARK tableaus whose internal and
//! projective slots coincide, `V` and `Λ̃` enter alike and the stage Jacobian is rank-deficient.
//!
//! **VPARK** has the internal stages of VSPARK and imposes the constraint pointwise at the
//! projective stages, `φ(Q̃_i, P̃_i) = 0`; a projective stage at `t_n` (`c^λ_1 = 0`, where that
//! row holds trivially) takes the previous step's multiplier instead, `Λ̃_1 = λ_n`.
//!
//! VSPARK and VPARK carry `λ_{n+1} = Σ_j d^λ_j Λ̃_j` to the next step (SPARK's `Λ̃` are
//! velocities). On a Hamiltonian DAE the internal stage values are unknowns
//! (`Q_i = q_n + h Y_i`, `P_i = p_n + h Z_i`, with `V_i = v(Q_i, P_i)`, `F_i = f(Q_i, P_i)`);
//! on any DAE the projective ones are (`Q̃_j = q_n + h Ỹ_j`, `P̃_j = p_n + h Z̃_j`, with
//! `U_j = u(Q̃_j, P̃_j, Λ̃_j)`, `G_j = g(Q̃_j, P̃_j, Λ̃_j)`).
//!
//! Whatever needs arithmetic beyond negation stays with the generator and arrives as a slot or
//! a fact: the μ weights `dᵢ/b^p_i` ([`NullVector`]), whether the stage Jacobian is
//! rank-deficient and whether the rows impose the constraint at the step's end ([`Header`]).

use crate::facts::{Facts, Multiplier};
use crate::scalar::Slot;
use crate::structure::{
    Block, Coef, DaeFunction, Expr, Input, Kernel, Method, Nodes, ProblemKind, Role, Shift, Term,
    Width, block, minus,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Where SPARK puts a multiplier μ along the tableau's null vector d (of the shipped SPARK
/// tableaus only `SPARKLobattoIIIAIIIB/IIIBIIIA` carry one, with r = s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NullMultiplier {
    /// Nowhere, and no `Σ dᵢΛ̃ᵢ` row: the correct form (no internal velocity has the gauge d
    /// would fix).
    Absent,
    /// Upstream's code (GeometricIntegrators.jl's SPARK integrator; `docs/upstream_cases.md`,
    /// μ), for compatibility: the row `Σ dᵢΛ̃ᵢ = 0`, and `−h (dᵢ/b^p_i) μ_k` added to component
    /// k + 1 of `Q_i` and, for k = D, to component 1 of `Q_{i+1}` (of `Q̃_1` after the last
    /// stage): `Q_i −= h (dᵢ/b^p_i) Σ_next μ + h (d_{i−1}/b^p_{i−1}) Σ_wrap μ` ([`Shift`]).
    UpstreamCode,
    /// Upstream's documentation ("SPARK adds μ to its own primary-constraint row"): the row
    /// `Σ dᵢΛ̃ᵢ = 0` and `(dᵢ/b^p_i) μ` on ω row i.
    OmegaRow,
}

impl NullMultiplier {
    /// The family-name suffix: none, `UpstreamMu` or `OmegaMu`.
    pub fn suffix(self) -> &'static str {
        match self {
            NullMultiplier::Absent => "",
            NullMultiplier::UpstreamCode => "UpstreamMu",
            NullMultiplier::OmegaRow => "OmegaMu",
        }
    }
}

/// Which residual structure to build over a SPARK tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Structure {
    /// SPARK: projective multipliers only (`v ≡ 0`), with μ where [`NullMultiplier`] puts it.
    Spark(NullMultiplier),
    /// VSPARK: internal velocities with the primary constraint at each internal stage.
    Vspark,
    /// VPARK: as VSPARK, with the constraint imposed at each projective stage instead of the ω
    /// rows; a projective stage at `t_n` (`c^λ_1 = 0`) takes `Λ̃_1 = λ_n` instead.
    Vpark,
}

impl Structure {
    /// Where SPARK puts μ (nowhere for VSPARK and VPARK, whose μ is the gauge's).
    fn null_multiplier(self) -> NullMultiplier {
        match self {
            Structure::Spark(mu) => mu,
            Structure::Vspark | Structure::Vpark => NullMultiplier::Absent,
        }
    }

    /// Whether the internal velocities `V_i` are unknowns, with the primary constraint at every
    /// internal stage (VSPARK and VPARK, except on a Hamiltonian DAE, whose internal velocities
    /// are `v(Q_i, P_i)`).
    pub fn internal_velocities(self, kind: ProblemKind) -> bool {
        !matches!(self, Structure::Spark(_)) && kind != ProblemKind::HamiltonianDae
    }

    /// Whether the stage equations use the tableau's null vector d where it has one: to fix the
    /// gauge of the internal velocities (`Σ dᵢVᵢ = 0`), or where upstream's SPARK puts μ.
    pub fn takes_null_vector(self, kind: ProblemKind) -> bool {
        self.internal_velocities(kind) || self.null_multiplier() != NullMultiplier::Absent
    }

    /// The multiplier carried to the next step, `λ_{n+1} = Σ_j d^λ_j Λ̃_j`: a projection
    /// multiplier beside internal velocities, the velocity where `u(Q̃, P̃, Λ̃)` carries the
    /// motion on a DAE, none for SPARK on a degenerate Lagrangian (its `Λ̃` are velocities).
    pub fn carried_multiplier(self, kind: ProblemKind) -> Option<Multiplier> {
        if self.internal_velocities(kind) {
            Some(Multiplier::Projection)
        } else {
            kind.is_dae().then_some(Multiplier::Velocity)
        }
    }
}

/// The null vector d (length s) and the weights `dᵢ/b^p_i` with which μ enters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NullVector<C> {
    /// `d`.
    pub d: Vec<C>,
    /// `dᵢ/b^p_i`.
    pub weights: Vec<C>,
}

/// The named slots of a SPARK tableau with s internal and r projective stages (pairs are
/// `[q, p]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slots<C> {
    /// `a^q`, `a^p` (s×s).
    pub a: [Vec<Vec<C>>; 2],
    /// `α^q`, `α^p` (s×r).
    pub alpha: [Vec<Vec<C>>; 2],
    /// `ã^q`, `ã^p` (r×s).
    pub a_tilde: [Vec<Vec<C>>; 2],
    /// `α̃^q`, `α̃^p` (r×r).
    pub alpha_tilde: [Vec<Vec<C>>; 2],
    /// `b^q`, `b^p` (s).
    pub b: [Vec<C>; 2],
    /// `β^q`, `β^p` (r).
    pub beta: [Vec<C>; 2],
    /// `c^q` (s): the nodes of the internal stages.
    pub c: Vec<C>,
    /// `c^λ` (r): the nodes of the projective stages.
    pub c_lambda: Vec<C>,
    /// `d^λ` (r): `λ_{n+1} = Σ_j d^λ_j Λ̃_j`.
    pub d_lambda: Vec<C>,
    /// `ω`, (r − ρ)×(r + 1).
    pub omega: Vec<Vec<C>>,
    /// `δ`, ρ×r.
    pub delta: Vec<Vec<C>>,
    /// The null vector, where the structure takes one ([`Structure::takes_null_vector`]) and
    /// the tableau has one.
    pub null: Option<NullVector<C>>,
}

/// Whether a slot is a vector or a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A vector.
    Vector,
    /// A matrix, row by row.
    Matrix,
}

/// The names of the slots, in the order [`Slots::named`] lists them.
const NAMES: [(&str, Shape); 19] = [
    ("a_q", Shape::Matrix),
    ("a_p", Shape::Matrix),
    ("alpha_q", Shape::Matrix),
    ("alpha_p", Shape::Matrix),
    ("a_tilde_q", Shape::Matrix),
    ("a_tilde_p", Shape::Matrix),
    ("alpha_tilde_q", Shape::Matrix),
    ("alpha_tilde_p", Shape::Matrix),
    ("b_q", Shape::Vector),
    ("b_p", Shape::Vector),
    ("beta_q", Shape::Vector),
    ("beta_p", Shape::Vector),
    ("c", Shape::Vector),
    ("c_lambda", Shape::Vector),
    ("d_lambda", Shape::Vector),
    ("omega", Shape::Matrix),
    ("delta", Shape::Matrix),
    ("null_d", Shape::Vector),
    ("null_weights", Shape::Vector),
];

/// The rows of a matrix slot.
fn rows<C>(m: &[Vec<C>]) -> Vec<&[C]> {
    m.iter().map(Vec::as_slice).collect()
}

/// Takes the slot `slot` out of `named`.
fn take<C>(
    named: &mut HashMap<&str, Vec<Vec<C>>>,
    slot: &'static str,
) -> Result<Vec<Vec<C>>, BuildError> {
    named.remove(slot).ok_or(BuildError::MissingSlot { slot })
}

/// Takes the vector slot `slot` (one row, or none if empty) out of `named`.
fn take_vector<C>(
    named: &mut HashMap<&str, Vec<Vec<C>>>,
    slot: &'static str,
) -> Result<Vec<C>, BuildError> {
    let mut rows = take(named, slot)?;
    match rows.len() {
        0 => Ok(Vec::new()),
        1 => Ok(rows.remove(0)),
        _ => Err(BuildError::Shape {
            slot,
            expected: "a vector, one row".to_owned(),
        }),
    }
}

impl<C> Slots<C> {
    /// Every slot by name (`a_q`, `alpha_tilde_p`, `c_lambda`, …; `null_d` and `null_weights`
    /// only where there is a null vector), its shape and its rows (a vector is one row).
    pub fn named(&self) -> Vec<(&'static str, Shape, Vec<&[C]>)> {
        let matrices = [
            &self.a[0],
            &self.a[1],
            &self.alpha[0],
            &self.alpha[1],
            &self.a_tilde[0],
            &self.a_tilde[1],
            &self.alpha_tilde[0],
            &self.alpha_tilde[1],
        ]
        .map(|m| rows(m));
        let vectors = [
            &self.b[0],
            &self.b[1],
            &self.beta[0],
            &self.beta[1],
            &self.c,
            &self.c_lambda,
            &self.d_lambda,
        ]
        .map(|v| vec![v.as_slice()]);
        let null = self
            .null
            .iter()
            .flat_map(|n| [vec![n.d.as_slice()], vec![n.weights.as_slice()]]);
        let all = matrices
            .into_iter()
            .chain(vectors)
            .chain([rows(&self.omega), rows(&self.delta)])
            .chain(null);
        NAMES
            .iter()
            .zip(all)
            .map(|(&(name, shape), rows)| (name, shape, rows))
            .collect()
    }

    /// The slots from their rows by name (the inverse of [`Slots::named`]): every slot but the
    /// null vector's must be there, a vector as one row (an empty one as none).
    pub fn from_named(mut named: HashMap<&str, Vec<Vec<C>>>) -> Result<Slots<C>, BuildError> {
        if let Some(name) = named.keys().find(|k| !NAMES.iter().any(|(n, _)| n == *k)) {
            return Err(BuildError::UnknownSlot {
                slot: (*name).to_owned(),
            });
        }
        let null = match (
            named.contains_key("null_d"),
            named.contains_key("null_weights"),
        ) {
            (false, false) => None,
            (true, true) => Some(NullVector {
                d: take_vector(&mut named, "null_d")?,
                weights: take_vector(&mut named, "null_weights")?,
            }),
            (false, true) => return Err(BuildError::MissingSlot { slot: "null_d" }),
            (true, false) => {
                return Err(BuildError::MissingSlot {
                    slot: "null_weights",
                });
            }
        };
        let named = &mut named;
        Ok(Slots {
            a: [take(named, "a_q")?, take(named, "a_p")?],
            alpha: [take(named, "alpha_q")?, take(named, "alpha_p")?],
            a_tilde: [take(named, "a_tilde_q")?, take(named, "a_tilde_p")?],
            alpha_tilde: [take(named, "alpha_tilde_q")?, take(named, "alpha_tilde_p")?],
            b: [take_vector(named, "b_q")?, take_vector(named, "b_p")?],
            beta: [take_vector(named, "beta_q")?, take_vector(named, "beta_p")?],
            c: take_vector(named, "c")?,
            c_lambda: take_vector(named, "c_lambda")?,
            d_lambda: take_vector(named, "d_lambda")?,
            omega: take(named, "omega")?,
            delta: take(named, "delta")?,
            null,
        })
    }

    /// The same slots with every entry mapped by `f`.
    pub fn map<D>(&self, f: impl Fn(&C) -> D) -> Slots<D> {
        let vector = |v: &Vec<C>| v.iter().map(&f).collect::<Vec<D>>();
        let matrix = |m: &Vec<Vec<C>>| m.iter().map(vector).collect::<Vec<_>>();
        Slots {
            a: self.a.each_ref().map(matrix),
            alpha: self.alpha.each_ref().map(matrix),
            a_tilde: self.a_tilde.each_ref().map(matrix),
            alpha_tilde: self.alpha_tilde.each_ref().map(matrix),
            b: self.b.each_ref().map(vector),
            beta: self.beta.each_ref().map(vector),
            c: vector(&self.c),
            c_lambda: vector(&self.c_lambda),
            d_lambda: vector(&self.d_lambda),
            omega: matrix(&self.omega),
            delta: matrix(&self.delta),
            null: self.null.as_ref().map(|n| NullVector {
                d: vector(&n.d),
                weights: vector(&n.weights),
            }),
        }
    }
}

/// A method of the SPARK families as declared: its structure over its slots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Declaration<C> {
    /// The structure variant.
    pub structure: Structure,
    /// The tableau's slots.
    pub slots: Slots<C>,
}

impl<C> Declaration<C> {
    /// The same declaration with every slot entry mapped by `f`.
    pub fn map<D>(&self, f: impl Fn(&C) -> D) -> Declaration<D> {
        Declaration {
            structure: self.structure,
            slots: self.slots.map(f),
        }
    }
}

/// What a method is besides its stage structure, decided by the generator (see [`Method`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Family name, e.g. `VsparkGlrk`.
    pub family: String,
    /// Type name of the stepper, e.g. `VsparkGlrk2`.
    pub name: String,
    /// A description for the doc comment.
    pub doc: String,
    /// The problem kind.
    pub problem: ProblemKind,
    /// The pair of the internal stages.
    pub pair: String,
    /// Internal stages s.
    pub s: usize,
    /// Classical order.
    pub order: usize,
    /// Whether the stage Jacobian is rank-deficient by construction (VSPARK over slots with
    /// `a^q = α^q`, `ã^q = α̃^q`: `V` and `Λ̃` enter only through `V + Λ̃`).
    pub rank_deficient: bool,
    /// The facts, decided by the generator's exact arithmetic.
    pub facts: Facts,
}

/// A declaration that does not describe a method.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The structure does not apply to the problem kind.
    #[error("{structure:?} is not defined on a {kind:?}: {reason}")]
    Inapplicable {
        /// The structure.
        structure: Structure,
        /// The problem kind.
        kind: ProblemKind,
        /// Why.
        reason: &'static str,
    },
    /// Upstream's SPARK μ without a null vector d, or with r ≠ s.
    #[error("{structure:?} needs the null vector d with r = s (upstream's μ is undefined)")]
    NoNullVector {
        /// The structure.
        structure: Structure,
    },
    /// A null vector where the structure takes none.
    #[error("{structure:?} on a {kind:?} takes no null vector")]
    UnusedNullVector {
        /// The structure.
        structure: Structure,
        /// The problem kind.
        kind: ProblemKind,
    },
    /// A slot of the wrong shape.
    #[error("slot {slot}: expected {expected}")]
    Shape {
        /// The slot's name ([`Slots::named`]).
        slot: &'static str,
        /// The shape it must have.
        expected: String,
    },
    /// A slot is missing.
    #[error("the slot {slot} is missing")]
    MissingSlot {
        /// The slot's name.
        slot: &'static str,
    },
    /// A name that is no slot's.
    #[error("`{slot}` is not a slot")]
    UnknownSlot {
        /// The name.
        slot: String,
    },
}

/// Checks that every slot has the shape of s internal and r = |c^λ| projective stages, with
/// ρ = |δ| rows δ (every loop of [`build`] then stays within its slots).
fn check_shapes<C>(slots: &Slots<C>, s: usize) -> Result<(), BuildError> {
    let r = slots.c_lambda.len();
    let rho = slots.delta.len();
    if r == 0 {
        return Err(BuildError::Shape {
            slot: "c_lambda",
            expected: "at least one projective stage".to_owned(),
        });
    }
    if rho > r {
        return Err(BuildError::Shape {
            slot: "delta",
            expected: format!("at most r = {r} rows"),
        });
    }
    for (slot, shape, rows) in slots.named() {
        // (rows, columns); a vector is one row.
        let (n, m) = match slot {
            "a_q" | "a_p" => (s, s),
            "alpha_q" | "alpha_p" => (s, r),
            "a_tilde_q" | "a_tilde_p" => (r, s),
            "alpha_tilde_q" | "alpha_tilde_p" => (r, r),
            "omega" => (r - rho, r + 1),
            "delta" => (rho, r),
            "beta_q" | "beta_p" | "c_lambda" | "d_lambda" => (1, r),
            _ => (1, s),
        };
        if rows.len() != n || rows.iter().any(|row| row.len() != m) {
            let expected = match shape {
                Shape::Matrix => format!("{n}×{m}"),
                Shape::Vector => format!("{m} entries"),
            };
            return Err(BuildError::Shape { slot, expected });
        }
    }
    Ok(())
}

/// `base + h Σ_j coef_j · term_j`, dropping exact zeros.
pub fn combination<C: Slot>(base: Option<Term>, h_terms: &[(C, Term)]) -> Expr<C> {
    let mut terms: Vec<(Coef<C>, Term)> =
        base.map(|t| (Coef::new(C::one()), t)).into_iter().collect();
    terms.extend(
        h_terms
            .iter()
            .filter(|(c, _)| !c.is_zero())
            .map(|(c, t)| (Coef::h(c.clone()), *t)),
    );
    Expr::Linear(terms)
}

/// `Σ_j c_j t_j` over the non-zero `c_j`.
pub fn weighted<C: Slot>(c: &[C], t: &[Term]) -> Vec<(Coef<C>, Term)> {
    c.iter()
        .zip(t)
        .filter(|(c, _)| !c.is_zero())
        .map(|(c, t)| (Coef::new(c.clone()), *t))
        .collect()
}

/// The rows `X_j − Σ_k a_jk x_k − Σ_k α_jk y_k = 0` of the unknown stage block `X` (one per row
/// of `a`) into a row block, e.g. `Ỹ_j − Σ ã^q V − Σ α̃^q U`; `(block, rows, name)` names the
/// unknown block, the row block and the values (`row_{name}_{j}`).
pub fn increment_rows<C: Slot>(
    m: &mut Method<C>,
    (block, rows, name): (usize, usize, String),
    (a, xs): (&[Vec<C>], &[Term]),
    (alpha, ys): (&[Vec<C>], &[Term]),
) {
    for (j, (a, alpha)) in a.iter().zip(alpha).enumerate() {
        let mut terms = vec![(Coef::sign(true), Term::Unknown { block, stage: j })];
        terms.extend(
            weighted(a, xs)
                .into_iter()
                .chain(weighted(alpha, ys))
                .map(|(c, t)| (Coef::new(c.value.neg()), t)),
        );
        let value = m.push(format!("row_{name}_{}", j + 1), Expr::Linear(terms));
        m.row(rows, j, value);
    }
}

/// What makes two values the same stage value: the kernel and its arguments, or the terms with
/// the double-double rounding of their coefficients ([`Slot::rounding`], `−0` as `+0`), so that
/// the structures built over exact numbers and over their descriptions share the same values
/// (an exact `1/2` and a float `0.5` are one coefficient).
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Linear(Vec<(u64, u64, u32, Term)>),
    Kernel(Kernel, Vec<Term>),
}

impl Key {
    fn of<C: Slot>(expr: &Expr<C>) -> Key {
        match expr {
            Expr::Linear(terms) => Key::Linear(
                terms
                    .iter()
                    .map(|(c, t)| {
                        let (hi, lo) = c.value.rounding();
                        ((hi + 0.0).to_bits(), (lo + 0.0).to_bits(), c.h_power, *t)
                    })
                    .collect(),
            ),
            Expr::Kernel(kernel, args) => Key::Kernel(*kernel, args.clone()),
        }
    }
}

/// The values of a method by [`Key`], each key's first: interning in time linear in the
/// values.
#[derive(Default)]
struct Interner {
    /// The values keyed so far (a prefix of the method's).
    keyed: usize,
    first: HashMap<Key, usize>,
}

impl Interner {
    /// The value `expr`, appended to `m` under `name` unless the same value exists already.
    fn intern<C: Slot>(&mut self, m: &mut Method<C>, name: String, expr: Expr<C>) -> usize {
        for (index, value) in m.values.iter().enumerate().skip(self.keyed) {
            self.first.entry(Key::of(&value.expr)).or_insert(index);
        }
        self.keyed = m.values.len();
        match self.first.get(&Key::of(&expr)) {
            Some(&v) => v,
            None => {
                m.push(name, expr);
                m.values.len() - 1
            }
        }
    }
}

/// Two blocks of stage increments, positions `Y` and momenta `Z`: the unknowns
/// `Q = q_n + h Y`, `P = p_n + h Z`, or their rows.
#[derive(Clone, Copy)]
struct Increments {
    position: usize,
    momentum: usize,
}

/// The unknown blocks of a structure (indices into [`Method::blocks`]).
struct Unknowns {
    /// The internal velocities `V_i`.
    velocities: Option<usize>,
    /// `Y_i`, `Z_i` (Hamiltonian DAEs).
    internal: Option<Increments>,
    /// `Ỹ_j`, `Z̃_j` (DAEs).
    projective: Option<Increments>,
    /// The projective multipliers `Λ̃_j`.
    lambda: usize,
    /// μ along the null vector.
    mu: Option<usize>,
}

/// The residual row blocks of a structure (indices into [`Method::rows_layout`]).
struct Residuals {
    /// `φ` at the internal stages.
    phi: Option<usize>,
    /// The rows of `Y_i`, `Z_i`.
    internal: Option<Increments>,
    /// The rows of `Ỹ_j`, `Z̃_j`.
    projective_increments: Option<Increments>,
    /// The ω rows, or VPARK's constraint at each projective stage.
    projective: usize,
    /// The rows `Σ_j δ_ij Λ̃_j = 0`.
    delta: Option<usize>,
    /// The null vector's row.
    null: Option<usize>,
}

/// A method under construction, its values interned in linear time.
struct Builder<C> {
    m: Method<C>,
    interner: Interner,
}

impl<C: Slot> Builder<C> {
    fn push(&mut self, name: String, expr: Expr<C>) -> Term {
        self.m.push(name, expr)
    }

    fn intern(&mut self, name: String, expr: Expr<C>) -> Term {
        Term::Value(self.interner.intern(&mut self.m, name, expr))
    }

    /// The stage point `Q = q_n + h Y`, `P = p_n + h Z` of stage `stage` of the increments `y`,
    /// as the values `q{suffix}_{stage}`, `p{suffix}_{stage}` (stages from 1).
    fn stage_point(&mut self, y: Increments, stage: usize, suffix: &str) -> (Term, Term) {
        let mut point = |x: &str, base: Input, block: usize| {
            let increment = Term::Unknown { block, stage };
            self.push(
                format!("{x}{suffix}_{}", stage + 1),
                combination(Some(Term::Input(base)), &[(C::one(), increment)]),
            )
        };
        (
            point("q", Input::Q, y.position),
            point("p", Input::P, y.momentum),
        )
    }

    /// The value `base + h Σ_j a_j x_j + h Σ_j α_j y_j + h Σ_k e_k z_k` (interned under `name`)
    /// of the slots `(a, x)`, `(α, y)` and the further terms `(e, z)`, e.g. a stage position
    /// `q_n + h Σ a V + h Σ α U`.
    fn stage_value(
        &mut self,
        name: String,
        base: Term,
        (a, x): (&[C], &[Term]),
        (alpha, y): (&[C], &[Term]),
        extra: &[(C, Term)],
    ) -> usize {
        let terms: Vec<(C, Term)> = a
            .iter()
            .zip(x)
            .chain(alpha.iter().zip(y))
            .map(|(c, t)| (c.clone(), *t))
            .chain(extra.iter().cloned())
            .collect();
        self.interner
            .intern(&mut self.m, name, combination(Some(base), &terms))
    }

    /// The constraint `φ(q, p)` at the point `(q, p)` as the value `phi_{name}`: the kernel of a
    /// DAE, `p − ϑ(q)` on a degenerate Lagrangian.
    fn constraint(&mut self, name: String, q: Term, p: Term) -> Term {
        if self.m.problem.is_dae() {
            self.intern(
                format!("phi_{name}"),
                Expr::Kernel(Kernel::Dae(DaeFunction::Phi), vec![q, p]),
            )
        } else {
            self.phi(name, q, p)
        }
    }

    /// `φ = p − ϑ(q)` at the point `(q, p)`, as the value `phi_{name}`.
    fn phi(&mut self, name: String, q: Term, p: Term) -> Term {
        let theta = self.intern(format!("theta_{name}"), Expr::Kernel(Kernel::Map, vec![q]));
        self.intern(format!("phi_{name}"), minus(p, theta))
    }

    /// The rows `Σ_j ω_ij φ(Q̃_j, P̃_j) + ω_{i,r+1} φ(q_{n+1}, p_{n+1}) = 0` into row block
    /// `block`; with `mu = (w, μ)`, upstream's documented form adds `w_i μ` to row i.
    fn omega_rows(
        &mut self,
        omega: &[Vec<C>],
        phi_tilde: &[Term],
        block: usize,
        mu: Option<(&[C], Term)>,
    ) {
        let r = phi_tilde.len();
        let (q_next, p_next) = (Term::Value(self.m.q_next), Term::Value(self.m.p_next));
        let needs_end = omega.iter().any(|row| !row[r].is_zero());
        let phi_next = needs_end.then(|| self.constraint("next".into(), q_next, p_next));
        for (i, row) in omega.iter().enumerate() {
            let mut terms = weighted(&row[..r], phi_tilde);
            if let Some(end) = phi_next.filter(|_| !row[r].is_zero()) {
                terms.push((Coef::new(row[r].clone()), end));
            }
            if let Some((weights, mu)) = mu {
                terms.push((Coef::new(weights[i].clone()), mu));
            }
            let value = self.push(format!("omega_{}", i + 1), Expr::Linear(terms));
            self.m.row(block, i, value);
        }
    }
}

/// The stage structure of `declaration` for a method with `header` (see the module's
/// documentation for the mathematics of each structure), refused where the slots do not have
/// the shapes of `header.s` internal stages or the structure does not apply.
pub fn build<C: Slot>(
    header: Header,
    declaration: Declaration<C>,
) -> Result<Method<C>, BuildError> {
    let Declaration { structure, slots } = &declaration;
    let structure = *structure;
    let (kind, s) = (header.problem, header.s);
    let inapplicable = |reason| BuildError::Inapplicable {
        structure,
        kind,
        reason,
    };
    let hdae = kind == ProblemKind::HamiltonianDae;
    if hdae && structure == Structure::Vspark {
        return Err(inapplicable(
            "on a Hamiltonian DAE the internal velocities are v(Q, P), not unknowns",
        ));
    }
    if kind == ProblemKind::Holonomic {
        return Err(inapplicable(
            "the SPARK structures are built on the view of a degenerate Lagrangian or on a DAE",
        ));
    }
    check_shapes(slots, s)?;
    let r = slots.c_lambda.len();
    let spark_mu = structure.null_multiplier();
    if spark_mu != NullMultiplier::Absent && (slots.null.is_none() || r != s) {
        return Err(BuildError::NoNullVector { structure });
    }
    if slots.null.is_some() && !structure.takes_null_vector(kind) {
        return Err(BuildError::UnusedNullVector { structure, kind });
    }
    let null = slots.null.as_ref();
    let vspark = structure.internal_velocities(kind);
    let vpark = structure == Structure::Vpark;
    let idae = kind == ProblemKind::ImplicitDae;
    let dae = kind.is_dae();
    // On a DAE, p and the internal constraint ϑ live in the coordinates' space.
    let momentum_width = if dae {
        Width::Coordinates
    } else {
        Width::Constraints
    };
    let mut blocks = Vec::new();
    let mut rows_layout = Vec::new();
    let add = |list: &mut Vec<Block>, name: &str, n: usize, role: Role, width: Width| {
        list.push(block(name, n, role, width));
        list.len() - 1
    };
    let increments = |list: &mut Vec<Block>, suffix: &str, n: usize, roles: [Role; 2]| Increments {
        position: add(list, &format!("Y{suffix}"), n, roles[0], Width::Coordinates),
        momentum: add(list, &format!("Z{suffix}"), n, roles[1], Width::Coordinates),
    };
    let stage_roles = [Role::PositionIncrement, Role::MomentumIncrement];
    let unknowns = Unknowns {
        velocities: vspark.then(|| add(&mut blocks, "V", s, Role::Velocity, Width::Coordinates)),
        // On a Hamiltonian DAE, v and f depend on the internal stage values, which are
        // therefore unknowns.
        internal: hdae.then(|| increments(&mut blocks, "", s, stage_roles)),
        // On a DAE, u and g depend on the projective stage values, which are therefore
        // unknowns.
        projective: dae.then(|| increments(&mut blocks, "tilde", r, stage_roles)),
        // Λ̃ are SPARK's velocities on the view of a degenerate Lagrangian (u = λ, v ≡ 0).
        lambda: add(
            &mut blocks,
            "Lambda",
            r,
            if vspark || dae {
                Role::Multiplier
            } else {
                Role::Velocity
            },
            Width::Constraints,
        ),
        mu: null.map(|_| add(&mut blocks, "Mu", 1, Role::Correction, momentum_width)),
    };
    let at_projective = unknowns.projective.map(|y| [y.position, y.momentum]);
    for b in at_projective.into_iter().flatten().chain([unknowns.lambda]) {
        blocks[b].nodes = Nodes::Projective;
    }
    let rho = slots.delta.len();
    let residual = [Role::Residual; 2];
    let residuals = Residuals {
        phi: vspark.then(|| add(&mut rows_layout, "Phi", s, Role::Residual, momentum_width)),
        internal: hdae.then(|| increments(&mut rows_layout, "", s, residual)),
        projective_increments: dae.then(|| increments(&mut rows_layout, "tilde", r, residual)),
        projective: if vpark {
            add(
                &mut rows_layout,
                "Projective",
                r,
                Role::Residual,
                Width::Constraints,
            )
        } else {
            add(
                &mut rows_layout,
                "Omega",
                r - rho,
                Role::Residual,
                Width::Constraints,
            )
        },
        delta: (rho > 0 && !vpark).then(|| {
            add(
                &mut rows_layout,
                "Delta",
                rho,
                Role::Residual,
                Width::Constraints,
            )
        }),
        // Σ dᵢVᵢ = 0 (VSPARK) or Σ dᵢΛ̃ᵢ = 0 (SPARK with upstream's μ).
        null: null.map(|_| {
            let width = if vspark {
                Width::Coordinates
            } else {
                Width::Constraints
            };
            add(&mut rows_layout, "Null", 1, Role::Residual, width)
        }),
    };
    let mut b = Builder {
        m: Method {
            family: header.family,
            name: header.name,
            doc: header.doc,
            problem: kind,
            pair: header.pair,
            s,
            order: header.order,
            nodes: slots.c.clone(),
            projective_nodes: slots.c_lambda.clone(),
            blocks,
            rows_layout,
            values: Vec::new(),
            rows: Vec::new(),
            q_next: 0,
            p_next: 0,
            rank_deficient: header.rank_deficient,
            multiplier: structure
                .carried_multiplier(kind)
                .map(|_| (unknowns.lambda, slots.d_lambda.clone())),
            facts: header.facts,
            same_equations_as: None,
            declared: None,
        },
        interner: Interner::default(),
    };
    let unknown = |block: usize, stage: usize| Term::Unknown { block, stage };
    let lambdas: Vec<Term> = (0..r).map(|j| unknown(unknowns.lambda, j)).collect();
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let mut velocities: Vec<Term> = unknowns
        .velocities
        .map_or_else(Vec::new, |v| (0..s).map(|j| unknown(v, j)).collect());
    // The internal stage points `(Q_i, F_i)`.
    let mut forces: Vec<(Term, Term)> = Vec::with_capacity(s);
    // The internal stage values of a Hamiltonian DAE with V_i = v(Q_i, P_i), F_i = f(Q_i, P_i).
    if let Some(y) = unknowns.internal {
        for i in 0..s {
            let name = |x: &str| format!("{x}_{}", i + 1);
            let (q, p) = b.stage_point(y, i, "");
            let args = vec![q, p];
            velocities.push(b.push(
                name("v"),
                Expr::Kernel(Kernel::Dae(DaeFunction::Velocity), args.clone()),
            ));
            let f = b.push(
                name("f"),
                Expr::Kernel(Kernel::Dae(DaeFunction::HamiltonianForce), args),
            );
            forces.push((q, f));
        }
    }
    let velocities = velocities;
    // The projective stage points `(Q̃_j, P̃_j)` and `U_j`, `G_j`; on a DAE the points are
    // unknowns and `P̃_j` is known at once.
    let mut projective: Vec<(Term, Term)> = Vec::with_capacity(r);
    let mut us = Vec::with_capacity(r);
    let mut g = Vec::with_capacity(r);
    if let Some(y) = unknowns.projective {
        for (j, &lambda) in lambdas.iter().enumerate() {
            let name = |x: &str| format!("{x}_tilde_{}", j + 1);
            let (q, p) = b.stage_point(y, j, "_tilde");
            let args = vec![q, p, lambda];
            us.push(b.push(
                name("u"),
                Expr::Kernel(Kernel::Dae(DaeFunction::U), args.clone()),
            ));
            g.push(b.push(name("g"), Expr::Kernel(Kernel::Dae(DaeFunction::G), args)));
            projective.push((q, p));
        }
    } else {
        us.clone_from(&lambdas);
    }
    // Upstream's μ terms of each position: internal stages 0..s, then Q̃_1 (stage s):
    // `−(dᵢ/b^p_i) Σ_next μ` in `Q_i` and `−(dᵢ/b^p_i) Σ_wrap μ` in the position after it.
    let mut upstream_mu: Vec<Vec<(C, Term)>> = vec![Vec::new(); s + 1];
    if let (NullMultiplier::UpstreamCode, Some(n), Some(mu)) = (spark_mu, null, unknowns.mu) {
        let mu = unknown(mu, 0);
        let next = b.push(
            "mu_next".into(),
            Expr::Kernel(Kernel::Shift(Shift::Next), vec![mu]),
        );
        let wrap = b.push(
            "mu_wrap".into(),
            Expr::Kernel(Kernel::Shift(Shift::Wrap), vec![mu]),
        );
        for (i, w) in n.weights.iter().enumerate() {
            upstream_mu[i].push((w.neg(), next));
            upstream_mu[i + 1].push((w.neg(), wrap));
        }
    }
    let zero = (idae && !vspark).then(|| b.push("v_zero".into(), Expr::Linear(Vec::new())));
    // Internal positions and forces (explicit in the unknowns unless on a Hamiltonian DAE).
    let explicit_stages = if hdae { 0 } else { s };
    for (i, mu_terms) in upstream_mu.iter().take(explicit_stages).enumerate() {
        let q = Term::Value(b.stage_value(
            format!("q_{}", i + 1),
            q0,
            (&slots.a[0][i], &velocities),
            (&slots.alpha[0][i], &us),
            mu_terms,
        ));
        let f = match velocities.get(i).copied().or(zero) {
            Some(v) if idae => b.push(
                format!("f_{}", i + 1),
                Expr::Kernel(Kernel::Dae(DaeFunction::Force), vec![q, v]),
            ),
            Some(v) => b.m.force(i, q, v),
            // SPARK on a degenerate Lagrangian: f(q, 0) = −∇H(q).
            None => {
                let grad = b.intern(
                    format!("grad_h_{}", i + 1),
                    Expr::Kernel(Kernel::Gradient, vec![q]),
                );
                b.intern(
                    format!("f_{}", i + 1),
                    Expr::Linear(vec![(Coef::sign(false), grad)]),
                )
            }
        };
        forces.push((q, f));
    }
    if !dae {
        for (j, &lambda) in lambdas.iter().enumerate() {
            let extra = if j == 0 { &upstream_mu[s][..] } else { &[] };
            let q = Term::Value(b.stage_value(
                format!("q_tilde_{}", j + 1),
                q0,
                (&slots.a_tilde[0][j], &velocities),
                (&slots.alpha_tilde[0][j], &us),
                extra,
            ));
            g.push(b.intern(
                format!("g_{}", j + 1),
                Expr::Kernel(Kernel::JacT, vec![q, lambda]),
            ));
            projective.push((q, p0));
        }
    }
    let fs: Vec<Term> = forces.iter().map(|&(_, f)| f).collect();
    // Momenta: p_n + h Σ a F + h Σ α G.
    let momentum = |b: &mut Builder<C>, name: String, a: &[C], alpha: &[C]| {
        b.stage_value(name, p0, (a, &fs), (alpha, &g), &[])
    };
    if let Some(block) = residuals.phi {
        for (i, &(q, _)) in forces.iter().enumerate() {
            let p = Term::Value(momentum(
                &mut b,
                format!("p_{}", i + 1),
                &slots.a[1][i],
                &slots.alpha[1][i],
            ));
            let phi_i = if idae {
                let theta = b.push(
                    format!("theta_{}", i + 1),
                    Expr::Kernel(Kernel::Dae(DaeFunction::Theta), vec![q, velocities[i]]),
                );
                b.push(format!("phi_{}", i + 1), minus(p, theta))
            } else {
                b.phi(format!("{}", i + 1), q, p)
            };
            let row = match (null, unknowns.mu) {
                (Some(n), Some(mu)) => b.push(
                    format!("phi_mu_{}", i + 1),
                    Expr::Linear(vec![
                        (Coef::sign(true), phi_i),
                        (Coef::new(n.weights[i].neg()), unknown(mu, 0)),
                    ]),
                ),
                _ => phi_i,
            };
            b.m.row(block, i, row);
        }
    }
    // Y_i − Σ a^q V − Σ α^q U = 0, Z_i − Σ a^p F − Σ α^p G = 0 (Hamiltonian DAEs), and
    // Ỹ_j − Σ ã^q V − Σ α̃^q U = 0, Z̃_j − Σ ã^p F − Σ α̃^p G = 0 (DAEs).
    let stage_blocks = [
        (
            unknowns.internal,
            residuals.internal,
            "",
            &slots.a,
            &slots.alpha,
        ),
        (
            unknowns.projective,
            residuals.projective_increments,
            "_tilde",
            &slots.a_tilde,
            &slots.alpha_tilde,
        ),
    ];
    for (blocks, rows, suffix, a, alpha) in stage_blocks {
        if let (Some(y), Some(rows)) = (blocks, rows) {
            increment_rows(
                &mut b.m,
                (y.position, rows.position, format!("y{suffix}")),
                (&a[0], &velocities),
                (&alpha[0], &us),
            );
            increment_rows(
                &mut b.m,
                (y.momentum, rows.momentum, format!("z{suffix}")),
                (&a[1], &fs),
                (&alpha[1], &g),
            );
        }
    }
    let mut phi_tilde = Vec::with_capacity(r);
    for (j, &(q, p)) in projective.iter().enumerate() {
        let p = if dae {
            p
        } else {
            Term::Value(momentum(
                &mut b,
                format!("p_tilde_{}", j + 1),
                &slots.a_tilde[1][j],
                &slots.alpha_tilde[1][j],
            ))
        };
        phi_tilde.push(b.constraint(format!("tilde_{}", j + 1), q, p));
    }
    b.m.q_next = b.stage_value(
        "q_next".into(),
        q0,
        (&slots.b[0], &velocities),
        (&slots.beta[0], &us),
        &[],
    );
    b.m.p_next = momentum(&mut b, "p_next".into(), &slots.b[1], &slots.beta[1]);
    if vpark {
        let at_start = slots.c_lambda.first().is_some_and(C::is_zero);
        for (j, &phi_j) in phi_tilde.iter().enumerate() {
            let value = if j == 0 && at_start {
                b.push(
                    "continuity".into(),
                    minus(lambdas[0], Term::Input(Input::Lambda)),
                )
            } else {
                phi_j
            };
            b.m.row(residuals.projective, j, value);
        }
    } else {
        let omega_mu = match (spark_mu, null, unknowns.mu) {
            (NullMultiplier::OmegaRow, Some(n), Some(mu)) => Some((&n.weights[..], unknown(mu, 0))),
            _ => None,
        };
        b.omega_rows(&slots.omega, &phi_tilde, residuals.projective, omega_mu);
        if let Some(block) = residuals.delta {
            for (i, row) in slots.delta.iter().enumerate() {
                let value = b.push(
                    format!("delta_{}", i + 1),
                    Expr::Linear(weighted(row, &lambdas)),
                );
                b.m.row(block, i, value);
            }
        }
    }
    if let (Some(n), Some(block)) = (null, residuals.null) {
        let gauged = if vspark { &velocities } else { &lambdas };
        let value = b.push("null".into(), Expr::Linear(weighted(&n.d, gauged)));
        b.m.row(block, 0, value);
    }
    let mut m = b.m;
    m.declared = Some(declaration);
    Ok(m)
}
