//! `sparkgen methods` shows every generated stepper's class in the method guide and its reason,
//! as the generator emitted them with the facts (`MethodFacts::recommendation`).
use super::{json, sparkgen};
use serde_json::Value;
use sparkgen::cli::registry::{
    HAMILTONIAN_STEPPERS, HOLONOMIC_STEPPERS, IMPLICIT_STEPPERS, STEPPERS,
};
use sparkgen::generated::types::RecommendationClass;

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
