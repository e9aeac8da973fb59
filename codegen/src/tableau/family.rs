//! The tableau families, their declared properties, and upstream's claims where they differ.

use super::nodes::NodeSet;

/// `R(∞) = lim_{z→∞} R(z)` of the stability function `R(z) = det(I − zA + z𝟙bᵀ)/det(I − zA)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RInfinity {
    /// A finite limit, here always −1, 0 or 1.
    Finite(i32),
    /// `|R(z)| → ∞` (numerator of higher degree than the denominator).
    Infinite,
}

impl RInfinity {
    /// `(−1)^k`.
    pub fn sign_power(k: usize) -> RInfinity {
        RInfinity::Finite(if k.is_multiple_of(2) { 1 } else { -1 })
    }
}

/// The properties of a tableau that the catalogue declares and the checks compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Properties {
    /// Classical order p (all rooted-tree conditions up to p hold, some of order p+1 fail).
    pub order: usize,
    /// The largest k with `B(k)`: `Σ_i b_i c_i^{k−1} = 1/k`.
    pub b: usize,
    /// The largest k with `C(k)`: `Σ_j a_ij c_j^{l−1} = c_i^l / l`, l ≤ k.
    pub c: usize,
    /// The largest k with `D(k)`: `Σ_i b_i c_i^{l−1} a_ij = b_j (1 − c_j^l)/l`, l ≤ k.
    pub d: usize,
    /// Symplectic: `b_i a_ij + b_j a_ji = b_i b_j` for all i, j.
    pub symplectic: bool,
    /// Symmetric: `a_{s+1−i, s+1−j} + a_ij = b_j` for all i, j.
    pub symmetric: bool,
    /// The limit of the stability function at infinity.
    pub r_infinity: RInfinity,
}

/// A property that GeometricIntegrators.jl / RungeKutta.jl declares wrongly for a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpstreamClaim {
    /// Upstream declares this order (IIIF, IIIF̄, IIIG declare 2s; the true order is 2s−2).
    Order(usize),
    /// Upstream declares this R(∞) (IIIC, Lobatto III: (−1)^{s+1}; Radau IB/IIB: 0).
    RInfinity(RInfinity),
    /// Upstream declares the tableau not symplectic (`VPRKRadauIIB`), but it is.
    NotSymplectic,
}

/// The tableau families of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Gauss–Legendre collocation: `C(s)` at Gauss nodes.
    Gauss,
    /// Lobatto IIIA: collocation, `C(s)` at Lobatto nodes.
    LobattoIIIA,
    /// Lobatto IIIB: `D(s)` at Lobatto nodes.
    LobattoIIIB,
    /// Lobatto IIIC (Chipman): `a_i1 = b_1` and `C(s−1)` on columns 2..s.
    LobattoIIIC,
    /// Lobatto IIIC̄ = IIIC* = Butcher's Lobatto III: `a_is = 0` and `C(s−1)` on columns 1..s−1.
    LobattoIIICBar,
    /// Lobatto IIID = (IIIC + IIIC̄)/2.
    LobattoIIID,
    /// Lobatto IIIE = (IIIA + IIIB)/2.
    LobattoIIIE,
    /// Lobatto IIIF (Wang–Liao): `C(s−1)` and `a c^{s−1}` = L²-projection of `c^s/s`.
    LobattoIIIF,
    /// Lobatto IIIF̄: the symplectic conjugate of IIIF.
    LobattoIIIFBar,
    /// Lobatto IIIG = (IIIF + IIIF̄)/2.
    LobattoIIIG,
    /// Radau IA: `D(s)` at Radau I nodes.
    RadauIA,
    /// Radau IIA: collocation, `C(s)` at Radau II nodes.
    RadauIIA,
    /// Radau IB (Sun Geng) = (IA + conj IA)/2.
    RadauIB,
    /// Radau IIB (Sun Geng) = (IIA + conj IIA)/2.
    RadauIIB,
}

impl Family {
    /// Every family, in catalogue order.
    pub const ALL: [Family; 14] = [
        Family::Gauss,
        Family::LobattoIIIA,
        Family::LobattoIIIB,
        Family::LobattoIIIC,
        Family::LobattoIIICBar,
        Family::LobattoIIID,
        Family::LobattoIIIE,
        Family::LobattoIIIF,
        Family::LobattoIIIFBar,
        Family::LobattoIIIG,
        Family::RadauIA,
        Family::RadauIIA,
        Family::RadauIB,
        Family::RadauIIB,
    ];

