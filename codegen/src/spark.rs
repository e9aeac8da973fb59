//! Coefficients of the SPARK family beyond the tableaus (GeometricIntegrators.jl,
//! `src/spark/coefficients_glrk.jl` and `coefficients_lob.jl`): the ω matrices that average the
//! constraint over projective stages, the Lobatto null vector `d` and the Lobatto–Gauss coupling
//! coefficients.

pub mod jay;
pub mod primary_lobatto;
pub mod projection;
pub mod tableau;

use crate::exact::{LinalgError, Matrix, Num, Precision, null_space, solve};
use crate::tableau::{Family, NodeSet, TableauError, build, clean, nodes_and_weights};
pub use jay::SparkKind;
pub use tableau::{SparkTableau, identity_omega};

/// `lobatto_ω_matrix(s)`, s×(s+1): with `a_s` the rows 2..s of Lobatto IIIA(s),
/// `Q = [a_s 0; 0ᵀ 1]`, `L = [a_s; e_sᵀ]`, `ω = L⁻¹ Q`. The rows of `ω·[Ψ_1..Ψ_s, φ_{n+1}]ᵀ = 0`
/// state `Σ_j a^{IIIA}_ij Ψ_j = 0` (i = 2..s) and `φ(q_{n+1}, p_{n+1}) = 0`.
pub fn lobatto_omega_matrix(s: usize, prec: Precision) -> Result<Matrix, TableauError> {
    let a = build(Family::LobattoIIIA, s, prec)?.a;
    let mut q: Matrix = a[1..]
        .iter()
        .map(|row| row.iter().cloned().chain([Num::zero()]).collect())
        .collect();
    q.push(
        (0..=s)
            .map(|j| if j == s { Num::one() } else { Num::zero() })
            .collect(),
    );
    let mut l: Matrix = a[1..].to_vec();
    l.push(
        (0..s)
            .map(|j| if j == s - 1 { Num::one() } else { Num::zero() })
            .collect(),
    );
    Ok(clean(solve(&l, &q, prec)?))
}

/// `gauss_ω_matrix(s)`, s×(s+1): `ω_ij = b_j c_j^{i−1}` (i = 1..s−1, j = 1..s, Gauss b, c),
/// `ω_{s,s+1} = 1`, zero elsewhere: the Gauss moments of the constraint of degree ≤ s−2 and
/// the constraint at `t_{n+1}`.
pub fn gauss_omega_matrix(s: usize, prec: Precision) -> Result<Matrix, TableauError> {
    let t = build(Family::Gauss, s, prec)?;
    let mut omega: Matrix = (0..s - 1)
        .map(|i| {
            (0..=s)
                .map(|j| {
                    if j < s {
                        t.b[j].mul(&t.c[j].powu(i as u32))
                    } else {
                        Num::zero()
                    }
                })
                .collect()
        })
        .collect();
    omega.push(
        (0..=s)
            .map(|j| if j == s { Num::one() } else { Num::zero() })
            .collect(),
    );
    Ok(omega)
}

/// The Lobatto null vector `d(s)`: `Σ_i d_i c_i^k = 0` for k = 0..s−2 (equivalently
/// `Σ_i d_i p'(c_i) = 0` for every polynomial p of degree ≤ s−1), normalised to unit 2-norm
/// with `d₁ > 0` (upstream leaves the sign to an SVD).
pub fn lobatto_null_vector(s: usize, prec: Precision) -> Result<Vec<Num>, TableauError> {
    let (c, _) = nodes_and_weights(NodeSet::Lobatto, s, prec)?;
    let moments: Matrix = (0..s - 1)
        .map(|k| c.iter().map(|ci| ci.powu(k as u32)).collect())
        .collect();
    let tol = prec.tolerance();
    let mut basis = null_space(&moments, &tol, prec);
    if basis.len() != 1 {
        return Err(LinalgError::Singular {
            column: basis.len(),
            rows: s - 1,
            cols: s,
        }
        .into());
    }
    let v = basis.swap_remove(0);
    let norm2 = v.iter().fold(Num::zero(), |acc, x| acc.add(&x.mul(x)));
    let norm = norm2.sqrt(prec);
    let sign = if v[0].signum() < 0 {
        Num::int(-1)
    } else {
        Num::one()
    };
    Ok(v.iter()
        .map(|x| x.mul(&sign).div(&norm).unwrap_or_else(Num::zero))
        .collect())
}

/// `lobatto_gauss_coefficients(s, σ)`: the σ×s matrix ā with
/// `Σ_j ā_ij c_j^{k−1} = c̄_i^k / k` (k = 1..s), c the Gauss(s) nodes and c̄ the Lobatto(σ)
/// nodes, i.e. `ā_ij = ∫₀^{c̄_i} ℓ^G_j(τ) dτ`; returned with the Lobatto(σ) weights b̄ and nodes c̄.
pub fn lobatto_gauss_coefficients(
    s: usize,
    sigma: usize,
    prec: Precision,
) -> Result<LobattoGauss, TableauError> {
    let (gauss_c, _) = nodes_and_weights(NodeSet::Gauss, s, prec)?;
    let (c, b) = nodes_and_weights(NodeSet::Lobatto, sigma, prec)?;
    let vt: Matrix = (0..s)
        .map(|k| gauss_c.iter().map(|cj| cj.powu(k as u32)).collect())
        .collect();
    let rhs: Matrix = (1..=s)
        .map(|k| {
            c.iter()
                .map(|ci| ci.powu(k as u32).mul(&Num::ratio(1, k as i64)))
                .collect()
        })
        .collect();
    let sol = solve(&vt, &rhs, prec)?;
    let a = (0..sigma)
        .map(|i| (0..s).map(|j| sol[j][i].clone()).collect())
        .collect();
    Ok(LobattoGauss {
        s,
        sigma,
        a: clean(a),
        b,
        c,
    })
}

/// The Lobatto–Gauss coupling coefficients of [`lobatto_gauss_coefficients`].
#[derive(Clone, Debug)]
pub struct LobattoGauss {
    /// Gauss stages s.
    pub s: usize,
    /// Lobatto stages σ.
    pub sigma: usize,
    /// ā, σ×s.
    pub a: Matrix,
    /// Lobatto(σ) weights b̄.
    pub b: Vec<Num>,
    /// Lobatto(σ) nodes c̄.
    pub c: Vec<Num>,
}
