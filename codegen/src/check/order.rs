//! Classical order from rooted-tree order conditions, for single tableaus (monocoloured trees)
//! and partitioned pairs (bicoloured trees).
//!
//! The order p is the largest n such that b^{Y}ᵀ Φ(t) = 1/γ(t) for every tree t with |t| ≤ n and
//! every root colour Y. The conditions are checked order by order on the distinct normalised
//! stage vectors ĝ(t) (see the `trees` module: the condition reads b^{Y}ᵀ ĝ(t) = 1/|t|).
//! When the number of distinct vectors exceeds a cap, the scan stops and Butcher's theorem
//! takes over: B(p), C(η), D(ζ) with p ≤ η + ζ + 1 and p ≤ 2η + 2 imply order ≥ p (for pairs
//! with η, ζ the minima over both tableaus, which needs b = b̄ and equal nodes c = A𝟙 = Ā𝟙).
//! An upper bound comes from the bushy trees [τ^{k−1}]: Σ_i b^Y_i (A^X 𝟙)_i^{k−1} ≠ 1/k means
//! order ≤ k − 1.

use rug::Float;

use super::CheckError;
use super::dense::{dot, max_abs, row_sums};
use super::shape::{Dims, dims, tolerance};
use super::simplifying::{b_per_order, levels};
use super::trees::Forest;

/// Default cap on the number of distinct stage vectors of one order (|V_n|).
pub const DEFAULT_MAX_STAGE_VECTORS: usize = 200_000;

/// Limits of the rooted-tree scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderOptions {
    /// Highest tree order whose conditions are checked.
    pub max_order: usize,
    /// Stop the scan (and fall back to Butcher's theorem) when an order has more distinct
    /// stage vectors than this.
    pub max_stage_vectors: usize,
}

impl OrderOptions {
    /// Checks trees up to order `max_order` with the default cap [`DEFAULT_MAX_STAGE_VECTORS`].
    pub fn up_to(max_order: usize) -> Self {
        OrderOptions {
            max_order,
            max_stage_vectors: DEFAULT_MAX_STAGE_VECTORS,
        }
    }
}

/// How the proven order (the lower bound) was established.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowerBoundMethod {
    /// Every rooted-tree condition up to the order was checked.
    RootedTrees,
    /// Butcher's theorem on B(p), C(η), D(ζ) gave more than the tree scan reached.
    SimplifyingAssumptions,
}

/// How an upper bound on the order was established.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpperBoundMethod {
    /// A rooted-tree condition of the next order fails.
    FailedTreeCondition,
    /// A bushy-tree condition Σ_i b^Y_i (A^X 𝟙)_i^{k−1} = 1/k of the next order fails.
    BushyTrees,
}

/// An upper bound on the order: some condition of order `order + 1` fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpperBound {
    /// The bound: the true order is ≤ this.
    pub order: usize,
    /// Which failing condition gives the bound.
    pub method: UpperBoundMethod,
}

/// The result of an order analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderReport {
    /// The proven order: every order condition of order ≤ `order` holds to the tolerance.
    pub order: usize,
    /// How `order` was established.
    pub lower_bound_method: LowerBoundMethod,
    /// An upper bound, when a failing condition is known.
    pub upper_bound: Option<UpperBound>,
    /// All rooted-tree conditions of order ≤ this were checked and hold.
    pub trees_verified_to: usize,
    /// The order n at which |V_n| exceeded the cap and the scan stopped, if it did.
    pub truncated_at: Option<usize>,
    /// |V_n|, the number of distinct normalised stage vectors, for n = 1, 2, … as far as checked.
    pub stage_vectors: Vec<usize>,
    /// Number of trees (root colours counted separately) whose conditions hold and were checked,
    /// saturating at `u128::MAX`.
    pub trees_checked: u128,
    /// Number of inner products b^{Y}ᵀ ĝ evaluated.
    pub conditions_evaluated: usize,
    /// max |b^{Y}ᵀ ĝ(t) − 1/|t|| over all trees of the verified orders (the normalised residual,
    /// γ(t)/|t| times |b^{Y}ᵀ Φ(t) − 1/γ(t)|).
    pub max_residual: Float,
    /// The first order whose conditions fail, with its largest normalised residual.
    pub failure: Option<(usize, Float)>,
}

