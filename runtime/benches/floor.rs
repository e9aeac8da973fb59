//! Per-step cost against its floor: `cargo bench -p sparkgen --bench floor`.
//!
//! Cases: SLRK Lobatto IIIE(3) (N = 14) and VPRK Gauss(3) (N = 6) on Lotka–Volterra 2d (upstream
//! defaults, h = 0.1), and RATTLE Lobatto IIIA–IIIB(3) (N = 9) on the Cartesian pendulum
//! (m = g = ℓ = 1, θ₀ = 1, h = 0.1). For each case, timed alone:
//!
//! - `step_*`: `STEPS` steps per sample through the runtime's stepper (divan's item throughput is
//!   steps per second): `step_full` full Newton with the exact Jacobian, `step_simplified`
//!   simplified Newton (one exact Jacobian and LU per step unless the contraction is poor, see
//!   `JacobianUpdate::Simplified`), `step_fd` / `step_fd_simplified` the same two with a
//!   forward-difference Jacobian of the generated residual (what run-time differentiating codes
//!   pay; `N + 1` residual evaluations per Jacobian);
//! - `residual`, `jacobian`, `fd_jacobian`: one evaluation at the converged unknowns of the
//!   first step; `lu`: one factorisation and solve of that Jacobian (`Lu`), `lu_solve` the
//!   solve alone (what a simplified-Newton iteration pays besides the residual); `lu_dense` and
//!   `lu_reduced` the same at run-time size as the stepper's Newton factors it, the whole
//!   Jacobian (`LinearSolve::Lu`, what the default takes below `STATIC_PIVOTS_FROM` unknowns)
//!   or after the method's static pivots (`LinearSolve::StaticPivots`, `ReducedLu`);
//! - `update`: the explicit update `(q₁, p₁) = Ψ(x)`; `vector_field` (Lotka–Volterra): the
//!   linear solve `Ω(q) v = −∇H(q)` of the initial guess.
//!
//! The floor of a full-Newton step is `iterations × (residual + jacobian + lu)`; the mean Newton iterations
//! per step and the final residuals of each variant are printed before the benchmarks.
//! Smoke mode: `cargo test -p sparkgen --benches` runs every benchmark once.
use divan::Bencher;
use divan::counter::ItemsCount;
use sparkgen::generated::steppers::{RattleLobattoIIIAIIIB3, SlrkLobattoIIIE3, VprkGauss3};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::integrate::{Compiled, Driver, vector_field};
use sparkgen::layout::{Dims, Elimination, Layout};
use sparkgen::problem::Vector;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::rows::{RowMajor, TangentRows};
use sparkgen::solution::StepStats;
use sparkgen::solve::{
    Dynamic, Fixed, JacobianUpdate, Lu, NewtonOptions, ReducedLu, SingularMatrix,
};
use sparkgen::stage::{MultiplierUpdate, StageMethod};
use std::marker::PhantomData;

/// Steps per sample of the `step_*` benchmarks.
const STEPS: usize = 100;
/// Step size of every case.
const H: f64 = 0.1;
/// The pendulum of the RATTLE case.
const PENDULUM: Pendulum = Pendulum {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};
/// Its initial angle from the downward vertical (at rest).
const THETA0: f64 = 1.0;

/// The most unknowns of the methods benchmarked with a forward-difference Jacobian.
const MAX_UNKNOWNS: usize = 64;

/// The stage method `M` with its Jacobian replaced by forward differences of its residual,
/// `∂r/∂x_k ≈ (r(x + δ_k e_k) − r(x))/δ_k`, `δ_k = √ε·max(1, |x_k|)`.
struct ForwardDifference<M>(PhantomData<M>);

