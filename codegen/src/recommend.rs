//! The method guide's recommendation: a class and a one-line reason for every method of the
//! catalogue, decided from its facts ([`crate::method::facts`]) and what was measured of it
//! ([`crate::measured`]), never from its name.
//!
//! The rules, first match wins:
//! 1. **Avoid**: a pin says the method does not deliver an order: it fails, behaves
//!    erratically, converges to something else, carries a parasitic multiplier mode, or reaches
//!    order 1 only (on the verification problems or, for implicit-DAE steppers, on the
//!    pendulum's index-2 form).
//! 2. **Reference**: a pin whose cause is one of upstream's conventions ([`UPSTREAM`]): the
//!    method is kept to reproduce upstream side by side, not to be used.
//! 3. **Suitable**: it converges, but does not impose the constraint at the step's end, has its
//!    order only on a linear one-form, reaches a pinned order below the declared one, or has a
//!    measured limitation.
//! 4. Among the remaining (clean) methods of one problem kind and order, the one with the fewest
//!    unknown vectors per step is **Recommended** (ties: a symmetric pair, then no carried
//!    multiplier, then catalogue order); the others are **Suitable**, naming it.
//! 5. **For long runs**, each problem kind has one pick besides its class: among its clean
//!    methods (those rule 4 chooses from) whose energy error was measured to stay bounded over
//!    long runs ([`crate::measured::LongRun`]), the one of the highest order (clean methods
//!    reach their declared order), then with the fewest unknown vectors per step (ties as in
//!    rule 4). A kind none of whose clean methods was measured bounded has no pick. The pick for
//!    degenerate Lagrangians is the method the command runs by default.

use crate::catalogue::Catalogue;
use crate::measured::{Measured, Pinned, Reason, measured};
use crate::method::ir::{Method, ProblemKind};
pub use sparkgen_description::facts::{Class, Recommendation};
use sparkgen_description::facts::{Energy, Facts, LongRun};
use std::cmp::Reverse;

/// The names of the causes that mark a reproduction of one of upstream's conventions (its
/// R∞ = −1, its forms of SPARK's μ, its VSPARKLob… and SPARKGLRK tableaus): a method pinned
/// with one of them and still converging is a [`Class::Reference`]. A judgement on measured
/// causes, listed one by one as in [`crate::measured`].
pub const UPSTREAM: &[&str] = &[
    "INCONSISTENT",
    "LOB_ABC",
    "LOB_ABD",
    "FIXED_LOBATTO",
    "R_INF_UPSTREAM",
    "R_INF_UPSTREAM_ORDER_2",
    "R_INF_UPSTREAM_SINGULAR",
    "R_INF_UPSTREAM_STALLS",
    "R_INF_UPSTREAM_MARGINAL",
    "R_INF_UPSTREAM_ERRATIC",
    "UPSTREAM_MU_SINGULAR",
    "UPSTREAM_MU_AB2",
    "UPSTREAM_MU_AB3",
    "UPSTREAM_MU_AB4",
    "OMEGA_MU",
];

/// What the rules read of one method.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The problem kind of its stepper.
    pub kind: ProblemKind,
    /// Its family and stage count, e.g. `SlrkLobattoIIIE(3)`.
    pub label: String,
    /// Stages s.
    pub s: usize,
    /// The order it is built for.
    pub declared_order: usize,
    /// It imposes the constraint at the step's end.
    pub preserves_constraint: bool,
    /// Its declared order holds on linear one-forms only.
    pub needs_linear_one_form: bool,
    /// It carries a multiplier from step to step.
    pub carries_multiplier: bool,
    /// Unknown vectors per step (of width D or M).
    pub unknowns: usize,
    /// Its pair is symmetric.
    pub symmetric_pair: bool,
    /// What was measured of it.
    pub measured: Measured,
}

impl Profile {
    /// The profile of `method`, with the properties of its pair from `catalogue`.
    pub fn of(method: &Method, catalogue: &Catalogue) -> Profile {
        let pair = format!("{}({})", method.pair, method.s);
        let facts = &method.facts;
        Profile {
            kind: method.problem,
            label: format!("{}({})", method.family, method.s),
            s: method.s,
            declared_order: method.order,
            preserves_constraint: facts.preserves_constraint,
            needs_linear_one_form: facts.needs_linear_one_form,
            carries_multiplier: facts.multiplier.is_some(),
            unknowns: method.blocks.iter().map(|b| b.stages).sum(),
            symmetric_pair: catalogue
                .pairs
                .iter()
                .any(|p| p.pair.name() == pair && p.computed.symmetric),
            measured: measured(
                &method.family,
                method.s,
                method.problem,
                facts.preserves_constraint,
            ),
        }
    }

