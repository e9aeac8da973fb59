//! The run-time model of a problem file: its coordinates, its parameters with their values and
//! one compiled tape per trait method, resolved when the file is read and indexed by the kind's
//! method enum, evaluated into caller slices (or fixed-size nalgebra values) without allocating.

use super::error::EvaluateError;
use super::fused::FusedTapes;
use super::machine::Machine;
use nalgebra::allocator::Allocator;
use nalgebra::{Const, DefaultAllocator, Dim, OMatrix, OVector, SMatrix, SVector, U1};
use sparkgen_sym::derive::text::{Compiled, Text};
use sparkgen_sym::{Part, Tape};
use std::cell::RefCell;
use std::sync::Arc;

/// A parameter name that the problem does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown parameter `{name}`; the parameters are {known}")]
pub struct UnknownParameter {
    /// The name asked for.
    pub name: String,
    /// The problem's parameters, for the message.
    pub known: String,
}

/// The run-time signature of a trait method of a file's problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MethodSignature<'a> {
    /// The state-vector arguments in order, each with its name (`q`, `w`, `v`, `lambda`) and
    /// length.
    pub arguments: &'a [(&'static str, usize)],
    /// The output's rows: 1 for a scalar, the length for a vector.
    pub rows: usize,
    /// The output's columns: 1 for a scalar or a vector.
    pub cols: usize,
}

/// The trait methods of one problem kind, as an enum whose discriminants index the model's
/// tapes (see [`methods!`]).
pub(crate) trait Method: Copy {
    /// The trait method names, in the enum's (the trait's) order.
    const NAMES: &'static [&'static str];

    /// The position of the method in [`Method::NAMES`].
    fn index(self) -> usize;
}

/// Declares a public enum of a problem kind's trait methods, in trait order, and the run-time
/// evaluation of the kind's file by it:
/// `methods!(Doc, Name for File { Variant = "trait_method", … })`.
macro_rules! methods {
    ($(#[$doc:meta])* $name:ident for $file:ident {
        $($(#[$variant_doc:meta])* $variant:ident = $method:literal,)*
    }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$variant_doc])* $variant,)*
        }

        impl $name {
            /// Every method, in trait order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The trait method's name, e.g. `theta_jacobian`.
            pub fn name(self) -> &'static str {
                <$name as $crate::problem_file::model::Method>::NAMES[self as usize]
            }
        }

        impl $crate::problem_file::model::Method for $name {
            const NAMES: &'static [&'static str] = &[$($method,)*];

            fn index(self) -> usize {
                self as usize
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl $file {
            /// The arguments and output shape of `method`, in the file's dimensions.
            pub fn signature(&self, method: $name) -> $crate::problem_file::MethodSignature<'_> {
                self.model.signature(method)
            }

            /// Compiles every method to machine code, with the bits of the tapes'
            /// interpreter, once for the file and its clones (the parameter values are read at
            /// every call); what a run on the engine or on run-time sized storage does when it
            /// starts.
            pub fn compile(&self) {
                self.model.compile();
            }

            /// Whether `method` runs as machine code ([`compile`](Self::compile)).
            pub fn compiled(&self, method: $name) -> bool {
                self.model.compiled(method)
            }

            /// Evaluates `method` at run time: `args` are its state vectors in the trait's
            /// order (see each method), and `out` receives its value, a matrix in row-major
            /// order (entry (i, j) at `i · cols + j`). Nothing is allocated after a thread's
            /// first evaluations. An error when a length does not fit
            /// [`signature`](Self::signature); `out` is then left as it was.
            pub fn evaluate(
                &self,
                method: $name,
                args: &[&[f64]],
                out: &mut [f64],
            ) -> Result<(), $crate::problem_file::EvaluateError> {
                self.model.evaluate(method, args, out)
            }
        }
    };
}
pub(crate) use methods;

