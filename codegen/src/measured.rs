//! Measured behaviour of the generated steppers, kept as data beside the builders and emitted
//! with every stepper (`generated::measured`, `types::MethodFacts`): the behaviour that departs
//! from a method's declared order, pinned with its cause so that `sparkgen verify` checks the
//! method against what it does (and fails when that changes), the limitations
//! `sparkgen methods` lists, and whether the energy error stays bounded or drifts over long runs
//! ([`LongRun`], `generated::measured::LONG_RUN`). Every entry was measured by `sparkgen verify` on its problem
//! (Lotka–Volterra in the SPARK test configuration; VPRK on the degenerate pendulum; the
//! implicit-DAE steppers also on the pendulum's index-2 form); the reasons name the mathematics
//! where it is known and say so where it is not.
//!
//! Entries name the families they apply to, one by one: an implicit-DAE stepper on the view of
//! a degenerate Lagrangian solves the same stage equations as the family's own stepper, and so
//! does HSPARK on the view `DiracHamiltonian` as SPARK, so each entry lists those spellings too.

use crate::method::ir::ProblemKind;
use sparkgen_description::facts::{Energy, Pin};

/// A cause or limitation, emitted as the named constant `generated::measured::{name}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The constant's name.
    pub name: &'static str,
    /// The text.
    pub text: &'static str,
}

