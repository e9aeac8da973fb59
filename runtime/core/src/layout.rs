//! [`Layout`]: the one owner of the index arithmetic of an unknown or residual vector.
//!
//! A vector is a sequence of blocks, each of `stages` consecutive `D`-vectors (`V_1 … V_s`,
//! `Λ_1 … Λ_s`, `μ`). Component `k` of stage `i` of block `b` sits at
//! `D·(Σ_{b' < b} stages_{b'} + i) + k`; nothing else computes such offsets.

use nalgebra::{SMatrix, SVector};

/// What an unknown block holds, which decides its initial guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Stage velocities `V_i` at the nodes `c_i`: guessed by Hermite extrapolation.
    Velocity,
    /// Lagrange multipliers (`Λ_i`, `μ`): guessed from the previous step.
    Multiplier,
    /// A block of residual rows.
    Residual,
}

/// A block of `stages` consecutive `D`-vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Name, e.g. `V`.
    pub name: &'static str,
    /// Number of `D`-vectors.
    pub stages: usize,
    /// What it holds.
    pub role: Role,
}

/// The block structure of a vector of `D`-vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The blocks in order.
    pub blocks: &'static [Block],
}

impl Layout {
    /// A layout of the given blocks.
    pub const fn new(blocks: &'static [Block]) -> Layout {
        Layout { blocks }
    }

    /// The number of `D`-vectors.
    pub const fn vectors(&self) -> usize {
        let mut n = 0;
        let mut b = 0;
        while b < self.blocks.len() {
            n += self.blocks[b].stages;
            b += 1;
        }
        n
    }

    /// The length of the vector for dimension `d`.
    pub const fn len(&self, d: usize) -> usize {
        self.vectors() * d
    }

    /// Whether the layout has no entries.
    pub const fn is_empty(&self) -> bool {
        self.vectors() == 0
    }

    /// The offset of stage `stage` of block `block` for dimension `d`.
    pub const fn offset(&self, block: usize, stage: usize, d: usize) -> usize {
        let mut n = 0;
        let mut b = 0;
        while b < block {
            n += self.blocks[b].stages;
            b += 1;
        }
        (n + stage) * d
    }

    /// Reads the `D`-vector at `(block, stage)`.
    #[inline]
    pub fn get<const D: usize>(&self, x: &[f64], block: usize, stage: usize) -> SVector<f64, D> {
        let o = self.offset(block, stage, D);
        SVector::<f64, D>::from_fn(|k, _| x[o + k])
    }

    /// Writes the `D`-vector at `(block, stage)`.
    #[inline]
    pub fn set<const D: usize>(
        &self,
        x: &mut [f64],
        block: usize,
        stage: usize,
        v: &SVector<f64, D>,
    ) {
        let o = self.offset(block, stage, D);
        x[o..o + D].copy_from_slice(v.as_slice());
    }
}

/// Adds the `D×D` block `m` to `target` at rows `ro..ro+D`, columns `co..co+D` (offsets from
/// [`Layout::offset`]).
#[inline]
pub fn add_block<const D: usize, const R: usize, const C: usize>(
    target: &mut [[f64; C]; R],
    ro: usize,
    co: usize,
    m: &SMatrix<f64, D, D>,
) {
    for r in 0..D {
        for c in 0..D {
            target[ro + r][co + c] += m[(r, c)];
        }
    }
}

/// Adds `scalar · I` to the `D×D` block of `target` at rows `ro..ro+D`, columns `co..co+D`.
#[inline]
pub fn add_diagonal<const D: usize, const R: usize, const C: usize>(
    target: &mut [[f64; C]; R],
    ro: usize,
    co: usize,
    scalar: f64,
) {
    for k in 0..D {
        target[ro + k][co + k] += scalar;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLOCKS: [Block; 3] = [
        Block {
            name: "V",
            stages: 3,
            role: Role::Velocity,
        },
        Block {
            name: "Lambda",
            stages: 3,
            role: Role::Multiplier,
        },
        Block {
            name: "Mu",
            stages: 1,
            role: Role::Multiplier,
        },
    ];
    const LAYOUT: Layout = Layout::new(&BLOCKS);

    #[test]
    fn offsets_and_round_trip() {
        assert_eq!(LAYOUT.vectors(), 7);
        assert_eq!(LAYOUT.len(2), 14);
        assert_eq!(LAYOUT.offset(1, 2, 2), 10);
        assert_eq!(LAYOUT.offset(2, 0, 2), 12);
        let mut x = [0.0; 14];
        LAYOUT.set::<2>(&mut x, 1, 2, &SVector::<f64, 2>::new(3.0, 4.0));
        assert_eq!(&x[10..12], &[3.0, 4.0]);
        assert_eq!(LAYOUT.get::<2>(&x, 1, 2), SVector::<f64, 2>::new(3.0, 4.0));
        let mut j = [[0.0; 14]; 14];
        add_diagonal::<2, 14, 14>(&mut j, LAYOUT.offset(0, 1, 2), LAYOUT.offset(2, 0, 2), 5.0);
        assert_eq!((j[2][12], j[3][13], j[2][13]), (5.0, 5.0, 0.0));
        add_block::<2, 14, 14>(&mut j, 0, 2, &SMatrix::<f64, 2, 2>::new(1.0, 2.0, 3.0, 4.0));
        assert_eq!((j[0][2], j[0][3], j[1][2], j[1][3]), (1.0, 2.0, 3.0, 4.0));
    }
}