impl<M: StageMethod<P, D>, P, const D: usize> StageMethod<P, D> for ForwardDifference<M> {
    type Kind = M::Kind;
    const NAME: &'static str = M::NAME;
    const ORDER: usize = M::ORDER;
    const NODES: &'static [f64] = M::NODES;
    const UNKNOWNS: Layout = M::UNKNOWNS;
    const RESIDUALS: Layout = M::RESIDUALS;
    const DIMS: Dims = M::DIMS;
    const RANK_DEFICIENT: bool = M::RANK_DEFICIENT;
    const MULTIPLIER: Option<MultiplierUpdate> = M::MULTIPLIER;

    fn residual(
        problem: &P,
        h: f64,
        q: &Vector<D>,
        p: &Vector<D>,
        lambda: &[f64],
        x: &[f64],
        r: &mut [f64],
    ) {
        M::residual(problem, h, q, p, lambda, x, r);
    }

    fn jacobian(
        problem: &P,
        h: f64,
        q: &Vector<D>,
        p: &Vector<D>,
        lambda: &[f64],
        x: &[f64],
        j: &mut RowMajor<'_>,
    ) {
        // Stack buffers, as the exact Jacobian has none on the heap either.
        let n = x.len();
        let (mut r0, mut shifted, mut r) = (
            [0.0; MAX_UNKNOWNS],
            [0.0; MAX_UNKNOWNS],
            [0.0; MAX_UNKNOWNS],
        );
        let (r0, shifted, r) = (&mut r0[..n], &mut shifted[..n], &mut r[..n]);
        M::residual(problem, h, q, p, lambda, x, r0);
        shifted.copy_from_slice(x);
        for k in 0..n {
            shifted[k] = x[k] + f64::EPSILON.sqrt() * x[k].abs().max(1.0);
            // The step actually taken in floating point.
            let delta = shifted[k] - x[k];
            M::residual(problem, h, q, p, lambda, shifted, r);
            for (i, (ri, r0i)) in r.iter().zip(r0.iter()).enumerate() {
                j.row_mut(i)[k] = (ri - r0i) / delta;
            }
            shifted[k] = x[k];
        }
    }

    fn tangent(
        problem: &P,
        h: f64,
        q: &Vector<D>,
        p: &Vector<D>,
        lambda: &[f64],
        x: &[f64],
        t: &mut TangentRows<'_>,
    ) {
        M::tangent(problem, h, q, p, lambda, x, t);
    }

    fn update(
        problem: &P,
        h: f64,
        q: &Vector<D>,
        p: &Vector<D>,
        lambda: &[f64],
        x: &[f64],
    ) -> (Vector<D>, Vector<D>) {
        M::update(problem, h, q, p, lambda, x)
    }
}

/// Newton statistics of a run.
#[derive(Default)]
struct Tally {
    iterations: usize,
    largest_residual: f64,
    residual_sum: f64,
}

impl Tally {
    fn add(&mut self, stats: &StepStats) {
        self.iterations += stats.iterations;
        self.largest_residual = self.largest_residual.max(stats.residual);
        self.residual_sum += stats.residual;
    }

    fn print(&self, case: &str, variant: &str) {
        println!(
            "{case:22} {variant:14} Newton its/step = {:.2}  final ‖r‖₂: mean {:.2e}, max {:.2e}",
            self.iterations as f64 / STEPS as f64,
            self.residual_sum / STEPS as f64,
            self.largest_residual
        );
    }
}

/// Newton options with the given Jacobian update.
fn newton(jacobian: JacobianUpdate) -> NewtonOptions {
    NewtonOptions {
        jacobian,
        ..NewtonOptions::default()
    }
}

/// `STEPS` steps of `M` on `problem` from `(q, p)`.
fn run_steps<M: StageMethod<P, 2>, P>(
    problem: &P,
    (mut q, mut p): (Vector<2>, Vector<2>),
    options: NewtonOptions,
) -> Result<Tally, sparkgen::error::IntegrateError> {
    let mut driver = Driver::new(Compiled::<M, _, 2>::sized(problem)?, H, options)?;
    let mut tally = Tally::default();
    for n in 0..STEPS {
        let stats = driver.step(q.as_slice(), p.as_slice(), n + 1, n as f64 * H)?;
        tally.add(&stats);
        let (q1, p1) = driver.state();
        q.copy_from_slice(q1);
        p.copy_from_slice(p1);
    }
    Ok(tally)
}

