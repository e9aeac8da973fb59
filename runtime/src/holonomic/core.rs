//! The state RATTLE and SHAKE share: the problem, h, tolerances, M⁻¹, the constraint frame of
//! the last position, the last multipliers (the next initial guess) and the step count.

use super::error::HolonomicError;
use super::multipliers::ConstraintFrame;
use super::options::{Tolerances, validate};
use crate::problem::{HolonomicSystem, Matrix, Vector};

/// Shared stepper state.
#[derive(Clone, Debug)]
pub(super) struct StepperCore<'a, P, const D: usize, const M: usize> {
    pub(super) problem: &'a P,
    pub(super) h: f64,
    pub(super) tolerances: Tolerances,
    pub(super) minv: Matrix<D, D>,
    pub(super) frame: Option<ConstraintFrame<D, M>>,
    pub(super) guess: Vector<M>,
    pub(super) steps: usize,
}

impl<'a, P: HolonomicSystem<D, M>, const D: usize, const M: usize> StepperCore<'a, P, D, M> {
    /// Validates `h` (finite, positive) and the tolerances.
    pub(super) fn new(
        problem: &'a P,
        h: f64,
        tolerances: Tolerances,
    ) -> Result<Self, HolonomicError> {
        validate(h, &tolerances)?;
        Ok(StepperCore {
            problem,
            h,
            tolerances,
            minv: problem.inverse_mass_matrix(),
            frame: None,
            guess: Vector::zeros(),
            steps: 0,
        })
    }
}