/// Declares each reason as a constant named as in `generated::measured`, and [`REASONS`].
macro_rules! reasons {
    ($($(#[$meta:meta])* $name:ident = $text:literal;)*) => {
        $($(#[$meta])* const $name: Reason = Reason {
            name: stringify!($name),
            text: $text,
        };)*

        /// Every reason, in the order `generated::measured` lists them.
        pub const REASONS: &[Reason] = &[$($name),*];
    };
}

reasons! {
    GLRK_LOBATTO = "SPARK's internal stages sit at the Lobatto nodes c̄₂..c̄_σ but are weighted \
     by the Gauss weights (Σ bᵢc̄ᵢ ≠ ½): the coupling is consistent only for VSPARK, whose \
     internal velocities carry the Gauss stages";
    GAUSS_INDEX_2 = "the same method as VPRK Gauss(s), which on this index-2 problem (a \
     nonlinear one-form) reaches 2⌈s/2⌉, not 2s";
    INCONSISTENT = "over SPARKGLRK the internal and projective slots coincide, so V and \
     Λ̃ enter only as V + Λ̃: the stage Jacobian has rank 4 of 8 at s = 2 and the residual has \
     a component outside its range (no solution; upstream's LU throws); see \
     docs/upstream_cases.md";
    LOB_ABC = "measured 2s − 3 for s = 2, 3, 4: the projective stages coincide with \
     the internal ones, the (s − 1)·D null space of the stage Jacobian is a pure gauge, and at \
     s = 2 the step is exactly the first-order one-point scheme ϑ(q₁) − ϑ(q₀) = \
     J(q₁)ᵀ(q₁ − q₀) − h∇H(q₁); 2s − 3 for s = 3, 4 is measured, not derived \
     (docs/upstream_cases.md)";
    FIXED_LOBATTO = "upstream defines the fixed VSPARKLob… tableaus for s = 2 (its \
     default); for s ≥ 3 the stage Jacobian is singular at the first step (pivots 1e-20–1e-16): \
     no null vector fixes a gauge of the s Lobatto internal velocities, and minimum-norm steps \
     (tried) stall at residuals 1e-4–1e-6 or reach a non-finite state";
    MIDPOINT_AB4 = "measured 4.01 for s = 4 (R∞ = −1, so the projective weight \
     β = (1 + R∞)/2 = 0); the same projection over IIIB–IIIA reaches 6; the cause is not yet \
     established";
    LOB_ABD = "at s = 2 the stage equations force q₁ = q₀, p₁ = p₀ and ∇H = 0 at the \
     internal position: their only solutions sit at the equilibrium of H with unknowns of size \
     1/h, and Newton from the usual guess ends non-finite; at s = 3, 4, D singular values of the \
     stage Jacobian vanish one power of h faster than the rest: runs end non-finite (s = 3) or \
     the errors stall near 1e-11 (s = 4) (docs/upstream_cases.md)";
    VPRK_LOBATTO_AB = "order 2s − 4 on the degenerate pendulum (measured 2.00 at s = 3, \
     4.02 at s = 4): VPRK over Lobatto IIIA–IIIB with the null vector; the cause is not yet \
     established";
    VPARK_AB = "the multiplier λ_n = Λ̃₂ carried through Λ̃₁ = λ_n has a parasitic \
     mode over Lobatto IIIA–IIIB: |λ| grows from step to step until the run of h = 0.1 breaks \
     down (non-finite at t ≈ 2.2, 6.5, 10.5 for s = 2, 3, 4 without the multiplier watch, which \
     stops it at t = 2.1, 6.0, 10.3; t ≈ 2.9 at s = 3 with upstream's R∞ = −1); over IIIB–IIIA \
     it stays O(h²) and bounded";
    VSPARK_BA2 = "the multiplier grows slowly over the long run of h = 0.1 (×2.2 from \
     the first half of T = 100 to the second, max |λ| 0.61, no breakdown); the order holds. λ is \
     an output the rank-deficient stage equations do not determine (it moves along their null \
     space, (q₁, p₁) does not): its size is the minimum-norm Newton's choice";
    R_INF_UPSTREAM = "upstream's R∞ = −1 (Julia parses -1^(s+1) as −(1^(s+1))) where \
     (−1)^{s+1} = +1 at s = 3; kept to measure upstream side by side, the documented R∞ reaches \
     the declared order";
    R_INF_UPSTREAM_ORDER_2 = "upstream's R∞ = −1 where (−1)^{s+1} = +1 at s = 3: the \
     projective weight β = (1 + R∞)/2 vanishes and the order drops to 2 (the long run stalls at \
     step 52 of h = 0.1)";
    R_INF_UPSTREAM_SINGULAR = "upstream's R∞ = −1 where (−1)^{s+1} = +1 at s = 3: over \
     IIIB–IIIA(3) the stage Jacobian is singular at the first step (upstream's `VSPARKLobatto\
     IIIBIIIApSymmetric(3)` stall); the documented R∞ reaches order 4";
    R_INF_UPSTREAM_STALLS = "upstream's R∞ = −1 where (−1)^{s+1} = +1 at s = 3: order 4 \
     holds over T = 1, but Newton stalls in the long run of h = 0.1 (step 57)";
    R_INF_UPSTREAM_MARGINAL = "upstream's R∞ = −1 where (−1)^{s+1} = +1 at s = 3: order \
     4 holds (4.21), but Newton is marginal at the coarsest sweep step h = 0.05 (it fails there \
     in the debug build and converges in release)";
    R_INF_UPSTREAM_ERRATIC = "upstream's R∞ = −1 where (−1)^{s+1} = +1 at s = 3: the \
     sweep measures 3.4–4.4 and the long run of h = 0.1 ends non-finite (step ≈ 843)";
    UPSTREAM_MU_SINGULAR = "upstream's SPARK μ (compatibility form): the stage \
     Jacobian is singular at upstream's guess μ = 0 (measured pivots 0, −8.0e-23, −8.4e-22 at \
     s = 2, 3, 4, step 1). At s = 2 exactly: μ₁ enters only Q₁ and Q₂ (weights ∓h d₁/b₁), \
     which coincide at μ = 0, and then only through p₁ = p₀ + ½h(F₁ + F₂) + …, so its column \
     is ½h²(d₁/b₁)(∇²H(Q₁) − ∇²H(Q₂))e₂ = 0. Upstream's unchecked LU runs on through the zero \
     pivot (non-finite at s = 2, errors 0.58 and 0.03 at s = 3, 4)";
    UPSTREAM_MU_AB2 = "upstream's SPARK μ (compatibility form): the stage Jacobian \
     is singular at the second step of h = 0.1 (pivot 1.2e-29) and at every step size of the \
     sweep; upstream records error 0.18";
    UPSTREAM_MU_AB3 = "upstream's SPARK μ (compatibility form), measured 2.45–2.47 \
     with local slopes rising 2.40 → 2.49 (upstream's §6.2 records ~2.4 of 4); without μ the \
     method reaches 4 and equals SLRK over the pair";
    UPSTREAM_MU_AB4 = "upstream's SPARK μ (compatibility form): the errors fall \
     erratically (6.3e-11, 1.3e-11, 2.0e-13 at h = 1/384, 1/512, 1/768) and the long run of \
     h = 0.1 stalls in Newton at step 8946 (upstream passes a loosened 8e-10); without μ, \
     order 6";
    OMEGA_MU = "upstream's documented SPARK μ (on the ω rows, compatibility form): \
     the last ω row becomes φ(q_{n+1}, p_{n+1}) = (d_s/b_s)μ, so p = ϑ(q) is lost (max |φ| \
     7.6e-3 to 1.3 over the long run of h = 0.1, which ends non-finite over IIIA–IIIB at steps \
     27, 57, 120 and over IIIB–IIIA(3) at step 2276) and the order drops to 2⌊s/2⌋ (2.00, \
     2.00, 4.03 at s = 2, 3, 4): not a fix";
    HPARK_LOBATTO = "HPARK over a Lobatto pair carries Λ̃₁ = λ_n and imposes φ at the \
     other s − 1 stages: the multiplier's defect |λ_n − λ̂(q_n, p_n)| grows by a factor per step \
     that does not shrink with h (2.6–2.9 at s = 2, 1.9–2.6 at s = 3, 1.1–1.6 at s = 4, measured \
     at h = 0.1, 0.01, 0.001), a parasitic mode (upstream's blow-up). The multiplier watch stops \
     every run after a converged step, before any step fails or a value stops being finite: \
     the exact one-step amplification ρ(R) of the scaled constraint and multiplier errors \
     (φ/h, λ) is h-independent at the consistent start (2.62 at s = 2, 1.80 at s = 3; \
     1 + O(h) at s = 4, growing with the defect); over IIIB–IIIA(4) at h = 0.1 the defect is \
     0.48 of its scale at step 24 with ρ(R) = 2.99, step 25 would fail (tests/tests/hspark.rs)";
    HSPARK_PRIMARY = "the symmetric projection replaces the constraint force h∫g dt by \
     the end-point impulses h(G(q_n, Λ̃) + G(q_{n+1}, Λ̃))/2 (Λ̃₁ = Λ̃₂), a trapezoidal rule: \
     order 2 whatever s, measured also on the pendulum's index-2 form (2.00 at every s, \
     tests/tests/hspark.rs); on the Dirac view v ≡ 0 and every internal stage sits at \
     q_n + hΛ̃/2";
    VPARK_TRAPEZOID = "on a physical multiplier (the tension) VPARK's projective \
     weights β = (½, R∞/2) with R∞ = +1 carry the constraint force g(λ) into p_{n+1} by the \
     trapezoidal rule, whatever the internal tableau: order 2, the same error constants across \
     tableaus (tests/tests/idae_pendulum.rs)";
    VPARK_INCONSISTENT = "on a physical multiplier (the tension) VPARK's projective \
     weights β = (½, R∞/2) with R∞ = −1 give the constraint force the weight ½(G̃₁ − G̃₂) = \
     O(h): the tension never enters the momentum, and the method is inconsistent (0.25–0.27 \
     from the solution at T = 1 for every h when run to the end). Its multiplier leaves the \
     tension, the defect growing by 1.63 per step to 4.7 at step 4 of h = 0.1, and the \
     multiplier watch stops every run there (tests/tests/idae_pendulum.rs)";
    SPARK_STANDS_STILL = "SPARK in upstream's form has no internal velocity: u(Q̃, P̃, \
     Λ̃) must carry the motion, and with u = 0 the positions never move";
    SPARK_FIRST_STAGE_FIXED = "singular stage Jacobian at the first step: with u = 0 \
     the first projective stage is Q̃₁ = q_n, and the zero first row of the momentum tableau \
     (IIIA) makes P̃₁ = p_n, so the constraint there involves no unknown (besides SPARK's \
     standing still with u = 0)";
    IIIAB2_UPSTREAM_DEFAULTS = "stops (non-finite state) at step 267 on Lotka–Volterra with upstream's defaults, q₀ = (2, 1), at h = 0.1; finishes 1000 steps in the SPARK test configuration";
    IIICCBAR2_UPSTREAM_DEFAULTS = "stops (singular stage Jacobian) at step 407 on Lotka–Volterra with upstream's defaults, q₀ = (2, 1), at h = 0.1; finishes 1000 steps in the SPARK test configuration";
    SINGULAR_GAUGE = "singular stage system in the singular gauge ϑ = (ln q₂/q₁, 0)";
    VPRK_LOBATTO_PARASITIC = "parasitic mode |λ| ≈ 1 + 3.2h on Lotka–Volterra";
    VPRK_GAUSS_ORDER = "order 2⌈s/2⌉ on Lotka–Volterra (index-2 DAE); 2s on a linear one-form";
    VPRK_GAUSS2_LONG_TIME = "no long-time method on Lotka–Volterra: p − ϑ(q) undamped and the energy error \
           unbounded (h = 0.05: 4.8e-2 by T = 10³, 1.28 by T = 10⁴; h = 0.1: non-finite state \
           at t = 2818.7; runtime/tests/vprk_projection.rs)";
    VPRK_GAUSS3_WANDERS = "nothing damps p − ϑ(q), which wanders over long runs and carries the energy error \
           (Lotka–Volterra, h = 0.05, T = 10⁴: |p − ϑ(q)| 1.4e-6, energy 1.6e-6); \
           VsparkPrimaryGlrkpMidpoint3 holds it at 7e-15 with 1.2e-10 \
           (runtime/tests/vprk_projection.rs)";
    SINGULAR_WITHOUT_U = "singular stage Jacobian at the first step where u ≡ 0 (a projection acting on p \
           only, e.g. the pendulum's index-2 form; tests/tests/hspark.rs)";
    /// The limitation of every method whose stage equations do not force the constraint at the
    /// step's end (`MethodFacts::preserves_constraint`).
    NOT_CONSTRAINT_PRESERVING = "does not impose φ(q_{n+1}, p_{n+1}) = 0 (p = ϑ(q)): not constraint-preserving";
    LONG_RUN_GAUSS_PROJECTION = "energy error bounded on Lotka–Volterra at h = 0.1: the \
     largest |H − H₀|/|H₀| over the last tenth of 10⁴ steps equals that over the first, 4.5e-3 \
     (s = 1), 7.9e-6 (s = 2), 8.3e-9 (s = 3), 1.2e-11 (s = 4), for every projection over the \
     Gauss internal stages (VSPARKprimary, VSPARK over GLRK–Lobatto, VPARK); over 10⁵ steps the \
     maximum of every tenth stays within 5 % of the first (1.19e-11 to 1.30e-11 at s = 4). \
     Not recorded: VPARK(1), which the multiplier watch stops at step 11, and VSPARK over \
     GLRK–Lobatto IIIB–IIIA at s = 3 (non-finite at step 25) and s = 4 (1.5e-11 to 6.4e-11 \
     over 10⁵ steps, no steady trend)";
    LONG_RUN_LOBATTO_IIIB_IIIA_PROJECTION = "energy error bounded on Lotka–Volterra at h = \
     0.1: 4.5e-3 (s = 2), 1.4e-5 (s = 3), 2.5e-8 (s = 4) over the first and the last tenth of \
     10⁴ steps and over every tenth of 10⁵ steps, for the projections over the Lobatto IIIB–IIIA \
     internal stages (VSPARKprimary, the modified Lobatto projections at s = 2 and 4; VPARK at \
     s = 3 and 4, whose s = 2 the multiplier watch stops at step 11)";
    LONG_RUN_FIXED_LOBATTO = "energy error bounded on Lotka–Volterra at h = 0.1, s = 2: the \
     same maximum of |H − H₀|/|H₀| over every tenth of 10⁴ and of 10⁵ steps, 8.6e-3 \
     (VSPARKprimary LobABCCD, LobABDE, LobABD, LobDE), 1.1e-3 (LobABCCE, LobABED, LobABE, \
     LobED), 4.5e-3 (SPARK and HSPARK LobABC, LobABD)";
    LONG_RUN_LOBATTO_PAIR_DRIFT = "energy error drifts on Lotka–Volterra at h = 0.1, about \
     linearly in the number of steps: the largest |H − H₀|/|H₀| over the last tenth of 10⁴ \
     steps is 8 to 10 times that over the first, Lobatto IIIE 4.6e-4 → 4.4e-3 (s = 3), 9.1e-7 → \
     8.9e-6 (s = 4), 1.2e-9 → 1.2e-8 (s = 5); IIIA–IIIB 1.3e-3 → 1.4e-2, 2.0e-6 → 2.0e-5, \
     2.6e-9 → 2.5e-8; IIIB–IIIA 6.8e-4 → 6.5e-3, 9.5e-7 → 9.4e-6, 1.4e-9 → 1.4e-8; \
     IIIC–IIIC̄ 5.6e-5 → 4.5e-4, 5.1e-8 → 4.6e-7, 9.2e-11 → 7.9e-10; IIIC̄–IIIC 6.9e-5 → \
     6.4e-4, 3.7e-8 → 2.9e-7, 7.2e-11 → 6.3e-10 (SLRK; SPARK, VSPARK, VSPARKsecondary and \
     HSPARK over the same pairs give the same figures). Over 10⁵ steps the maximum of every \
     tenth grows steadily, e.g. IIIE at s = 2 (1.9e-3 → 8.3e-3 over 10⁴ steps, ×4.5, which does \
     not decide) from 8.2e-3 in the first tenth to 5.7e-2 in the last";
    LONG_RUN_GLRK_LOBATTO_SECONDARY_DRIFT = "energy error drifts on Lotka–Volterra at h = \
     0.1: the largest |H − H₀|/|H₀| over the last tenth of 10⁴ steps is 6 to 10 times that over \
     the first at s = 2 and 3: GLRK–Lobatto IIIA–IIIB 1.4e-3 → 1.4e-2, 2.1e-6 → 2.0e-5; \
     IIIB–IIIA 6.8e-4 → 6.5e-3, 9.5e-7 → 9.4e-6; IIIC–IIIC̄ 4.2e-5 → 2.7e-4, 3.2e-8 → 2.6e-7; \
     IIIC̄–IIIC 3.8e-5 → 3.2e-4, 2.7e-8 → 1.9e-7; IIIE 5.9e-4 → 5.7e-3, 8.6e-7 → 8.4e-6; \
     IIID, undecided over 10⁴ steps (1.8e-5 → 4.3e-5, 1.3e-8 → 2.8e-8), grows steadily over \
     10⁵ steps (4.1e-5 → 2.9e-4, 2.6e-8 → 1.8e-7 from the first tenth to the last)";
    LONG_RUN_SPARK_DRIFT = "energy error drifts on Lotka–Volterra at h = 0.1, about \
     linearly: the largest |H − H₀|/|H₀| over the last tenth of 10⁴ steps is 9 to 10 times that \
     over the first, SPARK GLRK 1.1e-3 → 1.0e-2 (s = 2), 1.9e-6 → 1.8e-5 (s = 3), 2.5e-9 → \
     2.4e-8 (s = 4); SPARK LobABC and LobABD 8.0e-4 → 7.5e-3 (s = 3), 1.9e-6 → 1.9e-5 (s = 4); \
     HSPARK on the view DiracHamiltonian the same; over 10⁵ steps ×7 to ×10 from the first \
     tenth to the last";
    LONG_RUN_LOBATTO_D_DRIFT = "energy error drifts slowly on Lotka–Volterra at h = 0.1: \
     over 10⁴ steps the last tenth's maximum of |H − H₀|/|H₀| is 1.1 to 5.2 times the first's, \
     which does not decide; over 10⁵ steps the maximum of every tenth grows steadily, 4.3e-2 → \
     1.7e-1 (s = 2), 1.3e-5 → 1.0e-4 (s = 3), 1.7e-8 → 8.0e-8 (s = 4), 1.7e-11 → 2.9e-11 \
     (s = 5) from the first tenth to the last (SLRK Lobatto IIID; VSPARKsecondary IIID and \
     VSPARKprimary IIIA–IIIB with the Lobatto IIIB–IIIA projection give the same figures, the \
     modified one at s = 2)";
    LONG_RUN_LOBATTO_PROJECTION_DRIFT = "energy error drifts on Lotka–Volterra at h = 0.1: \
     the maximum of |H − H₀|/|H₀| over every tenth of 10⁵ steps grows steadily, ×7 to ×25 from \
     the first tenth to the last, for the VSPARKprimary projections over the Lobatto IIIA–IIIB \
     internal stages (midpoint 1.7e-3 → 1.8e-2 at s = 3 and 4.4e-4 → 4.3e-3 at s = 4 over 10⁴ \
     steps; symmetric and Lobatto IIIA–IIIB 3.4e-5 → 2.5e-4 at s = 3 and 7.0e-8 → 6.3e-7 at \
     s = 4 over 10⁵ steps; modified Lobatto 3.6e-5 → 3.4e-4 and 9.2e-5 → 9.1e-4 at s = 3, \
     1.1e-5 → 1.1e-4 at s = 4 over 10⁵ steps) and for the modified Lobatto projections over \
     IIIB–IIIA at s = 3 (6.2e-5 → 5.2e-4 over 10⁴ steps)";
}

/// What `sparkgen verify` expects of a method that does not reach its declared order (emitted
/// as `types::Pinned`, the order evaluated at the method's s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pinned {
    /// A measured order other than the declared one.
    Order(Order, Reason),
    /// The long run stops at once with an error whose message contains this text, and no order
    /// can be fitted.
    Fails(&'static str, Reason),
    /// The order holds on the sweep, but the carried multiplier grows without bound over the
    /// long run (a parasitic mode).
    Parasitic(Order, Reason),
    /// Runs stop or end non-finite at some step sizes and the errors follow no order.
    Erratic(Reason),
    /// Every run of the sweep converges, but to something else (order 0).
    NoConvergence(Reason),
}

impl Pinned {
    /// The cause.
    pub fn reason(&self) -> Reason {
        match self {
            Pinned::Order(_, reason)
            | Pinned::Parasitic(_, reason)
            | Pinned::Fails(_, reason)
            | Pinned::Erratic(reason)
            | Pinned::NoConvergence(reason) => *reason,
        }
    }
}

impl Pinned {
    /// The pin as a description carries it: the order evaluated at `s` stages, the cause by
    /// name.
    pub fn at(self, s: usize) -> Pin {
        let reason = self.reason().name.to_owned();
        match self {
            Pinned::Order(order, _) => Pin::Order {
                order: order.at(s),
                reason,
            },
            Pinned::Fails(error, _) => Pin::Fails {
                error: error.to_owned(),
                reason,
            },
            Pinned::Parasitic(order, _) => Pin::Parasitic {
                order: order.at(s),
                reason,
            },
            Pinned::Erratic(_) => Pin::Erratic { reason },
            Pinned::NoConvergence(_) => Pin::NoConvergence { reason },
        }
    }
}

/// An order as a function of the stage count s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// A fixed order.
    Fixed(f64),
    /// `a·s + b`.
    Affine(i64, i64),
    /// `2⌈s/2⌉`.
    TwiceCeilHalf,
    /// `2⌊s/2⌋`.
    TwiceFloorHalf,
}

impl Order {
    /// The order at `s` stages.
    pub fn at(self, s: usize) -> f64 {
        match self {
            Order::Fixed(p) => p,
            Order::Affine(a, b) => (a * s as i64 + b) as f64,
            Order::TwiceCeilHalf => (2 * s.div_ceil(2)) as f64,
            Order::TwiceFloorHalf => (2 * (s / 2)) as f64,
        }
    }
}

/// The stage counts an entry applies to.
#[derive(Clone, Copy, Debug)]
enum Stages {
    All,
    From(usize),
    UpTo(usize),
    Only(usize),
    Even,
    Odd,
}

impl Stages {
    fn contain(self, s: usize) -> bool {
        match self {
            Stages::All => true,
            Stages::From(n) => s >= n,
            Stages::UpTo(n) => s <= n,
            Stages::Only(n) => s == n,
            Stages::Even => s.is_multiple_of(2),
            Stages::Odd => !s.is_multiple_of(2),
        }
    }
}

/// One entry: the families and stage counts it applies to, and what it pins (or, for a
/// limitation, its text).
struct Entry<T> {
    families: &'static [&'static str],
    stages: Stages,
    what: T,
}