/// `STEPS` steps of `M` on Lotka–Volterra from the upstream initial data.
fn run_lv<M: StageMethod<LotkaVolterra2d, 2>>(
    lv: &LotkaVolterra2d,
    options: NewtonOptions,
) -> Result<Tally, sparkgen::error::IntegrateError> {
    run_steps::<M, _>(lv, lv.initial(LotkaVolterra2d::UPSTREAM_Q0), options)
}

/// `STEPS` steps of `M` on the pendulum from rest at `THETA0`.
fn run_pendulum<M: StageMethod<Pendulum, 2>>(
    pendulum: &Pendulum,
) -> Result<Tally, sparkgen::error::IntegrateError> {
    run_steps::<M, _>(
        pendulum,
        pendulum.state(THETA0, 0.0),
        NewtonOptions::default(),
    )
}

/// The state `(q, p)` and the converged unknowns of the first step of `M` on `problem` from it.
fn first_step<M: StageMethod<P, 2>, P, const N: usize>(
    problem: &P,
    (q, p): (Vector<2>, Vector<2>),
) -> (Vector<2>, Vector<2>, [f64; N]) {
    let equations = Compiled::<M, _, 2>::sized(problem).expect("a small system");
    let mut driver = Driver::new(equations, H, NewtonOptions::default()).expect("valid step size");
    driver
        .step(q.as_slice(), p.as_slice(), 1, 0.0)
        .expect("the first step converges");
    let x = driver.unknowns().try_into().expect("N unknowns");
    (q, p, x)
}

/// The state and converged unknowns of the first step of `M` on Lotka–Volterra.
fn lv_first_step<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>(
    lv: &LotkaVolterra2d,
) -> (Vector<2>, Vector<2>, [f64; N]) {
    first_step::<M, _, N>(lv, lv.initial(LotkaVolterra2d::UPSTREAM_Q0))
}

/// The state and converged unknowns of the first step of `M` on the pendulum.
fn pendulum_first_step<M: StageMethod<Pendulum, 2>, const N: usize>(
    pendulum: &Pendulum,
) -> (Vector<2>, Vector<2>, [f64; N]) {
    first_step::<M, _, N>(pendulum, pendulum.state(THETA0, 0.0))
}

/// The parts of a step of `M` timed alone at `(q, p, x)`: residual, exact and forward-difference
/// Jacobians, LU factor and solve, update.
fn residual<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    (q, p, x): (Vector<2>, Vector<2>, [f64; N]),
) {
    bencher.bench_local(|| {
        let mut r = [0.0; N];
        M::residual(problem, H, &q, &p, &[], divan::black_box(&x), &mut r);
        r
    });
}

fn jacobian<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    (q, p, x): (Vector<2>, Vector<2>, [f64; N]),
) {
    bencher.bench_local(|| {
        let mut j = [[0.0; N]; N];
        M::jacobian(
            problem,
            H,
            &q,
            &p,
            &[],
            divan::black_box(&x),
            &mut RowMajor::of(&mut j),
        );
        j
    });
}

/// The exact stage Jacobian at `(q, p, x)`.
fn stage_jacobian<M: StageMethod<P, 2>, P, const N: usize>(
    problem: &P,
    (q, p, x): &(Vector<2>, Vector<2>, [f64; N]),
) -> [[f64; N]; N] {
    let mut j = [[0.0; N]; N];
    M::jacobian(problem, H, q, p, &[], x, &mut RowMajor::of(&mut j));
    j
}

/// `J⁻¹ b` for a right-hand side of the size of a Newton update's.
fn solved<const N: usize>(lu: &Lu<Fixed<N>>) -> [f64; N] {
    let mut dx = divan::black_box([1e-3; N]);
    lu.solve_in_place(&mut dx);
    dx
}

