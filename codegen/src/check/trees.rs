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

use rug::{Float, Integer};

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
    /// Deduplication grid: values are merged when every component agrees after rounding
    /// x·2^shift to an integer; `None` keeps every tree separate.
    merge_shift: Option<i32>,
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
        merge_shift: Option<i32>,
    ) -> Self {
        let leaf = StageVector { value: vec![Float::with_val(prec, 1); s], trees: 1 };
        Forest {
            matrices,
            prec,
            merge_shift,
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
        let mut contributions = Distinct::new(self.merge_shift);
        for v in &self.current {
            for a in &self.matrices {
                contributions.insert(mat_vec(a, &v.value, scale, self.prec), v.trees);
            }
        }
        self.child_orders.extend(std::iter::repeat_n(n, contributions.items.len()));
        self.children.extend(contributions.items);
        let mut next = Distinct::new(self.merge_shift);
        let mut path = Vec::with_capacity(n);
        let within_cap = self.multisets(n, self.children.len(), None, &mut path, &mut next, cap);
        self.current = next.items;
        self.order = n + 1;
        within_cap
    }

    /// Depth-first enumeration of the multisets of child contributions with orders summing to
    /// `remaining` (plus the part already chosen along `path`, whose product is `partial`),
    /// using only entries with index < `limit` so that each multiset is produced once
    /// (indices non-increasing along `path`).
    fn multisets(
        &self,
        remaining: usize,
        limit: usize,
        partial: Option<&[Float]>,
        path: &mut Vec<usize>,
        out: &mut Distinct,
        cap: usize,
    ) -> bool {
        if remaining == 0 {
            let value = partial.map_or_else(Vec::new, <[Float]>::to_vec);
            out.insert(value, self.multiplicity(path));
            return out.items.len() <= cap;
        }
        let end = limit.min(self.child_orders.partition_point(|&m| m <= remaining));
        for i in 0..end {
            let w = &self.children[i].value;
            let product: Vec<Float> = match partial {
                None => w.clone(),
                Some(p) => p.iter().zip(w).map(|(x, y)| Float::with_val(self.prec, x * y)).collect(),
            };
            path.push(i);
            let ok = self.multisets(remaining - self.child_orders[i], i + 1, Some(&product), path, out, cap);
            path.pop();
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
            multichoose(mu, run.len()).and_then(|m| total.checked_mul(m)).unwrap_or(u128::MAX)
        })
    }
}

/// C(μ + k − 1, k), the number of multisets of size k from μ kinds; `None` on overflow.
fn multichoose(mu: u128, k: usize) -> Option<u128> {
    (1..=k as u128).try_fold(1u128, |acc, i| Some(acc.checked_mul(mu.checked_add(i - 1)?)? / i))
}

/// An insertion-ordered set of vectors, merging values that fall into the same grid cell.
struct Distinct {
    items: Vec<StageVector>,
    index: HashMap<Vec<Integer>, usize>,
    merge_shift: Option<i32>,
}

impl Distinct {
    fn new(merge_shift: Option<i32>) -> Self {
        Distinct { items: Vec::new(), index: HashMap::new(), merge_shift }
    }

    /// Adds `value` standing for `trees` trees, or adds the count to an equal stored value.
    fn insert(&mut self, value: Vec<Float>, trees: u128) {
        let Some(shift) = self.merge_shift else {
            self.items.push(StageVector { value, trees });
            return;
        };
        // Inputs are validated finite and the arithmetic stays finite, so every key exists;
        // a non-finite component gets its own key and the value is simply kept separately.
        let key: Option<Vec<Integer>> =
            value.iter().map(|x| Float::with_val(x.prec(), x << shift).to_integer()).collect();
        match key.as_ref().and_then(|k| self.index.get(k)) {
            Some(&i) => self.items[i].trees = self.items[i].trees.saturating_add(trees),
            None => {
                if let Some(k) = key {
                    self.index.insert(k, self.items.len());
                }
                self.items.push(StageVector { value, trees });
            }
        }
    }
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
    fn counts(matrices: Vec<&[Vec<Float>]>, merge: Option<i32>, max: usize) -> Vec<(u128, u128)> {
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
        let mono: Vec<u128> = reference_trees::trees(1, 8).iter().map(|l| l.len() as u128).collect();
        let bi: Vec<u128> = reference_trees::trees(2, 8).iter().map(|l| l.len() as u128).collect();
        assert_eq!(mono, MONOCOLOURED);
        assert_eq!(bi, BICOLOURED);
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
        assert!(mono.iter().chain(&bi).all(|(stored, represented)| stored == represented));
    }

    #[test]
    fn merging_keeps_the_count_of_represented_trees() {
        // Gauss(3) satisfies C(3): W_m collapses to {c^m} for m ≤ 3 and most trees merge.
        let g = fixtures::gauss(3);
        let shift = i32::try_from(PREC).unwrap() / 2;
        let mono = counts(vec![&g.a], Some(shift), 8);
        let bi = counts(vec![&g.a, &g.a], Some(shift), 8);
        assert_eq!(mono.iter().map(|c| c.1).collect::<Vec<_>>(), MONOCOLOURED);
        assert_eq!(bi.iter().map(|c| c.1).collect::<Vec<_>>(), BICOLOURED);
        // Equal matrices: the bicoloured scan stores exactly the monocoloured vectors.
        let stored = |c: &[(u128, u128)], colours| c.iter().map(|x| x.0 / colours).collect::<Vec<_>>();
        assert_eq!(stored(&mono, 1), stored(&bi, 2));
        assert!(mono.iter().zip(MONOCOLOURED).all(|(c, trees)| c.0 <= trees));
        assert!(mono[7].0 < MONOCOLOURED[7] / 4, "order 8 stored {} vectors", mono[7].0);
    }

    #[test]
    fn multichoose_counts_multisets() {
        assert_eq!(super::multichoose(3, 2), Some(6));
        assert_eq!(super::multichoose(1, 13), Some(1));
        assert_eq!(super::multichoose(5, 0), Some(1));
        assert_eq!(super::multichoose(u128::MAX, 2), None);
    }
}
