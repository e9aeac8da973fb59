//! Test fixtures: tableaus typed in from the reference (§1.4 and its s = 4 appendix, copied
//! verbatim and parsed), exact-in-precision constructions of Gauss and Lobatto IIIA tableaus for
//! larger s, random tableaus, and dense solves.

use rug::Float;
use rug::ops::Pow;

/// Precision of all fixtures (bits).
pub(crate) const PREC: u32 = 256;

/// A tableau (A, b, c) at [`PREC`] bits.
#[derive(Debug, Clone)]
pub(crate) struct Tableau {
    pub(crate) a: Vec<Vec<Float>>,
    pub(crate) b: Vec<Float>,
    pub(crate) c: Vec<Float>,
}

/// The tableau families typed in from the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// Gauss–Legendre collocation.
    Gauss,
    /// Lobatto IIIA (collocation).
    LobattoIIIA,
    /// Lobatto IIIB.
    LobattoIIIB,
    /// Lobatto IIIC.
    LobattoIIIC,
    /// Lobatto III = IIIC̄ = IIIC*.
    LobattoIII,
    /// Lobatto IIID.
    LobattoIIID,
    /// Lobatto IIIE.
    LobattoIIIE,
    /// Lobatto IIIF.
    LobattoIIIF,
    /// Lobatto IIIF̄ = conj(IIIF).
    LobattoIIIFBar,
    /// Lobatto IIIG.
    LobattoIIIG,
    /// Radau IA.
    RadauIA,
    /// Radau IB.
    RadauIB,
    /// Radau IIA.
    RadauIIA,
    /// Radau IIB.
    RadauIIB,
    /// The classical explicit fourth-order method.
    Rk4,
}

