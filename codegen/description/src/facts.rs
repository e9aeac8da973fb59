//! What a method's stage structure implies for its users, decided by the builder that chooses
//! the structure (never from the method's name), what was measured of it (its pins and
//! limitations) and its class in the method guide, carried by its description to every
//! consumer: the emitted stepper, the registry of steppers, the command's listing, `verify` and
//! the tests.

use serde::{Deserialize, Serialize};

/// The facts of one method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Its measured behaviour on the verification problems where it departs from the declared
    /// order, with its cause.
    pub pinned: Option<Pin>,
    /// The same on the pendulum's index-2 form (implicit-DAE steppers).
    pub pinned_on_index_two_pendulum: Option<Pin>,
    /// The names of its measured limitations (the causes of its pins among them); the texts are
    /// kept once, beside the generator's measurements (`generated::measured`).
    pub limitations: Vec<String>,
    /// Its class in the method guide and why, decided over the whole catalogue (`None` for a
    /// method described outside it).
    pub recommendation: Option<Recommendation>,
    /// How its energy error behaves over long runs, measured (`None`: not measured), and
    /// whether it is the method guide's pick for long runs of its problem kind.
    pub long_run: Option<LongRun>,
}

/// How the energy error `|H(q_n, p_n) − H(q₀, p₀)|` of a method behaves as the number of steps
/// `n` grows at a fixed step size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Energy {
    /// It oscillates about a level set by the step size and does not grow with `n`.
    Bounded,
    /// It grows with `n` (a secular drift).
    Drifts,
}

impl Energy {
    /// Both, bounded first.
    pub const ALL: [Energy; 2] = [Energy::Bounded, Energy::Drifts];

    /// The name, e.g. `Bounded`.
    pub fn name(self) -> &'static str {
        match self {
            Energy::Bounded => "Bounded",
            Energy::Drifts => "Drifts",
        }
    }

    /// What it means, one sentence.
    pub fn meaning(self) -> &'static str {
        match self {
            Energy::Bounded => {
                "the energy error oscillates about a level set by the step size and does not \
                 grow with the number of steps"
            }
            Energy::Drifts => "the energy error grows with the number of steps",
        }
    }
}

/// A method's measured long-run behaviour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongRun {
    /// Whether its energy error stays bounded or drifts.
    pub energy: Energy,
    /// The name of the measurement (`generated::measured::{NAME}` holds its text).
    pub reason: String,
    /// It is the method guide's recommendation for long runs of its problem kind: of the
    /// kind's recommendable methods whose energy error stays bounded, the one of the highest
    /// order with the fewest unknowns.
    pub recommended: bool,
}

/// What `sparkgen verify` expects of a method that does not reach its declared order; every
/// cause is the name of a measured reason (`generated::measured`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pin {
    /// A measured order other than the declared one.
    Order {
        /// The order.
        order: f64,
        /// The cause.
        reason: String,
    },
    /// The long run stops at once with an error whose message contains `error`, and no order
    /// can be fitted.
    Fails {
        /// Text of the expected error.
        error: String,
        /// The cause.
        reason: String,
    },
    /// The order holds on the sweep, but the carried multiplier grows without bound over the
    /// long run (a parasitic mode).
    Parasitic {
        /// The order.
        order: f64,
        /// The cause.
        reason: String,
    },
    /// Runs stop or end non-finite at some step sizes and the errors follow no order.
    Erratic {
        /// The cause.
        reason: String,
    },
    /// Every run of the sweep converges, but to something else (order 0).
    NoConvergence {
        /// The cause.
        reason: String,
    },
}

impl Pin {
    /// The name of the cause.
    pub fn reason(&self) -> &str {
        match self {
            Pin::Order { reason, .. }
            | Pin::Fails { reason, .. }
            | Pin::Parasitic { reason, .. }
            | Pin::Erratic { reason }
            | Pin::NoConvergence { reason } => reason,
        }
    }
}

/// The class of a method in the method guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Class {
    /// The method to pick for its problem kind and order: it preserves the constraint, reaches
    /// its declared order, has no pin and no limitation, and has the fewest unknowns of those
    /// that do.
    Recommended,
    /// It converges; its reason says what to weigh (a limitation, a measured order below the
    /// declared one, a constraint not imposed, or the recommended alternative).
    Suitable,
    /// Kept to reproduce upstream's convention side by side.
    Reference,
    /// Pinned not to deliver an order: do not use it.
    Avoid,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 4] = [
        Class::Recommended,
        Class::Suitable,
        Class::Reference,
        Class::Avoid,
    ];

    /// The name, e.g. `Recommended`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Recommended => "Recommended",
            Class::Suitable => "Suitable",
            Class::Reference => "Reference",
            Class::Avoid => "Avoid",
        }
    }

    /// What the class means, one sentence.
    pub fn meaning(self) -> &'static str {
        match self {
            Class::Recommended => {
                "the method to pick for its problem kind and order: it imposes the constraint at \
                 every step, reaches its declared order, has no pinned behaviour and no measured \
                 limitation, and has the fewest unknowns of those that do"
            }
            Class::Suitable => {
                "it converges; the reason names what to weigh (a limitation, a measured order \
                 below the declared one, a constraint not imposed, or the recommended \
                 alternative)"
            }
            Class::Reference => {
                "kept to reproduce one of upstream's conventions side by side; use the \
                 documented form instead"
            }
            Class::Avoid => {
                "pinned not to deliver an order (it fails, behaves erratically, converges to \
                 something else, has a parasitic multiplier mode or reaches order 1 only)"
            }
        }
    }
}

/// A method's class and why, in one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recommendation {
    /// The class.
    pub class: Class,
    /// Why, one line; it names the measured cause (`generated::measured::{NAME}`) if any.
    pub reason: String,
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
    /// A method that imposes the constraint at the step's end or not, carries no multiplier,
    /// has its order on every one-form and nothing measured (yet).
    pub fn new(preserves_constraint: bool) -> Facts {
        Facts {
            preserves_constraint,
            multiplier: None,
            needs_linear_one_form: false,
            pinned: None,
            pinned_on_index_two_pendulum: None,
            limitations: Vec::new(),
            recommendation: None,
            long_run: None,
        }
    }
}
