//! A trait method's tape compiled to machine code ([`Machine`]), when a run starts: the kernels
//! a run calls outside the engine's compiled stage functions (RATTLE and SHAKE on a holonomic
//! file, the velocity guess, the energy and the constraint residual at every point, the DAE
//! views) run as compiled code, which gives the tape interpreter's bits (`sparkgen_jit`: the
//! same operations in the same order, the same functions called).

use sparkgen_jit::{Compiled, Function, Tier};
use sparkgen_sym::Tape;
use std::sync::OnceLock;

/// The compiled tape of one trait method, shared by the clones of its model (the parameter
/// values are an argument of the call): empty until [`Machine::compile`], then the code, or
/// `None` where it could not be compiled (the interpreter runs on).
#[derive(Debug, Default)]
pub(crate) struct Machine {
    code: OnceLock<Option<Compiled>>,
}

impl Machine {
    /// Compiles `tape`, whose input segments have the lengths `lengths` (the method's
    /// arguments, then the parameter values); nothing where it was compiled before.
    pub(crate) fn compile(&self, tape: &Tape, lengths: impl Iterator<Item = usize>) {
        self.code.get_or_init(|| {
            let f = Function::of_tape(tape, lengths.collect());
            Compiled::with(&f, Tier::of(f.len())).ok()
        });
    }

    /// Whether the tape runs as compiled code.
    pub(crate) fn is_compiled(&self) -> bool {
        matches!(self.code.get(), Some(Some(_)))
    }

    /// Evaluates the compiled tape on `segments` into `out` and returns `true`; `false` where
    /// it is not compiled or a segment does not have its declared length (an argument of
    /// another length reads as the interpreter reads it, NaN beyond its end), and the caller is
    /// to interpret it.
    pub(crate) fn eval(&self, segments: &[&[f64]], out: &mut [f64]) -> bool {
        let Some(Some(code)) = self.code.get() else {
            return false;
        };
        let (reads, _) = code.arguments();
        if reads.len() != segments.len() || reads.iter().zip(segments).any(|(&n, s)| n != s.len()) {
            return false;
        }
        out.fill(0.0);
        code.call(segments, &mut [out]).is_ok()
    }
}

/// A cache, not part of a model's value: every two compare equal.
impl PartialEq for Machine {
    fn eq(&self, _: &Machine) -> bool {
        true
    }
}
