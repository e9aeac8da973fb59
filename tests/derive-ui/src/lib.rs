//! trybuild cases of the problem derives (`tests/derive_ui.rs`, cases in `ui/`). The library is
//! empty: the package exists so that trybuild compiles the cases against `sparkgen` without its
//! `cli` feature.
