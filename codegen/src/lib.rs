//! sparkgen's build-time generator.
//!
//! Data flow: exact numbers ([`exact`]) → tableau families ([`tableau`]) and SPARK
//! coefficients ([`spark`]) → property checks ([`check`]) → emission of `generated/`.

pub mod exact;
pub mod spark;
pub mod tableau;
