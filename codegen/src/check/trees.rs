//! Normalised stage vectors of rooted trees, built order by order and deduplicated by value.
//!
//! For a tree t = [t_1, …, t_m] whose subtree t_k hangs from the root by an edge into a vertex of
//! colour X_k, the elementary weights are Φ(•) = 𝟙 and Φ(t) = Π_k A^{X_k} Φ(t_k) (componentwise),
//! and the density is γ(t) = |t| Π_k γ(t_k). The normalised stage vector
//! ĝ(t) = (γ(t)/|t|) Φ(t) obeys
//!
//! ĝ(•) = 𝟙,   ĝ([t_1 … t_m]) = Π_k (|t_k| A^{X_k} ĝ(t_k)),
//!
//! and the order condition b^{Y}ᵀ Φ(t) = 1/γ(t) for a root of colour Y reads b^{Y}ᵀ ĝ(t) = 1/|t|.
//! ĝ(t) does not depend on the colour of the root, and it depends on the children only through
//! their contributions w = m A^X ĝ(t_k) (m = |t_k|). So the set V_n of distinct ĝ over trees of
//! order n is the set of componentwise products over multisets of contributions from
//! W_m = {m A^X v : v ∈ V_m, X a colour} whose orders sum to n − 1; equal values need to be
//! kept only once. Every stored vector counts the trees (with uncoloured root) it stands for.

use std::collections::HashMap;

use rug::{Assign, Float};

use super::dense::mat_vec;

/// A distinct value of ĝ (or of a child contribution m A^X ĝ), with the number of trees it represents.
#[derive(Debug, Clone)]
pub(crate) struct StageVector {
    /// The vector itself.
    pub(crate) value: Vec<Float>,
    /// How many distinct trees (root colour left open) share this value; saturates at `u128::MAX`.
    pub(crate) trees: u128,
}

/// The sets V_1, …, V_n and W_1, …, W_{n−1} for a family of coefficient matrices (one per colour).
pub(crate) struct Forest<'a> {
    /// A^X for every colour X.
    matrices: Vec<&'a [Vec<Float>]>,
    /// Working precision in bits.
    prec: u32,
    /// Merge radius δ: a vector within δ (in every component) of a stored one is merged into
    /// it; `None` keeps every tree separate.
    merge_radius: Option<Float>,
    /// W_1, W_2, … concatenated, in order of non-decreasing tree order.
    children: Vec<StageVector>,
    /// The tree order m of each entry of `children`.
    child_orders: Vec<usize>,
    /// V_n.
    current: Vec<StageVector>,
    /// n.
    order: usize,
}

impl<'a> Forest<'a> {
    /// Starts at order 1: V_1 = {ĝ(•)} = {𝟙}.
    pub(crate) fn new(
        matrices: Vec<&'a [Vec<Float>]>,
        s: usize,
        prec: u32,
        merge_radius: Option<Float>,
    ) -> Self {
        let leaf = StageVector {
            value: vec![Float::with_val(prec, 1); s],
            trees: 1,
        };
        Forest {
            matrices,
            prec,
            merge_radius,
            children: Vec::new(),
            child_orders: Vec::new(),
            current: vec![leaf],
            order: 1,
        }
    }

    /// The current order n.
    pub(crate) fn order(&self) -> usize {
        self.order
    }

    /// The distinct stage vectors V_n of the current order.
    pub(crate) fn stage_vectors(&self) -> &[StageVector] {
        &self.current
    }

    /// Moves from order n to n + 1: adds W_n = {n A^X v : v ∈ V_n} to the child contributions
    /// and forms V_{n+1}. Returns `false` (leaving the forest unusable) as soon as |V_{n+1}|
    /// would exceed `cap`.
    pub(crate) fn advance(&mut self, cap: usize) -> bool {
        let n = self.order;
        let scale = u32::try_from(n).unwrap_or(u32::MAX);
        let mut contributions = Distinct::new(self.merge_radius.clone());
        for v in &self.current {
            for a in &self.matrices {
                contributions.insert(mat_vec(a, &v.value, scale, self.prec), v.trees);
            }
        }
        self.child_orders
            .extend(std::iter::repeat_n(n, contributions.items.len()));
        self.children.extend(contributions.items);
        let mut next = Distinct::new(self.merge_radius.clone());
        let s = self.current[0].value.len();
        // One product buffer per depth below the first child (depth ≤ n − 1: orders are ≥ 1).
        let mut scratch = vec![vec![Float::new(self.prec); s]; n];
        let mut path = Vec::with_capacity(n);
        let mut search = Search {
            out: &mut next,
            path: &mut path,
            cap,
        };
        let within_cap = self.multisets(n, self.children.len(), None, &mut scratch, &mut search);
        self.current = next.items;
        self.order = n + 1;
        within_cap
    }

