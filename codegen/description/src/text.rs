//! The text form of descriptions, as committed in `generated/descriptions/`: one line per fact,
//! block, value and row, readable beside the stage equations of the references.
//!
//! ```text
//! method SlrkLobattoIIIAB2
//! family SlrkLobattoIIIAB
//! pair LobattoIIIAIIIB
//! s 2
//! order 2
//! problem DegenerateLagrangian
//! doc Symplectic SLRK over the Lobatto IIIA–IIIB pair, s = 2.
//! facts preserves_constraint=true multiplier=none needs_linear_one_form=false
//! limitations SINGULAR_GAUGE
//! recommendation Suitable measured limitation (SINGULAR_GAUGE)
//! rank_deficient false
//! unknown V 2 Velocity Coordinates
//! residual Rq 2 Residual Coordinates
//! nodes #0 #1
//! value q_1 = q_n + #1 h V[1]
//! value jtv_1 = JacT(q_1, V[1])
//! row Rq[1] = f_1
//! update q_next p_next
//! multiplier Lambda #0 #1
//! #1 1/2
//! end
//! ```
//!
//! A block at the projective stages ends in `projective` (`unknown Ytilde 2 PositionIncrement
//! Coordinates projective`), and the nodes of those stages follow the internal ones as
//! `projective_nodes #k …`.
//!
//! A linear value is a sum of terms `± [#k] [h|h^n] t`: `#k` is entry k of the method's
//! coefficient table (signed; a bare `+` or `−` is the coefficient ±1), `t` an input (`q_n`,
//! `p_n`, `λ_n`), an unknown `Block[stage]` (stages from 1) or an earlier value by name. A
//! kernel value is `Kernel(t, …)`. A method whose stage equations and update are those of an
//! earlier catalogue method says so (`same_equations_as Name`); its body is written in full.
//!
//! A method of the SPARK families ([`crate::spark`]: SPARK, VSPARK, VPARK and their primary,
//! Hamiltonian and implicit-DAE forms) is written as its declaration instead of the blocks,
//! nodes, values, rows, update and multiplier: a `structure` line (`Spark`, `Spark UpstreamMu`,
//! `Spark OmegaMu`, `Vspark` or `Vpark`) and one `slot` line per named slot of its tableau
//! (`a_q`, `a_p`, `alpha_q`, `alpha_p`, `a_tilde_q`, `a_tilde_p`, `alpha_tilde_q`,
//! `alpha_tilde_p`, `b_q`, `b_p`, `beta_q`, `beta_p`, `c`, `c_lambda`, `d_lambda`, `omega`,
//! `delta`, and `null_d` with the μ weights `null_weights` where the structure takes the null
//! vector), its entries `#k` of the coefficient table, a matrix row by row with the rows
//! separated by `;`:
//!
//! ```text
//! rank_deficient false
//! structure Vspark
//! slot a_q #0 #0 ; #1 #1
//! slot b_q #1 #1
//! slot delta
//! ```
//!
//! The reader builds the stage structure from the declaration ([`crate::spark::build`]), and
//! refuses the written-out lines beside it, a slot of the wrong shape at its line, and a `slot`
//! line without a `structure` line.
//!
//! Table lines give each coefficient's exact text; its double-double rounding `hi lo` is kept
//! once for every description, in the table of roundings ([`Roundings`],
//! `generated/descriptions/roundings.txt`, one `exact hi lo` per line), which [`read`] takes.
//! Lines starting with `//` are comments.
//!
//! Besides the `facts` line, what was measured of a method and its class in the method guide
//! have a line each, absent when there is nothing to say: `pinned` and
//! `pinned_on_index_two_pendulum` (`Order p CAUSE`, `Parasitic p CAUSE`, `Fails CAUSE error
//! text`, `Erratic CAUSE` or `NoConvergence CAUSE`), `limitations CAUSE …` and
//! `recommendation Class reason text` and `long_run Energy CAUSE` (`Bounded` or `Drifts`,
//! followed by `recommended` for the method guide's long-run pick of its kind). Causes,
//! limitations and long-run measurements are named as in `generated::measured`, which keeps
//! their texts.

use crate::facts::{Class, Energy, Facts, LongRun, Multiplier, Pin, Recommendation};
use crate::scalar::Coefficient;
use crate::spark::{BuildError, Declaration, Header, NullMultiplier, Slots, Structure, build};
use crate::structure::{
    Block, Coef, DaeFunction, Expr, Input, Kernel, Method, Nodes, ProblemKind, Role, Row, Shift,
    Term, Value, Width,
};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// A description that cannot be written as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// Two values, two blocks, or a value and an input share a name, or a name is not an
    /// identifier.
    #[error("{method}: the name `{name}` is not a unique identifier")]
    Name {
        /// The method.
        method: String,
        /// The name.
        name: String,
    },
    /// A text field holds a line break.
    #[error("{method}: its description holds a line break")]
    LineBreak {
        /// The method.
        method: String,
    },
    /// One exact coefficient value with two different roundings.
    #[error("{method}: the coefficient {exact} is rounded to `{first}` and to `{second}`")]
    Rounding {
        /// The method.
        method: String,
        /// The exact value.
        exact: String,
        /// The rounding `hi lo` recorded first.
        first: String,
        /// The other rounding.
        second: String,
    },
    /// A measured cause or limitation that is not a constant's name (`generated::measured`).
    #[error("{method}: the cause `{name}` is not an upper-case identifier")]
    Cause {
        /// The method.
        method: String,
        /// The name.
        name: String,
    },
}

/// A description text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ReadError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

const INPUTS: [(&str, Input); 3] = [("q_n", Input::Q), ("p_n", Input::P), ("λ_n", Input::Lambda)];

const DAE: [(&str, DaeFunction); 8] = [
    ("Theta", DaeFunction::Theta),
    ("Force", DaeFunction::Force),
    ("U", DaeFunction::U),
    ("G", DaeFunction::G),
    ("Phi", DaeFunction::Phi),
    ("Velocity", DaeFunction::Velocity),
    ("HamiltonianForce", DaeFunction::HamiltonianForce),
    ("Psi", DaeFunction::Psi),
];

fn kernel_name(kernel: Kernel) -> String {
    match kernel {
        Kernel::Map => "Map".to_owned(),
        Kernel::Gradient => "Gradient".to_owned(),
        Kernel::JacT => "JacT".to_owned(),
        Kernel::Jac => "Jac".to_owned(),
        Kernel::Velocity => "Velocity".to_owned(),
        Kernel::Dae(f) => {
            let name = DAE.iter().find(|(_, g)| *g == f).map_or("", |(n, _)| n);
            format!("Dae.{name}")
        }
        Kernel::Shift(Shift::Next) => "Shift.Next".to_owned(),
        Kernel::Shift(Shift::Wrap) => "Shift.Wrap".to_owned(),
    }
}

fn parse_kernel(name: &str) -> Option<Kernel> {
    Some(match name {
        "Map" => Kernel::Map,
        "Gradient" => Kernel::Gradient,
        "JacT" => Kernel::JacT,
        "Jac" => Kernel::Jac,
        "Velocity" => Kernel::Velocity,
        "Shift.Next" => Kernel::Shift(Shift::Next),
        "Shift.Wrap" => Kernel::Shift(Shift::Wrap),
        other => {
            let f = other.strip_prefix("Dae.")?;
            Kernel::Dae(DAE.iter().find(|(n, _)| *n == f)?.1)
        }
    })
}

