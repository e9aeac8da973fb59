//! Derive macros.
