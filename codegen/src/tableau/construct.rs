//! Construction of the coefficient matrices `a` from nodes and weights.

use super::nodes::{nodes_and_weights, vandermonde_t};
use super::{Family, Tableau, TableauError};
use crate::exact::{Matrix, Num, Precision, solve, transpose};

/// Builds the `s`-stage tableau of `family` at working precision `prec` (exact rationals
/// wherever the values are rational).
pub fn build(family: Family, s: usize, prec: Precision) -> Result<Tableau, TableauError> {
    if s < family.min_stages() {
        return Err(TableauError::Stages {
            family: family.name(),
            s,
            min: family.min_stages(),
        });
    }
    let (c, b) = nodes_and_weights(family.node_set(), s, prec)?;
    let base = |f: Family| -> Result<Matrix, TableauError> { Ok(build(f, s, prec)?.a) };
    let a = match family {
        Family::Gauss | Family::LobattoIIIA | Family::RadauIIA => collocation(&c, prec)?,
        Family::LobattoIIIB | Family::RadauIA => d_coefficients(&b, &c, prec)?,
        Family::LobattoIIIC => lobatto_iiic(&b, &c, prec)?,
        Family::LobattoIIICBar => lobatto_iiic_bar(&c, prec)?,
        Family::LobattoIIID => average(&base(Family::LobattoIIIC)?, &base(Family::LobattoIIICBar)?),
        Family::LobattoIIIE => average(&base(Family::LobattoIIIA)?, &base(Family::LobattoIIIB)?),
        Family::LobattoIIIF => lobatto_iiif(&c, prec)?,
        Family::LobattoIIIFBar => symplectic_conjugate(&base(Family::LobattoIIIF)?, &b)?,
        Family::LobattoIIIG => symmetrize(&base(Family::LobattoIIIF)?, &b)?,
        Family::RadauIB => symmetrize(&base(Family::RadauIA)?, &b)?,
        Family::RadauIIB => symmetrize(&base(Family::RadauIIA)?, &b)?,
    };
    Ok(Tableau {
        family,
        s,
        a: clean(a),
        b,
        c,
    })
}

/// Snaps working-precision noise to exact zeros ([`Num::cleaned`]).
pub fn clean(m: Matrix) -> Matrix {
    m.into_iter()
        .map(|row| row.into_iter().map(Num::cleaned).collect())
        .collect()
}

/// The symplectic conjugate `ā_ij = b_j (b_i − a_ji) / b_i`, so that
/// `b_i ā_ij + b_j a_ji = b_i b_j` (requires every `b_i ≠ 0`).
pub fn symplectic_conjugate(a: &Matrix, b: &[Num]) -> Result<Matrix, TableauError> {
    let s = b.len();
    (0..s)
        .map(|i| {
            (0..s)
                .map(|j| {
                    b[j].mul(&b[i].sub(&a[j][i]))
                        .div(&b[i])
                        .ok_or(TableauError::ZeroWeight { index: i })
                })
                .collect()
        })
        .collect()
}

/// `(a + ā)/2`: affine in `a`, hence self-conjugate, hence symplectic.
fn symmetrize(a: &Matrix, b: &[Num]) -> Result<Matrix, TableauError> {
    Ok(average(a, &symplectic_conjugate(a, b)?))
}

fn average(x: &Matrix, y: &Matrix) -> Matrix {
    x.iter()
        .zip(y)
        .map(|(rx, ry)| rx.iter().zip(ry).map(|(u, v)| u.add(v).half()).collect())
        .collect()
}

fn matmul(x: &Matrix, y: &Matrix) -> Matrix {
    let inner = y.len();
    let cols = y.first().map_or(0, Vec::len);
    x.iter()
        .map(|row| {
            (0..cols)
                .map(|j| (0..inner).fold(Num::zero(), |acc, k| acc.add(&row[k].mul(&y[k][j]))))
                .collect()
        })
        .collect()
}

/// Collocation, `C(s)`: row i solves `Σ_j a_ij c_j^{k−1} = c_i^k / k`, k = 1..s.
fn collocation(c: &[Num], prec: Precision) -> Result<Matrix, TableauError> {
    let rhs: Matrix = (1..=c.len())
        .map(|k| {
            c.iter()
                .map(|ci| ci.powu(k as u32).mul(&Num::ratio(1, k as i64)))
                .collect()
        })
        .collect();
    // Columns of the solution are the rows of a.
    Ok(transpose(&solve(&vandermonde_t(c), &rhs, prec)?))
}

