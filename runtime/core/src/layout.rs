//! [`Layout`]: the one owner of the index arithmetic of an unknown or residual vector.
//!
//! A vector is a sequence of blocks, each of `stages` consecutive vectors of one width (`V_1 … V_s`,
//! `Λ_1 … Λ_s`, `μ`): the `D` coordinates or the `M` constraints ([`Dims`]). Component `k` of
//! stage `i` of block `b` sits at `Σ_{b' < b} stages_{b'}·w_{b'} + i·w_b + k`, `w` the block's
//! width; nothing else computes such offsets.

use crate::rows::RowMajor;
use nalgebra::{SMatrix, SVector};

/// What an unknown block holds, which decides its initial guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Stage velocities `V_i` at the nodes `c_i`: guessed by Hermite extrapolation.
    Velocity,
    /// Stage momenta `P_i` at the nodes `c_i`: guessed by Hermite extrapolation.
    Momentum,
    /// Lagrange multipliers (`Λ_i`): guessed from the multiplier `λ(q_n, p_n)` that holds the
    /// constraint at the step's start where the problem kind gives one
    /// ([`crate::kind::Access::momentum_rate`]), else from the previous step.
    Multiplier,
    /// Stage position increments `Y_i = (Q_i − q_n)/h` at the nodes `c_i`: guessed from the
    /// Hermite extrapolation of the position, `(q̂(t_n + c_i h) − q_n)/h`.
    PositionIncrement,
    /// Stage momentum increments `Z_i = (P_i − p_n)/h` at the nodes `c_i`: guessed from the
    /// Hermite extrapolation of the momentum, `(p̂(t_n + c_i h) − p_n)/h`, where the kind gives a
    /// momentum rate, else from the previous step.
    MomentumIncrement,
    /// Multipliers of a correction that vanishes on the exact solution of the continuous problem
    /// (`μ` of the null-vector relaxation, the multipliers `Λ̃` of a projection onto the
    /// secondary constraint): guessed from the previous step.
    Correction,
    /// A block of residual rows.
    Residual,
}

/// The width of a block's vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// `D`, the number of coordinates.
    Coordinates,
    /// `M`, the number of constraints (`D` for the primary constraint `p = ϑ(q)` of a degenerate
    /// Lagrangian).
    Constraints,
}

/// The two widths of a problem: `D` coordinates and `M` constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// `D`.
    pub coordinates: usize,
    /// `M`.
    pub constraints: usize,
}

impl Dims {
    /// `D` coordinates and `M` constraints.
    pub const fn new(coordinates: usize, constraints: usize) -> Dims {
        Dims {
            coordinates,
            constraints,
        }
    }

    /// `D` coordinates and `D` constraints (degenerate Lagrangians: `p − ϑ(q) = 0`).
    pub const fn uniform(d: usize) -> Dims {
        Dims::new(d, d)
    }

    /// The number of components of a vector of width `w`.
    pub const fn of(self, w: Width) -> usize {
        match w {
            Width::Coordinates => self.coordinates,
            Width::Constraints => self.constraints,
        }
    }
}

/// The stages whose nodes a block's vectors sit at, which places their initial guess in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nodes {
    /// The internal stages, at `c_i` ([`crate::stage::StageMethod::NODES`]).
    Internal,
    /// The projective stages, at `c̃_j` ([`crate::stage::StageMethod::PROJECTIVE_NODES`]).
    Projective,
}

/// A block of `stages` consecutive vectors of one width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Name, e.g. `V`.
    pub name: &'static str,
    /// Number of vectors.
    pub stages: usize,
    /// What it holds.
    pub role: Role,
    /// The width of its vectors.
    pub width: Width,
    /// The stages its vectors sit at.
    pub nodes: Nodes,
}

/// Where an entry of a layout's vector sits, in the method's terms: component `component` of
/// stage `stage` of block `block` (both from 1), e.g. the row of `Ψ₂` for coordinate 1. The
/// component is a coordinate `q_k` or a constraint `φ_k` (for a degenerate Lagrangian
/// `φ_k = p_k − ϑ_k(q)`), as the block's width says, and is displayed so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The block's name, e.g. `V` or `Psi`.
    pub block: &'static str,
    /// The stage, from 1.
    pub stage: usize,
    /// The number of stages of the block.
    pub stages: usize,
    /// The component within the stage vector, from 1.
    pub component: usize,
    /// What the component indexes: coordinates or constraints.
    pub width: Width,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let component = match self.width {
            Width::Coordinates => "coordinate",
            Width::Constraints => "constraint",
        };
        write!(f, "{}, ", self.block)?;
        if self.stages > 1 {
            write!(f, "stage {}, ", self.stage)?;
        }
        write!(f, "{component} {}", self.component)
    }
}

