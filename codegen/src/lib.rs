//! sparkgen's build-time generator.
//!
//! Data flow: exact numbers ([`exact`]) → tableau families ([`tableau`]) and SPARK
//! coefficients ([`spark`]) → property checks in working precision ([`check`]) → the
//! [`catalogue`] with declared and computed properties → emission of `generated/` ([`emit`]).

pub mod catalogue;
pub mod check;
pub mod emit;
pub mod exact;
pub mod measured;
pub mod method;
pub mod spark;
pub mod tableau;
