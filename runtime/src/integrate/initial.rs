//! The initial data inside the problem's domain: before the first step, the energy, the
//! constraint residual, the starting velocity, and the stage equations `r(x)` with their
//! Jacobian `∂r/∂x` at the first step's starting guess `x⁰(q₀, p₀)` must be finite. Each is
//! formed from ϑ, H (or the potential), the constraints and their first and second derivatives
//! at `(q₀, p₀)`, so a value that is not finite there is refused with what it is, rather than
//! written as the run's first point and met again as a failed first step.

use super::{Driver, Inputs, StepEquations};
use crate::error::IntegrateError;
use crate::layout::Position;
use crate::solve::{Buffer as _, NonlinearSystem, Space as _};

/// The first entry of `values` that is not finite, with its index.
fn first_non_finite(values: &[f64]) -> Option<(usize, f64)> {
    values
        .iter()
        .copied()
        .enumerate()
        .find(|(_, v)| !v.is_finite())
}

/// `name` of the entry at `at` of a layout, or its index where the layout does not place it.
fn entry(at: Option<Position>, index: usize) -> String {
    at.map_or_else(|| format!("entry {}", index + 1), |at| at.to_string())
}

impl<E: StepEquations> Driver<E> {
    /// The error of a constraint residual that is not finite at `(q₀, p₀)`.
    pub(super) fn non_finite_constraint(&self, residual: f64) -> IntegrateError {
        IntegrateError::NonFiniteInitialData {
            what: format!(
                "the constraint residual {}",
                self.equations.constraint_name()
            ),
            value: residual,
        }
    }

    /// Checks the initial state `(q₀, p₀)` (after any projection) as the module documentation
    /// says: the energy, the constraint residual, then the stage equations.
    pub(super) fn check_initial(&mut self, q: &[f64], p: &[f64]) -> Result<(), IntegrateError> {
        let equations = &self.equations;
        if let Some(energy) = equations.energy(q, p).filter(|e| !e.is_finite()) {
            return Err(IntegrateError::NonFiniteInitialData {
                what: "the energy".to_owned(),
                value: energy,
            });
        }
        let residual = equations.constraint(q, p);
        if !residual.is_finite() {
            return Err(self.non_finite_constraint(residual));
        }
        self.check_initial_equations(q, p)
    }

    /// Checks that the starting velocity, the stage equations and their Jacobian at the first
    /// step's starting guess from `(q₀, p₀)` are finite, naming the stage and coordinate of the
    /// first entry that is not. The guess is formed as the first step forms it, and the driver
    /// is left as it was, so the first step is the same with or without the check.
    fn check_initial_equations(&mut self, q: &[f64], p: &[f64]) -> Result<(), IntegrateError> {
        self.initial_guess(q, p);
        // The first step's guess has no previous momentum rate to interpolate from.
        self.rated = false;
        let dims = self.equations.dims();
        let v = self.vectors.parts();
        if let Some((k, value)) = first_non_finite(v.velocity) {
            return Err(IntegrateError::NonFiniteInitialData {
                what: format!("the starting velocity's coordinate {}", k + 1),
                value,
            });
        }
        let equations = &self.equations;
        let inputs = Inputs {
            h: self.h,
            q,
            p,
            lambda: v.lambda,
        };
        let system = equations.system(inputs);
        let n = system.space().dim();
        let x = self.x.entries();
        let mut r = vec![0.0; n];
        system.residual(x, &mut r);
        if let Some((i, value)) = first_non_finite(&r) {
            let row = entry(equations.residuals().position(i, dims), i);
            return Err(IntegrateError::NonFiniteInitialData {
                what: format!("the stage equations' row {row}"),
                value,
            });
        }
        let mut jacobian = vec![0.0; n * n];
        system.jacobian(x, &mut jacobian);
        if let Some((k, value)) = first_non_finite(&jacobian) {
            let (i, j) = (k / n, k % n);
            let row = entry(equations.residuals().position(i, dims), i);
            let column = entry(equations.unknowns().position(j, dims), j);
            return Err(IntegrateError::NonFiniteInitialData {
                what: format!("the stage Jacobian's entry at row {row}, unknown {column}"),
                value,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::first_non_finite;

    #[test]
    fn the_first_value_that_is_not_finite_is_found() {
        assert_eq!(first_non_finite(&[1.0, 2.0]), None);
        assert_eq!(
            first_non_finite(&[1.0, f64::INFINITY, f64::NAN]),
            Some((1, f64::INFINITY))
        );
        assert!(first_non_finite(&[f64::NAN]).is_some_and(|(i, v)| i == 0 && v.is_nan()));
    }
}
