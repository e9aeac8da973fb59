//! trybuild cases of the problem derives: every user error is reported at its span (ui/*.rs with
//! their .stderr), and the expansion compiles in a hostile namespace (ui/pass/).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
