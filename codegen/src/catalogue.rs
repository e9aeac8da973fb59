//! The catalogue: every tableau, pair and SPARK coefficient that `generated/` ships, with the
//! properties we declare and the ones the checks compute in working precision.

use crate::check::{
    self, OrderOptions, OrderReport, simplifying_levels, stability_function, symmetry_residual,
    symplecticity_residual_partitioned,
};
use crate::emit::files::EmitError;
use crate::emit::literal::int;
use crate::emit::naming::tableau_path;
use crate::emit::tableaus::properties_tokens;
use crate::exact::{Matrix, Num, Precision};
use crate::method::hspark_secondary::hspark_secondary;
use crate::method::ir::{Method, ProblemKind};
use crate::method::rattle::rattle_lobatto;
use crate::method::slrk::slrk;
use crate::method::spark::{
    NullMultiplier, hpark, hspark, hspark_primary, spark, vpark, vspark, vspark_primary,
    vspark_primary_lobatto,
};
use crate::method::vprk::vprk;
use crate::method::vspark_secondary::vspark_secondary;
use crate::spark::primary_lobatto::PrimaryLobatto;
use crate::spark::projection::{Base, Convention};
use crate::spark::{
    LobattoGauss, SparkKind, gauss_omega_matrix, lobatto_gauss_coefficients, lobatto_null_vector,
    lobatto_omega_matrix,
};
use crate::tableau::{
    Family, PairKind, PairProperties, PartitionedTableau, Properties, RInfinity, Tableau,
    UpstreamClaim, build,
};
use proc_macro2::TokenStream;
use quote::quote;
use rug::Float;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Working precision of the MPFR part.
    pub prec: Precision,
    /// Largest number of stages shipped.
    pub max_stages: usize,
}

impl Default for Config {
    /// 256 bits, s ≤ 8.
    fn default() -> Self {
        Config {
            prec: Precision::DEFAULT,
            max_stages: 8,
        }
    }
}

/// A tableau with its declared and computed properties.
#[derive(Clone, Debug)]
pub struct TableauEntry {
    /// The tableau.
    pub tableau: Tableau,
    /// What we declare ([`Family::declared`]).
    pub declared: Properties,
    /// What the checks compute.
    pub computed: Properties,
    /// Where upstream declares otherwise.
    pub upstream: Vec<UpstreamClaim>,
}

/// A partitioned pair with its declared and computed properties.
#[derive(Clone, Debug)]
pub struct PairEntry {
    /// The pair.
    pub pair: PartitionedTableau,
    /// What we declare ([`PairKind::declared`]).
    pub declared: PairProperties,
    /// What the checks compute.
    pub computed: PairProperties,
}

/// Everything `generated/` ships.
#[derive(Clone, Debug)]
pub struct Catalogue {
    /// Largest number of stages.
    pub max_stages: usize,
    /// Tableaus, family by family, s ascending.
    pub tableaus: Vec<TableauEntry>,
    /// Partitioned pairs.
    pub pairs: Vec<PairEntry>,
    /// `lobatto_ω_matrix(s)`, s = 2..=max.
    pub lobatto_omega: Vec<(usize, Matrix)>,
    /// `gauss_ω_matrix(s)`, s = 1..=max.
    pub gauss_omega: Vec<(usize, Matrix)>,
    /// Lobatto null vectors d(s), s = 2..=max.
    pub null_vectors: Vec<(usize, Vec<Num>)>,
    /// `lobatto_gauss_coefficients(s, σ)` for s = 1..=max and σ ∈ {2, s+1}.
    pub lobatto_gauss: Vec<LobattoGauss>,
    /// Generated steppers: SLRK (six families, s = 2..=5), VPRK (Gauss s = 1..=4, Lobatto
    /// IIIA–IIIB and IIIB–IIIA with null vector, s = 2..=4), Lobatto IIIA–IIIB RATTLE for
    /// holonomic systems (s = 2..=5).
    pub methods: Vec<Method>,
}

