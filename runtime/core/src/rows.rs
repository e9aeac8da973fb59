//! The row-major matrices that generated stage methods write their Jacobian `∂r/∂x` and their
//! tangent partials into, whatever holds the entries: a fixed-size array of a compiled run
//! (`N` known at compile time) or a solver's buffer sized once per run.

/// A borrowed row-major matrix: `entries.len() / cols` rows of `cols` entries, entry `(i, j)`
/// at `i·cols + j`.
#[derive(Debug)]
pub struct RowMajor<'a> {
    entries: &'a mut [f64],
    cols: usize,
}

impl<'a> RowMajor<'a> {
    /// The rows of `cols` entries that `entries` holds; `None` if its length is not a multiple
    /// of `cols` (a `0 × 0` matrix has no entries and any `cols`).
    pub fn new(entries: &'a mut [f64], cols: usize) -> Option<RowMajor<'a>> {
        let fits = match entries.len().checked_rem(cols) {
            Some(rest) => rest == 0,
            None => entries.is_empty(),
        };
        fits.then_some(RowMajor { entries, cols })
    }

    /// The rows of a fixed-size array.
    pub fn of<const R: usize, const C: usize>(rows: &'a mut [[f64; C]; R]) -> RowMajor<'a> {
        RowMajor {
            entries: rows.as_flattened_mut(),
            cols: C,
        }
    }

    /// Row `r`.
    #[inline]
    pub fn row_mut(&mut self, r: usize) -> &mut [f64] {
        &mut self.entries[r * self.cols..(r + 1) * self.cols]
    }

    /// The entries, row after row.
    pub fn entries(&self) -> &[f64] {
        self.entries
    }

    /// Sets every entry to zero.
    pub fn clear(&mut self) {
        self.entries.fill(0.0);
    }
}

/// The partial derivatives of one step `r(x; q, p) = 0`, `(q₁, p₁) = Ψ(x; q, p)`, as the
/// generated `tangent` writes them: `∂r/∂q`, `∂r/∂p` (`N × D`), `∂q₁/∂x`, `∂p₁/∂x` (`D × N`)
/// and the explicit `∂(q₁, p₁)/∂(q, p)` at fixed x (`D × D`).
#[derive(Debug)]
pub struct TangentRows<'a> {
    /// `∂r/∂q`.
    pub r_q: RowMajor<'a>,
    /// `∂r/∂p`.
    pub r_p: RowMajor<'a>,
    /// `∂q₁/∂x`.
    pub q_x: RowMajor<'a>,
    /// `∂p₁/∂x`.
    pub p_x: RowMajor<'a>,
    /// `∂q₁/∂q` at fixed x.
    pub q_q: RowMajor<'a>,
    /// `∂q₁/∂p` at fixed x.
    pub q_p: RowMajor<'a>,
    /// `∂p₁/∂q` at fixed x.
    pub p_q: RowMajor<'a>,
    /// `∂p₁/∂p` at fixed x.
    pub p_p: RowMajor<'a>,
}

impl TangentRows<'_> {
    /// Sets every entry of every block to zero.
    pub fn clear(&mut self) {
        for block in [
            &mut self.r_q,
            &mut self.r_p,
            &mut self.q_x,
            &mut self.p_x,
            &mut self.q_q,
            &mut self.q_p,
            &mut self.p_q,
            &mut self.p_p,
        ] {
            block.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_an_array_and_of_a_slice_agree() {
        let mut a = [[0.0; 3]; 2];
        RowMajor::of(&mut a).row_mut(1)[2] = 5.0;
        assert_eq!(a[1][2], 5.0);
        let mut flat = [0.0; 6];
        let mut rows = RowMajor::new(&mut flat, 3).expect("6 is 2 rows of 3");
        rows.row_mut(1)[2] = 5.0;
        assert_eq!(rows.entries(), a.as_flattened());
        rows.clear();
        assert!(rows.entries().iter().all(|e| *e == 0.0));
    }

    #[test]
    fn a_length_that_is_not_whole_rows_is_refused() {
        assert!(RowMajor::new(&mut [0.0; 5], 3).is_none());
        assert!(RowMajor::new(&mut [0.0; 1], 0).is_none());
        assert!(RowMajor::new(&mut [], 0).is_some());
    }
}
