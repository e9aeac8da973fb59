//! Potentials `V(q)` of a [`DistanceConstraints`](super::DistanceConstraints) system, with
//! their gradients.

/// What a potential may need to know about the particles besides `q`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Particles<'a> {
    /// The dimension `d` (2 or 3); particle `k` has coordinates `q[d k..d k + d]`.
    pub dim: usize,
    /// The masses `m_k`.
    pub masses: &'a [f64],
}

/// A potential `V(q)` on the `n d` particle coordinates, with its gradient.
pub trait Potential {
    /// `V(q)`.
    fn energy(&self, particles: Particles<'_>, q: &[f64]) -> f64;

    /// Writes `∇V(q)` into `gradient` (length `n d`, every entry to be written).
    fn gradient(&self, particles: Particles<'_>, q: &[f64], gradient: &mut [f64]);
}

/// Uniform gravity along the last axis (`y` in 2-D, `z` in 3-D): `V = g Σ_k m_k x_{k,d}`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gravity {
    /// The gravitational acceleration g.
    pub g: f64,
}

impl Potential for Gravity {
    fn energy(&self, particles: Particles<'_>, q: &[f64]) -> f64 {
        let d = particles.dim;
        let height = |k: usize| q[d * k + d - 1];
        self.g
            * (particles.masses.iter().enumerate())
                .map(|(k, m)| m * height(k))
                .sum::<f64>()
    }

    fn gradient(&self, particles: Particles<'_>, _q: &[f64], gradient: &mut [f64]) {
        let d = particles.dim;
        for (x, m) in gradient.chunks_exact_mut(d).zip(particles.masses) {
            x.fill(0.0);
            x[d - 1] = self.g * m;
        }
    }
}

/// A potential from two closures, `V(q)` and `(q, ∇V) ↦ ∇V(q)` written into its second
/// argument (the closures see the coordinates only).
#[derive(Clone, Copy, Debug)]
pub struct FnPotential<E, G> {
    /// `V(q)`.
    pub energy: E,
    /// Writes `∇V(q)`.
    pub gradient: G,
}

impl<E, G> Potential for FnPotential<E, G>
where
    E: Fn(&[f64]) -> f64,
    G: Fn(&[f64], &mut [f64]),
{
    fn energy(&self, _particles: Particles<'_>, q: &[f64]) -> f64 {
        (self.energy)(q)
    }

    fn gradient(&self, _particles: Particles<'_>, q: &[f64], gradient: &mut [f64]) {
        (self.gradient)(q, gradient)
    }
}
