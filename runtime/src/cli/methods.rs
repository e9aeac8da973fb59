//! `sparkgen methods`: every method with the problem kinds it applies to, declared and
//! computed order, structure, known limitations (measured), its class in the method guide
//! (`docs/methods.md`) and how its energy error behaves over long runs; with `--recommended`,
//! only the recommended methods and each problem kind's pick for long runs.

use super::choice::{Choice, Holonomic, Kind};
use super::registry::{
    HAMILTONIAN_STEPPERS, HOLONOMIC_STEPPERS, IMPLICIT_STEPPERS, STEPPERS, StepperInfo,
};
use crate::generated::catalogue::PAIRS;
use crate::generated::types::{
    CarriedMultiplier, LongRun, LongRunEnergy, Pinned, Recommendation, RecommendationClass,
};
use serde::Serialize;
use std::fmt::Write as _;

/// One row of the listing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodRow {
    /// Name, e.g. `SlrkLobattoIIIE3`.
    pub name: String,
    /// Family (the `--method` name).
    pub family: &'static str,
    /// Stages s.
    pub stages: usize,
    /// Problem kinds it applies to.
    pub kinds: Vec<&'static str>,
    /// The order the method is built for.
    pub declared_order: usize,
    /// The order of its pair computed from bi-coloured trees by the generator (`null` for
    /// RATTLE and SHAKE, which have no tableau).
    pub computed_order: Option<usize>,
    /// The pair is symplectic (RATTLE: symplectic on the constraint manifold).
    pub symplectic: bool,
    /// The pair is symmetric.
    pub symmetric: bool,
    /// Holds the constraint (`p = ϑ(q)`; for RATTLE `c(q) = 0` and `G M⁻¹ p = 0`) to round-off.
    pub constraint_preserving: bool,
    /// What the carried multiplier `λ_n` is (`projection`: it vanishes on the exact flow and
    /// measures the defect; `velocity`), `null` for a method that carries none.
    pub carried_multiplier: Option<CarriedMultiplier>,
    /// The behaviour `sparkgen verify` expects where it departs from the declared order, with
    /// its cause (`null` where the declared order holds).
    pub pinned: Option<Pinned>,
    /// Known limitations, measured.
    pub limitations: Vec<&'static str>,
    /// Its class in the method guide (`recommended`, `suitable`, `reference`, `avoid`) and
    /// why, decided by the generator from the facts above; `null` for RATTLE and SHAKE, which
    /// the generator does not emit.
    pub recommendation: Option<Recommendation>,
    /// Whether its energy error stays bounded or drifts over long runs, measured, and whether
    /// it is the method guide's pick for long runs of its kind (`null` where not measured).
    pub long_run: Option<LongRun>,
}

/// The row of a generated stepper, with the properties of the pair it is built on.
fn stepper_row(s: &StepperInfo, kind: Kind) -> MethodRow {
    let pair = PAIRS.iter().find(|p| p.name == s.pair);
    MethodRow {
        name: s.name.to_owned(),
        family: s.family,
        stages: s.stages,
        kinds: vec![kind.name()],
        declared_order: s.order,
        computed_order: pair.map(|p| p.computed_order),
        symplectic: pair.is_some_and(|p| p.symplectic),
        symmetric: pair.is_some_and(|p| p.symmetric),
        constraint_preserving: s.facts.preserves_constraint,
        carried_multiplier: s.facts.multiplier,
        pinned: s.facts.pinned,
        limitations: s.facts.limitations.to_vec(),
        recommendation: Some(s.facts.recommendation),
        long_run: s.long_run().copied(),
    }
}

/// Every method: the generated steppers, then RATTLE and SHAKE.
pub fn rows() -> Vec<MethodRow> {
    let mut out: Vec<MethodRow> = STEPPERS
        .iter()
        .map(|s| stepper_row(s, Kind::Degenerate))
        .collect();
    // The implicit-DAE steppers apply to degenerate Lagrangians too, through their view.
    out.extend(IMPLICIT_STEPPERS.iter().map(|s| {
        let mut row = stepper_row(s, Kind::Implicit);
        row.kinds.push(Kind::Degenerate.name());
        row
    }));
    // So do the Hamiltonian-DAE steppers, through the view `DiracHamiltonian`.
    out.extend(HAMILTONIAN_STEPPERS.iter().map(|s| {
        let mut row = stepper_row(s, Kind::Hamiltonian);
        row.kinds.push(Kind::Degenerate.name());
        row
    }));
    out.extend(
        HOLONOMIC_STEPPERS
            .iter()
            .map(|s| stepper_row(s, Kind::Holonomic)),
    );
    for h in Holonomic::ALL {
        let rattle = h == Holonomic::Rattle;
        let choice = Choice::Holonomic(h);
        out.push(MethodRow {
            name: h.name().to_owned(),
            family: h.name(),
            stages: 1,
            kinds: vec![Kind::Holonomic.name()],
            declared_order: 2,
            computed_order: None,
            symplectic: rattle,
            symmetric: true,
            constraint_preserving: choice.preserves_constraint(),
            carried_multiplier: None,
            pinned: None,
            limitations: if rattle {
                Vec::new()
            } else {
                vec!["central-difference momenta: G M⁻¹ p = 0 holds only to O(h²)"]
            },
            recommendation: None,
            long_run: None,
        });
    }
    out
}

