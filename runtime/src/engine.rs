//! The run-time stage engine: any method description, evaluated for a problem whose sizes
//! (`D` coordinates, `M` constraints, `N` unknowns) are known only at run time.
//!
//! An [`Engine`] is a method's description ([`sparkgen_description::Method`], the text in
//! `generated/descriptions/` that the procedural macro emits compiled steppers from) compiled
//! once for the widths `(D, M)`: the stage residual `r(x; q_n, p_n, λ_n, h)`, its exact Jacobian
//! `∂r/∂x` by the chain rule over the stage structure (the emitter's
//! [`sparkgen_description::jacobian`]), the partials `∂r/∂(q, p)`, `∂(q₁, p₁)/∂(x, q, p)` of the
//! tangent map, and the update `(q_{n+1}, p_{n+1})`. Its problem is any [`Kernels`]: the
//! functions `ϑ`, `∇H`, `c`, `∇V`, `M⁻¹` or the DAE functions and their partials, written into
//! slices. Evaluation allocates nothing: every function runs on one [`Workspace`] allocated
//! per engine.

mod access;
mod eval;
mod files;
mod fusion;
mod kernels;
mod layout;
mod lower;
mod named;
mod native;
mod program;
mod stepping;
mod system;
mod views;

pub use access::{Work, holonomic_residuals};
pub use eval::{Step, Tangent, Workspace};
pub use fusion::{Call, Callee, Fused};
pub use kernels::{Degenerate, Hamiltonian, Holonomic, Implicit, Kernels};
pub use named::Named;
pub use native::Backend;
pub use stepping::Stepping;
pub use system::{Scratch, StageEquations};
pub use views::{DaeForm, DaeView};

use crate::layout::{Dims, Elimination, Layout, Nodes};
use crate::stage::MultiplierUpdate;
use native::Part;
use program::Program;
use sparkgen_description::structure::{MethodError, ProblemKind};
use sparkgen_description::{Coefficient, Method, Scalar, elimination};

/// The most engines [`Engine::catalogue`] keeps for reuse (with the machine code compiled on
/// them); past it the kept ones are dropped and compiled again when asked for.
#[cfg(feature = "catalogue")]
const SHARED_ENGINES: usize = 128;

/// Why a method cannot be run by the engine.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// No method of the catalogue has this name.
    #[error("no method `{name}` in the catalogue")]
    UnknownMethod {
        /// The name asked for.
        name: String,
    },
    /// The catalogue's description of the method does not read (a corrupt build).
    #[error("the description of `{family}` does not read: {message}")]
    Description {
        /// The method's family.
        family: String,
        /// Why.
        message: String,
    },
    /// The description is not a method the engine can evaluate.
    #[error(transparent)]
    Method(#[from] MethodError),
    /// The method applies to another kind of problem.
    #[error("{method} applies to {method_kind:?} problems, not to {problem_kind:?} problems")]
    Kind {
        /// The method's name.
        method: String,
        /// Its kind.
        method_kind: ProblemKind,
        /// The problem's kind.
        problem_kind: ProblemKind,
    },
    /// The method's stage Jacobian (`N × N`) does not fit in the address space.
    #[error("the method has {unknowns} unknowns: its stage Jacobian does not fit in memory")]
    TooLarge {
        /// N.
        unknowns: usize,
    },
    /// The problem's widths are not those the engine was compiled for, or a degenerate
    /// Lagrangian's number of constraints is not its number of coordinates.
    #[error(
        "the problem has D = {coordinates}, M = {constraints}; the method was compiled for D = {expected_coordinates}, M = {expected_constraints}"
    )]
    Widths {
        /// The problem's `D`.
        coordinates: usize,
        /// The problem's `M`.
        constraints: usize,
        /// The `D` expected.
        expected_coordinates: usize,
        /// The `M` expected.
        expected_constraints: usize,
    },
}

/// A method compiled for the widths `(D, M)` (see the module documentation).
#[derive(Clone, Debug)]
pub struct Engine {
    name: String,
    kind: ProblemKind,
    order: usize,
    nodes: Vec<f64>,
    projective_nodes: Vec<f64>,
    unknowns: Layout,
    residuals: Layout,
    rank_deficient: bool,
    multiplier: Option<MultiplierUpdate>,
    /// The static pivots of the stage Jacobian ([`sparkgen_description::elimination`]).
    pivots: Vec<(usize, usize)>,
    program: std::sync::Arc<Program>,
    /// The program compiled to machine code on the problems it has run on.
    natives: native::Cache,
}

