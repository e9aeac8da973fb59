//! trybuild cases of the problem derives and of `sparkgen::stepper!`: every user error is
//! reported at its span (ui/*.rs with their .stderr; the stepper's in ui/stepper_*.rs), the
//! derives' expansion compiles in a hostile namespace and declared steppers are stage methods
//! (ui/pass/).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
