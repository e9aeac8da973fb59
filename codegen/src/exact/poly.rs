//! Univariate polynomials with exact rational coefficients: Legendre, shifted Legendre and
//! the node polynomials of the Gauss, Lobatto and Radau families.

use rug::{Float, Integer, Rational};

/// A polynomial `Σ_k coeffs[k] x^k` with rational coefficients (no trailing zeros).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poly {
    coeffs: Vec<Rational>,
}

impl Poly {
    /// The polynomial with the given ascending coefficients.
    pub fn new(coeffs: Vec<Rational>) -> Poly {
        let mut p = Poly { coeffs };
        p.trim();
        p
    }

    /// The constant polynomial `c`.
    pub fn constant(c: Rational) -> Poly {
        Poly::new(vec![c])
    }

    /// The monomial `x`.
    pub fn x() -> Poly {
        Poly::new(vec![Rational::from(0), Rational::from(1)])
    }

    fn trim(&mut self) {
        while self.coeffs.last().is_some_and(Rational::is_zero) {
            self.coeffs.pop();
        }
    }

    /// The ascending coefficients.
    pub fn coeffs(&self) -> &[Rational] {
        &self.coeffs
    }

    /// The degree (`None` for the zero polynomial).
    pub fn degree(&self) -> Option<usize> {
        self.coeffs.len().checked_sub(1)
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// The leading coefficient (zero for the zero polynomial).
    pub fn leading(&self) -> Rational {
        self.coeffs.last().cloned().unwrap_or_default()
    }

    /// `self + other`.
    pub fn add(&self, other: &Poly) -> Poly {
        let n = self.coeffs.len().max(other.coeffs.len());
        let zero = Rational::new();
        Poly::new(
            (0..n)
                .map(|k| {
                    let a = self.coeffs.get(k).unwrap_or(&zero);
                    let b = other.coeffs.get(k).unwrap_or(&zero);
                    Rational::from(a + b)
                })
                .collect(),
        )
    }

    /// `c · self`.
    pub fn scale(&self, c: &Rational) -> Poly {
        Poly::new(self.coeffs.iter().map(|a| Rational::from(a * c)).collect())
    }

    /// `self − other`.
    pub fn sub(&self, other: &Poly) -> Poly {
        self.add(&other.scale(&Rational::from(-1)))
    }

    /// `self · other`.
    pub fn mul(&self, other: &Poly) -> Poly {
        if self.is_zero() || other.is_zero() {
            return Poly::new(Vec::new());
        }
        let mut out = vec![Rational::new(); self.coeffs.len() + other.coeffs.len() - 1];
        for (i, a) in self.coeffs.iter().enumerate() {
            for (j, b) in other.coeffs.iter().enumerate() {
                out[i + j] += Rational::from(a * b);
            }
        }
        Poly::new(out)
    }

    /// `self^k`.
    pub fn pow(&self, k: u32) -> Poly {
        (0..k).fold(Poly::constant(Rational::from(1)), |acc, _| acc.mul(self))
    }

    /// The derivative `d/dx`.
    pub fn derivative(&self) -> Poly {
        Poly::new(
            self.coeffs
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, a)| Rational::from(a * Integer::from(k)))
                .collect(),
        )
    }

    /// The `k`-th derivative.
    pub fn derivative_n(&self, k: usize) -> Poly {
        (0..k).fold(self.clone(), |p, _| p.derivative())
    }

    /// The composition `self(α x + β)`.
    pub fn compose_affine(&self, alpha: &Rational, beta: &Rational) -> Poly {
        let inner = Poly::new(vec![beta.clone(), alpha.clone()]);
        self.coeffs
            .iter()
            .rev()
            .fold(Poly::new(Vec::new()), |acc, a| {
                acc.mul(&inner).add(&Poly::constant(a.clone()))
            })
    }

    /// Euclidean division: `(q, r)` with `self = q·d + r`, `deg r < deg d` (`d ≠ 0`).
    pub fn div_rem(&self, d: &Poly) -> Option<(Poly, Poly)> {
        let dd = d.degree()?;
        let lead = d.leading();
        let mut r = self.coeffs.clone();
        let mut q = vec![Rational::new(); r.len().saturating_sub(dd).max(1)];
        while r.len() > dd && !r.is_empty() {
            let k = r.len() - 1 - dd;
            let f = Rational::from(&r[r.len() - 1] / &lead);
            for (j, dj) in d.coeffs.iter().enumerate() {
                r[k + j] -= Rational::from(&f * dj);
            }
            q[k] = f;
            r.pop();
            while r.last().is_some_and(Rational::is_zero) {
                r.pop();
            }
        }
        Some((Poly::new(q), Poly::new(r)))
    }

    /// Exact value at a rational point.
    pub fn eval_rational(&self, x: &Rational) -> Rational {
        self.coeffs
            .iter()
            .rev()
            .fold(Rational::new(), |acc, a| acc * x + a)
    }

    /// Value at a float point, evaluated by Horner's rule at the precision of `x`.
    pub fn eval_float(&self, x: &Float) -> Float {
        let prec = x.prec();
        self.coeffs
            .iter()
            .rev()
            .fold(Float::with_val(prec, 0), |acc, a| {
                Float::with_val(prec, acc * x) + Float::with_val(prec, a)
            })
    }

    /// The same polynomial scaled to primitive integer coefficients with a positive leading
    /// coefficient (same roots).
    pub fn primitive(&self) -> Vec<Integer> {
        let lcm = self
            .coeffs
            .iter()
            .fold(Integer::from(1), |l, a| l.lcm(a.denom()));
        let ints: Vec<Integer> = self
            .coeffs
            .iter()
            .map(|a| a.numer() * Integer::from(&lcm / a.denom()))
            .collect();
        let g = ints.iter().fold(Integer::new(), |g, a| g.gcd(a));
        let sign = if self.leading() < 0 { -1 } else { 1 };
        ints.into_iter()
            .map(|a| if g.is_zero() { a } else { a / &g * sign })
            .collect()
    }
}

