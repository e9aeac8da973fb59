//! The SPARK tableaus of GeometricIntegrators.jl (`TableauSPARK`): `SPARKGLRK`, `SPARKLobatto` over
//! a Lobatto pair, the Gauss–Lobatto couplings `SPARKGLRKLobattoIIIAIIIB/IIIBIIIA` (σ = s + 1),
//! `SPARKLobABC`/`SPARKLobABD` (four Lobatto tableaus) and `SPARKGLVPRK`.
//!
//! The Lobatto-pair tableaus carry the Lobatto null vector d, which fixes the gauge of VSPARK's
//! internal velocities; SPARK has no internal velocities and does not use it (upstream adds a
//! multiplier μ along d to SPARK's rows it does not belong to, a defect; see
//! [`crate::method::spark`]).

use super::projection::Base;
use super::tableau::{SparkTableau, identity_omega};
use super::{gauss_omega_matrix, lobatto_null_vector, lobatto_omega_matrix};
use crate::exact::{Matrix, Precision};
use crate::tableau::{Family, Tableau, TableauError, build};

/// The SPARK tableaus shipped as steppers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SparkKind {
    /// `SPARKGLRK(s)`: Gauss in every slot, `gauss_ω_matrix(s)`; order 2s.
    Glrk,
    /// `SPARKLobattoIIIAIIIB(s)`: (IIIA, IIIĀ = IIIB) in the q/p slots, `lobatto_ω_matrix(s)`;
    /// order 2s − 2.
    LobattoIIIAIIIB,
    /// `SPARKLobattoIIIBIIIA(s)`: (IIIB, IIIB̄ = IIIA); order 2s − 2.
    LobattoIIIBIIIA,
    /// `SPARKGLRKLobattoIIIAIIIB(s)`: Gauss(s) internal stages, Lobatto(σ = s + 1) projective
    /// stages coupled by IIIA(σ) rows 2..σ and IIIB(σ) columns 1..s; order 2s.
    GlrkLobattoIIIAIIIB,
    /// `SPARKGLRKLobattoIIIBIIIA(s)`: the same coupling with IIIA and IIIB exchanged.
    GlrkLobattoIIIBIIIA,
    /// `SPARKLobABC(s)`: q-slots IIIB, p-slots IIIA (internal) and IIIC (projective).
    LobABC,
    /// `SPARKLobABD(s)`: q-slots IIIB, p-slots IIIA (internal) and IIID (projective).
    LobABD,
    /// `SPARKGLVPRK(s)`: Gauss everywhere, `ω = [I_s | 0]` (the constraint at every projective
    /// stage); the same method as VPRK Gauss(s).
    Glvprk,
}

impl SparkKind {
    /// Every kind, in catalogue order.
    pub const ALL: [SparkKind; 8] = [
        SparkKind::Glrk,
        SparkKind::LobattoIIIAIIIB,
        SparkKind::LobattoIIIBIIIA,
        SparkKind::GlrkLobattoIIIAIIIB,
        SparkKind::GlrkLobattoIIIBIIIA,
        SparkKind::LobABC,
        SparkKind::LobABD,
        SparkKind::Glvprk,
    ];

    /// The identifier, e.g. `Glrk`, `LobABC`.
    pub fn name(self) -> &'static str {
        match self {
            SparkKind::Glrk => "Glrk",
            SparkKind::LobattoIIIAIIIB => "LobattoIIIAIIIB",
            SparkKind::LobattoIIIBIIIA => "LobattoIIIBIIIA",
            SparkKind::GlrkLobattoIIIAIIIB => "GlrkLobattoIIIAIIIB",
            SparkKind::GlrkLobattoIIIBIIIA => "GlrkLobattoIIIBIIIA",
            SparkKind::LobABC => "LobABC",
            SparkKind::LobABD => "LobABD",
            SparkKind::Glvprk => "Glvprk",
        }
    }

    /// The smallest number of internal stages.
    pub fn min_stages(self) -> usize {
        match self {
            SparkKind::Glrk
            | SparkKind::GlrkLobattoIIIAIIIB
            | SparkKind::GlrkLobattoIIIBIIIA
            | SparkKind::Glvprk => 1,
            _ => 2,
        }
    }

    /// The tableau with `s` internal stages.
    pub fn build(self, s: usize, prec: Precision) -> Result<SparkTableau, TableauError> {
        let name = format!("{}{s}", self.name());
        let t = |f: Family| build(f, s, prec);
        match self {
            SparkKind::Glrk => {
                let g = t(Family::Gauss)?;
                Ok(uniform(name, 2 * s, &g, &g, gauss_omega_matrix(s, prec)?))
            }
            SparkKind::Glvprk => {
                let g = t(Family::Gauss)?;
                Ok(uniform(name, 2 * s, &g, &g, identity_omega(s)))
            }
            SparkKind::LobattoIIIAIIIB | SparkKind::LobattoIIIBIIIA => {
                let (fq, fp) = if self == SparkKind::LobattoIIIAIIIB {
                    (Family::LobattoIIIA, Family::LobattoIIIB)
                } else {
                    (Family::LobattoIIIB, Family::LobattoIIIA)
                };
                let omega = lobatto_omega_matrix(s, prec)?;
                let mut tableau = uniform(name, 2 * s - 2, &t(fq)?, &t(fp)?, omega);
                tableau.null = Some(lobatto_null_vector(s, prec)?);
                Ok(tableau)
            }
            SparkKind::LobABC | SparkKind::LobABD => {
                let l2 = if self == SparkKind::LobABC {
                    Family::LobattoIIIC
                } else {
                    Family::LobattoIIID
                };
                let (l1, l2, l3) = (t(Family::LobattoIIIA)?, t(l2)?, t(Family::LobattoIIIB)?);
                let omega = lobatto_omega_matrix(s, prec)?;
                Ok(four_lobatto(name, 2 * s - 2, [&l1, &l2, &l3, &l3], omega))
            }
            SparkKind::GlrkLobattoIIIAIIIB | SparkKind::GlrkLobattoIIIBIIIA => {
                let sigma = s + 1;
                let (ia, ib) = (
                    build(Family::LobattoIIIA, sigma, prec)?,
                    build(Family::LobattoIIIB, sigma, prec)?,
                );
                let (rows, cols) = if self == SparkKind::GlrkLobattoIIIAIIIB {
                    (&ia, &ib)
                } else {
                    (&ib, &ia)
                };
                let g = t(Family::Gauss)?;
                let alpha: Matrix = rows.a[1..].to_vec();
                let a_tilde: Matrix = cols.a.iter().map(|row| row[..s].to_vec()).collect();
                Ok(SparkTableau {
                    name,
                    order: 2 * s,
                    s,
                    r: sigma,
                    a: [g.a.clone(), g.a.clone()],
                    alpha: [alpha.clone(), alpha],
                    a_tilde: [a_tilde.clone(), a_tilde],
                    alpha_tilde: [rows.a.clone(), cols.a.clone()],
                    b: [g.b.clone(), g.b.clone()],
                    beta: [rows.b.clone(), cols.b.clone()],
                    c: [g.c.clone(), g.c],
                    c_lambda: ia.c.clone(),
                    d_lambda: ia.b.clone(),
                    omega: lobatto_omega_matrix(sigma, prec)?,
                    delta: Vec::new(),
                    null: None,
                })
            }
        }
    }
}