    /// Depth-first enumeration of the multisets of child contributions with orders summing to
    /// `remaining` (plus the part already chosen along `search.path`, whose product is
    /// `partial`), using only entries with index < `limit` so that each multiset is produced
    /// once (indices non-increasing along the path). `scratch` holds the product buffers of
    /// the deeper levels.
    fn multisets(
        &self,
        remaining: usize,
        limit: usize,
        partial: Option<&[Float]>,
        scratch: &mut [Vec<Float>],
        search: &mut Search<'_>,
    ) -> bool {
        if remaining == 0 {
            let trees = self.multiplicity(search.path);
            search.out.insert_copy(partial.unwrap_or_default(), trees);
            return search.out.items.len() <= search.cap;
        }
        let end = limit.min(self.child_orders.partition_point(|&m| m <= remaining));
        for i in 0..end {
            let w = &self.children[i].value;
            let rest = remaining - self.child_orders[i];
            search.path.push(i);
            let ok = match partial {
                None => self.multisets(rest, i + 1, Some(w), scratch, search),
                Some(p) => {
                    let (product, deeper) = scratch
                        .split_first_mut()
                        .expect("the path is no longer than the order, one buffer per level");
                    for ((z, x), y) in product.iter_mut().zip(p).zip(w) {
                        z.assign(x * y);
                    }
                    self.multisets(rest, i + 1, Some(product), deeper, search)
                }
            };
            search.path.pop();
            if !ok {
                return false;
            }
        }
        true
    }

    /// The number of trees a multiset of children represents: Π over distinct entries of the
    /// number of size-k multisets drawn from the μ trees that entry stands for, C(μ + k − 1, k).
    fn multiplicity(&self, path: &[usize]) -> u128 {
        path.chunk_by(|x, y| x == y).fold(1u128, |total, run| {
            let mu = self.children[run[0]].trees;
            multichoose(mu, run.len())
                .and_then(|m| total.checked_mul(m))
                .unwrap_or(u128::MAX)
        })
    }
}

/// C(μ + k − 1, k), the number of multisets of size k from μ kinds; `None` on overflow.
fn multichoose(mu: u128, k: usize) -> Option<u128> {
    (1..=k as u128).try_fold(1u128, |acc, i| {
        Some(acc.checked_mul(mu.checked_add(i - 1)?)? / i)
    })
}

/// The output side of the multiset enumeration.
struct Search<'a> {
    /// The distinct products found so far.
    out: &'a mut Distinct,
    /// The indices of the chosen children, non-increasing.
    path: &'a mut Vec<usize>,
    /// Largest allowed number of distinct products.
    cap: usize,
}

/// An insertion-ordered set of vectors that merges a vector into a stored one when every
/// component differs by at most the merge radius δ.
///
/// Candidates are found through a coarse hash of the components rounded to f64 (components
/// below δ·2^32 in magnitude count as 0); vectors within δ that round differently are kept
/// apart, which only costs time. Never-merging (`radius` = `None`) keeps every vector.
struct Distinct {
    items: Vec<StageVector>,
    /// Coarse key → most recent item with that key.
    heads: HashMap<u64, usize>,
    /// For each item, the previous item with the same coarse key.
    previous: Vec<Option<usize>>,
    /// (δ, δ·2^32), or `None` to keep every vector.
    radius: Option<(Float, Float)>,
}

impl Distinct {
    fn new(radius: Option<Float>) -> Self {
        Distinct {
            items: Vec::new(),
            heads: HashMap::new(),
            previous: Vec::new(),
            radius: radius.map(|r| {
                let flush = Float::with_val(r.prec(), &r << 32);
                (r, flush)
            }),
        }
    }

    /// Adds `value` standing for `trees` trees, or adds the count to a stored value within δ.
    fn insert(&mut self, value: Vec<Float>, trees: u128) {
        if let Some(key) = self.absorb(&value, trees) {
            self.push(value, trees, key);
        }
    }

    /// [`Distinct::insert`] for a borrowed vector, copied only when it is new.
    fn insert_copy(&mut self, value: &[Float], trees: u128) {
        if let Some(key) = self.absorb(value, trees) {
            self.push(value.to_vec(), trees, key);
        }
    }

    /// Adds `trees` to a stored vector within δ of `value` and returns `None`, or returns the
    /// coarse key under which `value` is to be stored.
    fn absorb(&mut self, value: &[Float], trees: u128) -> Option<u64> {
        let Some((radius, flush)) = &self.radius else {
            return Some(0);
        };
        let key = coarse_key(value, flush);
        let mut candidate = self.heads.get(&key).copied();
        while let Some(j) = candidate {
            let stored = &self.items[j].value;
            let close = stored.iter().zip(value).all(|(x, y)| {
                let mut difference = Float::with_val(x.prec(), x - y);
                difference.abs_mut();
                difference <= *radius
            });
            if close {
                self.items[j].trees = self.items[j].trees.saturating_add(trees);
                return None;
            }
            candidate = self.previous[j];
        }
        Some(key)
    }

    fn push(&mut self, value: Vec<Float>, trees: u128, key: u64) {
        if self.radius.is_some() {
            self.previous.push(self.heads.insert(key, self.items.len()));
        }
        self.items.push(StageVector { value, trees });
    }
}