/// The Legendre polynomial `P_n(x)` on [−1, 1], by the three-term recurrence
/// `j P_j = (2j − 1) x P_{j−1} − (j − 1) P_{j−2}`.
pub fn legendre(n: usize) -> Poly {
    let mut prev = Poly::constant(Rational::from(1));
    if n == 0 {
        return prev;
    }
    let mut cur = Poly::x();
    for j in 2..=n {
        let j = i64::try_from(j).unwrap_or(i64::MAX);
        let next = Poly::x()
            .mul(&cur)
            .scale(&Rational::from((2 * j - 1, j)))
            .sub(&prev.scale(&Rational::from((j - 1, j))));
        prev = cur;
        cur = next;
    }
    cur
}

/// The shifted Legendre polynomial `P_n(2x − 1)` on [0, 1].
pub fn shifted_legendre(n: usize) -> Poly {
    legendre(n).compose_affine(&Rational::from(2), &Rational::from(-1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    #[test]
    fn legendre_p3() {
        // P₃ = (5x³ − 3x)/2.
        assert_eq!(
            legendre(3),
            Poly::new(vec![r(0, 1), r(-3, 2), r(0, 1), r(5, 2)])
        );
    }

    #[test]
    fn shifted_legendre_agrees_with_rodrigues() {
        // P_n(2x − 1) = (1/n!) dⁿ/dxⁿ (x² − x)ⁿ.
        for n in 0..8usize {
            let base = Poly::new(vec![r(0, 1), r(-1, 1), r(1, 1)]).pow(n as u32);
            let fact = (1..=n as i64).fold(Rational::from(1), |f, k| f * k);
            let rod = base.derivative_n(n).scale(&(1 / fact));
            assert_eq!(shifted_legendre(n), rod, "n = {n}");
        }
    }

    #[test]
    fn division_reconstructs() {
        let p = shifted_legendre(5);
        let d = shifted_legendre(2);
        let (q, rem) = p.div_rem(&d).unwrap();
        assert_eq!(q.mul(&d).add(&rem), p);
        assert!(rem.degree().unwrap_or(0) < 2);
    }

    #[test]
    fn primitive_form() {
        // P₂(2x−1) = 6x² − 6x + 1.
        let ints = shifted_legendre(2).primitive();
        assert_eq!(
            ints,
            vec![Integer::from(1), Integer::from(-6), Integer::from(6)]
        );
    }
}
