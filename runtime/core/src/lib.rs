//! Core of the sparkgen runtime, shared by the generated steppers and the `sparkgen` crate:
//! the [`problem`] traits and what stepping needs of each [`kind`], the unknown [`layout`], the
//! [`stage`]-method interface, and fixed-size [`solve`]rs.
//! Users depend on `sparkgen`, which re-exports all of it.

pub mod amplification;
pub mod kind;
pub mod layout;
pub mod problem;
pub mod rows;
pub mod solve;
pub mod stage;

/// The linear-algebra crate of the fixed-size types in every signature.
pub use nalgebra;
