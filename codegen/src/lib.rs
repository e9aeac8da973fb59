//! sparkgen's build-time generator.
//!
//! Data flow: exact numbers ([`exact`]) → tableau families ([`tableau`]) and SPARK
//! coefficients ([`spark`]) → property checks in working precision ([`check`]) → the
//! [`catalogue`] with declared and computed properties → emission of `generated/` ([`emit`]) and
//! of the method guide `docs/methods.md` ([`recommend`], [`guide`]).

pub mod catalogue;
pub mod check;
pub mod emit;
pub mod exact;
pub mod guide;
pub mod measured;
pub mod method;
pub mod recommend;
pub mod spark;
pub mod tableau;