/// A hash of the components rounded to f64, with components of magnitude ≤ `flush` (and −0)
/// counted as +0.
fn coarse_key(value: &[Float], flush: &Float) -> u64 {
    value.iter().fold(0xcbf2_9ce4_8422_2325, |hash, x| {
        let bits = if x.cmp_abs(flush).is_some_and(|o| o.is_le()) {
            0
        } else {
            x.to_f64().to_bits()
        };
        (hash ^ bits)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(29)
    })
}

#[cfg(test)]
mod tests {
    use super::Forest;
    use crate::check::fixtures::{self, PREC, Rng};
    use crate::check::reference_trees;
    use rug::Float;

    /// Rooted trees with one colour, orders 1..8 (OEIS A000081).
    const MONOCOLOURED: [u128; 8] = [1, 1, 2, 4, 9, 20, 48, 115];
    /// Rooted trees with two colours (root colour included), orders 1..8 (2 × OEIS A000151).
    const BICOLOURED: [u128; 8] = [2, 4, 14, 52, 214, 916, 4116, 18996];

    /// |V_n| (times the number of colours) and the represented-tree counts, n = 1..=max.
    fn counts(matrices: Vec<&[Vec<Float>]>, merge: Option<Float>, max: usize) -> Vec<(u128, u128)> {
        let colours = matrices.len() as u128;
        let s = matrices[0].len();
        let mut forest = Forest::new(matrices, s, PREC, merge);
        let mut all = Vec::new();
        loop {
            let v = forest.stage_vectors();
            let represented: u128 = v.iter().map(|x| x.trees).sum();
            all.push((v.len() as u128 * colours, represented * colours));
            if forest.order() == max {
                return all;
            }
            assert!(forest.advance(usize::MAX));
        }
    }

    #[test]
    fn plain_enumeration_matches_known_tree_counts() {
        let count = |colours| -> Vec<u128> {
            reference_trees::trees(colours, 8)
                .iter()
                .map(|l| l.len() as u128)
                .collect()
        };
        assert_eq!(count(1), MONOCOLOURED);
        assert_eq!(count(2), BICOLOURED);
    }

    #[test]
    fn scan_without_merging_generates_every_tree_once() {
        let mut rng = Rng(7);
        let (a, a_bar) = (rng.matrix(2), rng.matrix(2));
        let mono = counts(vec![&a], None, 8);
        let bi = counts(vec![&a, &a_bar], None, 8);
        assert_eq!(mono.iter().map(|c| c.0).collect::<Vec<_>>(), MONOCOLOURED);
        assert_eq!(bi.iter().map(|c| c.0).collect::<Vec<_>>(), BICOLOURED);
        // Without merging every stored vector stands for exactly one tree.
        assert!(
            mono.iter()
                .chain(&bi)
                .all(|(stored, represented)| stored == represented)
        );
    }

    #[test]
    fn merging_keeps_the_count_of_represented_trees() {
        // Gauss(3) satisfies C(3): W_m collapses to {c^m} for m ≤ 3 and most trees merge.
        let g = fixtures::gauss(3);
        let radius = Float::with_val(PREC, 1e-60);
        let mono = counts(vec![&g.a], Some(radius.clone()), 8);
        let bi = counts(vec![&g.a, &g.a], Some(radius), 8);
        assert_eq!(mono.iter().map(|c| c.1).collect::<Vec<_>>(), MONOCOLOURED);
        assert_eq!(bi.iter().map(|c| c.1).collect::<Vec<_>>(), BICOLOURED);
        // Equal matrices: the bicoloured scan stores exactly the monocoloured vectors.
        let stored =
            |c: &[(u128, u128)], colours| c.iter().map(|x| x.0 / colours).collect::<Vec<_>>();
        assert_eq!(stored(&mono, 1), stored(&bi, 2));
        assert!(mono.iter().zip(MONOCOLOURED).all(|(c, trees)| c.0 <= trees));
        assert!(
            mono[7].0 < MONOCOLOURED[7] / 4,
            "order 8 stored {} vectors",
            mono[7].0
        );
    }

    #[test]
    fn merging_needs_every_component_within_the_radius() {
        let radius = Float::with_val(PREC, 1e-60);
        let mut set = super::Distinct::new(Some(radius));
        let v = |x: f64, y: f64| vec![Float::with_val(PREC, x), Float::with_val(PREC, y)];
        set.insert(v(0.5, 0.0), 1);
        // Within δ in both components (the second below the flush level): merged.
        let mut close = v(0.5, 1e-70);
        close[0] += Float::with_val(PREC, 1e-62);
        set.insert(close, 2);
        // 1e-59 apart in one component: a different vector.
        let mut far = v(0.5, 0.0);
        far[1] += Float::with_val(PREC, 1e-59);
        set.insert(far, 4);
        let trees: Vec<u128> = set.items.iter().map(|x| x.trees).collect();
        assert_eq!(trees, [3, 4]);
    }

    #[test]
    fn multichoose_counts_multisets() {
        assert_eq!(super::multichoose(3, 2), Some(6));
        assert_eq!(super::multichoose(1, 13), Some(1));
        assert_eq!(super::multichoose(5, 0), Some(1));
        assert_eq!(super::multichoose(u128::MAX, 2), None);
    }
}