const PROBLEMS: [(&str, ProblemKind); 4] = [
    ("DegenerateLagrangian", ProblemKind::DegenerateLagrangian),
    ("Holonomic", ProblemKind::Holonomic),
    ("ImplicitDae", ProblemKind::ImplicitDae),
    ("HamiltonianDae", ProblemKind::HamiltonianDae),
];

const ROLES: [(&str, Role); 7] = [
    ("Velocity", Role::Velocity),
    ("Momentum", Role::Momentum),
    ("Multiplier", Role::Multiplier),
    ("PositionIncrement", Role::PositionIncrement),
    ("MomentumIncrement", Role::MomentumIncrement),
    ("Correction", Role::Correction),
    ("Residual", Role::Residual),
];

const WIDTHS: [(&str, Width); 2] = [
    ("Coordinates", Width::Coordinates),
    ("Constraints", Width::Constraints),
];

const MULTIPLIERS: [(&str, Option<Multiplier>); 3] = [
    ("none", None),
    ("Projection", Some(Multiplier::Projection)),
    ("Velocity", Some(Multiplier::Velocity)),
];

const STRUCTURES: [(&str, Structure); 5] = [
    ("Spark", Structure::Spark(NullMultiplier::Absent)),
    (
        "Spark UpstreamMu",
        Structure::Spark(NullMultiplier::UpstreamCode),
    ),
    ("Spark OmegaMu", Structure::Spark(NullMultiplier::OmegaRow)),
    ("Vspark", Structure::Vspark),
    ("Vpark", Structure::Vpark),
];

fn name_of<T: PartialEq + Copy>(table: &[(&'static str, T)], x: T) -> &'static str {
    table.iter().find(|(_, y)| *y == x).map_or("", |(n, _)| n)
}

fn lookup<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|(_, x)| *x)
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The coefficient table of one method, in order of first use.
struct Table<'a> {
    entries: Vec<&'a Coefficient>,
}

impl<'a> Table<'a> {
    fn index(&mut self, c: &'a Coefficient) -> usize {
        match self.entries.iter().position(|e| *e == c) {
            Some(i) => i,
            None => {
                self.entries.push(c);
                self.entries.len() - 1
            }
        }
    }
}

fn h_text(power: u32) -> Option<String> {
    match power {
        0 => None,
        1 => Some("h".to_owned()),
        k => Some(format!("h^{k}")),
    }
}

/// Writes one method, recording the rounding of each coefficient of its table in `roundings`.
fn write_method(
    m: &Method<Coefficient>,
    out: &mut String,
    roundings: &mut Roundings,
) -> Result<(), WriteError> {
    let name_error = |name: &str| WriteError::Name {
        method: m.name.clone(),
        name: name.to_owned(),
    };
    let reason_breaks = m
        .facts
        .recommendation
        .as_ref()
        .is_some_and(|r| r.reason.contains('\n'));
    if m.doc.contains('\n') || reason_breaks {
        return Err(WriteError::LineBreak {
            method: m.name.clone(),
        });
    }
    // The inputs and `h` are reserved: a term reads them before value names.
    let mut names: Vec<&str> = INPUTS.iter().map(|(n, _)| *n).collect();
    names.push("h");
    for v in &m.values {
        if !is_identifier(&v.name) || names.contains(&v.name.as_str()) {
            return Err(name_error(&v.name));
        }
        names.push(&v.name);
    }
    for blocks in [&m.blocks, &m.rows_layout] {
        for (i, b) in blocks.iter().enumerate() {
            if !is_identifier(&b.name) || blocks[..i].iter().any(|c| c.name == b.name) {
                return Err(name_error(&b.name));
            }
        }
    }
    let mut table = Table {
        entries: Vec::new(),
    };
    let facts = &m.facts;
    let _ = writeln!(out, "method {}", m.name);
    let _ = writeln!(out, "family {}", m.family);
    let _ = writeln!(out, "pair {}", m.pair);
    let _ = writeln!(out, "s {}", m.s);
    let _ = writeln!(out, "order {}", m.order);
    let _ = writeln!(out, "problem {}", name_of(&PROBLEMS, m.problem));
    let _ = writeln!(out, "doc {}", m.doc);
    let _ = writeln!(
        out,
        "facts preserves_constraint={} multiplier={} needs_linear_one_form={}",
        facts.preserves_constraint,
        name_of(&MULTIPLIERS, facts.multiplier),
        facts.needs_linear_one_form
    );
    write_measured(m, out)?;
    if let Some(target) = &m.same_equations_as {
        let _ = writeln!(out, "same_equations_as {target}");
    }
    let _ = writeln!(out, "rank_deficient {}", m.rank_deficient);
    match &m.declared {
        Some(declared) => write_declaration(declared, &mut table, out),
        None => write_expanded(m, &mut table, out),
    }
    for (i, c) in table.entries.iter().enumerate() {
        roundings.record(&m.name, c)?;
        let _ = writeln!(out, "#{i} {}", c.exact);
    }
    out.push_str("end\n");
    Ok(())
}

/// Writes the blocks, nodes, values, rows, update and multiplier of a method written out in
/// full.
fn write_expanded<'a>(m: &'a Method<Coefficient>, table: &mut Table<'a>, out: &mut String) {
    let term = |t: &Term| match *t {
        Term::Input(input) => name_of(&INPUTS, input).to_owned(),
        Term::Unknown { block, stage } => format!("{}[{}]", m.blocks[block].name, stage + 1),
        Term::Value(v) => m.values[v].name.clone(),
    };
    for (keyword, blocks) in [("unknown", &m.blocks), ("residual", &m.rows_layout)] {
        for b in blocks {
            let _ = writeln!(
                out,
                "{keyword} {} {} {} {}{}",
                b.name,
                b.stages,
                name_of(&ROLES, b.role),
                name_of(&WIDTHS, b.width),
                match b.nodes {
                    Nodes::Internal => "",
                    Nodes::Projective => " projective",
                }
            );
        }
    }
    let nodes: Vec<String> = m
        .nodes
        .iter()
        .map(|c| format!("#{}", table.index(c)))
        .collect();
    let _ = writeln!(out, "nodes {}", nodes.join(" "));
    if !m.projective_nodes.is_empty() {
        let nodes: Vec<String> = m
            .projective_nodes
            .iter()
            .map(|c| format!("#{}", table.index(c)))
            .collect();
        let _ = writeln!(out, "projective_nodes {}", nodes.join(" "));
    }
    for v in &m.values {
        let rhs = match &v.expr {
            Expr::Kernel(kernel, args) => {
                let args: Vec<String> = args.iter().map(term).collect();
                format!("{}({})", kernel_name(*kernel), args.join(", "))
            }
            Expr::Linear(terms) => {
                let mut pieces: Vec<String> = Vec::new();
                for (i, (c, t)) in terms.iter().enumerate() {
                    let (negative, coefficient) = match c.value.exact.as_str() {
                        "1" => (false, None),
                        "-1" => (true, None),
                        _ => (false, Some(table.index(&c.value))),
                    };
                    if i > 0 || negative {
                        pieces.push(if negative { "-" } else { "+" }.to_owned());
                    }
                    pieces.extend(coefficient.map(|k| format!("#{k}")));
                    pieces.extend(h_text(c.h_power));
                    pieces.push(term(t));
                }
                pieces.join(" ")
            }
        };
        let _ = writeln!(out, "value {} = {rhs}", v.name);
    }
    for r in &m.rows {
        let _ = writeln!(
            out,
            "row {}[{}] = {}",
            m.rows_layout[r.block].name,
            r.stage + 1,
            m.values[r.value].name
        );
    }
    let _ = writeln!(
        out,
        "update {} {}",
        m.values[m.q_next].name, m.values[m.p_next].name
    );
    if let Some((block, weights)) = &m.multiplier {
        let weights: Vec<String> = weights
            .iter()
            .map(|c| format!("#{}", table.index(c)))
            .collect();
        let _ = writeln!(
            out,
            "multiplier {} {}",
            m.blocks[*block].name,
            weights.join(" ")
        );
    }
}

