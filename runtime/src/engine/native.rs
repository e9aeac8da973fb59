//! The engine's stage functions on a problem compiled to machine code ([`sparkgen_jit`]): each
//! function of the step lowered once ([`super::lower`]) with the problem's tapes inlined,
//! compiled by Cranelift when first called, and shared by every stepper of the engine on the
//! same tapes (an ensemble's members and threads compile once).

use super::lower::{self, Outputs, Tapes};
use super::program::{Program, Section};
use sparkgen_jit::{Compiled, Function, JitError, Tier};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The evaluator of the engine's stage functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The program interpreted operation by operation, the problem's kernels called one by one
    /// (the reference).
    Interpreter,
    /// The program and the problem's tapes compiled to machine code, where the problem's
    /// kernels are tapes (a problem file); the interpreter elsewhere.
    Jit,
}

/// The functions of the step, in [`Native::functions`]' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Residual,
    Update,
    /// The Jacobian; `true`: after the residual (its values reused).
    Jacobian(bool),
    Tangent(bool),
    Scales(bool),
}

impl Part {
    /// The functions compiled: the partials only after the residual, since a whole partial
    /// section is the residual's followed by the rest (every slot holds one value, computed
    /// by the same operations either way).
    const COMPILED: [Part; 5] = [
        Part::Residual,
        Part::Update,
        Part::Jacobian(true),
        Part::Tangent(true),
        Part::Scales(true),
    ];

    /// Its position in [`Part::COMPILED`], and whether the residual runs first.
    fn compiled(self) -> (usize, bool) {
        match self {
            Part::Residual => (0, false),
            Part::Update => (1, false),
            Part::Jacobian(after) => (2, !after),
            Part::Tangent(after) => (3, !after),
            Part::Scales(after) => (4, !after),
        }
    }

    /// Its section of `program` and where its blocks go.
    pub(crate) fn section(self, program: &Program) -> (&Section, Outputs) {
        match self {
            Part::Residual => (&program.residual, Outputs::Arena),
            Part::Update => (&program.update, Outputs::Arena),
            Part::Jacobian(after) => (program.jacobian.get(after), Outputs::Jacobian),
            Part::Tangent(after) => (program.tangent.get(after), Outputs::Tangent),
            Part::Scales(after) => (program.scales.get(after), Outputs::Tangent),
        }
    }
}

/// One function of the step: lowered, and compiled (see [`Native::prepare`] for when); the
/// lowered function is dropped once compiled.
#[derive(Debug)]
struct Slot {
    lowered: Mutex<Option<Function>>,
    compiled: OnceLock<Result<Compiled, JitError>>,
}

/// The stage functions of an engine on one problem's tapes (see the module documentation).
#[derive(Debug)]
pub(crate) struct Native {
    tapes: Tapes,
    functions: Vec<Slot>,
    /// Seconds spent compiling, summed over the functions compiled so far.
    compile_seconds: Mutex<f64>,
}

impl Native {
    /// The functions of `program` lowered with the problem's `tapes` ([`Tapes::collect`]);
    /// `None` where a kernel call has no tape.
    pub(crate) fn new(program: &Program, tapes: Tapes) -> Option<Native> {
        let lower = |keep: Option<&_>| {
            Part::COMPILED
                .iter()
                .map(|part| {
                    let (section, outputs) = part.section(program);
                    lower::lower(program, section, &tapes, outputs, keep)
                })
                .collect::<Option<Vec<_>>>()
        };
        // Every slot written stored first, to see which slots are read; then only those.
        let keep = lower::kept(program, &lower(None)?);
        let functions = lower(Some(&keep))?
            .into_iter()
            .map(|lowered| Slot {
                lowered: Mutex::new(Some(lowered)),
                compiled: OnceLock::new(),
            })
            .collect();
        Some(Native {
            tapes,
            functions,
            compile_seconds: Mutex::new(0.0),
        })
    }

    /// Compiles Newton's functions now, so that a run allocates nothing after it starts; the
    /// tangent map (read only where a carried multiplier's defect grows) is compiled when first
    /// asked for. Nothing where they are compiled already.
    pub(crate) fn prepare(&self) {
        for part in Part::COMPILED {
            if !matches!(part, Part::Tangent(_)) {
                let _ = self.compiled(part);
            }
        }
    }

    /// Whether `self`'s code serves `tapes` ([`Tapes::same_code`]).
    pub(crate) fn serves(&self, tapes: &Tapes) -> bool {
        self.tapes.same_code(tapes)
    }

