//! `sparkgen`: without arguments, integrates the default problem (Lotka–Volterra 2d with
//! SLRKLobattoIIIE(3), h = 0.1, 10⁴ steps) and prints a summary; `sparkgen catalogue` prints the
//! tableau catalogue with declared and computed properties.
//!
//! (The full command line — `run`, `verify`, `methods`, `tableau` — comes with issue 6.)

use sparkgen::diagnostics::{max_constraint_residual, max_relative_energy_error};
use sparkgen::generated::catalogue::{PAIRS, TABLEAUS};
use sparkgen::generated::steppers::SlrkLobattoIIIE3;
use sparkgen::generated::{Properties, RInfinity};
use sparkgen::integrate::{Options, integrate};
use sparkgen::problems::LotkaVolterra2d;
use std::process::ExitCode;
use std::time::Instant;

fn r_inf(r: RInfinity) -> String {
    match r {
        RInfinity::Finite(v) => v.to_string(),
        RInfinity::Infinite => "∞".to_owned(),
    }
}

fn row(p: &Properties) -> String {
    format!(
        "{:>2} {:>2} {:>2} {:>2} {:^5} {:^5} {:>3}",
        p.order,
        p.b,
        p.c,
        p.d,
        if p.symplectic { "yes" } else { "no" },
        if p.symmetric { "yes" } else { "no" },
        r_inf(p.r_infinity)
    )
}

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        None => run_default(),
        Some("catalogue") => {
            catalogue();
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("error: unknown command `{other}` (usage: sparkgen [catalogue])");
            ExitCode::from(2)
        }
    }
}

/// Lotka–Volterra 2d (upstream defaults) with SLRKLobattoIIIE(3), h = 0.1, 10⁴ steps.
fn run_default() -> ExitCode {
    let (h, steps) = (0.1, 10_000);
    let problem = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = problem.initial(LotkaVolterra2d::UPSTREAM_Q0);
    println!(
        "Lotka–Volterra 2d, a = (−1, −1), b = (1, 2), q₀ = (2, 1); SLRKLobattoIIIE(3), h = {h}, {steps} steps"
    );
    let start = Instant::now();
    let result = integrate::<SlrkLobattoIIIE3, _, 2, 14>(&problem, q0, p0, &Options::new(h, steps));
    let elapsed = start.elapsed().as_secs_f64();
    let solution = match result {
        Ok(s) => s,
        Err(failure) => {
            eprintln!("error: {failure}");
            return ExitCode::FAILURE;
        }
    };
    let measured = max_constraint_residual(&problem, &solution)
        .and_then(|phi| Ok((phi, max_relative_energy_error(&problem, &solution)?)));
    let (phi, energy) = match measured {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let iterations: usize = solution.stats.iter().map(|s| s.iterations).sum();
    let (q, p) = (solution.q[steps], solution.p[steps]);
    println!("steps per second           {:.3e}", steps as f64 / elapsed);
    println!(
        "Newton iterations per step {:.3}",
        iterations as f64 / steps as f64
    );
    println!("max |p − ϑ(q)|             {phi:.3e}");
    println!("max relative energy error  {energy:.3e}");
    println!(
        "final state t = {:.1}: q = ({:.15}, {:.15}), p = ({:.15}, {:.15})",
        solution.t[steps], q[0], q[1], p[0], p[1]
    );
    ExitCode::SUCCESS
}

fn catalogue() {
    println!("sparkgen tableau catalogue: declared | computed in 256-bit working precision");
    println!(
        "{:<20} {:<31} {:<31} exact",
        "tableau", "p  B  C  D sympl symm R∞", "p  B  C  D sympl symm R∞"
    );
    let mut disagreements = 0;
    for e in TABLEAUS {
        if e.declared != e.computed {
            disagreements += 1;
        }
        println!(
            "{:<20} {:<31} {:<31} {}",
            e.name,
            row(&e.declared),
            row(&e.computed),
            if e.exact_rational { "rational" } else { "MPFR" }
        );
        for note in e.upstream {
            println!("{:<20}   note: {note}", "");
        }
    }
    println!();
    println!(
        "{:<26} {:>8} {:>8} {:^9} {:^9}",
        "partitioned pair", "declared", "computed", "symplectic", "symmetric"
    );
    for p in PAIRS {
        if p.declared_order != p.computed_order {
            disagreements += 1;
        }
        println!(
            "{:<26} {:>8} {:>8} {:^10} {:^9}",
            p.name,
            p.declared_order,
            p.computed_order,
            if p.symplectic { "yes" } else { "no" },
            if p.symmetric { "yes" } else { "no" }
        );
    }
    println!();
    println!(
        "{} tableaus, {} pairs, {} SPARK coefficient arrays; declared ≠ computed: {disagreements}",
        TABLEAUS.len(),
        PAIRS.len(),
        sparkgen::generated::spark::ALL.len()
    );
}