impl<T> Entry<T> {
    /// Whether the entry applies to `family` with `s` stages.
    fn applies(&self, family: &str, s: usize) -> bool {
        self.families.contains(&family) && self.stages.contain(s)
    }
}

/// An entry of `families` at `stages`.
const fn entry<T: Copy>(families: &'static [&'static str], stages: Stages, what: T) -> Entry<T> {
    Entry {
        families,
        stages,
        what,
    }
}

/// VSPARKprimary over upstream's fixed VSPARKLob… tableaus.
const VSPARK_PRIMARY_FIXED_LOBATTO: &[&str] = &[
    "VsparkPrimaryLobABCCD",
    "VsparkPrimaryLobABCCE",
    "VsparkPrimaryLobABED",
    "VsparkPrimaryLobABDE",
    "VsparkPrimaryLobABD",
    "VsparkPrimaryLobABE",
    "VsparkPrimaryLobDE",
    "VsparkPrimaryLobED",
];

/// Pins on the verification problems (first match wins).
const ON_VERIFICATION_PROBLEMS: &[Entry<Pinned>] = &[
    entry(
        &["HsparkPrimaryGlrkpSymmetric"],
        Stages::From(2),
        Pinned::Order(Order::Fixed(2.0), HSPARK_PRIMARY),
    ),
    entry(
        &[
            "HsparkPrimaryLobattoIIIAIIIBpSymmetric",
            "HsparkPrimaryLobattoIIIBIIIApSymmetric",
        ],
        Stages::From(3),
        Pinned::Order(Order::Fixed(2.0), HSPARK_PRIMARY),
    ),
    entry(
        // HPARK over Gauss is SPARKGLVPRK (`tests/tests/hspark.rs`).
        &[
            "SparkGlvprk",
            "IdaeSparkGlvprk",
            "HsparkGlvprk",
            "HparkGlrk",
            "VsparkGlvprk",
        ],
        Stages::From(2),
        Pinned::Order(Order::TwiceCeilHalf, GAUSS_INDEX_2),
    ),
    entry(
        &["HparkLobattoIIIAIIIB", "HparkLobattoIIIBIIIA"],
        Stages::All,
        Pinned::Fails("parasitic multiplier mode", HPARK_LOBATTO),
    ),
    entry(
        &[
            "SparkGlrkLobattoIIIAIIIB",
            "SparkGlrkLobattoIIIBIIIA",
            "IdaeSparkGlrkLobattoIIIAIIIB",
            "IdaeSparkGlrkLobattoIIIBIIIA",
            "HsparkGlrkLobattoIIIAIIIB",
            "HsparkGlrkLobattoIIIBIIIA",
        ],
        Stages::All,
        Pinned::Order(Order::Fixed(1.0), GLRK_LOBATTO),
    ),
    entry(
        &["VprkLobattoIIIAIIIB"],
        Stages::From(3),
        Pinned::Order(Order::Affine(2, -4), VPRK_LOBATTO_AB),
    ),
    entry(
        &[
            "VparkLobattoIIIAIIIBpSymplectic",
            "IdaeVparkLobattoIIIAIIIBpSymplectic",
            "VparkLobattoIIIAIIIBpSymplecticUpstream",
        ],
        Stages::All,
        Pinned::Parasitic(Order::Affine(2, -2), VPARK_AB),
    ),
    entry(
        &["VparkLobattoIIIBIIIApSymplecticUpstream"],
        Stages::All,
        Pinned::Parasitic(Order::Affine(2, -2), R_INF_UPSTREAM),
    ),
    entry(
        &["VsparkLobattoIIIBIIIA"],
        Stages::Only(2),
        Pinned::Parasitic(Order::Fixed(2.0), VSPARK_BA2),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIAIIIBpMidpointUpstream",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedMidpointUpstream",
        ],
        Stages::All,
        Pinned::Order(Order::Fixed(2.0), R_INF_UPSTREAM_ORDER_2),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIAIIIBpLobattoIIIBIIIAUpstream",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedLobattoIIIAIIIBUpstream",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedLobattoIIIBIIIAUpstream",
        ],
        Stages::All,
        Pinned::Erratic(R_INF_UPSTREAM_ERRATIC),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIAIIIBpSymmetricUpstream",
            "VsparkPrimaryLobattoIIIAIIIBpLobattoIIIAIIIBUpstream",
        ],
        Stages::All,
        Pinned::Order(Order::Fixed(4.0), R_INF_UPSTREAM_MARGINAL),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIBIIIApModifiedLobattoIIIAIIIBUpstream",
            "VsparkPrimaryLobattoIIIBIIIApModifiedLobattoIIIBIIIAUpstream",
        ],
        Stages::All,
        Pinned::Order(Order::Fixed(4.0), R_INF_UPSTREAM_STALLS),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIBIIIApMidpointUpstream",
            "VsparkPrimaryLobattoIIIBIIIApModifiedMidpointUpstream",
            "VsparkPrimaryLobattoIIIBIIIApSymmetricUpstream",
            "VsparkPrimaryLobattoIIIBIIIApLobattoIIIAIIIBUpstream",
            "VsparkPrimaryLobattoIIIBIIIApLobattoIIIBIIIAUpstream",
        ],
        Stages::All,
        Pinned::Fails("singular", R_INF_UPSTREAM_SINGULAR),
    ),
    entry(
        &["SparkLobattoIIIAIIIBUpstreamMu"],
        Stages::Only(2),
        Pinned::Fails("singular", UPSTREAM_MU_AB2),
    ),
    entry(
        &["SparkLobattoIIIAIIIBUpstreamMu"],
        Stages::Only(3),
        Pinned::Order(Order::Fixed(2.5), UPSTREAM_MU_AB3),
    ),
    entry(
        &["SparkLobattoIIIAIIIBUpstreamMu"],
        Stages::All,
        Pinned::Erratic(UPSTREAM_MU_AB4),
    ),
    entry(
        &["SparkLobattoIIIBIIIAUpstreamMu"],
        Stages::All,
        Pinned::Fails("singular", UPSTREAM_MU_SINGULAR),
    ),
    entry(
        &["SparkLobattoIIIAIIIBOmegaMu", "SparkLobattoIIIBIIIAOmegaMu"],
        Stages::All,
        Pinned::Order(Order::TwiceFloorHalf, OMEGA_MU),
    ),
    entry(
        &["VsparkGlrk"],
        Stages::All,
        Pinned::Fails("inconsistent", INCONSISTENT),
    ),
    entry(
        &["VsparkLobABC"],
        Stages::All,
        Pinned::Order(Order::Affine(2, -3), LOB_ABC),
    ),
    entry(&["VsparkLobABD"], Stages::All, Pinned::Erratic(LOB_ABD)),
    entry(
        &[
            "VsparkPrimaryLobattoIIIAIIIBpMidpoint",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedMidpoint",
        ],
        Stages::Only(4),
        Pinned::Order(Order::Fixed(4.0), MIDPOINT_AB4),
    ),
    entry(
        VSPARK_PRIMARY_FIXED_LOBATTO,
        Stages::From(3),
        Pinned::Fails("singular", FIXED_LOBATTO),
    ),
];

