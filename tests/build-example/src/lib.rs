//! Tableaus emitted at build time by `build.rs` through `sparkgen_codegen::emit::tableau_source`.

include!(concat!(env!("OUT_DIR"), "/tableaus.rs"));