    /// The pins, each with where it was measured (`""`, or `" on the index-2 pendulum"`).
    pub fn pins(&self) -> impl Iterator<Item = (Pinned, &'static str)> {
        let m = &self.measured;
        m.pinned.map(|p| (p, "")).into_iter().chain(
            m.pinned_on_index_two_pendulum
                .map(|p| (p, " on the index-2 pendulum")),
        )
    }

    /// The order it reaches on every problem it was measured on: the lowest pinned order, else
    /// the declared one; `None` when a pin says it reaches none.
    pub fn measured_order(&self) -> Option<f64> {
        self.pins()
            .try_fold(self.declared_order as f64, |order, (pin, _)| match pin {
                Pinned::Order(o, _) => Some(order.min(o.at(self.s))),
                _ => None,
            })
    }

    /// What rules 4 and 5 minimise among methods of one order: the unknown vectors per step,
    /// then a pair that is not symmetric, then a carried multiplier.
    fn cost(&self) -> (usize, bool, bool) {
        (self.unknowns, !self.symmetric_pair, self.carries_multiplier)
    }

    /// Its energy error was measured to stay bounded over long runs.
    pub fn bounded_over_long_runs(&self) -> bool {
        self.measured
            .long_run
            .is_some_and(|l| l.energy == Energy::Bounded)
    }

    /// Preserves the constraint, has its order on every one-form, no pin and no limitation.
    pub fn is_clean(&self) -> bool {
        self.preserves_constraint
            && !self.needs_linear_one_form
            && self.pins().next().is_none()
            && self.measured.limitations.is_empty()
    }

    /// The class and reason by rules 1–3 of the module, `None` for a clean method.
    fn screen(&self) -> Option<Recommendation> {
        let verdict = |class, reason: String| Some(Recommendation { class, reason });
        for (pin, at) in self.pins() {
            let cause = pin.reason().name;
            let avoid = match pin {
                Pinned::Fails(error, _) => format!("fails{at}: {error} ({cause})"),
                Pinned::Erratic(_) => {
                    format!("erratic{at}: runs stop or end non-finite, no order ({cause})")
                }
                Pinned::NoConvergence(_) => {
                    format!("converges to something else{at}, order 0 ({cause})")
                }
                Pinned::Parasitic(..) => {
                    format!("parasitic multiplier mode{at}: λ grows over the long run ({cause})")
                }
                Pinned::Order(o, _) if o.at(self.s) < 2.0 => format!(
                    "reaches order {}{at} only, not {} ({cause})",
                    o.at(self.s),
                    self.declared_order
                ),
                Pinned::Order(..) => continue,
            };
            return verdict(Class::Avoid, avoid);
        }
        // Every pin left gives an order (rule 1 returned otherwise).
        let reached = |pin: Pinned, at: &str| {
            let order = match pin {
                Pinned::Order(o, _) => o.at(self.s),
                _ => self.declared_order as f64,
            };
            let cause = pin.reason().name;
            if order < self.declared_order as f64 {
                format!("order {order}{at}, not {} ({cause})", self.declared_order)
            } else {
                format!("order {order}{at} ({cause})")
            }
        };
        if let Some((pin, at)) = self
            .pins()
            .find(|(p, _)| UPSTREAM.contains(&p.reason().name))
        {
            return verdict(
                Class::Reference,
                format!("kept to reproduce upstream: {}", reached(pin, at)),
            );
        }
        if let Some((pin, at)) = self.pins().next() {
            return verdict(Class::Suitable, reached(pin, at));
        }
        if !self.preserves_constraint {
            return verdict(
                Class::Suitable,
                "does not impose the constraint at the step's end".to_owned(),
            );
        }
        if self.needs_linear_one_form {
            return verdict(
                Class::Suitable,
                format!("order {} on linear one-forms only", self.declared_order),
            );
        }
        let limits = &self.measured.limitations;
        if !limits.is_empty() {
            let names: Vec<&str> = limits.iter().map(|r: &Reason| r.name).collect();
            return verdict(
                Class::Suitable,
                format!("measured limitation ({})", names.join(", ")),
            );
        }
        None
    }
}