fn lu<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    state: (Vector<2>, Vector<2>, [f64; N]),
) {
    let j = stage_jacobian::<M, P, N>(problem, &state);
    bencher.bench_local(|| Lu::factor(divan::black_box(&j)).map(|lu| solved(&lu)));
}

/// The static pivots of `M` (none for a method without).
fn elimination<M: StageMethod<P, 2>, P>() -> Elimination<'static> {
    Elimination {
        pivots: M::ELIMINATION,
        unknowns: M::UNKNOWNS,
        residuals: M::RESIDUALS,
        dims: M::DIMS,
    }
}

/// Times `factor_and_solve(J, b)` at the method's Jacobian `J` and a right-hand side of the
/// size of a Newton update's.
fn factored_solve<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    state: (Vector<2>, Vector<2>, [f64; N]),
    mut factor_and_solve: impl FnMut(&[f64], &mut [f64]) -> Result<(), SingularMatrix>,
) {
    let j = stage_jacobian::<M, P, N>(problem, &state);
    bencher.bench_local(|| {
        let mut dx = divan::black_box([1e-3; N]);
        factor_and_solve(divan::black_box(j.as_flattened()), &mut dx).map(|()| dx)
    });
}

fn lu_dense<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    state: (Vector<2>, Vector<2>, [f64; N]),
) {
    let mut lu = Lu::new(Dynamic::new(N).expect("a small system"));
    factored_solve::<M, P, N>(bencher, problem, state, |j, b| {
        lu.refactor(j)?;
        lu.solve_in_place(b);
        Ok(())
    });
}

fn lu_reduced<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    state: (Vector<2>, Vector<2>, [f64; N]),
) {
    let pivots = elimination::<M, P>().scalar_pivots().collect::<Vec<_>>();
    let space = Dynamic::new(N).expect("a small system");
    let mut lu = ReducedLu::new(space, pivots).expect("the method's pivots fit");
    factored_solve::<M, P, N>(bencher, problem, state, |j, b| {
        lu.refactor(j)?;
        lu.solve_in_place(b);
        Ok(())
    });
}

fn lu_solve<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    state: (Vector<2>, Vector<2>, [f64; N]),
) {
    let lu = Lu::factor(&stage_jacobian::<M, P, N>(problem, &state)).expect("regular Jacobian");
    bencher.bench_local(|| solved(&lu));
}

fn update<M: StageMethod<P, 2>, P, const N: usize>(
    bencher: Bencher,
    problem: &P,
    (q, p, x): (Vector<2>, Vector<2>, [f64; N]),
) {
    bencher.bench_local(|| M::update(problem, H, &q, &p, &[], divan::black_box(&x)));
}

/// Defines one benchmark per listed part of a step (`residual`, `jacobian`, `lu`, `lu_solve`,
/// `update`, the functions of the same name) of `$method` (`$n` unknowns) on `$problem` at
/// `$state` (state and converged unknowns).
macro_rules! parts {
    ($method:ty, $n:expr, $problem:expr, $state:expr, [$($part:ident),*]) => {
        $(
            #[divan::bench]
            fn $part(bencher: Bencher) {
                super::$part::<$method, _, $n>(bencher, &$problem, $state);
            }
        )*
    };
}