    /// The compiled function of `part`, compiled now if it was not; `Err` with why it cannot be.
    fn compiled(&self, part: Part) -> Result<&Compiled, &JitError> {
        let slot = &self.functions[part.compiled().0];
        slot.compiled
            .get_or_init(|| {
                let start = Instant::now();
                let lowered = slot.lowered.lock().ok().and_then(|mut f| f.take());
                let compiled = match lowered {
                    Some(f) => Compiled::with(&f, Tier::of(f.len())),
                    None => Err(JitError::Codegen("the function was not lowered".into())),
                };
                if let Ok(mut seconds) = self.compile_seconds.lock() {
                    *seconds += start.elapsed().as_secs_f64();
                }
                compiled
            })
            .as_ref()
    }

    /// Seconds spent compiling so far.
    pub(crate) fn compile_seconds(&self) -> f64 {
        self.compile_seconds.lock().map_or(0.0, |s| *s)
    }

    /// Runs `part` on the arena with the signed scalars `signed`, the problem's `parameters`
    /// (laid out as [`Tapes::parameters`]) and the blocks' targets `targets` (none, the
    /// Jacobian, or the eight tangent blocks; zero); `false` where it could not be compiled
    /// (the caller interprets the section instead).
    pub(crate) fn run(
        &self,
        part: Part,
        (signed, parameters): (&[f64], &[f64]),
        arena: &mut [f64],
        targets: &mut [&mut [f64]],
    ) -> bool {
        let (_, residual_first) = part.compiled();
        let Ok(compiled) = self.compiled(part) else {
            return false;
        };
        if residual_first && !self.run(Part::Residual, (signed, parameters), arena, &mut []) {
            return false;
        }
        // The arena and at most eight targets, without allocating.
        let mut writes: [&mut [f64]; 9] = Default::default();
        let count = 1 + targets.len().min(8);
        writes[0] = arena;
        for (w, t) in writes[1..].iter_mut().zip(targets.iter_mut()) {
            *w = &mut **t;
        }
        compiled
            .call(&[signed, parameters], &mut writes[..count])
            .is_ok()
    }
}

/// The most programs an engine keeps (one per distinct problem it ran on, the most recent).
const CACHED: usize = 16;

/// Every native program built for an engine, shared by its clones and threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cache(Arc<Mutex<Vec<Arc<Native>>>>);

impl Cache {
    /// Seconds spent compiling every program cached so far; `None` where none was made (the
    /// engine ran only on the interpreter).
    pub(crate) fn compile_seconds(&self) -> Option<f64> {
        let cached = self.0.lock().ok()?;
        (!cached.is_empty()).then(|| cached.iter().map(|n| n.compile_seconds()).sum())
    }

    /// The cached program whose code serves `tapes`, or the program of `tapes` lowered from
    /// `program` and cached (the oldest dropped beyond [`CACHED`]); prepared
    /// ([`Native::prepare`]). `None` where a kernel call has no tape.
    pub(crate) fn share(&self, program: &Program, tapes: Tapes) -> Option<Arc<Native>> {
        let found = self
            .0
            .lock()
            .ok()
            .and_then(|cached| cached.iter().find(|c| c.serves(&tapes)).cloned());
        let shared = match found {
            Some(native) => native,
            None => {
                let native = Arc::new(Native::new(program, tapes)?);
                if let Ok(mut cached) = self.0.lock() {
                    if cached.len() >= CACHED {
                        cached.remove(0);
                    }
                    cached.push(Arc::clone(&native));
                }
                native
            }
        };
        shared.prepare();
        Some(shared)
    }
}

#[cfg(test)]
mod tests {
    use super::Backend;
    use crate::engine::{Engine, Kernels, Stepping};
    use crate::integrate::{Options, run_into};
    use crate::problem_file::ProblemFile;
    use crate::solution::{Observer, Point};
    use std::convert::Infallible;

    /// Every point of a run as bits, with each step's Newton iterations.
    #[derive(Default)]
    struct Bits(Vec<(Vec<u64>, Option<usize>)>);

    impl Observer for Bits {
        type Error = Infallible;
        fn observe(&mut self, point: &Point<'_>) -> Result<(), Infallible> {
            let bits = point.q.iter().chain(point.p).map(|x| x.to_bits()).collect();
            self.0.push((bits, point.stats.map(|s| s.iterations)));
            Ok(())
        }
    }

