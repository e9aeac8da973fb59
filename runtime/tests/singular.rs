//! A singular stage Jacobian is named in the user's terms: the method, the unknown of the
//! column without a pivot (block, stage, coordinate or constraint), and where the direction the
//! stage equations leave undetermined lies. In the singular gauge of Lotka–Volterra
//! (`ϑ = (ln q₂/q₁, 0)`) and on the degenerate pendulum (`ϑ = (q₂, 0)`), `ϑ₂ ≡ 0` leaves the
//! projection force no second component: the SLRK Lobatto IIIA–IIIB and IIIB–IIIA pairs are
//! singular at every step size (seed 000). Measured: for IIIA–IIIB the undetermined direction
//! lies in the unknowns of constraint 2 (`φ₂ = p₂ − ϑ₂`, the vanishing component), for
//! IIIB–IIIA in those of constraint 1 (almost all in its multiplier `μ₁`), each to more than
//! 99 % of its norm.

use nalgebra::SVector;
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::layout::Width;
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problems::{DegeneratePendulum, LotkaVolterra2dSingular};
use sparkgen::run::Method;
use sparkgen::solve;

/// The first step of `method` from `(q₀, ϑ(q₀))` at h = 0.1 fails with a singular stage
/// Jacobian whose undetermined direction lies to more than 99 % in the unknowns of constraint
/// `component`; the message says so.
fn assert_undetermined<P, M, R>(problem: &P, method: M, q0: SVector<f64, 2>, component: usize)
where
    P: DegenerateLagrangian<2>,
    M: Method<P, 2, R>,
{
    let failure = solve(
        problem,
        method,
        q0,
        problem.theta(&q0),
        &Options::new(0.1, 10),
    )
    .expect_err("singular at the first step");
    let message = failure.error.to_string();
    println!("{message}");
    match failure.error {
        IntegrateError::SingularJacobian {
            step: 1,
            ref method,
            undetermined: Some(u),
            ..
        } => {
            assert_eq!(
                (u.width, u.component),
                (Width::Constraints, component),
                "{message}"
            );
            assert!(u.share > 0.99 && u.share <= 1.0, "{message}");
            assert!(message.contains(method.as_str()), "{message}");
            let clause = format!("of constraint {component}");
            assert!(message.contains(&clause), "{message}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn the_undetermined_direction_names_the_constraint_the_equations_leave_free() {
    let lv = LotkaVolterra2dSingular::UPSTREAM;
    let q0 = SVector::from(LotkaVolterra2dSingular::UPSTREAM_Q0);
    assert_undetermined(&lv, SlrkLobattoIIIAB2, q0, 2);
    assert_undetermined(&lv, SlrkLobattoIIIAB3, q0, 2);
    assert_undetermined(&lv, SlrkLobattoIIIAB4, q0, 2);
    assert_undetermined(&lv, SlrkLobattoIIIBA2, q0, 1);
    assert_undetermined(&lv, SlrkLobattoIIIBA3, q0, 1);
    assert_undetermined(&lv, SlrkLobattoIIIBA4, q0, 1);
    let pendulum = DegeneratePendulum;
    let (q0, _) = pendulum.initial();
    assert_undetermined(&pendulum, SlrkLobattoIIIAB3, q0, 2);
    assert_undetermined(&pendulum, SlrkLobattoIIIBA3, q0, 1);
}
