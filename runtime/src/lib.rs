//! sparkgen runtime.
pub use sparkgen_generated as generated;
