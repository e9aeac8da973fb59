//! Observers to hand a run ([`Observer`]): a closure ([`Closure`]), and any observer thinned to
//! every K-th point and the last ([`Every`]), so that a long run can stream a few points to a
//! file ([`crate::output::TrajectoryFile`]) or to a closure.

use crate::solution::{Observer, Point, RunStats, StepStats};
use std::num::NonZeroUsize;

/// A closure `f(point)` as an [`Observer`]; an error it returns stops the run.
#[derive(Clone, Copy, Debug)]
pub struct Closure<F>(pub F);

impl<F, E> Observer for Closure<F>
where
    F: FnMut(&Point<'_>) -> Result<(), E>,
{
    type Error = E;

    fn observe(&mut self, point: &Point<'_>) -> Result<(), E> {
        (self.0)(point)
    }
}

/// Hands `inner` every `every`-th point of a run (n = 0, K, 2K, …) as it arrives and, at
/// [`Every::finish`], the run's last point if it was not one of them, so that what `inner`
/// sees ends at the last accepted state, as a thinned [`crate::solution::Record`] does. The
/// last point waits in buffers sized at the first point that is not handed on; a point costs no
/// allocation after that.
#[derive(Clone, Debug)]
pub struct Every<O> {
    inner: O,
    every: usize,
    q: Vec<f64>,
    p: Vec<f64>,
    lambda: Vec<f64>,
    /// The step, time and statistics of the point in the buffers, if it waits.
    pending: Option<(usize, f64, Option<StepStats>)>,
}

impl<O: Observer> Every<O> {
    /// `inner`, handed every `every`-th point and the last.
    pub fn new(inner: O, every: NonZeroUsize) -> Self {
        Every {
            inner,
            every: every.get(),
            q: Vec::new(),
            p: Vec::new(),
            lambda: Vec::new(),
            pending: None,
        }
    }

    /// Hands `inner` the last point if it waits, and returns `inner`.
    pub fn finish(mut self) -> Result<O, O::Error> {
        self.flush()?;
        Ok(self.inner)
    }

    /// Hands `inner` the last point if it waits.
    fn flush(&mut self) -> Result<(), O::Error> {
        if let Some((step, t, stats)) = self.pending.take() {
            let point = Point {
                step,
                t,
                q: &self.q,
                p: &self.p,
                lambda: &self.lambda,
                stats,
            };
            self.inner.observe(&point)?;
        }
        Ok(())
    }
}

impl<O: Observer> Observer for Every<O> {
    type Error = O::Error;

    fn observe(&mut self, point: &Point<'_>) -> Result<(), O::Error> {
        if point.step.is_multiple_of(self.every) {
            self.pending = None;
            return self.inner.observe(point);
        }
        for (buffer, values) in [
            (&mut self.q, point.q),
            (&mut self.p, point.p),
            (&mut self.lambda, point.lambda),
        ] {
            buffer.clear();
            buffer.extend_from_slice(values);
        }
        self.pending = Some((point.step, point.t, point.stats));
        Ok(())
    }

    /// Hands `inner` the last point if it waits, then the statistics.
    fn end(&mut self, stats: &RunStats) -> Result<(), O::Error> {
        self.flush()?;
        self.inner.end(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::{Closure, Every};
    use crate::solution::{Observer, Point};
    use std::num::NonZeroUsize;

    /// Points n = 0…`last` of a run with `q = (n)`, `p = (−n)`, thinned to every `k`-th: the
    /// steps a closure sees, and the state of the last.
    fn seen(last: usize, k: usize) -> (Vec<usize>, (f64, f64)) {
        let mut steps = Vec::new();
        let mut state = (f64::NAN, f64::NAN);
        let closure = Closure(|point: &Point<'_>| {
            steps.push(point.step);
            state = (point.q[0], point.p[0]);
            Ok::<(), ()>(())
        });
        let mut every = Every::new(closure, NonZeroUsize::new(k).expect("positive"));
        for n in 0..=last {
            let x = n as f64;
            let point = Point {
                step: n,
                t: x,
                q: &[x],
                p: &[-x],
                lambda: &[],
                stats: None,
            };
            every.observe(&point).expect("the closure accepts");
        }
        every.finish().expect("the closure accepts");
        (steps, state)
    }

    #[test]
    fn every_kth_point_and_the_last() {
        assert_eq!(seen(25, 10), (vec![0, 10, 20, 25], (25.0, -25.0)));
        assert_eq!(seen(20, 10), (vec![0, 10, 20], (20.0, -20.0)));
        assert_eq!(seen(3, 1), (vec![0, 1, 2, 3], (3.0, -3.0)));
        assert_eq!(seen(0, 7), (vec![0], (0.0, -0.0)));
    }

    #[test]
    fn a_closure_stops_the_run_with_its_error() {
        let mut closure = Closure(|point: &Point<'_>| {
            if point.step < 2 {
                Ok(())
            } else {
                Err(point.step)
            }
        });
        let point = |step| Point {
            step,
            t: 0.0,
            q: &[],
            p: &[],
            lambda: &[],
            stats: None,
        };
        assert_eq!(closure.observe(&point(1)), Ok(()));
        assert_eq!(closure.observe(&point(2)), Err(2));
    }
}