/// The steppers the catalogue ships.
pub fn methods(prec: Precision) -> Result<Vec<Method>, EmitError> {
    let mut out = Vec::new();
    for kind in PairKind::SLRK {
        for s in 2..=5 {
            out.push(slrk(kind, s, prec)?);
        }
    }
    for s in 1..=4 {
        out.push(vprk(PairKind::Gauss, s, prec)?);
    }
    for kind in [PairKind::LobattoIIIAIIIB, PairKind::LobattoIIIBIIIA] {
        for s in 2..=4 {
            out.push(vprk(kind, s, prec)?);
        }
    }
    for s in 2..=5 {
        out.push(rattle_lobatto(s, prec)?);
    }
    // SPARK and VPARK on the view of a degenerate Lagrangian and on implicit DAEs; VSPARK on
    // the view only: on an implicit DAE its stage unknowns include Q̃, P̃, and Newton there
    // drifts along the gauge V + U of the coinciding slots (measured: VSPARK over SPARKGLVPRK(1)
    // on Lotka–Volterra converges to V₁ = 16.6, Λ̃₁ = −17.6 and ends non-finite at step 3).
    for problem in [ProblemKind::DegenerateLagrangian, ProblemKind::ImplicitDae] {
        for kind in SparkKind::ALL {
            for s in kind.min_stages()..=4 {
                out.push(spark(kind, problem, s, NullMultiplier::Absent, prec)?);
            }
        }
        if problem == ProblemKind::DegenerateLagrangian {
            for kind in SparkKind::ALL {
                for s in kind.min_stages()..=4 {
                    out.push(vspark(kind, problem, s, prec)?);
                }
            }
        }
        for base in Base::ALL {
            for s in base.min_stages()..=4 {
                out.push(vpark(base, problem, s, Convention::Documented, prec)?);
            }
        }
    }
    for base in Base::ALL {
        for &projection in base.projections() {
            for s in base.min_stages()..=4 {
                out.push(vspark_primary(
                    base,
                    projection,
                    s,
                    Convention::Documented,
                    prec,
                )?);
            }
        }
    }
    // Upstream's R∞ = −1 for the Lobatto projections, side by side: it differs from the
    // documented (−1)^{s+1} for odd s only, and s = 3 is the case upstream tests.
    for base in [Base::LobattoIIIAIIIB, Base::LobattoIIIBIIIA] {
        out.push(vpark(
            base,
            ProblemKind::DegenerateLagrangian,
            3,
            Convention::Upstream,
            prec,
        )?);
        for &projection in base.projections() {
            out.push(vspark_primary(
                base,
                projection,
                3,
                Convention::Upstream,
                prec,
            )?);
        }
    }
    // Upstream's two forms of SPARK's μ over the tableaus with a null vector, side by side with
    // the correct form (which has none): the code's mis-indexed positions, and the ω rows of
    // its documentation.
    for mu in [NullMultiplier::UpstreamCode, NullMultiplier::OmegaRow] {
        for kind in [SparkKind::LobattoIIIAIIIB, SparkKind::LobattoIIIBIIIA] {
            for s in kind.min_stages()..=4 {
                out.push(spark(kind, ProblemKind::DegenerateLagrangian, s, mu, prec)?);
            }
        }
    }
    // Hamiltonian DAEs: HSPARK over every SPARK tableau, HPARK over Gauss and the Lobatto pairs.
    for kind in SparkKind::ALL {
        for s in kind.min_stages()..=4 {
            out.push(hspark(kind, s, prec)?);
        }
    }
    for base in Base::ALL {
        for s in base.min_stages()..=4 {
            out.push(hpark(base, s, prec)?);
        }
        for s in base.min_stages()..=4 {
            out.push(hspark_primary(base, s, prec)?);
        }
    }
    for kind in PrimaryLobatto::ALL {
        for s in 2..=4 {
            out.push(vspark_primary_lobatto(kind, s, prec)?);
        }
    }
    for gauss in [false, true] {
        for kind in PairKind::SLRK {
            let stages = if gauss { 1..=3 } else { 2..=4 };
            for s in stages {
                out.push(vspark_secondary(kind, s, gauss, prec)?);
                out.push(hspark_secondary(kind, s, gauss, prec)?);
            }
        }
    }
    Ok(out)
}

fn floats(v: &[Num], prec: Precision) -> Vec<Float> {
    v.iter().map(|x| x.to_float(prec)).collect()
}

fn float_matrix(m: &Matrix, prec: Precision) -> Vec<Vec<Float>> {
    m.iter().map(|row| floats(row, prec)).collect()
}

fn check_err(name: &str) -> impl Fn(check::CheckError) -> EmitError + '_ {
    move |e| EmitError::Check {
        name: name.to_owned(),
        message: e.to_string(),
    }
}

/// The exact order from a report, or an error naming what is missing.
fn exact_order(name: &str, report: &OrderReport) -> Result<usize, EmitError> {
    if report.is_exact() {
        Ok(report.order)
    } else {
        Err(EmitError::Check {
            name: name.to_owned(),
            message: format!(
                "order undetermined: proven ≥ {} (trees verified to {}), upper bound {:?}",
                report.order, report.trees_verified_to, report.upper_bound
            ),
        })
    }
}

