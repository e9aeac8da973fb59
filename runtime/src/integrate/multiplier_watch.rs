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
//! and still growing. A single run cannot tell an h-independent factor from fast dynamics at a
//! coarse step: the floor keeps bounded multipliers of low order silent (VPARK GLRK(1) at
//! h = 0.1 on Lotka–Volterra reaches 0.36 of its scale, growing by 2.7 per step for a few steps
//! after its defect crosses zero), at the price of reporting a mode only once it is large.
//!
//! A step that fails (Newton, a singular stage Jacobian, a non-finite state) while the defect is
//! growing as above and has reached [`FAILURE_FLOOR`] of the scale fails because of the mode:
//! [`MultiplierWatch::failing_mode`] names it, so the run stops with the mode rather than with
//! its symptom (HPARK IIIB–IIIA(4) at h = 0.1 on Lotka–Volterra fails at step 25 with its defect
//! at 0.48 of the scale and growing). A bounded multiplier's run does not fail, so the lower
//! floor raises no false alarm there.

/// The smallest factor per step that counts as growth.
pub const GROWTH: f64 = 1.05;
/// How many consecutive growing steps make a mode.
pub const STEPS: usize = 3;
/// The defect, relative to the multiplier's scale, from which a growing mode is reported.
pub const FLOOR: f64 = 0.5;
/// The defect, relative to the multiplier's scale, from which a growing mode is blamed for a
/// failed step.
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
}

impl MultiplierWatch {
    /// Records the defect `e_n` of a step and the multiplier's scale; the mode, once the rule of
    /// the module documentation holds.
    pub fn observe(&mut self, defect: f64, scale: f64) -> Option<ParasiticMode> {
        match self.last {
            Some(last) if defect >= GROWTH * last => {
                self.growing += 1;
                self.log_growth += (defect / last).ln();
            }
            _ => (self.growing, self.log_growth) = (0, 0.0),
        }
        self.last = Some(defect);
        self.relative = defect / scale;
        self.mode(FLOOR)
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
        let reports: Vec<_> = defects.iter().map(|&e| watch.observe(e, scale)).collect();
        assert_eq!(reports[..3], [None, None, None]);
        let mode = reports[3].expect("reported");
        assert_eq!(mode.steps, 3);
        assert!((mode.growth - 3.0).abs() < 1e-12);
        // As fast, but below the floor: not reported.
        let mut small = MultiplierWatch::default();
        let below = defects.map(|e| 0.99 * e);
        assert!(below.iter().all(|&e| small.observe(e, scale).is_none()));
        // Above the floor but growing by less than GROWTH, or pausing: not reported.
        let mut slow = MultiplierWatch::default();
        let slowly = [1.0, 1.04, 1.08, 1.12, 1.16].map(|f| f * top);
        assert!(slowly.iter().all(|&e| slow.observe(e, scale).is_none()));
        let mut pausing = MultiplierWatch::default();
        let paused = [1.0, 2.0, 4.0, 4.0, 8.0, 16.0].map(|f| f * top);
        assert!(paused.iter().all(|&e| pausing.observe(e, scale).is_none()));
        // Growing but below the floor: blamed for a failure from FAILURE_FLOOR on only.
        let mut failing = MultiplierWatch::default();
        let rising = [1.0, 2.0, 4.0, 8.0].map(|f| f * FAILURE_FLOOR * scale / 8.0);
        for e in &rising[..3] {
            assert!(failing.observe(*e, scale).is_none());
        }
        assert!(failing.failing_mode().is_none(), "two growing steps");
        assert!(failing.observe(rising[3], scale).is_none());
        let mode = failing
            .failing_mode()
            .expect("three growing steps at the floor");
        assert_eq!((mode.steps, mode.defect), (3, rising[3]));
        assert!(small.failing_mode().is_some() && slow.failing_mode().is_none());
    }
}
