//! Methods as data: each family is a residual structure over named tableau slots
//! ([`ir::Method`]), built for given tableaus and s by [`slrk`], [`vprk`] or [`rattle`]; the
//! description crate derives the stage Jacobian by the chain rule
//! ([`sparkgen_description::jacobian`]) and unrolls both into a `StageMethod` implementation
//! ([`sparkgen_description::emit`]).

pub mod describe;
pub mod facts;
pub mod hspark_secondary;
pub mod ir;
pub mod rattle;
pub mod slrk;
pub mod spark;
pub mod vprk;
pub mod vspark_secondary;