/// The properties of a tableau computed in working precision: simplifying assumptions,
/// order from rooted trees (Butcher's theorem beyond the tree cap), symplecticity, symmetry
/// and R(∞), each decided with [`Precision::tolerance`].
pub fn computed_properties(t: &Tableau, prec: Precision) -> Result<Properties, EmitError> {
    let name = t.name();
    let err = check_err(&name);
    let tol = prec.tolerance();
    let (a, b, c) = (
        float_matrix(&t.a, prec),
        floats(&t.b, prec),
        floats(&t.c, prec),
    );
    let levels = simplifying_levels(&a, &b, &c, &tol, 2 * t.s + 2).map_err(&err)?;
    let declared = t.family.declared(t.s);
    let report =
        check::order(&a, &b, &tol, &OrderOptions::up_to(declared.order + 1)).map_err(&err)?;
    let order = exact_order(&name, &report)?;
    let symplectic = symplecticity_residual_partitioned(&a, &b, &a, &b)
        .map_err(&err)?
        .max()
        <= tol;
    let symmetric = symmetry_residual(&a, &b, &c).map_err(&err)?.max() <= tol;
    let r_inf = stability_function(&a, &b)
        .map_err(&err)?
        .r_infinity(&tol)
        .map_err(&err)?;
    let r_infinity = match r_inf {
        check::RInfinity::Infinite => RInfinity::Infinite,
        check::RInfinity::Finite(v) => {
            let rounded = v.clone().round();
            let off = Float::with_val(prec.bits(), &v - &rounded).abs();
            match rounded.to_i32_saturating() {
                Some(k) if off <= tol => RInfinity::Finite(k),
                _ => {
                    return Err(EmitError::Check {
                        name: name.clone(),
                        message: format!("R(∞) = {v} is not an integer"),
                    });
                }
            }
        }
    };
    Ok(Properties {
        order,
        b: levels.b,
        c: levels.c,
        d: levels.d,
        symplectic,
        symmetric,
        r_infinity,
    })
}

/// [`computed_properties`], refusing a tableau whose computed properties differ from the
/// declared ones.
pub fn checked_properties(t: &Tableau, prec: Precision) -> Result<Properties, EmitError> {
    let computed = computed_properties(t, prec)?;
    let declared = t.family.declared(t.s);
    if computed == declared {
        Ok(computed)
    } else {
        Err(EmitError::PropertyMismatch {
            name: t.name(),
            declared: format!("{declared:?}"),
            computed: format!("{computed:?}"),
        })
    }
}

/// The properties of a partitioned pair: order from bi-coloured trees, the symplecticity
/// conditions `b_i ā_ij + b̄_j a_ji = b_i b̄_j`, `b = b̄`, and the symmetry of both tableaus.
pub fn computed_pair_properties(
    pair: &PartitionedTableau,
    prec: Precision,
) -> Result<PairProperties, EmitError> {
    let name = pair.name();
    let err = check_err(&name);
    let tol = prec.tolerance();
    let (a, b) = (float_matrix(&pair.q.a, prec), floats(&pair.q.b, prec));
    let (abar, bbar) = (float_matrix(&pair.p.a, prec), floats(&pair.p.b, prec));
    let declared = pair.kind.declared(pair.q.s);
    let options = OrderOptions::up_to(declared.order + 1);
    let report = check::order_partitioned(&a, &b, &abar, &bbar, &tol, &options).map_err(&err)?;
    let order = exact_order(&name, &report)?;
    let symplectic = symplecticity_residual_partitioned(&a, &b, &abar, &bbar)
        .map_err(&err)?
        .max()
        <= tol;
    let symmetric = [&pair.q, &pair.p].into_iter().try_fold(true, |acc, t| {
        let r = symmetry_residual(
            &float_matrix(&t.a, prec),
            &floats(&t.b, prec),
            &floats(&t.c, prec),
        );
        Ok::<bool, EmitError>(acc && r.map_err(&err)?.max() <= tol)
    })?;
    Ok(PairProperties {
        order,
        symplectic,
        symmetric,
    })
}

