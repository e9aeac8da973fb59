//! The exact stage Jacobian of every generated implicit-DAE stepper agrees with central
//! differences of its residual (`support/fd.rs`) on the view `LagrangianDae` of Lotka–Volterra
//! (`M = 2`, states `q ∈ [1, 2]²`, `p = ϑ(q) + [−0.1, 0.1]²`) and on the index-2 pendulum
//! (`M = 1`, `q` on the circle, `p` random in `[−1, 1]²`); likewise every Hamiltonian-DAE
//! stepper (HSPARK, HPARK) on the view `DiracHamiltonian` of Lotka–Volterra.
#[path = "support/fd.rs"]
mod fd;

use fd::{Rng, largest_discrepancy};
use nalgebra::SVector;
use sparkgen::layout::Dims;
use sparkgen::problem::{DegenerateLagrangian, DiracHamiltonian, LagrangianDae};
use sparkgen::problems::{IndexTwoPendulum, LotkaVolterra2d};

macro_rules! implicit_steppers {
    (
        degenerate: [$($d:tt),* $(,)?],
        holonomic: [$($h:tt),* $(,)?],
        implicit: [$(($ty:ident, $family:literal, $s:literal, $order:literal, $pair:literal, $facts:expr)),* $(,)?],
        hamiltonian: [$(($hty:ident, $hfamily:literal, $hs:literal, $horder:literal, $hpair:literal, $hfacts:expr)),* $(,)?] $(,)?
    ) => {
        /// States `q ∈ [1, 2]²`, `p = ϑ(q) + [−0.1, 0.1]²` of Lotka–Volterra (upstream's gauge).
        fn lv_state(rng: &mut Rng) -> (SVector<f64, 2>, SVector<f64, 2>) {
            let q = SVector::from([rng.uniform(1.0, 2.0), rng.uniform(1.0, 2.0)]);
            let noise = SVector::from([rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1)]);
            (q, LotkaVolterra2d::UPSTREAM.theta(&q) + noise)
        }

        /// Checks every Hamiltonian-DAE stepper; returns (name, largest discrepancy).
        fn check_hamiltonian(rng: &mut Rng) -> Vec<(&'static str, f64)> {
            let view = DiracHamiltonian(LotkaVolterra2d::UPSTREAM);
            vec![$({
                type Lv = sparkgen::generated::steppers::$hty<2>;
                (stringify!($hty), largest_discrepancy::<
                    Lv, _, { Lv::UNKNOWN_LAYOUT.len(Dims::new(2, 2)) }
                >(&view, rng, lv_state))
            }),*]
        }

        /// Checks every implicit-DAE stepper; returns (name, largest discrepancy) per problem.
        fn check_all(rng: &mut Rng) -> Vec<(&'static str, f64)> {
            let lv = LagrangianDae(LotkaVolterra2d::UPSTREAM);
            let pendulum = IndexTwoPendulum::default();
            let pendulum_state = |rng: &mut Rng| {
                let angle = rng.uniform(-3.0, 3.0);
                let q = SVector::from([angle.sin(), -angle.cos()]);
                (q, SVector::from([rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)]))
            };
            let mut out = Vec::new();
            $({
                type Lv = sparkgen::generated::steppers::$ty<2>;
                type Pendulum = sparkgen::generated::steppers::$ty<1>;
                out.push((stringify!($ty), largest_discrepancy::<
                    Lv, _, { Lv::UNKNOWN_LAYOUT.len(Dims::new(2, 2)) }
                >(&lv, rng, lv_state)));
                out.push((stringify!($ty), largest_discrepancy::<
                    Pendulum, _, { Pendulum::UNKNOWN_LAYOUT.len(Dims::new(2, 1)) }
                >(&pendulum, rng, pendulum_state)));
            })*
            out
        }
    };
}

sparkgen::generated::for_each_stepper!(implicit_steppers);

#[test]
fn exact_jacobians_of_implicit_dae_steppers_match_central_differences() {
    let worst = check_all(&mut Rng(0x1dae));
    assert_eq!(
        worst.len(),
        2 * sparkgen::cli::registry::IMPLICIT_STEPPERS.len()
    );
    let (name, e) = worst
        .iter()
        .fold(("", 0.0f64), |a, b| if b.1 > a.1 { *b } else { a });
    println!("largest |J_fd − J|_max / max(1, |J|_max): {e:.2e} ({name})");
}

#[test]
fn exact_jacobians_of_hamiltonian_dae_steppers_match_central_differences() {
    let worst = check_hamiltonian(&mut Rng(0x4dae));
    assert_eq!(
        worst.len(),
        sparkgen::cli::registry::HAMILTONIAN_STEPPERS.len()
    );
    let (name, e) = worst
        .iter()
        .fold(("", 0.0f64), |a, b| if b.1 > a.1 { *b } else { a });
    println!("largest |J_fd − J|_max / max(1, |J|_max): {e:.2e} ({name})");
}
