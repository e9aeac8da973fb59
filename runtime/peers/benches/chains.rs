//! Hanging chains against OpenMM: time per step, constraint error and energy drift of our RATTLE
//! and of OpenMM's VerletIntegrator, side by side in one run: `cargo bench -p sparkgen-peers
//! --bench chains`.
//!
//! The chain is the one of `runtime/benches/distance_chain.rs`: N particles of unit mass in the
//! plane at the lower ends of N links of unit length, link 1 hanging from a fixed pivot at the
//! origin, gravity g = 1 along −y (V = g Σ_k m_k y_k), H = ½ Σ_k |p_k|²/m_k + V, the constraints
//! |x_k − x_{k−1}| = ℓ (x₀ the pivot). The initial state ([`links`]) is a smooth bend, link k at
//! the angle θ_k = ½ sin(π (k + ½)/N) from the downward vertical, at rest except the last link,
//! which turns at the rate ½; it satisfies the position and the velocity constraints.
//!
//! - ours: [`DistanceRattle`] (RATTLE, default [`Tolerances`]: position tolerance 4ε relative to
//!   the chain's extent, simplified Newton for the multipliers on the tridiagonal Gram matrix),
//!   h = 2·10⁻³, single-threaded;
//! - OpenMM (Python package, CPU platform with `Threads = 1`): `runtime/peers/openmm/chain.py`,
//!   run as a subprocess with the state on its stdin: the same chain as an OpenMM `System`
//!   (N + 1 particles, the pivot a particle of mass 10²⁰, since OpenMM refuses a constraint on a
//!   massless particle, its way of fixing one; one distance constraint per link,
//!   gravity as a `CustomExternalForce`), `VerletIntegrator(h)` with the same h, constraint
//!   tolerances 10⁻⁵, 10⁻⁸, 10⁻¹⁰ and 10⁻¹², each without and with an "angle hint" (a
//!   `HarmonicAngleForce` of force constant 0 at the initial angles, which OpenMM's CCMA needs
//!   to couple the constraints; the script's documentation says why).
//!
//! Same initial state. OpenMM's VerletIntegrator is a leapfrog: its velocities lie half a step
//! behind its positions. RATTLE's positions are those of SHAKE, q_{n+1} = q_n + h M⁻¹p_{n+½}
//! with p_{n+½} = p_n − (h/2)(∇V(q_n) + G(q_n)ᵀλ), and a leapfrog with the velocity v_{−½}
//! makes the same first position step exactly when v_{−½} = M⁻¹p₀ + (h/2) M⁻¹∇V(q₀) up to a
//! multiple of the constraint normals G(q₀)ᵀ, which the constraint solve absorbs. So OpenMM gets
//! x₀ = q₀ and v_{−½} = p₀ + (h/2)(0, g) per particle (unit masses), and both codes compute the
//! same positions q_n up to their constraint tolerances; the bench prints |q_N − x_N|∞ at the end
//! of the run as the check. OpenMM's energy at t = 0 (its kinetic energy is that of the
//! velocities shifted by half a step and projected onto the constraints) is then H(q₀, p₀).
//!
//! Measured for each N ∈ {64, 256, 1024} over T = 1 ([`STEPS`] steps of h):
//!
//! - time per step: the median over [`REPEATS`] runs, each from the initial state after
//!   [`WARMUP`] untimed steps, of the wall time of the [`STEPS`] steps divided by the steps
//!   (OpenMM: one `integrator.step(STEPS)` call, timed in Python with `time.perf_counter`);
//! - constraint error: the maximum over the steps of an untimed run (t = 0 included) of
//!   max_k | |x_k − x_{k−1}| − ℓ |, from the positions after every step (a NaN is kept: the
//!   maximum is NaN);
//! - energy drift: the maximum over the same steps of the relative drift |E − E₀|/|E₀| (E₀ is far
//!   from 0: −1952 for N = 64), E = H(q, p) for ours and OpenMM's reported potential plus
//!   kinetic energy for OpenMM.
//!
//! The ratio is OpenMM's time per step over ours. OpenMM's tolerance bounds the relative length
//! error of each constraint, ||x_k − x_{k−1}| − ℓ| ≤ tol ℓ when CCMA converges; ours stops at
//! round-off, so our error is to be at or below OpenMM's tightest tolerance, 10⁻¹².
//!
//! OpenMM comes from PyPI into the virtual environment `target/openmm-venv` (or where
//! `SPARKGEN_OPENMM_VENV` says), made with `python3 -m venv` and `pip install` [`OPENMM`] the
//! first time (the bench prints how long that took); if that fails the bench exits with the
//! reason.
//!
//! Smoke mode (`cargo test -p sparkgen-peers --benches`, no `--bench` argument): both sides on
//! the chain of 64 links for [`SMOKE_STEPS`] steps, one timed repeat, the install included;
//! nothing about speed is checked, the constraint errors are: ours at most [`OUR_ERROR_BOUND`],
//! OpenMM's with the angle hint at most 2·tol + [`OPENMM_ROUND_OFF`] (CCMA stops when every
//! (1 − tol)² ≤ |x_k − x_{k−1}|²/ℓ² ≤ (1 + tol)², i.e. ||x_k − x_{k−1}| − ℓ| ≤ tol·ℓ; the factor 2
//! and the round-off term are margins for the rounding of that test and of ours). Without the
//! hint CCMA stops at its iteration cap above the tighter tolerances; its error is only checked
//! to be finite and below 10⁻³.

