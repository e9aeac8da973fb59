//! Problems shipped with sparkgen, written with the derive macros
//! (GeometricProblems.jl, `src/lotka_volterra_2d.jl`; seed 000 for the degenerate pendulum).

use crate::holonomic::problems::Pendulum;
use crate::problem::{DegenerateLagrangian, HamiltonianDae, ImplicitDae};
use nalgebra::SVector;

/// Lotka–Volterra 2d in the standard gauge `ϑ = (q₂ + ln q₂/q₁, q₁)`,
/// `H = a₁q₁ + a₂q₂ + b₁ ln q₁ + b₂ ln q₂`; the ODE is `q̇₁ = q₁(a₂q₂ + b₂)`,
/// `q̇₂ = −q₂(a₁q₁ + b₁)`.
#[derive(Clone, Copy, Debug, PartialEq, DegenerateLagrangian)]
#[lagrangian(q = [q1, q2], theta = [q2 + ln(q2) / q1, q1], hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2))]
pub struct LotkaVolterra2d {
    /// a₁.
    pub a1: f64,
    /// a₂.
    pub a2: f64,
    /// b₁.
    pub b1: f64,
    /// b₂.
    pub b2: f64,
}

/// Lotka–Volterra 2d in the singular gauge `ϑ = (ln q₂/q₁, 0)` (same ODE; ϑ₂ ≡ 0 makes the
/// SLRK IIIA–IIIB and IIIB–IIIA stage systems singular).
#[derive(Clone, Copy, Debug, PartialEq, DegenerateLagrangian)]
#[lagrangian(q = [q1, q2], theta = [ln(q2) / q1, 0.0], hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2))]
pub struct LotkaVolterra2dSingular {
    /// a₁.
    pub a1: f64,
    /// a₂.
    pub a2: f64,
    /// b₁.
    pub b1: f64,
    /// b₂.
    pub b2: f64,
}

/// The degenerate pendulum: a linear one-form `ϑ = (q₂, 0)`, `H = q₂²/2 + cos q₁`
/// (`q̇₁ = q₂`, `q̇₂ = sin q₁`).
#[derive(Clone, Copy, Debug, PartialEq, Default, DegenerateLagrangian)]
#[lagrangian(q = [q1, q2], theta = [q2, 0.0], hamiltonian = q2 * q2 / 2.0 + cos(q1))]
pub struct DegeneratePendulum;

/// Guiding-centre motion of a charged particle (unit charge and mass) in a static magnetic field
/// invariant under translation along z, in Littlejohn's variational form: coordinates
/// `q = (x, y, z, u)` with u the velocity along the field, magnetic moment μ a parameter,
///
/// `L = (A(x) + u b(x))·ẋ − (u²/2 + μ|B|(x))`, so `ϑ = (A + u b, 0)`, `H = u²/2 + μ|B|`,
///
/// with `A = (−B₀y/2, B₀x/2, ψ(x, y))`, `B = ∇×A = (∂_yψ, −∂_xψ, B₀)`, `b = B/|B|` and the
/// flux function `ψ = (x² + κy²)/2 + ε(x² + y²)²/4` (an elliptic screw pinch: the projected field
/// lines are the closed level curves of ψ, along which |B| varies, so particles with small u
/// bounce between mirror points). `dϑ` is the guiding-centre two-form; its Pfaffian is
/// `B*_∥ = b·(B + u ∇×b)`, so the Euler–Lagrange equations
/// `ẋ = (u B* + μ b×∇|B|)/B*_∥`, `u̇ = −μ B*·∇|B|/B*_∥` (`B* = B + u∇×b`) are regular where
/// `B*_∥ ≠ 0`. Since neither ϑ nor H depends on z, the momentum conjugate to z,
/// `p_z = ϑ_z = ψ + u B₀/|B|`, is conserved (Noether), as is the energy H.
#[derive(Clone, Copy, Debug, PartialEq, DegenerateLagrangian)]
#[lagrangian(
    q = [x, y, z, u],
    definitions = [
        r2 = x * x + y * y,
        bx = x * (1.0 + epsilon * r2),
        by = y * (kappa + epsilon * r2),
        bmod = sqrt(b0 * b0 + powi(bx, 2) + powi(by, 2)),
    ],
    theta = [
        -b0 * y / 2.0 + u * by / bmod,
        b0 * x / 2.0 - u * bx / bmod,
        (x * x + kappa * y * y) / 2.0 + epsilon * r2 * r2 / 4.0 + u * b0 / bmod,
        0.0,
    ],
    hamiltonian = u * u / 2.0 + mu * bmod,
)]
pub struct GuidingCentre {
    /// The axial field B₀.
    pub b0: f64,
    /// The ellipticity κ of the flux surfaces near the axis.
    pub kappa: f64,
    /// The quartic coefficient ε of the flux function.
    pub epsilon: f64,
    /// The magnetic moment μ.
    pub mu: f64,
}