/// Pins of the implicit-DAE steppers on the pendulum in Jay's index-2 form (`u = 0`, a physical
/// multiplier). `R∞` of VPARK's projection is `(−1)^s` over Gauss(s), `(−1)^(s+1)` over the
/// Lobatto pairs.
const ON_INDEX_TWO_PENDULUM: &[Entry<Pinned>] = &[
    entry(
        &["IdaeSparkLobattoIIIBIIIA", "IdaeSparkGlrkLobattoIIIBIIIA"],
        Stages::All,
        Pinned::Fails("singular", SPARK_FIRST_STAGE_FIXED),
    ),
    entry(
        &[
            "IdaeSparkGlrk",
            "IdaeSparkLobattoIIIAIIIB",
            "IdaeSparkGlrkLobattoIIIAIIIB",
            "IdaeSparkLobABC",
            "IdaeSparkLobABD",
            "IdaeSparkGlvprk",
        ],
        Stages::All,
        Pinned::NoConvergence(SPARK_STANDS_STILL),
    ),
    entry(
        &["IdaeVparkGlrkpSymplectic"],
        Stages::Even,
        Pinned::Order(Order::Fixed(2.0), VPARK_TRAPEZOID),
    ),
    entry(
        &["IdaeVparkGlrkpSymplectic"],
        Stages::Odd,
        Pinned::Fails("parasitic multiplier mode", VPARK_INCONSISTENT),
    ),
    entry(
        &[
            "IdaeVparkLobattoIIIAIIIBpSymplectic",
            "IdaeVparkLobattoIIIBIIIApSymplectic",
        ],
        Stages::Odd,
        Pinned::Order(Order::Fixed(2.0), VPARK_TRAPEZOID),
    ),
    entry(
        &[
            "IdaeVparkLobattoIIIAIIIBpSymplectic",
            "IdaeVparkLobattoIIIBIIIApSymplectic",
        ],
        Stages::Even,
        Pinned::Fails("parasitic multiplier mode", VPARK_INCONSISTENT),
    ),
];