    /// The identifier used in names and emitted code, e.g. `LobattoIIICBar`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Gauss => "Gauss",
            Family::LobattoIIIA => "LobattoIIIA",
            Family::LobattoIIIB => "LobattoIIIB",
            Family::LobattoIIIC => "LobattoIIIC",
            Family::LobattoIIICBar => "LobattoIIICBar",
            Family::LobattoIIID => "LobattoIIID",
            Family::LobattoIIIE => "LobattoIIIE",
            Family::LobattoIIIF => "LobattoIIIF",
            Family::LobattoIIIFBar => "LobattoIIIFBar",
            Family::LobattoIIIG => "LobattoIIIG",
            Family::RadauIA => "RadauIA",
            Family::RadauIIA => "RadauIIA",
            Family::RadauIB => "RadauIB",
            Family::RadauIIB => "RadauIIB",
        }
    }

    /// The family with the given [`Family::name`].
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The underlying quadrature.
    pub fn node_set(self) -> NodeSet {
        match self {
            Family::Gauss => NodeSet::Gauss,
            Family::RadauIA | Family::RadauIB => NodeSet::RadauI,
            Family::RadauIIA | Family::RadauIIB => NodeSet::RadauII,
            _ => NodeSet::Lobatto,
        }
    }

    /// The smallest number of stages for which the family exists.
    pub fn min_stages(self) -> usize {
        self.node_set().min_stages()
    }

    /// The properties we declare for `s` stages (Hairer–Wanner, Jay; corrected where upstream
    /// metadata is wrong, see [`Family::upstream_claims`]).
    pub fn declared(self, s: usize) -> Properties {
        use Family::*;
        let lob = 2 * s - 2;
        let rad = 2 * s - 1;
        let sub = |k: usize| s.saturating_sub(k);
        let odd = RInfinity::sign_power(s + 1);
        let even = RInfinity::sign_power(s);
        let p = |order, b, c, d, symplectic, symmetric, r_infinity| Properties {
            order,
            b,
            c,
            d,
            symplectic,
            symmetric,
            r_infinity,
        };
        match self {
            Gauss => p(2 * s, 2 * s, s, s, true, true, even),
            LobattoIIIA => p(lob, lob, s, sub(2), false, true, odd),
            LobattoIIIB => p(lob, lob, sub(2), s, false, true, odd),
            LobattoIIIC => p(lob, lob, sub(1), sub(1), false, false, RInfinity::Finite(0)),
            LobattoIIICBar => p(lob, lob, sub(1), sub(1), false, false, RInfinity::Infinite),
            LobattoIIID => p(lob, lob, sub(1), sub(1), true, true, even),
            LobattoIIIE => p(lob, lob, sub(2), sub(2), true, true, even),
            LobattoIIIF => p(lob, lob, sub(1), sub(2), false, true, even),
            LobattoIIIFBar => p(lob, lob, sub(2), sub(1), false, true, even),
            LobattoIIIG => p(lob, lob, sub(2), sub(2), true, true, even),
            RadauIA => p(rad, rad, sub(1), s, false, false, RInfinity::Finite(0)),
            RadauIIA => p(rad, rad, s, sub(1), false, false, RInfinity::Finite(0)),
            RadauIB | RadauIIB => p(rad, rad, sub(1), sub(1), true, false, even),
        }
    }

    /// What upstream (RungeKutta.jl v0.5.22, GeometricIntegrators.jl) declares where it differs
    /// from [`Family::declared`].
    pub fn upstream_claims(self, s: usize) -> Vec<UpstreamClaim> {
        use Family::*;
        match self {
            LobattoIIIF | LobattoIIIFBar | LobattoIIIG => vec![UpstreamClaim::Order(2 * s)],
            LobattoIIIC | LobattoIIICBar => {
                vec![UpstreamClaim::RInfinity(RInfinity::sign_power(s + 1))]
            }
            RadauIB => vec![UpstreamClaim::RInfinity(RInfinity::Finite(0))],
            RadauIIB => vec![
                UpstreamClaim::RInfinity(RInfinity::Finite(0)),
                UpstreamClaim::NotSymplectic,
            ],
            _ => Vec::new(),
        }
    }
}