impl GuidingCentre {
    /// The example of `problems/guiding_centre.toml`: `B₀ = 1`, `κ = 4`, `ε = 1/2`,
    /// `μ = 1/40`.
    pub const SCREW_PINCH: GuidingCentre = GuidingCentre {
        b0: 1.0,
        kappa: 4.0,
        epsilon: 0.5,
        mu: 0.025,
    };

    /// The example's `q₀ = (1/2, 0, 0, 1/10)`: on the x axis, where |B| is least on its flux
    /// surface, with a parallel velocity too small to pass the maximum (a trapped orbit).
    pub const SCREW_PINCH_Q0: [f64; 4] = [0.5, 0.0, 0.0, 0.1];

    /// Consistent initial data `(q₀, ϑ(q₀))`.
    pub fn initial(&self, q0: [f64; 4]) -> (SVector<f64, 4>, SVector<f64, 4>) {
        let q0 = SVector::from(q0);
        (q0, self.theta(&q0))
    }
}

/// A charged particle (unit charge and mass) in an axisymmetric Penning-type trap, as a
/// phase-space Lagrangian in cylindrical coordinates: the position `(r, φ, z)` and the velocity
/// `(v_r, v_φ, v_z)` in the orthonormal frame are the six coordinates (D = 6), with
/// `ϑ = (v_r, r (A_φ + v_φ), v_z, 0, 0, 0)` for the vector potential
/// `A_φ = (B₀ r / 2)(1 + ε z²)` (a uniform axial field with a magnetic-mirror correction) and
/// `H = |v|²/2 + (k/2)(z² − r²/2)` (the electrostatic quadrupole). `φ` is cyclic: the canonical
/// angular momentum `p_φ = r (A_φ + v_φ)` is conserved. The orbits are bounded where
/// `B₀² > 2k` (Penning's condition at ε = 0).
#[derive(Clone, Copy, Debug, PartialEq, DegenerateLagrangian)]
#[lagrangian(
    q = [r, phi, z, vr, vphi, vz],
    theta = [
        vr,
        r * (b0 * r / 2.0 * (1.0 + epsilon * z * z) + vphi),
        vz,
        0.0,
        0.0,
        0.0,
    ],
    hamiltonian = (vr * vr + vphi * vphi + vz * vz) / 2.0 + k / 2.0 * (z * z - r * r / 2.0),
)]
pub struct PenningTrap {
    /// The axial field B₀.
    pub b0: f64,
    /// The mirror coefficient ε.
    pub epsilon: f64,
    /// The quadrupole's strength k.
    pub k: f64,
}

impl PenningTrap {
    /// The example of `problems/penning_trap.toml`: `B₀ = 1`, `ε = 1/2`, `k = 1/5`.
    pub const EXAMPLE: PenningTrap = PenningTrap {
        b0: 1.0,
        epsilon: 0.5,
        k: 0.2,
    };

