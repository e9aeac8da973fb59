//! The point-vortex example (`problems/point_vortices.toml`: eight vortices, D = 16, run by the
//! engine). Kirchhoff's vortices keep, besides H, the angular impulse `I = Σᵢ Γᵢ |rᵢ|²` and the
//! length of the linear impulse `|Σᵢ Γᵢ rᵢ|²`, the momentum maps of the rotations about the
//! origin. On the constraint `p = ϑ(q) = (Γᵢ yᵢ/2, −Γᵢ xᵢ/2)ᵢ` both are bilinear in `(q, p)`
//! (`I = 2 Σᵢ (yᵢ p_{xᵢ} − xᵢ p_{yᵢ})`), and VPRK Gauss(3), which on this linear ϑ is Gauss
//! collocation of `Ω q̇ = ∇H`, keeps them to round-off. SLRK Lobatto IIIE(3), whose stage system
//! here has 112 unknowns and is factored with its static pivots by default, keeps them too
//! (measured), and its final state approaches Gauss(3)'s at its order 4 as h is halved.
use super::{csv_rows, problem_file, run_file_args, scratch};
use sparkgen::diagnostics::maximum;

/// The file's circulations `g0 … g7`.
const CIRCULATIONS: [f64; 8] = [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5];

/// The positions' columns of the `--out` table, after `t`.
const POSITIONS: std::ops::Range<usize> = 1..1 + 2 * CIRCULATIONS.len();

/// `(I, |P|²)` at a row `(t, x₀, y₀, …, x₇, y₇, p…, energy error, constraint residual)` of
/// the `--out` table.
fn impulses(row: &[f64]) -> (f64, f64) {
    let mut sums = (0.0, 0.0, 0.0);
    for (g, r) in CIRCULATIONS.iter().zip(row[POSITIONS].chunks_exact(2)) {
        sums.0 += g * (r[0] * r[0] + r[1] * r[1]);
        sums.1 += g * r[0];
        sums.2 += g * r[1];
    }
    (sums.0, sums.1 * sums.1 + sums.2 * sums.2)
}

/// The largest relative change of `I` and of `|P|²` over the run, and the largest energy
/// error and constraint residual ([`maximum`]: a NaN anywhere makes the maximum NaN).
fn run_maxima(rows: &[Vec<f64>]) -> [f64; 4] {
    let (i0, p0) = impulses(&rows[0]);
    let n = rows[0].len();
    [
        maximum(rows.iter().map(|r| ((impulses(r).0 - i0) / i0).abs())),
        maximum(rows.iter().map(|r| ((impulses(r).1 - p0) / p0).abs())),
        maximum(rows.iter().map(|r| r[n - 2].abs())),
        maximum(rows.iter().map(|r| r[n - 1].abs())),
    ]
}

#[test]
fn point_vortices_keep_their_impulses_and_the_methods_agree() {
    let dir = scratch("point-vortices");
    let file = problem_file("point_vortices.toml");
    let run = |method: &str, h: &str, steps: &str, name: &str| {
        let rows = csv_rows(
            &run_file_args(&file, method, "3", h, steps),
            &dir.join(name),
        );
        assert_eq!(
            rows.len(),
            steps.parse::<usize>().unwrap_or(0) + 1,
            "{method}"
        );
        rows
    };
    let gauss = run("VprkGauss", "0.05", "400", "gauss.csv");
    let slrk = run("SlrkLobattoIIIE", "0.05", "400", "slrk.csv");
    let slrk_half = run("SlrkLobattoIIIE", "0.025", "800", "slrk_half.csv");
    for (name, rows) in [("VPRK Gauss(3)", &gauss), ("SLRK IIIE(3)", &slrk)] {
        let [i, p, energy, residual] = run_maxima(rows);
        println!(
            "{name}: max relative change of I {i:.1e}, of |P|² {p:.1e}; energy {energy:.1e}; |p − ϑ(q)| {residual:.1e}"
        );
        assert!(i <= 1e-13 && p <= 1e-13, "{name}: {i:e}, {p:e}");
        assert!(residual <= 1e-13, "{name}: {residual:e}");
    }
    // Gauss(3) has order 6: its energy error at h = 0.05 is far below SLRK IIIE(3)'s.
    let [.., gauss_energy, _] = run_maxima(&gauss);
    assert!(gauss_energy <= 1e-10, "{gauss_energy:e}");
    let distance = |a: &[Vec<f64>], b: &[Vec<f64>]| {
        let (a, b) = (&a[a.len() - 1][POSITIONS], &b[b.len() - 1][POSITIONS]);
        maximum(a.iter().zip(b).map(|(x, y)| (x - y).abs()))
    };
    let (coarse, fine) = (distance(&slrk, &gauss), distance(&slrk_half, &gauss));
    println!(
        "SLRK IIIE(3) against Gauss(3) at t = 20: {coarse:.2e} (h = 0.05), {fine:.2e} (h = 0.025)"
    );
    // Order 4: halving h divides SLRK's error by 16; Gauss(3)'s own error is far smaller.
    assert!(
        coarse <= 1e-3 && fine * 8.0 <= coarse,
        "{coarse:e}, {fine:e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