/// One trait method: its tape, arguments and output shape, and the tape compiled when a run
/// starts (shared by the model's clones).
#[derive(Clone, Debug, PartialEq)]
struct MethodTape {
    name: &'static str,
    tape: Tape,
    arguments: Vec<(&'static str, usize)>,
    shape: (usize, usize),
    machine: Arc<Machine>,
}

/// Coordinates, parameters and the tapes of a problem's trait methods.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Model {
    coordinates: Vec<String>,
    /// Parameter names, in the file's key order.
    names: Vec<String>,
    /// Their values (the tapes' last input segment).
    values: Vec<f64>,
    /// The trait methods, in the order of the kind's [`Method`] enum.
    methods: Vec<MethodTape>,
    /// The tapes of groups of them fused so far ([`Model::fuse`]).
    fused: FusedTapes,
}

thread_local! {
    /// The registers of the tapes evaluated on this thread. The buffer only grows, to the most
    /// registers a tape evaluated here needs, so evaluation allocates on a thread's first calls
    /// only; each thread has its own, so a problem is `Sync` and evaluated from any thread.
    static REGISTERS: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    /// The outputs of a point tape ([`Model::point`]), read before the next evaluation.
    static OUTPUTS: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// The most state-vector arguments a trait method of a problem file takes.
const MAX_ARGUMENTS: usize = 2;

/// Tapes fused into one (`Tape::fuse`), each with the positions of its arguments among `args`
/// argument slices; the parameters are the segment after each tape's arguments, and after the
/// fused tape's.
fn fuse_tapes<'a>(parts: impl Iterator<Item = (&'a Tape, &'a [usize])>, args: usize) -> Tape {
    let parts: Vec<(&Tape, Vec<usize>)> = parts
        .map(|(tape, positions)| (tape, [positions, &[args]].concat()))
        .collect();
    let parts: Vec<Part> = parts
        .iter()
        .map(|(tape, segments)| Part { tape, segments })
        .collect();
    Tape::fuse(&parts)
}

impl Model {
    /// The model of `compiled` with the tapes of the trait methods of `M`, or the name of a
    /// method the symbolic engine did not produce.
    pub(crate) fn new<M: Method>(
        compiled: Compiled,
        coordinates: &[Text],
        parameters: &[(&str, f64)],
    ) -> Result<Model, &'static str> {
        let methods = M::NAMES
            .iter()
            .map(|&name| {
                let method = compiled.methods.iter().find(|m| m.name == name);
                match method {
                    Some(m) if m.args.len() <= MAX_ARGUMENTS => Ok(MethodTape {
                        name,
                        tape: m.tape.clone(),
                        arguments: m.args.clone(),
                        shape: m.shape,
                        machine: Arc::default(),
                    }),
                    _ => Err(name),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let names = parameters.iter().map(|(n, _)| (*n).to_owned()).collect();
        let values = parameters.iter().map(|(_, v)| *v).collect();
        Ok(Model {
            coordinates: coordinates
                .iter()
                .map(|c| c.source.trim().to_owned())
                .collect(),
            names,
            values,
            methods,
            fused: FusedTapes::default(),
        })
    }

    /// The coordinate names.
    pub(crate) fn coordinates(&self) -> &[String] {
        &self.coordinates
    }

    /// The parameters and their values, in the file's key order.
    pub(crate) fn parameters(&self) -> impl Iterator<Item = (&str, f64)> {
        self.names
            .iter()
            .map(String::as_str)
            .zip(self.values.iter().copied())
    }

    /// Sets the parameter `name` to `value`.
    pub(crate) fn set_parameter(&mut self, name: &str, value: f64) -> Result<(), UnknownParameter> {
        match self.names.iter().position(|n| n == name) {
            Some(i) => {
                self.values[i] = value;
                Ok(())
            }
            None => {
                let known: Vec<String> = self.names.iter().map(|n| format!("`{n}`")).collect();
                Err(UnknownParameter {
                    name: name.to_owned(),
                    known: if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    },
                })
            }
        }
    }

    /// The signature of `method`.
    pub(crate) fn signature(&self, method: impl Method) -> MethodSignature<'_> {
        let m = &self.methods[method.index()];
        MethodSignature {
            arguments: &m.arguments,
            rows: m.shape.0,
            cols: m.shape.1,
        }
    }

