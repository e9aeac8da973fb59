//! Integration tests of sparkgen live in `tests/tests/`.
