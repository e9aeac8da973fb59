//! Symbolic core.
