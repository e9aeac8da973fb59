//! Methods as data: each family is a residual structure over named tableau slots
//! ([`ir::Method`]), built for given tableaus and s by [`slrk`], [`vprk`] or [`rattle`]; [`jacobian`]
//! derives the exact stage Jacobian by the chain rule, and [`emit`] unrolls both into a
//! `StageMethod` implementation.

pub mod emit;
pub mod facts;
pub mod hspark_secondary;
pub mod ir;
pub mod jacobian;
pub mod rattle;
pub mod slrk;
pub mod spark;
pub mod vprk;
pub mod vspark_secondary;