/// `D(s)`: column j solves `Σ_i b_i c_i^{k−1} a_ij = b_j (1 − c_j^k)/k`, k = 1..s.
fn d_coefficients(b: &[Num], c: &[Num], prec: Precision) -> Result<Matrix, TableauError> {
    let s = c.len();
    let m: Matrix = vandermonde_t(c)
        .into_iter()
        .map(|row| row.iter().zip(b).map(|(v, bi)| v.mul(bi)).collect())
        .collect();
    let rhs: Matrix = (1..=s)
        .map(|k| {
            (0..s)
                .map(|j| {
                    let one_minus = Num::one().sub(&c[j].powu(k as u32));
                    b[j].mul(&one_minus).mul(&Num::ratio(1, k as i64))
                })
                .collect()
        })
        .collect();
    Ok(solve(&m, &rhs, prec)?)
}

/// Solves, for every row i, `Σ_{j ∈ cols} a_ij c_j^{k−1} = c_i^k/k − Σ_{j ∈ fixed} a_ij c_j^{k−1}`,
/// k = 1..s−1, with the entries of the one remaining column fixed to `fixed(i)`.
fn c_minus_one(
    c: &[Num],
    fixed_col: usize,
    fixed: impl Fn(usize) -> Num,
    prec: Precision,
) -> Result<Matrix, TableauError> {
    let s = c.len();
    let cols: Vec<usize> = (0..s).filter(|&j| j != fixed_col).collect();
    let sub_nodes: Vec<Num> = cols.iter().map(|&j| c[j].clone()).collect();
    let rhs: Matrix = (1..s)
        .map(|k| {
            (0..s)
                .map(|i| {
                    let target = c[i].powu(k as u32).mul(&Num::ratio(1, k as i64));
                    target.sub(&fixed(i).mul(&c[fixed_col].powu(k as u32 - 1)))
                })
                .collect()
        })
        .collect();
    let sol = solve(&vandermonde_t(&sub_nodes), &rhs, prec)?;
    Ok((0..s)
        .map(|i| {
            let mut row = vec![fixed(i); s];
            for (r, &j) in cols.iter().enumerate() {
                row[j] = sol[r][i].clone();
            }
            row
        })
        .collect())
}

/// Lobatto IIIC: `a_i1 = b_1`, columns 2..s from `C(s−1)`.
fn lobatto_iiic(b: &[Num], c: &[Num], prec: Precision) -> Result<Matrix, TableauError> {
    c_minus_one(c, 0, |_| b[0].clone(), prec)
}

/// Lobatto IIIC̄ (Lobatto III): `a_is = 0`, columns 1..s−1 from `C(s−1)`.
fn lobatto_iiic_bar(c: &[Num], prec: Precision) -> Result<Matrix, TableauError> {
    c_minus_one(c, c.len() - 1, |_| Num::zero(), prec)
}

/// Lobatto IIIF (Wang Fangzong & Liao Xiaobing 2016): `a = V Aₛ V⁻¹` with `V_ij = c_i^{j−1}`,
/// `Aₛ[i][i−1] = 1/(i−1)` (i = 2..s, 1-based) and last column `α = H⁻¹ r`,
/// `H_kj = 1/(k+j−1)`, `r_k = 1/(s(s+k))`: `a c^{k−1} = c^k/k` (k < s) and `a c^{s−1}` the
/// L²(0,1) projection of `x^s/s` onto polynomials of degree < s.
fn lobatto_iiif(c: &[Num], prec: Precision) -> Result<Matrix, TableauError> {
    let s = c.len();
    let si = s as i64;
    let hilbert: Matrix = (1..=si)
        .map(|k| (1..=si).map(|j| Num::ratio(1, k + j - 1)).collect())
        .collect();
    let r: Matrix = (1..=si)
        .map(|k| vec![Num::ratio(1, si * (si + k))])
        .collect();
    let alpha = solve(&hilbert, &r, prec)?;
    let mut a_s: Matrix = vec![vec![Num::zero(); s]; s];
    for i in 1..s {
        a_s[i][i - 1] = Num::ratio(1, i as i64);
    }
    for (i, row) in a_s.iter_mut().enumerate() {
        row[s - 1] = alpha[i][0].clone();
    }
    let v = transpose(&vandermonde_t(c));
    let identity: Matrix = (0..s)
        .map(|i| {
            (0..s)
                .map(|j| if i == j { Num::one() } else { Num::zero() })
                .collect()
        })
        .collect();
    let v_inv = solve(&v, &identity, prec)?;
    Ok(matmul(&matmul(&v, &a_s), &v_inv))
}
