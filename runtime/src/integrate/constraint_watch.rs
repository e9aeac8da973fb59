//! Detection of a constraint residual that leaves round-off exponentially.
//!
//! A method that does not impose the constraint at the step's end (VPRK; the method guide,
//! `docs/methods.md`, lists them) carries `φ_n = |φ(q_n, p_n)|∞` from step to step. Where nothing damps it, what
//! each step puts in stays and wanders, and `φ_n` stays at the size of the truncation error;
//! where the step has a parasitic mode (VPRK over Lobatto IIIA–IIIB on a nonlinear one-form, an
//! eigenvalue pair `(μ, 1/μ)` of the tangent map off the unit circle with `|μ| − 1 ∝ h`), `φ_n`
//! grows exponentially in time from round-off until the state leaves the problem's domain.
//!
//! The watch follows `ℓ_n = log₂(φ_n / (B·σ_n))`, the residual in doublings above the round-off
//! base `B` = [`BASE`] of the scale `σ_n = |p_n|∞`. Each time `ℓ_n` has gained at least one
//! since the last recorded event it records one, with its rate, the doublings per step since
//! that event. Exponential growth doubles at a steady rate; the growth of a bounded error does
//! not: linear growth `φ_n ∝ n` halves its rate from one doubling to the next, `nᵏ` divides it by
//! `2^{1/k}`, and a random walk by 4. The watch reports a departure when [`EVENTS`] consecutive
//! rates each keep at least [`STEADY`] of the one before (polynomial growth of degree 6 or less
//! cannot), so a mode is stopped a few doublings above `B·σ`, far below any size that matters.
//! A residual that falls to less than half of the last event, or below `2B·σ`, starts afresh.

/// The round-off base, relative to `|p|∞`: `10³ ε`.
pub const BASE: f64 = 1e3 * f64::EPSILON;
/// How many consecutive steady doubling rates make a departure.
pub const EVENTS: usize = 4;
/// The least ratio of a doubling rate to the one before that counts as steady.
pub const STEADY: f64 = 0.9;

/// The residual's recent doublings.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConstraintWatch {
    /// `(ℓ, step)` of the last event.
    last: Option<(f64, usize)>,
    /// The doubling rate at the last event.
    rate: Option<f64>,
    /// Consecutive steady rates.
    steady: usize,
}

/// A residual that leaves round-off exponentially.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Departure {
    /// `φ_n / σ_n`.
    pub relative: f64,
    /// The growth factor per step, `2^rate` at the last event.
    pub growth: f64,
}

impl ConstraintWatch {
    /// Records the residual `φ` of step `step` with the scale `σ`; the departure once the rule
    /// of the module documentation holds.
    pub fn observe(&mut self, step: usize, residual: f64, scale: f64) -> Option<Departure> {
        let relative = residual / scale.max(f64::MIN_POSITIVE);
        let level = (relative / BASE).log2();
        // A NaN level is no evidence of growth (a non-finite state stops the run elsewhere).
        if level.is_nan() || level < 1.0 {
            *self = ConstraintWatch::default();
            return None;
        }
        let Some((last, at)) = self.last else {
            self.last = Some((level, step));
            return None;
        };
        if level < last - 1.0 {
            *self = ConstraintWatch {
                last: Some((level, step)),
                ..ConstraintWatch::default()
            };
            return None;
        }
        if level < last + 1.0 || step <= at {
            return None;
        }
        let rate = (level - last) / (step - at) as f64;
        self.steady = match self.rate {
            Some(before) if rate >= STEADY * before => self.steady + 1,
            _ => 0,
        };
        self.rate = Some(rate);
        self.last = Some((level, step));
        (self.steady >= EVENTS).then(|| Departure {
            relative,
            growth: rate.exp2(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The step at which a residual sequence is reported, if any.
    fn reported(residuals: impl Iterator<Item = f64>) -> Option<(usize, Departure)> {
        let mut watch = ConstraintWatch::default();
        residuals
            .enumerate()
            .find_map(|(n, r)| watch.observe(n, r, 2.0).map(|d| (n, d)))
    }

    #[test]
    fn reports_exponential_growth_a_few_doublings_above_round_off() {
        // From round-off, by 1.032 per step (|μ| − 1 = 3.2 h at h = 0.01) and by 2.8.
        for growth in [1.032f64, 2.8] {
            let residual = |n: usize| 2e-16 * growth.powi(n as i32);
            let (n, departure) =
                reported((0..100_000).map(residual)).expect("an exponential residual is reported");
            assert_eq!(departure.relative, residual(n) / 2.0);
            // The growth per step, from the doublings between two steps.
            assert!(
                (departure.growth / growth - 1.0).abs() < 1e-9,
                "{departure:?}"
            );
            // A few doublings above the base, far below any size that matters.
            assert!(departure.relative <= 1e-9, "{departure:?} at step {n}");
        }
    }

    #[test]
    fn bounded_and_polynomial_residuals_are_not_reported() {
        // A jump to truncation size at the first step, then linear growth; t³ and t⁵ growth;
        // round-off noise; an oscillation.
        let cases: [Box<dyn Fn(usize) -> f64>; 5] = [
            Box::new(|n| if n == 0 { 0.0 } else { 1e-7 * n as f64 }),
            Box::new(|n| 1e-15 * (n as f64).powi(3)),
            Box::new(|n| 1e-15 * (n as f64).powi(5)),
            Box::new(|n| 1e-16 * (1.0 + (n as f64 * 0.7).sin())),
            Box::new(|n| 1e-6 * (n as f64 * 0.05).sin().abs()),
        ];
        for (k, case) in cases.iter().enumerate() {
            assert_eq!(reported((0..100_000).map(case)), None, "case {k}");
        }
    }

    #[test]
    fn a_residual_that_falls_back_starts_afresh() {
        // Three doublings at a steady rate, a fall to a quarter, three more: never EVENTS
        // steady rates in a row.
        let mut watch = ConstraintWatch::default();
        let levels = [1.5, 2.5, 3.5, 4.5, 2.0, 3.0, 4.0, 5.0];
        for (n, l) in levels.iter().enumerate() {
            let residual = 2.0 * BASE * 2f64.powf(*l);
            assert_eq!(watch.observe(n, residual, 2.0), None, "step {n}");
        }
        // A NaN resets as well.
        assert_eq!(watch.observe(9, f64::NAN, 2.0), None);
        assert_eq!(watch, ConstraintWatch::default());
    }
}
