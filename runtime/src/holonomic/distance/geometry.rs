//! The constraint geometry on flat coordinate slices: bond vectors `d_b = x_i − x_j`, the
//! constraint values, products with `G`, `Gᵀ` and `M⁻¹`, and the assembly of `G M⁻¹ Gᵀ`-shaped
//! band matrices. Every function is `O(n)` (`O(Σ_k deg_k²)` for the assembly). The system's
//! own `c(q)` and `G M⁻¹ p` ([`DistanceConstraints::constraints`],
//! [`DistanceConstraints::velocity_constraints`]) are formed here.

use super::band::Band;
use super::model::{BondEnd, DistanceConstraints};
use super::potential::Potential;
use nalgebra::DVector;

impl<V: Potential> DistanceConstraints<V> {
    /// `c(q)`, one value per bond (allocates; the steppers use their own buffers).
    pub fn constraints(&self, q: &DVector<f64>) -> DVector<f64> {
        let mut d = vec![0.0; self.bonds().len() * self.dim()];
        bond_vectors(self, q.as_slice(), &mut d);
        let mut c = DVector::zeros(self.bonds().len());
        constraint_values(self, &d, c.as_mut_slice());
        c
    }

    /// The velocity constraints `G(q) M⁻¹ p`, one value per bond (allocates).
    pub fn velocity_constraints(&self, q: &DVector<f64>, p: &DVector<f64>) -> DVector<f64> {
        let mut d = vec![0.0; self.bonds().len() * self.dim()];
        bond_vectors(self, q.as_slice(), &mut d);
        let mut r = DVector::zeros(self.bonds().len());
        velocity_constraints(self, &d, p.as_slice(), r.as_mut_slice());
        r
    }
}

/// Block `k` of `dim` entries: the coordinates of particle `k`, or the vector of bond `k`.
#[inline]
fn block(q: &[f64], dim: usize, k: usize) -> &[f64] {
    &q[dim * k..dim * (k + 1)]
}

/// `d_b = x_i − x_j` (or `x_i − a`) for every bond, `d` as `n_b × d` rows.
pub(super) fn bond_vectors<V>(system: &DistanceConstraints<V>, q: &[f64], d: &mut [f64]) {
    let dim = system.dim();
    for (bond, db) in system.bonds().iter().zip(d.chunks_exact_mut(dim)) {
        let xi = block(q, dim, bond.i);
        match bond.to {
            BondEnd::Particle(j) => {
                let xj = block(q, dim, j);
                for ((e, a), b) in db.iter_mut().zip(xi).zip(xj) {
                    *e = a - b;
                }
            }
            BondEnd::Anchor(point) => {
                for ((e, a), b) in db.iter_mut().zip(xi).zip(&point) {
                    *e = a - b;
                }
            }
        }
    }
}

#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `c_b = ½(|d_b|² − ℓ_b²)`.
pub(super) fn constraint_values<V>(system: &DistanceConstraints<V>, d: &[f64], c: &mut [f64]) {
    let rows = d.chunks_exact(system.dim());
    for ((cb, db), bond) in c.iter_mut().zip(rows).zip(system.bonds()) {
        *cb = (dot(db, db) - bond.length * bond.length) / 2.0;
    }
}

/// `‖∇c_b‖₂ = |d_b| √(moving ends)` (`√2` for a pair, 1 for an anchored bond).
pub(super) fn gradient_norms<V>(system: &DistanceConstraints<V>, d: &[f64], norms: &mut [f64]) {
    let rows = d.chunks_exact(system.dim());
    for ((nb, db), bond) in norms.iter_mut().zip(rows).zip(system.bonds()) {
        let ends = match bond.to {
            BondEnd::Particle(_) => 2.0,
            BondEnd::Anchor(_) => 1.0,
        };
        *nb = (ends * dot(db, db)).sqrt();
    }
}

/// `max_b A_bb = max_b |d_b|² Σ_{moving ends k} 1/m_k`, a lower bound on `λ_max(A)`.
pub(super) fn largest_gram_diagonal<V>(system: &DistanceConstraints<V>, d: &[f64]) -> f64 {
    let w = system.inverse_masses();
    let rows = d.chunks_exact(system.dim());
    (system.bonds().iter().zip(rows))
        .map(|(bond, db)| {
            let far = match bond.to {
                BondEnd::Particle(j) => w[j],
                BondEnd::Anchor(_) => 0.0,
            };
            (w[bond.i] + far) * dot(db, db)
        })
        .fold(0.0, f64::max)
}

/// `r = G M⁻¹ p`: `r_b = d_b · (p_i/m_i − p_j/m_j)`.
pub(super) fn velocity_constraints<V>(
    system: &DistanceConstraints<V>,
    d: &[f64],
    p: &[f64],
    r: &mut [f64],
) {
    let (dim, w) = (system.dim(), system.inverse_masses());
    let rows = d.chunks_exact(dim);
    for ((rb, db), bond) in r.iter_mut().zip(rows).zip(system.bonds()) {
        let mut v = dot(db, block(p, dim, bond.i)) * w[bond.i];
        if let BondEnd::Particle(j) = bond.to {
            v -= dot(db, block(p, dim, j)) * w[j];
        }
        *rb = v;
    }
}

/// Whether an impulse `Gᵀx` is applied as a momentum (`Gᵀx`) or a displacement (`M⁻¹Gᵀx`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Impulse {
    /// `Gᵀ x`.
    Momentum,
    /// `M⁻¹ Gᵀ x`.
    Displacement,
}

/// `out += s · Gᵀ x` or `out += s · M⁻¹ Gᵀ x`.
pub(super) fn add_impulse<V>(
    system: &DistanceConstraints<V>,
    d: &[f64],
    x: &[f64],
    s: f64,
    kind: Impulse,
    out: &mut [f64],
) {
    let dim = system.dim();
    let weight = |k: usize| match kind {
        Impulse::Momentum => s,
        Impulse::Displacement => s * system.inverse_masses()[k],
    };
    let rows = d.chunks_exact(dim);
    for ((db, xb), bond) in rows.zip(x).zip(system.bonds()) {
        let wi = weight(bond.i) * xb;
        for (o, e) in out[dim * bond.i..dim * (bond.i + 1)].iter_mut().zip(db) {
            *o += wi * e;
        }
        if let BondEnd::Particle(j) = bond.to {
            let wj = weight(j) * xb;
            for (o, e) in out[dim * j..dim * (j + 1)].iter_mut().zip(db) {
                *o -= wj * e;
            }
        }
    }
}

/// `matrix = G(q_rows) M⁻¹ G(q_cols)ᵀ` from the bond vectors at the two configurations (the
/// Gram matrix when they coincide).
pub(super) fn assemble<V>(
    system: &DistanceConstraints<V>,
    d_rows: &[f64],
    d_cols: &[f64],
    matrix: &mut Band,
) {
    let dim = system.dim();
    matrix.clear();
    for c in system.couplings() {
        let (a, b) = (block(d_rows, dim, c.row), block(d_cols, dim, c.col));
        matrix.add(c.row, c.col, c.weight * dot(a, b));
    }
}
