//! The one-step driver's vectors of `D` and `M` entries, in one allocation made with the
//! driver: the carried multiplier `λ_n`, the one the last step read, the next one as it is
//! formed, the velocity `v_n`, `(q_{n−1}, v_{n−1})`, the watch's `v_{n+1}`, the momentum rate
//! `ṗ_n` with its multiplier and those of the previous step, and `(q_{n+1}, p_{n+1})`.

use crate::layout::Dims;

/// The vectors, one after the other.
#[derive(Clone, Debug)]
pub(super) struct Vectors {
    data: Vec<f64>,
    d: usize,
    m: usize,
}

/// The vectors, each writable.
pub(super) struct Parts<'a> {
    /// `λ_n`.
    pub(super) lambda: &'a mut [f64],
    /// The `λ_n` the last step read.
    pub(super) lambda_read: &'a mut [f64],
    /// `λ_{n+1}` as it is formed, then the consistent `λ̂` of the multiplier watch.
    pub(super) lambda_work: &'a mut [f64],
    /// `v_n`.
    pub(super) velocity: &'a mut [f64],
    /// `q_{n−1}`.
    pub(super) q_prev: &'a mut [f64],
    /// `v_{n−1}`.
    pub(super) v_prev: &'a mut [f64],
    /// The velocity at `(q_{n+1}, p_{n+1})` of the multiplier watch.
    pub(super) v_next: &'a mut [f64],
    /// `ṗ_n`.
    pub(super) p_dot: &'a mut [f64],
    /// The multiplier of `ṗ_n`.
    pub(super) rate_lambda: &'a mut [f64],
    /// `p_{n−1}`.
    pub(super) p_prev: &'a mut [f64],
    /// `ṗ_{n−1}`.
    pub(super) p_dot_prev: &'a mut [f64],
    /// The multiplier of `ṗ_{n−1}`.
    pub(super) rate_lambda_prev: &'a mut [f64],
    /// `q_{n+1}`.
    pub(super) q1: &'a mut [f64],
    /// `p_{n+1}`.
    pub(super) p1: &'a mut [f64],
}

impl Vectors {
    /// Zeros for the widths `dims`.
    pub(super) fn new(dims: Dims) -> Vectors {
        let (d, m) = (dims.coordinates, dims.constraints);
        Vectors {
            data: vec![0.0; 5 * m + 9 * d],
            d,
            m,
        }
    }

    /// Every vector.
    pub(super) fn parts(&mut self) -> Parts<'_> {
        let (d, m) = (self.d, self.m);
        let (lambda, rest) = self.data.split_at_mut(m);
        let (lambda_read, rest) = rest.split_at_mut(m);
        let (lambda_work, rest) = rest.split_at_mut(m);
        let (velocity, rest) = rest.split_at_mut(d);
        let (q_prev, rest) = rest.split_at_mut(d);
        let (v_prev, rest) = rest.split_at_mut(d);
        let (v_next, rest) = rest.split_at_mut(d);
        let (p_dot, rest) = rest.split_at_mut(d);
        let (rate_lambda, rest) = rest.split_at_mut(m);
        let (p_prev, rest) = rest.split_at_mut(d);
        let (p_dot_prev, rest) = rest.split_at_mut(d);
        let (rate_lambda_prev, rest) = rest.split_at_mut(m);
        let (q1, p1) = rest.split_at_mut(d);
        Parts {
            lambda,
            lambda_read,
            lambda_work,
            velocity,
            q_prev,
            v_prev,
            v_next,
            p_dot,
            rate_lambda,
            p_prev,
            p_dot_prev,
            rate_lambda_prev,
            q1,
            p1,
        }
    }

    /// `λ_n`.
    pub(super) fn lambda(&self) -> &[f64] {
        &self.data[..self.m]
    }

    /// The `λ_n` the last step read.
    pub(super) fn lambda_read(&self) -> &[f64] {
        &self.data[self.m..2 * self.m]
    }

    /// `(q_{n+1}, p_{n+1})`.
    pub(super) fn next(&self) -> (&[f64], &[f64]) {
        let start = 5 * self.m + 7 * self.d;
        self.data[start..].split_at(self.d)
    }
}
