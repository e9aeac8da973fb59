//! Detection of a parasitic multiplier mode.
//!
//! A method whose stage equations read the carried multiplier (`Λ̃_1 = λ_n`,
//! [`crate::stage::MultiplierUpdate::read`]) feeds the error of `λ_n` back into the step. Where
//! the feedback amplifies it (HPARK over the Lobatto pairs), the defect
//! `e_n = |λ_n − λ̂(q_n, p_n)|∞` against the multiplier `λ̂` consistent with the state
//! ([`crate::kind::Access::initial_multiplier`]) grows by a factor per step that does not depend
//! on h, until Newton fails or the state leaves the problem's domain. A consistent method's
//! defect changes by a factor `1 + O(h)` per step and stays `O(h^k)` small. The watch reports the
//! mode when the defect has grown by at least [`GROWTH`] in each of [`STEPS`] consecutive steps
//! and has reached [`FLOOR`] times the multiplier's scale `max(|λ̂|∞, |v(q, p)|∞)` (`v`: the
//! kind's velocity, the multiplier's scale where `λ̂ = 0`): a multiplier off by half its size
//! and still growing — or when the last step, linearised, can carry it there in one more step:
//! a defect growing as above from [`FAILURE_FLOOR`] of the scale on is multiplied by the
//! spectral radius `ρ(R)` of the step's exact linearised map of the scaled constraint and
//! multiplier errors ([`crate::amplification`]), and the mode is reported once that reaches
//! the floor.
//!
//! A single run cannot tell an h-independent factor from fast dynamics at a coarse step from
//! the defect alone: the bounded VPARK GLRK(1) at h = 0.1 on Lotka–Volterra reaches 0.36 of its
//! scale and grows by 2.7 per step for a few steps after its defect crosses zero, which the
//! floor keeps silent. The linearisation tells the two apart: its `ρ(R)` stays within
//! `1 + 1.9 h` for every bounded VPARK multiplier (at most 1.18 at h = 0.1), so a defect of
//! 0.36 is carried to at most 0.43 of the scale, while HPARK IIIB–IIIA(4) at h = 0.1, whose
//! defect reaches 0.48 of the scale at step 24 (growing by 1.57 per step) before step 25 fails
//! with a non-finite Newton iterate, has `ρ(R)` well above 1 there and is reported at the last
//! accepted step. `ρ(R)` costs a Jacobian, an LU and the tangent blocks; it is evaluated only
//! for such growing defects.
//!
//! A step that fails (Newton, a singular stage Jacobian, a non-finite state) while the defect is
//! growing as above and has reached [`FAILURE_FLOOR`] of the scale fails because of the mode:
//! [`MultiplierWatch::failing_mode`] names it, so the run stops with the mode rather than with
//! its symptom. A bounded multiplier's run does not fail, so the lower floor raises no false
//! alarm there.

/// The smallest factor per step that counts as growth.
pub const GROWTH: f64 = 1.05;
/// How many consecutive growing steps make a mode.
pub const STEPS: usize = 3;
/// The defect, relative to the multiplier's scale, from which a growing mode is reported.
pub const FLOOR: f64 = 0.5;
/// The defect, relative to the multiplier's scale, from which a growing mode is blamed for a
/// failed step, and from which its one-step amplification is examined.
pub const FAILURE_FLOOR: f64 = 0.1;

/// The defect's recent history.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MultiplierWatch {
    last: Option<f64>,
    relative: f64,
    growing: usize,
    log_growth: f64,
}

/// A detected parasitic mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParasiticMode {
    /// `|λ_n − λ̂(q_n, p_n)|∞`.
    pub defect: f64,
    /// The geometric mean of the defect's growth per step over the growing steps.
    pub growth: f64,
    /// The number of consecutive growing steps.
    pub steps: usize,
    /// `ρ(R)` of the last step, where it was computed.
    pub amplification: Option<f64>,
}

impl MultiplierWatch {
    /// Records the defect `e_n` of a step and the multiplier's scale; the mode, once the rule of
    /// the module documentation holds. `amplification` gives `ρ(R)` of the step; it is called
    /// only for a defect that grows from [`FAILURE_FLOOR`] of the scale on.
    pub fn observe(
        &mut self,
        defect: f64,
        scale: f64,
        amplification: impl FnOnce() -> Option<f64>,
    ) -> Option<ParasiticMode> {
        match self.last {
            Some(last) if defect >= GROWTH * last => {
                self.growing += 1;
                self.log_growth += (defect / last).ln();
            }
            _ => (self.growing, self.log_growth) = (0, 0.0),
        }
        self.last = Some(defect);
        self.relative = defect / scale;
        let candidate = self.mode(FAILURE_FLOOR)?;
        let rho = amplification();
        let reaches = self.relative * rho.unwrap_or(0.0).max(1.0) >= FLOOR;
        reaches.then_some(ParasiticMode {
            amplification: rho,
            ..candidate
        })
    }