impl OrderReport {
    /// True when the order is known exactly: the proven lower bound equals the upper bound.
    pub fn is_exact(&self) -> bool {
        self.upper_bound.is_some_and(|u| u.order == self.order)
    }
}

/// The order of a single Runge–Kutta tableau (A, b) to tolerance `tol`.
///
/// Nodes enter as c = A𝟙 (row sums), as the rooted-tree theory requires.
pub fn order(
    a: &[Vec<Float>],
    b: &[Float],
    tol: &Float,
    options: &OrderOptions,
) -> Result<OrderReport, CheckError> {
    let d = dims(&[("a", a)], &[("b", b)])?;
    tolerance(tol)?;
    Ok(analyse(&[(a, b)], d, tol, options))
}

/// The order of a partitioned pair: (A, b) integrates the first component and (Ā, b̄) the
/// second; the edge into a vertex of colour X uses A^X and a root of colour Y the weights b^Y.
///
/// Pass the same slice as `b` and `b_bar` for a pair with common weights.
pub fn order_partitioned(
    a: &[Vec<Float>],
    b: &[Float],
    a_bar: &[Vec<Float>],
    b_bar: &[Float],
    tol: &Float,
    options: &OrderOptions,
) -> Result<OrderReport, CheckError> {
    let d = dims(&[("a", a), ("a_bar", a_bar)], &[("b", b), ("b_bar", b_bar)])?;
    tolerance(tol)?;
    Ok(analyse(&[(a, b), (a_bar, b_bar)], d, tol, options))
}

/// Outcome of the rooted-tree scan.
struct TreeScan {
    verified: usize,
    truncated_at: Option<usize>,
    stage_vectors: Vec<usize>,
    trees_checked: u128,
    conditions_evaluated: usize,
    max_residual: Float,
    failure: Option<(usize, Float)>,
}

/// Tree scan, then bounds from bushy trees and Butcher's theorem, for the colours (A^X, b^X).
fn analyse(
    colours: &[(&[Vec<Float>], &[Float])],
    d: Dims,
    tol: &Float,
    options: &OrderOptions,
) -> OrderReport {
    let scan = scan_trees(colours, d, tol, options);
    let (order, lower_bound_method, upper_bound) = match &scan.failure {
        Some((n, _)) => (
            n - 1,
            LowerBoundMethod::RootedTrees,
            Some(UpperBound {
                order: n - 1,
                method: UpperBoundMethod::FailedTreeCondition,
            }),
        ),
        None => {
            let upper = bushy_upper_bound(colours, d, tol);
            let butcher = butcher_bound(colours, d, tol);
            // With exact arithmetic butcher ≤ upper; near the tolerance the decisions of the
            // two tests may disagree, and the failing bushy condition is the stronger evidence.
            let butcher = upper.map_or(butcher, |u| butcher.min(u.order));
            if butcher > scan.verified {
                (butcher, LowerBoundMethod::SimplifyingAssumptions, upper)
            } else {
                (scan.verified, LowerBoundMethod::RootedTrees, upper)
            }
        }
    };
    OrderReport {
        order,
        lower_bound_method,
        upper_bound,
        trees_verified_to: scan.verified,
        truncated_at: scan.truncated_at,
        stage_vectors: scan.stage_vectors,
        trees_checked: scan.trees_checked,
        conditions_evaluated: scan.conditions_evaluated,
        max_residual: scan.max_residual,
        failure: scan.failure,
    }
}