/// The reference's tableaus: rows `c_i | a_i1 … a_is`, a rule, then `| b` (columns separated by
/// at least two spaces).
const TABLEAUS: &[(Family, usize, &str)] = &[
    (
        Family::Gauss,
        2,
        r"
  1/2 - sqrt(3)/6 |             1/4  1/4 - sqrt(3)/6
  sqrt(3)/6 + 1/2 | 1/4 + sqrt(3)/6              1/4
  ----------------+---------------------------------
                  |             1/2              1/2
",
    ),
    (
        Family::LobattoIIIA,
        2,
        r"
  0 |   0    0
  1 | 1/2  1/2
  --+---------
    | 1/2  1/2
",
    ),
    (
        Family::LobattoIIIB,
        2,
        r"
  0 | 1/2    0
  1 | 1/2    0
  --+---------
    | 1/2  1/2
",
    ),
    (
        Family::LobattoIIIC,
        2,
        r"
  0 | 1/2  -1/2
  1 | 1/2   1/2
  --+----------
    | 1/2   1/2
",
    ),
    (
        Family::LobattoIII,
        2,
        r"
  0 |   0    0
  1 |   1    0
  --+---------
    | 1/2  1/2
",
    ),
    (
        Family::LobattoIIID,
        2,
        r"
  0 | 1/4  -1/4
  1 | 3/4   1/4
  --+----------
    | 1/2   1/2
",
    ),
    (
        Family::LobattoIIIE,
        2,
        r"
  0 | 1/4    0
  1 | 1/2  1/4
  --+---------
    | 1/2  1/2
",
    ),
    (
        Family::LobattoIIIF,
        2,
        r"
  0 | 1/12  -1/12
  1 | 7/12   5/12
  --+------------
    |  1/2    1/2
",
    ),
    (
        Family::LobattoIIIFBar,
        2,
        r"
  0 | 5/12  -1/12
  1 | 7/12   1/12
  --+------------
    |  1/2    1/2
",
    ),
    (
        Family::LobattoIIIG,
        2,
        r"
  0 |  1/4  -1/12
  1 | 7/12    1/4
  --+------------
    |  1/2    1/2
",
    ),
    (
        Family::RadauIA,
        2,
        r"
    0 | 1/4  -1/4
  2/3 | 1/4  5/12
  ----+----------
      | 1/4   3/4
",
    ),
    (
        Family::RadauIB,
        2,
        r"
    0 |  1/8  -1/8
  2/3 | 7/24   3/8
  ----+-----------
      |  1/4   3/4
",
    ),
    (
        Family::RadauIIA,
        2,
        r"
  1/3 | 5/12  -1/12
    1 |  3/4    1/4
  ----+------------
      |  3/4    1/4
",
    ),
    (
        Family::RadauIIB,
        2,
        r"
  1/3 | 3/8  -1/24
    1 | 7/8    1/8
  ----+-----------
      | 3/4    1/4
",
    ),
    (
        Family::Gauss,
        3,
        r"
  1/2 - sqrt(15)/10 |               5/36  2/9 - sqrt(15)/15  5/36 - sqrt(15)/30
                1/2 | 5/36 + sqrt(15)/24                2/9  5/36 - sqrt(15)/24
  sqrt(15)/10 + 1/2 | sqrt(15)/30 + 5/36  2/9 + sqrt(15)/15                5/36
  ------------------+----------------------------------------------------------
                    |               5/18                4/9                5/18
",
    ),
    (
        Family::LobattoIIIA,
        3,
        r"
    0 |    0    0      0
  1/2 | 5/24  1/3  -1/24
    1 |  1/6  2/3    1/6
  ----+-----------------
      |  1/6  2/3    1/6
",
    ),
    (
        Family::LobattoIIIB,
        3,
        r"
    0 | 1/6  -1/6    0
  1/2 | 1/6   1/3    0
    1 | 1/6   5/6    0
  ----+---------------
      | 1/6   2/3  1/6
",
    ),
    (
        Family::LobattoIIIC,
        3,
        r"
    0 | 1/6  -1/3    1/6
  1/2 | 1/6  5/12  -1/12
    1 | 1/6   2/3    1/6
  ----+-----------------
      | 1/6   2/3    1/6
",
    ),
    (
        Family::LobattoIII,
        3,
        r"
    0 |   0    0    0
  1/2 | 1/4  1/4    0
    1 |   0    1    0
  ----+--------------
      | 1/6  2/3  1/6
",
    ),
    (
        Family::LobattoIIID,
        3,
        r"
    0 | 1/12  -1/6   1/12
  1/2 | 5/24   1/3  -1/24
    1 | 1/12   5/6   1/12
  ----+------------------
      |  1/6   2/3    1/6
",
    ),
    (
        Family::LobattoIIIE,
        3,
        r"
    0 | 1/12  -1/12      0
  1/2 | 3/16    1/3  -1/48
    1 |  1/6    3/4   1/12
  ----+-------------------
      |  1/6    2/3    1/6
",
    ),
    (
        Family::LobattoIIIF,
        3,
        r"
    0 | 1/30  -1/15   1/30
  1/2 | 5/24    1/3  -1/24
    1 | 2/15  11/15   2/15
  ----+-------------------
      |  1/6    2/3    1/6
",
    ),
    (
        Family::LobattoIIIFBar,
        3,
        r"
    0 |  2/15  -1/6   1/30
  1/2 | 11/60   1/3  -1/60
    1 |  2/15   5/6   1/30
  ----+-------------------
      |   1/6   2/3    1/6
",
    ),
    (
        Family::LobattoIIIG,
        3,
        r"
    0 |   1/12  -7/60    1/30
  1/2 | 47/240    1/3  -7/240
    1 |   2/15  47/60    1/12
  ----+----------------------
      |    1/6    2/3     1/6
",
    ),
    (
        Family::RadauIA,
        3,
        r"
                 0 | 1/9      -sqrt(6)/18 - 1/18      -1/18 + sqrt(6)/18
  3/5 - sqrt(6)/10 | 1/9   7*sqrt(6)/360 + 11/45  11/45 - 43*sqrt(6)/360
  sqrt(6)/10 + 3/5 | 1/9  11/45 + 43*sqrt(6)/360   11/45 - 7*sqrt(6)/360
  -----------------+----------------------------------------------------
                   | 1/9        sqrt(6)/36 + 4/9        4/9 - sqrt(6)/36
",
    ),
    (
        Family::RadauIB,
        3,
        r"
                 0 |                 1/18         -sqrt(6)/36 - 1/36         -1/36 + sqrt(6)/36
  3/5 - sqrt(6)/10 | sqrt(6)/150 + 26/225           sqrt(6)/72 + 2/9  59/225 - 217*sqrt(6)/1800
  sqrt(6)/10 + 3/5 | 26/225 - sqrt(6)/150  59/225 + 217*sqrt(6)/1800           2/9 - sqrt(6)/72
  -----------------+---------------------------------------------------------------------------
                   |                  1/9           sqrt(6)/36 + 4/9           4/9 - sqrt(6)/36
",
    ),
    (
        Family::RadauIIA,
        3,
        r"
  2/5 - sqrt(6)/10 |     11/45 - 7*sqrt(6)/360  37/225 - 169*sqrt(6)/1800  -2/225 + sqrt(6)/75
  sqrt(6)/10 + 2/5 | 37/225 + 169*sqrt(6)/1800      7*sqrt(6)/360 + 11/45  -sqrt(6)/75 - 2/225
                 1 |          4/9 - sqrt(6)/36           sqrt(6)/36 + 4/9                  1/9
  -----------------+--------------------------------------------------------------------------
                   |          4/9 - sqrt(6)/36           sqrt(6)/36 + 4/9                  1/9
",
    ),
    (
        Family::RadauIIB,
        3,
        r"
  2/5 - sqrt(6)/10 |          2/9 - sqrt(6)/72  41/225 - 167*sqrt(6)/1800  -1/225 + sqrt(6)/150
  sqrt(6)/10 + 2/5 | 41/225 + 167*sqrt(6)/1800           sqrt(6)/72 + 2/9  -sqrt(6)/150 - 1/225
                 1 |        17/36 - sqrt(6)/18         sqrt(6)/18 + 17/36                  1/18
  -----------------+---------------------------------------------------------------------------
                   |          4/9 - sqrt(6)/36           sqrt(6)/36 + 4/9                   1/9
",
    ),
    (
        Family::LobattoIIIA,
        4,
        r"
                 0 |                    0                      0                      0                     0
  1/2 - sqrt(5)/10 | sqrt(5)/120 + 11/120     5/24 - sqrt(5)/120  5/24 - 13*sqrt(5)/120  -1/120 + sqrt(5)/120
  sqrt(5)/10 + 1/2 | 11/120 - sqrt(5)/120  5/24 + 13*sqrt(5)/120     sqrt(5)/120 + 5/24  -sqrt(5)/120 - 1/120
                 1 |                 1/12                   5/12                   5/12                  1/12
  -----------------+-----------------------------------------------------------------------------------------
                   |                 1/12                   5/12                   5/12                  1/12
",
    ),
    (
        Family::LobattoIIIB,
        4,
        r"
                 0 | 1/12     -sqrt(5)/24 - 1/24     -1/24 + sqrt(5)/24     0
  1/2 - sqrt(5)/10 | 1/12     sqrt(5)/120 + 5/24  5/24 - 13*sqrt(5)/120     0
  sqrt(5)/10 + 1/2 | 1/12  5/24 + 13*sqrt(5)/120     5/24 - sqrt(5)/120     0
                 1 | 1/12     11/24 - sqrt(5)/24     sqrt(5)/24 + 11/24     0
  -----------------+---------------------------------------------------------
                   | 1/12                   5/12                   5/12  1/12
",
    ),
    (
        Family::LobattoIIIC,
        4,
        r"
                 0 | 1/12         -sqrt(5)/12          sqrt(5)/12        -1/12
  1/2 - sqrt(5)/10 | 1/12                 1/4  1/6 - 7*sqrt(5)/60   sqrt(5)/60
  sqrt(5)/10 + 1/2 | 1/12  1/6 + 7*sqrt(5)/60                 1/4  -sqrt(5)/60
                 1 | 1/12                5/12                5/12         1/12
  -----------------+----------------------------------------------------------
                   | 1/12                5/12                5/12         1/12
",
    ),
    (
        Family::LobattoIII,
        4,
        r"
                 0 |                 0                   0                   0     0
  1/2 - sqrt(5)/10 | sqrt(5)/60 + 1/12                 1/6  1/4 - 7*sqrt(5)/60     0
  sqrt(5)/10 + 1/2 | 1/12 - sqrt(5)/60  1/4 + 7*sqrt(5)/60                 1/6     0
                 1 |               1/6   5/12 - sqrt(5)/12   sqrt(5)/12 + 5/12     0
  -----------------+----------------------------------------------------------------
                   |              1/12                5/12                5/12  1/12
",
    ),
    (
        Family::LobattoIIID,
        4,
        r"
                 0 |               1/24          -sqrt(5)/24           sqrt(5)/24         -1/24
  1/2 - sqrt(5)/10 | sqrt(5)/120 + 1/12                 5/24  5/24 - 7*sqrt(5)/60   sqrt(5)/120
  sqrt(5)/10 + 1/2 | 1/12 - sqrt(5)/120  5/24 + 7*sqrt(5)/60                 5/24  -sqrt(5)/120
                 1 |                1/8    5/12 - sqrt(5)/24    sqrt(5)/24 + 5/12          1/24
  -----------------+---------------------------------------------------------------------------
                   |               1/12                 5/12                 5/12          1/12
",
    ),
    (
        Family::LobattoIIIE,
        4,
        r"
                 0 |               1/24     -sqrt(5)/48 - 1/48     -1/48 + sqrt(5)/48                     0
  1/2 - sqrt(5)/10 | sqrt(5)/240 + 7/80                   5/24  5/24 - 13*sqrt(5)/120  -1/240 + sqrt(5)/240
  sqrt(5)/10 + 1/2 | 7/80 - sqrt(5)/240  5/24 + 13*sqrt(5)/120                   5/24  -sqrt(5)/240 - 1/240
                 1 |               1/12      7/16 - sqrt(5)/48      sqrt(5)/48 + 7/16                  1/24
  -----------------+---------------------------------------------------------------------------------------
                   |               1/12                   5/12                   5/12                  1/12
",
    ),
    (
        Family::LobattoIIIF,
        4,
        r"
                 0 |                 1/56            -sqrt(5)/56             sqrt(5)/56                 -1/56
  1/2 - sqrt(5)/10 | sqrt(5)/120 + 37/420     5/24 - sqrt(5)/210  5/24 - 47*sqrt(5)/420  -1/210 + sqrt(5)/120
  sqrt(5)/10 + 1/2 | 37/420 - sqrt(5)/120  5/24 + 47*sqrt(5)/420     sqrt(5)/210 + 5/24  -sqrt(5)/120 - 1/210
                 1 |               17/168      5/12 - sqrt(5)/56      sqrt(5)/56 + 5/12                11/168
  -----------------+-----------------------------------------------------------------------------------------
                   |                 1/12                   5/12                   5/12                  1/12
",
    ),
    (
        Family::LobattoIIIG,
        4,
        r"
                 0 |               1/24  -5*sqrt(5)/168 - 1/84  -1/84 + 5*sqrt(5)/168                 -1/56
  1/2 - sqrt(5)/10 | sqrt(5)/168 + 3/35                   5/24  5/24 - 47*sqrt(5)/420  -1/420 + sqrt(5)/168
  sqrt(5)/10 + 1/2 | 3/35 - sqrt(5)/168  5/24 + 47*sqrt(5)/420                   5/24  -sqrt(5)/168 - 1/420
                 1 |             17/168    3/7 - 5*sqrt(5)/168    5*sqrt(5)/168 + 3/7                  1/24
  -----------------+---------------------------------------------------------------------------------------
                   |               1/12                   5/12                   5/12                  1/12
",
    ),
    (
        Family::Rk4,
        4,
        r"
    0 |   0    0    0    0
  1/2 | 1/2    0    0    0
  1/2 |   0  1/2    0    0
    1 |   0    0    1    0
  ----+-------------------
      | 1/6  1/3  1/3  1/6
",
    ),
];