impl Engine {
    /// The catalogue method `name` (e.g. `SlrkLobattoIIIE3`) compiled for `dims`: compiled once
    /// per process and shared, so that every run of the method at these widths (a sweep of
    /// step sizes, an ensemble's members) shares its program and the machine code compiled on
    /// each problem file ([`Backend::Jit`]); at most `SHARED_ENGINES` are kept.
    /// [`Engine::new`] compiles a description afresh.
    #[cfg(feature = "catalogue")]
    pub fn catalogue(name: &str, dims: Dims) -> Result<Engine, EngineError> {
        use std::collections::HashMap;
        use std::sync::{Mutex, OnceLock};
        type Shared = Mutex<HashMap<(String, usize, usize), Engine>>;
        static SHARED: OnceLock<Shared> = OnceLock::new();
        let key = (name.to_owned(), dims.coordinates, dims.constraints);
        let shared = SHARED.get_or_init(Shared::default);
        if let Some(engine) = shared.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(engine);
        }
        let engine = Engine::new(&catalogue_method(name)?, dims)?;
        if let Ok(mut map) = shared.lock() {
            // A bound on what a long process keeps: engines in use live on in their clones.
            if map.len() >= SHARED_ENGINES {
                map.clear();
            }
            map.entry(key).or_insert_with(|| engine.clone());
        }
        Ok(engine)
    }

    /// `method` compiled for the widths `dims`.
    pub fn new(method: &Method<Coefficient>, dims: Dims) -> Result<Engine, EngineError> {
        method.check()?;
        if method.problem == ProblemKind::DegenerateLagrangian
            && dims.coordinates != dims.constraints
        {
            return Err(EngineError::Widths {
                coordinates: dims.coordinates,
                constraints: dims.constraints,
                expected_coordinates: dims.coordinates,
                expected_constraints: dims.coordinates,
            });
        }
        let unknowns = layout::interned(&method.blocks);
        let residuals = layout::interned(&method.rows_layout);
        let exact = method.map(Coefficient::value);
        let jac = sparkgen_description::jacobian::jacobian(&exact);
        let program = program::compile(&exact, &jac, dims, unknowns, residuals);
        let pivots = elimination::pivots(&exact, &jac);
        let multiplier = exact.multiplier.as_ref().map(|(block, weights)| {
            let weights: Vec<f64> = weights.iter().map(Scalar::to_f64).collect();
            MultiplierUpdate {
                block: *block,
                weights: layout::interned_weights(&weights),
                read: exact.reads_multiplier(),
            }
        });
        Ok(Engine {
            name: method.name.clone(),
            kind: method.problem,
            order: method.order,
            nodes: exact.nodes.iter().map(Scalar::to_f64).collect(),
            projective_nodes: exact.projective_nodes.iter().map(Scalar::to_f64).collect(),
            unknowns,
            residuals,
            rank_deficient: method.rank_deficient,
            multiplier,
            pivots,
            program: std::sync::Arc::new(program),
            natives: native::Cache::default(),
        })
    }

    /// The method's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The problem kind the method applies to.
    pub fn kind(&self) -> ProblemKind {
        self.kind
    }

    /// Classical order.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The nodes of the internal stages (`c_i`) or of the projective ones (`c̃_j`).
    pub fn nodes(&self, at: Nodes) -> &[f64] {
        match at {
            Nodes::Internal => &self.nodes,
            Nodes::Projective => &self.projective_nodes,
        }
    }

    /// The widths the engine was compiled for.
    pub fn dims(&self) -> Dims {
        self.program.dims
    }

    /// The unknown vector's layout.
    pub fn unknowns(&self) -> &Layout {
        &self.unknowns
    }

    /// The residual vector's layout.
    pub fn residuals(&self) -> &Layout {
        &self.residuals
    }

    /// The static pivots of the stage Jacobian, as the compiled stepper's
    /// [`crate::stage::StageMethod::ELIMINATION`].
    pub fn elimination(&self) -> Option<Elimination<'_>> {
        (!self.pivots.is_empty()).then_some(Elimination {
            pivots: &self.pivots,
            unknowns: self.unknowns,
            residuals: self.residuals,
            dims: self.dims(),
        })
    }

    /// The number of unknowns N.
    pub fn len(&self) -> usize {
        self.program.n
    }

    /// Seconds this engine (and its clones) spent compiling its stage functions to machine code
    /// on the problem files it ran on ([`Backend::Jit`]); `None` where it made none (it ran only
    /// on the interpreter).
    pub fn compile_seconds(&self) -> Option<f64> {
        self.natives.compile_seconds()
    }

    /// Whether the method has no unknowns.
    pub fn is_empty(&self) -> bool {
        self.program.n == 0
    }

    /// Whether the stage Jacobian is rank-deficient by construction.
    pub fn rank_deficient(&self) -> bool {
        self.rank_deficient
    }

    /// How the method forms the multiplier `λ_{n+1}` it carries (`None`: it carries none).
    pub fn multiplier(&self) -> Option<MultiplierUpdate> {
        self.multiplier
    }

    /// A workspace for this engine's evaluations.
    pub fn workspace(&self) -> Workspace {
        Workspace::new(&self.program)
    }

    /// A workspace for this engine's evaluations on `problem` alone: where the problem fuses
    /// the kernel calls at a stage point ([`Kernels::fuse`]), they are evaluated together. A
    /// fused evaluation whose outputs do not have the calls' lengths is not used. With
    /// [`Backend::Jit`], where every kernel call of the problem is a tape, the stage functions
    /// run as machine code compiled once per engine and problem.
    pub(crate) fn workspace_for<K: Kernels + ?Sized>(
        &self,
        problem: &K,
        backend: Backend,
    ) -> Workspace {
        let mut ws = Workspace::new(&self.program);
        ws.fused = self
            .program
            .groups
            .iter()
            .map(|group| {
                problem
                    .fuse(&group.calls, group.args.len())
                    .filter(|fused| fused.outputs() == group.outputs())
            })
            .collect();
        if backend == Backend::Jit {
            let single =
                |call: &fusion::Call, args: usize| problem.fuse(std::slice::from_ref(call), args);
            if let Some(tapes) = lower::Tapes::collect(&self.program, &ws.fused, single) {
                ws.parameters = tapes.parameters.clone();
                ws.native = self.natives.share(&self.program, tapes);
            }
        }
        ws
    }

    /// `Ok` when `problem` is of the method's kind and has the engine's widths.
    pub fn check<K: Kernels + ?Sized>(&self, problem: &K) -> Result<(), EngineError> {
        if problem.kind() != self.kind {
            return Err(EngineError::Kind {
                method: self.name.clone(),
                method_kind: self.kind,
                problem_kind: problem.kind(),
            });
        }
        let (dims, expected) = (problem.dims(), self.program.dims);
        if dims != expected {
            return Err(EngineError::Widths {
                coordinates: dims.coordinates,
                constraints: dims.constraints,
                expected_coordinates: expected.coordinates,
                expected_constraints: expected.constraints,
            });
        }
        Ok(())
    }

    /// Writes `r(x)` (`N` long) for `step`.
    pub fn residual<K: Kernels + ?Sized>(
        &self,
        ws: &mut Workspace,
        problem: &K,
        step: &Step<'_>,
        r: &mut [f64],
    ) {
        let program = &self.program;
        eval::load(program, ws, step);
        eval::evaluate(program, Part::Residual, ws, problem, None, None);
        ws.residual_current = true;
        for &(at, offset, len) in &program.stores {
            r[offset..offset + len].copy_from_slice(&ws.arena[at..at + len]);
        }
    }

    /// Loads `step`; whether the section after the residual is the one to run: with `reuse`,
    /// and when the residual was the last evaluation at `step` on `ws`, the residual's values
    /// are in the arena (the caller vouches that the problem is the same).
    fn after_residual(&self, ws: &mut Workspace, step: &Step<'_>, reuse: bool) -> bool {
        eval::load(&self.program, ws, step);
        reuse && ws.residual_current
    }

    /// Writes the exact Jacobian `∂r/∂x` into `j` (`N × N`, row-major).
    pub fn jacobian<K: Kernels + ?Sized>(
        &self,
        ws: &mut Workspace,
        problem: &K,
        step: &Step<'_>,
        j: &mut [f64],
    ) {
        self.jacobian_of(ws, problem, step, j, false);
    }

    /// [`Engine::jacobian`]; with `reuse`, after the residual at `step` on the same problem, the
    /// values the residual computed are not computed again.
    pub(crate) fn jacobian_of<K: Kernels + ?Sized>(
        &self,
        ws: &mut Workspace,
        problem: &K,
        step: &Step<'_>,
        j: &mut [f64],
        reuse: bool,
    ) {
        let part = Part::Jacobian(self.after_residual(ws, step, reuse));
        eval::evaluate(&self.program, part, ws, problem, Some(j), None);
    }

    /// Writes the partials of the residual and the update with respect to the inputs and the
    /// unknowns ([`Tangent`], from [`Tangent::zero`]`(N, D)`).
    pub fn tangent<K: Kernels + ?Sized>(
        &self,
        ws: &mut Workspace,
        problem: &K,
        step: &Step<'_>,
        t: &mut Tangent,
    ) {
        let part = Part::Tangent(self.after_residual(ws, step, false));
        eval::evaluate(&self.program, part, ws, problem, None, Some(t));
    }

    /// Writes `∂r/∂q` and `∂r/∂p` into `t` (the rest of `t` zero), as [`Engine::tangent`] does
    /// without the update's partials; `reuse` as for [`Engine::jacobian_of`].
    pub(crate) fn residual_partials<K: Kernels + ?Sized>(
        &self,
        ws: &mut Workspace,
        problem: &K,
        step: &Step<'_>,
        t: &mut Tangent,
        reuse: bool,
    ) {
        let part = Part::Scales(self.after_residual(ws, step, reuse));
        eval::evaluate(&self.program, part, ws, problem, None, Some(t));
    }

    /// Writes `(q_{n+1}, p_{n+1})` from the converged unknowns `step.x`.
    pub fn update<K: Kernels + ?Sized>(
        &self,
        ws: &mut Workspace,
        problem: &K,
        step: &Step<'_>,
        q1: &mut [f64],
        p1: &mut [f64],
    ) {
        let program = &self.program;
        eval::load(program, ws, step);
        eval::evaluate(program, Part::Update, ws, problem, None, None);
        let d = program.dims.coordinates;
        q1[..d].copy_from_slice(&ws.arena[program.q_next..program.q_next + d]);
        p1[..d].copy_from_slice(&ws.arena[program.p_next..program.p_next + d]);
    }
}

