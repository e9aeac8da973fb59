//! Partitioned tableaus: a q-tableau `(a, b, c)` and a p-tableau `(ā, b̄, c̄)`.

use super::{Family, Tableau, TableauError, build};
use crate::exact::Precision;

/// The partitioned pairs of the catalogue (all are symplectic conjugate pairs,
/// `b_i ā_ij + b_j a_ji = b_i b_j`, `b = b̄`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairKind {
    /// (Gauss, Gauss).
    Gauss,
    /// (IIIA, IIIB), where IIIB = conj(IIIA); SLRKLobattoIIIAB.
    LobattoIIIAIIIB,
    /// (IIIB, IIIA); SLRKLobattoIIIBA.
    LobattoIIIBIIIA,
    /// (IIIC, IIIC̄); SLRKLobattoIIICC̄.
    LobattoIIICIIICBar,
    /// (IIIC̄, IIIC); SLRKLobattoIIIC̄C.
    LobattoIIICBarIIIC,
    /// (IIID, IIID̄ = IIID); SLRKLobattoIIID.
    LobattoIIIDIIIDBar,
    /// (IIIE, IIIĒ = IIIE); SLRKLobattoIIIE.
    LobattoIIIEIIIEBar,
    /// (IIIF, IIIF̄).
    LobattoIIIFIIIFBar,
    /// (IIIF̄, IIIF).
    LobattoIIIFBarIIIF,
    /// (IIIG, IIIḠ = IIIG).
    LobattoIIIGIIIGBar,
}

impl PairKind {
    /// Every pair, in catalogue order.
    pub const ALL: [PairKind; 10] = [
        PairKind::Gauss,
        PairKind::LobattoIIIAIIIB,
        PairKind::LobattoIIIBIIIA,
        PairKind::LobattoIIICIIICBar,
        PairKind::LobattoIIICBarIIIC,
        PairKind::LobattoIIIDIIIDBar,
        PairKind::LobattoIIIEIIIEBar,
        PairKind::LobattoIIIFIIIFBar,
        PairKind::LobattoIIIFBarIIIF,
        PairKind::LobattoIIIGIIIGBar,
    ];

    /// The six pairs of the SLRK families (GeometricIntegrators.jl's `SLRKLobattoIII…`
    /// constructors).
    pub const SLRK: [PairKind; 6] = [
        PairKind::LobattoIIIAIIIB,
        PairKind::LobattoIIIBIIIA,
        PairKind::LobattoIIICIIICBar,
        PairKind::LobattoIIICBarIIIC,
        PairKind::LobattoIIIDIIIDBar,
        PairKind::LobattoIIIEIIIEBar,
    ];

    /// The identifier, e.g. `LobattoIIIAIIIB`.
    pub fn name(self) -> &'static str {
        match self {
            PairKind::Gauss => "PartitionedGauss",
            PairKind::LobattoIIIAIIIB => "LobattoIIIAIIIB",
            PairKind::LobattoIIIBIIIA => "LobattoIIIBIIIA",
            PairKind::LobattoIIICIIICBar => "LobattoIIICIIICBar",
            PairKind::LobattoIIICBarIIIC => "LobattoIIICBarIIIC",
            PairKind::LobattoIIIDIIIDBar => "LobattoIIIDIIIDBar",
            PairKind::LobattoIIIEIIIEBar => "LobattoIIIEIIIEBar",
            PairKind::LobattoIIIFIIIFBar => "LobattoIIIFIIIFBar",
            PairKind::LobattoIIIFBarIIIF => "LobattoIIIFBarIIIF",
            PairKind::LobattoIIIGIIIGBar => "LobattoIIIGIIIGBar",
        }
    }

    /// The families of the q- and p-tableau. A self-conjugate family (Gauss, IIID, IIIE,
    /// IIIG) is its own partner.
    pub fn families(self) -> (Family, Family) {
        use Family::*;
        match self {
            PairKind::Gauss => (Gauss, Gauss),
            PairKind::LobattoIIIAIIIB => (LobattoIIIA, LobattoIIIB),
            PairKind::LobattoIIIBIIIA => (LobattoIIIB, LobattoIIIA),
            PairKind::LobattoIIICIIICBar => (LobattoIIIC, LobattoIIICBar),
            PairKind::LobattoIIICBarIIIC => (LobattoIIICBar, LobattoIIIC),
            PairKind::LobattoIIIDIIIDBar => (LobattoIIID, LobattoIIID),
            PairKind::LobattoIIIEIIIEBar => (LobattoIIIE, LobattoIIIE),
            PairKind::LobattoIIIFIIIFBar => (LobattoIIIF, LobattoIIIFBar),
            PairKind::LobattoIIIFBarIIIF => (LobattoIIIFBar, LobattoIIIF),
            PairKind::LobattoIIIGIIIGBar => (LobattoIIIG, LobattoIIIG),
        }
    }

    /// The smallest number of stages.
    pub fn min_stages(self) -> usize {
        self.families().0.min_stages()
    }

    /// The declared properties with `s` stages: order 2s (Gauss) or 2s−2 (Lobatto pairs,
    /// Hairer–Lubich–Wanner §II.2, Jay 1996), every pair symplectic, symmetric unless a
    /// member is not (the IIIC pairs).
    pub fn declared(self, s: usize) -> PairProperties {
        let order = match self {
            PairKind::Gauss => 2 * s,
            _ => 2 * s - 2,
        };
        let symmetric = !matches!(
            self,
            PairKind::LobattoIIICIIICBar | PairKind::LobattoIIICBarIIIC
        );
        PairProperties {
            order,
            symplectic: true,
            symmetric,
        }
    }
}

/// Properties of a partitioned pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairProperties {
    /// Order from the bi-coloured rooted-tree conditions.
    pub order: usize,
    /// `b_i ā_ij + b̄_j a_ji = b_i b̄_j` and `b = b̄`.
    pub symplectic: bool,
    /// Both tableaus symmetric.
    pub symmetric: bool,
}

/// A partitioned Runge–Kutta tableau.
#[derive(Clone, Debug)]
pub struct PartitionedTableau {
    /// Which pair.
    pub kind: PairKind,
    /// The q-tableau `(a, b, c)`.
    pub q: Tableau,
    /// The p-tableau `(ā, b̄, c̄)`.
    pub p: Tableau,
}

impl PartitionedTableau {
    /// Builds the pair with `s` stages.
    pub fn build(
        kind: PairKind,
        s: usize,
        prec: Precision,
    ) -> Result<PartitionedTableau, TableauError> {
        let (fq, fp) = kind.families();
        let q = build(fq, s, prec)?;
        let p = if fp == fq {
            q.clone()
        } else {
            build(fp, s, prec)?
        };
        Ok(PartitionedTableau { kind, q, p })
    }

    /// The name, e.g. `LobattoIIIAIIIB(3)`.
    pub fn name(&self) -> String {
        format!("{}({})", self.kind.name(), self.q.s)
    }
}