/// Limitations measured outside the pins (every matching entry applies).
const LIMITATIONS: &[Entry<Reason>] = &[
    entry(
        &["SlrkLobattoIIIAB"],
        Stages::Only(2),
        IIIAB2_UPSTREAM_DEFAULTS,
    ),
    entry(
        &["SlrkLobattoIIICCBar"],
        Stages::Only(2),
        IIICCBAR2_UPSTREAM_DEFAULTS,
    ),
    entry(
        &["SlrkLobattoIIIAB", "SlrkLobattoIIIBA"],
        Stages::All,
        SINGULAR_GAUGE,
    ),
    entry(
        &["VprkLobattoIIIAIIIB"],
        Stages::All,
        VPRK_LOBATTO_PARASITIC,
    ),
    entry(&["VprkGauss"], Stages::From(2), VPRK_GAUSS_ORDER),
    entry(&["VprkGauss"], Stages::Only(2), VPRK_GAUSS2_LONG_TIME),
    entry(&["VprkGauss"], Stages::Only(3), VPRK_GAUSS3_WANDERS),
    entry(
        &[
            "HsparkSecondaryLobattoIIIAB",
            "HsparkSecondaryLobattoIIIBA",
            "HsparkSecondaryLobattoIIICCBar",
            "HsparkSecondaryLobattoIIICBarC",
            "HsparkSecondaryLobattoIIID",
            "HsparkSecondaryLobattoIIIE",
            "HsparkSecondaryGlrkLobattoIIIAB",
            "HsparkSecondaryGlrkLobattoIIIBA",
            "HsparkSecondaryGlrkLobattoIIICCBar",
            "HsparkSecondaryGlrkLobattoIIICBarC",
            "HsparkSecondaryGlrkLobattoIIID",
            "HsparkSecondaryGlrkLobattoIIIE",
            "HsparkLobattoIIIBIIIA",
        ],
        Stages::All,
        SINGULAR_WITHOUT_U,
    ),
];