/// The typed-in tableau of `family` with `s` stages.
pub(crate) fn tableau(family: Family, s: usize) -> Tableau {
    let (_, _, text) = TABLEAUS
        .iter()
        .find(|(f, stages, _)| *f == family && *stages == s)
        .unwrap_or_else(|| panic!("{family:?}({s}) is not typed in"));
    parse_tableau(text)
}

fn parse_tableau(text: &str) -> Tableau {
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.contains("--"))
    {
        let (left, right) = line.split_once('|').expect("row has a `|`");
        let entries: Vec<Float> = right
            .split("  ")
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(value)
            .collect();
        if left.trim().is_empty() {
            b = entries;
        } else {
            c.push(value(left.trim()));
            a.push(entries);
        }
    }
    assert!(
        a.iter().all(|row| row.len() == c.len()) && b.len() == c.len(),
        "malformed tableau"
    );
    Tableau { a, b, c }
}

/// Evaluates a sum of terms `p`, `p/q`, `sqrt(k)/q`, `r*sqrt(k)/q` at [`PREC`] bits.
pub(crate) fn value(expr: &str) -> Float {
    let compact: String = expr.chars().filter(|ch| !ch.is_whitespace()).collect();
    let mut total = Float::new(PREC);
    let mut start = 0;
    for (i, ch) in compact.char_indices().chain([(compact.len(), '+')]) {
        if i > 0 && (ch == '+' || ch == '-') {
            total += term(&compact[start..i]);
            start = i;
        }
    }
    total
}

