//! The [`DistanceConstraints`] system: particles, masses, bonds and a potential, validated once.

use super::potential::{Particles, Potential};
use nalgebra::DVector;

/// The far end of a bond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BondEnd {
    /// Another particle.
    Particle(usize),
    /// A fixed point (its first `d` coordinates are used).
    Anchor([f64; 3]),
}

/// A bond holding particle `i` at distance `length` from `to`: `c = ½(|x_i − x_to|² − ℓ²)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bond {
    /// The particle.
    pub i: usize,
    /// The other particle or a fixed point.
    pub to: BondEnd,
    /// The bond length ℓ.
    pub length: f64,
}

impl Bond {
    /// A bond between particles `i` and `j`.
    pub fn pair(i: usize, j: usize, length: f64) -> Bond {
        Bond {
            i,
            to: BondEnd::Particle(j),
            length,
        }
    }

    /// A bond between particle `i` and the fixed point `point`.
    pub fn anchored(i: usize, point: [f64; 3], length: f64) -> Bond {
        Bond {
            i,
            to: BondEnd::Anchor(point),
            length,
        }
    }
}

/// Why a [`DistanceConstraints`] system cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// The dimension is not 2 or 3.
    #[error("dimension {0}: particles move in 2 or 3 dimensions")]
    Dimension(usize),
    /// A mass is not finite and positive.
    #[error("particle {particle}: mass {mass} is not finite and positive")]
    Mass {
        /// The particle.
        particle: usize,
        /// Its mass.
        mass: f64,
    },
    /// There are no bonds.
    #[error("no bonds")]
    NoBonds,
    /// A bond names a particle that does not exist.
    #[error("bond {bond}: no particle {particle} (there are {particles})")]
    Particle {
        /// The bond.
        bond: usize,
        /// The index named.
        particle: usize,
        /// The number of particles.
        particles: usize,
    },
    /// A bond binds a particle to itself.
    #[error("bond {bond}: binds particle {particle} to itself")]
    SelfBond {
        /// The bond.
        bond: usize,
        /// The particle.
        particle: usize,
    },
    /// A bond length is not finite and positive, or an anchor point not finite.
    #[error("bond {bond}: length {length} not finite and positive, or anchor not finite")]
    Bond {
        /// The bond.
        bond: usize,
        /// Its length.
        length: f64,
    },
}

/// One term `weight · (d_b · d_b')` of the entry `(b, b')` of `G M⁻¹ Gᵀ`: bonds `b` and `b'`
/// share a particle `k`, `weight = s_b s_b' / m_k` with `s = +1` at `i`, `−1` at `j`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Coupling {
    pub(super) row: usize,
    pub(super) col: usize,
    pub(super) weight: f64,
}

/// Particles with masses in 2-D or 3-D, distance constraints between them or to fixed points,
/// and a potential (see the [module documentation](super)).
#[derive(Clone, Debug)]
pub struct DistanceConstraints<V> {
    dim: usize,
    masses: Vec<f64>,
    inverse_masses: Vec<f64>,
    bonds: Vec<Bond>,
    potential: V,
    couplings: Vec<Coupling>,
    bandwidth: usize,
    anchor_extent: f64,
}