/// The rows `sparkgen methods --recommended` lists: the recommended methods (one per problem
/// kind and order) and each kind's pick for long runs, in listing order.
pub fn recommended(rows: &[MethodRow]) -> Vec<MethodRow> {
    rows.iter()
        .filter(|r| {
            r.recommendation
                .is_some_and(|c| c.class == RecommendationClass::Recommended)
                || r.long_run.is_some_and(|l| l.recommended)
        })
        .cloned()
        .collect()
}

/// Each problem kind with the name of its pick for long runs among `rows` (`None`: no method of
/// the kind was measured to keep its energy error bounded), in the order of [`Kind::ALL`].
pub fn long_run_picks(rows: &[MethodRow]) -> Vec<(Kind, Option<&MethodRow>)> {
    Kind::ALL
        .into_iter()
        .map(|kind| {
            let pick = rows.iter().find(|r| {
                r.kinds.first() == Some(&kind.name()) && r.long_run.is_some_and(|l| l.recommended)
            });
            (kind, pick)
        })
        .collect()
}

/// The long-run picks among `rows` (every method, so that a kind without a pick can say
/// whether any of its methods was measured) as text, one line per problem kind.
pub fn long_run_text(rows: &[MethodRow]) -> String {
    let mut s = String::from(
        "\nfor long runs (the method guide's pick per problem kind: of its clean methods whose \
         energy error stays bounded, the one of the highest order with the fewest unknowns):\n",
    );
    for (kind, pick) in long_run_picks(rows) {
        let measured = rows
            .iter()
            .any(|r| r.kinds.first() == Some(&kind.name()) && r.long_run.is_some());
        let what = match pick.and_then(|r| r.long_run.map(|l| (r, l))) {
            Some((r, l)) => format!("{} (order {}): {}", r.name, r.declared_order, l.reason),
            None if measured => "no pick: no clean method of this kind was measured bounded".into(),
            None => "no pick: no long runs were measured on this kind".to_owned(),
        };
        let _ = writeln!(s, "  {:<22} {what}", kind.name());
    }
    s
}

/// The listing as text.
pub fn text(rows: &[MethodRow]) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut s = format!(
        "{:<24} {:<22} {:>2} {:>5} {:>5} {:^6} {:^5} {:^6} {:<8}  {:<11}  reason | limitations\n",
        "method", "kinds", "s", "p", "p*", "sympl", "symm", "p=ϑ(q)", "energy", "class"
    );
    for r in rows {
        let computed = r.computed_order.map_or("–".to_owned(), |p| p.to_string());
        let (class, reason) = r
            .recommendation
            .map_or(("–", "–"), |c| (c.class.name(), c.reason));
        let energy = r.long_run.map_or("–".to_owned(), |l| {
            let pick = if l.recommended { "*" } else { "" };
            format!("{}{pick}", l.energy.name())
        });
        // Writing to a String cannot fail.
        let _ = write!(
            s,
            "{:<24} {:<22} {:>2} {:>5} {:>5} {:^6} {:^5} {:^6} {energy:<8}  {class:<11}  {reason}",
            r.name,
            r.kinds.join(","),
            r.stages,
            r.declared_order,
            computed,
            yes(r.symplectic),
            yes(r.symmetric),
            yes(r.constraint_preserving),
        );
        if !r.limitations.is_empty() {
            let _ = write!(s, " | {}", r.limitations.join("; "));
        }
        s.push('\n');
    }
    let _ = write!(
        s,
        "\np: declared order; p*: order of the pair from bi-coloured trees (generator); \
         p=ϑ(q): constraint held to round-off (RATTLE: c(q) = 0, G M⁻¹ p = 0); energy: the \
         energy error over long runs on Lotka–Volterra ({bounded} or {drifts}, measured; *: the \
         method guide's pick for long runs of the method's kind); class: the method guide's \
         (docs/methods.md: recommended, suitable, reference, avoid)\n",
        bounded = LongRunEnergy::Bounded.name(),
        drifts = LongRunEnergy::Drifts.name(),
    );
    s
}