fn term(t: &str) -> Float {
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.trim_start_matches('+')),
    };
    let (numerator, denominator) = t
        .split_once('/')
        .map_or((t, 1), |(n, d)| (n, d.parse::<i64>().expect("denominator")));
    let magnitude = match numerator.split_once("sqrt(") {
        Some((factor, root)) => {
            let factor = factor
                .strip_suffix('*')
                .map_or(1, |f| f.parse::<i64>().expect("factor"));
            let root = root
                .strip_suffix(')')
                .expect("sqrt(k)")
                .parse::<u32>()
                .expect("radicand");
            Float::with_val(PREC, root).sqrt() * factor
        }
        None => Float::with_val(PREC, numerator.parse::<i64>().expect("integer")),
    };
    magnitude * sign / denominator
}

/// The collocation tableau at nodes c: b from B(s) and A from C(s) (Vandermonde solves).
pub(crate) fn collocation(c: Vec<Float>) -> Tableau {
    let s = c.len();
    let vandermonde: Vec<Vec<Float>> = (0..s)
        .map(|k| {
            c.iter()
                .map(|cj| Float::with_val(PREC, cj.pow(k as u32)))
                .collect()
        })
        .collect();
    let integrals = |x: &Float| -> Vec<Float> {
        (1..=s as u32)
            .map(|k| Float::with_val(PREC, x.pow(k)) / k)
            .collect()
    };
    let b = solve(vandermonde.clone(), integrals(&Float::with_val(PREC, 1)));
    let a = c
        .iter()
        .map(|ci| solve(vandermonde.clone(), integrals(ci)))
        .collect();
    Tableau { a, b, c }
}

