//! The empirical order of convergence from a step sweep.

use super::DiagnosticsError;

/// A least-squares fit `log e = p log h + c` over the usable points of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderFit {
    /// The slope `p`, the empirical order.
    pub order: f64,
    /// How many points (from the largest step down) entered the fit.
    pub points: usize,
}

/// The empirical order `p` of errors `e(h) ≈ C hᵖ`: the least-squares slope of `log e` against
/// `log h`, excluding the points at the round-off floor.
///
/// Floor rule: with the points ordered by decreasing `h`, the fit uses the leading run of points
/// whose error is above `floor` and still converges at a local rate of at least ½,
/// `log(e_prev/e_k) / log(h_prev/h_k) ≥ ½` (under step halving, `e_k ≤ e_prev/√2`); the first
/// point that fails either test and every point after it are at the floor. A method of order
/// `p ≥ 1` passes the rate test with a margin until round-off takes over, so a first-order
/// method is measured as such rather than mistaken for a floor.
pub fn empirical_order(h: &[f64], error: &[f64], floor: f64) -> Result<OrderFit, DiagnosticsError> {
    if h.len() != error.len() {
        return Err(DiagnosticsError::InvalidSweep(
            "as many errors as step sizes are needed",
        ));
    }
    if h.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
        return Err(DiagnosticsError::InvalidSweep(
            "step sizes must be finite and positive",
        ));
    }
    let mut points: Vec<(f64, f64)> = h.iter().copied().zip(error.iter().copied()).collect();
    points.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut used: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for (hk, ek) in points {
        let converging = used
            .last()
            .is_none_or(|&(h_prev, e_prev)| (e_prev / ek).ln() >= 0.5 * (h_prev / hk).ln());
        if !(ek.is_finite() && ek > floor && converging) {
            break;
        }
        used.push((hk, ek));
    }
    if used.len() < 2 {
        return Err(DiagnosticsError::TooFewPoints { usable: used.len() });
    }
    let used: Vec<(f64, f64)> = used.iter().map(|(hk, ek)| (hk.ln(), ek.ln())).collect();
    let n = used.len() as f64;
    let (mx, my) = used
        .iter()
        .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x / n, sy + y / n));
    let (sxy, sxx) = used.iter().fold((0.0, 0.0), |(sxy, sxx), (x, y)| {
        (sxy + (x - mx) * (y - my), sxx + (x - mx) * (x - mx))
    });
    Ok(OrderFit {
        order: sxy / sxx,
        points: used.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_of_a_power_law_and_the_floor_rule() {
        let h = [0.1, 0.05, 0.025, 0.0125, 0.00625];
        // e = 3h⁴ on the first four points, then a floor that no longer halves.
        let error = [3e-4, 1.875e-5, 1.171_875e-6, 7.324_218_75e-8, 6e-8];
        let fit = empirical_order(&h, &error, 1e-13);
        assert!(fit.is_ok_and(|f| (f.order - 4.0).abs() < 1e-12 && f.points == 4));
        // The same sweep with a floor above the fourth error keeps three points.
        let fit = empirical_order(&h, &error, 1e-7);
        assert!(fit.is_ok_and(|f| (f.order - 4.0).abs() < 1e-12 && f.points == 3));
        // A first-order method (error ratio ≈ 0.5004 per halving, as SPARK over the
        // Gauss–Lobatto coupling measures) keeps all its points.
        let first: Vec<f64> = h.iter().map(|x| 0.4522 * x * (1.0 + 0.16 * x)).collect();
        let fit = empirical_order(&h, &first, 1e-13);
        assert!(fit.is_ok_and(|f| (f.order - 1.0).abs() < 0.02 && f.points == 5));
        // A floor that decreases by less than √2 per halving is cut.
        let slow = [1e-3, 1e-4, 8e-5, 7e-5, 6.5e-5];
        let fit = empirical_order(&h, &slow, 1e-13);
        assert!(fit.is_ok_and(|f| f.points == 2));
        let floored = empirical_order(&h, &[1e-14; 5], 1e-13);
        assert_eq!(floored, Err(DiagnosticsError::TooFewPoints { usable: 0 }));
        assert!(matches!(
            empirical_order(&h[..2], &error, 1e-13),
            Err(DiagnosticsError::InvalidSweep(_))
        ));
    }
}
