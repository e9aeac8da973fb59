//! The descriptions are a faithful copy of what the generator builds: every method reads back
//! from its text equal to what was written, and the stepper emitted from a description's
//! double-double coefficients equals, token for token, the stepper emitted from the exact
//! numbers (the chain rule's sums of products round to the same `f64`s, and the same
//! structural zeros vanish).

use sparkgen_codegen::catalogue::{Catalogue, Config};
use sparkgen_codegen::method::describe::describe;
use sparkgen_description::{Coefficient, emit, text};

fn catalogue() -> Catalogue {
    Catalogue::build(Config::default()).expect("catalogue builds")
}

#[test]
fn every_description_reads_back_equal() {
    let catalogue = catalogue();
    let described: Vec<_> = catalogue.methods.iter().map(describe).collect();
    let mut roundings = text::Roundings::default();
    let written = text::write(&described, &mut roundings).expect("every method can be written");
    let read = text::read(&written, &roundings).expect("the text reads back");
    assert_eq!(read.len(), described.len());
    for (a, b) in described.iter().zip(&read) {
        assert_eq!(a, b, "{}", a.name);
    }
}

#[test]
fn double_double_emission_equals_exact_emission() {
    let catalogue = catalogue();
    let core = quote::quote!(::sparkgen_core);
    let mut compared = 0;
    for m in catalogue
        .methods
        .iter()
        .filter(|m| catalogue.canonical(m).is_none())
    {
        let exact = emit::stepper(m, &core).expect("emits").to_string();
        let dd = emit::stepper(&describe(m).map(Coefficient::value), &core)
            .expect("emits")
            .to_string();
        assert!(exact == dd, "{}: the emitted steppers differ", m.name);
        compared += 1;
    }
    assert!(compared > 300, "{compared} steppers compared");
}

/// Every method of the SPARK families (SPARK, VSPARK, VPARK, VSPARKprimary, HSPARK,
/// HSPARKprimary, HPARK and their implicit-DAE forms; not VSPARK/HSPARKsecondary) is described
/// by its declaration, a structure over named slots, and not written out; the structure the
/// reader builds from the slots equals, value for value, the one the generator built over exact
/// numbers, so the emitted steppers are unchanged.
#[test]
fn spark_declarations_read_back_as_the_generator_built_them() {
    let catalogue = catalogue();
    let spark_family = |family: &str| {
        !family.contains("Secondary")
            && [
                "Spark",
                "IdaeSpark",
                "Vspark",
                "Vpark",
                "IdaeVpark",
                "Hspark",
                "Hpark",
            ]
            .iter()
            .any(|prefix| family.starts_with(prefix))
    };
    let mut compared = 0;
    for m in &catalogue.methods {
        assert_eq!(m.declared.is_some(), spark_family(&m.family), "{}", m.name);
        let described = describe(m);
        let mut roundings = text::Roundings::default();
        let written =
            text::write(std::slice::from_ref(&described), &mut roundings).expect("writes");
        let written_out = written.lines().any(|l| l.starts_with("value "));
        let declared = written.lines().any(|l| l.starts_with("structure "));
        assert_eq!(
            (declared, written_out),
            (m.declared.is_some(), m.declared.is_none())
        );
        if declared {
            let read = text::read(&written, &roundings).expect("reads back");
            assert_eq!(read, [described], "{}", m.name);
            compared += 1;
        }
    }
    assert!(compared > 250, "{compared} declared methods compared");
}