/// Writes a declared structure: its `structure` line and one `slot` line per slot, matrices row
/// by row (rows separated by `;`).
fn write_declaration<'a>(
    declared: &'a Declaration<Coefficient>,
    table: &mut Table<'a>,
    out: &mut String,
) {
    let _ = writeln!(
        out,
        "structure {}",
        name_of(&STRUCTURES, declared.structure)
    );
    for (name, _, rows) in declared.slots.named() {
        let rows: Vec<String> = rows
            .iter()
            .map(|row| {
                let entries: Vec<String> =
                    row.iter().map(|c| format!("#{}", table.index(c))).collect();
                entries.join(" ")
            })
            .collect();
        let entries = rows.join(" ; ");
        if entries.is_empty() {
            let _ = writeln!(out, "slot {name}");
        } else {
            let _ = writeln!(out, "slot {name} {entries}");
        }
    }
}

/// The text of `methods`, each followed by an empty line; the rounding of every coefficient
/// of their tables is recorded in `roundings` (refused if it differs from one recorded before).
pub fn write(
    methods: &[Method<Coefficient>],
    roundings: &mut Roundings,
) -> Result<String, WriteError> {
    let mut out = String::new();
    for (i, m) in methods.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_method(m, &mut out, roundings)?;
    }
    Ok(out)
}

/// Whether `name` can name a constant of `generated::measured`.
fn is_cause(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The text of a pin: `Order p CAUSE`, `Parasitic p CAUSE`, `Fails CAUSE error text`,
/// `Erratic CAUSE` or `NoConvergence CAUSE`.
fn pin_text(pin: &Pin) -> String {
    match pin {
        Pin::Order { order, reason } => format!("Order {order} {reason}"),
        Pin::Parasitic { order, reason } => format!("Parasitic {order} {reason}"),
        Pin::Fails { error, reason } => format!("Fails {reason} {error}"),
        Pin::Erratic { reason } => format!("Erratic {reason}"),
        Pin::NoConvergence { reason } => format!("NoConvergence {reason}"),
    }
}

/// The lines of what was measured of `m` and of its recommendation, each only if there is
/// something to say.
fn write_measured(m: &Method<Coefficient>, out: &mut String) -> Result<(), WriteError> {
    let facts = &m.facts;
    let pins = [
        ("pinned", &facts.pinned),
        (
            "pinned_on_index_two_pendulum",
            &facts.pinned_on_index_two_pendulum,
        ),
    ];
    let pinned = pins.iter().filter_map(|(_, p)| p.as_ref()).map(Pin::reason);
    let long_run = facts.long_run.iter().map(|l| l.reason.as_str());
    for name in pinned
        .chain(facts.limitations.iter().map(String::as_str))
        .chain(long_run)
    {
        if !is_cause(name) {
            return Err(WriteError::Cause {
                method: m.name.clone(),
                name: name.to_owned(),
            });
        }
    }
    for (keyword, pin) in pins {
        if let Some(pin) = pin {
            if matches!(pin, Pin::Fails { error, .. } if error.contains('\n')) {
                return Err(WriteError::LineBreak {
                    method: m.name.clone(),
                });
            }
            let _ = writeln!(out, "{keyword} {}", pin_text(pin));
        }
    }
    if !facts.limitations.is_empty() {
        let _ = writeln!(out, "limitations {}", facts.limitations.join(" "));
    }
    if let Some(r) = &facts.recommendation {
        let _ = writeln!(out, "recommendation {} {}", r.class.name(), r.reason);
    }
    if let Some(l) = &facts.long_run {
        let pick = if l.recommended { " recommended" } else { "" };
        let _ = writeln!(out, "long_run {} {}{pick}", l.energy.name(), l.reason);
    }
    Ok(())
}

/// The double-double rounding `hi lo` of every exact coefficient value of the descriptions,
/// kept once for all of them (`generated/descriptions/roundings.txt`): the generator records
/// them as it writes ([`write()`]) and checks each against its exact value; [`read`] looks every
/// table entry up here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Roundings {
    values: BTreeMap<String, (f64, f64)>,
}

impl Roundings {
    /// Records the rounding of `c`, refusing a second, different rounding of its exact value.
    fn record(&mut self, method: &str, c: &Coefficient) -> Result<(), WriteError> {
        let rounding = (c.hi, c.lo);
        match self.values.get(&c.exact) {
            None => {
                self.values.insert(c.exact.clone(), rounding);
                Ok(())
            }
            // Bitwise: `0.0` and `-0.0` are different texts.
            Some(&first)
                if first.0.to_bits() == c.hi.to_bits() && first.1.to_bits() == c.lo.to_bits() =>
            {
                Ok(())
            }
            Some(&first) => Err(WriteError::Rounding {
                method: method.to_owned(),
                exact: c.exact.clone(),
                first: format!("{:?} {:?}", first.0, first.1),
                second: format!("{:?} {:?}", rounding.0, rounding.1),
            }),
        }
    }

    /// The coefficient of exact value `exact`, if its rounding is in the table.
    pub fn get(&self, exact: &str) -> Option<Coefficient> {
        self.values.get(exact).map(|&(hi, lo)| Coefficient {
            exact: exact.to_owned(),
            hi,
            lo,
        })
    }

    /// Every coefficient of the table, in increasing order of value.
    pub fn coefficients(&self) -> Vec<Coefficient> {
        let mut all: Vec<Coefficient> = self.values.keys().filter_map(|e| self.get(e)).collect();
        all.sort_by(|a, b| {
            a.hi.total_cmp(&b.hi)
                .then(a.lo.total_cmp(&b.lo))
                .then_with(|| a.exact.cmp(&b.exact))
        });
        all
    }

    /// The text of the table: one `exact hi lo` line per value, in increasing order of value.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for c in self.coefficients() {
            let _ = writeln!(out, "{} {:?} {:?}", c.exact, c.hi, c.lo);
        }
        out
    }

    /// Reads a table of roundings: one `exact hi lo` line per value, each value once; empty
    /// lines and lines starting with `//` are skipped.
    pub fn read(text: &str) -> Result<Roundings, ReadError> {
        let mut values = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() || line.starts_with("//") {
                continue;
            }
            let (exact, hi, lo) = match line.split_whitespace().collect::<Vec<_>>()[..] {
                [exact, hi, lo] => (exact, number(n, hi, "f64")?, number(n, lo, "f64")?),
                _ => return Err(error(n, "a rounding is `exact hi lo`")),
            };
            if values.insert(exact.to_owned(), (hi, lo)).is_some() {
                return Err(error(n, format!("a second rounding of {exact}")));
            }
        }
        Ok(Roundings { values })
    }
}

