//! `sparkgen verify` driven through the binary: the `--only` filter.
#![cfg(feature = "cli")]

use std::process::Command;

#[test]
fn only_with_no_match_is_an_argument_error_naming_the_filter() {
    let output = Command::new(env!("CARGO_BIN_EXE_sparkgen"))
        .args(["verify", "--quick", "--only", "zzzz"])
        .output()
        .expect("the binary starts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("zzzz") && stderr.contains("sparkgen methods"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.stdout.is_empty());
}
