//! Every upstream `@test_broken`, `@test_throws` and stalled or loosened case of the SPARK family
//! (SPARK, VPARK, VSPARK, VSPARKprimary, VSPARKsecondary, SLRK) in GeometricIntegrators.jl's
//! `test/spark/spark_integrators_tests.jl` (`spark_integrators_tests.jl`) and §6.2
//! (`spark_convergence_tests.jl`), one row each, with the stepper that implements the method here,
//! the verdict (fixed: the cause and the order now; inherent: the evidence) and the outcome it must
//! show under `sparkgen verify --quick` (Lotka–Volterra in the SPARK test configuration, T = 1,
//! order by least-squares slope, long run of 1000 steps of h = 0.1). The table is
//! `docs/upstream_cases.md`.
//!
//! No VPARK, VSPARKsecondary or SLRK case is broken, throws or stalls upstream in §6.1–6.2 (the
//! SLRK conditioning regression S10 was fixed upstream and passes); the rows are SPARK, VSPARK
//! and VSPARKprimary. Two VSPARK rows whose upstream tests pass (LobABC(4), LobABD(4)) are kept
//! because they complete the evidence on those tableaus.
//!
//! `upstream_cases_meet_their_outcomes` runs every row through the verify API;
//! the other tests hold the evidence for the inherent verdicts on VSPARK over SPARKGLRK,
//! SPARKLobABC and SPARKLobABD, and the Newton status of the rank-deficient VSPARK cases that
//! stall or throw upstream.
use nalgebra::{DMatrix, SVector};
use sparkgen::cli::verify::{Study, TOLERANCE, verify};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::*;
use sparkgen::generated::types::Pinned;
use sparkgen::integrate::{Compiled, Driver, Options, vector_field};
use sparkgen::layout::Role;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::rows::RowMajor;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::{StageMethod, Tangent};