/// The lines of one method: its number, keyword and the rest of each line.
struct Lines<'a> {
    lines: Vec<(usize, &'a str, &'a str)>,
}

fn error(line: usize, message: impl Into<String>) -> ReadError {
    ReadError {
        line,
        message: message.into(),
    }
}

impl<'a> Lines<'a> {
    /// The rest of the only line with `keyword`.
    fn one(&self, keyword: &str, start: usize) -> Result<(usize, &'a str), ReadError> {
        let mut found = self.lines.iter().filter(|(_, k, _)| *k == keyword);
        match (found.next(), found.next()) {
            (Some((n, _, rest)), None) => Ok((*n, rest)),
            (None, _) => Err(error(start, format!("the method has no `{keyword}` line"))),
            (Some(_), Some((n, _, _))) => Err(error(*n, format!("a second `{keyword}` line"))),
        }
    }

    /// The rest of the line with `keyword`, if there is one (and only one).
    fn optional(&self, keyword: &str) -> Result<Option<(usize, &'a str)>, ReadError> {
        let mut found = self.lines.iter().filter(|(_, k, _)| *k == keyword);
        match (found.next(), found.next()) {
            (None, _) => Ok(None),
            (Some((n, _, rest)), None) => Ok(Some((*n, rest))),
            (Some(_), Some((n, _, _))) => Err(error(*n, format!("a second `{keyword}` line"))),
        }
    }

    fn all(&self, keyword: &'a str) -> impl Iterator<Item = (usize, &'a str)> + '_ {
        self.lines
            .iter()
            .filter(move |(_, k, _)| *k == keyword)
            .map(|(n, _, rest)| (*n, *rest))
    }
}

fn number<T: std::str::FromStr>(line: usize, text: &str, what: &str) -> Result<T, ReadError> {
    text.parse()
        .map_err(|_| error(line, format!("`{text}` is not a valid {what}")))
}

fn choice<T: Copy>(line: usize, table: &[(&str, T)], name: &str) -> Result<T, ReadError> {
    lookup(table, name).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        error(line, format!("`{name}` is not one of {}", names.join(", ")))
    })
}

fn boolean(line: usize, text: &str) -> Result<bool, ReadError> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(error(line, format!("`{other}` is neither true nor false"))),
    }
}

/// What the body of a method refers to by name.
struct Scope<'m> {
    blocks: &'m [Block],
    values: BTreeMap<String, usize>,
    table: &'m [Coefficient],
}

impl Scope<'_> {
    fn term(&self, line: usize, text: &str) -> Result<Term, ReadError> {
        if let Some(input) = lookup(&INPUTS, text) {
            return Ok(Term::Input(input));
        }
        if let Some((block, stage)) = text.strip_suffix(']').and_then(|t| t.split_once('[')) {
            let index = self
                .blocks
                .iter()
                .position(|b| b.name == block)
                .ok_or_else(|| error(line, format!("no unknown block `{block}`")))?;
            let stage: usize = number(line, stage, "stage")?;
            if stage == 0 || stage > self.blocks[index].stages {
                return Err(error(line, format!("`{text}`: stage out of range")));
            }
            return Ok(Term::Unknown {
                block: index,
                stage: stage - 1,
            });
        }
        self.values
            .get(text)
            .map(|&v| Term::Value(v))
            .ok_or_else(|| error(line, format!("`{text}` is not an earlier value")))
    }

    fn coefficient(&self, line: usize, text: &str) -> Result<Coefficient, ReadError> {
        let k: usize = text
            .strip_prefix('#')
            .ok_or_else(|| error(line, format!("`{text}` is not a coefficient `#k`")))
            .and_then(|k| number(line, k, "coefficient index"))?;
        self.table
            .get(k)
            .cloned()
            .ok_or_else(|| error(line, format!("no coefficient #{k} in the table")))
    }

    fn expr(&self, line: usize, rhs: &str) -> Result<Expr<Coefficient>, ReadError> {
        if let Some((name, args)) = rhs.strip_suffix(')').and_then(|r| r.split_once('(')) {
            let kernel = parse_kernel(name)
                .ok_or_else(|| error(line, format!("`{name}` is not a kernel")))?;
            let args = args
                .split(',')
                .map(|a| self.term(line, a.trim()))
                .collect::<Result<Vec<_>, _>>()?;
            if args.len() != kernel.arity() {
                return Err(error(
                    line,
                    format!("{name} takes {} arguments", kernel.arity()),
                ));
            }
            return Ok(Expr::Kernel(kernel, args));
        }
        let unit = |negative: bool| Coefficient {
            exact: if negative { "-1" } else { "1" }.to_owned(),
            hi: if negative { -1.0 } else { 1.0 },
            lo: 0.0,
        };
        let tokens: Vec<&str> = rhs.split_whitespace().collect();
        let token = |at: usize| {
            tokens
                .get(at)
                .copied()
                .ok_or_else(|| error(line, "a term ends without its vector"))
        };
        let mut terms = Vec::new();
        let mut at = 0;
        while at < tokens.len() {
            let negative = match tokens[at] {
                "-" => true,
                "+" => false,
                // The first term carries no `+`.
                _ if terms.is_empty() => false,
                other => {
                    return Err(error(
                        line,
                        format!("`{other}`: terms are joined by + or -"),
                    ));
                }
            };
            if matches!(tokens[at], "-" | "+") {
                at += 1;
            }
            let mut t = token(at)?;
            let value = if t.starts_with('#') {
                if negative {
                    return Err(error(
                        line,
                        "a coefficient `#k` carries its sign: write `+ #k`",
                    ));
                }
                let c = self.coefficient(line, t)?;
                at += 1;
                t = token(at)?;
                c
            } else {
                unit(negative)
            };
            let h_power = match t.strip_prefix('h') {
                Some("") => 1,
                Some(power) => match power.strip_prefix('^') {
                    Some(k) => number(line, k, "power of h")?,
                    None => 0,
                },
                None => 0,
            };
            if h_power > 0 {
                at += 1;
                t = token(at)?;
            }
            terms.push((Coef { value, h_power }, self.term(line, t)?));
            at += 1;
        }
        Ok(Expr::Linear(terms))
    }
}

fn block_line(line: usize, rest: &str) -> Result<Block, ReadError> {
    match rest.split_whitespace().collect::<Vec<_>>()[..] {
        [name, stages, role, width, ref at @ ..] => Ok(Block {
            name: name.to_owned(),
            stages: number(line, stages, "number of stages")?,
            role: choice(line, &ROLES, role)?,
            width: choice(line, &WIDTHS, width)?,
            nodes: match at {
                [] => Nodes::Internal,
                ["projective"] => Nodes::Projective,
                _ => {
                    return Err(error(
                        line,
                        "a block is `name stages role width [projective]`",
                    ));
                }
            },
        }),
        _ => Err(error(
            line,
            "a block is `name stages role width [projective]`",
        )),
    }
}

fn table_line(line: usize, rest: &str, roundings: &Roundings) -> Result<Coefficient, ReadError> {
    match rest.split_whitespace().collect::<Vec<_>>()[..] {
        [exact] => roundings
            .get(exact)
            .ok_or_else(|| error(line, format!("{exact} is not in the table of roundings"))),
        _ => Err(error(line, "a coefficient is `#k exact`")),
    }
}