/// The benchmarks of one Lotka–Volterra case, in a module named after it.
macro_rules! lv_case {
    ($module:ident, $method:ty, $n:literal) => {
        mod $module {
            use super::*;
            type Fd = ForwardDifference<$method>;
            const LV: LotkaVolterra2d = LotkaVolterra2d::UPSTREAM;

            fn steps<M: StageMethod<LotkaVolterra2d, 2>>(bencher: Bencher, j: JacobianUpdate) {
                bencher
                    .counter(ItemsCount::new(STEPS))
                    .bench(|| run_lv::<M>(divan::black_box(&LV), newton(j)).map(|t| t.iterations));
            }

            #[divan::bench]
            fn step_full(bencher: Bencher) {
                steps::<$method>(bencher, JacobianUpdate::EveryIteration);
            }

            #[divan::bench]
            fn step_simplified(bencher: Bencher) {
                steps::<$method>(bencher, JacobianUpdate::Simplified);
            }

            #[divan::bench]
            fn step_fd(bencher: Bencher) {
                steps::<Fd>(bencher, JacobianUpdate::EveryIteration);
            }

            #[divan::bench]
            fn step_fd_simplified(bencher: Bencher) {
                steps::<Fd>(bencher, JacobianUpdate::Simplified);
            }

            parts!(
                $method,
                $n,
                LV,
                lv_first_step::<$method, $n>(&LV),
                [
                    residual, jacobian, lu, lu_dense, lu_reduced, lu_solve, update
                ]
            );

            #[divan::bench]
            fn fd_jacobian(bencher: Bencher) {
                super::jacobian::<Fd, _, $n>(bencher, &LV, lv_first_step::<$method, $n>(&LV));
            }

            /// The initial guess's linear solve `Ω(q) v = −∇H(q)`.
            #[divan::bench]
            fn vector_field(bencher: Bencher) {
                let (q, _) = LV.initial(LotkaVolterra2d::UPSTREAM_Q0);
                bencher.bench_local(|| super::vector_field(&LV, divan::black_box(&q)));
            }

            /// Prints the Newton statistics of each variant.
            pub fn print() {
                let name = <$method as StageMethod<LotkaVolterra2d, 2>>::NAME;
                for (variant, result) in [
                    (
                        "full",
                        run_lv::<$method>(&LV, newton(JacobianUpdate::EveryIteration)),
                    ),
                    (
                        "simplified",
                        run_lv::<$method>(&LV, newton(JacobianUpdate::Simplified)),
                    ),
                    (
                        "fd",
                        run_lv::<Fd>(&LV, newton(JacobianUpdate::EveryIteration)),
                    ),
                    (
                        "fd simplified",
                        run_lv::<Fd>(&LV, newton(JacobianUpdate::Simplified)),
                    ),
                ] {
                    match result {
                        Ok(tally) => tally.print(name, variant),
                        Err(error) => println!("{name:22} {variant:14} FAILED: {error}"),
                    }
                }
            }
        }
    };
}

lv_case!(slrk_lobatto_iiie3, SlrkLobattoIIIE3, 14);
lv_case!(vprk_gauss3, VprkGauss3, 6);

/// RATTLE Lobatto IIIA–IIIB(3) on the pendulum (exact Jacobian, the runtime's default Newton
/// variant, as the holonomic runs of `solve` use it).
mod rattle_lobatto_iiiaiiib3 {
    use super::*;
    type Method = RattleLobattoIIIAIIIB3<1>;
    const N: usize = 9;

    #[divan::bench]
    fn step(bencher: Bencher) {
        bencher
            .counter(ItemsCount::new(STEPS))
            .bench(|| run_pendulum::<Method>(divan::black_box(&PENDULUM)).map(|t| t.iterations));
    }

    parts!(
        Method,
        N,
        PENDULUM,
        pendulum_first_step::<Method, N>(&PENDULUM),
        [residual, jacobian, lu, lu_solve, update]
    );

    /// Prints the Newton statistics (with the default Jacobian update, named).
    pub fn print() {
        let name = <Method as StageMethod<Pendulum, 2>>::NAME;
        let variant = format!("{:?}", NewtonOptions::default().jacobian);
        match run_pendulum::<Method>(&PENDULUM) {
            Ok(tally) => tally.print(name, &variant),
            Err(error) => println!("{name:22} {variant:14} FAILED: {error}"),
        }
    }
}

fn main() {
    slrk_lobatto_iiie3::print();
    vprk_gauss3::print();
    rattle_lobatto_iiiaiiib3::print();
    divan::main();
}