use serde::Deserialize;
use sparkgen::holonomic::Tolerances;
use sparkgen::holonomic::distance::{
    DistanceConstraints, DistanceRattle, Gravity, planar_chain, planar_chain_state,
};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;
#[path = "../../benches/support/chain_shape.rs"]
mod chain_shape;
use chain_shape::links;

/// The step size of both codes.
const H: f64 = 2e-3;
/// Gravity, masses and link lengths.
const G: f64 = 1.0;
const MASS: f64 = 1.0;
const LENGTH: f64 = 1.0;
/// Steps of a run: T = 1.
const STEPS: usize = 500;
/// The chains.
const LINKS: [usize; 3] = [64, 256, 1024];
/// OpenMM's constraint tolerances.
const TOLERANCES: [f64; 4] = [1e-5, 1e-8, 1e-10, 1e-12];
/// Timed runs per point (the median is reported).
const REPEATS: usize = 7;
/// Untimed steps before each timed run.
const WARMUP: usize = 2;
/// The smoke run's steps.
const SMOKE_STEPS: usize = 50;
/// Our constraint error in smoke mode is at most this.
const OUR_ERROR_BOUND: f64 = 1e-12;
/// Round-off allowance of OpenMM's constraint error (positions of size up to N = 64).
const OPENMM_ROUND_OFF: f64 = 1e-13;
/// What `pip install` installs: the version measured in BENCHMARKS.md.
const OPENMM: &str = "openmm==8.6.1";
/// OpenMM's side, relative to this package.
const SCRIPT: &str = "openmm/chain.py";

/// The chain of `n` links and its initial state `(q₀, p₀)`.
fn chain(n: usize) -> (DistanceConstraints<Gravity>, Vec<f64>, Vec<f64>) {
    let chain = planar_chain(n, MASS, LENGTH, G).expect("valid chain");
    let (q, p) = planar_chain_state(MASS, LENGTH, &links(n));
    (chain, q.as_slice().to_vec(), p.as_slice().to_vec())
}

/// The maximum of `a` and `b`, NaN if either is (`f64::max` would drop it).
fn max_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// max_k | |x_k − x_{k−1}| − ℓ | of the planar positions `q = (x₁, y₁, …)`, x₀ the pivot at the
/// origin.
fn constraint_error(q: &[f64]) -> f64 {
    let mut previous = [0.0, 0.0];
    q.chunks_exact(2).fold(0.0, |error, x| {
        let d = (x[0] - previous[0]).hypot(x[1] - previous[1]);
        previous = [x[0], x[1]];
        max_nan(error, (d - LENGTH).abs())
    })
}

/// The median of `values` (not empty).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let m = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[m]
    } else {
        0.5 * (sorted[m - 1] + sorted[m])
    }
}

