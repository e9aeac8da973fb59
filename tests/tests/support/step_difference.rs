//! Two steppers' steps from the same states: the largest difference of `(q, p)`.

use nalgebra::SVector;
use sparkgen::integrate::Stepper;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;

/// The largest `|·|∞` difference between the steps of `A` (on `a`) and `B` (on `b`) from the same
/// states: the points of `A`'s trajectory of `steps` steps of size `h` from `(q₀, p₀)`.
pub fn largest_step_difference<A, B, PA, PB, const D: usize, const NA: usize, const NB: usize>(
    (a, b): (&PA, &PB),
    (q0, p0): (SVector<f64, D>, SVector<f64, D>),
    h: f64,
    steps: usize,
) -> f64
where
    A: StageMethod<PA, D>,
    B: StageMethod<PB, D>,
{
    let (mut q, mut p) = (q0, p0);
    let newton = NewtonOptions::default();
    let mut own = Stepper::<A, PA, D, NA>::new(a, h, newton).unwrap_or_else(|e| panic!("{e}"));
    let mut other = Stepper::<B, PB, D, NB>::new(b, h, newton).unwrap_or_else(|e| panic!("{e}"));
    let mut largest = 0.0f64;
    for n in 1..=steps {
        let t = (n - 1) as f64 * h;
        let (q1, p1, _) = own.step(&q, &p, n, t).unwrap_or_else(|e| panic!("{e}"));
        let (q2, p2, _) = other.step(&q, &p, n, t).unwrap_or_else(|e| panic!("{e}"));
        largest = largest.max((q1 - q2).amax()).max((p1 - p2).amax());
        (q, p) = (q1, p1);
    }
    largest
}
