//! The engine's stage functions on a problem compiled to machine code ([`sparkgen_jit`]): each
//! function of the step lowered once ([`super::lower`]) with the problem's tapes inlined,
//! compiled by Cranelift when first called, and shared by every stepper of the engine on the
//! same tapes (an ensemble's members and threads compile once).

use super::fusion::Fused;
use super::lower::{self, Outputs, Tapes};
use super::program::{Program, Section};
use sparkgen_jit::{Compiled, Function, JitError};
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
    const ALL: [Part; 8] = [
        Part::Residual,
        Part::Update,
        Part::Jacobian(false),
        Part::Jacobian(true),
        Part::Tangent(false),
        Part::Tangent(true),
        Part::Scales(false),
        Part::Scales(true),
    ];

    fn index(self) -> usize {
        match self {
            Part::Residual => 0,
            Part::Update => 1,
            Part::Jacobian(after) => 2 + usize::from(after),
            Part::Tangent(after) => 4 + usize::from(after),
            Part::Scales(after) => 6 + usize::from(after),
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

/// One function of the step: lowered, and compiled (see [`Native::new`] for when).
#[derive(Debug)]
struct Slot {
    lowered: Function,
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
    /// The functions of `program` lowered with the problem's tapes (`fused`, the workspace's;
    /// `single`, the problem's tape of one call); `None` where a kernel call has no tape.
    pub(crate) fn new(
        program: &Program,
        fused: &[Option<Fused>],
        single: impl FnMut(&super::fusion::Call, usize) -> Option<Fused>,
    ) -> Option<Native> {
        let tapes = Tapes::collect(program, fused, single)?;
        let functions = Part::ALL
            .iter()
            .map(|part| {
                let (section, outputs) = part.section(program);
                Some(Slot {
                    lowered: lower::lower(program, section, &tapes, outputs)?,
                    compiled: OnceLock::new(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
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
        for part in Part::ALL {
            if !matches!(part, Part::Tangent(_)) {
                let _ = self.compiled(part);
            }
        }
    }

    /// Whether `self` inlines the same tapes (shared by the problem, compared by address, with
    /// the same parameter values) as `other`.
    pub(crate) fn same_tapes(&self, other: &Native) -> bool {
        let bits = |t: &Tapes| t.parameters.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        self.tapes.all().count() == other.tapes.all().count()
            && self
                .tapes
                .all()
                .zip(other.tapes.all())
                .all(|(a, b)| Arc::ptr_eq(a, b))
            && bits(&self.tapes) == bits(&other.tapes)
    }

    /// The compiled function of `part`, compiled now if it was not; `Err` with why it cannot be.
    fn compiled(&self, part: Part) -> Result<&Compiled, &JitError> {
        let slot = &self.functions[part.index()];
        slot.compiled
            .get_or_init(|| {
                let start = Instant::now();
                let compiled = Compiled::new(&slot.lowered);
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

    /// Runs `part` on the arena with the signed scalars `signed` and the blocks' targets
    /// `targets` (none, the Jacobian, or the eight tangent blocks); `false` where it could not
    /// be compiled (the caller interprets the section instead).
    pub(crate) fn run(
        &self,
        part: Part,
        signed: &[f64],
        arena: &mut [f64],
        targets: &mut [&mut [f64]],
    ) -> bool {
        let Ok(compiled) = self.compiled(part) else {
            return false;
        };
        // The arena and at most eight targets, without allocating.
        let mut writes: [&mut [f64]; 9] = Default::default();
        let count = 1 + targets.len().min(8);
        writes[0] = arena;
        for (w, t) in writes[1..].iter_mut().zip(targets.iter_mut()) {
            *w = &mut **t;
        }
        compiled
            .call(&[signed, &self.tapes.parameters], &mut writes[..count])
            .is_ok()
    }
}

/// Every native program built for an engine, shared by its clones and threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cache(Arc<Mutex<Vec<Arc<Native>>>>);

impl Cache {
    /// The cached program with `native`'s tapes, or `native` itself, cached; prepared
    /// ([`Native::prepare`]).
    pub(crate) fn share(&self, native: Native) -> Arc<Native> {
        let shared = match self.0.lock() {
            Ok(mut cached) => match cached.iter().find(|c| c.same_tapes(&native)) {
                Some(existing) => Arc::clone(existing),
                None => {
                    let native = Arc::new(native);
                    cached.push(Arc::clone(&native));
                    native
                }
            },
            Err(_) => Arc::new(native),
        };
        shared.prepare();
        shared
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
