//! `sparkgen verify` driven through the binary: the `--only` filter.
use super::sparkgen;

#[test]
fn only_with_no_match_is_an_argument_error_naming_the_filter() {
    let output = sparkgen(&["verify", "--quick", "--only", "zzzz"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("zzzz") && stderr.contains("sparkgen methods"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}