    /// Compiles every method's tape to machine code ([`Machine`]), once for the model and its
    /// clones.
    pub(crate) fn compile(&self) {
        for m in &self.methods {
            let lengths = m.arguments.iter().map(|&(_, len)| len);
            m.machine
                .compile(&m.tape, lengths.chain([self.values.len()]));
        }
    }

    /// Whether `method`'s tape has been compiled ([`Machine`]).
    pub(crate) fn compiled(&self, method: impl Method) -> bool {
        self.methods[method.index()].machine.is_compiled()
    }

    /// The tape of `method`.
    pub(crate) fn tape(&self, method: impl Method) -> &Tape {
        &self.methods[method.index()].tape
    }

    /// Evaluates `method` on `args` into `out` (row-major) after checking their lengths against
    /// the method's signature.
    pub(crate) fn evaluate(
        &self,
        method: impl Method,
        args: &[&[f64]],
        out: &mut [f64],
    ) -> Result<(), EvaluateError> {
        let m = &self.methods[method.index()];
        if args.len() != m.arguments.len() {
            return Err(EvaluateError::ArgumentCount {
                method: m.name,
                expected: m.arguments.len(),
                found: args.len(),
            });
        }
        for (arg, &(name, len)) in args.iter().zip(&m.arguments) {
            if arg.len() != len {
                return Err(EvaluateError::ArgumentLength {
                    method: m.name,
                    argument: name,
                    expected: len,
                    found: arg.len(),
                });
            }
        }
        let (rows, cols) = m.shape;
        if out.len() != rows * cols {
            return Err(EvaluateError::OutputLength {
                method: m.name,
                rows,
                cols,
                found: out.len(),
            });
        }
        self.eval(method, args, out);
        Ok(())
    }

    /// The tapes of `parts` as one ([`Tape::fuse`]): part `k` is a method and the positions of
    /// its arguments among `args` argument slices; the fused tape reads those slices and then
    /// the parameter values (returned with it), and writes the parts' outputs one after
    /// another. `None` where a part names a different number of arguments than its method
    /// takes or a position beyond `args`.
    pub(crate) fn fuse(
        &self,
        parts: &[(impl Method, &[usize])],
        args: usize,
    ) -> Option<(Arc<Tape>, Vec<f64>)> {
        let mut group = Vec::with_capacity(parts.len());
        for (method, positions) in parts {
            let m = &self.methods[method.index()];
            if positions.len() != m.arguments.len() || positions.iter().any(|&p| p >= args) {
                return None;
            }
            group.push((method.index(), positions.to_vec()));
        }
        let build = || {
            let parts = group
                .iter()
                .map(|(method, positions)| (&self.methods[*method].tape, positions.as_slice()));
            fuse_tapes(parts, args)
        };
        let tape = self.fused.get_or_build((group.clone(), args), build);
        Some((tape, self.values.clone()))
    }

    /// Evaluates `method` on `args` into `out` (row-major), whose lengths the caller has checked
    /// (an argument too short reads as NaN, entries of `out` beyond the output are zero). The
    /// registers are this thread's [`REGISTERS`]: no allocation once they have grown.
    ///
    /// A method compiled ([`Model::compile`]) runs as machine code, with the same bits.
    pub(crate) fn eval(&self, method: impl Method, args: &[&[f64]], out: &mut [f64]) {
        let m = &self.methods[method.index()];
        let (segments, n) = self.segments(args);
        if !m.machine.eval(&segments[..=n], out) {
            REGISTERS.with_borrow_mut(|registers| m.tape.eval(&segments[..=n], registers, out));
        }
    }

