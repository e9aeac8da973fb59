//! The order table of the SPARK family (SPARK, VPARK, VSPARK, VSPARKprimary, VSPARKsecondary) from
//! `sparkgen verify --quick` on Lotka–Volterra in the SPARK test configuration (T = 1,
//! h = 0.05·2^-k up to an expected order 4, ratio √2 above, the pinned order where one is): every method reaches its declared order within
//! ±0.3 on at least 3 points, or the behaviour pinned with its cause in the generator (`MethodFacts::pinned`).
//! Where nothing is pinned, the Newton status is asserted too (no sweep run and no step of the
//! long run of 1000 steps of h = 0.1 fails), and so is the constraint of the methods that hold
//! it: `max |p_n − ϑ(q_n)|∞ ≤ 1e-12` over the long run, and the carried multiplier `λ_n` of the
//! methods that carry one stays bounded (no growth from the first half of the run to the second);
//! where it is pinned to grow (a parasitic mode), verify reports the growth and the time of
//! breakdown. The implicit-DAE steppers also run on the index-2 pendulum, whose multiplier is
//! the physical tension; there every one is pinned (`expected_on_index_two_pendulum`), and those
//! pinned not to converge stay 0.01 or more from the solution at every step size.
use sparkgen::cli::registry::{HAMILTONIAN_STEPPERS, IMPLICIT_STEPPERS, STEPPERS};
use sparkgen::cli::verify::NO_CONVERGENCE;
use sparkgen::cli::verify::{MultiplierRecord, ROUND_OFF_MULTIPLIER, verify};
use sparkgen::generated::types::Pinned;

/// SPARK, VPARK, VSPARK…, also as the implicit-DAE steppers `Idae…` (which verify runs on the view
/// `LagrangianDae` of the same problem), and HSPARK, HPARK (on the view `DiracHamiltonian`).
fn is_spark_family(family: &str) -> bool {
    let family = family.strip_prefix("Idae").unwrap_or(family);
    ["Spark", "Vspark", "Vpark", "Hspark", "Hpark"]
        .iter()
        .any(|f| family.starts_with(f))
}

#[test]
fn every_spark_family_method_meets_its_declared_or_pinned_behaviour() {
    let v = verify(true, Some("park")).expect("the built-in problems run");
    let expected = STEPPERS
        .iter()
        .chain(IMPLICIT_STEPPERS)
        .chain(IMPLICIT_STEPPERS)
        .chain(HAMILTONIAN_STEPPERS)
        .filter(|s| is_spark_family(s.family))
        .count();
    assert_eq!(
        v.total, expected,
        "one study per SPARK-family stepper, and one per implicit-DAE stepper on the index-2 \
         pendulum"
    );
    let mut pinned = 0;
    for m in &v.methods {
        assert!(is_spark_family(m.family), "{}", m.name);
        let order = m
            .measured_order
            .map_or("–".to_owned(), |p| format!("{p:.2}"));
        assert!(
            m.pass,
            "{}: declared {}, measured {order}, pinned {:?}, failures {:?}",
            m.name, m.declared_order, m.pinned, m.failures
        );
        match &m.pinned {
            None => {
                assert!(
                    m.failures.is_empty() && m.sweep_failed_h.is_empty(),
                    "{}: Newton failures {:?} at h = {:?}",
                    m.name,
                    m.failures,
                    m.sweep_failed_h
                );
                if let Some(l) = &m.multiplier {
                    assert!(!l.grows, "{}: multiplier {l:?}", m.name);
                }
                if m.constraint_preserving {
                    let r = m.max_constraint_residual;
                    assert!(r <= 1e-12, "{}: max |p − ϑ(q)| = {r:e}", m.name);
                } else {
                    // GLVPRK imposes the constraint at the projective stages only.
                    assert!(m.max_constraint_residual > 1e-6, "{}", m.name);
                }
            }
            Some(Pinned::Fails { error, .. }) => {
                pinned += 1;
                assert!(m.failures.iter().any(|f| f.contains(error)), "{}", m.name);
            }
            Some(Pinned::NoConvergence { .. }) => {
                pinned += 1;
                assert!(
                    m.errors.len() >= 3 && m.errors.iter().all(|e| *e >= NO_CONVERGENCE),
                    "{}: {:?}",
                    m.name,
                    m.errors
                );
            }
            Some(Pinned::Parasitic { .. }) => {
                pinned += 1;
                let l = m.multiplier.as_ref().expect("VPARK carries λ");
                assert!(l.grows, "{}: {l:?}", m.name);
            }
            Some(_) => pinned += 1,
        }
    }
    println!("{} SPARK-family methods, {pinned} pinned", v.total);
}

/// `|λ_n|` growing linearly from `start` over `n` steps of h = 0.1.
fn linear_multiplier(start: f64, n: usize) -> (Vec<f64>, Vec<f64>) {
    let t = (0..n).map(|k| 0.1 * k as f64).collect();
    let l = (0..n).map(|k| start * (1 + k) as f64).collect();
    (t, l)
}

#[test]
fn linear_growth_above_round_off_is_a_mode_and_growth_at_round_off_is_not() {
    let (t, l) = linear_multiplier(1e-6, 100);
    let record = MultiplierRecord::of(&t, &l, None).expect("a multiplier");
    assert!(record.grows && record.growth > 1.9, "{record:?}");
    // The same doubling at 1e-28 (a multiplier that vanishes up to the rounding of its terms, as
    // VSPARKprimary Lobatto IIIB–IIIA/IIIA–IIIB(2)'s does) is no mode; nor is an exact zero.
    for start in [1e-30, 0.0] {
        let (t, l) = linear_multiplier(start, 100);
        assert!(l.iter().all(|x| *x <= ROUND_OFF_MULTIPLIER));
        let record = MultiplierRecord::of(&t, &l, None).expect("a multiplier");
        assert!(!record.grows && record.growth == 1.0, "{record:?}");
    }
}