impl<V: Potential> DistanceConstraints<V> {
    /// The system of particles in `dim` dimensions with `masses`, `bonds` and `potential`.
    ///
    /// Bonds are best numbered along the molecule: the solves cost `O(n w²)` with `w` the
    /// largest `|b − b'|` of two bonds sharing a particle ([`Self::bandwidth`]). Coincident
    /// bonds are accepted here; the step reports them as degenerate constraints.
    pub fn new(
        dim: usize,
        masses: Vec<f64>,
        bonds: Vec<Bond>,
        potential: V,
    ) -> Result<Self, ModelError> {
        if !(dim == 2 || dim == 3) {
            return Err(ModelError::Dimension(dim));
        }
        if let Some((particle, &mass)) =
            (masses.iter().enumerate()).find(|(_, m)| !(m.is_finite() && **m > 0.0))
        {
            return Err(ModelError::Mass { particle, mass });
        }
        if bonds.is_empty() {
            return Err(ModelError::NoBonds);
        }
        let particles = masses.len();
        for (bond, b) in bonds.iter().enumerate() {
            let far = match b.to {
                BondEnd::Particle(j) => Some(j),
                BondEnd::Anchor(_) => None,
            };
            for particle in std::iter::once(b.i).chain(far) {
                if particle >= particles {
                    return Err(ModelError::Particle {
                        bond,
                        particle,
                        particles,
                    });
                }
            }
            if far == Some(b.i) {
                return Err(ModelError::SelfBond {
                    bond,
                    particle: b.i,
                });
            }
            let anchor_finite = match b.to {
                BondEnd::Anchor(a) => a.iter().all(|x| x.is_finite()),
                BondEnd::Particle(_) => true,
            };
            if !(b.length.is_finite() && b.length > 0.0 && anchor_finite) {
                return Err(ModelError::Bond {
                    bond,
                    length: b.length,
                });
            }
        }
        let inverse_masses: Vec<f64> = masses.iter().map(|m| 1.0 / m).collect();
        let couplings = couplings(&bonds, &inverse_masses);
        let bandwidth = couplings.iter().map(|c| c.row.abs_diff(c.col)).max();
        let anchor_extent = (bonds.iter())
            .filter_map(|b| match b.to {
                BondEnd::Anchor(a) => Some(a[..dim].iter().fold(0.0f64, |m, x| m.max(x.abs()))),
                BondEnd::Particle(_) => None,
            })
            .fold(0.0, f64::max);
        Ok(DistanceConstraints {
            dim,
            masses,
            inverse_masses,
            bonds,
            potential,
            couplings,
            bandwidth: bandwidth.unwrap_or(0),
            anchor_extent,
        })
    }
}

/// The couplings of every pair of bonds sharing a particle (both orders, and `b = b'`).
fn couplings(bonds: &[Bond], inverse_masses: &[f64]) -> Vec<Coupling> {
    let mut at: Vec<Vec<(usize, f64)>> = vec![Vec::new(); inverse_masses.len()];
    for (b, bond) in bonds.iter().enumerate() {
        at[bond.i].push((b, 1.0));
        if let BondEnd::Particle(j) = bond.to {
            at[j].push((b, -1.0));
        }
    }
    let mut couplings = Vec::new();
    for (k, touching) in at.iter().enumerate() {
        for &(row, s) in touching {
            for &(col, t) in touching {
                couplings.push(Coupling {
                    row,
                    col,
                    weight: s * t * inverse_masses[k],
                });
            }
        }
    }
    couplings
}

impl<V> DistanceConstraints<V> {
    /// The dimension `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The masses.
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }

    /// `1/m_k`.
    pub(super) fn inverse_masses(&self) -> &[f64] {
        &self.inverse_masses
    }

    /// The bonds.
    pub fn bonds(&self) -> &[Bond] {
        &self.bonds
    }

    /// The potential.
    pub fn potential(&self) -> &V {
        &self.potential
    }

    /// The number of coordinates `n d`.
    pub fn coordinates(&self) -> usize {
        self.dim * self.masses.len()
    }

    /// The half-bandwidth `w` of the Gram matrix in the given bond order.
    pub fn bandwidth(&self) -> usize {
        self.bandwidth
    }

    /// `max |a_e|` over the coordinates of the anchor points (0 without anchors): the anchors
    /// enter the constraints like coordinates, so the lengths the tolerances are relative to
    /// include them, `‖q‖_∞` read as `max(‖q‖_∞, max |a_e|)`.
    pub fn anchor_extent(&self) -> f64 {
        self.anchor_extent
    }

    /// The couplings that make up `G M⁻¹ Gᵀ`.
    pub(super) fn couplings(&self) -> &[Coupling] {
        &self.couplings
    }

    /// The particle view the potential sees.
    pub fn particles(&self) -> Particles<'_> {
        Particles {
            dim: self.dim,
            masses: &self.masses,
        }
    }
}

impl<V: Potential> DistanceConstraints<V> {
    /// `H(q, p) = ½ Σ_k |p_k|²/m_k + V(q)`.
    pub fn hamiltonian(&self, q: &DVector<f64>, p: &DVector<f64>) -> f64 {
        let kinetic: f64 = (p.as_slice().chunks_exact(self.dim))
            .zip(&self.inverse_masses)
            .map(|(pk, w)| pk.iter().map(|x| x * x).sum::<f64>() * w)
            .sum();
        0.5 * kinetic + self.potential.energy(self.particles(), q.as_slice())
    }
}