/// Our side of one chain.
struct Ours {
    ns_per_step: Vec<f64>,
    max_constraint_error: f64,
    max_energy_drift: f64,
    energy0: f64,
    final_q: Vec<f64>,
    iterations_per_step: f64,
}

/// Our RATTLE on the chain of `n` links: an untimed run of `steps` steps measuring the errors,
/// then `repeats` timed runs.
fn run_ours(n: usize, steps: usize, repeats: usize) -> Result<Ours, String> {
    let (chain, q0, p0) = chain(n);
    let start = |q: &[f64], p: &[f64]| -> Result<_, String> {
        let rattle = DistanceRattle::new(&chain, H, Tolerances::default())
            .map_err(|e| format!("our stepper for {n} links: {e}"))?;
        Ok((rattle, q.to_vec().into(), p.to_vec().into()))
    };
    let (mut rattle, mut q, mut p) = start(&q0, &p0)?;
    let energy0 = chain.hamiltonian(&q, &p);
    let (mut error, mut drift, mut iterations) = (constraint_error(q.as_slice()), 0.0, 0);
    for step in 1..=steps {
        let stats = (rattle.step(&mut q, &mut p))
            .map_err(|e| format!("our RATTLE on {n} links, step {step}: {e}"))?;
        iterations += stats.iterations;
        error = max_nan(error, constraint_error(q.as_slice()));
        drift = max_nan(
            drift,
            ((chain.hamiltonian(&q, &p) - energy0) / energy0).abs(),
        );
    }
    let final_q = q.as_slice().to_vec();
    let mut ns_per_step = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let (mut rattle, mut q, mut p) = start(&q0, &p0)?;
        for _ in 0..WARMUP {
            (rattle.step(&mut q, &mut p)).map_err(|e| format!("our warm-up on {n} links: {e}"))?;
        }
        let clock = Instant::now();
        for _ in 0..steps {
            (rattle.step(&mut q, &mut p))
                .map_err(|e| format!("our timed run on {n} links: {e}"))?;
        }
        ns_per_step.push(clock.elapsed().as_secs_f64() * 1e9 / steps as f64);
    }
    Ok(Ours {
        ns_per_step,
        max_constraint_error: error,
        max_energy_drift: drift,
        energy0,
        final_q,
        iterations_per_step: iterations as f64 / steps as f64,
    })
}

/// One line of `chain.py`: OpenMM on one chain at one tolerance, with or without the angle hint.
#[derive(Debug, Deserialize)]
struct Peer {
    links: usize,
    tolerance: f64,
    angle_hint: bool,
    steps: usize,
    ns_per_step: Vec<f64>,
    // JSON has no NaN: the script writes null for a value that is not finite.
    max_constraint_error: Option<f64>,
    max_energy_drift: Option<f64>,
    energy0: Option<f64>,
    final_x: Option<Vec<Option<f64>>>,
    openmm: String,
    platform: String,
    threads: String,
    failure: Option<String>,
}

impl Peer {
    fn error(&self) -> f64 {
        self.max_constraint_error.unwrap_or(f64::NAN)
    }

    fn drift(&self) -> f64 {
        self.max_energy_drift.unwrap_or(f64::NAN)
    }

    /// |q_N − x_N|∞ against our final positions, NaN where OpenMM has none.
    fn distance_to(&self, q: &[f64]) -> f64 {
        match &self.final_x {
            Some(x) if x.len() == q.len() => (x.iter().zip(q))
                .map(|(x, q)| x.map_or(f64::NAN, |x| (x - q).abs()))
                .fold(0.0, max_nan),
            _ => f64::NAN,
        }
    }
}

/// The virtual environment of OpenMM.
fn venv() -> PathBuf {
    std::env::var_os("SPARKGEN_OPENMM_VENV").map_or_else(
        || {
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .parent()
                .expect("CARGO_TARGET_TMPDIR is <target>/tmp")
                .join("openmm-venv")
        },
        PathBuf::from,
    )
}