fn facts_line(line: usize, rest: &str) -> Result<Facts, ReadError> {
    let mut fields = BTreeMap::new();
    for field in rest.split_whitespace() {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| error(line, format!("`{field}` is not `key=value`")))?;
        fields.insert(key, value);
    }
    let get = |key: &str| {
        fields
            .get(key)
            .copied()
            .ok_or_else(|| error(line, format!("the facts lack `{key}`")))
    };
    if fields.len() != 3 {
        return Err(error(
            line,
            "the facts are preserves_constraint, multiplier and needs_linear_one_form",
        ));
    }
    Ok(Facts {
        preserves_constraint: boolean(line, get("preserves_constraint")?)?,
        multiplier: choice(line, &MULTIPLIERS, get("multiplier")?)?,
        needs_linear_one_form: boolean(line, get("needs_linear_one_form")?)?,
        ..Facts::new(false)
    })
}

const CLASSES: [(&str, Class); 4] = [
    ("Recommended", Class::Recommended),
    ("Suitable", Class::Suitable),
    ("Reference", Class::Reference),
    ("Avoid", Class::Avoid),
];

const ENERGIES: [(&str, Energy); 2] = [("Bounded", Energy::Bounded), ("Drifts", Energy::Drifts)];

/// `Energy CAUSE`, or `Energy CAUSE recommended`.
fn long_run_line(line: usize, rest: &str) -> Result<LongRun, ReadError> {
    let (energy, reason, recommended) = match rest.split_whitespace().collect::<Vec<_>>()[..] {
        [energy, reason] => (energy, reason, false),
        [energy, reason, "recommended"] => (energy, reason, true),
        _ => {
            return Err(error(
                line,
                "a long run is `Energy CAUSE`, or `Energy CAUSE recommended`",
            ));
        }
    };
    Ok(LongRun {
        energy: choice(line, &ENERGIES, energy)?,
        reason: cause(line, reason)?,
        recommended,
    })
}

fn cause(line: usize, name: &str) -> Result<String, ReadError> {
    if is_cause(name) {
        Ok(name.to_owned())
    } else {
        Err(error(
            line,
            format!("`{name}` is not a cause (an upper-case name of `generated::measured`)"),
        ))
    }
}

fn pin_line(line: usize, rest: &str) -> Result<Pin, ReadError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let order = |text: &str| -> Result<f64, ReadError> {
        let order: f64 = number(line, text, "order")?;
        if order.is_finite() && order >= 0.0 {
            Ok(order)
        } else {
            Err(error(line, format!("`{text}` is not an order")))
        }
    };
    Ok(match words[..] {
        ["Order", p, reason] => Pin::Order {
            order: order(p)?,
            reason: cause(line, reason)?,
        },
        ["Parasitic", p, reason] => Pin::Parasitic {
            order: order(p)?,
            reason: cause(line, reason)?,
        },
        // The error text is kept as written, spaces and all.
        ["Fails", reason, _, ..] => Pin::Fails {
            reason: cause(line, reason)?,
            error: rest
                .split_once(reason)
                .map_or("", |(_, error)| error)
                .trim_start()
                .to_owned(),
        },
        ["Erratic", reason] => Pin::Erratic {
            reason: cause(line, reason)?,
        },
        ["NoConvergence", reason] => Pin::NoConvergence {
            reason: cause(line, reason)?,
        },
        _ => {
            return Err(error(
                line,
                "a pin is `Order p CAUSE`, `Parasitic p CAUSE`, `Fails CAUSE error`, \
                 `Erratic CAUSE` or `NoConvergence CAUSE`",
            ));
        }
    })
}

/// The facts of a method: its `facts` line, then what was measured of it and its
/// recommendation, each from its line if it has one.
fn read_facts(lines: &Lines<'_>, start: usize) -> Result<Facts, ReadError> {
    let (n, facts) = lines.one("facts", start)?;
    let pin = |keyword: &str| {
        lines
            .optional(keyword)?
            .map(|(n, rest)| pin_line(n, rest))
            .transpose()
    };
    let limitations = match lines.optional("limitations")? {
        None => Vec::new(),
        Some((n, rest)) => {
            let names = rest
                .split_whitespace()
                .map(|name| cause(n, name))
                .collect::<Result<Vec<_>, _>>()?;
            if names.is_empty() {
                return Err(error(n, "a `limitations` line names at least one"));
            }
            names
        }
    };
    let recommendation = match lines.optional("recommendation")? {
        None => None,
        Some((n, rest)) => {
            let (class, reason) = rest
                .split_once(' ')
                .ok_or_else(|| error(n, "a recommendation is `Class reason`"))?;
            Some(Recommendation {
                class: choice(n, &CLASSES, class)?,
                reason: reason.to_owned(),
            })
        }
    };
    let long_run = match lines.optional("long_run")? {
        None => None,
        Some((n, rest)) => Some(long_run_line(n, rest)?),
    };
    Ok(Facts {
        pinned: pin("pinned")?,
        pinned_on_index_two_pendulum: pin("pinned_on_index_two_pendulum")?,
        limitations,
        recommendation,
        long_run,
        ..facts_line(n, facts)?
    })
}

/// Reads one method from its lines, its coefficients rounded as `roundings` says.
fn read_method(
    start: usize,
    lines: &Lines<'_>,
    roundings: &Roundings,
) -> Result<Method<Coefficient>, ReadError> {
    let mut table = Vec::new();
    for (n, keyword, rest) in &lines.lines {
        if let Some(k) = keyword.strip_prefix('#') {
            if number::<usize>(*n, k, "coefficient index")? != table.len() {
                return Err(error(*n, "coefficients are numbered #0, #1, … in order"));
            }
            table.push(table_line(*n, rest, roundings)?);
        }
    }
    let text = |keyword: &str| lines.one(keyword, start).map(|(_, rest)| rest.to_owned());
    let count = |keyword: &str| {
        let (n, rest) = lines.one(keyword, start)?;
        number::<usize>(n, rest, keyword)
    };
    let (n, problem) = lines.one("problem", start)?;
    let (r, rank_deficient) = lines.one("rank_deficient", start)?;
    let header = Header {
        name: text("method")?,
        family: text("family")?,
        doc: text("doc")?,
        problem: choice(n, &PROBLEMS, problem)?,
        pair: text("pair")?,
        s: count("s")?,
        order: count("order")?,
        rank_deficient: boolean(r, rank_deficient)?,
        facts: read_facts(lines, start)?,
    };
    let method = match lines.all("structure").collect::<Vec<_>>()[..] {
        [] => read_expanded(start, lines, &table, header)?,
        [(n, structure)] => read_declared(n, structure, lines, &table, header)?,
        [_, (n, _), ..] => return Err(error(n, "a second `structure` line")),
    };
    Ok(Method {
        same_equations_as: match lines.all("same_equations_as").collect::<Vec<_>>()[..] {
            [] => None,
            [(_, target)] => Some(target.to_owned()),
            [_, (n, _), ..] => return Err(error(n, "a second `same_equations_as` line")),
        },
        ..method
    })
}

/// The lines of a method written out in full, which a declared one has none of.
const EXPANDED: [&str; 8] = [
    "unknown",
    "residual",
    "nodes",
    "projective_nodes",
    "value",
    "row",
    "update",
    "multiplier",
];

