//! The fixed four-Lobatto VSPARKprimary tableaus `VSPARKLob…` of GeometricIntegrators.jl
//! (`TableauVSPARKprimary`): r = s projective stages at the Lobatto nodes,
//! `ω = lobatto_ω_matrix(s)`, no δ rows and no null vector, `b = β` the Lobatto weights,
//! `c = c^λ` the Lobatto nodes, declared order 2s − 2. The q- and p-slots share `a`, `α` and `ã`; only `α̃` may
//! differ between them.

use super::lobatto_omega_matrix;
use super::tableau::SparkTableau;
use crate::exact::Precision;
use crate::tableau::{Family, TableauError, build};

/// One `VSPARKLob…` tableau: the Lobatto families in the slots `a`, `α`, `ã`, `α̃^q`, `α̃^p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimaryLobatto {
    /// a = IIID, α = IIIB, ã = IIIA, α̃ = (IIIC̄, IIIC).
    AbCcD,
    /// a = IIIE, α = IIIB, ã = IIIA, α̃ = (IIIC̄, IIIC).
    AbCcE,
    /// a = IIIE, α = IIIB, ã = IIIA, α̃ = (IIID, IIID).
    AbEd,
    /// a = IIID, α = IIIB, ã = IIIA, α̃ = (IIIE, IIIE).
    AbDe,
    /// a = IIID, α = IIIB, ã = IIIA, α̃ = (IIIA, IIIB).
    AbD,
    /// a = IIIE, α = IIIB, ã = IIIA, α̃ = (IIIA, IIIB).
    AbE,
    /// a = IIID, α = ã = IIIE, α̃ = (IIID, IIID).
    De,
    /// a = IIIE, α = ã = IIID, α̃ = (IIIE, IIIE).
    Ed,
}

impl PrimaryLobatto {
    /// Every tableau, in catalogue order.
    pub const ALL: [PrimaryLobatto; 8] = [
        PrimaryLobatto::AbCcD,
        PrimaryLobatto::AbCcE,
        PrimaryLobatto::AbEd,
        PrimaryLobatto::AbDe,
        PrimaryLobatto::AbD,
        PrimaryLobatto::AbE,
        PrimaryLobatto::De,
        PrimaryLobatto::Ed,
    ];

    /// Upstream's suffix, e.g. `LobABCCD`.
    pub fn name(self) -> &'static str {
        match self {
            PrimaryLobatto::AbCcD => "LobABCCD",
            PrimaryLobatto::AbCcE => "LobABCCE",
            PrimaryLobatto::AbEd => "LobABED",
            PrimaryLobatto::AbDe => "LobABDE",
            PrimaryLobatto::AbD => "LobABD",
            PrimaryLobatto::AbE => "LobABE",
            PrimaryLobatto::De => "LobDE",
            PrimaryLobatto::Ed => "LobED",
        }
    }

    /// The families in the slots `[a, α, ã, α̃^q, α̃^p]`.
    fn slots(self) -> [Family; 5] {
        use Family::*;
        match self {
            PrimaryLobatto::AbCcD => [
                LobattoIIID,
                LobattoIIIB,
                LobattoIIIA,
                LobattoIIICBar,
                LobattoIIIC,
            ],
            PrimaryLobatto::AbCcE => [
                LobattoIIIE,
                LobattoIIIB,
                LobattoIIIA,
                LobattoIIICBar,
                LobattoIIIC,
            ],
            PrimaryLobatto::AbEd => [
                LobattoIIIE,
                LobattoIIIB,
                LobattoIIIA,
                LobattoIIID,
                LobattoIIID,
            ],
            PrimaryLobatto::AbDe => [
                LobattoIIID,
                LobattoIIIB,
                LobattoIIIA,
                LobattoIIIE,
                LobattoIIIE,
            ],
            PrimaryLobatto::AbD => [
                LobattoIIID,
                LobattoIIIB,
                LobattoIIIA,
                LobattoIIIA,
                LobattoIIIB,
            ],
            PrimaryLobatto::AbE => [
                LobattoIIIE,
                LobattoIIIB,
                LobattoIIIA,
                LobattoIIIA,
                LobattoIIIB,
            ],
            PrimaryLobatto::De => [
                LobattoIIID,
                LobattoIIIE,
                LobattoIIIE,
                LobattoIIID,
                LobattoIIID,
            ],
            PrimaryLobatto::Ed => [
                LobattoIIIE,
                LobattoIIID,
                LobattoIIID,
                LobattoIIIE,
                LobattoIIIE,
            ],
        }
    }

    /// The tableau with `s ≥ 2` stages.
    pub fn build(self, s: usize, prec: Precision) -> Result<SparkTableau, TableauError> {
        let [a, alpha, a_tilde, tq, tp] = self.slots().map(|f| build(f, s, prec));
        let (a, alpha, a_tilde, tq, tp) = (a?, alpha?, a_tilde?, tq?, tp?);
        Ok(SparkTableau {
            name: format!("{}{s}", self.name()),
            order: 2 * s - 2,
            s,
            r: s,
            a: [a.a.clone(), a.a],
            alpha: [alpha.a.clone(), alpha.a],
            a_tilde: [a_tilde.a.clone(), a_tilde.a],
            alpha_tilde: [tq.a, tp.a],
            b: [a.b.clone(), a.b.clone()],
            beta: [a.b.clone(), a.b],
            c: [a.c.clone(), a.c.clone()],
            c_lambda: a.c,
            d_lambda: vec![crate::exact::Num::one(); s],
            omega: lobatto_omega_matrix(s, prec)?,
            delta: Vec::new(),
            null: None,
        })
    }
}
