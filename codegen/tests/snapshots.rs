//! insta snapshots of emitted source for a few entries (CI never writes snapshots).

use sparkgen_codegen::emit::tableau_source;
use sparkgen_codegen::exact::Precision;
use sparkgen_codegen::tableau::Family;

const TYPES: &str = "::sparkgen::generated";

#[test]
fn lobatto_iiia_3_source() {
    let src = tableau_source(Family::LobattoIIIA, 3, Precision::DEFAULT, TYPES).unwrap();
    insta::assert_snapshot!(src);
}

#[test]
fn gauss_2_source() {
    let src = tableau_source(Family::Gauss, 2, Precision::DEFAULT, TYPES).unwrap();
    insta::assert_snapshot!(src);
}

#[test]
fn lobatto_iiif_2_source() {
    let src = tableau_source(Family::LobattoIIIF, 2, Precision::DEFAULT, TYPES).unwrap();
    insta::assert_snapshot!(src);
}

#[test]
fn bad_types_path_is_an_error() {
    assert!(tableau_source(Family::Gauss, 2, Precision::DEFAULT, "not a path ((").is_err());
}
