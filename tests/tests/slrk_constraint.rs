//! SLRK holds the primary constraint `φ = p − ϑ(q) = 0` to round-off: Lotka–Volterra, all six
//! families, s = 2, 3, 4, 1000 steps at h = 0.1: `max_n |φ(q_n, p_n)|∞ ≤ 1e-14` at every accepted
//! step. In the SPARK test configuration (`a = (1, 1)`, `b = (−1, −2)`, `q₀ = (1, 1)`, the seed's
//! measurement) all 18 runs finish; on the larger orbit of upstream's defaults (`a = (−1, −1)`,
//! `b = (1, 2)`, `q₀ = (2, 1)`) two order-2 methods do not.
use sparkgen::diagnostics::{max_constraint_residual, max_relative_energy_error};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve;

/// One run: the method, `max |φ|` and the relative energy error over the accepted steps, mean
/// Newton iterations, and the error that stopped the run early, if any.
struct Run {
    name: &'static str,
    phi: f64,
    energy: f64,
    iterations: f64,
    steps: usize,
    error: Option<IntegrateError>,
}

/// A Lotka–Volterra configuration: parameters and `q₀`.
type Configuration = (LotkaVolterra2d, [f64; 2]);

/// The SPARK test configuration, in which the seed measures `max |φ|` over 10³ steps.
const SPARK_TEST: Configuration = (LotkaVolterra2d::SPARK_TEST, LotkaVolterra2d::SPARK_TEST_Q0);

/// Upstream's defaults.
const UPSTREAM: Configuration = (LotkaVolterra2d::UPSTREAM, LotkaVolterra2d::UPSTREAM_Q0);

/// Runs `$method` for 1000 steps at h = 0.1 from the configuration `$config`
/// with Newton tolerance factor `$c`.
macro_rules! run {
    ($method:ident, $config:expr, $c:expr) => {{
        let (lv, q0) = $config;
        let (q0, p0) = lv.initial(q0);
        let mut options = Options::new(0.1, 1000);
        options.newton.tolerance_factor = $c;
        let (solution, error) = match solve(&lv, $method, q0, p0, &options) {
            Ok(solution) => (solution, None),
            Err(failure) => (failure.solution, Some(failure.error)),
        };
        let iterations: usize = solution.stats.iter().map(|s| s.iterations).sum();
        Run {
            name: stringify!($method),
            phi: max_constraint_residual(&lv, &solution).expect("the run holds q₀"),
            energy: max_relative_energy_error(&lv, &solution).expect("H(q₀) ≠ 0"),
            iterations: iterations as f64 / solution.steps().max(1) as f64,
            steps: solution.steps(),
            error,
        }
    }};
}

/// All six families, s = 2, 3, 4.
fn all_runs(config: Configuration, c: f64) -> Vec<Run> {
    vec![
        run!(SlrkLobattoIIIAB2, config, c),
        run!(SlrkLobattoIIIAB3, config, c),
        run!(SlrkLobattoIIIAB4, config, c),
        run!(SlrkLobattoIIIBA2, config, c),
        run!(SlrkLobattoIIIBA3, config, c),
        run!(SlrkLobattoIIIBA4, config, c),
        run!(SlrkLobattoIIICCBar2, config, c),
        run!(SlrkLobattoIIICCBar3, config, c),
        run!(SlrkLobattoIIICCBar4, config, c),
        run!(SlrkLobattoIIICBarC2, config, c),
        run!(SlrkLobattoIIICBarC3, config, c),
        run!(SlrkLobattoIIICBarC4, config, c),
        run!(SlrkLobattoIIID2, config, c),
        run!(SlrkLobattoIIID3, config, c),
        run!(SlrkLobattoIIID4, config, c),
        run!(SlrkLobattoIIIE2, config, c),
        run!(SlrkLobattoIIIE3, config, c),
        run!(SlrkLobattoIIIE4, config, c),
    ]
}

fn print(runs: &[Run], config: Configuration, c: f64) {
    let (lv, q0) = config;
    println!(
        "LV a = ({}, {}), b = ({}, {}), q₀ = {q0:?}, h = 0.1, 1000 steps, Newton tolerance factor c = {c}:",
        lv.a1, lv.a2, lv.b1, lv.b2
    );
    for r in runs {
        let stop = r.error.as_ref().map(|e| format!("  STOPPED: {e}"));
        println!(
            "{:22} steps = {:4}  max|φ| = {:.2e}  max rel. energy error = {:.2e}  Newton its/step = {:.2}{}",
            r.name,
            r.steps,
            r.phi,
            r.energy,
            r.iterations,
            stop.unwrap_or_default()
        );
    }
}

/// The runs of all six families from `config` with the Newton residual tolerance at `c = 1`
/// (`‖r‖₂ ≤ ε·√N·max(1, σ)`) and at the default `c = 2`, printed. Each holds `|φ| ≤ 1e-14` at every
/// accepted step: `φ(q_{n+1}, p_{n+1})` is a row of `r`, so `|φ| ≤ ‖r‖₂ ≤ c·ε·√N·σ`. (With `c = 16`
/// it reached 7e−14.)
fn runs_holding_the_constraint(config: Configuration) -> Vec<Run> {
    let default = sparkgen::solve::NewtonOptions::default().tolerance_factor;
    let mut all = Vec::new();
    for c in [1.0, default] {
        let runs = all_runs(config, c);
        print(&runs, config, c);
        for r in &runs {
            assert!(r.phi <= 1e-14, "{}: max|φ| = {:e}", r.name, r.phi);
        }
        all.extend(runs);
    }
    all
}

/// In the seed's configuration every family finishes the 1000 steps.
#[test]
fn primary_constraint_holds_to_round_off() {
    for r in runs_holding_the_constraint(SPARK_TEST) {
        assert!(r.error.is_none(), "{}: {:?}", r.name, r.error);
        assert_eq!(r.steps, 1000, "{}", r.name);
    }
}

/// Upstream's defaults start on a larger orbit (`|q|∞` up to 4.2 against 3.5 in the SPARK test
/// configuration; both have the equilibrium `(1, 2)`). Two order-2 methods do not finish the 1000
/// steps: their symplecticity defect (the largest of the six, see `slrk_loop_integral`) makes the
/// energy drift by more than 10 % until the stage system fails (IIIAB(2): a Newton iterate leaves
/// `q > 0`, IIIC C̄(2): a singular stage Jacobian); both stop with a typed error.
#[test]
fn on_upstream_defaults_two_order_2_methods_stop_with_a_typed_error() {
    for r in runs_holding_the_constraint(UPSTREAM) {
        match &r.error {
            None => assert_eq!(r.steps, 1000, "{}", r.name),
            Some(error) => {
                assert!(
                    ["SlrkLobattoIIIAB2", "SlrkLobattoIIICCBar2"].contains(&r.name),
                    "{}: {error}",
                    r.name
                );
                assert!(r.energy > 0.1, "{}: energy error {:e}", r.name, r.energy);
            }
        }
    }
}