    /// The input segments of a tape evaluated on `args`: the arguments, then the parameter
    /// values; and the number of arguments.
    fn segments<'a>(&'a self, args: &[&'a [f64]]) -> ([&'a [f64]; MAX_ARGUMENTS + 1], usize) {
        let n = args.len().min(MAX_ARGUMENTS);
        let mut segments: [&[f64]; MAX_ARGUMENTS + 1] = [&[]; MAX_ARGUMENTS + 1];
        segments[..n].copy_from_slice(&args[..n]);
        segments[n] = &self.values;
        (segments, n)
    }

    /// Evaluates `tape`, one of this model's or a fusion of them, on `args` into `out`.
    fn eval_tape(&self, tape: &Tape, args: &[&[f64]], out: &mut [f64]) {
        let (segments, n) = self.segments(args);
        REGISTERS.with_borrow_mut(|registers| tape.eval(&segments[..=n], registers, out));
    }

    /// The tapes of `parts` fused into one (`Tape::fuse`), each part a method and the positions
    /// of its arguments among `args` argument slices: every subexpression they share is
    /// evaluated once, their outputs follow one another. For the point methods of the files'
    /// views, whose parts are fixed (unlike [`Self::fuse`]'s, which come from a program).
    pub(crate) fn point_tape<M: Method>(&self, parts: &[(M, &[usize])], args: usize) -> Tape {
        fuse_tapes(
            parts
                .iter()
                .map(|&(method, positions)| (self.tape(method), positions)),
            args,
        )
    }

    /// Evaluates a [`Self::point_tape`] on `args` and returns three matrices read from its
    /// outputs one after another, each row-major (a vector is a one-column matrix). The outputs
    /// are this thread's [`OUTPUTS`] (no allocation once they have grown).
    pub(crate) fn point<
        const R1: usize,
        const C1: usize,
        const R2: usize,
        const C2: usize,
        const R3: usize,
        const C3: usize,
    >(
        &self,
        tape: &Tape,
        args: &[&[f64]],
    ) -> (
        SMatrix<f64, R1, C1>,
        SMatrix<f64, R2, C2>,
        SMatrix<f64, R3, C3>,
    ) {
        OUTPUTS.with_borrow_mut(|out| {
            out.resize(tape.outputs(), 0.0);
            self.eval_tape(tape, args, out);
            let (first, rest) = out.split_at(R1 * C1);
            let (second, rest) = rest.split_at(R2 * C2);
            (
                SMatrix::from_row_slice(first),
                SMatrix::from_row_slice(second),
                SMatrix::from_row_slice(&rest[..R3 * C3]),
            )
        })
    }

    /// A scalar method.
    pub(crate) fn scalar(&self, method: impl Method, args: &[&[f64]]) -> f64 {
        let mut out = [0.0];
        self.eval(method, args, &mut out);
        out[0]
    }

    /// A vector method.
    pub(crate) fn vector<const N: usize>(
        &self,
        method: impl Method,
        args: &[&[f64]],
    ) -> SVector<f64, N> {
        self.vector_in(method, args, Const)
    }

    /// A vector method into a vector of `n` entries (of a size known at compile or run time).
    pub(crate) fn vector_in<N: Dim>(
        &self,
        method: impl Method,
        args: &[&[f64]],
        n: N,
    ) -> OVector<f64, N>
    where
        DefaultAllocator: Allocator<N>,
    {
        let mut out = OVector::<f64, N>::zeros_generic(n, U1);
        self.eval(method, args, out.as_mut_slice());
        out
    }

    /// A matrix method.
    pub(crate) fn matrix<const R: usize, const C: usize>(
        &self,
        method: impl Method,
        args: &[&[f64]],
    ) -> SMatrix<f64, R, C> {
        self.matrix_in(method, args, (Const, Const))
    }

    /// A matrix method into an `r × c` matrix (the tape's row-major output is the column-major
    /// storage of the transpose).
    pub(crate) fn matrix_in<R: Dim, C: Dim>(
        &self,
        method: impl Method,
        args: &[&[f64]],
        (r, c): (R, C),
    ) -> OMatrix<f64, R, C>
    where
        DefaultAllocator: Allocator<C, R> + Allocator<R, C>,
    {
        let mut transpose = OMatrix::<f64, C, R>::zeros_generic(c, r);
        self.eval(method, args, transpose.as_mut_slice());
        transpose.transpose()
    }
}