    fn degenerate(name: &str) -> crate::problem_file::DegenerateLagrangianFile {
        let path = format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR"));
        match ProblemFile::read(path) {
            Ok(ProblemFile::DegenerateLagrangian(file)) => file,
            other => panic!("{name} states a degenerate Lagrangian: {other:?}"),
        }
    }

    /// `steps` steps of `method` on `file` from its initial state with `backend`.
    fn run<K: Kernels>(
        engine: &Engine,
        file: &K,
        q0: &[f64],
        p0: &[f64],
        steps: usize,
        backend: Backend,
    ) -> Bits {
        let stepping = Stepping::with_backend(engine, file, backend).expect("the method fits");
        assert_eq!(stepping.backend(), backend);
        let mut bits = Bits::default();
        run_into(stepping, q0, p0, &Options::new(0.1, steps), &mut bits).expect("the run succeeds");
        bits
    }

    /// Files of the same expressions share one compiled program, each run with its own
    /// parameter values: a second reading of the guiding-centre file with another ε runs, on the
    /// first reading's machine code, the interpreter's points for its own ε bit for bit.
    #[test]
    fn files_of_the_same_expressions_share_the_code_with_their_own_parameters() {
        let first = degenerate("guiding_centre.toml");
        let with_epsilon = |epsilon: f64| {
            let path = format!(
                "{}/problems/guiding_centre.toml",
                env!("CARGO_MANIFEST_DIR")
            );
            let mut file = ProblemFile::read(path).expect("readable");
            file.set_parameter("epsilon", epsilon)
                .expect("a parameter of the file");
            match file {
                ProblemFile::DegenerateLagrangian(file) => file,
                other => panic!("a degenerate Lagrangian: {other:?}"),
            }
        };
        let second = with_epsilon(0.4);
        let (q0, p0) = first.initial();
        let engine = Engine::new(
            &crate::engine::catalogue_method("VprkGauss3").expect("in the catalogue"),
            first.dims(),
        )
        .expect("compiles");
        let a = Stepping::new(&engine, &first).expect("fits");
        let seconds = a.compile_seconds();
        assert!(seconds > 0.0);
        let b = Stepping::new(&engine, &second).expect("fits");
        assert_eq!(
            b.compile_seconds().to_bits(),
            seconds.to_bits(),
            "shared, not compiled again"
        );
        let (q1, p1) = second.initial();
        let compiled = run(&engine, &second, &q1, &p1, 50, Backend::Jit);
        let interpreted = run(&engine, &second, &q1, &p1, 50, Backend::Interpreter);
        let other = run(&engine, &first, &q0, &p0, 50, Backend::Jit);
        assert!(compiled.0 == interpreted.0, "the second file's own ε");
        assert!(compiled.0 != other.0, "ε changes the run");
        let third = with_epsilon(0.5);
        assert!(run(&engine, &third, &q0, &p0, 50, Backend::Jit).0 == other.0);
    }

    /// Runs on the guiding-centre file (D = 4, fused stage points) and the point-vortex file
    /// (D = 16, static pivots) give the same points and Newton iterations bit for bit on the
    /// machine code as on the interpreter; the compiled functions are shared by a second
    /// stepper on the same file.
    #[test]
    fn runs_on_machine_code_are_the_interpreters_bit_for_bit() {
        for (name, methods, steps) in [
            (
                "guiding_centre.toml",
                &[
                    "VprkGauss3",
                    "SlrkLobattoIIIE3",
                    "VsparkPrimaryGlrkpMidpoint4",
                ][..],
                100,
            ),
            (
                "point_vortices.toml",
                &["VprkGauss3", "SlrkLobattoIIIE3"][..],
                10,
            ),
        ] {
            let file = degenerate(name);
            let (q0, p0) = file.initial();
            for &method in methods {
                let engine = Engine::catalogue(method, file.dims()).expect("in the catalogue");
                let interpreted = run(&engine, &file, &q0, &p0, steps, Backend::Interpreter);
                let compiled = run(&engine, &file, &q0, &p0, steps, Backend::Jit);
                assert_eq!(interpreted.0.len(), steps + 1, "{name} {method}");
                assert!(interpreted.0 == compiled.0, "{name} {method}");
                let first = Stepping::new(&engine, &file).expect("fits");
                let seconds = first.compile_seconds();
                let second = Stepping::new(&engine, &file).expect("fits");
                assert_eq!(
                    second.compile_seconds().to_bits(),
                    seconds.to_bits(),
                    "compiled once"
                );
            }
        }
    }
}
