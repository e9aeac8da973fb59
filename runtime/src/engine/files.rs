//! Problem files as [`Kernels`]: each kernel and partial the engine asks for is the file's
//! tape of the trait method the compiled steppers would call, evaluated into the engine's
//! slices at the file's run-time dimensions.

use super::Kernels;
use super::access::{self, Work};
use super::fusion::{Call, Callee, Fused};
use crate::layout::Dims;
use crate::problem_file::{
    DegenerateLagrangianFile, DegenerateMethod, HolonomicFile, HolonomicMethod, LagrangianFile,
    LagrangianMethod,
};
use sparkgen_description::structure::{AtomKind, DaeFunction, Kernel, ProblemKind};

/// Evaluates a file's method, or writes NaN where the engine asked for a kernel the kind does
/// not have or with arguments that do not fit (the engine checks kinds and widths first).
fn or_nan<E>(out: &mut [f64], result: Option<Result<(), E>>) {
    if !matches!(result, Some(Ok(()))) {
        out.fill(f64::NAN);
    }
}

/// The trait method of a degenerate-Lagrangian file that `callee` evaluates.
fn degenerate_method(callee: Callee) -> Option<DegenerateMethod> {
    match callee {
        Callee::Vector(Kernel::Map) => Some(DegenerateMethod::Theta),
        Callee::Vector(Kernel::Gradient) => Some(DegenerateMethod::HamiltonianGradient),
        Callee::Matrix(AtomKind::J) => Some(DegenerateMethod::ThetaJacobian),
        Callee::Matrix(AtomKind::Hessian) => Some(DegenerateMethod::HamiltonianHessian),
        Callee::Matrix(AtomKind::DJacT) => {
            Some(DegenerateMethod::JacobianTransposeProductDerivative)
        }
        Callee::Matrix(AtomKind::DJac) => Some(DegenerateMethod::JacobianProductDerivative),
        _ => None,
    }
}

/// The trait method of a holonomic file that `callee` evaluates.
fn holonomic_method(callee: Callee) -> Option<HolonomicMethod> {
    match callee {
        Callee::Vector(Kernel::Map) => Some(HolonomicMethod::Constraints),
        Callee::Vector(Kernel::Gradient) => Some(HolonomicMethod::PotentialGradient),
        Callee::Matrix(AtomKind::J) => Some(HolonomicMethod::ConstraintJacobian),
        Callee::Matrix(AtomKind::Hessian) => Some(HolonomicMethod::PotentialHessian),
        Callee::Matrix(AtomKind::DJacT) => Some(HolonomicMethod::ConstraintForceDerivative),
        Callee::Matrix(AtomKind::DJac) => Some(HolonomicMethod::ConstraintVelocityDerivative),
        Callee::Matrix(AtomKind::MassInverse) => Some(HolonomicMethod::InverseMassMatrix),
        _ => None,
    }
}

/// The methods of `calls` with their argument positions, if the file has every one.
fn parts<M>(calls: &[Call], method: impl Fn(Callee) -> Option<M>) -> Option<Vec<(M, &[usize])>> {
    calls
        .iter()
        .map(|call| Some((method(call.callee)?, call.args())))
        .collect()
}

impl Kernels for DegenerateLagrangianFile {
    fn compile(&self) {
        DegenerateLagrangianFile::compile(self);
    }

    fn kind(&self) -> ProblemKind {
        ProblemKind::DegenerateLagrangian
    }

    fn dims(&self) -> Dims {
        Dims::uniform(self.dimension())
    }

    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        let result = degenerate_method(Callee::Vector(kernel)).map(|m| self.evaluate(m, args, out));
        or_nan(out, result);
    }

    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        let result = degenerate_method(Callee::Matrix(atom)).map(|m| self.evaluate(m, args, out));
        or_nan(out, result);
    }

    fn fuse(&self, calls: &[Call], args: usize) -> Option<Fused> {
        let (tape, parameters) = self.model.fuse(&parts(calls, degenerate_method)?, args)?;
        Some(Fused::new(tape, parameters))
    }

    /// `H(q)`.
    fn energy(&self, q: &[f64], _: &[f64], _: &mut Work) -> Option<f64> {
        let mut h = [0.0];
        self.evaluate(DegenerateMethod::Hamiltonian, &[q], &mut h)
            .ok()
            .map(|()| h[0])
    }
}