/// The recommendation of every profile, in order (rules of the module).
pub fn recommend(profiles: &[Profile]) -> Vec<Recommendation> {
    profiles
        .iter()
        .map(|p| {
            p.screen().unwrap_or_else(|| {
                // The pick among the clean methods of p's kind and order (p among them).
                let best = profiles
                    .iter()
                    .filter(|q| {
                        q.kind == p.kind && q.declared_order == p.declared_order && q.is_clean()
                    })
                    .min_by_key(|q| q.cost())
                    .unwrap_or(p);
                if std::ptr::eq(best, p) {
                    Recommendation {
                        class: Class::Recommended,
                        reason: format!(
                            "the pick for order {}: constraint imposed, no pin or limitation, \
                             the fewest unknowns ({})",
                            p.declared_order,
                            vectors(p.unknowns)
                        ),
                    }
                } else {
                    Recommendation {
                        class: Class::Suitable,
                        reason: format!(
                            "clean; the pick for order {} is {} ({}, here {})",
                            p.declared_order,
                            best.label,
                            vectors(best.unknowns),
                            p.unknowns
                        ),
                    }
                }
            })
        })
        .collect()
}

/// The long-run pick of `kind` among `profiles` (rule 5 of the module): of its clean methods
/// measured bounded over long runs, the first of the highest order and then the least
/// [`Profile::cost`]; `None` if it has none.
pub fn long_run_pick<'a>(
    profiles: impl IntoIterator<Item = &'a Profile>,
    kind: ProblemKind,
) -> Option<&'a Profile> {
    profiles
        .into_iter()
        .filter(|p| p.kind == kind && p.is_clean() && p.bounded_over_long_runs())
        .min_by_key(|p| (Reverse(p.declared_order), p.cost()))
}

/// Whether each of `profiles` is its kind's long-run pick ([`long_run_pick`]), in order.
pub fn long_run_picks(profiles: &[Profile]) -> Vec<bool> {
    profiles
        .iter()
        .map(|p| long_run_pick(profiles, p.kind).is_some_and(|best| std::ptr::eq(best, p)))
        .collect()
}

/// `n` unknown vectors, in words.
pub fn vectors(n: usize) -> String {
    match n {
        1 => "1 unknown vector".to_owned(),
        n => format!("{n} unknown vectors"),
    }
}

/// The profiles of the catalogue's methods, in catalogue order.
pub fn profiles(catalogue: &Catalogue) -> Vec<Profile> {
    catalogue
        .methods
        .iter()
        .map(|m| Profile::of(m, catalogue))
        .collect()
}

