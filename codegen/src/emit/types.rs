//! The types of the emitted constants (`generated/src/types.rs`).

use crate::recommend::Class;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use sparkgen_description::facts::Energy;

/// An emitted enum `ty`, documented by `doc`, of the variants `all`, each documented by its
/// meaning, with `name()`: the variant's name in lower case, as `--json` spells it.
fn named_enum<T: Copy>(
    doc: &str,
    ty: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    meaning: fn(T) -> &'static str,
) -> TokenStream {
    let ty = format_ident!("{ty}");
    let variants = all.iter().map(|&v| {
        let (variant, doc) = (format_ident!("{}", name(v)), format!(" {}.", meaning(v)));
        quote!(#[doc = #doc] #variant)
    });
    let arms = all.iter().map(|&v| {
        let (variant, text) = (format_ident!("{}", name(v)), name(v).to_lowercase());
        quote!(#ty::#variant => #text)
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
        pub enum #ty {
            #(#variants),*
        }

        impl #ty {
            /// The name in lower case, as `--json` spells it.
            pub fn name(self) -> &'static str {
                match self {
                    #(#arms),*
                }
            }
        }
    }
}

/// The source of `types.rs`.
pub fn types_module() -> TokenStream {
    let classes = named_enum(
        " The classes of the method guide, best first.",
        "RecommendationClass",
        &Class::ALL,
        Class::name,
        Class::meaning,
    );
    let energies = named_enum(
        " How a method's energy error behaves over long runs.",
        "LongRunEnergy",
        &Energy::ALL,
        Energy::name,
        Energy::meaning,
    );
    quote! {
        //! Types of the emitted tableau constants and SPARK coefficients.
        //!
        //! Every coefficient is stored as the correctly rounded `f64` of its exact value plus the
        //! rounding remainder (`x − fl(x)` rounded to `f64`) for compensated summation.

        /// The limit `R(∞)` of the stability function `R(z) = det(I − zA + z𝟙bᵀ)/det(I − zA)`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum RInfinity {
            /// A finite limit (−1, 0 or 1 for the shipped families).
            Finite(i32),
            /// `|R(z)| → ∞`.
            Infinite,
        }

        /// Properties of a tableau: order, simplifying assumptions, structure, stability at ∞.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Properties {
            /// Classical order p.
            pub order: usize,
            /// Largest k with `B(k)`: `Σ_i b_i c_i^{k−1} = 1/k`.
            pub b: usize,
            /// Largest k with `C(k)`: `Σ_j a_ij c_j^{l−1} = c_i^l/l`, l ≤ k.
            pub c: usize,
            /// Largest k with `D(k)`: `Σ_i b_i c_i^{l−1} a_ij = b_j(1 − c_j^l)/l`, l ≤ k.
            pub d: usize,
            /// `b_i a_ij + b_j a_ji = b_i b_j`.
            pub symplectic: bool,
            /// `a_{s+1−i,s+1−j} + a_ij = b_j`.
            pub symmetric: bool,
            /// `R(∞)`.
            pub r_infinity: RInfinity,
        }

        /// A Butcher tableau `(a, b, c)` with `S` stages:
        /// `Q_i = q_n + h Σ_j a_ij V_j`, `q_{n+1} = q_n + h Σ_i b_i V_i`.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Tableau<const S: usize> {
            /// Name with stage count, e.g. `LobattoIIIA(3)`.
            pub name: &'static str,
            /// Family name, e.g. `LobattoIIIA`.
            pub family: &'static str,
            /// `a_ij`, correctly rounded.
            pub a: [[f64; S]; S],
            /// Rounding remainders of `a_ij`.
            pub a_lo: [[f64; S]; S],
            /// `b_i`, correctly rounded.
            pub b: [f64; S],
            /// Rounding remainders of `b_i`.
            pub b_lo: [f64; S],
            /// `c_i`, correctly rounded.
            pub c: [f64; S],
            /// Rounding remainders of `c_i`.
            pub c_lo: [f64; S],
            /// Whether every exact coefficient is rational.
            pub exact_rational: bool,
            /// Declared properties (equal to the computed ones; the generator refuses otherwise).
            pub properties: Properties,
        }

        /// A partitioned tableau: `(a, b, c)` for q and `(ā, b̄, c̄)` for p.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct PartitionedTableau<const S: usize> {
            /// Name with stage count, e.g. `LobattoIIIAIIIB(3)`.
            pub name: &'static str,
            /// The q-tableau.
            pub q: &'static Tableau<S>,
            /// The p-tableau.
            pub p: &'static Tableau<S>,
            /// Order of the pair (bi-coloured trees).
            pub order: usize,
            /// `b_i ā_ij + b̄_j a_ji = b_i b̄_j` and `b = b̄`.
            pub symplectic: bool,
            /// Both tableaus symmetric.
            pub symmetric: bool,
        }

        /// A coefficient matrix with `R` rows and `C` columns (ω matrices).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Coefficients<const R: usize, const C: usize> {
            /// Name, e.g. `LobattoOmega(3)`.
            pub name: &'static str,
            /// Correctly rounded values.
            pub value: [[f64; C]; R],
            /// Rounding remainders.
            pub lo: [[f64; C]; R],
        }

        /// A coefficient vector of length `N` (null vectors).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Vector<const N: usize> {
            /// Name, e.g. `LobattoNullVector(3)`.
            pub name: &'static str,
            /// Correctly rounded values.
            pub value: [f64; N],
            /// Rounding remainders.
            pub lo: [f64; N],
        }

        /// Lobatto–Gauss coupling coefficients: `Σ_j ā_ij c_j^{k−1} = c̄_i^k/k` (k = 1..S),
        /// c the Gauss(S) nodes, c̄ the Lobatto(Σ) nodes.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct LobattoGauss<const S: usize, const SIGMA: usize> {
            /// Name, e.g. `LobattoGauss(2, 3)`.
            pub name: &'static str,
            /// ā (Σ×S), correctly rounded.
            pub a: [[f64; S]; SIGMA],
            /// Rounding remainders of ā.
            pub a_lo: [[f64; S]; SIGMA],
            /// Lobatto(Σ) weights b̄.
            pub b: [f64; SIGMA],
            /// Rounding remainders of b̄.
            pub b_lo: [f64; SIGMA],
            /// Lobatto(Σ) nodes c̄.
            pub c: [f64; SIGMA],
            /// Rounding remainders of c̄.
            pub c_lo: [f64; SIGMA],
        }

        /// A tableau's coefficients with the stage count erased (`a` row-major, s×s).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct TableauData {
            /// `a_ij` at index `i·s + j`.
            pub a: &'static [f64],
            /// Rounding remainders of `a`.
            pub a_lo: &'static [f64],
            /// `b_i`.
            pub b: &'static [f64],
            /// Rounding remainders of `b`.
            pub b_lo: &'static [f64],
            /// `c_i`.
            pub c: &'static [f64],
            /// Rounding remainders of `c`.
            pub c_lo: &'static [f64],
        }

        /// A SPARK coefficient array with its shape erased (row-major).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct CoefficientData {
            /// Name, e.g. `LobattoOmega(3)`, `LobattoNullVector(4)`, `LobattoGauss(2, 3)` (its ā).
            pub name: &'static str,
            /// Rows (1 for vectors).
            pub rows: usize,
            /// Columns.
            pub cols: usize,
            /// Correctly rounded values.
            pub value: &'static [f64],
            /// Rounding remainders.
            pub lo: &'static [f64],
        }

        /// A catalogue row: declared and computed properties side by side.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct CatalogueEntry {
            /// Name with stage count.
            pub name: &'static str,
            /// Family name.
            pub family: &'static str,
            /// Number of stages.
            pub stages: usize,
            /// Whether every exact coefficient is rational.
            pub exact_rational: bool,
            /// What the catalogue declares.
            pub declared: Properties,
            /// What the generator computed in working precision.
            pub computed: Properties,
            /// Where upstream (RungeKutta.jl / GeometricIntegrators.jl) declares otherwise.
            pub upstream: &'static [&'static str],
            /// The coefficients.
            pub data: TableauData,
        }

        /// A catalogue row of a partitioned pair.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct PairEntry {
            /// Name with stage count.
            pub name: &'static str,
            /// Number of stages.
            pub stages: usize,
            /// Family of the q-tableau.
            pub q_family: &'static str,
            /// Family of the p-tableau.
            pub p_family: &'static str,
            /// Declared order.
            pub declared_order: usize,
            /// Order computed from bi-coloured trees.
            pub computed_order: usize,
            /// Symplectic pair.
            pub symplectic: bool,
            /// Both tableaus symmetric.
            pub symmetric: bool,
        }

        /// What a generated stepper's stage structure implies, decided by the generator's
        /// family builder, and what was measured of it (`measured`).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct MethodFacts {
            /// The stage equations impose the constraint at the step's end,
            /// `φ(q_{n+1}, p_{n+1}) = 0` (`p = ϑ(q)`; for a holonomic system `c(q) = 0` and
            /// `G M⁻¹ p = 0`), so it holds to round-off at every step.
            pub preserves_constraint: bool,
            /// What the carried multiplier `λ_n` is (`None`: the stepper carries none).
            pub multiplier: Option<CarriedMultiplier>,
            /// The declared order holds where the one-form ϑ is linear; on a nonlinear one
            /// (an index-2 DAE) it drops.
            pub needs_linear_one_form: bool,
            /// Its measured behaviour on the verification problems where it departs from the
            /// declared order, with its cause.
            pub pinned: Option<Pinned>,
            /// The same on the pendulum's index-2 form (implicit-DAE steppers).
            pub pinned_on_index_two_pendulum: Option<Pinned>,
            /// Known limitations, measured (the causes of its pins among them).
            pub limitations: &'static [&'static str],
            /// Its class in the method guide (`docs/methods.md`) and why, decided from the
            /// facts above.
            pub recommendation: Recommendation,
        }

        /// A method's class in the method guide and why, in one line.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        pub struct Recommendation {
            /// The class.
            pub class: RecommendationClass,
            /// Why; it names the measured cause (a constant of `measured`), if any.
            pub reason: &'static str,
        }

        #classes

        /// A generated stepper's measured behaviour over long runs (`measured::LONG_RUN`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        pub struct LongRun {
            /// The stepper, a type name in `steppers`.
            pub method: &'static str,
            /// Whether its energy error stays bounded or drifts.
            pub energy: LongRunEnergy,
            /// It is the method guide's pick for long runs of its problem kind.
            pub recommended: bool,
            /// What was measured, with its figures (a constant of `measured`).
            pub reason: &'static str,
        }

        #energies

        /// What `sparkgen verify` expects of a method that does not reach its declared order.
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
        pub enum Pinned {
            /// A measured order other than the declared one.
            Order {
                /// The order.
                order: f64,
                /// Why.
                reason: &'static str,
            },
            /// The long run stops at once with an error whose message contains `error`, and no
            /// order can be fitted (a sweep run may get through at step sizes where the defect
            /// falls below Newton's tolerance).
            Fails {
                /// Text of the expected error.
                error: &'static str,
                /// Why.
                reason: &'static str,
            },
            /// The order holds on the sweep, but the carried multiplier `λ_n` grows without
            /// bound over the long run (a parasitic mode): verify reports the time of
            /// breakdown.
            Parasitic {
                /// The order.
                order: f64,
                /// Why.
                reason: &'static str,
            },
            /// Runs stop or end non-finite at some step sizes and the errors follow no order: no
            /// fit of 3 points within the tolerance of the declared order.
            Erratic {
                /// What was seen.
                reason: &'static str,
            },
            /// Every run of the sweep converges, but to something else: the error stays large
            /// at every step size (order 0, the method is inconsistent with the problem).
            NoConvergence {
                /// Why.
                reason: &'static str,
            },
        }

        impl Pinned {
            /// The cause.
            pub fn reason(&self) -> &'static str {
                match self {
                    Pinned::Order { reason, .. }
                    | Pinned::Parasitic { reason, .. }
                    | Pinned::Fails { reason, .. }
                    | Pinned::Erratic { reason }
                    | Pinned::NoConvergence { reason } => reason,
                }
            }
        }

        /// The carried multiplier `λ_n` on the view of a degenerate Lagrangian.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
        pub enum CarriedMultiplier {
            /// A projection multiplier: the internal velocities carry the motion and `λ`
            /// vanishes on the exact flow, so its size measures the method's defect.
            Projection,
            /// The velocity `q̇` (`u = λ` on the views), whose size says nothing of a defect.
            Velocity,
        }
    }
}