/// How a method's energy error behaves over long runs, and what was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongRun {
    /// Bounded or drifting.
    pub energy: Energy,
    /// The measurement, with its figures.
    pub reason: Reason,
}

/// A long run whose energy error stays bounded.
const fn bounded(reason: Reason) -> LongRun {
    LongRun {
        energy: Energy::Bounded,
        reason,
    }
}

/// A long run whose energy error drifts.
const fn drifts(reason: Reason) -> LongRun {
    LongRun {
        energy: Energy::Drifts,
        reason,
    }
}

/// The energy error `|H(q_n, p_n) − H₀|/|H₀|` over long runs on Lotka–Volterra with upstream's
/// data (`q₀ = (2, 1)`, `p₀ = ϑ(q₀)`) at the step `h = 0.1` of the command's default run
/// (first match wins). **Bounded**: its largest value over the last tenth of 10⁴ steps is
/// within 5 % of that over the first tenth, and so is the largest value over every tenth of 10⁵
/// steps. **Drifts**: the last tenth's is at least 5 times the first's, or, where 10⁴ steps do
/// not decide, the largest value over each tenth of 10⁵ steps exceeds that over the tenth
/// before. A method whose runs stop, or whose error neither stays within 5 % nor grows steadily,
/// is not listed. Measured for the methods the guide's rules 1–3 leave clean (and those that
/// solve the same stage equations), the candidates of rule 5 (`crate::recommend`).
const LONG_RUN: &[Entry<LongRun>] = &[
    entry(
        &[
            "VsparkPrimaryGlrkpInternal",
            "VsparkPrimaryGlrkpModifiedInternal",
            "VsparkPrimaryGlrkpMidpoint",
            "VsparkPrimaryGlrkpModifiedMidpoint",
            "VsparkPrimaryGlrkpSymmetric",
            "VsparkPrimaryGlrkpLobattoIIIAIIIB",
            "VsparkPrimaryGlrkpLobattoIIIBIIIA",
            "VsparkPrimaryGlrkpModifiedLobattoIIIAIIIB",
            "VsparkPrimaryGlrkpModifiedLobattoIIIBIIIA",
            "VsparkPrimaryGlrkpSymplectic",
            "VsparkGlrkLobattoIIIAIIIB",
        ],
        Stages::All,
        bounded(LONG_RUN_GAUSS_PROJECTION),
    ),
    entry(
        &["VsparkGlrkLobattoIIIBIIIA"],
        Stages::UpTo(2),
        bounded(LONG_RUN_GAUSS_PROJECTION),
    ),
    entry(
        &["VparkGlrkpSymplectic"],
        Stages::From(2),
        bounded(LONG_RUN_GAUSS_PROJECTION),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIBIIIApMidpoint",
            "VsparkPrimaryLobattoIIIBIIIApModifiedMidpoint",
            "VsparkPrimaryLobattoIIIBIIIApSymmetric",
            "VsparkPrimaryLobattoIIIBIIIApLobattoIIIAIIIB",
            "VsparkPrimaryLobattoIIIBIIIApLobattoIIIBIIIA",
        ],
        Stages::All,
        bounded(LONG_RUN_LOBATTO_IIIB_IIIA_PROJECTION),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIBIIIApModifiedLobattoIIIAIIIB",
            "VsparkPrimaryLobattoIIIBIIIApModifiedLobattoIIIBIIIA",
        ],
        Stages::Even,
        bounded(LONG_RUN_LOBATTO_IIIB_IIIA_PROJECTION),
    ),
    entry(
        &["VparkLobattoIIIBIIIApSymplectic"],
        Stages::From(3),
        bounded(LONG_RUN_LOBATTO_IIIB_IIIA_PROJECTION),
    ),
    entry(
        VSPARK_PRIMARY_FIXED_LOBATTO,
        Stages::Only(2),
        bounded(LONG_RUN_FIXED_LOBATTO),
    ),
    entry(
        &["SparkLobABC", "SparkLobABD", "HsparkLobABC", "HsparkLobABD"],
        Stages::Only(2),
        bounded(LONG_RUN_FIXED_LOBATTO),
    ),
    entry(
        &[
            "SlrkLobattoIIIAB",
            "SlrkLobattoIIIBA",
            "SlrkLobattoIIICCBar",
            "SlrkLobattoIIICBarC",
            "SparkLobattoIIIAIIIB",
            "SparkLobattoIIIBIIIA",
            "VsparkLobattoIIIAIIIB",
            "VsparkLobattoIIIBIIIA",
            "VsparkSecondaryLobattoIIIAB",
            "VsparkSecondaryLobattoIIIBA",
            "VsparkSecondaryLobattoIIICCBar",
            "VsparkSecondaryLobattoIIICBarC",
            "HsparkLobattoIIIAIIIB",
            "HsparkLobattoIIIBIIIA",
        ],
        Stages::From(3),
        drifts(LONG_RUN_LOBATTO_PAIR_DRIFT),
    ),
    entry(
        &["SlrkLobattoIIIE", "VsparkSecondaryLobattoIIIE"],
        Stages::All,
        drifts(LONG_RUN_LOBATTO_PAIR_DRIFT),
    ),
    entry(
        &[
            "VsparkSecondaryGlrkLobattoIIIAB",
            "VsparkSecondaryGlrkLobattoIIIBA",
            "VsparkSecondaryGlrkLobattoIIICCBar",
            "VsparkSecondaryGlrkLobattoIIICBarC",
            "VsparkSecondaryGlrkLobattoIIID",
            "VsparkSecondaryGlrkLobattoIIIE",
        ],
        Stages::From(2),
        drifts(LONG_RUN_GLRK_LOBATTO_SECONDARY_DRIFT),
    ),
    entry(
        &["SparkGlrk", "HsparkGlrk"],
        Stages::From(2),
        drifts(LONG_RUN_SPARK_DRIFT),
    ),
    entry(
        &["SparkLobABC", "SparkLobABD", "HsparkLobABC", "HsparkLobABD"],
        Stages::From(3),
        drifts(LONG_RUN_SPARK_DRIFT),
    ),
    entry(
        &[
            "SlrkLobattoIIID",
            "VsparkSecondaryLobattoIIID",
            "VsparkPrimaryLobattoIIIAIIIBpLobattoIIIBIIIA",
        ],
        Stages::All,
        drifts(LONG_RUN_LOBATTO_D_DRIFT),
    ),
    entry(
        &["VsparkPrimaryLobattoIIIAIIIBpModifiedLobattoIIIBIIIA"],
        Stages::Only(2),
        drifts(LONG_RUN_LOBATTO_D_DRIFT),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIAIIIBpMidpoint",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedMidpoint",
            "VsparkPrimaryLobattoIIIAIIIBpSymmetric",
            "VsparkPrimaryLobattoIIIAIIIBpLobattoIIIAIIIB",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedLobattoIIIAIIIB",
            "VsparkPrimaryLobattoIIIAIIIBpModifiedLobattoIIIBIIIA",
        ],
        Stages::From(3),
        drifts(LONG_RUN_LOBATTO_PROJECTION_DRIFT),
    ),
    entry(
        &[
            "VsparkPrimaryLobattoIIIBIIIApModifiedLobattoIIIAIIIB",
            "VsparkPrimaryLobattoIIIBIIIApModifiedLobattoIIIBIIIA",
        ],
        Stages::Only(3),
        drifts(LONG_RUN_LOBATTO_PROJECTION_DRIFT),
    ),
];