    /// The example's `q₀`: `r = 1`, `φ = 0`, `z = 1/10`, `v = (1/10, 1/5, 0)`.
    pub const EXAMPLE_Q0: [f64; 6] = [1.0, 0.0, 0.1, 0.1, 0.2, 0.0];

    /// Consistent initial data `(q₀, ϑ(q₀))`.
    pub fn initial(&self, q0: [f64; 6]) -> (SVector<f64, 6>, SVector<f64, 6>) {
        let q0 = SVector::from(q0);
        (q0, self.theta(&q0))
    }
}

macro_rules! lotka_volterra_data {
    ($ty:ident) => {
        impl $ty {
            /// Upstream's defaults: `a = (−1, −1)`, `b = (1, 2)`, `q₀ = (2, 1)`.
            pub const UPSTREAM: $ty = $ty {
                a1: -1.0,
                a2: -1.0,
                b1: 1.0,
                b2: 2.0,
            };
            /// The SPARK test configuration: `a = (1, 1)`, `b = (−1, −2)`, `q₀ = (1, 1)`.
            pub const SPARK_TEST: $ty = $ty {
                a1: 1.0,
                a2: 1.0,
                b1: -1.0,
                b2: -2.0,
            };

            /// Upstream's default `q₀ = (2, 1)`.
            pub const UPSTREAM_Q0: [f64; 2] = [2.0, 1.0];
            /// The SPARK test configuration's `q₀ = (1, 1)`.
            pub const SPARK_TEST_Q0: [f64; 2] = [1.0, 1.0];

            /// Consistent initial data `(q₀, ϑ(q₀))`.
            pub fn initial(&self, q0: [f64; 2]) -> (SVector<f64, 2>, SVector<f64, 2>) {
                let q0 = SVector::from(q0);
                (q0, self.theta(&q0))
            }
        }
    };
}

lotka_volterra_data!(LotkaVolterra2d);
lotka_volterra_data!(LotkaVolterra2dSingular);

impl DegeneratePendulum {
    /// `q₀ = (arccos 0.4, 0)`, `p₀ = ϑ(q₀)`.
    pub fn initial(&self) -> (SVector<f64, 2>, SVector<f64, 2>) {
        let q0 = SVector::from([0.4f64.acos(), 0.0]);
        (q0, self.theta(&q0))
    }
}

/// The planar pendulum in Jay's index-2 form, an implicit DAE that is not a degenerate
/// Lagrangian: `q = (x, y) ∈ ℝ²`, mass m, gravity g along −y, length ℓ (`D = 2`, `M = 1`).
///
/// With the position constraint `c(q) = (|q|² − ℓ²)/2`, `G(q) = ∂c/∂q = qᵀ`, the system
/// `q̇ = v`, `ṗ = f(q, v) − G(q)ᵀλ`, `p = m v`, `0 = G(q) M⁻¹ p` reads
///
/// `ϑ(q, v) = m v`, `f(q, v) = (0, −m g)`, `u = 0`, `g(q, p, λ) = −λ q`, `φ(q, p) = q·p/m`
///
/// (the hidden constraint `d c/dt = 0`; `c(q) = 0` itself is an invariant of the exact flow),
/// with the initial velocity `v̄ = p/m` and the energy `E = |p|²/(2m) + m g y`.
#[derive(Clone, Copy, Debug, PartialEq, ImplicitDae)]
#[implicit_dae(
    q = [x, y],
    v = [vx, vy],
    p = [px, py],
    lambda = [lam],
    theta = [m * vx, m * vy],
    force = [0.0, -m * g],
    u = [0.0, 0.0],
    g = [-lam * x, -lam * y],
    phi = [(x * px + y * py) / m],
    velocity = [px / m, py / m],
    energy = (px * px + py * py) / (2.0 * m) + m * g * y,
)]
pub struct IndexTwoPendulum {
    /// Mass m.
    pub m: f64,
    /// Gravitational acceleration g.
    pub g: f64,
    /// Length ℓ.
    pub l: f64,
}

