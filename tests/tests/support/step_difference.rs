//! Two steppers' steps from the same states: the largest difference of `(q, p)`.

use nalgebra::SVector;
use sparkgen::integrate::{Compiled, Driver, StepEquations};
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;

/// The driver of `M` on `problem` with step size `h` and the default Newton options.
pub fn driver<M: StageMethod<P, D>, P, const D: usize>(
    problem: &P,
    h: f64,
) -> Driver<Compiled<'_, M, P, D>> {
    let equations = Compiled::<M, P, D>::sized(problem).unwrap_or_else(|e| panic!("{e}"));
    Driver::new(equations, h, NewtonOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The largest `|·|∞` difference between the steps of `own` and `other` (drivers of step size
/// `h`) from the same states: the points of `own`'s trajectory of `steps` steps from `(q₀, p₀)`.
pub fn largest_step_difference<A: StepEquations, B: StepEquations, const D: usize>(
    (own, other): (&mut Driver<A>, &mut Driver<B>),
    (q0, p0): (SVector<f64, D>, SVector<f64, D>),
    h: f64,
    steps: usize,
) -> f64 {
    let (mut q, mut p) = (q0, p0);
    let apart = |x: &[f64], y: &[f64]| {
        x.iter()
            .zip(y)
            .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
    };
    let mut largest = 0.0f64;
    for n in 1..=steps {
        let t = (n - 1) as f64 * h;
        own.step(q.as_slice(), p.as_slice(), n, t)
            .unwrap_or_else(|e| panic!("{}: {e}", own.equations().method()));
        other
            .step(q.as_slice(), p.as_slice(), n, t)
            .unwrap_or_else(|e| panic!("{}: {e}", other.equations().method()));
        let ((q1, p1), (q2, p2)) = (own.state(), other.state());
        largest = largest.max(apart(q1, q2)).max(apart(p1, p2));
        (q, p) = (
            SVector::from_column_slice(q1),
            SVector::from_column_slice(p1),
        );
    }
    largest
}