/// Reads the blocks, nodes, values, rows, update and multiplier of a method written out in
/// full.
fn read_expanded(
    start: usize,
    lines: &Lines<'_>,
    table: &[Coefficient],
    header: Header,
) -> Result<Method<Coefficient>, ReadError> {
    if let Some((n, _)) = lines.all("slot").next() {
        return Err(error(n, "a `slot` line without a `structure` line"));
    }
    let blocks = lines
        .all("unknown")
        .map(|(n, rest)| block_line(n, rest))
        .collect::<Result<Vec<_>, _>>()?;
    let rows_layout = lines
        .all("residual")
        .map(|(n, rest)| block_line(n, rest))
        .collect::<Result<Vec<_>, _>>()?;
    let mut scope = Scope {
        blocks: &blocks,
        values: BTreeMap::new(),
        table,
    };
    let mut values = Vec::new();
    for (n, rest) in lines.all("value") {
        let (name, rhs) = rest
            .split_once(" = ")
            .ok_or_else(|| error(n, "a value is `name = expression`"))?;
        let expr = scope.expr(n, rhs)?;
        if scope.values.insert(name.to_owned(), values.len()).is_some() {
            return Err(error(n, format!("a second value `{name}`")));
        }
        values.push(Value {
            name: name.to_owned(),
            expr,
        });
    }
    let value = |n: usize, name: &str| {
        scope
            .values
            .get(name)
            .copied()
            .ok_or_else(|| error(n, format!("`{name}` is not a value")))
    };
    let mut rows = Vec::new();
    for (n, rest) in lines.all("row") {
        let (position, name) = rest
            .split_once(" = ")
            .ok_or_else(|| error(n, "a row is `Block[stage] = value`"))?;
        let (block, stage) = position
            .strip_suffix(']')
            .and_then(|t| t.split_once('['))
            .ok_or_else(|| error(n, "a row is `Block[stage] = value`"))?;
        let block = rows_layout
            .iter()
            .position(|b| b.name == block)
            .ok_or_else(|| error(n, format!("no residual block `{block}`")))?;
        let stage: usize = number(n, stage, "stage")?;
        if stage == 0 || stage > rows_layout[block].stages {
            return Err(error(n, format!("`{position}`: stage out of range")));
        }
        rows.push(Row {
            block,
            stage: stage - 1,
            value: value(n, name)?,
        });
    }
    let (n, update) = lines.one("update", start)?;
    let (q_next, p_next) = match update.split_whitespace().collect::<Vec<_>>()[..] {
        [q, p] => (value(n, q)?, value(n, p)?),
        _ => return Err(error(n, "the update is `q_next p_next`")),
    };
    let (n, nodes) = lines.one("nodes", start)?;
    let nodes = nodes
        .split_whitespace()
        .map(|c| scope.coefficient(n, c))
        .collect::<Result<Vec<_>, _>>()?;
    let projective_nodes = match lines.optional("projective_nodes")? {
        None => Vec::new(),
        Some((n, rest)) => rest
            .split_whitespace()
            .map(|c| scope.coefficient(n, c))
            .collect::<Result<Vec<_>, _>>()?,
    };
    let multiplier = match lines.all("multiplier").next() {
        None => None,
        Some((n, rest)) => {
            let mut words = rest.split_whitespace();
            let name = words.next().unwrap_or_default();
            let block = blocks
                .iter()
                .position(|b| b.name == name)
                .ok_or_else(|| error(n, format!("no unknown block `{name}`")))?;
            let weights = words
                .map(|c| scope.coefficient(n, c))
                .collect::<Result<Vec<_>, _>>()?;
            Some((block, weights))
        }
    };
    Ok(Method {
        name: header.name,
        family: header.family,
        doc: header.doc,
        problem: header.problem,
        pair: header.pair,
        s: header.s,
        order: header.order,
        nodes,
        projective_nodes,
        blocks,
        rows_layout,
        values,
        rows,
        q_next,
        p_next,
        rank_deficient: header.rank_deficient,
        multiplier,
        facts: header.facts,
        same_equations_as: None,
        declared: None,
    })
}