/// Pivots of a stage Jacobian known before its entries: pairs `(R, C)` of a residual vector
/// and an unknown vector (each numbered over its layout's blocks in order, from 0) whose block
/// `∂r_R/∂x_C` is a nonzero constant multiple of the identity, in the order Gaussian elimination
/// takes them ([`crate::solve::ReducedLu`]). The generator chooses them where a row or column
/// of blocks is constant, so that the multipliers stay bounded
/// (`sparkgen_description::elimination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elimination<'a> {
    /// `(R, C)`, in order.
    pub pivots: &'a [(usize, usize)],
    /// The unknowns' layout.
    pub unknowns: Layout,
    /// The residual's layout.
    pub residuals: Layout,
    /// The widths of their vectors.
    pub dims: Dims,
}

impl Elimination<'_> {
    /// The scalar pivots `(row, column)`: component `k` of `R` with component `k` of `C`, for
    /// every component of each pair in order. A pair past either layout's end, or of vectors
    /// of different widths, gives none (the factorisation refuses rows and columns used twice).
    pub fn scalar_pivots(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.pivots.iter().flat_map(|&(row, column)| {
            let row = self.residuals.vector(row, self.dims);
            let column = self.unknowns.vector(column, self.dims);
            let (r, c, w) = match (row, column) {
                (Some((r, w)), Some((c, v))) if w == v => (r, c, w),
                _ => (0, 0, 0),
            };
            (0..w).map(move |k| (r + k, c + k))
        })
    }
}

/// The block structure of a vector of stage vectors.
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

    /// The number of stage vectors.
    pub const fn vectors(&self) -> usize {
        let mut n = 0;
        let mut b = 0;
        while b < self.blocks.len() {
            n += self.blocks[b].stages;
            b += 1;
        }
        n
    }

    /// The length of the vector for the widths `dims`.
    pub const fn len(&self, dims: Dims) -> usize {
        self.offset(self.blocks.len(), 0, dims)
    }

    /// Whether the layout has no entries.
    pub const fn is_empty(&self) -> bool {
        self.vectors() == 0
    }

    /// The offset and width of stage vector `vector` (numbered over the blocks in order, from
    /// 0) for the widths `dims`; `None` past the end.
    pub fn vector(&self, vector: usize, dims: Dims) -> Option<(usize, usize)> {
        let mut first = 0;
        for (b, block) in self.blocks.iter().enumerate() {
            if vector < first + block.stages {
                let offset = self.offset(b, vector - first, dims);
                return Some((offset, dims.of(block.width)));
            }
            first += block.stages;
        }
        None
    }

    /// The offset of stage `stage` of block `block` for the widths `dims` (`block` may be
    /// `blocks.len()`, the end).
    pub const fn offset(&self, block: usize, stage: usize, dims: Dims) -> usize {
        let mut n = 0;
        let mut b = 0;
        while b < block {
            n += self.blocks[b].stages * dims.of(self.blocks[b].width);
            b += 1;
        }
        if stage == 0 {
            n
        } else {
            n + stage * dims.of(self.blocks[block].width)
        }
    }

    /// The position of entry `index` (from 0) for the widths `dims`; `None` past the end.
    pub fn position(&self, index: usize, dims: Dims) -> Option<Position> {
        let mut start = 0;
        for b in self.blocks {
            let width = dims.of(b.width);
            let len = b.stages * width;
            if index < start + len && width > 0 {
                let within = index - start;
                return Some(Position {
                    block: b.name,
                    stage: within / width + 1,
                    stages: b.stages,
                    component: within % width + 1,
                    width: b.width,
                });
            }
            start += len;
        }
        None
    }

    /// Writes into `u` the scale of each entry of `x` for Newton's update test
    /// ([`crate::solve::NonlinearSystem::unknown_scales`]): component `k` of every stage of a
    /// block gets `max_i |x_{b,i,k}|` over the block's stages, the size of that quantity
    /// (a velocity, a momentum, a multiplier) in the problem's own units.
    pub fn component_scales(&self, dims: Dims, x: &[f64], u: &mut [f64]) {
        let mut start = 0;
        for b in self.blocks {
            let width = dims.of(b.width);
            let len = b.stages * width;
            let (xs, us) = (&x[start..start + len], &mut u[start..start + len]);
            for k in 0..width {
                let scale = xs
                    .iter()
                    .skip(k)
                    .step_by(width)
                    .fold(0.0f64, |m, v| m.max(v.abs()));
                us.iter_mut()
                    .skip(k)
                    .step_by(width)
                    .for_each(|s| *s = scale);
            }
            start += len;
        }
    }

    /// Reads the `W`-vector at `(block, stage)`; `W` is the block's width in `dims`.
    #[inline]
    pub fn get<const W: usize>(
        &self,
        x: &[f64],
        dims: Dims,
        block: usize,
        stage: usize,
    ) -> SVector<f64, W> {
        debug_assert_eq!(dims.of(self.blocks[block].width), W);
        let o = self.offset(block, stage, dims);
        SVector::<f64, W>::from_fn(|k, _| x[o + k])
    }

    /// Writes the `W`-vector at `(block, stage)`; `W` is the block's width in `dims`.
    #[inline]
    pub fn set<const W: usize>(
        &self,
        x: &mut [f64],
        dims: Dims,
        block: usize,
        stage: usize,
        v: &SVector<f64, W>,
    ) {
        debug_assert_eq!(dims.of(self.blocks[block].width), W);
        let o = self.offset(block, stage, dims);
        x[o..o + W].copy_from_slice(v.as_slice());
    }
}

