//! Where the solvers keep their vectors and matrices: the size `n` of the unknowns known at
//! compile time ([`Fixed`], arrays on the stack) or at run time ([`Dynamic`], buffers allocated
//! once when a solver is made and reused by every solve).
//!
//! The algorithms are written once over slices: a vector is `n` entries, a matrix `n × n`
//! entries in row-major order (entry `(i, j)` at `i·n + j`). For [`Fixed`] `n` is the constant
//! `N`, so the monomorphised code sees the same constant trip counts as code on arrays.

use std::fmt::Debug;

/// Storage of a solver: a vector or a row-major matrix of the space's size.
pub trait Buffer<T>: Clone + Debug {
    /// The entries.
    fn entries(&self) -> &[T];
    /// The entries, writable.
    fn entries_mut(&mut self) -> &mut [T];
}

impl<T: Copy + Debug, const N: usize> Buffer<T> for [T; N] {
    fn entries(&self) -> &[T] {
        self
    }
    fn entries_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy + Debug, const N: usize> Buffer<T> for [[T; N]; N] {
    fn entries(&self) -> &[T] {
        self.as_flattened()
    }
    fn entries_mut(&mut self) -> &mut [T] {
        self.as_flattened_mut()
    }
}

impl<T: Copy + Debug> Buffer<T> for Box<[T]> {
    fn entries(&self) -> &[T] {
        self
    }
    fn entries_mut(&mut self) -> &mut [T] {
        self
    }
}

/// The size `n` of a square system and the storage of its vectors and matrices.
pub trait Space: Copy + Debug + PartialEq {
    /// `n` entries of `f64`.
    type Vector: Buffer<f64>;
    /// `n × n` entries of `f64`, row-major.
    type Matrix: Buffer<f64>;
    /// `n` indices.
    type Indices: Buffer<usize>;
    /// `n`.
    fn dim(self) -> usize;
    /// A vector of zeros.
    fn vector(self) -> Self::Vector;
    /// A matrix of zeros.
    fn matrix(self) -> Self::Matrix;
    /// `n` zero indices.
    fn indices(self) -> Self::Indices;
}

/// `N` known at compile time: arrays, no heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Fixed<const N: usize>;

impl<const N: usize> Space for Fixed<N> {
    type Vector = [f64; N];
    type Matrix = [[f64; N]; N];
    type Indices = [usize; N];
    #[inline(always)]
    fn dim(self) -> usize {
        N
    }
    fn vector(self) -> [f64; N] {
        [0.0; N]
    }
    fn matrix(self) -> [[f64; N]; N] {
        [[0.0; N]; N]
    }
    fn indices(self) -> [usize; N] {
        [0; N]
    }
}

/// `n` known at run time: boxed slices, allocated when a solver is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dynamic {
    n: usize,
}

impl Dynamic {
    /// The space of `n` unknowns; `None` when an `n × n` matrix of `f64` would not fit in the
    /// address space.
    pub fn new(n: usize) -> Option<Dynamic> {
        let bytes = n.checked_mul(n)?.checked_mul(size_of::<f64>())?;
        (bytes <= isize::MAX as usize).then_some(Dynamic { n })
    }
}

impl Space for Dynamic {
    type Vector = Box<[f64]>;
    type Matrix = Box<[f64]>;
    type Indices = Box<[usize]>;
    fn dim(self) -> usize {
        self.n
    }
    fn vector(self) -> Box<[f64]> {
        vec![0.0; self.n].into_boxed_slice()
    }
    fn matrix(self) -> Box<[f64]> {
        vec![0.0; self.n * self.n].into_boxed_slice()
    }
    fn indices(self) -> Box<[usize]> {
        vec![0; self.n].into_boxed_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_storage_has_the_sizes_of_fixed_storage() {
        let dynamic = Dynamic::new(3).unwrap();
        assert_eq!(dynamic.dim(), Fixed::<3>.dim());
        assert_eq!(dynamic.vector().entries(), Fixed::<3>.vector().entries());
        assert_eq!(dynamic.matrix().entries(), Fixed::<3>.matrix().entries());
        assert_eq!(dynamic.indices().entries(), Fixed::<3>.indices().entries());
    }

    #[test]
    fn a_matrix_beyond_the_address_space_is_refused() {
        assert_eq!(Dynamic::new(usize::MAX), None);
        assert_eq!(Dynamic::new(1 << (usize::BITS / 2)), None);
        assert!(Dynamic::new(0).is_some());
    }
}