impl Catalogue {
    /// Builds and checks everything; fails on the first entry whose computed properties differ
    /// from the declared ones.
    pub fn build(config: Config) -> Result<Catalogue, EmitError> {
        let (prec, max) = (config.prec, config.max_stages);
        let mut tableaus = Vec::new();
        for family in Family::ALL {
            for s in family.min_stages()..=max {
                let tableau = build(family, s, prec)?;
                let computed = checked_properties(&tableau, prec)?;
                let upstream = family.upstream_claims(s);
                tableaus.push(TableauEntry {
                    declared: family.declared(s),
                    tableau,
                    computed,
                    upstream,
                });
            }
        }
        let mut pairs = Vec::new();
        for kind in PairKind::ALL {
            for s in kind.min_stages()..=max {
                let pair = PartitionedTableau::build(kind, s, prec)?;
                let computed = computed_pair_properties(&pair, prec)?;
                let declared = kind.declared(s);
                if computed != declared {
                    return Err(EmitError::PropertyMismatch {
                        name: pair.name(),
                        declared: format!("{declared:?}"),
                        computed: format!("{computed:?}"),
                    });
                }
                pairs.push(PairEntry {
                    pair,
                    declared,
                    computed,
                });
            }
        }
        let lobatto_omega = (2..=max)
            .map(|s| Ok((s, lobatto_omega_matrix(s, prec)?)))
            .collect::<Result<_, EmitError>>()?;
        let gauss_omega = (1..=max)
            .map(|s| Ok((s, gauss_omega_matrix(s, prec)?)))
            .collect::<Result<_, EmitError>>()?;
        let null_vectors = (2..=max)
            .map(|s| Ok((s, lobatto_null_vector(s, prec)?)))
            .collect::<Result<_, EmitError>>()?;
        let mut lobatto_gauss = Vec::new();
        for s in 1..=max {
            for sigma in [2, s + 1] {
                if lobatto_gauss
                    .iter()
                    .all(|lg: &LobattoGauss| (lg.s, lg.sigma) != (s, sigma))
                {
                    lobatto_gauss.push(lobatto_gauss_coefficients(s, sigma, prec)?);
                }
            }
        }
        let methods = methods(prec)?;
        Ok(Catalogue {
            max_stages: max,
            tableaus,
            pairs,
            lobatto_omega,
            gauss_omega,
            null_vectors,
            lobatto_gauss,
            methods,
        })
    }

    /// The earliest method of the catalogue with the same stage equations as `method`
    /// ([`Method::same_equations`]), when that is not `method` itself: `method` is then emitted
    /// as another name of it.
    pub fn canonical(&self, method: &Method) -> Option<&Method> {
        self.methods
            .iter()
            .take_while(|m| !std::ptr::eq(*m, method))
            .find(|m| m.same_equations(method))
    }

    /// The source of `catalogue.rs`: `TABLEAUS` and `PAIRS` with declared and computed
    /// properties side by side.
    pub fn tokens(&self, types: &TokenStream) -> TokenStream {
        let props = |p: &Properties| properties_tokens(p, types);
        let rows = self.tableaus.iter().map(|e| {
            let name = e.tableau.name();
            let family = e.tableau.family.name();
            let stages = int(e.tableau.s);
            let rational = e.tableau.is_rational();
            let (declared, computed) = (props(&e.declared), props(&e.computed));
            let upstream = e.upstream.iter().map(|u| upstream_text(u, e.tableau.s));
            let konst = tableau_path(e.tableau.family, e.tableau.s);
            quote! {
                #types::CatalogueEntry {
                    name: #name, family: #family, stages: #stages, exact_rational: #rational,
                    declared: #declared, computed: #computed, upstream: &[#(#upstream),*],
                    data: #types::TableauData {
                        a: #konst.a.as_flattened(), a_lo: #konst.a_lo.as_flattened(),
                        b: &#konst.b, b_lo: &#konst.b_lo, c: &#konst.c, c_lo: &#konst.c_lo,
                    },
                }
            }
        });
        let pairs = self.pairs.iter().map(|e| {
            let name = e.pair.name();
            let stages = int(e.pair.q.s);
            let (qf, pf) = (e.pair.q.family.name(), e.pair.p.family.name());
            let (declared_order, computed_order) = (int(e.declared.order), int(e.computed.order));
            let (symplectic, symmetric) = (e.computed.symplectic, e.computed.symmetric);
            quote! {
                #types::PairEntry {
                    name: #name, stages: #stages, q_family: #qf, p_family: #pf,
                    declared_order: #declared_order, computed_order: #computed_order,
                    symplectic: #symplectic, symmetric: #symmetric,
                }
            }
        });
        quote! {
            //! The catalogue: declared and computed properties of every shipped tableau and pair.

            /// Every shipped tableau.
            pub const TABLEAUS: &[#types::CatalogueEntry] = &[#(#rows),*];

            /// Every shipped partitioned pair.
            pub const PAIRS: &[#types::PairEntry] = &[#(#pairs),*];
        }
    }
}

/// A one-line statement of an upstream claim that our catalogue corrects.
pub fn upstream_text(claim: &UpstreamClaim, s: usize) -> String {
    match claim {
        UpstreamClaim::Order(p) => format!(
            "upstream declares order {p} (= 2s); the classical order is {}",
            2 * s - 2
        ),
        UpstreamClaim::RInfinity(RInfinity::Finite(v)) => format!("upstream declares R(∞) = {v}"),
        UpstreamClaim::RInfinity(RInfinity::Infinite) => "upstream declares R(∞) = ∞".to_owned(),
        UpstreamClaim::NotSymplectic => {
            "upstream flags the VPRK method as not symplectic".to_owned()
        }
    }
}