impl Kernels for HolonomicFile {
    fn compile(&self) {
        HolonomicFile::compile(self);
    }

    fn kind(&self) -> ProblemKind {
        ProblemKind::Holonomic
    }

    fn dims(&self) -> Dims {
        Dims::new(self.dimension(), self.constraints())
    }

    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        let result = holonomic_method(Callee::Vector(kernel)).map(|m| self.evaluate(m, args, out));
        or_nan(out, result);
    }

    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        let result = holonomic_method(Callee::Matrix(atom)).map(|m| self.evaluate(m, args, out));
        or_nan(out, result);
    }

    fn fuse(&self, calls: &[Call], args: usize) -> Option<Fused> {
        let (tape, parameters) = self.model.fuse(&parts(calls, holonomic_method)?, args)?;
        Some(Fused::new(tape, parameters))
    }

    /// `H(q, p) = ½ pᵀM⁻¹p + V(q)`.
    fn energy(&self, q: &[f64], p: &[f64], work: &mut Work) -> Option<f64> {
        let mut v = [0.0];
        self.evaluate(HolonomicMethod::Potential, &[q], &mut v)
            .ok()?;
        Some(0.5 * access::kinetic(self, p, work) + v[0])
    }
}

/// A Lagrangian `L(q, v)` as the implicit DAE of its Euler–Lagrange equations with no
/// constraint (`M = 0`, upstream's LODE, as [`crate::problem::LagrangianOde`]): `ϑ = ∂L/∂v`,
/// `f = ∂L/∂q` and their partials, `u = g = 0`, `φ` empty. The state is `(q, p)`; the velocity
/// is the inverse Legendre transform, the energy `E = p·v − L(q, v)` there.
impl Kernels for LagrangianFile {
    fn compile(&self) {
        LagrangianFile::compile(self);
    }

    fn kind(&self) -> ProblemKind {
        ProblemKind::ImplicitDae
    }

    fn dims(&self) -> Dims {
        Dims::new(self.dimension(), 0)
    }

    fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
        let method = match kernel {
            Kernel::Dae(DaeFunction::Theta) => Some(LagrangianMethod::Momentum),
            Kernel::Dae(DaeFunction::Force) => Some(LagrangianMethod::PositionGradient),
            Kernel::Dae(DaeFunction::U | DaeFunction::G | DaeFunction::Phi) => {
                out.fill(0.0);
                return;
            }
            _ => None,
        };
        let result = method.map(|m| self.evaluate(m, args, out));
        or_nan(out, result);
    }

    fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
        // ∂f/∂v = ∂²L/∂q∂v = (∂²L/∂v∂q)ᵀ: the mixed Hessian, transposed.
        let (method, transposed) = match atom {
            AtomKind::DaePartial(DaeFunction::Theta, 0) => (LagrangianMethod::MixedHessian, false),
            AtomKind::DaePartial(DaeFunction::Theta, _) => {
                (LagrangianMethod::VelocityHessian, false)
            }
            AtomKind::DaePartial(DaeFunction::Force, 0) => {
                (LagrangianMethod::PositionHessian, false)
            }
            AtomKind::DaePartial(DaeFunction::Force, _) => (LagrangianMethod::MixedHessian, true),
            AtomKind::DaePartial(DaeFunction::U | DaeFunction::G | DaeFunction::Phi, _) => {
                out.fill(0.0);
                return;
            }
            _ => {
                out.fill(f64::NAN);
                return;
            }
        };
        let result = self.evaluate(method, args, out);
        if transposed {
            access::transpose(out, self.dimension());
        }
        or_nan(out, Some(result));
    }

    /// The inverse Legendre transform `v(q, p)`.
    fn velocity(
        &self,
        q: &[f64],
        p: &[f64],
        _: Option<&[f64]>,
        v: &mut [f64],
        work: &mut Work,
    ) -> bool {
        access::momentum_inverse(self, q, p, v, work)
    }

    /// `E = p·v − L(q, v)` at the inverse Legendre transform `v(q, p)`; `None` where it does
    /// not converge.
    fn energy(&self, q: &[f64], p: &[f64], work: &mut Work) -> Option<f64> {
        let v = access::inverse_legendre_of(self, q, p, work)?;
        let mut l = [0.0];
        self.evaluate(LagrangianMethod::Lagrangian, &[q, v], &mut l)
            .ok()?;
        Some(p.iter().zip(v).map(|(p, v)| p * v).sum::<f64>() - l[0])
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Backend, Degenerate, Engine, Holonomic, Kernels, Step, Tangent};
    use super::{AtomKind, Call, Fused, Kernel, ProblemKind};
    use crate::holonomic::problems::Pendulum;
    use crate::layout::Dims;
    use crate::problem_file::DegenerateLagrangianFile;
    use crate::problem_file::ProblemFile;
    use crate::problems::LotkaVolterra2d;

    fn file(name: &str) -> ProblemFile {
        let path = format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR"));
        ProblemFile::read(path).expect("a shipped problem file")
    }

    /// The residual and Jacobian of `method` on `a` and on `b`, at `(q, p)` and unknowns from a
    /// fixed sequence, bit for bit.
    fn same<A: Kernels, B: Kernels>(method: &str, a: &A, b: &B, q: &[f64], p: &[f64]) {
        let engine = Engine::catalogue(method, a.dims()).expect("in the catalogue");
        engine.check(a).expect("the file fits");
        engine.check(b).expect("the derive fits");
        let n = engine.len();
        let x: Vec<f64> = (0..n).map(|k| 0.05 * (k as f64 + 1.0).sin()).collect();
        let step = Step {
            h: 0.1,
            q,
            p,
            lambda: &[],
            x: &x,
        };
        let mut ws = engine.workspace();
        let (mut r_a, mut r_b) = (vec![0.0; n], vec![1.0; n]);
        engine.residual(&mut ws, a, &step, &mut r_a);
        engine.residual(&mut ws, b, &step, &mut r_b);
        assert_eq!(r_a, r_b, "{method}");
        let (mut j_a, mut j_b) = (vec![0.0; n * n], vec![1.0; n * n]);
        engine.jacobian(&mut ws, a, &step, &mut j_a);
        engine.jacobian(&mut ws, b, &step, &mut j_b);
        assert_eq!(j_a, j_b, "{method}");
        assert!(r_a.iter().chain(&j_a).all(|v| v.is_finite()), "{method}");
    }

    #[test]
    fn a_degenerate_file_is_evaluated_as_its_derive() {
        let ProblemFile::DegenerateLagrangian(lv_file) = file("lotka_volterra.toml") else {
            panic!("a degenerate Lagrangian");
        };
        let lv = LotkaVolterra2d::UPSTREAM;
        // p₀ = ϑ(q₀) = (q₂ + ln q₂/q₁, q₁) = (1, 2) at q₀ = (2, 1), perturbed.
        let (q, p) = ([2.0, 1.0], [1.02, 1.97]);
        for method in ["SlrkLobattoIIIE3", "VprkGauss3", "VsparkGlrk2"] {
            same(method, &lv_file, &Degenerate(&lv), &q, &p);
        }
        assert_eq!(lv_file.dims(), Dims::uniform(2));
    }

    /// Calls `check` with every method of the catalogue, its engine, the kernels of its kind
    /// (Lotka–Volterra's file, the pendulum's file) and a step at fixed inputs; the number of
    /// methods checked.
    fn every_method(mut check: impl FnMut(&str, &Engine, &dyn Kernels, &Step<'_>)) -> usize {
        use crate::generated::descriptions::DESCRIPTIONS;
        let ProblemFile::DegenerateLagrangian(lv) = file("lotka_volterra.toml") else {
            panic!("a degenerate Lagrangian");
        };
        let ProblemFile::Holonomic(pendulum) = file("pendulum.toml") else {
            panic!("a holonomic system");
        };
        let names = DESCRIPTIONS
            .iter()
            .flat_map(|(_, text)| text.lines())
            .filter_map(|l| l.strip_prefix("method "));
        let mut checked = 0;
        for name in names {
            let (problem, q, p): (&dyn Kernels, _, _) = match Engine::catalogue(name, lv.dims()) {
                Ok(e) if e.check(&lv).is_ok() => (&lv, [2.0, 1.0], [1.02, 1.97]),
                _ => (&pendulum, [0.6, -0.8], [0.08, 0.06]),
            };
            let Ok(engine) = Engine::catalogue(name, problem.dims()) else {
                continue;
            };
            if engine.check(problem).is_err() {
                continue;
            }
            let n = engine.len();
            let x: Vec<f64> = (0..n).map(|k| 0.05 * (k as f64 + 1.0).sin()).collect();
            let lambda = &[0.01, 0.02][..engine.dims().constraints.min(2)];
            let step = Step {
                h: 0.1,
                q: &q,
                p: &p,
                lambda,
                x: &x,
            };
            check(name, &engine, problem, &step);
            checked += 1;
        }
        checked
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// The partials evaluated after the residual at the same inputs, without the residual's
    /// operations, equal the whole sections' bit for bit, for every method of the catalogue.
    #[test]
    fn partials_after_the_residual_equal_the_whole_evaluation() {
        let checked = every_method(|name, engine, problem, step| {
            let n = engine.len();
            let (mut fresh, mut reused) = (engine.workspace(), engine.workspace());
            let mut r = vec![0.0; n];
            let (mut j_full, mut j_reused) = (vec![0.0; n * n], vec![1.0; n * n]);
            engine.jacobian(&mut fresh, problem, step, &mut j_full);
            engine.residual(&mut reused, problem, step, &mut r);
            engine.jacobian_of(&mut reused, problem, step, &mut j_reused, true);
            assert_eq!(bits(&j_full), bits(&j_reused), "{name}");
            let d = engine.dims().coordinates;
            let (mut t_full, mut t_reused) = (Tangent::zero(n, d), Tangent::zero(n, d));
            engine.tangent(&mut fresh, problem, step, &mut t_full);
            engine.residual(&mut reused, problem, step, &mut r);
            engine.residual_partials(&mut reused, problem, step, &mut t_reused, true);
            assert_eq!(bits(&t_full.r_q), bits(&t_reused.r_q), "{name}");
            assert_eq!(bits(&t_full.r_p), bits(&t_reused.r_p), "{name}");
        });
        assert!(checked >= 270, "{checked} methods checked");
    }

    /// Every function of the step as machine code ([`Backend::Jit`]) equals the interpreter's
    /// evaluation bit for bit, for every method of the catalogue, at two step sizes (the
    /// scalars of h reloaded), with the partials after the residual (its values reused) and
    /// without.
    #[test]
    fn the_machine_code_gives_the_interpreters_bits() {
        let checked = every_method(|name, engine, problem, step| {
            let (n, d) = (engine.len(), engine.dims().coordinates);
            let mut interpreted = engine.workspace_for(problem, Backend::Interpreter);
            let mut compiled = engine.workspace_for(problem, Backend::Jit);
            assert_eq!(compiled.backend(), Backend::Jit, "{name}");
            assert_eq!(interpreted.backend(), Backend::Interpreter, "{name}");
            for h in [step.h, 0.37 * step.h] {
                let step = Step { h, ..*step };
                let mut values = Vec::new();
                for ws in [&mut interpreted, &mut compiled] {
                    let (mut r, mut j, mut j_reused) =
                        (vec![0.5; n], vec![0.5; n * n], vec![0.5; n * n]);
                    let (mut t, mut t_reused) = (Tangent::zero(n, d), Tangent::zero(n, d));
                    let (mut q1, mut p1) = (vec![0.5; d], vec![0.5; d]);
                    engine.jacobian(ws, problem, &step, &mut j);
                    engine.tangent(ws, problem, &step, &mut t);
                    engine.residual(ws, problem, &step, &mut r);
                    engine.jacobian_of(ws, problem, &step, &mut j_reused, true);
                    engine.residual_partials(ws, problem, &step, &mut t_reused, true);
                    engine.update(ws, problem, &step, &mut q1, &mut p1);
                    let blocks = [
                        &t.r_q, &t.r_p, &t.q_x, &t.p_x, &t.q_q, &t.q_p, &t.p_q, &t.p_p,
                    ];
                    let all: Vec<u64> = [&r, &j, &j_reused, &t_reused.r_q, &t_reused.r_p, &q1, &p1]
                        .into_iter()
                        .chain(blocks)
                        .flat_map(|v| bits(v))
                        .collect();
                    values.push(all);
                }
                assert_eq!(values[0], values[1], "{name} at h = {h}");
            }
        });
        assert!(checked >= 270, "{checked} methods checked");
    }

    /// Every function of the step evaluated with the kernel calls at each stage point fused
    /// into one tape equals its evaluation call by call, bit for bit, for every method of the
    /// catalogue, and the files fuse the calls of every method that has any to fuse.
    #[test]
    fn fused_kernel_calls_give_the_separate_calls_bits() {
        let mut fusing = 0;
        let checked = every_method(|name, engine, problem, step| {
            let (n, d) = (engine.len(), engine.dims().coordinates);
            let (mut alone, mut fused) = (
                engine.workspace(),
                engine.workspace_for(problem, Backend::Interpreter),
            );
            let groups = engine.program.groups.len();
            assert_eq!(fused.fused.iter().flatten().count(), groups, "{name}");
            fusing += usize::from(groups > 0);
            let (mut r_a, mut r_f) = (vec![0.0; n], vec![1.0; n]);
            engine.residual(&mut alone, problem, step, &mut r_a);
            engine.residual(&mut fused, problem, step, &mut r_f);
            assert_eq!(bits(&r_a), bits(&r_f), "{name}");
            let (mut j_a, mut j_f) = (vec![0.0; n * n], vec![1.0; n * n]);
            engine.jacobian_of(&mut alone, problem, step, &mut j_a, true);
            engine.jacobian_of(&mut fused, problem, step, &mut j_f, true);
            assert_eq!(bits(&j_a), bits(&j_f), "{name}");
            engine.jacobian(&mut alone, problem, step, &mut j_a);
            engine.jacobian(&mut fused, problem, step, &mut j_f);
            assert_eq!(bits(&j_a), bits(&j_f), "{name}");
            let (mut t_a, mut t_f) = (Tangent::zero(n, d), Tangent::zero(n, d));
            engine.tangent(&mut alone, problem, step, &mut t_a);
            engine.tangent(&mut fused, problem, step, &mut t_f);
            for (a, f) in [
                (&t_a.r_q, &t_f.r_q),
                (&t_a.r_p, &t_f.r_p),
                (&t_a.q_x, &t_f.q_x),
                (&t_a.p_x, &t_f.p_x),
                (&t_a.p_q, &t_f.p_q),
            ] {
                assert_eq!(bits(a), bits(f), "{name}");
            }
            let (mut q_a, mut p_a, mut q_f, mut p_f) =
                (vec![0.0; d], vec![0.0; d], vec![1.0; d], vec![1.0; d]);
            engine.update(&mut alone, problem, step, &mut q_a, &mut p_a);
            engine.update(&mut fused, problem, step, &mut q_f, &mut p_f);
            assert_eq!(bits(&q_a), bits(&q_f), "{name}");
            assert_eq!(bits(&p_a), bits(&p_f), "{name}");
        });
        println!("{fusing} of {checked} methods fuse kernel calls");
        assert!(checked >= 270, "{checked} methods checked");
        assert!(
            fusing >= checked / 2,
            "{fusing} of {checked} methods fuse calls"
        );
    }

    /// Steppers on one file share its fused tapes: the second workspace for the file evaluates
    /// the tapes the first one built, so an ensemble fuses once, not per member.
    #[test]
    fn fused_tapes_are_built_once_per_file() {
        let ProblemFile::DegenerateLagrangian(gc) = file("guiding_centre.toml") else {
            panic!("a degenerate Lagrangian");
        };
        let engine = Engine::catalogue("VsparkPrimaryGlrkpMidpoint3", gc.dims()).expect("known");
        let (first, second) = (
            engine.workspace_for(&gc, Backend::Interpreter),
            engine.workspace_for(&gc, Backend::Interpreter),
        );
        assert!(!first.fused.is_empty());
        for (a, b) in first.fused.iter().zip(&second.fused) {
            let (Some(a), Some(b)) = (a, b) else {
                panic!("the file fuses every group");
            };
            assert!(a.shares_tape(b));
        }
    }

    /// A problem that answers every group with the fused tape of the group's first call alone.
    struct Short<'a>(&'a DegenerateLagrangianFile);

    impl Kernels for Short<'_> {
        fn kind(&self) -> ProblemKind {
            self.0.kind()
        }
        fn dims(&self) -> Dims {
            self.0.dims()
        }
        fn vector(&self, kernel: Kernel, args: &[&[f64]], out: &mut [f64]) {
            self.0.vector(kernel, args, out);
        }
        fn matrix(&self, atom: AtomKind, args: &[&[f64]], out: &mut [f64]) {
            self.0.matrix(atom, args, out);
        }
        fn fuse(&self, calls: &[Call], args: usize) -> Option<Fused> {
            self.0.fuse(&calls[..1], args)
        }
    }

    /// A fused evaluation that does not write every output of its group is not used: the
    /// calls are evaluated one by one, as without fusion.
    #[test]
    fn a_fused_evaluation_of_the_wrong_length_is_not_used() {
        let ProblemFile::DegenerateLagrangian(lv) = file("lotka_volterra.toml") else {
            panic!("a degenerate Lagrangian");
        };
        let engine = Engine::catalogue("SlrkLobattoIIIE3", lv.dims()).expect("known");
        let short = Short(&lv);
        let mut ws = engine.workspace_for(&short, Backend::Interpreter);
        assert!(!ws.fused.is_empty());
        assert!(ws.fused.iter().all(Option::is_none));
        let n = engine.len();
        let x: Vec<f64> = (0..n).map(|k| 0.05 * (k as f64 + 1.0).sin()).collect();
        let step = Step {
            h: 0.1,
            q: &[2.0, 1.0],
            p: &[1.02, 1.97],
            lambda: &[],
            x: &x,
        };
        let (mut r_short, mut r) = (vec![0.0; n], vec![1.0; n]);
        engine.residual(&mut ws, &short, &step, &mut r_short);
        engine.residual(&mut engine.workspace(), &lv, &step, &mut r);
        assert_eq!(bits(&r_short), bits(&r));
    }

    #[test]
    fn a_holonomic_file_is_evaluated_as_its_derive() {
        let ProblemFile::Holonomic(file) = file("pendulum.toml") else {
            panic!("a holonomic system");
        };
        let pendulum = Pendulum {
            m: 1.0,
            g: 1.0,
            l: 1.0,
        };
        let (q, p) = file.initial();
        for method in ["RattleLobattoIIIAIIIB2", "RattleLobattoIIIAIIIB3"] {
            same(method, &file, &Holonomic(&pendulum), q, p);
        }
        assert_eq!(file.dims(), Dims::new(2, 1));
    }
}