/// Gauss(s): collocation at the roots of P_s(2x − 1).
pub(crate) fn gauss(s: usize) -> Tableau {
    let n = s as u32;
    let roots = (1..=s).map(|i| {
        let guess = (std::f64::consts::PI * (i as f64 - 0.25) / (s as f64 + 0.5)).cos();
        newton(guess, |x| {
            let (p, dp, _) = legendre(n, x);
            p / dp
        })
    });
    collocation(to_unit_interval(roots.collect()))
}

/// Lobatto IIIA(s): collocation at 0, 1 and the roots of P'_{s−1}(2x − 1).
pub(crate) fn lobatto_iiia(s: usize) -> Tableau {
    let n = (s - 1) as u32;
    let interior = (1..s - 1).map(|i| {
        let guess = (std::f64::consts::PI * i as f64 / (s - 1) as f64).cos();
        newton(guess, |x| {
            let (_, dp, ddp) = legendre(n, x);
            dp / ddp
        })
    });
    let mut x: Vec<Float> = interior.collect();
    x.push(Float::with_val(PREC, -1));
    x.push(Float::with_val(PREC, 1));
    collocation(to_unit_interval(x))
}

/// Sorted nodes c = (x + 1)/2.
fn to_unit_interval(mut x: Vec<Float>) -> Vec<Float> {
    x.sort_by(|u, v| u.partial_cmp(v).expect("finite nodes"));
    x.into_iter().map(|xi| (xi + 1u32) / 2u32).collect()
}

