//! Side-by-side benchmarks of sparkgen against peer ODE codes, kept out of the `sparkgen` crate
//! so that the peers are dev-dependencies of this package alone.
//!
//! The library is empty; the work is in `benches/work_precision.rs`: work-precision diagrams
//! (CPU time against the error in q(10), and against the maximum relative energy error at
//! T = 10⁴ and 10⁵) of SLRK and VPRK over a sweep of step sizes against diffsol's `tsit45`,
//! `esdirk34` and `bdf` over a sweep of tolerances, on Lotka–Volterra 2d. Run it with
//! `cargo bench -p sparkgen-peers`; `cargo test -p sparkgen-peers --benches` runs every method
//! once on a tiny configuration (smoke mode) and writes nothing.