/// Fixed (a defect of upstream's code, removed here) or inherent (a property of the method).
#[derive(Clone, Copy, Debug)]
enum Verdict {
    /// The defect and how the method behaves without it.
    Fixed { cause: &'static str },
    /// What shows that the behaviour belongs to the method.
    Inherent { evidence: &'static str },
}

/// What the stepper must show under `sparkgen verify --quick`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// Order within ±0.3 on at least 3 points; Newton converges on every sweep run and every
    /// step of the long run; `max |p − ϑ(q)| ≤ 1e-12` where the method holds the constraint;
    /// the carried multiplier, if any, bounded.
    Order(f64),
    /// As `Order`, but the carried multiplier grows over the long run.
    OrderGrowingMultiplier(f64),
    /// No run gives an order; the long run stops at step `.0` with the error `.1`.
    Fails(usize, &'static str),
    /// The order holds, but `p = ϑ(q)` does not: `max |p − ϑ(q)| > 1e-6` over the long run,
    /// which may end non-finite.
    OrderWithoutConstraint(f64),
    /// Some runs stop or stall, or the errors fall erratically: no fit of 3 points within the
    /// tolerance of the declared order.
    Erratic,
}

/// One upstream case.
struct Case {
    /// Upstream's method (and where it is tested).
    upstream: &'static str,
    /// What upstream's tests record.
    upstream_outcome: &'static str,
    /// The stepper type here.
    stepper: &'static str,
    verdict: Verdict,
    expected: Outcome,
}

const MU_MISINDEXED: &str = "upstream adds μ·dᵢ/bᵢ to the Y-rows of the next (stage, component) \
     instead of a constraint row (§2.1, §7.2.1); SPARK has no internal velocities whose gauge d \
     would fix, so here it has no μ and no Σ dᵢΛ̃ᵢ row: order 2s − 2, the same map as SLRK over \
     the pair (spark_identities.rs, ≤ 1e-13)";
const MU_REPRODUCED: &str = "upstream's μ kept side by side (the …UpstreamMu stepper): μ_k \
     d_i/b_i added to component k + 1 of the position Q_i (component 1 of the next position for \
     k = D), and Σ dᵢΛ̃ᵢ = 0. Order 2.47 at s = 3 (upstream ~2.4); at s = 4 erratic errors near \
     1e-11 (upstream loosens to 8e-10); over IIIB–IIIA the μ₁ column vanishes at upstream's \
     guess μ = 0 (exactly at s = 2), a singular stage Jacobian at step 1 that upstream's \
     unchecked LU runs through; over IIIA–IIIB(2) singular at step 2";
const OMEGA_MU: &str = "upstream's documented form (μ dᵢ/bᵢ on ω row i, Σ dᵢΛ̃ᵢ = 0; the \
     …OmegaMu stepper) is not a fix: the last ω row becomes φ(q₁, p₁) = (d_s/b_s)μ, the \
     constraint is lost (max |p − ϑ(q)| 7.6e-3 to 1.3) and the order is 2⌊s/2⌋";
const GLRK_LOBATTO: &str = "the internal positions use IIIA(σ) rows 2..σ (nodes c̄₂..c̄_σ) while \
     their forces enter p₁ with the Gauss weights: Σ bᵢc̄ᵢ₊₁ = 1, ¾ for s = 1, 2 (≠ ½), an \
     order-2 condition fails, so order 1 for every s; VSPARK over the same tableau, whose \
     internal velocities carry the Gauss stages, reaches 2s";
const GAUSS_INDEX_2: &str = "SPARKGLVPRK(s) is the same map as VPRK Gauss(s) \
     (spark_identities.rs, ≤ 1e-13); Lotka–Volterra is index 2 (nonlinear one-form), where \
     Gauss(s) reaches s + 1 for odd s and s for even s: 2 at s = 2 (4.15 and 4.00 at s = 3, 4). \
     Upstream's attribution to R∞ = −1 cannot hold: SPARKVPRK ignores its R∞ (§7.2.4)";
const GLRK_INCONSISTENT: &str = "over SPARKGLRK every q-slot and every p-slot is Gauss, so V and \
     Λ̃ enter only as W = V + Λ̃ (F + G = Jᵀ(V + Λ̃) − ∇H) and the projective stages coincide \
     with the internal ones: s·D equations Φᵢ = 0 plus φ(q₁, p₁) = 0 for s·D unknowns W — no \
     solution. Upstream's LU throws SingularException; the minimum-norm Newton reports \
     InconsistentStageEquations at step 1 (rank s·D of 2s·D)";
const VSPARK_GAUGE: &str = "V and Λ̃ enter only as V + Λ̃ and the projective stages coincide \
     with the internal ones: the stage Jacobian is rank-deficient by (s − 1)·D, a pure gauge \
     (its null space moves (q₁, p₁) by ≤ 1e-12). Upstream's LU meets an exact zero pivot; \
     minimum-norm Newton steps converge to round-off";
const VSPARK_BA2: &str = "the same pure gauge as over IIIA–IIIB; upstream's LU factors the \
     singular matrix through rounding and stalls at 3.6e-5; the minimum-norm Newton reaches \
     round-off at every step (asserted below). The carried λₙ grows slowly over T = 100 \
     (pinned), but it is an output the stage equations do not determine: along their null \
     space it moves by 0.43 per unit vector while (q₁, p₁) moves by 1e-16 (asserted ≠ 0), so its \
     size is the minimum-norm Newton's choice";
const R_INF: &str = "upstream writes R∞ = -1^(s+1), which Julia reads as −1 (§1.2, §7.2.3); \
     (−1)^(s+1) = +1 at s = 3. With upstream's R∞ (the …Upstream3 stepper) the stage Jacobian \
     is singular at step 1, upstream's stall; with the documented R∞, order 4";
const R_INF_REPRODUCED: &str = "upstream's R∞ = −1 kept side by side: the singular stage \
     Jacobian at step 1 reproduces upstream's stall";
const LOB_ABC: &str = "the projective stages coincide with the internal ones (ã = a, α̃ = α in \
     both slots), so s − 1 of the ω rows repeat the internal constraints: rank deficiency \
     (s − 1)·D, a pure gauge (null space moves (q₁, p₁) by ≤ 1e-12, asserted). At s = 2 both \
     internal positions are q₁ and the step is exactly the one-point scheme \
     ϑ(q₁) − ϑ(q₀) = J(q₁)ᵀ(q₁ − q₀) − h∇H(q₁), first order (asserted to round-off); s = 3, 4 \
     measure 2s − 3, not derived";
const LOB_ABD_2: &str = "the projective stages coincide with the internal ones and IIID's \
     last row is not b: the stage equations force p₁ = p₀, q₁ = q₀ and ∇H(Q) = 0 at the common \
     internal position Q. Their only solutions put Q at the equilibrium of H with unknowns of \
     size 1/h (constructed and checked to round-off below): the step is the identity. Newton \
     from the usual guess leaves the domain of ln: non-finite at step 1 for every h";
const LOB_ABD: &str = "besides the (s − 1)·D gauge of LobABC, D more singular values of the \
     stage Jacobian vanish one power of h faster than the rest (σ/σ_max ∝ h, asserted), the \
     stage system tends to a singular one as h → 0 (at s = 2 it has no usable solution); the \
     multiplier reaches 2.6–7.2 within 2 steps of h = 0.1 at s = 3; runs end non-finite (s = 3) \
     or the errors stall near 1e-11 (s = 4)";

const CASES: &[Case] = &[
    Case {
        upstream: "SPARKLobattoIIIAIIIB(2) (§6.1)",
        upstream_outcome: "@test_broken, error 0.18",
        stepper: "SparkLobattoIIIAIIIB2",
        verdict: Verdict::Fixed {
            cause: MU_MISINDEXED,
        },
        expected: Outcome::Order(2.0),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(3) (§6.1, §6.2)",
        upstream_outcome: "§6.1 passes at a loosened 2e-6; §6.2 @test_broken, order ~2.4 of 4",
        stepper: "SparkLobattoIIIAIIIB3",
        verdict: Verdict::Fixed {
            cause: MU_MISINDEXED,
        },
        expected: Outcome::Order(4.0),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(4) (§6.1)",
        upstream_outcome: "passes at a loosened 8e-10 (order reduction, S6)",
        stepper: "SparkLobattoIIIAIIIB4",
        verdict: Verdict::Fixed {
            cause: MU_MISINDEXED,
        },
        expected: Outcome::Order(6.0),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(2) (§6.1, §6.2)",
        upstream_outcome: "§6.1 @test_broken, non-finite; §6.2 @test_broken (order 2)",
        stepper: "SparkLobattoIIIBIIIA2",
        verdict: Verdict::Fixed {
            cause: MU_MISINDEXED,
        },
        expected: Outcome::Order(2.0),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(3) (§6.1)",
        upstream_outcome: "@test_broken, error 0.58",
        stepper: "SparkLobattoIIIBIIIA3",
        verdict: Verdict::Fixed {
            cause: MU_MISINDEXED,
        },
        expected: Outcome::Order(4.0),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(4) (§6.1)",
        upstream_outcome: "@test_broken, error 0.03",
        stepper: "SparkLobattoIIIBIIIA4",
        verdict: Verdict::Fixed {
            cause: MU_MISINDEXED,
        },
        expected: Outcome::Order(6.0),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(2), upstream's μ",
        upstream_outcome: "@test_broken, error 0.18",
        stepper: "SparkLobattoIIIAIIIBUpstreamMu2",
        verdict: Verdict::Inherent {
            evidence: MU_REPRODUCED,
        },
        expected: Outcome::Fails(2, "singular stage Jacobian"),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(3), upstream's μ",
        upstream_outcome: "§6.1 passes at a loosened 2e-6; §6.2 @test_broken, order ~2.4 of 4",
        stepper: "SparkLobattoIIIAIIIBUpstreamMu3",
        verdict: Verdict::Inherent {
            evidence: MU_REPRODUCED,
        },
        expected: Outcome::Order(2.5),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(4), upstream's μ",
        upstream_outcome: "passes at a loosened 8e-10 (order reduction, S6)",
        stepper: "SparkLobattoIIIAIIIBUpstreamMu4",
        verdict: Verdict::Inherent {
            evidence: MU_REPRODUCED,
        },
        expected: Outcome::Erratic,
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(2), μ on the ω rows (upstream's documentation)",
        upstream_outcome: "not run upstream (the docs' description of its code)",
        stepper: "SparkLobattoIIIAIIIBOmegaMu2",
        verdict: Verdict::Inherent { evidence: OMEGA_MU },
        expected: Outcome::OrderWithoutConstraint(2.0),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(3), μ on the ω rows (upstream's documentation)",
        upstream_outcome: "not run upstream (the docs' description of its code)",
        stepper: "SparkLobattoIIIAIIIBOmegaMu3",
        verdict: Verdict::Inherent { evidence: OMEGA_MU },
        expected: Outcome::OrderWithoutConstraint(2.0),
    },
    Case {
        upstream: "SPARKLobattoIIIAIIIB(4), μ on the ω rows (upstream's documentation)",
        upstream_outcome: "not run upstream (the docs' description of its code)",
        stepper: "SparkLobattoIIIAIIIBOmegaMu4",
        verdict: Verdict::Inherent { evidence: OMEGA_MU },
        expected: Outcome::OrderWithoutConstraint(4.0),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(2), upstream's μ",
        upstream_outcome: "§6.1 @test_broken, non-finite; §6.2 @test_broken (order 2)",
        stepper: "SparkLobattoIIIBIIIAUpstreamMu2",
        verdict: Verdict::Inherent {
            evidence: MU_REPRODUCED,
        },
        expected: Outcome::Fails(1, "singular stage Jacobian"),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(3), upstream's μ",
        upstream_outcome: "@test_broken, error 0.58",
        stepper: "SparkLobattoIIIBIIIAUpstreamMu3",
        verdict: Verdict::Inherent {
            evidence: MU_REPRODUCED,
        },
        expected: Outcome::Fails(1, "singular stage Jacobian"),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(4), upstream's μ",
        upstream_outcome: "@test_broken, error 0.03",
        stepper: "SparkLobattoIIIBIIIAUpstreamMu4",
        verdict: Verdict::Inherent {
            evidence: MU_REPRODUCED,
        },
        expected: Outcome::Fails(1, "singular stage Jacobian"),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(2), μ on the ω rows (upstream's documentation)",
        upstream_outcome: "not run upstream (the docs' description of its code)",
        stepper: "SparkLobattoIIIBIIIAOmegaMu2",
        verdict: Verdict::Inherent { evidence: OMEGA_MU },
        expected: Outcome::OrderWithoutConstraint(2.0),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(3), μ on the ω rows (upstream's documentation)",
        upstream_outcome: "not run upstream (the docs' description of its code)",
        stepper: "SparkLobattoIIIBIIIAOmegaMu3",
        verdict: Verdict::Inherent { evidence: OMEGA_MU },
        expected: Outcome::OrderWithoutConstraint(2.0),
    },
    Case {
        upstream: "SPARKLobattoIIIBIIIA(4), μ on the ω rows (upstream's documentation)",
        upstream_outcome: "not run upstream (the docs' description of its code)",
        stepper: "SparkLobattoIIIBIIIAOmegaMu4",
        verdict: Verdict::Inherent { evidence: OMEGA_MU },
        expected: Outcome::OrderWithoutConstraint(4.0),
    },
    Case {
        upstream: "SPARKGLRKLobattoIIIAIIIB(1) (§6.1)",
        upstream_outcome: "passes at a loosened 8e-4 (plateau, \"order reduction\")",
        stepper: "SparkGlrkLobattoIIIAIIIB1",
        verdict: Verdict::Inherent {
            evidence: GLRK_LOBATTO,
        },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "SPARKGLRKLobattoIIIAIIIB(2) (§6.1, §6.2)",
        upstream_outcome: "§6.1 loosened 4e-4; §6.2 @test_broken, order ~1 of 4",
        stepper: "SparkGlrkLobattoIIIAIIIB2",
        verdict: Verdict::Inherent {
            evidence: GLRK_LOBATTO,
        },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "SPARKGLRKLobattoIIIAIIIB(3) (§6.1)",
        upstream_outcome: "passes at a loosened 2e-4",
        stepper: "SparkGlrkLobattoIIIAIIIB3",
        verdict: Verdict::Inherent {
            evidence: GLRK_LOBATTO,
        },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "SPARKGLRKLobattoIIIBIIIA(1) (§6.1)",
        upstream_outcome: "passes at a loosened 4e-4",
        stepper: "SparkGlrkLobattoIIIBIIIA1",
        verdict: Verdict::Inherent {
            evidence: GLRK_LOBATTO,
        },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "SPARKGLRKLobattoIIIBIIIA(2) (§6.1)",
        upstream_outcome: "passes at a loosened 4e-4",
        stepper: "SparkGlrkLobattoIIIBIIIA2",
        verdict: Verdict::Inherent {
            evidence: GLRK_LOBATTO,
        },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "SPARKGLRKLobattoIIIBIIIA(3) (§6.1)",
        upstream_outcome: "passes at a loosened 2e-4",
        stepper: "SparkGlrkLobattoIIIBIIIA3",
        verdict: Verdict::Inherent {
            evidence: GLRK_LOBATTO,
        },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "SPARKGLVPRK(2) (§6.1, §6.2)",
        upstream_outcome: "§6.1 loosened 1e-6; §6.2 @test_broken, order 2 of 4 (\"R∞ = −1\")",
        stepper: "SparkGlvprk2",
        verdict: Verdict::Inherent {
            evidence: GAUSS_INDEX_2,
        },
        expected: Outcome::Order(2.0),
    },
    Case {
        upstream: "VSPARK(SPARKGLRK(1)) (§6.1)",
        upstream_outcome: "@test_throws SingularException",
        stepper: "VsparkGlrk1",
        verdict: Verdict::Inherent {
            evidence: GLRK_INCONSISTENT,
        },
        expected: Outcome::Fails(1, "inconsistent stage equations"),
    },
    Case {
        upstream: "VSPARK(SPARKGLRK(2)) (§6.1)",
        upstream_outcome: "@test_throws SingularException",
        stepper: "VsparkGlrk2",
        verdict: Verdict::Inherent {
            evidence: GLRK_INCONSISTENT,
        },
        expected: Outcome::Fails(1, "inconsistent stage equations"),
    },
    Case {
        upstream: "VSPARK(SPARKLobattoIIIAIIIB(2)) (§6.1, §6.2)",
        upstream_outcome: "§6.1 @test_throws SingularException; §6.2 @test_broken (order 2)",
        stepper: "VsparkLobattoIIIAIIIB2",
        verdict: Verdict::Fixed {
            cause: VSPARK_GAUGE,
        },
        expected: Outcome::Order(2.0),
    },
    Case {
        upstream: "VSPARK(SPARKLobattoIIIBIIIA(2)) (§6.1)",
        upstream_outcome: "passes 1e-6 while Newton stalls at 3.6e-5 (27 warnings)",
        stepper: "VsparkLobattoIIIBIIIA2",
        verdict: Verdict::Fixed { cause: VSPARK_BA2 },
        expected: Outcome::OrderGrowingMultiplier(2.0),
    },
    Case {
        upstream: "VSPARK(SPARKLobABC(2)) (§6.1, §6.2)",
        upstream_outcome: "§6.1 @test_broken; §6.2 @test_broken (order 2)",
        stepper: "VsparkLobABC2",
        verdict: Verdict::Inherent { evidence: LOB_ABC },
        expected: Outcome::Order(1.0),
    },
    Case {
        upstream: "VSPARK(SPARKLobABC(3)) (§6.1)",
        upstream_outcome: "passes a loosened 4e-10 with warnings muffled",
        stepper: "VsparkLobABC3",
        verdict: Verdict::Inherent { evidence: LOB_ABC },
        expected: Outcome::Order(3.0),
    },
    Case {
        upstream: "VSPARK(SPARKLobABC(4)) (§6.1)",
        upstream_outcome: "passes 1e-14 (not an upstream failure)",
        stepper: "VsparkLobABC4",
        verdict: Verdict::Inherent { evidence: LOB_ABC },
        expected: Outcome::Order(5.0),
    },
    Case {
        upstream: "VSPARK(SPARKLobABD(2)) (§6.1)",
        upstream_outcome: "@test_broken, error 0.06",
        stepper: "VsparkLobABD2",
        verdict: Verdict::Inherent {
            evidence: LOB_ABD_2,
        },
        expected: Outcome::Fails(1, "non-finite state"),
    },
    Case {
        upstream: "VSPARK(SPARKLobABD(3)) (§6.1)",
        upstream_outcome: "passes a loosened 8e-6 with warnings muffled",
        stepper: "VsparkLobABD3",
        verdict: Verdict::Inherent { evidence: LOB_ABD },
        expected: Outcome::Erratic,
    },
    Case {
        upstream: "VSPARK(SPARKLobABD(4)) (§6.1)",
        upstream_outcome: "passes 8e-12 (not an upstream failure)",
        stepper: "VsparkLobABD4",
        verdict: Verdict::Inherent { evidence: LOB_ABD },
        expected: Outcome::Erratic,
    },
    Case {
        upstream: "VSPARKLobattoIIIBIIIApSymmetric(3) (§6.1, §6.2)",
        upstream_outcome: "§6.1 asserted stalled (error 7.95e-7); §6.2 @test_broken (order 4)",
        stepper: "VsparkPrimaryLobattoIIIBIIIApSymmetric3",
        verdict: Verdict::Fixed { cause: R_INF },
        expected: Outcome::Order(4.0),
    },
    Case {
        upstream: "VSPARKLobattoIIIBIIIApSymmetric(3), upstream's R∞",
        upstream_outcome: "(as above)",
        stepper: "VsparkPrimaryLobattoIIIBIIIApSymmetricUpstream3",
        verdict: Verdict::Inherent {
            evidence: R_INF_REPRODUCED,
        },
        expected: Outcome::Fails(1, "singular stage Jacobian"),
    },
];

/// The study of `name` by `sparkgen verify --quick`.
fn study(name: &str) -> Study {
    let v = verify(true, Some(name)).expect("the built-in problems run");
    v.methods
        .into_iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{name}: no such stepper"))
}

fn fits(m: &Study, order: f64) -> bool {
    m.points >= 3
        && m.measured_order
            .is_some_and(|p| (p - order).abs() <= TOLERANCE)
}

/// One line of the measured outcome, for the table.
fn measured(m: &Study) -> String {
    let order = match m.measured_order {
        Some(p) => format!("{p:.2} ({} points)", m.points),
        None => "–".to_owned(),
    };
    let newton = match (m.failures.first(), m.sweep_failed_h.len()) {
        (None, 0) => "converges".to_owned(),
        (None, n) => format!("{n} sweep runs fail"),
        (Some(f), n) => format!("{n} sweep runs fail; {f}"),
    };
    let lambda = m.multiplier.map_or("–".to_owned(), |l| {
        format!("max {:.2e}, growth ×{:.2}", l.max, l.growth)
    });
    format!(
        "order {order} | {newton} | max |p − ϑ(q)| {:.1e} | λ {lambda}",
        m.max_constraint_residual
    )
}

#[test]
fn upstream_cases_meet_their_outcomes() {
    for case in CASES {
        let m = study(case.stepper);
        let verdict = match case.verdict {
            Verdict::Fixed { cause } => format!("fixed: {cause}"),
            Verdict::Inherent { evidence } => format!("inherent: {evidence}"),
        };
        assert!(!verdict.is_empty());
        println!(
            "| {} | {} | {} | {} |",
            case.upstream,
            case.upstream_outcome,
            case.stepper,
            measured(&m)
        );
        let what = format!("{} ({}): {}", case.upstream, case.stepper, measured(&m));
        // The verify table agrees with this one: the method passes with the same expectation.
        assert!(m.pass, "{what}: sparkgen verify fails it");
        match case.expected {
            Outcome::Order(order) | Outcome::OrderGrowingMultiplier(order) => {
                assert!(fits(&m, order), "{what}: expected order {order}");
                match m.pinned {
                    Some(Pinned::Order { order: pinned, .. })
                    | Some(Pinned::Parasitic { order: pinned, .. }) => {
                        assert_eq!(pinned, order, "{what}: pinned differently")
                    }
                    None => assert_eq!(m.declared_order as f64, order, "{what}: not pinned"),
                    Some(other) => panic!("{what}: pinned as {other:?}"),
                }
                assert!(
                    m.failures.is_empty() && m.sweep_failed_h.is_empty(),
                    "{what}: Newton fails"
                );
                let r = m.max_constraint_residual;
                if m.constraint_preserving {
                    assert!(r <= 1e-12, "{what}: max |p − ϑ(q)| = {r:e}");
                } else {
                    // SPARKGLVPRK holds the constraint at the projective stages only.
                    assert!(r > 1e-6, "{what}: max |p − ϑ(q)| = {r:e}");
                }
                let grows = m.multiplier.is_some_and(|l| l.grows);
                let expected = matches!(case.expected, Outcome::OrderGrowingMultiplier(_));
                assert_eq!(grows, expected, "{what}: multiplier {:?}", m.multiplier);
            }
            Outcome::OrderWithoutConstraint(order) => {
                assert!(fits(&m, order), "{what}: expected order {order}");
                assert!(!m.constraint_preserving, "{what}: listed as preserving");
                let r = m.max_constraint_residual;
                assert!(r > 1e-6, "{what}: max |p − ϑ(q)| = {r:e}");
                assert!(
                    m.sweep_failed_h.is_empty(),
                    "{what}: Newton fails on the sweep"
                );
            }
            Outcome::Fails(step, kind) => {
                assert!(m.measured_order.is_none(), "{what}: an order was fitted");
                let first = m.failures.first().map(String::as_str).unwrap_or("");
                assert!(
                    first.contains(&format!("step {step} (")) && first.contains(kind),
                    "{what}: expected `{kind}` at step {step}"
                );
                // Verify pins it to fail, or (VSPARK over SPARKLobABD, every s) as erratic.
                assert!(
                    matches!(
                        m.pinned,
                        Some(Pinned::Fails { .. } | Pinned::Erratic { .. })
                    ),
                    "{what}"
                );
            }
            Outcome::Erratic => {
                assert!(
                    !fits(&m, m.declared_order as f64),
                    "{what}: the order was fitted"
                );
                assert!(matches!(m.pinned, Some(Pinned::Erratic { .. })), "{what}");
            }
        }
    }
}

macro_rules! n {
    ($t:ty) => {
        <$t as StageMethod<LotkaVolterra2d, 2>>::UNKNOWNS
            .len(<$t as StageMethod<LotkaVolterra2d, 2>>::DIMS)
    };
}

const LV: LotkaVolterra2d = LotkaVolterra2d::SPARK_TEST;

fn start() -> (SVector<f64, 2>, SVector<f64, 2>) {
    let q0 = SVector::from(LotkaVolterra2d::SPARK_TEST_Q0);
    (q0, LV.theta(&q0))
}

/// The stage Jacobian of `M` at `x` for the step of size `h` from `(q, p)` (no carried
/// multiplier: the first step), as a dynamic matrix.
fn jacobian<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(
    h: f64,
    q: &SVector<f64, 2>,
    p: &SVector<f64, 2>,
    x: &[f64; N],
) -> DMatrix<f64> {
    let mut j = [[0.0; N]; N];
    M::jacobian(&LV, h, q, p, &[0.0; 2], x, &mut RowMajor::of(&mut j));
    DMatrix::from_fn(N, N, |r, c| j[r][c])
}

/// Singular values below this fraction of the largest are the exact gauge (they sit at 1e-16).
const GAUGE: f64 = 1e-10;

/// `(rank, σ_min/σ_max over the retained singular values)` of the stage Jacobian at the first
/// step's initial guess (velocities from the ODE, multipliers 0).
fn conditioning_at_guess<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(
    h: f64,
) -> (usize, f64) {
    let (q0, p0) = start();
    let v = vector_field(&LV, &q0).expect("regular one-form");
    let mut x = [0.0; N];
    for (b, block) in M::UNKNOWNS.blocks.iter().enumerate() {
        if block.role == Role::Velocity {
            for i in 0..block.stages {
                M::UNKNOWNS.set::<2>(&mut x, M::DIMS, b, i, &v);
            }
        }
    }
    let sv = jacobian::<M, N>(h, &q0, &p0, &x).singular_values();
    let max = sv.max();
    let kept: Vec<f64> = sv.iter().copied().filter(|s| *s > GAUGE * max).collect();
    let min = kept.iter().copied().fold(f64::INFINITY, f64::min);
    (kept.len(), min / max)
}

/// After the converged first step of size `h`: the rank of the stage Jacobian, the largest
/// change of `(q₁, p₁)` and of the carried multiplier `λ₁ = Σ d^λ_j Λ̃_j` along a unit vector of
/// its null space.
fn gauge_at_solution<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(
    h: f64,
) -> (usize, f64, f64) {
    let (q0, p0) = start();
    let equations = Compiled::<M, _, 2>::sized(&LV).expect("a small system");
    let mut driver = Driver::new(equations, h, NewtonOptions::default()).expect("valid step");
    driver
        .step(q0.as_slice(), p0.as_slice(), 1, 0.0)
        .expect("the first step converges");
    let x: [f64; N] = driver.unknowns().try_into().expect("N unknowns");
    let svd = jacobian::<M, N>(h, &q0, &p0, &x).svd(false, true);
    let v_t = svd.v_t.expect("computed");
    let max = svd.singular_values.max();
    let mut t = Tangent::zero(N, 2);
    M::tangent(
        &LV,
        h,
        &q0,
        &p0,
        &[0.0; 2],
        &x,
        &mut t.rows(2).expect("2 coordinates"),
    );
    let mut rank = 0;
    let (mut moved, mut multiplier) = (0.0f64, 0.0f64);
    for (k, s) in svd.singular_values.iter().enumerate() {
        if *s > GAUGE * max {
            rank += 1;
            continue;
        }
        for row in t.q_x.chunks_exact(N).chain(t.p_x.chunks_exact(N)) {
            let d: f64 = (0..N).map(|c| row[c] * v_t[(k, c)]).sum();
            moved = moved.max(d.abs());
        }
        let direction: Vec<f64> = (0..N).map(|c| v_t[(k, c)]).collect();
        if let Some(update) = M::MULTIPLIER {
            let mut d = [0.0; 2];
            update.apply(&M::UNKNOWNS, M::DIMS, &direction, &mut d);
            multiplier = d.iter().fold(multiplier, |m, x| m.max(x.abs()));
        }
    }
    (rank, moved, multiplier)
}

#[test]
fn vspark_lobabc_null_space_is_a_gauge_and_lobabd_degenerates_as_h_shrinks() {
    const D: usize = 2;
    // (name, s, rank at the solution, change of (q₁, p₁) along the null space); the control is
    // VSPARK over SPARKLobattoIIIAIIIB(2), whose gauge (with μ) is the one VSPARK_GAUGE names.
    let gauges = [
        (
            "VsparkLobattoIIIAIIIB2",
            2,
            gauge_at_solution::<VsparkLobattoIIIAIIIB2, { n!(VsparkLobattoIIIAIIIB2) }>(0.05),
            n!(VsparkLobattoIIIAIIIB2),
        ),
        (
            "VsparkLobattoIIIBIIIA2",
            2,
            gauge_at_solution::<VsparkLobattoIIIBIIIA2, { n!(VsparkLobattoIIIBIIIA2) }>(0.05),
            n!(VsparkLobattoIIIBIIIA2),
        ),
        (
            "VsparkLobABC2",
            2,
            gauge_at_solution::<VsparkLobABC2, { n!(VsparkLobABC2) }>(0.05),
            n!(VsparkLobABC2),
        ),
        (
            "VsparkLobABC3",
            3,
            gauge_at_solution::<VsparkLobABC3, { n!(VsparkLobABC3) }>(0.05),
            n!(VsparkLobABC3),
        ),
        (
            "VsparkLobABC4",
            4,
            gauge_at_solution::<VsparkLobABC4, { n!(VsparkLobABC4) }>(0.05),
            n!(VsparkLobABC4),
        ),
    ];
    for (name, s, (rank, moved, multiplier), n) in gauges {
        println!(
            "{name}: rank {rank} of {n}, null space moves (q₁, p₁) by {moved:.1e}, λ₁ by {multiplier:.1e}"
        );
        assert_eq!(n - rank, (s - 1) * D, "{name}: rank {rank} of {n}");
        assert!(moved <= 1e-12, "{name}: not a gauge, {moved:e}");
        // The carried multiplier (an output: VSPARK does not read λₙ) moves along the gauge:
        // its value is the minimum-norm Newton's choice, not the method's.
        assert!(multiplier > 1e-3, "{name}: λ₁ fixed by the stage equations");
    }
    // σ_min/σ_max of the retained singular values at h = 0.1 and 0.05: about constant for
    // LobABC (all scale with h), halved or less for LobABD (D of them scale with h²).
    let ratios = [
        (
            "VsparkLobABC2",
            2,
            conditioning_at_guess::<VsparkLobABC2, { n!(VsparkLobABC2) }>(0.1),
            conditioning_at_guess::<VsparkLobABC2, { n!(VsparkLobABC2) }>(0.05),
            n!(VsparkLobABC2),
            false,
        ),
        (
            "VsparkLobABC3",
            3,
            conditioning_at_guess::<VsparkLobABC3, { n!(VsparkLobABC3) }>(0.1),
            conditioning_at_guess::<VsparkLobABC3, { n!(VsparkLobABC3) }>(0.05),
            n!(VsparkLobABC3),
            false,
        ),
        (
            "VsparkLobABC4",
            4,
            conditioning_at_guess::<VsparkLobABC4, { n!(VsparkLobABC4) }>(0.1),
            conditioning_at_guess::<VsparkLobABC4, { n!(VsparkLobABC4) }>(0.05),
            n!(VsparkLobABC4),
            false,
        ),
        (
            "VsparkLobABD2",
            2,
            conditioning_at_guess::<VsparkLobABD2, { n!(VsparkLobABD2) }>(0.1),
            conditioning_at_guess::<VsparkLobABD2, { n!(VsparkLobABD2) }>(0.05),
            n!(VsparkLobABD2),
            true,
        ),
        (
            "VsparkLobABD3",
            3,
            conditioning_at_guess::<VsparkLobABD3, { n!(VsparkLobABD3) }>(0.1),
            conditioning_at_guess::<VsparkLobABD3, { n!(VsparkLobABD3) }>(0.05),
            n!(VsparkLobABD3),
            true,
        ),
        (
            "VsparkLobABD4",
            4,
            conditioning_at_guess::<VsparkLobABD4, { n!(VsparkLobABD4) }>(0.1),
            conditioning_at_guess::<VsparkLobABD4, { n!(VsparkLobABD4) }>(0.05),
            n!(VsparkLobABD4),
            true,
        ),
    ];
    for (name, s, (rank_coarse, coarse), (rank_fine, fine), n, degenerates) in ratios {
        let drop = coarse / fine;
        println!(
            "{name}: at the initial guess rank {rank_coarse} of {n}, σ_min/σ_max {coarse:.2e} \
             (h = 0.1), {fine:.2e} (h = 0.05): ×{drop:.2} per halving"
        );
        assert_eq!(n - rank_coarse, (s - 1) * D, "{name}");
        assert_eq!(rank_fine, rank_coarse, "{name}");
        if degenerates {
            assert!(drop >= 1.8, "{name}: σ_min/σ_max drops ×{drop} per halving");
        } else {
            assert!((0.8..=1.25).contains(&drop), "{name}: ×{drop} per halving");
        }
    }
}

/// `max_n |p_{n+1} − p_n − J(q_{n+1})ᵀ(q_{n+1} − q_n) + h∇H(q_{n+1})|∞` over 10 steps of
/// `h`: the defect of the one-point scheme that VSPARK over SPARKLobABC(2) reduces to.
fn one_point_defect<
    M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default,
>(
    h: f64,
) -> f64 {
    let (q0, p0) = start();
    let s = solve(&LV, M::default(), q0, p0, &Options::new(h, 10))
        .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error));
    (0..10)
        .map(|n| {
            let (q, q1) = (s.q[n], s.q[n + 1]);
            let e = s.p[n + 1] - s.p[n] - LV.theta_jacobian(&q1).transpose() * (q1 - q)
                + LV.hamiltonian_gradient(&q1) * h;
            e.amax()
        })
        .fold(0.0, f64::max)
}

#[test]
fn vspark_lobabc_2_is_a_one_point_scheme() {
    for h in [0.1, 0.05] {
        let two = one_point_defect::<VsparkLobABC2>(h);
        let three = one_point_defect::<VsparkLobABC3>(h);
        println!("h = {h}: one-point defect {two:.1e} (s = 2), {three:.1e} (s = 3)");
        assert!(two <= 1e-13, "s = 2: {two:e}");
        assert!(
            three >= 1e-8,
            "s = 3 is not the one-point scheme: {three:e}"
        );
    }
}

/// For VSPARK over SPARKLobABD(2) (`M`) at step size `h`: the solution of the stage equations
/// with both internal positions `q₀ + h(V₁ + Λ̃₁)/2` at the equilibrium `Q` of H, `W₂ = −W₁`
/// (so `q₁ = q₀`), `Λ̃₁ − Λ̃₂` from `P₁ = p₀ + (h/4)J(Q)ᵀ(Λ̃₁ − Λ̃₂) = ϑ(Q)` and the gauge
/// `Λ̃₁ + Λ̃₂ = 0`. Returns `(|x|∞, max |r|, |(q₁, p₁) − (q₀, p₀)|∞)`.
fn standing_still<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(h: f64) -> (f64, f64, f64) {
    let (q0, p0) = start();
    // ∇H = (a₁ + b₁/q₁, a₂ + b₂/q₂) = 0.
    let equilibrium = SVector::from([-LV.b1 / LV.a1, -LV.b2 / LV.a2]);
    let block = |name: &str| {
        M::UNKNOWNS
            .blocks
            .iter()
            .position(|b| b.name == name)
            .expect("block")
    };
    let (v, lambda) = (block("V"), block("Lambda"));
    let w1 = (equilibrium - q0) * (2.0 / h);
    let jt = LV.theta_jacobian(&equilibrium).transpose();
    let diff = jt.try_inverse().expect("regular") * (LV.theta(&equilibrium) - p0) * (4.0 / h);
    let (l1, l2) = (diff * 0.5, -diff * 0.5);
    let mut x = [0.0; N];
    M::UNKNOWNS.set::<2>(&mut x, M::DIMS, v, 0, &(w1 - l1));
    M::UNKNOWNS.set::<2>(&mut x, M::DIMS, v, 1, &(-w1 - l2));
    M::UNKNOWNS.set::<2>(&mut x, M::DIMS, lambda, 0, &l1);
    M::UNKNOWNS.set::<2>(&mut x, M::DIMS, lambda, 1, &l2);
    let mut r = [0.0; N];
    M::residual(&LV, h, &q0, &p0, &[0.0; 2], &x, &mut r);
    let residual = r.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    let (q1, p1) = M::update(&LV, h, &q0, &p0, &[0.0; 2], &x);
    let size = x.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    (size, residual, (q1 - q0).amax().max((p1 - p0).amax()))
}

#[test]
fn vspark_lobabd_2_only_solution_stands_still_at_the_equilibrium() {
    type M = VsparkLobABD2;
    let (q0, p0) = start();
    for h in [0.1, 0.05] {
        let (size, residual, moved) = standing_still::<M, { n!(M) }>(h);
        println!(
            "h = {h}: |x|∞ = {size:.1}, stage residual {residual:.1e}, |(q₁, p₁) − (q₀, p₀)| {moved:.1e}"
        );
        assert!(residual <= 1e-12, "not a solution: {residual:e}");
        assert!(moved <= 1e-13, "the step moves: {moved:e}");
        // Newton from the usual initial guess does not get there.
        let failure = solve(&LV, M::default(), q0, p0, &Options::new(h, 10))
            .expect_err("VSPARK over SPARKLobABD(2) has no usable step");
        assert!(
            matches!(failure.error, IntegrateError::NonFinite { step: 1, .. }),
            "{}",
            failure.error
        );
    }
}

#[test]
fn typed_failures_of_the_throwing_cases() {
    let (q0, p0) = start();
    let options = Options::new(0.1, 10);
    let glrk1 = solve(&LV, VsparkGlrk1, q0, p0, &options).expect_err("inconsistent");
    let glrk2 = solve(&LV, VsparkGlrk2, q0, p0, &options).expect_err("inconsistent");
    for (s, n, f) in [(1, n!(VsparkGlrk1), glrk1), (2, n!(VsparkGlrk2), glrk2)] {
        println!("VsparkGlrk{s} ({n} unknowns): {}", f.error);
        match f.error {
            IntegrateError::InconsistentStageEquations {
                step,
                rank,
                residual,
                unreachable,
                ..
            } => {
                assert_eq!(step, 1);
                // V and Λ̃ enter only as V + Λ̃: rank s·D of 2s·D.
                assert_eq!((rank, n), (2 * s, 4 * s));
                assert!(
                    unreachable > 0.9 * residual,
                    "{unreachable:e} of {residual:e}"
                );
            }
            other => panic!("VsparkGlrk{s}: {other}"),
        }
    }
    type U = VsparkPrimaryLobattoIIIBIIIApSymmetricUpstream3;
    let upstream = solve(&LV, U::default(), q0, p0, &options).expect_err("singular");
    println!(
        "{}: {}",
        <U as StageMethod<LotkaVolterra2d, 2>>::NAME,
        upstream.error
    );
    // The singular column is named in the method's terms: the unknown block, stage and
    // coordinate it belongs to, consistent with the column number.
    match upstream.error {
        IntegrateError::SingularJacobian {
            step: 1,
            column,
            unknown: Some(at),
            ..
        } => {
            let dims = <U as StageMethod<LotkaVolterra2d, 2>>::DIMS;
            let layout = <U as StageMethod<LotkaVolterra2d, 2>>::UNKNOWNS;
            let b = layout
                .blocks
                .iter()
                .position(|b| b.name == at.block)
                .unwrap();
            let width = dims.of(layout.blocks[b].width);
            assert_eq!(
                layout.offset(b, at.stage - 1, dims) + at.component - 1,
                column
            );
            assert!(at.component <= width && at.stage <= at.stages);
            assert!(
                upstream
                    .error
                    .to_string()
                    .contains(&format!("the unknown {at}"))
            );
        }
        ref other => panic!("expected a singular Jacobian at step 1 naming its unknown: {other}"),
    }
}

/// `max ‖r‖₂` of Newton over `steps` steps of `h`.
fn newton_residual<
    M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default,
>(
    h: f64,
    steps: usize,
) -> f64 {
    let (q0, p0) = start();
    let s = solve(&LV, M::default(), q0, p0, &Options::new(h, steps))
        .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error));
    assert_eq!(s.stats.len(), steps);
    s.stats.iter().map(|st| st.residual).fold(0.0, f64::max)
}

#[test]
fn rank_deficient_vspark_lobatto_2_converges_to_round_off() {
    // Upstream: VSPARK(SPARKLobattoIIIBIIIA(2)) stalls at 3.6e-5 at Δt = 0.01, and
    // VSPARK(SPARKLobattoIIIAIIIB(2)) throws.
    for (h, steps) in [(0.01, 100), (0.1, 1000)] {
        let ab = newton_residual::<VsparkLobattoIIIAIIIB2>(h, steps);
        let ba = newton_residual::<VsparkLobattoIIIBIIIA2>(h, steps);
        println!(
            "h = {h}, {steps} steps: max Newton ‖r‖₂ {ab:.1e} (IIIA–IIIB), {ba:.1e} (IIIB–IIIA)"
        );
        assert!(ab <= 1e-11 && ba <= 1e-11, "{ab:e}, {ba:e}");
    }
}

/// Upstream's SPARK μ over Lobatto IIIB–IIIA(2) (`SparkLobattoIIIBIIIAUpstreamMu2`): μ₁ enters
/// only the internal positions `Q₁`, `Q₂` (with weights ∓h d₁/b₁), which coincide at μ = 0, and
/// through them only `p₁ = p₀ + ½h(F₁ + F₂) + …`; so at upstream's guess μ = 0 its column of
/// the stage Jacobian is `½h²(d₁/b₁)(∇²H(Q₁) − ∇²H(Q₂))e₂ = 0` whatever the state and Λ̃, and
/// nonzero once μ₁ ≠ 0: the singular step 1 is the compatibility form's, not Newton's.
#[test]
fn upstream_mu_column_vanishes_at_upstreams_guess() {
    type M = SparkLobattoIIIBIIIAUpstreamMu2;
    const N: usize = n!(M);
    let column = <M as StageMethod<LotkaVolterra2d, 2>>::UNKNOWNS.offset(
        1,
        0,
        <M as StageMethod<LotkaVolterra2d, 2>>::DIMS,
    );
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = |lo: f64, hi: f64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        lo + (hi - lo) * (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for h in [0.01, 0.1, 0.5] {
        for _ in 0..8 {
            let q = SVector::from([uniform(1.0, 2.0), uniform(1.0, 2.0)]);
            let p = LV.theta(&q);
            let mut x = [0.0; N];
            for v in x.iter_mut().take(column) {
                *v = uniform(-0.3, 0.3);
            }
            let at_guess = jacobian::<M, N>(h, &q, &p, &x);
            let scale = at_guess.amax().max(1.0);
            let largest = at_guess.column(column).amax();
            assert!(largest <= 1e-15 * scale, "h = {h}: μ₁ column {largest:e}");
            x[column] = 0.1;
            let moved = jacobian::<M, N>(h, &q, &p, &x).column(column).amax();
            assert!(
                moved > 1e-3 * h.powi(3),
                "h = {h}: μ₁ column {moved:e} at μ₁ = 0.1"
            );
        }
    }
}