/// What was measured of one method.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Its pin on the verification problems (orders as functions of s).
    pub pinned: Option<Pinned>,
    /// Its pin on the pendulum's index-2 form (implicit-DAE steppers).
    pub pinned_on_index_two_pendulum: Option<Pinned>,
    /// Its limitations: the measured ones, [`NOT_CONSTRAINT_PRESERVING`] where it applies, and
    /// the causes of its pins.
    pub limitations: Vec<Reason>,
    /// How its energy error behaves over long runs ([`LONG_RUN`]), where measured.
    pub long_run: Option<LongRun>,
}

/// What the first entry of `entries` for `family` with `s` stages says.
fn find<T: Copy>(entries: &[Entry<T>], family: &str, s: usize) -> Option<T> {
    entries
        .iter()
        .find(|e| e.applies(family, s))
        .map(|e| e.what)
}

/// What was measured of the method of `family` with `s` stages for problems of `kind`, whose
/// structure does or does not preserve the constraint.
pub fn measured(family: &str, s: usize, kind: ProblemKind, preserves_constraint: bool) -> Measured {
    let pinned = find(ON_VERIFICATION_PROBLEMS, family, s);
    let pinned_on_index_two_pendulum = (kind == ProblemKind::ImplicitDae)
        .then(|| find(ON_INDEX_TWO_PENDULUM, family, s))
        .flatten();
    let mut limitations: Vec<Reason> = LIMITATIONS
        .iter()
        .filter(|e| e.applies(family, s))
        .map(|e| e.what)
        .collect();
    if !preserves_constraint && kind != ProblemKind::Holonomic {
        limitations.push(NOT_CONSTRAINT_PRESERVING);
    }
    limitations.extend(
        pinned
            .iter()
            .chain(&pinned_on_index_two_pendulum)
            .map(Pinned::reason),
    );
    Measured {
        pinned,
        pinned_on_index_two_pendulum,
        limitations,
        long_run: find(LONG_RUN, family, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::methods;
    use crate::exact::Precision;

    /// Every entry applies to at least one shipped method: a misspelt or vanished family would
    /// leave its measurement silently unused.
    #[test]
    fn every_entry_applies_to_a_shipped_method() -> Result<(), crate::emit::EmitError> {
        let shipped = methods(Precision::DEFAULT)?;
        let applies = |families: &[&str], stages: Stages| {
            shipped
                .iter()
                .any(|m| families.contains(&m.family.as_str()) && stages.contain(m.s))
        };
        for (i, e) in ON_VERIFICATION_PROBLEMS
            .iter()
            .chain(ON_INDEX_TWO_PENDULUM)
            .enumerate()
        {
            assert!(applies(e.families, e.stages), "pin {i}: {:?}", e.families);
            for family in e.families {
                assert!(
                    shipped.iter().any(|m| m.family == *family),
                    "pin {i}: no family {family}"
                );
            }
        }
        for e in LIMITATIONS {
            assert!(applies(e.families, e.stages), "{}", e.what.name);
        }
        for e in LONG_RUN {
            assert!(applies(e.families, e.stages), "{}", e.what.reason.name);
            for family in e.families {
                assert!(
                    shipped.iter().any(|m| m.family == *family),
                    "{}: no family {family}",
                    e.what.reason.name
                );
            }
        }
        Ok(())
    }

    /// No shipped method has two long-run measurements (the first would silently win).
    #[test]
    fn long_run_entries_do_not_overlap() -> Result<(), crate::emit::EmitError> {
        for m in methods(Precision::DEFAULT)? {
            let matching: Vec<&str> = LONG_RUN
                .iter()
                .filter(|e| e.applies(&m.family, m.s))
                .map(|e| e.what.reason.name)
                .collect();
            assert!(matching.len() <= 1, "{}: {matching:?}", m.name);
        }
        Ok(())
    }

    /// Orders follow the stage count as the entries say, and the index-2 pins apply to
    /// implicit-DAE steppers only.
    #[test]
    fn pins_evaluate_per_stage_count() {
        let order =
            |family, s| match measured(family, s, ProblemKind::DegenerateLagrangian, true).pinned {
                Some(Pinned::Order(order, _)) => Some(order.at(s)),
                _ => None,
            };
        assert_eq!(order("SparkGlvprk", 1), None);
        assert_eq!(order("SparkGlvprk", 3), Some(4.0));
        assert_eq!(order("VsparkLobABC", 4), Some(5.0));
        assert_eq!(order("SparkLobattoIIIAIIIBOmegaMu", 3), Some(2.0));
        let two =
            |kind| measured("IdaeVparkGlrkpSymplectic", 2, kind, true).pinned_on_index_two_pendulum;
        assert!(matches!(
            two(ProblemKind::ImplicitDae),
            Some(Pinned::Order(..))
        ));
        assert_eq!(two(ProblemKind::DegenerateLagrangian), None);
        let limits = measured("VprkGauss", 2, ProblemKind::DegenerateLagrangian, false).limitations;
        assert!(limits.contains(&NOT_CONSTRAINT_PRESERVING) && limits.contains(&VPRK_GAUSS_ORDER));
    }
}
