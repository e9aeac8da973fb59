//! `sparkgen methods` shows every generated stepper's class in the method guide and its reason,
//! as the generator emitted them with the facts (`MethodFacts::recommendation`), and its energy
//! error over long runs (`measured::LONG_RUN`); `--recommended` lists only the recommended
//! methods and each kind's pick for long runs; `--help` names the default method, the pick for
//! degenerate Lagrangians.
use super::{json, sparkgen};
use serde_json::Value;
use sparkgen::cli::registry::{
    HAMILTONIAN_STEPPERS, HOLONOMIC_STEPPERS, IMPLICIT_STEPPERS, STEPPERS, StepperInfo,
    long_run_default,
};
use sparkgen::generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN;
use sparkgen::generated::types::RecommendationClass;

/// Every generated stepper with the name of its problem kind, in listing order.
fn steppers() -> impl Iterator<Item = (&'static StepperInfo, &'static str)> {
    let of = |table: &'static [StepperInfo], kind| table.iter().map(move |s| (s, kind));
    of(STEPPERS, "degenerate-lagrangian")
        .chain(of(IMPLICIT_STEPPERS, "implicit-dae"))
        .chain(of(HAMILTONIAN_STEPPERS, "hamiltonian-dae"))
        .chain(of(HOLONOMIC_STEPPERS, "holonomic"))
}

#[test]
fn methods_show_the_recommendation_of_the_facts() {
    let v = json(&sparkgen(&["methods", "--json"]));
    let rows = v["methods"].as_array().expect("a list");
    let text = String::from_utf8_lossy(&sparkgen(&["methods"]).stdout).to_string();
    let mut recommended = 0;
    for s in STEPPERS
        .iter()
        .chain(IMPLICIT_STEPPERS)
        .chain(HAMILTONIAN_STEPPERS)
        .chain(HOLONOMIC_STEPPERS)
    {
        let row = rows
            .iter()
            .find(|r| r["name"] == s.name)
            .unwrap_or_else(|| panic!("{} missing", s.name));
        let r = s.facts.recommendation;
        match s.long_run() {
            Some(l) => {
                assert_eq!(row["long_run"]["energy"], l.energy.name(), "{}", s.name);
                assert_eq!(row["long_run"]["recommended"], l.recommended, "{}", s.name);
            }
            None => assert_eq!(row["long_run"], Value::Null, "{}", s.name),
        }
        assert_eq!(row["recommendation"]["class"], r.class.name(), "{}", s.name);
        assert_eq!(row["recommendation"]["reason"], r.reason, "{}", s.name);
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(s.name))
            .unwrap_or_else(|| panic!("{} not listed", s.name));
        assert!(
            line.contains(r.class.name()) && line.contains(r.reason),
            "{line}"
        );
        // The classes follow the facts: a recommended stepper holds its constraint and has no
        // pin and no limitation; an avoided one is pinned.
        let pinned = s.facts.pinned.is_some() || s.facts.pinned_on_index_two_pendulum.is_some();
        match r.class {
            RecommendationClass::Recommended => {
                recommended += 1;
                assert!(
                    s.facts.preserves_constraint && !pinned && s.facts.limitations.is_empty(),
                    "{}",
                    s.name
                );
            }
            RecommendationClass::Avoid => assert!(pinned, "{}", s.name),
            RecommendationClass::Suitable | RecommendationClass::Reference => {}
        }
    }
    assert!(recommended > 0);
    // RATTLE and SHAKE are not generated: no class.
    for name in ["Rattle", "Shake"] {
        let row = rows.iter().find(|r| r["name"] == name).expect(name);
        assert_eq!(row["recommendation"], Value::Null);
    }
}

#[test]
fn recommended_lists_the_recommended_methods_and_the_long_run_picks() {
    let v = json(&sparkgen(&["methods", "--recommended", "--json"]));
    let listed: Vec<&str> = v["methods"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["name"].as_str().expect("a name"))
        .collect();
    let pick = |s: &StepperInfo| s.long_run().is_some_and(|l| l.recommended);
    let expected: Vec<&str> = steppers()
        .filter(|(s, _)| {
            s.facts.recommendation.class == RecommendationClass::Recommended || pick(s)
        })
        .map(|(s, _)| s.name)
        .collect();
    assert_eq!(listed, expected);
    for (s, kind) in steppers().filter(|(s, _)| pick(s)) {
        assert_eq!(v["long_run"][kind], s.name, "{kind}");
    }
    assert_eq!(
        v["long_run"]["degenerate-lagrangian"],
        LONG_RUN_DEGENERATE_LAGRANGIAN
    );
    let text = String::from_utf8_lossy(&sparkgen(&["methods", "--recommended"]).stdout).to_string();
    let rows: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(rows, expected);
    let picks = text
        .split_once("for long runs")
        .map(|(_, picks)| picks)
        .expect("a section on long runs");
    for (s, kind) in steppers().filter(|(s, _)| pick(s)) {
        assert!(
            picks
                .lines()
                .any(|l| l.split_whitespace().take(2).eq([kind, s.name])),
            "{kind}: {picks}"
        );
    }
}

#[test]
fn help_names_the_default_method() {
    let info = long_run_default().expect("the generated default is a listed stepper");
    let default = format!("{}({})", info.family, info.stages);
    for args in [&["--help"][..], &["run", "--help"]] {
        let out = sparkgen(args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&default), "{args:?}: {text}");
    }
}