/// The facts of every method of the catalogue as its description carries them, in catalogue
/// order: those its builder decided, what was measured of it ([`crate::measured`], orders
/// evaluated at its s, causes by name), its recommendation and whether it is its kind's pick
/// for long runs.
pub fn described_facts(catalogue: &Catalogue) -> Vec<Facts> {
    let profiles = profiles(catalogue);
    let recommendations = recommend(&profiles);
    let picks = long_run_picks(&profiles);
    catalogue
        .methods
        .iter()
        .zip(profiles)
        .zip(recommendations)
        .zip(picks)
        .map(|(((m, p), recommendation), pick)| {
            let measured = p.measured;
            Facts {
                pinned: measured.pinned.map(|pin| pin.at(m.s)),
                pinned_on_index_two_pendulum: measured
                    .pinned_on_index_two_pendulum
                    .map(|pin| pin.at(m.s)),
                limitations: measured
                    .limitations
                    .iter()
                    .map(|r| r.name.to_owned())
                    .collect(),
                recommendation: Some(recommendation),
                long_run: measured.long_run.map(|l| LongRun {
                    energy: l.energy,
                    reason: l.reason.name.to_owned(),
                    recommended: pick,
                }),
                ..m.facts.clone()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Config;
    use crate::measured::{Order, REASONS};
    use std::sync::OnceLock;

    /// The measured reason called `name`.
    fn reason(name: &str) -> Reason {
        *REASONS
            .iter()
            .find(|r| r.name == name)
            .expect("a measured reason")
    }

    fn shipped() -> &'static (Vec<Profile>, Vec<Recommendation>) {
        static SHIPPED: OnceLock<(Vec<Profile>, Vec<Recommendation>)> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            let catalogue = Catalogue::build(Config::default()).expect("the catalogue builds");
            let profiles = profiles(&catalogue);
            let recommendations = recommend(&profiles);
            (profiles, recommendations)
        })
    }

    /// A pin that delivers no order makes a method `Avoid`, and every `Avoid` has one.
    #[test]
    fn avoid_exactly_where_a_pin_delivers_no_order() {
        let (profiles, recommendations) = shipped();
        for (p, r) in profiles.iter().zip(recommendations) {
            let no_order = p.pins().any(|(pin, _)| match pin {
                Pinned::Order(o, _) => o.at(p.s) < 2.0,
                _ => true,
            });
            assert_eq!(r.class == Class::Avoid, no_order, "{}: {r:?}", p.label);
            if no_order {
                assert!(!p.measured_order().is_some_and(|o| o >= 2.0), "{}", p.label);
            }
        }
    }

    /// Every `Recommended` method preserves its constraint, has no pin and no limitation, and
    /// is the only one of its kind and order; every clean method is `Recommended` or `Suitable`.
    #[test]
    fn recommended_methods_are_clean_and_one_per_kind_and_order() {
        let (profiles, recommendations) = shipped();
        let mut picks = Vec::new();
        for (p, r) in profiles.iter().zip(recommendations) {
            if r.class == Class::Recommended {
                assert!(p.preserves_constraint, "{}", p.label);
                assert!(p.pins().next().is_none(), "{}", p.label);
                assert!(p.measured.limitations.is_empty(), "{}", p.label);
                assert!(
                    !picks.contains(&(p.kind, p.declared_order)),
                    "{}: a second pick",
                    p.label
                );
                picks.push((p.kind, p.declared_order));
            }
            if p.is_clean() {
                assert!(
                    matches!(r.class, Class::Recommended | Class::Suitable),
                    "{}: {r:?}",
                    p.label
                );
            }
        }
    }

    /// Each problem kind has a `Recommended` method for every order its clean methods reach;
    /// degenerate Lagrangians, holonomic systems and Hamiltonian DAEs for 2, 4, 6 and 8.
    #[test]
    fn every_kind_has_a_recommended_method_per_order_it_offers() {
        let (profiles, recommendations) = shipped();
        let recommended = |kind, order| {
            profiles.iter().zip(recommendations).any(|(p, r)| {
                p.kind == kind && p.declared_order == order && r.class == Class::Recommended
            })
        };
        for p in profiles.iter().filter(|p| p.is_clean()) {
            assert!(recommended(p.kind, p.declared_order), "{}", p.label);
        }
        for kind in [
            ProblemKind::DegenerateLagrangian,
            ProblemKind::Holonomic,
            ProblemKind::HamiltonianDae,
        ] {
            for order in [2, 4, 6, 8] {
                assert!(recommended(kind, order), "{kind:?}, order {order}");
            }
        }
    }

    /// Rule 5 on the shipped catalogue: the degenerate-Lagrangian pick is clean and measured
    /// bounded, no such method of its kind has a higher order or, at its order, a lower cost;
    /// each kind has at most one pick, and only a clean, bounded method is one.
    #[test]
    fn the_long_run_pick_is_the_best_bounded_clean_method() {
        let (profiles, _) = shipped();
        let pick = long_run_pick(profiles, ProblemKind::DegenerateLagrangian)
            .expect("a long-run pick for degenerate Lagrangians");
        assert!(
            pick.is_clean() && pick.bounded_over_long_runs(),
            "{}",
            pick.label
        );
        for p in profiles
            .iter()
            .filter(|p| p.kind == pick.kind && p.is_clean() && p.bounded_over_long_runs())
        {
            assert!(p.declared_order <= pick.declared_order, "{}", p.label);
            if p.declared_order == pick.declared_order {
                assert!(p.cost() >= pick.cost(), "{} vs {}", p.label, pick.label);
            }
        }
        let picks = long_run_picks(profiles);
        for kind in [
            ProblemKind::DegenerateLagrangian,
            ProblemKind::Holonomic,
            ProblemKind::ImplicitDae,
            ProblemKind::HamiltonianDae,
        ] {
            let of_kind = profiles
                .iter()
                .zip(&picks)
                .filter(|(p, pick)| p.kind == kind && **pick);
            assert!(of_kind.count() <= 1, "{kind:?}");
        }
        for (p, pick) in profiles.iter().zip(&picks) {
            assert!(
                !pick || (p.is_clean() && p.bounded_over_long_runs()),
                "{}",
                p.label
            );
        }
    }

    /// Rule 5 on variations of one clean method: a drift or no measurement is never picked, nor
    /// a bounded method with a limitation; of bounded clean ones the higher order wins, then the
    /// fewer unknowns.
    #[test]
    fn rule_five_decides_its_cases() {
        let (profiles, _) = shipped();
        let clean = profiles
            .iter()
            .find(|p| p.is_clean() && p.bounded_over_long_runs())
            .expect("a clean method measured bounded")
            .clone();
        let with = |energy: Option<Energy>, order, unknowns| {
            let mut p = clean.clone();
            p.measured.long_run = energy.map(|energy| crate::measured::LongRun {
                energy,
                reason: reason("LONG_RUN_GAUSS_PROJECTION"),
            });
            p.declared_order = order;
            p.unknowns = unknowns;
            p
        };
        let pick = |candidates: &[Profile]| {
            long_run_pick(candidates, clean.kind)
                .map(|best| candidates.iter().position(|p| std::ptr::eq(p, best)))
        };
        let bounded = Some(Energy::Bounded);
        assert_eq!(pick(&[with(Some(Energy::Drifts), 8, 1)]), None);
        assert_eq!(pick(&[with(None, 8, 1)]), None);
        let mut limited = with(bounded, 8, 1);
        limited.measured.limitations.push(reason("SINGULAR_GAUGE"));
        assert_eq!(pick(&[limited, with(bounded, 4, 9)]), Some(Some(1)));
        assert_eq!(
            pick(&[
                with(bounded, 4, 1),
                with(bounded, 6, 9),
                with(bounded, 6, 5)
            ]),
            Some(Some(2))
        );
        let mut other_kind = with(bounded, 8, 1);
        other_kind.kind = ProblemKind::Holonomic;
        assert_ne!(other_kind.kind, clean.kind);
        assert_eq!(pick(&[other_kind, with(bounded, 2, 3)]), Some(Some(1)));
    }

    /// The upstream causes are measured reasons, say so, and each pins a shipped method.
    #[test]
    fn upstream_causes_are_measured_reasons_that_pin_a_method() {
        let (profiles, _) = shipped();
        for name in UPSTREAM {
            let reason = REASONS.iter().find(|r| r.name == *name);
            assert!(
                reason.is_some_and(|r| r.text.contains("upstream")),
                "{name}: {reason:?}"
            );
            assert!(
                profiles
                    .iter()
                    .any(|p| p.pins().any(|(pin, _)| pin.reason().name == *name)),
                "{name} pins no method"
            );
        }
    }

    /// The rules on variations of one clean method: a pin, an upstream cause, the constraint
    /// not imposed, a limitation; and the pick among two clean methods.
    #[test]
    fn each_rule_decides_its_case() {
        let (profiles, _) = shipped();
        let clean = profiles
            .iter()
            .find(|p| p.is_clean())
            .expect("a clean method")
            .clone();
        let class = |p: &Profile| recommend(std::slice::from_ref(p))[0].class;
        assert_eq!(class(&clean), Class::Recommended);
        let pinned = |pin| {
            let mut p = clean.clone();
            p.measured.pinned = Some(pin);
            p
        };
        let cases = [
            (Pinned::Erratic(reason("LOB_ABD")), Class::Avoid),
            (
                Pinned::NoConvergence(reason("SPARK_STANDS_STILL")),
                Class::Avoid,
            ),
            (
                Pinned::Parasitic(Order::Fixed(2.0), reason("VPARK_AB")),
                Class::Avoid,
            ),
            (
                Pinned::Order(Order::Fixed(1.0), reason("GLRK_LOBATTO")),
                Class::Avoid,
            ),
            (
                Pinned::Order(Order::Fixed(2.0), reason("OMEGA_MU")),
                Class::Reference,
            ),
            (
                Pinned::Order(Order::Fixed(2.0), reason("HSPARK_PRIMARY")),
                Class::Suitable,
            ),
        ];
        for (pin, expected) in cases {
            assert_eq!(class(&pinned(pin)), expected, "{pin:?}");
        }
        let mut index_two = clean.clone();
        index_two.measured.pinned_on_index_two_pendulum =
            Some(Pinned::Fails("singular", reason("SPARK_FIRST_STAGE_FIXED")));
        let r = &recommend(&[index_two])[0];
        assert_eq!(r.class, Class::Avoid);
        assert!(r.reason.contains("index-2"), "{}", r.reason);
        let mut drifting = clean.clone();
        drifting.preserves_constraint = false;
        assert_eq!(class(&drifting), Class::Suitable);
        let mut limited = clean.clone();
        limited.measured.limitations.push(reason("SINGULAR_GAUGE"));
        assert_eq!(class(&limited), Class::Suitable);
        // Of two clean methods of one kind and order, the one with fewer unknowns.
        let mut cheaper = clean.clone();
        cheaper.unknowns -= 1;
        cheaper.label.push('*');
        let both = recommend(&[clean.clone(), cheaper]);
        assert_eq!(
            (both[0].class, both[1].class),
            (Class::Suitable, Class::Recommended)
        );
        assert!(both[0].reason.contains('*'), "{}", both[0].reason);
    }
}
