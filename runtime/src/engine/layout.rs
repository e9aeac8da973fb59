//! The [`Layout`] of a description's blocks. A `Layout` holds `'static` blocks (the compiled
//! steppers' are constants, and errors name blocks by them), so the engine keeps one copy of
//! each distinct block list it has seen: the catalogue's methods share a few dozen, so the
//! memory is bounded by the catalogue, not by the number of engines built. The same holds for
//! the weights of carried multipliers.

use sparkgen_core::layout::{Block, Layout, Nodes, Role, Width};
use sparkgen_description::structure as description;
use std::sync::{Mutex, PoisonError};

/// Every block list seen, once.
static SEEN: Mutex<Vec<&'static [Block]>> = Mutex::new(Vec::new());

/// Every list of multiplier weights `d^λ` seen, once.
static WEIGHTS: Mutex<Vec<&'static [f64]>> = Mutex::new(Vec::new());

/// The weights `d^λ` as the `'static` list a [`sparkgen_core::stage::MultiplierUpdate`] holds,
/// kept once per distinct list (bit for bit).
pub(super) fn interned_weights(weights: &[f64]) -> &'static [f64] {
    let same = |known: &&&'static [f64]| {
        known.len() == weights.len()
            && known
                .iter()
                .zip(weights)
                .all(|(k, w)| k.to_bits() == w.to_bits())
    };
    let mut seen = WEIGHTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = seen.iter().find(same) {
        return known;
    }
    let list: &'static [f64] = Box::leak(weights.to_vec().into_boxed_slice());
    seen.push(list);
    list
}

fn role(r: description::Role) -> Role {
    match r {
        description::Role::Velocity => Role::Velocity,
        description::Role::Momentum => Role::Momentum,
        description::Role::Multiplier => Role::Multiplier,
        description::Role::PositionIncrement => Role::PositionIncrement,
        description::Role::MomentumIncrement => Role::MomentumIncrement,
        description::Role::Correction => Role::Correction,
        description::Role::Residual => Role::Residual,
    }
}

fn nodes(n: description::Nodes) -> Nodes {
    match n {
        description::Nodes::Internal => Nodes::Internal,
        description::Nodes::Projective => Nodes::Projective,
    }
}

pub(super) fn width(w: description::Width) -> Width {
    match w {
        description::Width::Coordinates => Width::Coordinates,
        description::Width::Constraints => Width::Constraints,
    }
}

/// The layout of `blocks`.
pub(super) fn interned(blocks: &[description::Block]) -> Layout {
    let same = |known: &&&'static [Block]| {
        known.len() == blocks.len()
            && known.iter().zip(blocks).all(|(k, b)| {
                k.name == b.name
                    && k.stages == b.stages
                    && k.role == role(b.role)
                    && k.width == width(b.width)
                    && k.nodes == nodes(b.nodes)
            })
    };
    let mut seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = seen.iter().find(same) {
        return Layout::new(known);
    }
    let names: Vec<&'static str> = blocks
        .iter()
        .map(|b| {
            // A name is kept once across all block lists.
            seen.iter()
                .flat_map(|l| l.iter())
                .find(|k| k.name == b.name)
                .map_or_else(|| &*Box::leak(b.name.clone().into_boxed_str()), |k| k.name)
        })
        .collect();
    let list: Vec<Block> = blocks
        .iter()
        .zip(names)
        .map(|(b, name)| Block {
            name,
            stages: b.stages,
            role: role(b.role),
            width: width(b.width),
            nodes: nodes(b.nodes),
        })
        .collect();
    let list: &'static [Block] = Box::leak(list.into_boxed_slice());
    seen.push(list);
    Layout::new(list)
}