/// Reads a declared structure (the `structure` line `n` names it) and builds it
/// ([`crate::spark::build`]); a malformed slot is refused at its line, a declaration that does
/// not describe a method at the `structure` line.
fn read_declared(
    n: usize,
    structure: &str,
    lines: &Lines<'_>,
    table: &[Coefficient],
    header: Header,
) -> Result<Method<Coefficient>, ReadError> {
    let structure = choice(n, &STRUCTURES, structure)?;
    for keyword in EXPANDED {
        if let Some((k, _)) = lines.all(keyword).next() {
            return Err(error(
                k,
                format!("a declared structure is not written out: no `{keyword}` line"),
            ));
        }
    }
    let scope = Scope {
        blocks: &[],
        values: BTreeMap::new(),
        table,
    };
    let mut named = HashMap::new();
    let mut at = HashMap::new();
    for (k, rest) in lines.all("slot") {
        let (name, entries) = rest.split_once(' ').unwrap_or((rest, ""));
        let rows = if entries.trim().is_empty() {
            Vec::new()
        } else {
            entries
                .split(';')
                .map(|row| {
                    row.split_whitespace()
                        .map(|c| scope.coefficient(k, c))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?
        };
        if named.insert(name, rows).is_some() {
            return Err(error(k, format!("a second slot `{name}`")));
        }
        at.insert(name, k);
    }
    let refused = |e: BuildError| {
        let line = match &e {
            BuildError::Shape { slot, .. } => at.get(slot).copied(),
            BuildError::UnknownSlot { slot } => at.get(slot.as_str()).copied(),
            _ => None,
        };
        error(line.unwrap_or(n), e.to_string())
    };
    let slots = Slots::from_named(named).map_err(refused)?;
    build(header, Declaration { structure, slots }).map_err(refused)
}

/// Reads the methods of a description text, whose coefficients are rounded as `roundings` says.
pub fn read(text: &str, roundings: &Roundings) -> Result<Vec<Method<Coefficient>>, ReadError> {
    let mut methods = Vec::new();
    let mut current: Option<(usize, Lines<'_>)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() || line.starts_with("//") {
            continue;
        }
        let (keyword, rest) = line.split_once(' ').unwrap_or((line, ""));
        match (&mut current, keyword) {
            (None, "method") => {
                current = Some((
                    n,
                    Lines {
                        lines: vec![(n, keyword, rest)],
                    },
                ))
            }
            (None, _) => return Err(error(n, "expected `method Name`")),
            (Some(_), "method") => return Err(error(n, "the previous method has no `end`")),
            (Some((start, lines)), "end") => {
                methods.push(read_method(*start, lines, roundings)?);
                current = None;
            }
            (Some((_, lines)), _) => lines.lines.push((n, keyword, rest)),
        }
    }
    match current {
        Some((start, _)) => Err(error(start, "the method has no `end`")),
        None => Ok(methods),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "method Sample2
family Sample
pair LobattoIIIAIIIB
s 2
order 2
problem Holonomic
doc A sample.
facts preserves_constraint=true multiplier=Projection needs_linear_one_form=false
pinned Order 2.5 SAMPLE_CAUSE
pinned_on_index_two_pendulum Fails OTHER_CAUSE parasitic multiplier mode
limitations SINGULAR_GAUGE SAMPLE_CAUSE OTHER_CAUSE
recommendation Suitable order 2.5, not 2 (SAMPLE_CAUSE)
rank_deficient false
unknown V 2 Velocity Coordinates
unknown Lambda 1 Multiplier Constraints
residual R 2 Residual Coordinates
nodes #0 #1
value q_1 = q_n + #1 h V[1] - h^2 V[2]
value c_1 = Map(q_1)
value r_1 = - V[1] + #1 c_1 + Lambda[1] - λ_n
value r_2 = Dae.Phi(q_1, p_n)
row R[1] = r_1
row R[2] = r_2
update q_1 q_1
multiplier Lambda #1
#0 0
#1 1/3
end
";

    const ROUNDINGS: &str = "// comment
0 0.0 0.0
1/3 0.3333333333333333 1.850371707708594e-17
1/2 0.5 0.0
";

    fn roundings() -> Roundings {
        Roundings::read(ROUNDINGS).unwrap()
    }

    #[test]
    fn a_description_reads_back_as_written() {
        let methods = read(SAMPLE, &roundings()).unwrap();
        assert_eq!(methods.len(), 1);
        let m = &methods[0];
        assert_eq!((m.s, m.order, m.problem), (2, 2, ProblemKind::Holonomic));
        assert_eq!(m.values.len(), 4);
        let Expr::Linear(terms) = &m.values[0].expr else {
            panic!("q_1 is linear")
        };
        assert_eq!(terms.len(), 3);
        assert_eq!(
            (terms[1].0.value.exact.as_str(), terms[1].0.h_power),
            ("1/3", 1)
        );
        assert_eq!((terms[2].0.value.hi, terms[2].0.h_power), (-1.0, 2));
        assert_eq!(terms[2].1, Term::Unknown { block: 0, stage: 1 });
        assert_eq!(m.facts.multiplier, Some(Multiplier::Projection));
        assert_eq!(
            m.facts.pinned,
            Some(Pin::Order {
                order: 2.5,
                reason: "SAMPLE_CAUSE".to_owned()
            })
        );
        assert_eq!(
            m.facts.pinned_on_index_two_pendulum,
            Some(Pin::Fails {
                error: "parasitic multiplier mode".to_owned(),
                reason: "OTHER_CAUSE".to_owned()
            })
        );
        assert_eq!(m.facts.limitations.len(), 3);
        let recommendation = m.facts.recommendation.as_ref().unwrap();
        assert_eq!(recommendation.class, Class::Suitable);
        assert_eq!(recommendation.reason, "order 2.5, not 2 (SAMPLE_CAUSE)");
        let mut written = Roundings::default();
        assert_eq!(write(&methods, &mut written).unwrap(), SAMPLE);
        // The written table holds the roundings of the method's coefficients only, in
        // increasing order of value.
        assert_eq!(
            written.text(),
            "0 0.0 0.0\n1/3 0.3333333333333333 1.850371707708594e-17\n"
        );
        assert_eq!(
            Roundings::read(&written.text()).unwrap().get("1/3"),
            roundings().get("1/3")
        );
    }

    /// A long-run measurement reads back as written, with or without the mark of the guide's
    /// pick, and a malformed one is refused at its line.
    #[test]
    fn a_long_run_line_reads_back_as_written() {
        let with =
            |line: &str| SAMPLE.replace("rank_deficient", &format!("{line}\nrank_deficient"));
        for (line, energy, recommended) in [
            (
                "long_run Bounded LONG_CAUSE recommended",
                Energy::Bounded,
                true,
            ),
            ("long_run Drifts LONG_CAUSE", Energy::Drifts, false),
        ] {
            let text = with(line);
            let methods = read(&text, &roundings()).unwrap();
            let expected = LongRun {
                energy,
                reason: "LONG_CAUSE".to_owned(),
                recommended,
            };
            assert_eq!(
                methods[0].facts.long_run.as_ref(),
                Some(&expected),
                "{line}"
            );
            assert_eq!(write(&methods, &mut Roundings::default()).unwrap(), text);
        }
        for (line, message) in [
            ("long_run Bounded", "a long run is"),
            ("long_run Bounded LONG_CAUSE pick", "a long run is"),
            ("long_run Steady LONG_CAUSE", "not one of"),
            ("long_run Drifts long_cause", "not a cause"),
        ] {
            let e = read(&with(line), &roundings()).unwrap_err();
            assert_eq!(e.line, 13, "{line}: {e}");
            assert!(e.message.contains(message), "{line}: {e}");
        }
    }

    /// A method without measurements writes none of their lines and reads back without them.
    #[test]
    fn a_method_without_measurements_has_no_lines_for_them() {
        let mut m = read(SAMPLE, &roundings()).unwrap().remove(0);
        m.facts = Facts::new(true);
        let text = write(&[m.clone()], &mut Roundings::default()).unwrap();
        for keyword in ["pinned", "limitations", "recommendation", "long_run"] {
            assert!(!text.contains(keyword), "{keyword}");
        }
        assert_eq!(read(&text, &roundings()).unwrap(), [m]);
    }

    fn broken(from: &str, to: &str) -> ReadError {
        assert!(SAMPLE.contains(from), "{from}");
        read(&SAMPLE.replacen(from, to, 1), &roundings()).unwrap_err()
    }

    /// A VSPARK over a tableau with s = 2 internal stages, r = 1 projective stage and a null
    /// vector, declared by its slots.
    const DECLARED: &str = "method Declared2
family Declared
pair LobattoIIIAIIIB
s 2
order 2
problem DegenerateLagrangian
doc A declared sample.
facts preserves_constraint=true multiplier=Projection needs_linear_one_form=false
rank_deficient false
structure Vspark
slot a_q #0 #0 ; #1 #1
slot a_p #1 #0 ; #1 #0
slot alpha_q #1 ; #1
slot alpha_p #1 ; #1
slot a_tilde_q #1 #1
slot a_tilde_p #1 #1
slot alpha_tilde_q #1
slot alpha_tilde_p #1
slot b_q #1 #1
slot b_p #1 #1
slot beta_q #1
slot beta_p #1
slot c #0 #2
slot c_lambda #2
slot d_lambda #2
slot omega #2 #3
slot delta
slot null_d #2 #3
slot null_weights #4 #5
#0 0
#1 1/2
#2 1
#3 -1
#4 2
#5 -2
end
";

    const DECLARED_ROUNDINGS: &str = "0 0.0 0.0
1/2 0.5 0.0
1 1.0 0.0
-1 -1.0 0.0
2 2.0 0.0
-2 -2.0 0.0
";

    fn declared_roundings() -> Roundings {
        Roundings::read(DECLARED_ROUNDINGS).unwrap()
    }

    fn broken_declaration(from: &str, to: &str) -> ReadError {
        assert!(DECLARED.contains(from), "{from}");
        read(&DECLARED.replacen(from, to, 1), &declared_roundings()).unwrap_err()
    }

    /// A declaration reads back as the structure it declares (the internal velocities with
    /// their φ rows, the multipliers with the ω row, μ with the null vector's row, a stage value
    /// shared by the update) and is written back as declared.
    #[test]
    fn a_declared_structure_reads_back_as_written() {
        let methods = read(DECLARED, &declared_roundings()).unwrap();
        let m = &methods[0];
        let names = |blocks: &[Block]| blocks.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&m.blocks), ["V", "Lambda", "Mu"]);
        assert_eq!(names(&m.rows_layout), ["Phi", "Omega", "Null"]);
        assert_eq!(m.rows.len(), 4);
        // b^q is the row a^q_2: the update is the second internal stage's position.
        assert_eq!(m.values[m.q_next].name, "q_2");
        let Some((block, weights)) = &m.multiplier else {
            panic!("VSPARK carries its multiplier")
        };
        assert_eq!((*block, weights[0].exact.as_str()), (1, "1"));
        // −(d₂/b^p_2) μ on the second φ row: the negated weight −(−2).
        let phi_mu = m.values.iter().find(|v| v.name == "phi_mu_2").unwrap();
        let Expr::Linear(terms) = &phi_mu.expr else {
            panic!("phi_mu_2 is linear")
        };
        assert_eq!(terms[1].0.value.exact, "2");
        assert_eq!(
            write(&methods, &mut Roundings::default()).unwrap(),
            DECLARED
        );
    }

    #[test]
    fn malformed_descriptions_are_refused_at_their_line() {
        let cases = [
            ("Map(q_1)", "Chart(q_1)", 19, "not a kernel"),
            ("#1 c_1", "#7 c_1", 20, "no coefficient #7"),
            ("row R[2] = r_2", "row R[3] = r_2", 23, "out of range"),
            ("V[2]\n", "W[2]\n", 18, "no unknown block `W`"),
            ("- λ_n", "- μ_n", 20, "not an earlier value"),
            ("Dae.Phi(q_1, p_n)", "Dae.Phi(q_1)", 21, "takes 2 arguments"),
            ("problem Holonomic", "problem Rigid", 6, "not one of"),
            ("end\n", "", 1, "no `end`"),
            ("update q_1 q_1\n", "", 1, "no `update` line"),
            ("#1 1/3", "#2 1/3", 27, "numbered"),
            ("+ #1 h V[1]", "- #1 h V[1]", 18, "carries its sign"),
            (
                "#1 1/3",
                "#1 2/7",
                27,
                "2/7 is not in the table of roundings",
            ),
            ("#1 1/3", "#1 1/3 0.3333333333333333 0.0", 27, "`#k exact`"),
            ("Order 2.5", "Order two", 9, "not a valid order"),
            ("Order 2.5", "Order -1", 9, "not an order"),
            (
                "Order 2.5 SAMPLE_CAUSE",
                "Sideways SAMPLE_CAUSE",
                9,
                "a pin is",
            ),
            (
                "Fails OTHER_CAUSE parasitic multiplier mode",
                "Fails OTHER_CAUSE",
                10,
                "a pin is",
            ),
            (
                "limitations SINGULAR_GAUGE",
                "limitations singular gauge",
                11,
                "not a cause",
            ),
            (
                "recommendation Suitable",
                "recommendation Best",
                12,
                "not one of",
            ),
            (
                "rank_deficient false",
                "pinned Erratic SAMPLE_CAUSE\nrank_deficient false",
                13,
                "a second `pinned` line",
            ),
        ];
        for (from, to, line, message) in cases {
            let e = broken(from, to);
            assert_eq!(e.line, line, "{from} → {to}: {e}");
            assert!(e.message.contains(message), "{from} → {to}: {e}");
        }
        let e = broken("row R[1] = r_1", "slot a_q #0");
        assert_eq!(e.line, 22, "{e}");
        assert!(e.message.contains("without a `structure` line"), "{e}");
        let declared = [
            (
                "slot a_q #0 #0 ; #1 #1",
                "slot a_q #0 #0 ; #1",
                11,
                "slot a_q: expected 2×2",
            ),
            ("slot b_q #1 #1", "slot b_q #1 ; #1", 19, "a vector"),
            (
                "slot omega #2 #3",
                "slot omega #2 #9",
                26,
                "no coefficient #9",
            ),
            (
                "slot omega #2 #3",
                "slot omega #2",
                26,
                "slot omega: expected 1×2",
            ),
            (
                "slot delta\n",
                "slot delta\nslot delta\n",
                28,
                "a second slot `delta`",
            ),
            ("slot delta\n", "slot gamma\n", 27, "`gamma` is not a slot"),
            ("slot c #0 #2\n", "", 10, "the slot c is missing"),
            ("slot null_d #2 #3\n", "", 10, "the slot null_d is missing"),
            ("structure Vspark", "structure Vsparkle", 10, "not one of"),
            (
                "structure Vspark",
                "structure Spark",
                10,
                "takes no null vector",
            ),
            (
                "structure Vspark",
                "structure Spark UpstreamMu",
                10,
                "r = s",
            ),
            (
                "problem DegenerateLagrangian",
                "problem HamiltonianDae",
                10,
                "not defined",
            ),
            (
                "problem DegenerateLagrangian",
                "problem Holonomic",
                10,
                "not defined",
            ),
            (
                "slot delta\n",
                "slot delta\nvalue x = q_n\n",
                28,
                "no `value` line",
            ),
            (
                "structure Vspark\n",
                "structure Vspark\nstructure Vpark\n",
                11,
                "a second",
            ),
            ("s 2\n", "s 3\n", 11, "slot a_q: expected 3×3"),
        ];
        for (from, to, line, message) in declared {
            let e = broken_declaration(from, to);
            assert_eq!(e.line, line, "{from} → {to}: {e}");
            assert!(e.message.contains(message), "{from} → {to}: {e}");
        }
    }

    /// A malformed table of roundings is refused at its line.
    #[test]
    fn malformed_roundings_are_refused_at_their_line() {
        let cases = [
            ("1/2 0.5 0.0", "1/2 0.5", 4, "`exact hi lo`"),
            ("1/2 0.5 0.0", "1/2 half 0.0", 4, "not a valid f64"),
            ("1/2 0.5 0.0", "1/3 0.5 0.0", 4, "a second rounding of 1/3"),
        ];
        for (from, to, line, message) in cases {
            let e = Roundings::read(&ROUNDINGS.replacen(from, to, 1)).unwrap_err();
            assert_eq!(e.line, line, "{from} → {to}: {e}");
            assert!(e.message.contains(message), "{from} → {to}: {e}");
        }
    }

    #[test]
    fn names_that_a_reader_would_misread_are_refused() {
        let written =
            |m: &Method<Coefficient>| write(std::slice::from_ref(m), &mut Roundings::default());
        let mut m = read(SAMPLE, &roundings()).unwrap().remove(0);
        m.values[1].name = "q_1".to_owned();
        assert!(matches!(written(&m), Err(WriteError::Name { .. })));
        m.values[1].name = "h".to_owned();
        assert!(matches!(written(&m), Err(WriteError::Name { .. })));
        m.values[1].name = "c_1".to_owned();
        m.facts.limitations.push("lower_case".to_owned());
        assert!(matches!(written(&m), Err(WriteError::Cause { .. })));
        m.facts.limitations.pop();
        if let Some(r) = &mut m.facts.recommendation {
            r.reason.push_str("\nsecond line");
        }
        assert!(matches!(written(&m), Err(WriteError::LineBreak { .. })));
        m.facts.recommendation = None;
        m.doc = "two\nlines".to_owned();
        assert!(matches!(written(&m), Err(WriteError::LineBreak { .. })));
    }

    /// One exact value rounded two ways is refused when written.
    #[test]
    fn an_exact_value_has_one_rounding() {
        let m = read(SAMPLE, &roundings()).unwrap().remove(0);
        let mut other = m.clone();
        other.nodes[1].lo = 0.0;
        let e = write(&[m, other], &mut Roundings::default()).unwrap_err();
        assert!(
            matches!(e, WriteError::Rounding { ref exact, .. } if exact == "1/3"),
            "{e}"
        );
    }
}