/// Checks b^{Y}ᵀ v = 1/n for every v ∈ V_n and colour Y, order by order, until a condition
/// fails, `max_order` is reached or |V_n| exceeds the cap.
fn scan_trees(
    colours: &[(&[Vec<Float>], &[Float])],
    d: Dims,
    tol: &Float,
    options: &OrderOptions,
) -> TreeScan {
    let mut scan = TreeScan {
        verified: 0,
        truncated_at: None,
        stage_vectors: Vec::new(),
        trees_checked: 0,
        conditions_evaluated: 0,
        max_residual: Float::new(d.prec),
        failure: None,
    };
    if options.max_order == 0 {
        return scan;
    }
    let matrices = colours.iter().map(|&(a, _)| a).collect();
    let mut forest = Forest::new(matrices, d.s, d.prec, Some(merge_radius(tol, d.prec)));
    loop {
        let n = forest.order();
        let vectors = forest.stage_vectors();
        let target = Float::with_val(d.prec, n).recip();
        let residuals = vectors.iter().flat_map(|v| {
            colours
                .iter()
                .map(|&(_, b)| dot(b, &v.value, d.prec) - &target)
        });
        let residual = max_abs(residuals, d.prec);
        scan.stage_vectors.push(vectors.len());
        scan.conditions_evaluated += vectors.len() * colours.len();
        if residual > *tol {
            scan.failure = Some((n, residual));
            return scan;
        }
        let trees = vectors
            .iter()
            .fold(0u128, |sum, v| sum.saturating_add(v.trees));
        scan.trees_checked = scan
            .trees_checked
            .saturating_add(trees.saturating_mul(colours.len() as u128));
        scan.max_residual.max_mut(&residual);
        scan.verified = n;
        if n == options.max_order {
            return scan;
        }
        if !forest.advance(options.max_stage_vectors) {
            scan.truncated_at = Some(n + 1);
            return scan;
        }
    }
}

/// The radius δ within which stage vectors are merged: the power of two nearest to
/// √(tol · 2^{1−prec}), the geometric mean of the tolerance and the rounding unit. Merged
/// vectors differ by at most δ in every component, so their conditions differ by at most ‖b‖₁ δ.
fn merge_radius(tol: &Float, prec: u32) -> Float {
    let prec = i32::try_from(prec).unwrap_or(i32::MAX / 4);
    let tol_exp = tol.get_exp().unwrap_or(-2 * prec);
    Float::with_val(2, Float::i_exp(1, (tol_exp - prec).div_euclid(2)))
}

/// The smallest k − 1 such that a bushy-tree condition Σ_i b^Y_i (A^X 𝟙)_i^{k−1} = 1/k fails for
/// some colours X, Y, searching k ≤ 2s + 1 (an s-point quadrature never satisfies B(2s + 1)).
fn bushy_upper_bound(
    colours: &[(&[Vec<Float>], &[Float])],
    d: Dims,
    tol: &Float,
) -> Option<UpperBound> {
    let nodes: Vec<Vec<Float>> = colours.iter().map(|&(a, _)| row_sums(a, d.prec)).collect();
    colours
        .iter()
        .flat_map(|&(_, b)| nodes.iter().map(move |c| (b, c)))
        .filter_map(|(b, c)| {
            let residuals = b_per_order(b, c, 2 * d.s + 1, d.prec);
            residuals.iter().position(|r| r > tol)
        })
        .min()
        .map(|order| UpperBound {
            order,
            method: UpperBoundMethod::BushyTrees,
        })
}

/// Butcher's bound min(p, η + ζ + 1, 2η + 2) from B(p), C(η), D(ζ) with c = A𝟙 (minima over the
/// colours); 0 for pairs whose weights or nodes differ by more than `tol`.
fn butcher_bound(colours: &[(&[Vec<Float>], &[Float])], d: Dims, tol: &Float) -> usize {
    let cap = 2 * d.s + 1;
    let nodes: Vec<Vec<Float>> = colours.iter().map(|&(a, _)| row_sums(a, d.prec)).collect();
    let differs = |x: &[Float], y: &[Float]| {
        max_abs(
            x.iter().zip(y).map(|(u, v)| Float::with_val(d.prec, u - v)),
            d.prec,
        ) > *tol
    };
    let (_, b0) = colours[0];
    if colours
        .iter()
        .zip(&nodes)
        .any(|(&(_, b), c)| differs(b, b0) || differs(c, &nodes[0]))
    {
        return 0;
    }
    let (p, eta, zeta) =
        colours
            .iter()
            .zip(&nodes)
            .fold((cap, cap, cap), |(p, eta, zeta), (&(a, b), c)| {
                let l = levels(a, b, c, tol, cap, d.prec);
                (p.min(l.b), eta.min(l.c), zeta.min(l.d))
            });
    p.min(eta + zeta + 1).min(2 * eta + 2)
}

#[cfg(test)]
mod tests;
