//! Emission of a [`Method`] as a `StageMethod` implementation: fully unrolled residual, exact
//! Jacobian and update, with the tableau coefficients as correctly rounded literals.

use crate::jacobian::{Atom, Derivative, HPoly, Jacobian, Var, jacobian};
use crate::literal::{f64_tokens, int};
use crate::scalar::Scalar;
use crate::structure::{
    AtomKind, Block, Coef, Expr, Input, Kernel, Method, MethodError, Nodes, ProblemKind, Role, Row,
    Shift, Term, Width,
};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};

/// The stepper of `method`, declared as `pub` under its catalogue name. Paths the emitted code
/// uses: `core` is the path of `sparkgen_core` as seen from the including crate
/// (`::sparkgen_core` in `generated/`, `::sparkgen::sparkgen_core` elsewhere).
pub fn stepper<C: Scalar>(
    method: &Method<C>,
    core: &TokenStream,
) -> Result<TokenStream, MethodError> {
    let ident = format_ident!("{}", method.name);
    stepper_as(method, &ident, &quote!(pub), &quote!(), core)
}

/// The stepper of [`stepper`] declared as `vis ident` with the outer attributes `attrs` (doc
/// comments included) before its own on the struct, as the procedural macro
/// `sparkgen::stepper!` declares it at a user's site. `StageMethod::NAME` stays the method's
/// catalogue name, so errors and listings name the method.
pub fn stepper_as<C: Scalar>(
    method: &Method<C>,
    ident: &Ident,
    vis: &TokenStream,
    attrs: &TokenStream,
    core: &TokenStream,
) -> Result<TokenStream, MethodError> {
    method.check()?;
    let jac = jacobian(method);
    let name = &method.name;
    let order = int(method.order);
    let nodes = method.nodes.iter().map(|c| f64_tokens(c.to_f64()));
    let projective_nodes = (!method.projective_nodes.is_empty()).then(|| {
        let nodes = method
            .projective_nodes
            .iter()
            .map(|c| f64_tokens(c.to_f64()));
        quote!(const PROJECTIVE_NODES: &'static [f64] = &[#(#nodes),*];)
    });
    let unknowns = layout(&method.blocks, core);
    let residuals = layout(&method.rows_layout, core);
    let dims = dims_expr(method.problem, core);
    let residual = residual_body(method, core);
    let jacobian_body = jacobian_body(method, &jac, core);
    let tangent = tangent_body(method, &jac, core);
    let update = update_body(method, core);
    let doc = format!(" {}", method.doc);
    let layout_doc = format!(
        " Unknowns: {}; residual rows: {}.",
        describe(&method.blocks),
        describe(&method.rows_layout)
    );
    let (generics, self_ty, bound) = match method.problem {
        ProblemKind::DegenerateLagrangian => (
            quote!(),
            quote!(#ident),
            quote!(P: #core::problem::DegenerateLagrangian<D>, const D: usize),
        ),
        ProblemKind::Holonomic => (
            quote!(<const M: usize>),
            quote!(#ident<M>),
            quote!(P: #core::problem::HolonomicSystem<D, M>, const D: usize, const M: usize),
        ),
        ProblemKind::ImplicitDae => (
            quote!(<const M: usize>),
            quote!(#ident<M>),
            quote!(P: #core::problem::ImplicitDae<D, M>, const D: usize, const M: usize),
        ),
        ProblemKind::HamiltonianDae => (
            quote!(<const M: usize>),
            quote!(#ident<M>),
            quote!(P: #core::problem::HamiltonianDae<D, M>, const D: usize, const M: usize),
        ),
    };
    // The step inputs every function of the trait takes.
    let lambda = if method.reads_multiplier() {
        quote!(lambda)
    } else {
        quote!(_lambda)
    };
    let inputs = quote! {
        problem: &P, h: f64, q: &#core::nalgebra::SVector<f64, D>, p: &#core::nalgebra::SVector<f64, D>, #lambda: &[f64], x: &[f64],
    };
    let multiplier = method.multiplier.as_ref().map(|(block, weights)| {
        let b = int(*block);
        let w = weights.iter().map(|c| f64_tokens(c.to_f64()));
        let read = method.reads_multiplier();
        quote!(
            const MULTIPLIER: Option<#core::stage::MultiplierUpdate> =
                Some(#core::stage::MultiplierUpdate { block: #b, weights: &[#(#w),*], read: #read });
        )
    });
    let pivots = crate::elimination::pivots(method, &jac);
    let elimination = (!pivots.is_empty()).then(|| {
        let pairs = pivots.iter().map(|&(r, c)| {
            let (r, c) = (int(r), int(c));
            quote!((#r, #c))
        });
        quote!(
            const ELIMINATION: &'static [(usize, usize)] = &[#(#pairs),*];
        )
    });
    let rank_deficient = method.rank_deficient.then(|| {
        quote!(
            const RANK_DEFICIENT: bool = true;
        )
    });
    let kind = match method.problem {
        ProblemKind::DegenerateLagrangian => quote!(#core::kind::Degenerate),
        ProblemKind::Holonomic => quote!(#core::kind::Holonomic<M>),
        ProblemKind::ImplicitDae => quote!(#core::kind::Implicit<M>),
        ProblemKind::HamiltonianDae => quote!(#core::kind::Hamiltonian<M>),
    };
    let struct_def = match method.problem {
        ProblemKind::DegenerateLagrangian => quote!(#vis struct #ident;),
        ProblemKind::Holonomic | ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae => {
            quote!(#vis struct #ident<const M: usize>;)
        }
    };
    Ok(quote! {
        #attrs
        #[doc = #doc]
        #[doc = ""]
        #[doc = #layout_doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #struct_def

        impl #generics #self_ty {
            /// The unknown vector.
            pub const UNKNOWN_LAYOUT: #core::layout::Layout = #unknowns;
            /// The residual vector.
            pub const RESIDUAL_LAYOUT: #core::layout::Layout = #residuals;
        }

        impl<#bound> #core::stage::StageMethod<P, D> for #self_ty {
            type Kind = #kind;
            const NAME: &'static str = #name;
            const ORDER: usize = #order;
            const NODES: &'static [f64] = &[#(#nodes),*];
            #projective_nodes
            const UNKNOWNS: #core::layout::Layout = Self::UNKNOWN_LAYOUT;
            const RESIDUALS: #core::layout::Layout = Self::RESIDUAL_LAYOUT;
            const DIMS: #core::layout::Dims = #dims;
            #rank_deficient
            #multiplier
            #elimination

            #[allow(clippy::too_many_lines)]
            fn residual(
                #inputs
                r: &mut [f64],
            ) {
                let dims = #dims;
                debug_assert_eq!(x.len(), Self::UNKNOWN_LAYOUT.len(dims));
                debug_assert_eq!(r.len(), Self::RESIDUAL_LAYOUT.len(dims));
                #residual
            }

            #[allow(clippy::too_many_lines)]
            fn jacobian(
                #inputs
                j: &mut #core::rows::RowMajor<'_>,
            ) {
                let dims = #dims;
                #jacobian_body
            }

            #[allow(clippy::too_many_lines)]
            fn tangent(
                #inputs
                t: &mut #core::rows::TangentRows<'_>,
            ) {
                let dims = #dims;
                #tangent
            }

            fn update(
                #inputs
            ) -> (#core::nalgebra::SVector<f64, D>, #core::nalgebra::SVector<f64, D>) {
                let dims = #dims;
                #update
            }
        }
    })
}

/// `method` as another name of the stepper `target` (reached by the path `module::Target`), whose
/// stage equations and update are the same ([`Method::same_equations`]): a type alias, so the
/// stepper is emitted and compiled once.
pub fn alias<C>(method: &Method<C>, target: &str, module: &TokenStream) -> TokenStream {
    let ident = format_ident!("{}", method.name);
    let name = format_ident!("{}", target);
    let target_ident = quote!(#module::#name);
    let doc = format!(" {}", method.doc);
    let same = format!(
        " Its unknowns, stage equations and update coincide exactly with those of [`{target}`], which it names."
    );
    let (generics, target_ty) = match method.problem {
        ProblemKind::DegenerateLagrangian => (quote!(), quote!(#target_ident)),
        ProblemKind::Holonomic | ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae => {
            (quote!(<const M: usize>), quote!(#target_ident<M>))
        }
    };
    quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = #same]
        pub type #ident #generics = #target_ty;
    }
}

/// The widths of the problem kind: `Dims::uniform(D)` or `Dims::new(D, M)`.
fn dims_expr(kind: ProblemKind, core: &TokenStream) -> TokenStream {
    match kind {
        ProblemKind::DegenerateLagrangian => quote!(#core::layout::Dims::uniform(D)),
        ProblemKind::Holonomic | ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae => {
            quote!(#core::layout::Dims::new(D, M))
        }
    }
}

/// The const parameter of a width: `D`, or `M` for the constraints of a holonomic system or
/// an implicit DAE.
fn width_param<C: Scalar>(method: &Method<C>, w: Width) -> TokenStream {
    match (method.problem, w) {
        (
            ProblemKind::Holonomic | ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae,
            Width::Constraints,
        ) => quote!(M),
        _ => quote!(D),
    }
}

/// The problem-trait method that evaluates a kernel or atom for problems of `kind`.
fn problem_method(kind: ProblemKind, atom: AtomKind) -> proc_macro2::Ident {
    let name = match (kind, atom) {
        (ProblemKind::DegenerateLagrangian, AtomKind::J | AtomKind::JT) => "theta_jacobian",
        (ProblemKind::DegenerateLagrangian, AtomKind::Hessian) => "hamiltonian_hessian",
        (ProblemKind::DegenerateLagrangian, AtomKind::DJacT) => {
            "jacobian_transpose_product_derivative"
        }
        (ProblemKind::DegenerateLagrangian, AtomKind::DJac) => "jacobian_product_derivative",
        (ProblemKind::Holonomic, AtomKind::J | AtomKind::JT) => "constraint_jacobian",
        (ProblemKind::Holonomic, AtomKind::Hessian) => "potential_hessian",
        (ProblemKind::Holonomic, AtomKind::DJacT) => "constraint_force_derivative",
        (ProblemKind::Holonomic, AtomKind::DJac) => "constraint_velocity_derivative",
        (_, AtomKind::MassInverse) => "inverse_mass_matrix",
        (_, AtomKind::DaePartial(f, k)) => {
            return format_ident!("{}_d{}", f.method(), f.arguments()[k]);
        }
        (_, AtomKind::Shift(_)) => unreachable!("Σ is a constant of the core"),
        (ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae, _) => {
            unreachable!("checked: no J atoms for DAEs")
        }
    };
    format_ident!("{name}")
}

/// The problem-trait method of a one-argument kernel (`Map`, `Gradient`).
fn map_method(kind: ProblemKind, kernel: Kernel) -> proc_macro2::Ident {
    let name = match (kind, kernel) {
        (ProblemKind::DegenerateLagrangian, Kernel::Map) => "theta",
        (ProblemKind::DegenerateLagrangian, _) => "hamiltonian_gradient",
        (ProblemKind::Holonomic, Kernel::Map) => "constraints",
        (ProblemKind::Holonomic, _) => "potential_gradient",
        (ProblemKind::ImplicitDae | ProblemKind::HamiltonianDae, _) => {
            unreachable!("checked: no map kernels for DAEs")
        }
    };
    format_ident!("{name}")
}

fn describe(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| {
            let w = match b.width {
                Width::Coordinates => "D",
                Width::Constraints => "M",
            };
            format!("{}: {} × {w}", b.name, b.stages)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn layout(blocks: &[Block], core: &TokenStream) -> TokenStream {
    let items = blocks.iter().map(|b| {
        let name = &b.name;
        let stages = int(b.stages);
        let role = match b.role {
            Role::Residual => quote!(Residual),
            Role::Velocity => quote!(Velocity),
            Role::Momentum => quote!(Momentum),
            Role::Multiplier => quote!(Multiplier),
            Role::PositionIncrement => quote!(PositionIncrement),
            Role::MomentumIncrement => quote!(MomentumIncrement),
            Role::Correction => quote!(Correction),
        };
        let width = match b.width {
            Width::Coordinates => quote!(Coordinates),
            Width::Constraints => quote!(Constraints),
        };
        let nodes = match b.nodes {
            Nodes::Internal => quote!(Internal),
            Nodes::Projective => quote!(Projective),
        };
        quote!(#core::layout::Block {
            name: #name,
            stages: #stages,
            role: #core::layout::Role::#role,
            width: #core::layout::Width::#width,
            nodes: #core::layout::Nodes::#nodes,
        })
    });
    quote!(#core::layout::Layout::new(&[#(#items),*]))
}

fn unknown_ident<C: Scalar>(method: &Method<C>, block: usize, stage: usize) -> proc_macro2::Ident {
    let b = &method.blocks[block];
    let base = b.name.to_lowercase();
    if b.stages == 1 {
        format_ident!("{base}")
    } else {
        format_ident!("{base}_{}", stage + 1)
    }
}

fn term_tokens<C: Scalar>(method: &Method<C>, t: &Term) -> TokenStream {
    match *t {
        Term::Input(Input::Q) => quote!(*q),
        Term::Input(Input::P) => quote!(*p),
        Term::Input(Input::Lambda) => quote!(lambda_n),
        Term::Unknown { block, stage } => {
            let id = unknown_ident(method, block, stage);
            quote!(#id)
        }
        Term::Value(v) => {
            let id = format_ident!("{}", method.values[v].name);
            quote!(#id)
        }
    }
}

/// `|c|·h^k` as tokens (`h`, `h2`, … bound in the body), with the sign of `c` separately;
/// `None` when the factor is exactly 1.
fn magnitude<C: Scalar>(c: &C, k: u32) -> (bool, Option<TokenStream>) {
    let v = c.to_f64();
    let negative = v < 0.0;
    let hp = match k {
        0 => None,
        1 => Some(quote!(h)),
        k => {
            let id = format_ident!("h{k}");
            Some(quote!(#id))
        }
    };
    let l = f64_tokens(v.abs());
    let tokens = match (hp, v.abs() == 1.0) {
        (None, true) => None,
        (None, false) => Some(l),
        (Some(h), true) => Some(h),
        (Some(h), false) => Some(quote!((#l * #h))),
    };
    (negative, tokens)
}

/// A signed sum `± t₁·s₁ ± t₂·s₂ …` of (term, |scalar|, negative) triples.
fn signed_sum(parts: Vec<SignedPart>) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, (t, s, negative)) in parts.into_iter().enumerate() {
        let product = match s {
            Some(s) => quote!(#t * #s),
            None => t,
        };
        out.extend(match (i, negative) {
            (0, false) => product,
            (0, true) => quote!(-#product),
            (_, false) => quote!(+ #product),
            (_, true) => quote!(- #product),
        });
    }
    out
}

/// A signed part `± term · |scalar|` of a sum (`None`: the scalar 1).
type SignedPart = (TokenStream, Option<TokenStream>, bool);

/// The parts of a sum that share one scalar: its sign is that of the first part, each member
/// carries its sign relative to it.
struct ScalarGroup {
    scalar: Option<TokenStream>,
    negative: bool,
    members: Vec<(TokenStream, bool)>,
}

/// Collects the parts of a signed sum that share their scalar: `c·A − c·B + c·C` becomes
/// `c·(A − B + C)`, one product by `c` instead of one per part (parts without a scalar stay
/// apart); the groups keep the order of their first part. In a stage Jacobian block the kernel partials of one stage (e.g. the
/// Hessian of H and the derivative of ϑ'ᵀV at `Q_j`) come with one coefficient and opposite
/// signs, so this halves the block's matrix arithmetic.
fn factor_common_scalars(parts: Vec<SignedPart>) -> Vec<SignedPart> {
    let mut groups: Vec<ScalarGroup> = Vec::new();
    for (term, scalar, negative) in parts {
        // Parts without a scalar (±1) have no product to save. Scalars are equal when their
        // tokens are (the same literal times the same power of h).
        let key = scalar.as_ref().map(ToString::to_string);
        let same = |g: &&mut ScalarGroup| {
            key.is_some() && g.scalar.as_ref().map(ToString::to_string) == key
        };
        match groups.iter_mut().find(same) {
            Some(group) => group.members.push((term, negative != group.negative)),
            None => groups.push(ScalarGroup {
                scalar,
                negative,
                members: vec![(term, false)],
            }),
        }
    }
    groups
        .into_iter()
        .map(|group| {
            let term = match <[_; 1]>::try_from(group.members) {
                Ok([(term, _)]) => term,
                Err(members) => {
                    let inner =
                        signed_sum(members.into_iter().map(|(t, n)| (t, None, n)).collect());
                    quote!((#inner))
                }
            };
            (term, group.scalar, group.negative)
        })
        .collect()
}

/// `Σ_k c_k h^k` as a bare scalar expression (`0.5 * h - 0.25 * h2`).
fn poly_arg<C: Scalar>(poly: &HPoly<C>) -> TokenStream {
    let parts = poly
        .iter()
        .map(|(k, c)| {
            let v = c.to_f64();
            let hp = match k {
                0 => None,
                1 => Some(quote!(h)),
                k => {
                    let id = format_ident!("h{k}");
                    Some(quote!(#id))
                }
            };
            match hp {
                None => (f64_tokens(v.abs()), None, v < 0.0),
                Some(h) if v.abs() == 1.0 => (h, None, v < 0.0),
                Some(h) => (f64_tokens(v.abs()), Some(h), v < 0.0),
            }
        })
        .collect();
    signed_sum(parts)
}

/// `Σ_k c_k h^k` as a factor, parenthesised when it has several terms.
fn poly_tokens<C: Scalar>(poly: &HPoly<C>) -> TokenStream {
    let sum = poly_arg(poly);
    if poly.len() == 1 { sum } else { quote!((#sum)) }
}

/// The largest power of h among the needed values' coefficients and the given derivatives.
fn max_h_power<'a, C: Scalar + 'a>(
    method: &Method<C>,
    values: &BTreeSet<usize>,
    derivatives: impl IntoIterator<Item = &'a Derivative<C>>,
) -> u32 {
    let from_values = values.iter().flat_map(|&v| match &method.values[v].expr {
        Expr::Linear(t) => t.iter().map(|(c, _)| c.h_power).collect(),
        Expr::Kernel(..) => Vec::new(),
    });
    let from_derivatives = derivatives
        .into_iter()
        .flat_map(|d| d.values().flat_map(|p| p.keys().copied()));
    from_values.chain(from_derivatives).max().unwrap_or(0)
}

fn h_powers(max: u32) -> TokenStream {
    let lets = (2..=max).map(|k| {
        let id = format_ident!("h{k}");
        let prev = if k == 2 {
            quote!(h)
        } else {
            let p = format_ident!("h{}", k - 1);
            quote!(#p)
        };
        quote!(let #id = #prev * h;)
    });
    quote!(#(#lets)*)
}

fn unknown_reads<C: Scalar>(method: &Method<C>, used: &BTreeSet<(usize, usize)>) -> TokenStream {
    let reads = used.iter().map(|&(block, stage)| {
        let id = unknown_ident(method, block, stage);
        let (b, s) = (int(block), int(stage));
        let w = width_param(method, method.blocks[block].width);
        quote!(let #id = Self::UNKNOWN_LAYOUT.get::<#w>(x, dims, #b, #s);)
    });
    quote!(#(#reads)*)
}

/// `λ_n` as the vector `lambda_n` where the needed values (or extra terms) read it; where the
/// method reads it elsewhere only, the parameter is marked used.
fn lambda_read<C: Scalar>(
    method: &Method<C>,
    values: &BTreeSet<usize>,
    extra: &[Term],
    core: &TokenStream,
) -> TokenStream {
    if !method.reads_multiplier() {
        return quote!();
    }
    let lambda = Term::Input(Input::Lambda);
    let read = extra.contains(&lambda)
        || values
            .iter()
            .any(|&v| mentions_input(method, v, Input::Lambda));
    if read {
        let w = width_param(method, Width::Constraints);
        quote!(let lambda_n = #core::nalgebra::SVector::<f64, #w>::from_column_slice(lambda);)
    } else {
        quote!(let _ = lambda;)
    }
}

/// Unknowns read by the needed values (and by extra terms).
fn used_unknowns<C: Scalar>(
    method: &Method<C>,
    values: &BTreeSet<usize>,
    extra: &[Term],
) -> BTreeSet<(usize, usize)> {
    let mut used = BTreeSet::new();
    let mut visit = |t: &Term| {
        if let Term::Unknown { block, stage } = *t {
            used.insert((block, stage));
        }
    };
    for &v in values {
        match &method.values[v].expr {
            Expr::Linear(terms) => terms.iter().for_each(|(_, t)| visit(t)),
            Expr::Kernel(_, args) => args.iter().for_each(&mut visit),
        }
    }
    extra.iter().for_each(visit);
    used
}

/// `let` bindings of the needed values in order; `J(q)` is bound once per q argument and `M⁻¹`
/// once. `bound` collects the `jac_*` (and `minv`) bindings emitted, so that atoms reuse them.
fn value_lets<C: Scalar>(
    method: &Method<C>,
    values: &BTreeSet<usize>,
    bound: &mut BTreeSet<String>,
    core: &TokenStream,
) -> TokenStream {
    let mut out = Vec::new();
    let points = stage_points(method, values);
    for &v in values {
        let id = format_ident!("{}", method.values[v].name);
        if let Expr::Kernel(kernel, args) = &method.values[v].expr
            && point_slot(*kernel).is_some()
            && let Some(needed) = points.get(&args[0])
        {
            let [map, gradient, jac] = point_idents(method, &args[0]);
            if bound.insert(format!("point_{jac}")) {
                out.push(stage_point_let(method, &args[0], needed));
                if needed[2] {
                    bound.insert(jac.to_string());
                }
            }
            let rhs = match kernel {
                Kernel::Map => quote!(#map),
                Kernel::Gradient => quote!(#gradient),
                Kernel::JacT => {
                    let w = term_tokens(method, &args[1]);
                    quote!(#jac.tr_mul(&#w))
                }
                _ => {
                    let w = term_tokens(method, &args[1]);
                    quote!(#jac * #w)
                }
            };
            out.push(quote!(let #id = #rhs;));
            continue;
        }
        let rhs = match &method.values[v].expr {
            Expr::Linear(terms) if terms.is_empty() => {
                let w = width_param(method, method.width(Term::Value(v)));
                quote!(#core::nalgebra::SVector::<f64, #w>::zeros())
            }
            Expr::Linear(terms) => linear(method, terms),
            Expr::Kernel(kernel, args) => {
                let a: Vec<TokenStream> = args.iter().map(|t| term_tokens(method, t)).collect();
                let qa = &a[0];
                match kernel {
                    Kernel::Map | Kernel::Gradient => {
                        let f = map_method(method.problem, *kernel);
                        quote!(problem.#f(&#qa))
                    }
                    Kernel::Velocity => {
                        if bound.insert("minv".to_owned()) {
                            out.push(quote!(let minv = problem.inverse_mass_matrix();));
                        }
                        quote!(minv * #qa)
                    }
                    Kernel::Dae(f) => {
                        let f = format_ident!("{}", f.method());
                        quote!(problem.#f(#(&#a),*))
                    }
                    Kernel::Shift(shift) => {
                        let sigma = shift_matrix(*shift, core);
                        quote!(#sigma * #qa)
                    }
                    Kernel::JacT | Kernel::Jac => {
                        let jid = jac_ident(method, &args[0]);
                        if bound.insert(jid.to_string()) {
                            let f = problem_method(method.problem, AtomKind::J);
                            out.push(quote!(let #jid = problem.#f(&#qa);));
                        }
                        let w = &a[1];
                        if *kernel == Kernel::JacT {
                            quote!(#jid.tr_mul(&#w))
                        } else {
                            quote!(#jid * #w)
                        }
                    }
                }
            }
        };
        out.push(quote!(let #id = #rhs;));
    }
    quote!(#(#out)*)
}

/// The points `q` at which the needed values read two or three of the map (`ϑ(q)` of a
/// degenerate Lagrangian, `c(q)` of a holonomic system), the gradient (`∇H(q)`, `∇V(q)`) and the
/// Jacobian `J(q)` (through `J(q)ᵀw` or `J(q)v`), with which of the three (in that order): one
/// `stage_point` call of the problem evaluates them there.
fn stage_points<C: Scalar>(
    method: &Method<C>,
    values: &BTreeSet<usize>,
) -> BTreeMap<Term, [bool; 3]> {
    let mut points: BTreeMap<Term, [bool; 3]> = BTreeMap::new();
    if !matches!(
        method.problem,
        ProblemKind::DegenerateLagrangian | ProblemKind::Holonomic
    ) {
        return points;
    }
    for &v in values {
        if let Expr::Kernel(kernel, args) = &method.values[v].expr
            && let Some(slot) = point_slot(*kernel)
        {
            points.entry(args[0]).or_default()[slot] = true;
        }
    }
    points.retain(|_, needed| needed.iter().filter(|&&n| n).count() >= 2);
    points
}

/// Which of a stage point's map (0), gradient (1) and Jacobian (2) a kernel reads, if any.
fn point_slot(kernel: Kernel) -> Option<usize> {
    match kernel {
        Kernel::Map => Some(0),
        Kernel::Gradient => Some(1),
        Kernel::JacT | Kernel::Jac => Some(2),
        Kernel::Velocity | Kernel::Dae(_) | Kernel::Shift(_) => None,
    }
}

/// The bindings of the map, the gradient and the Jacobian at the point `q`: `theta_q`,
/// `grad_h_q` (degenerate Lagrangians) or `c_q`, `grad_v_q` (holonomic systems), and `jac_q`.
fn point_idents<C: Scalar>(method: &Method<C>, q: &Term) -> [Ident; 3] {
    let jac = jac_ident(method, q);
    let base = &jac.to_string()["jac_".len()..];
    let (map, gradient) = match method.problem {
        ProblemKind::DegenerateLagrangian => ("theta", "grad_h"),
        _ => ("c", "grad_v"),
    };
    [
        format_ident!("{map}_{base}"),
        format_ident!("{gradient}_{base}"),
        jac,
    ]
}

/// `let (theta_q, jac_q, grad_h_q) = problem.stage_point(&q);` (the problem's order: map,
/// Jacobian, gradient), with `_` for what is not `needed` (`needed` in the order map, gradient,
/// Jacobian).
fn stage_point_let<C: Scalar>(method: &Method<C>, q: &Term, needed: &[bool; 3]) -> TokenStream {
    let [map, gradient, jac] = point_idents(method, q).map(|id| quote!(#id));
    let bind = |n: bool, id: TokenStream| if n { id } else { quote!(_) };
    let (map, gradient, jac) = (
        bind(needed[0], map),
        bind(needed[1], gradient),
        bind(needed[2], jac),
    );
    let qa = term_tokens(method, q);
    quote!(let (#map, #jac, #gradient) = problem.stage_point(&#qa);)
}

fn jac_ident<C: Scalar>(method: &Method<C>, q: &Term) -> Ident {
    let base = term_tokens(method, q)
        .to_string()
        .replace(['(', ')', '*', ' '], "");
    format_ident!("jac_{base}")
}

fn linear<C: Scalar>(method: &Method<C>, terms: &[(Coef<C>, Term)]) -> TokenStream {
    let parts = terms
        .iter()
        .map(|(c, t)| {
            let (negative, m) = magnitude(&c.value, c.h_power);
            (term_tokens(method, t), m, negative)
        })
        .collect();
    signed_sum(parts)
}

fn residual_body<C: Scalar>(method: &Method<C>, core: &TokenStream) -> TokenStream {
    let roots = method.rows.iter().map(|r| Term::Value(r.value));
    let values = method.needed(roots);
    let reads = unknown_reads(method, &used_unknowns(method, &values, &[]));
    let lambda = lambda_read(method, &values, &[], core);
    let hp = h_powers(max_h_power(method, &values, []));
    let lets = value_lets(method, &values, &mut BTreeSet::new(), core);
    let stores = method.rows.iter().map(|row| {
        let id = format_ident!("{}", method.values[row.value].name);
        let (b, s) = (int(row.block), int(row.stage));
        let w = width_param(method, method.rows_layout[row.block].width);
        quote!(Self::RESIDUAL_LAYOUT.set::<#w>(r, dims, #b, #s, &#id);)
    });
    quote! { #lambda #reads #hp #lets #(#stores)* }
}

/// The expression of an atom; `J(q)` and `J(q)ᵀ` read the one `jac_*` binding of their `q`,
/// `M⁻¹` the `minv` binding if there is one.
fn atom_expr<C: Scalar>(
    method: &Method<C>,
    atom: &Atom,
    bound: &BTreeSet<String>,
    core: &TokenStream,
) -> TokenStream {
    let a: Vec<TokenStream> = atom.args.iter().map(|t| term_tokens(method, t)).collect();
    let f = || problem_method(method.problem, atom.kind);
    match atom.kind {
        AtomKind::J => {
            let jid = jac_ident(method, &atom.args[0]);
            quote!(#jid)
        }
        AtomKind::JT => {
            let jid = jac_ident(method, &atom.args[0]);
            quote!(#jid.transpose())
        }
        AtomKind::MassInverse if bound.contains("minv") => quote!(minv),
        AtomKind::MassInverse => {
            let f = f();
            quote!(problem.#f())
        }
        AtomKind::Hessian => {
            let (f, qa) = (f(), &a[0]);
            quote!(problem.#f(&#qa))
        }
        AtomKind::DJacT | AtomKind::DJac => {
            let (f, qa, w) = (f(), &a[0], &a[1]);
            quote!(problem.#f(&#qa, &#w))
        }
        AtomKind::DaePartial(..) => {
            let f = f();
            quote!(problem.#f(#(&#a),*))
        }
        AtomKind::Shift(shift) => shift_matrix(shift, core),
    }
}

/// One `stage_point_derivatives(&q, &w)` call per point `q` at which the atoms read
/// `∂(Jᵀw)/∂q`, the Hessian (`∇²H`, `∇²V`) and a `J(q)` not bound yet: the three in one call,
/// for the first such `w`. Returns the `let`s and, for each atom they evaluate, the binding that
/// holds it; `J(q)` is added to `bound` as `jac_q`.
fn derivative_point_lets<C: Scalar>(
    method: &Method<C>,
    jac: &Jacobian<C>,
    used_atoms: &BTreeSet<usize>,
    bound: &mut BTreeSet<String>,
) -> (Vec<TokenStream>, BTreeMap<usize, Ident>) {
    let (mut lets, mut replaced) = (Vec::new(), BTreeMap::new());
    if !matches!(
        method.problem,
        ProblemKind::DegenerateLagrangian | ProblemKind::Holonomic
    ) {
        return (lets, replaced);
    }
    // q ↦ (the first ∂(Jᵀw)/∂q atom, the Hessian atom, whether J(q) is read).
    let mut points: BTreeMap<Term, (Option<usize>, Option<usize>, bool)> = BTreeMap::new();
    for &a in used_atoms {
        let atom = &jac.atoms[a];
        let slot = match atom.kind {
            AtomKind::DJacT => 0,
            AtomKind::Hessian => 1,
            AtomKind::J | AtomKind::JT => 2,
            AtomKind::DJac
            | AtomKind::MassInverse
            | AtomKind::DaePartial(..)
            | AtomKind::Shift(_) => {
                continue;
            }
        };
        let point = points.entry(atom.args[0]).or_default();
        match slot {
            0 => point.0 = point.0.or(Some(a)),
            1 => point.1 = Some(a),
            _ => point.2 = true,
        }
    }
    for (q, (djact, hessian, reads_j)) in points {
        let jid = jac_ident(method, &q);
        // All three or none: a caller that does not inline the method (the command line's
        // problem enums) would compute what the stepper does not read.
        let unbound = reads_j && !bound.contains(&jid.to_string());
        let (Some(djact), Some(hessian), true) = (djact, hessian, unbound) else {
            continue;
        };
        let base = &jid.to_string()["jac_".len()..];
        let (hid, did) = (format_ident!("hess_{base}"), format_ident!("djact_{base}"));
        bound.insert(jid.to_string());
        replaced.insert(hessian, hid.clone());
        replaced.insert(djact, did.clone());
        let qa = term_tokens(method, &q);
        let w = term_tokens(method, &jac.atoms[djact].args[1]);
        lets.push(quote!(
            let (#jid, #hid, #did) = problem.stage_point_derivatives(&#qa, &#w);
        ));
    }
    (lets, replaced)
}

/// The constant `D×D` matrix of a component shift Σ.
fn shift_matrix(shift: Shift, core: &TokenStream) -> TokenStream {
    let wrap = shift == Shift::Wrap;
    quote!(#core::layout::shift_matrix::<D>(#wrap))
}

/// One derivative block to write: `target[ro..][co..] += ∂value/∂var`; `width` is the const
/// parameter of the width of `var` (the size of an identity block).
struct Item<'a, C> {
    target: TokenStream,
    row: TokenStream,
    col: TokenStream,
    width: TokenStream,
    derivative: &'a Derivative<C>,
}

/// Emits the value and atom bindings the items need, then one `add_block`/`add_diagonal` per
/// nonzero block. `zero` clears the targets first.
fn blocks_body<C: Scalar>(
    method: &Method<C>,
    jac: &Jacobian<C>,
    items: &[Item<'_, C>],
    core: &TokenStream,
    zero: TokenStream,
) -> TokenStream {
    let used_atoms: BTreeSet<usize> = items
        .iter()
        .flat_map(|i| i.derivative.keys().flatten().copied())
        .collect();
    let atom_args: Vec<Term> = used_atoms
        .iter()
        .flat_map(|&a| jac.atoms[a].args.clone())
        .collect();
    let values = method.needed(atom_args.iter().copied());
    let reads = unknown_reads(method, &used_unknowns(method, &values, &atom_args));
    let lambda = lambda_read(method, &values, &atom_args, core);
    let hp = h_powers(max_h_power(
        method,
        &values,
        items.iter().map(|i| i.derivative),
    ));
    let mut bound = BTreeSet::new();
    let lets = value_lets(method, &values, &mut bound, core);
    let (derivative_lets, replaced) = derivative_point_lets(method, jac, &used_atoms, &mut bound);
    // One evaluation of J(q) per stage serves the J and Jᵀ atoms (and the values above).
    let jac_lets: Vec<TokenStream> = used_atoms
        .iter()
        .filter(|&&a| matches!(jac.atoms[a].kind, AtomKind::J | AtomKind::JT))
        .filter_map(|&a| {
            let q = &jac.atoms[a].args[0];
            let jid = jac_ident(method, q);
            let qa = term_tokens(method, q);
            let f = problem_method(method.problem, AtomKind::J);
            bound
                .insert(jid.to_string())
                .then(|| quote!(let #jid = problem.#f(&#qa);))
        })
        .collect();
    let atoms = used_atoms.iter().map(|&a| {
        let id = format_ident!("a_{a}");
        let e = match replaced.get(&a) {
            Some(binding) => quote!(#binding),
            None => atom_expr(method, &jac.atoms[a], &bound, core),
        };
        quote!(let #id = #e;)
    });
    let mut adds = Vec::new();
    for Item {
        target,
        row,
        col,
        width,
        derivative,
    } in items
    {
        let mut matrix_terms = Vec::new();
        for (mono, poly) in *derivative {
            if mono.is_empty() {
                let s = poly_arg(poly);
                adds.push(quote!(#core::layout::add_diagonal::<#width>(#target, #row, #col, #s);));
            } else {
                let factors: Vec<_> = mono.iter().map(|a| format_ident!("a_{a}")).collect();
                let (first, rest) = (&factors[0], &factors[1..]);
                let product = quote!(#first #(* #rest)*);
                let single = poly.iter().next().filter(|_| poly.len() == 1);
                matrix_terms.push(match single {
                    Some((k, c)) => {
                        let (negative, m) = magnitude(c, *k);
                        (product, m, negative)
                    }
                    None => (product, Some(poly_tokens(poly)), false),
                });
            }
        }
        if !matrix_terms.is_empty() {
            let sum = signed_sum(factor_common_scalars(matrix_terms));
            adds.push(quote!(#core::layout::add_block(#target, #row, #col, &(#sum));));
        }
    }
    let unused = [(Input::Q, quote!(q)), (Input::P, quote!(p))]
        .into_iter()
        .filter_map(|(input, name)| {
            (!values.iter().any(|&v| mentions_input(method, v, input)))
                .then(|| quote!(let _ = #name;))
        });
    quote! {
        #(#unused)*
        #zero
        #lambda
        #reads #hp #lets #(#derivative_lets)* #(#jac_lets)* #(#atoms)* #(#adds)*
    }
}

fn row_offset(row: &Row) -> TokenStream {
    let (b, s) = (int(row.block), int(row.stage));
    quote!(Self::RESIDUAL_LAYOUT.offset(#b, #s, dims))
}

fn unknown_offset(block: usize, stage: usize) -> TokenStream {
    let (b, s) = (int(block), int(stage));
    quote!(Self::UNKNOWN_LAYOUT.offset(#b, #s, dims))
}

/// The width parameter of a variable of differentiation.
fn var_width<C: Scalar>(method: &Method<C>, var: &Var) -> TokenStream {
    match var {
        Var::Unknown(block, _) => width_param(method, method.blocks[*block].width),
        Var::Input(_) => quote!(D),
    }
}

fn jacobian_body<C: Scalar>(
    method: &Method<C>,
    jac: &Jacobian<C>,
    core: &TokenStream,
) -> TokenStream {
    let mut items = Vec::new();
    for (row, derivs) in method.rows.iter().zip(&jac.rows) {
        for (var, derivative) in derivs {
            if let Var::Unknown(block, stage) = *var {
                items.push(Item {
                    target: quote!(j),
                    row: row_offset(row),
                    col: unknown_offset(block, stage),
                    width: var_width(method, var),
                    derivative,
                });
            }
        }
    }
    blocks_body(method, jac, &items, core, quote!(j.clear();))
}

fn tangent_body<C: Scalar>(
    method: &Method<C>,
    jac: &Jacobian<C>,
    core: &TokenStream,
) -> TokenStream {
    let mut items = Vec::new();
    let zero = quote!(0);
    for (row, derivs) in method.rows.iter().zip(&jac.rows) {
        for (var, derivative) in derivs {
            let target = match var {
                Var::Input(Input::Q) => quote!(&mut t.r_q),
                Var::Input(Input::P) => quote!(&mut t.r_p),
                Var::Input(Input::Lambda) | Var::Unknown(..) => continue,
            };
            items.push(Item {
                target,
                row: row_offset(row),
                col: zero.clone(),
                width: var_width(method, var),
                derivative,
            });
        }
    }
    for (k, grad) in jac.update.iter().enumerate() {
        for (var, derivative) in grad {
            let (target, col) = match (k, var) {
                (0, Var::Unknown(b, s)) => (quote!(&mut t.q_x), unknown_offset(*b, *s)),
                (_, Var::Unknown(b, s)) => (quote!(&mut t.p_x), unknown_offset(*b, *s)),
                (0, Var::Input(Input::Q)) => (quote!(&mut t.q_q), zero.clone()),
                (0, Var::Input(Input::P)) => (quote!(&mut t.q_p), zero.clone()),
                (_, Var::Input(Input::Q)) => (quote!(&mut t.p_q), zero.clone()),
                (_, Var::Input(Input::P)) => (quote!(&mut t.p_p), zero.clone()),
                (_, Var::Input(Input::Lambda)) => continue,
            };
            items.push(Item {
                target,
                row: zero.clone(),
                col,
                width: var_width(method, var),
                derivative,
            });
        }
    }
    blocks_body(method, jac, &items, core, quote!(t.clear();))
}

fn mentions_input<C: Scalar>(method: &Method<C>, v: usize, input: Input) -> bool {
    match &method.values[v].expr {
        Expr::Linear(terms) => terms.iter().any(|(_, t)| *t == Term::Input(input)),
        Expr::Kernel(_, args) => args.contains(&Term::Input(input)),
    }
}

fn update_body<C: Scalar>(method: &Method<C>, core: &TokenStream) -> TokenStream {
    let roots = [Term::Value(method.q_next), Term::Value(method.p_next)];
    let values = method.needed(roots);
    let reads = unknown_reads(method, &used_unknowns(method, &values, &[]));
    let lambda = lambda_read(method, &values, &[], core);
    let hp = h_powers(max_h_power(method, &values, []));
    let lets = value_lets(method, &values, &mut BTreeSet::new(), core);
    let (qn, pn) = (
        format_ident!("{}", method.values[method.q_next].name),
        format_ident!("{}", method.values[method.p_next].name),
    );
    quote! { #lambda #reads #hp #lets (#qn, #pn) }
}