/// Runs `command`, returning an error with its output if it cannot start or fails.
fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let output = (command.output()).map_err(|e| format!("{what}: cannot run {command:?}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what}: {command:?} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// The Python of the virtual environment, with OpenMM importable: makes the environment and
/// installs OpenMM into it where needed, printing how long that took.
fn openmm_python() -> Result<PathBuf, String> {
    let venv = venv();
    let python = venv.join("bin/python");
    let clock = Instant::now();
    if !python.exists() {
        println!("making the virtual environment {}", venv.display());
        run(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "making OpenMM's virtual environment (needs Python 3 with venv)",
        )?;
    }
    // Isolated (`-I`): the current directory must not be searched, for `runtime/peers/openmm`
    // would be found as a namespace package of that name.
    let import = || {
        run(
            Command::new(&python).args(["-I", "-c", "import openmm, numpy"]),
            "import",
        )
    };
    if import().is_err() {
        println!("installing {OPENMM} into {}", venv.display());
        run(
            Command::new(&python).args([
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                OPENMM,
            ]),
            "installing OpenMM from PyPI",
        )?;
        import().map_err(|e| format!("OpenMM installed but not importable: {e}"))?;
        println!(
            "OpenMM set up (virtual environment and pip install) in {:.1} s",
            clock.elapsed().as_secs_f64()
        );
    }
    Ok(python)
}

/// OpenMM's side on the chains of `links`: runs `chain.py`, returns its lines.
fn run_openmm(
    python: &Path,
    links: &[usize],
    steps: usize,
    repeats: usize,
) -> Result<Vec<Peer>, String> {
    let chains: Vec<_> = (links.iter())
        .map(|&n| {
            let (_, q, p) = chain(n);
            // The leapfrog's velocity half a step back (see the module documentation).
            let v: Vec<f64> = (p.chunks_exact(2))
                .flat_map(|p| [p[0] / MASS, p[1] / MASS + 0.5 * H * G])
                .collect();
            serde_json::json!({ "links": n, "steps": steps, "x": q, "v": v })
        })
        .collect();
    let config = serde_json::json!({
        "h": H, "g": G, "length": LENGTH, "threads": 1, "warmup": WARMUP, "repeats": repeats,
        "tolerances": TOLERANCES, "angle_hints": [false, true], "chains": chains,
    });
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(SCRIPT);
    let mut child = Command::new(python)
        .arg("-I")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", script.display()))?;
    {
        let stdin = child.stdin.take().expect("stdin is piped");
        serde_json::to_writer(stdin, &config).map_err(|e| format!("writing to chain.py: {e}"))?;
    }
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut peers = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading chain.py's output: {e}"))?;
        let peer: Peer = serde_json::from_str(&line)
            .map_err(|e| format!("chain.py printed {line:?}, not a result: {e}"))?;
        eprintln!(
            "  OpenMM: {} links, tol {:e}, angle hint {}: done",
            peer.links, peer.tolerance, peer.angle_hint
        );
        peers.push(peer);
    }
    let status = child.wait().map_err(|e| format!("chain.py: {e}"))?;
    if !status.success() {
        return Err(format!("chain.py failed ({status}); its stderr is above"));
    }
    let expected = links.len() * TOLERANCES.len() * 2;
    if peers.len() != expected {
        return Err(format!(
            "chain.py printed {} results, not {expected}",
            peers.len()
        ));
    }
    Ok(peers)
}

/// The system's 1, 5 and 15 minute load averages.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// Prints the table of one chain: our row, then OpenMM's rows with the ratio of the times.
fn print_table(n: usize, steps: usize, ours: &Ours, peers: &[&Peer]) {
    let our_time = median(&ours.ns_per_step);
    println!(
        "\n{n} links, {steps} steps (T = {}), E₀ = {:.6e}; ns/step: median of {} runs",
        steps as f64 * H,
        ours.energy0,
        ours.ns_per_step.len()
    );
    println!(
        "| code | angle hint | tol | ns/step | max constraint error | max rel. energy drift | |q_N − x_N|∞ | OpenMM / ours |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    println!(
        "| sparkgen RATTLE ({:.2} Newton its/step) | – | 4ε (round-off) | {our_time:.0} | {:.2e} | {:.2e} | – | 1 |",
        ours.iterations_per_step, ours.max_constraint_error, ours.max_energy_drift
    );
    for peer in peers {
        let time = median(&peer.ns_per_step);
        println!(
            "| OpenMM | {} | {:e} | {time:.0} | {:.2e} | {:.2e} | {:.2e} | {:.2} |{}",
            if peer.angle_hint { "yes" } else { "no" },
            peer.tolerance,
            peer.error(),
            peer.drift(),
            peer.distance_to(&ours.final_q),
            time / our_time,
            peer.failure
                .as_ref()
                .map_or(String::new(), |f| format!(" failed: {f}"))
        );
        if let Some(e0) = peer.energy0 {
            let relative = ((e0 - ours.energy0) / ours.energy0).abs();
            if relative > 1e-10 {
                println!("  (OpenMM's E₀ = {e0:.9e} differs from ours by {relative:.1e})");
            }
        }
    }
    let tightest = TOLERANCES[TOLERANCES.len() - 1];
    println!(
        "our constraint error {:.2e} is {} OpenMM's tightest tolerance {tightest:e}",
        ours.max_constraint_error,
        if ours.max_constraint_error <= tightest {
            "at or below"
        } else {
            "ABOVE"
        }
    );
}

/// Both sides on the 64-link chain for a few steps, the constraint errors checked.
fn smoke(python: &Path) -> Result<(), String> {
    let n = 64;
    let ours = run_ours(n, SMOKE_STEPS, 1)?;
    let peers = run_openmm(python, &[n], SMOKE_STEPS, 1)?;
    print_table(n, SMOKE_STEPS, &ours, &peers.iter().collect::<Vec<_>>());
    let mut failures = Vec::new();
    if !(ours.max_constraint_error <= OUR_ERROR_BOUND && ours.max_energy_drift.is_finite()) {
        failures.push(format!(
            "our constraint error {:e} must be at most {OUR_ERROR_BOUND:e}, our drift {:e} finite",
            ours.max_constraint_error, ours.max_energy_drift
        ));
    }
    for peer in &peers {
        if let Some(failure) = &peer.failure {
            failures.push(format!(
                "OpenMM at tol {:e} failed: {failure}",
                peer.tolerance
            ));
        }
        // Without the hint CCMA stops at its iteration cap above the tighter tolerances (see
        // chain.py); its error is only checked to be a small finite number.
        let bound = if peer.angle_hint {
            2.0 * peer.tolerance + OPENMM_ROUND_OFF
        } else {
            1e-3
        };
        if !(peer.error() <= bound && peer.drift().is_finite()) {
            failures.push(format!(
                "OpenMM at tol {:e}, angle hint {}: constraint error {:e} must be at most \
                 {bound:e}, drift {:e} finite",
                peer.tolerance,
                peer.angle_hint,
                peer.error(),
                peer.drift()
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

fn bench(python: &Path) -> Result<(), String> {
    let start = Instant::now();
    println!(
        "load average at start: {} ({} CPUs); h = {H}, {STEPS} steps, {REPEATS} timed runs per \
         point, one thread on both sides",
        load_average(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let mut ours = Vec::new();
    for n in LINKS {
        eprintln!("  sparkgen: {n} links");
        ours.push(run_ours(n, STEPS, REPEATS)?);
    }
    let peers = run_openmm(python, &LINKS, STEPS, REPEATS)?;
    if let Some(peer) = peers.first() {
        println!(
            "OpenMM {} on platform {} with Threads = {}",
            peer.openmm, peer.platform, peer.threads
        );
    }
    for (n, ours) in LINKS.iter().zip(&ours) {
        let rows: Vec<_> = peers.iter().filter(|p| p.links == *n).collect();
        assert!(
            rows.iter().all(|p| p.steps == STEPS),
            "OpenMM ran the steps it was given"
        );
        print_table(*n, STEPS, ours, &rows);
    }
    println!(
        "\nload average at end: {}; the bench took {:.0} s",
        load_average(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    let clock = Instant::now();
    let result = openmm_python().and_then(|python| {
        if std::env::args().any(|a| a == "--bench") {
            bench(&python)
        } else {
            smoke(&python)
        }
    });
    match result {
        Ok(()) => {
            println!("chains: {:.1} s", clock.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("chains bench failed: {e}");
            ExitCode::FAILURE
        }
    }
}