/// Newton's iteration x ← x − step(x) from an f64 guess until the step is below 2^{8−PREC}.
fn newton(guess: f64, step: impl Fn(&Float) -> Float) -> Float {
    let mut x = Float::with_val(PREC, guess);
    for _ in 0..200 {
        let dx = step(&x);
        x -= &dx;
        if dx.abs() < Float::with_val(PREC, Float::i_exp(1, 8 - PREC as i32)) {
            return x;
        }
    }
    panic!("Newton's iteration did not converge from {guess}");
}

/// (P_n(x), P'_n(x), P''_n(x)) for |x| < 1 by the three-term recurrence and the Legendre equation.
fn legendre(n: u32, x: &Float) -> (Float, Float, Float) {
    let (mut previous, mut p) = (Float::with_val(PREC, 1), x.clone());
    for k in 2..=n {
        let next = (Float::with_val(PREC, x * &p) * (2 * k - 1)
            - Float::with_val(PREC, &previous * (k - 1)))
            / k;
        previous = std::mem::replace(&mut p, next);
    }
    let one_minus_x2 = Float::with_val(PREC, 1 - Float::with_val(PREC, x.square_ref()));
    let dp = Float::with_val(PREC, &previous - Float::with_val(PREC, x * &p)) * n / &one_minus_x2;
    let ddp = (Float::with_val(PREC, x * &dp) * 2u32 - Float::with_val(PREC, &p * (n * (n + 1))))
        / one_minus_x2;
    (p, dp, ddp)
}

/// Solves M x = r by Gaussian elimination with partial pivoting.
pub(crate) fn solve(mut m: Vec<Vec<Float>>, mut r: Vec<Float>) -> Vec<Float> {
    let s = r.len();
    for k in 0..s {
        let pivot = (k..s)
            .max_by(|&i, &j| {
                m[i][k]
                    .clone()
                    .abs()
                    .partial_cmp(&m[j][k].clone().abs())
                    .expect("finite")
            })
            .expect("non-empty");
        m.swap(k, pivot);
        r.swap(k, pivot);
        let (upper, lower) = m.split_at_mut(k + 1);
        let pivot_row = &upper[k];
        for (i, row) in lower.iter_mut().enumerate() {
            let factor = Float::with_val(PREC, &row[k] / &pivot_row[k]);
            for (x, p) in row[k..].iter_mut().zip(&pivot_row[k..]) {
                *x -= Float::with_val(PREC, &factor * p);
            }
            let update = Float::with_val(PREC, &factor * &r[k]);
            r[k + 1 + i] -= update;
        }
    }
    let mut x = vec![Float::new(PREC); s];
    for k in (0..s).rev() {
        let tail = Float::with_val(PREC, Float::dot(m[k][k + 1..].iter().zip(&x[k + 1..])));
        x[k] = Float::with_val(PREC, &r[k] - tail) / &m[k][k];
    }
    x
}

/// A deterministic xorshift64* generator of test data.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A value in [−1, 1) with 53 random bits, exactly representable.
    pub(crate) fn float(&mut self) -> Float {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
        Float::with_val(PREC, bits as f64 / (1u64 << 52) as f64 - 1.0)
    }

    /// An s×s matrix of [`Rng::float`] values.
    pub(crate) fn matrix(&mut self, s: usize) -> Vec<Vec<Float>> {
        (0..s).map(|_| self.vector(s)).collect()
    }

    /// A vector of s [`Rng::float`] values.
    pub(crate) fn vector(&mut self, s: usize) -> Vec<Float> {
        (0..s).map(|_| self.float()).collect()
    }
}

/// The symplectic conjugate of a fixture, through the generator's exact-arithmetic
/// [`crate::tableau::symplectic_conjugate`] (the one implementation of ā_ij = b_j (b_i − a_ji)/b_i).
pub(crate) fn conjugate(a: &[Vec<Float>], b: &[Float]) -> Vec<Vec<Float>> {
    use crate::exact::Num;
    let prec = b[0].prec();
    let nums = |v: &[Float]| v.iter().map(|x| Num::Float(x.clone())).collect::<Vec<_>>();
    let a_num: Vec<Vec<Num>> = a.iter().map(|row| nums(row)).collect();
    crate::tableau::symplectic_conjugate(&a_num, &nums(b))
        .expect("fixture weights are nonzero")
        .iter()
        .map(|row| {
            row.iter()
                .map(|x| x.to_float(crate::exact::Precision(prec)))
                .collect()
        })
        .collect()
}
