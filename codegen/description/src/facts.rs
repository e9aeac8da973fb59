//! What a method's stage structure implies for its users, decided by the builder that chooses
//! the structure (never from the method's name) and carried by its description to every
//! consumer: the emitted stepper, the command's listing, `verify` and the tests.

use serde::{Deserialize, Serialize};

/// The facts of one method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facts {
    /// The stage equations impose the constraint at the step's end, `φ(q_{n+1}, p_{n+1}) = 0`
    /// (`p = ϑ(q)` on a degenerate Lagrangian; `c(q) = 0` and `G M⁻¹ p = 0` on a holonomic
    /// system), so it holds to round-off at every step.
    pub preserves_constraint: bool,
    /// What the carried multiplier `λ_n` is, for a method that carries one.
    pub multiplier: Option<Multiplier>,
    /// The declared order holds where the one-form ϑ is linear (VPRK is then collocation on the
    /// ODE `Ω q̇ = −∇H`); on a nonlinear one-form the problem is an index-2 DAE and the order
    /// drops (VPRK Gauss(s): `2⌈s/2⌉`).
    pub needs_linear_one_form: bool,
}

/// The carried multiplier `λ_n` on the view of a degenerate Lagrangian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Multiplier {
    /// A projection multiplier: the internal velocities `V_i` carry the motion and `λ` vanishes
    /// on the exact flow, so its size measures the method's defect (VPARK, VSPARK…).
    Projection,
    /// The velocity: without internal velocity unknowns `u(Q̃, P̃, Λ̃)` carries the motion
    /// (`u = λ` on the views `LagrangianDae` and `DiracHamiltonian`), so `λ_n` is `q̇`, whose
    /// size says nothing of a defect (SPARK, HSPARK, HPARK).
    Velocity,
}

impl Facts {
    /// A method that imposes the constraint at the step's end or not, carries no multiplier and
    /// has its order on every one-form.
    pub fn new(preserves_constraint: bool) -> Facts {
        Facts {
            preserves_constraint,
            multiplier: None,
            needs_linear_one_form: false,
        }
    }
}