impl Default for IndexTwoPendulum {
    /// `m = g = ℓ = 1`.
    fn default() -> Self {
        IndexTwoPendulum {
            m: 1.0,
            g: 1.0,
            l: 1.0,
        }
    }
}

impl IndexTwoPendulum {
    /// The consistent state at angle θ₀ from the downward vertical with angular velocity ω₀,
    /// that of the Cartesian [`Pendulum`]: `q₀ = ℓ(sin θ₀, −cos θ₀)`,
    /// `p₀ = m ℓ ω₀ (cos θ₀, sin θ₀)` (so `|q₀| = ℓ` and `φ(q₀, p₀) = 0`).
    pub fn initial_state(&self, theta0: f64, omega0: f64) -> (SVector<f64, 2>, SVector<f64, 2>) {
        let IndexTwoPendulum { m, g, l } = *self;
        Pendulum { m, g, l }.state(theta0, omega0)
    }
}

/// Lotka–Volterra 2d as a Hamiltonian DAE with Dirac constraints, written with
/// `#[derive(HamiltonianDae)]` from its Hamiltonian and primary constraint alone:
/// `H(q, p) = a₁q₁ + a₂q₂ + b₁ ln q₁ + b₂ ln q₂` (no p: the Lagrangian is degenerate) and
/// `φ(q, p) = p − ϑ(q)` with the standard gauge `ϑ = (q₂ + ln q₂/q₁, q₁)`. Dirac's total
/// Hamiltonian `H + λ·φ` gives `v = 0`, `f = −∇H`, `u = λ`, `g = Jᵀλ`: the view
/// [`DiracHamiltonian`](crate::problem::DiracHamiltonian) of [`LotkaVolterra2d`], derived
/// symbolically instead of from the one-form's kernels.
#[derive(Clone, Copy, Debug, PartialEq, HamiltonianDae)]
#[hamiltonian_dae(
    q = [q1, q2],
    p = [p1, p2],
    lambda = [l1, l2],
    hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2),
    phi = [p1 - (q2 + ln(q2) / q1), p2 - q1],
)]
pub struct LotkaVolterraDirac {
    /// a₁.
    pub a1: f64,
    /// a₂.
    pub a2: f64,
    /// b₁.
    pub b1: f64,
    /// b₂.
    pub b2: f64,
}

impl From<LotkaVolterra2d> for LotkaVolterraDirac {
    fn from(LotkaVolterra2d { a1, a2, b1, b2 }: LotkaVolterra2d) -> Self {
        LotkaVolterraDirac { a1, a2, b1, b2 }
    }
}

/// The planar pendulum's index-2 form as a Hamiltonian DAE (`D = 2`, `M = 1`), written with
/// `#[derive(HamiltonianDae)]`: `H = |p|²/(2m) + m g y` gives `v = p/m`, `f = (0, −m g)`; the
/// constraint is the hidden one of `|q| = ℓ`, `φ = q·p/m`, with the projection given explicitly,
/// `u = 0`, `g = −λ q` (not Dirac's: a single constraint is first class, `{φ, φ} = 0`).
/// `∂φ/∂q · ∂u/∂λ + ∂φ/∂p · ∂g/∂λ = −|q|²/m`: index 2.
#[derive(Clone, Copy, Debug, PartialEq, HamiltonianDae)]
#[hamiltonian_dae(
    q = [x, y],
    p = [px, py],
    lambda = [lam],
    hamiltonian = (px * px + py * py) / (2.0 * m) + m * g * y,
    phi = [(x * px + y * py) / m],
    u = [0.0, 0.0],
    g = [-lam * x, -lam * y],
)]
pub struct HamiltonianPendulum {
    /// Mass m.
    pub m: f64,
    /// Gravitational acceleration g.
    pub g: f64,
}