    /// The mode to blame for a step that failed after the last observed one: the defect grew in
    /// each of the last [`STEPS`] steps and reached [`FAILURE_FLOOR`] of the scale.
    pub fn failing_mode(&self) -> Option<ParasiticMode> {
        self.mode(FAILURE_FLOOR)
    }

    fn mode(&self, floor: f64) -> Option<ParasiticMode> {
        let defect = self.last?;
        (self.growing >= STEPS && self.relative >= floor).then(|| ParasiticMode {
            defect,
            growth: (self.log_growth / self.growing as f64).exp(),
            steps: self.growing,
            amplification: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_geometric_growth_above_the_floor_only() {
        // Growth by 3 per step up to FLOOR·scale: steps 2, 3, 4 grow, and step 4 reaches the
        // floor.
        let scale = 2.0;
        let top = FLOOR * scale;
        let defects = [top / 27.0, top / 9.0, top / 3.0, top];
        let mut watch = MultiplierWatch::default();
        let reports: Vec<_> = defects
            .iter()
            .map(|&e| watch.observe(e, scale, || None))
            .collect();
        assert_eq!(reports[..3], [None, None, None]);
        let mode = reports[3].expect("reported");
        assert_eq!(mode.steps, 3);
        assert!((mode.growth - 3.0).abs() < 1e-12);
        // As fast, but below the floor: not reported.
        let mut small = MultiplierWatch::default();
        let below = defects.map(|e| 0.99 * e);
        assert!(
            below
                .iter()
                .all(|&e| small.observe(e, scale, || None).is_none())
        );
        // Above the floor but growing by less than GROWTH, or pausing: not reported.
        let mut slow = MultiplierWatch::default();
        let slowly = [1.0, 1.04, 1.08, 1.12, 1.16].map(|f| f * top);
        assert!(
            slowly
                .iter()
                .all(|&e| slow.observe(e, scale, || None).is_none())
        );
        let mut pausing = MultiplierWatch::default();
        let paused = [1.0, 2.0, 4.0, 4.0, 8.0, 16.0].map(|f| f * top);
        assert!(
            paused
                .iter()
                .all(|&e| pausing.observe(e, scale, || None).is_none())
        );
        // Growing but below the floor: blamed for a failure from FAILURE_FLOOR on only.
        let mut failing = MultiplierWatch::default();
        let rising = [1.0, 2.0, 4.0, 8.0].map(|f| f * FAILURE_FLOOR * scale / 8.0);
        for e in &rising[..3] {
            assert!(failing.observe(*e, scale, || None).is_none());
        }
        assert!(failing.failing_mode().is_none(), "two growing steps");
        assert!(failing.observe(rising[3], scale, || None).is_none());
        let mode = failing
            .failing_mode()
            .expect("three growing steps at the floor");
        assert_eq!((mode.steps, mode.defect), (3, rising[3]));
        assert!(small.failing_mode().is_some() && slow.failing_mode().is_none());
    }

    #[test]
    fn reports_a_growing_defect_that_one_amplified_step_carries_to_the_floor() {
        // Doubling defects up to 0.3 of the scale: ρ(R) is asked for only from FAILURE_FLOOR on
        // (and after STEPS growing steps), and the mode is reported once 0.3 ρ ≥ FLOOR.
        let scale = 1.0;
        let defects = [0.3 / 8.0, 0.3 / 4.0, 0.3 / 2.0, 0.3];
        let run = |rho: f64| {
            let mut watch = MultiplierWatch::default();
            let asked = std::cell::Cell::new(0);
            let reports: Vec<_> = defects
                .iter()
                .map(|&e| {
                    watch.observe(e, scale, || {
                        asked.set(asked.get() + 1);
                        Some(rho)
                    })
                })
                .collect();
            (reports, asked.get())
        };
        let (reports, asked) = run(FLOOR / 0.3);
        assert_eq!(asked, 1, "asked at the last step only");
        assert_eq!(reports[..3], [None, None, None]);
        let mode = reports[3].expect("0.3 ρ reaches the floor");
        assert_eq!(mode.amplification, Some(FLOOR / 0.3));
        let (reports, asked) = run(0.99 * FLOOR / 0.3);
        assert!(asked == 1 && reports.iter().all(Option::is_none));
        // Where ρ(R) is unknown the floor alone decides.
        let mut watch = MultiplierWatch::default();
        assert!(
            defects
                .iter()
                .all(|&e| watch.observe(e, scale, || None).is_none())
        );
    }
}