/// Adds the `A×B` block `m` to `target` at rows `ro..ro+A`, columns `co..co+B` (offsets from
/// [`Layout::offset`]).
#[inline]
pub fn add_block<const A: usize, const B: usize>(
    target: &mut RowMajor<'_>,
    ro: usize,
    co: usize,
    m: &SMatrix<f64, A, B>,
) {
    for r in 0..A {
        let row = &mut target.row_mut(ro + r)[co..co + B];
        for (c, entry) in row.iter_mut().enumerate() {
            *entry += m[(r, c)];
        }
    }
}

/// Adds `scalar · I` to the `D×D` block of `target` at rows `ro..ro+D`, columns `co..co+D`.
#[inline]
pub fn add_diagonal<const D: usize>(target: &mut RowMajor<'_>, ro: usize, co: usize, scalar: f64) {
    for k in 0..D {
        target.row_mut(ro + k)[co + k] += scalar;
    }
}

/// The component shift Σ of upstream's mis-indexed SPARK multiplier (GeometricIntegrators.jl,
/// `src/spark/integrators_spark.jl`; generated only for the `…UpstreamMu` compatibility steppers):
/// `(Σw)_{k+1} = w_k` (k < D), or with `wrap` `(Σw)_1 = w_D`; every other entry is zero.
#[inline]
pub fn shift_matrix<const D: usize>(wrap: bool) -> SMatrix<f64, D, D> {
    SMatrix::<f64, D, D>::from_fn(|r, c| {
        let hit = if wrap {
            r == 0 && c + 1 == D
        } else {
            r == c + 1
        };
        if hit { 1.0 } else { 0.0 }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLOCKS: [Block; 3] = [
        Block {
            name: "V",
            stages: 3,
            role: Role::Velocity,
            width: Width::Coordinates,
            nodes: Nodes::Internal,
        },
        Block {
            name: "Lambda",
            stages: 3,
            role: Role::Multiplier,
            width: Width::Constraints,
            nodes: Nodes::Internal,
        },
        Block {
            name: "Mu",
            stages: 1,
            role: Role::Multiplier,
            width: Width::Constraints,
            nodes: Nodes::Internal,
        },
    ];
    const LAYOUT: Layout = Layout::new(&BLOCKS);

    /// Every entry's position inverts `offset`: D = 3 coordinates, M = 2 constraints.
    #[test]
    fn positions_invert_offsets() {
        let dims = Dims::new(3, 2);
        let mut seen = 0;
        for (b, block) in BLOCKS.iter().enumerate() {
            for stage in 0..block.stages {
                for k in 0..dims.of(block.width) {
                    let index = LAYOUT.offset(b, stage, dims) + k;
                    let at = LAYOUT.position(index, dims).unwrap();
                    assert_eq!(
                        (at.block, at.stage, at.component),
                        (block.name, stage + 1, k + 1)
                    );
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, LAYOUT.len(dims));
        assert_eq!(LAYOUT.position(seen, dims), None);
        let v2 = LAYOUT.position(4, dims).unwrap();
        assert_eq!(v2.to_string(), "V, stage 2, coordinate 2");
        let mu = LAYOUT.position(seen - 1, dims).unwrap();
        assert_eq!(mu.to_string(), "Mu, constraint 2");
    }

    #[test]
    fn uniform_offsets_and_round_trip() {
        let dims = Dims::uniform(2);
        assert_eq!(LAYOUT.vectors(), 7);
        assert_eq!(LAYOUT.len(dims), 14);
        assert_eq!(LAYOUT.offset(1, 2, dims), 10);
        assert_eq!(LAYOUT.offset(2, 0, dims), 12);
        let mut x = [0.0; 14];
        LAYOUT.set::<2>(&mut x, dims, 1, 2, &SVector::<f64, 2>::new(3.0, 4.0));
        assert_eq!(&x[10..12], &[3.0, 4.0]);
        assert_eq!(
            LAYOUT.get::<2>(&x, dims, 1, 2),
            SVector::<f64, 2>::new(3.0, 4.0)
        );
        let mut j = [[0.0; 14]; 14];
        add_diagonal::<2>(
            &mut RowMajor::of(&mut j),
            LAYOUT.offset(0, 1, dims),
            LAYOUT.offset(2, 0, dims),
            5.0,
        );
        assert_eq!((j[2][12], j[3][13], j[2][13]), (5.0, 5.0, 0.0));
        add_block(
            &mut RowMajor::of(&mut j),
            0,
            2,
            &SMatrix::<f64, 2, 2>::new(1.0, 2.0, 3.0, 4.0),
        );
        assert_eq!((j[0][2], j[0][3], j[1][2], j[1][3]), (1.0, 2.0, 3.0, 4.0));
    }

    #[test]
    fn mixed_widths() {
        // D = 3 coordinates, M = 2 constraints: V₁..V₃ take 9 entries, Λ₁..Λ₃ 6, μ 2.
        let dims = Dims::new(3, 2);
        assert_eq!(LAYOUT.len(dims), 17);
        assert_eq!(LAYOUT.offset(0, 2, dims), 6);
        assert_eq!(LAYOUT.offset(1, 0, dims), 9);
        assert_eq!(LAYOUT.offset(1, 2, dims), 13);
        assert_eq!(LAYOUT.offset(2, 0, dims), 15);
        let mut x = [0.0; 17];
        LAYOUT.set::<2>(&mut x, dims, 2, 0, &SVector::<f64, 2>::new(7.0, 8.0));
        assert_eq!(&x[15..], &[7.0, 8.0]);
        let mut j = [[0.0; 17]; 17];
        add_block(
            &mut RowMajor::of(&mut j),
            15,
            0,
            &SMatrix::<f64, 2, 3>::from_element(1.0),
        );
        assert_eq!((j[16][2], j[16][3]), (1.0, 0.0));
    }
    /// Σ moves μ_k to component k + 1, and with `wrap` μ_D to component 1.
    #[test]
    fn shift_matrices_move_components() {
        let w = SVector::<f64, 3>::new(1.0, 2.0, 3.0);
        assert_eq!(
            shift_matrix::<3>(false) * w,
            SVector::<f64, 3>::new(0.0, 1.0, 2.0)
        );
        assert_eq!(
            shift_matrix::<3>(true) * w,
            SVector::<f64, 3>::new(3.0, 0.0, 0.0)
        );
        assert_eq!(
            shift_matrix::<1>(false) * SVector::<f64, 1>::new(5.0),
            SVector::<f64, 1>::zeros()
        );
        assert_eq!(
            shift_matrix::<1>(true) * SVector::<f64, 1>::new(5.0),
            SVector::<f64, 1>::new(5.0)
        );
    }
}