/// HPARK's tableau over the pair of `base` (GeometricIntegrators.jl's `TableauHPARK`): r = s, every
/// q-slot the pair's q tableau and every p-slot its p tableau, `c^λ = c^q`, and the multiplier
/// update weights `d^λ = b` (upstream takes the nodes `c^p` there); the constraint at every
/// projective stage (ω is not used). Order 2s over Gauss, 2s − 2 over the Lobatto pairs.
pub fn hpark_tableau(base: Base, s: usize, prec: Precision) -> Result<SparkTableau, TableauError> {
    let (fq, fp, order) = match base {
        Base::Glrk => (Family::Gauss, Family::Gauss, 2 * s),
        Base::LobattoIIIAIIIB => (Family::LobattoIIIA, Family::LobattoIIIB, 2 * s - 2),
        Base::LobattoIIIBIIIA => (Family::LobattoIIIB, Family::LobattoIIIA, 2 * s - 2),
    };
    let (q, p) = (build(fq, s, prec)?, build(fp, s, prec)?);
    let name = format!("Hpark{}{s}", base.name());
    Ok(uniform(name, order, &q, &p, identity_omega(s)))
}

/// A tableau with r = s whose q-slots are all `q` and p-slots all `p`
/// (`c^λ = c^q`, `d^λ = b^q`).
fn uniform(name: String, order: usize, q: &Tableau, p: &Tableau, omega: Matrix) -> SparkTableau {
    SparkTableau {
        name,
        order,
        s: q.s,
        r: q.s,
        a: [q.a.clone(), p.a.clone()],
        alpha: [q.a.clone(), p.a.clone()],
        a_tilde: [q.a.clone(), p.a.clone()],
        alpha_tilde: [q.a.clone(), p.a.clone()],
        b: [q.b.clone(), p.b.clone()],
        beta: [q.b.clone(), p.b.clone()],
        c: [q.c.clone(), p.c.clone()],
        c_lambda: q.c.clone(),
        d_lambda: q.b.clone(),
        omega,
        delta: Vec::new(),
        null: None,
    }
}

/// Upstream's four-tableau `SPARKLobatto(l1, l2, l3, l4)`: internal `(a^q, a^p) = (l3, l1)`,
/// `(α^q, α^p) = (l4, l2)`, projective `(ã^q, ã^p) = (l3, l1)`, `(α̃^q, α̃^p) = (l4, l2)`,
/// weights `b = (l3.b, l1.b)`, `β = (l4.b, l2.b)`, `c^λ = l4.c`, `d^λ = l4.b`.
fn four_lobatto(name: String, order: usize, l: [&Tableau; 4], omega: Matrix) -> SparkTableau {
    let [l1, l2, l3, l4] = l;
    SparkTableau {
        name,
        order,
        s: l1.s,
        r: l1.s,
        a: [l3.a.clone(), l1.a.clone()],
        alpha: [l4.a.clone(), l2.a.clone()],
        a_tilde: [l3.a.clone(), l1.a.clone()],
        alpha_tilde: [l4.a.clone(), l2.a.clone()],
        b: [l3.b.clone(), l1.b.clone()],
        beta: [l4.b.clone(), l2.b.clone()],
        c: [l3.c.clone(), l1.c.clone()],
        c_lambda: l4.c.clone(),
        d_lambda: l4.b.clone(),
        omega,
        delta: Vec::new(),
        null: None,
    }
}
