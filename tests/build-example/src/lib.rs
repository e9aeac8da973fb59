//! Tableaus and a stepper emitted at build time by `build.rs` through
//! `sparkgen_codegen::emit::{tableau_source, stepper_source}`.

include!(concat!(env!("OUT_DIR"), "/tableaus.rs"));

/// Steppers emitted by `build.rs`.
pub mod steppers {
    include!(concat!(env!("OUT_DIR"), "/steppers.rs"));
}
