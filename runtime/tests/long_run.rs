//! The long-run facts hold (issue 26): the method guide's pick for long runs of degenerate
//! Lagrangians (`generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN`, the command's default
//! method) keeps its energy error bounded on Lotka–Volterra, and a method whose facts say its
//! energy error drifts does drift there. Which methods are run, and what is expected of each, is
//! read from the facts their descriptions carry (`sparkgen_description::facts::LongRun`), never
//! from a method's name.
//!
//! The measure is that of the facts: the largest `|H(q_n) − H₀|/|H₀|` over the last tenth of the
//! run against that over the first tenth, at `h = 0.1` from upstream's `q₀ = (2, 1)`,
//! `p₀ = ϑ(q₀)`. A bounded error gives a ratio near 1 whatever the length of the run; an error
//! that grows linearly from zero gives a ratio near 10 (the first tenth's maximum is reached at
//! its end, `T/10`, the last's at `T`), so both verdicts are separated by the thresholds 2 and 5.

use sparkgen::cli::registry::{HAMILTONIAN_STEPPERS, IMPLICIT_STEPPERS, STEPPERS};
use sparkgen::engine::{self, Engine, Stepping};
use sparkgen::generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN;
use sparkgen::generated::types::LongRunEnergy;
use sparkgen::integrate::{Options, run_into};
use sparkgen::layout::Dims;
use sparkgen::problem::{DegenerateLagrangian, Vector};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solution::{Observer, Point};
use sparkgen_description::facts::{Energy, LongRun};
use std::convert::Infallible;

/// Steps of each run (of h = 0.1, as measured).
const STEPS: usize = 10_000;

/// Below this ratio of the last tenth's largest energy error to the first's, the error is
/// bounded.
const BOUNDED_BELOW: f64 = 2.0;

/// Above this ratio, it drifts.
const DRIFTS_ABOVE: f64 = 5.0;

/// The long-run fact the description of the catalogue method `name` carries.
fn fact(name: &str) -> Option<LongRun> {
    engine::catalogue_method(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .facts
        .long_run
}

/// The largest relative energy error over the first and over the last tenth of a run.
struct Tenths {
    lv: LotkaVolterra2d,
    h0: f64,
    first: f64,
    last: f64,
}

impl Observer for Tenths {
    type Error = Infallible;
    fn observe(&mut self, point: &Point<'_>) -> Result<(), Infallible> {
        let q = Vector::<2>::from_column_slice(point.q);
        let error = ((self.lv.hamiltonian(&q) - self.h0) / self.h0).abs();
        // A non-finite error must not vanish from a maximum.
        let max = |m: f64| if error.is_nan() { error } else { m.max(error) };
        if point.step <= STEPS / 10 {
            self.first = max(self.first);
        }
        if point.step >= STEPS - STEPS / 10 {
            self.last = max(self.last);
        }
        Ok(())
    }
}

/// `STEPS` steps of h = 0.1 of the catalogue method `name` on Lotka–Volterra through the
/// run-time engine: the largest relative energy error over the last tenth of the run divided by
/// that over the first.
fn ratio(name: &str) -> f64 {
    let lv = LotkaVolterra2d::UPSTREAM;
    let q0 = Vector::<2>::from(LotkaVolterra2d::UPSTREAM_Q0);
    let p0 = lv.theta(&q0);
    let kernels = engine::Degenerate(&lv);
    let engine =
        Engine::catalogue(name, Dims::uniform(2)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let stepping = Stepping::new(&engine, &kernels).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut tenths = Tenths {
        lv,
        h0: lv.hamiltonian(&q0),
        first: 0.0,
        last: 0.0,
    };
    let options = Options::new(0.1, STEPS);
    if let Err(e) = run_into(
        stepping,
        q0.as_slice(),
        p0.as_slice(),
        &options,
        &mut tenths,
    ) {
        panic!("{name}: the run stops: {e:?}");
    }
    eprintln!(
        "{name}: largest |H − H₀|/|H₀| over the first tenth {:.2e}, the last {:.2e}",
        tenths.first, tenths.last
    );
    tenths.last / tenths.first
}

/// The run of `name` shows what its fact says.
fn check(name: &str, fact: &LongRun) {
    let ratio = ratio(name);
    match fact.energy {
        Energy::Bounded => assert!(
            ratio < BOUNDED_BELOW,
            "{name}: measured bounded ({}), but the energy error grew ×{ratio:.2}",
            fact.reason
        ),
        Energy::Drifts => assert!(
            ratio > DRIFTS_ABOVE,
            "{name}: measured to drift ({}), but the energy error grew only ×{ratio:.2}",
            fact.reason
        ),
    }
}

#[test]
fn the_long_run_pick_keeps_its_energy_error_bounded() {
    let name = LONG_RUN_DEGENERATE_LAGRANGIAN;
    let fact = fact(name).unwrap_or_else(|| panic!("{name}: no long-run fact"));
    assert!(fact.recommended, "{name}: not marked as the pick: {fact:?}");
    assert_eq!(fact.energy, Energy::Bounded, "{name}");
    check(name, &fact);
}

#[test]
fn a_method_whose_fact_says_drift_drifts() {
    let (name, fact) = STEPPERS
        .iter()
        .find_map(|s| {
            fact(s.name)
                .filter(|f| f.energy == Energy::Drifts)
                .map(|f| (s.name, f))
        })
        .expect("a degenerate-Lagrangian method measured to drift");
    check(name, &fact);
}

/// The command reads the long-run facts from the generated table (`measured::LONG_RUN`), which
/// must say what the descriptions say, for every stepper that applies to degenerate Lagrangians.
#[test]
fn the_generated_table_carries_the_descriptions_facts() {
    let mut picks = Vec::new();
    for s in STEPPERS
        .iter()
        .chain(IMPLICIT_STEPPERS)
        .chain(HAMILTONIAN_STEPPERS)
    {
        let described = fact(s.name);
        let listed = s.long_run();
        assert_eq!(described.is_some(), listed.is_some(), "{}", s.name);
        if let (Some(d), Some(l)) = (described, listed) {
            let energy = match d.energy {
                Energy::Bounded => LongRunEnergy::Bounded,
                Energy::Drifts => LongRunEnergy::Drifts,
            };
            assert_eq!(
                (l.energy, l.recommended),
                (energy, d.recommended),
                "{}",
                s.name
            );
            if d.recommended {
                picks.push(s.name);
            }
        }
    }
    // One pick per kind among these three, the degenerate one named by the constant.
    assert!(picks.contains(&LONG_RUN_DEGENERATE_LAGRANGIAN), "{picks:?}");
    assert!(picks.len() <= 3, "{picks:?}");
}