/// The catalogue's descriptions of the methods of `family` (every `s`), read.
#[cfg(feature = "catalogue")]
pub fn catalogue_family(family: &str) -> Result<Vec<Method<Coefficient>>, EngineError> {
    use crate::generated::descriptions::DESCRIPTIONS;
    let (family, description) =
        DESCRIPTIONS
            .iter()
            .find(|(f, _)| *f == family)
            .ok_or_else(|| EngineError::UnknownMethod {
                name: family.to_owned(),
            })?;
    read_family(family, description)
}

/// The catalogue's description of the method `name`: the family whose description has a
/// `method name` line, read.
#[cfg(feature = "catalogue")]
pub fn catalogue_method(name: &str) -> Result<Method<Coefficient>, EngineError> {
    use crate::generated::descriptions::DESCRIPTIONS;
    let line = format!("method {name}");
    let unknown = || EngineError::UnknownMethod {
        name: name.to_owned(),
    };
    let (family, description) = DESCRIPTIONS
        .iter()
        .find(|(_, text)| text.lines().any(|l| l == line))
        .ok_or_else(unknown)?;
    read_family(family, description)?
        .into_iter()
        .find(|m| m.name == name)
        .ok_or_else(unknown)
}

/// The methods of the catalogue's description `description` of `family`, read.
#[cfg(feature = "catalogue")]
fn read_family(family: &str, description: &str) -> Result<Vec<Method<Coefficient>>, EngineError> {
    use crate::generated::descriptions::ROUNDINGS;
    use sparkgen_description::text::{self, Roundings};
    let corrupt = |message: String| EngineError::Description {
        family: family.to_owned(),
        message,
    };
    let roundings = Roundings::read(ROUNDINGS).map_err(|e| corrupt(e.to_string()))?;
    text::read(description, &roundings).map_err(|e| corrupt(e.to_string()))
}
