//! Side-by-side benchmarks of sparkgen against peer codes, kept out of the `sparkgen` crate so
//! that the peers are dev-dependencies of this package alone.
//!
//! The library is empty; the work is in the benches:
//!
//! - `benches/work_precision.rs`: work-precision diagrams (CPU time against the error in q(10),
//!   and against the maximum relative energy error at T = 10⁴ and 10⁵) of SLRK and VPRK over a
//!   sweep of step sizes against diffsol's `tsit45`, `esdirk34` and `bdf` over a sweep of
//!   tolerances, on Lotka–Volterra 2d;
//! - `benches/chains.rs`: RATTLE on hanging chains of 64, 256 and 1024 links against OpenMM's
//!   VerletIntegrator (the Python package, CPU platform, one thread, run as a subprocess of the
//!   bench by `openmm/chain.py`; the bench installs it into `target/openmm-venv`): time per step,
//!   constraint error and energy drift from the same initial state with the same step size.
//!
//! Run them with `cargo bench -p sparkgen-peers` (or `--bench work_precision`, `--bench
//! chains`); `cargo test -p sparkgen-peers --benches` runs each once on a tiny configuration
//! (smoke mode) and writes nothing (the chains bench installs OpenMM if it is missing).
