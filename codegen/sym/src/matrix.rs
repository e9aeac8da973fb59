//! Dense matrices of graph nodes (row-major), e.g. Jacobians J_ij = ∂fᵢ/∂qⱼ.

use crate::graph::NodeId;

/// A `rows × cols` matrix of nodes, row-major.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    entries: Vec<NodeId>,
}

impl Matrix {
    /// Builds a matrix from row-major entries; `None` if `entries.len() != rows · cols`.
    pub fn from_row_major(rows: usize, cols: usize, entries: Vec<NodeId>) -> Option<Matrix> {
        (entries.len() == rows * cols).then_some(Matrix {
            rows,
            cols,
            entries,
        })
    }

    /// Internal constructor for entries known to have length rows · cols.
    pub(crate) fn new(rows: usize, cols: usize, entries: Vec<NodeId>) -> Matrix {
        debug_assert_eq!(entries.len(), rows * cols);
        Matrix {
            rows,
            cols,
            entries,
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Entry (i, j); `None` when out of range.
    pub fn get(&self, i: usize, j: usize) -> Option<NodeId> {
        (i < self.rows && j < self.cols).then(|| self.entries[i * self.cols + j])
    }

    /// Row i.
    pub fn row(&self, i: usize) -> &[NodeId] {
        &self.entries[i * self.cols..(i + 1) * self.cols]
    }

    /// All entries, row-major.
    pub fn entries(&self) -> &[NodeId] {
        &self.entries
    }

    /// Entries with their (i, j) positions, row-major.
    pub fn indexed(&self) -> impl Iterator<Item = ((usize, usize), NodeId)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .map(|(k, id)| ((k / self.cols, k % self.cols), *id))
    }
}
