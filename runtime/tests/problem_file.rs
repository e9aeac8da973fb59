//! Problem files (`sparkgen::problem_file`): the example file reproduces the built-in
//! Lotka–Volterra trajectory, every trait method of a file agrees with the derive-generated
//! problem it states, definitions compute what the problem written out computes, the run-time
//! `evaluate` what the views compute, and every kind of mistake is reported at its exact line
//! and column.

use nalgebra::{SMatrix, SVector};
use sparkgen::generated::steppers::SlrkLobattoIIIE3;
use sparkgen::holonomic::problems::{Pendulum, Triatomic};
use sparkgen::integrate::Options;
use sparkgen::problem::{DegenerateLagrangian, HolonomicSystem, Lagrangian};
use sparkgen::problem_file::{
    DegenerateLagrangianFile, DegenerateMethod, DimensionError, ErrorKind, EvaluateError,
    HolonomicFile, HolonomicMethod, LagrangianFile, LagrangianMethod, MassError, ProblemFile,
    ProblemFileError, ValueError,
};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve;

/// The example file shipped with the runtime.
fn lotka_volterra_file() -> ProblemFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/lotka_volterra.toml");
    ProblemFile::read(path).expect("the example file is valid")
}

/// A deterministic uniform sampler (xorshift64*), so that failures reproduce.
struct Sampler(u64);

impl Sampler {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
        lo + (hi - lo) * (bits as f64 / (1u64 << 53) as f64)
    }

    fn vector<const N: usize>(&mut self, lo: f64, hi: f64) -> SVector<f64, N> {
        SVector::from_fn(|_, _| self.uniform(lo, hi))
    }
}

/// max |a − b| / max(|b|∞, 1e-300) over the entries (0 when both are exactly equal).
fn relative<const R: usize, const C: usize>(a: &SMatrix<f64, R, C>, b: &SMatrix<f64, R, C>) -> f64 {
    (a - b).amax() / b.amax().max(1e-300)
}

const POINTS: usize = 200;
const TOLERANCE: f64 = 1e-14;

#[test]
fn example_file_reproduces_the_compiled_lotka_volterra_trajectory() {
    let ProblemFile::DegenerateLagrangian(file) = lotka_volterra_file() else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let interpreted = file.view::<2>().expect("two coordinates");
    let compiled = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = compiled.initial(LotkaVolterra2d::UPSTREAM_Q0);
    assert_eq!(interpreted.initial(), (q0, p0));

    let options = Options::new(0.1, 1000);
    let a = solve(&interpreted, SlrkLobattoIIIE3, q0, p0, &options)
        .expect("Newton converges on the file's problem");
    let b = solve(&compiled, SlrkLobattoIIIE3, q0, p0, &options)
        .expect("Newton converges on the built-in problem");
    assert_eq!(a.q.len(), 1001);
    let deviation =
        a.q.iter()
            .zip(&b.q)
            .chain(a.p.iter().zip(&b.p))
            .map(|(x, y)| (x - y).amax() / y.amax().max(1.0))
            .fold(0.0, f64::max);
    println!("max deviation over 1000 steps: {deviation:e}");
    assert!(deviation <= 1e-13, "deviation {deviation:e}");
}

#[test]
fn lotka_volterra_methods_agree_with_the_derive() {
    let ProblemFile::DegenerateLagrangian(file) = lotka_volterra_file() else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let a = file.view::<2>().expect("two coordinates");
    let b = LotkaVolterra2d::UPSTREAM;
    let mut sampler = Sampler(0x5eed_0001);
    let mut worst = 0.0f64;
    for _ in 0..POINTS {
        let q = sampler.vector::<2>(0.2, 4.0);
        let w = sampler.vector::<2>(-2.0, 2.0);
        let errors = [
            relative(&a.theta(&q), &b.theta(&q)),
            relative(&a.theta_jacobian(&q), &b.theta_jacobian(&q)),
            relative(
                &SVector::<f64, 1>::new(a.hamiltonian(&q)),
                &SVector::<f64, 1>::new(b.hamiltonian(&q)),
            ),
            relative(&a.hamiltonian_gradient(&q), &b.hamiltonian_gradient(&q)),
            relative(&a.hamiltonian_hessian(&q), &b.hamiltonian_hessian(&q)),
            relative(
                &a.jacobian_transpose_product_derivative(&q, &w),
                &b.jacobian_transpose_product_derivative(&q, &w),
            ),
            relative(
                &a.jacobian_product_derivative(&q, &w),
                &b.jacobian_product_derivative(&q, &w),
            ),
        ];
        worst = errors.into_iter().fold(worst, f64::max);
    }
    println!("worst relative difference: {worst:e}");
    assert!(worst <= TOLERANCE, "worst relative difference {worst:e}");
}

/// Compares every `HolonomicSystem` method of `a` and `b` at random `q`, λ and v.
fn holonomic_agreement<const D: usize, const M: usize>(
    a: &impl HolonomicSystem<D, M>,
    b: &impl HolonomicSystem<D, M>,
    seed: u64,
) -> f64 {
    let mut sampler = Sampler(seed);
    let mut worst = relative(&a.mass_matrix(), &b.mass_matrix())
        .max(relative(&a.inverse_mass_matrix(), &b.inverse_mass_matrix()));
    for _ in 0..POINTS {
        let q = sampler.vector::<D>(-2.0, 2.0);
        let lambda = sampler.vector::<M>(-2.0, 2.0);
        let v = sampler.vector::<D>(-2.0, 2.0);
        let errors = [
            relative(
                &SVector::<f64, 1>::new(a.potential(&q)),
                &SVector::<f64, 1>::new(b.potential(&q)),
            ),
            relative(&a.potential_gradient(&q), &b.potential_gradient(&q)),
            relative(&a.potential_hessian(&q), &b.potential_hessian(&q)),
            relative(&a.constraints(&q), &b.constraints(&q)),
            relative(&a.constraint_jacobian(&q), &b.constraint_jacobian(&q)),
            relative(
                &a.constraint_force_derivative(&q, &lambda),
                &b.constraint_force_derivative(&q, &lambda),
            ),
            relative(
                &a.constraint_velocity_derivative(&q, &v),
                &b.constraint_velocity_derivative(&q, &v),
            ),
        ];
        worst = errors.into_iter().fold(worst, f64::max);
    }
    worst
}

#[test]
fn pendulum_methods_agree_with_the_derive() {
    let source = r#"
kind = "holonomic"
coordinates = ["x", "y"]
mass = "m"
potential = "m * g * y"
constraints = ["x * x + y * y - l * l"]

[parameters]
m = 1.3
g = 9.81
l = 0.7

[initial]
q = [0.0, -0.7]
p = [0.5, 0.0]
"#;
    let ProblemFile::Holonomic(file) = ProblemFile::parse(source).expect("valid file") else {
        panic!("a holonomic system");
    };
    let view = file.view::<2, 1>().expect("D = 2, M = 1");
    let derived = Pendulum {
        m: 1.3,
        g: 9.81,
        l: 0.7,
    };
    let worst = holonomic_agreement(&view, &derived, 0x5eed_0002);
    println!("pendulum: worst relative difference {worst:e}");
    assert!(worst <= TOLERANCE, "worst relative difference {worst:e}");
    let (q0, p0) = view.initial();
    assert_eq!((q0[1], p0[0]), (-0.7, 0.5));
}

#[test]
fn triatomic_methods_agree_with_the_derive() {
    let source = r#"
kind = "holonomic"
coordinates = ["x1", "y1", "z1", "x2", "y2", "z2", "x3", "y3", "z3"]
mass = "[m1, m1, m1, m2, m2, m2, m3, m3, m3]"
potential = """
k / 2.0 * (x1 * x1 + y1 * y1 + z1 * z1 + x2 * x2 + y2 * y2 + z2 * z2 + x3 * x3 + y3 * y3 + z3 * z3)
    + a * (x1 * y2 + y2 * z3 + z3 * x1)"""
constraints = [
    "(x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2) + (z1 - z2) * (z1 - z2) - d12 * d12",
    "(x1 - x3) * (x1 - x3) + (y1 - y3) * (y1 - y3) + (z1 - z3) * (z1 - z3) - d13 * d13",
    "(x2 - x3) * (x2 - x3) + (y2 - y3) * (y2 - y3) + (z2 - z3) * (z2 - z3) - d23 * d23",
]

[parameters]
m1 = 16.0
m2 = 1.0
m3 = 1.0
d12 = 1.0
d13 = 1.0
d23 = 1.5813791474876866
k = 1.0
a = 0.5

[initial]
q = [0, 0, 0, 1, 0, 0, 0, 1, 0]
p = [0, 0, 0, 0, 0, 0, 0, 0, 0]
"#;
    let ProblemFile::Holonomic(file) = ProblemFile::parse(source).expect("valid file") else {
        panic!("a holonomic system");
    };
    assert!(matches!(
        file.view::<9, 2>(),
        Err(DimensionError {
            what: "constraints",
            expected: 2,
            found: 3
        })
    ));
    let view = file.view::<9, 3>().expect("D = 9, M = 3");
    let worst = holonomic_agreement(&view, &Triatomic::WATER_LIKE, 0x5eed_0003);
    println!("triatomic: worst relative difference {worst:e}");
    assert!(worst <= TOLERANCE, "worst relative difference {worst:e}");
}

/// A general Lagrangian, derived here for the comparison: a charged particle in a magnetic
/// field with a non-quadratic potential.
#[derive(Clone, Copy, Debug, Lagrangian)]
#[lagrangian(q = [x, y], v = [u, w], lagrangian = m / 2.0 * (u * u + w * w) + b / 2.0 * (x * w - y * u) - k * cos(x) * exp(y / 3.0))]
struct Charged {
    m: f64,
    b: f64,
    k: f64,
}

#[test]
fn lagrangian_methods_agree_with_the_derive() {
    let source = r#"
kind = "lagrangian"
coordinates = ["x", "y"]
velocities = ["u", "w"]
lagrangian = "m / 2.0 * (u * u + w * w) + b / 2.0 * (x * w - y * u) - k * cos(x) * exp(y / 3.0)"
parameters = { m = 2.0, b = 0.5, k = 3 }
initial = { q = [0.1, 0.2], v = [0.0, 1.0] }
"#;
    let ProblemFile::Lagrangian(file) = ProblemFile::parse(source).expect("valid file") else {
        panic!("a Lagrangian");
    };
    let a = file.view::<2>().expect("two coordinates");
    let b = Charged {
        m: 2.0,
        b: 0.5,
        k: 3.0,
    };
    let mut sampler = Sampler(0x5eed_0004);
    let mut worst = 0.0f64;
    for _ in 0..POINTS {
        let q = sampler.vector::<2>(-2.0, 2.0);
        let v = sampler.vector::<2>(-2.0, 2.0);
        let errors = [
            relative(
                &SVector::<f64, 1>::new(a.lagrangian(&q, &v)),
                &SVector::<f64, 1>::new(b.lagrangian(&q, &v)),
            ),
            relative(&a.position_gradient(&q, &v), &b.position_gradient(&q, &v)),
            relative(&a.momentum(&q, &v), &b.momentum(&q, &v)),
            relative(&a.velocity_hessian(&q, &v), &b.velocity_hessian(&q, &v)),
            relative(&a.mixed_hessian(&q, &v), &b.mixed_hessian(&q, &v)),
            relative(&a.position_hessian(&q, &v), &b.position_hessian(&q, &v)),
        ];
        worst = errors.into_iter().fold(worst, f64::max);
    }
    println!("lagrangian: worst relative difference {worst:e}");
    assert!(worst <= TOLERANCE, "worst relative difference {worst:e}");
}

#[test]
fn parameters_can_be_changed_and_dimensions_are_checked() {
    let mut problem = lotka_volterra_file();
    assert_eq!(problem.coordinates(), ["q1", "q2"]);
    problem.set_parameter("b2", 5.0).expect("b2 is a parameter");
    assert!(problem.set_parameter("c", 1.0).is_err());
    let parameters: Vec<(&str, f64)> = problem.parameters().collect();
    assert!(parameters.contains(&("b2", 5.0)) && parameters.len() == 4);
    let ProblemFile::DegenerateLagrangian(file) = problem else {
        panic!("the example file states a degenerate Lagrangian");
    };
    assert_eq!(
        file.view::<3>().err(),
        Some(DimensionError {
            what: "coordinates",
            expected: 3,
            found: 2
        })
    );
    let view = file.view::<2>().expect("two coordinates");
    let q = SVector::from([1.5, 0.5]);
    let changed = LotkaVolterra2d {
        b2: 5.0,
        ..LotkaVolterra2d::UPSTREAM
    };
    assert_eq!(view.hamiltonian(&q), changed.hamiltonian(&q));
}

/// The single error of `source`: (line, column, kind).
fn error_of(source: &str) -> (usize, usize, ErrorKind) {
    match ProblemFile::parse(source) {
        Ok(_) => panic!("the file has an error"),
        Err(ProblemFileError::Invalid(errors)) => {
            assert_eq!(errors.len(), 1, "one error expected, found {errors:?}");
            let e = &errors[0];
            (e.line, e.column, e.kind.clone())
        }
        Err(other) => panic!("unexpected error {other}"),
    }
}

/// A valid Lotka–Volterra file in which `line` (1-based) is replaced by `replacement`.
fn lotka_volterra_with(line: usize, replacement: &str) -> String {
    let lines = [
        r#"kind = "degenerate_lagrangian""#,
        r#"coordinates = ["q1", "q2"]"#,
        r#"theta = ["q2 + ln(q2) / q1", "q1"]"#,
        r#"hamiltonian = "a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2)""#,
        "[parameters]",
        "a1 = -1.0",
        "a2 = -1.0",
        "b1 = 1.0",
        "b2 = 2.0",
        "[initial]",
        "q = [2.0, 1.0]",
    ];
    let mut lines: Vec<&str> = lines.to_vec();
    lines[line - 1] = replacement;
    lines.join("\n")
}

#[test]
fn toml_syntax_errors_are_located() {
    let source = lotka_volterra_with(2, r#"coordinates = ["q1" "q2"]"#);
    let (line, column, kind) = error_of(&source);
    assert!(matches!(kind, ErrorKind::Toml(_)), "{kind:?}");
    assert_eq!((line, column), (2, 21));
}

#[test]
fn unknown_keys_are_located() {
    let source = lotka_volterra_with(3, r#"   thetta = ["q2 + ln(q2) / q1", "q1"]"#);
    let errors = match ProblemFile::parse(&source) {
        Err(ProblemFileError::Invalid(errors)) => errors,
        other => panic!("expected errors, got {other:?}"),
    };
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].kind, ErrorKind::MissingKey("theta".into()));
    assert_eq!((errors[0].line, errors[0].column), (1, 1));
    assert!(matches!(&errors[1].kind, ErrorKind::UnknownKey { key, .. } if key == "thetta"));
    assert_eq!((errors[1].line, errors[1].column), (3, 4));
}

#[test]
fn missing_keys_are_located_at_their_table() {
    let (line, column, kind) = error_of(&lotka_volterra_with(11, "p = [2.0, 1.0]"));
    assert_eq!(kind, ErrorKind::MissingKey("q".into()));
    assert_eq!((line, column), (10, 1));
    let (line, column, kind) = error_of(&lotka_volterra_with(4, ""));
    assert_eq!(kind, ErrorKind::MissingKey("hamiltonian".into()));
    assert_eq!((line, column), (1, 1));
}

#[test]
fn wrong_dimensions_and_types_are_located() {
    let (line, column, kind) = error_of(&lotka_volterra_with(
        3,
        r#"theta = ["q2", "q1", "q1 * q2"]"#,
    ));
    assert!(matches!(
        kind,
        ErrorKind::WrongDimension {
            expected: 2,
            found: 3,
            ..
        }
    ));
    assert_eq!((line, column), (3, 9));
    let (line, column, kind) = error_of(&lotka_volterra_with(11, "q = [2.0, 1.0, 3.0]"));
    assert!(matches!(kind, ErrorKind::WrongDimension { found: 3, .. }));
    assert_eq!((line, column), (11, 5));
    let (line, column, kind) = error_of(&lotka_volterra_with(6, "a1 = \"-1\""));
    assert!(matches!(kind, ErrorKind::WrongType { .. }));
    assert_eq!((line, column), (6, 6));
    let (line, column, kind) = error_of(&lotka_volterra_with(1, r#"kind = "hamiltonian""#));
    assert_eq!(kind, ErrorKind::UnknownKind("hamiltonian".into()));
    assert_eq!((line, column), (1, 8));
}

#[test]
fn unknown_names_are_located_inside_the_expression() {
    let source = lotka_volterra_with(4, r#"hamiltonian = "a1 * q1 + c * q2""#);
    let (line, column, kind) = error_of(&source);
    assert!(
        matches!(&kind, ErrorKind::UnknownName(m) if m.starts_with("unknown identifier `c`")),
        "{kind:?}"
    );
    assert_eq!((line, column), (4, 26));
    // Escapes before the name shift it in the file, not in the expression.
    let source = lotka_volterra_with(4, r#"hamiltonian = "a1\u0020*\tq1 + c * q2""#);
    let (line, column, _) = error_of(&source);
    assert_eq!((line, column), (4, 32));
    // In a multi-line string, the line is the expression's own.
    let source = lotka_volterra_with(4, "hamiltonian = \"\"\"\na1 * q1\n  + c * q2\"\"\"");
    let (line, column, _) = error_of(&source);
    assert_eq!((line, column), (6, 5));
}

#[test]
fn unsupported_functions_are_located() {
    let source = lotka_volterra_with(3, r#"theta = ["q2 + cbrt(q2) / q1", "q1"]"#);
    let (line, column, kind) = error_of(&source);
    assert!(
        matches!(kind, ErrorKind::UnsupportedFunction(_)),
        "{kind:?}"
    );
    assert_eq!((line, column), (3, 16));
}

#[test]
fn non_differentiable_constructs_are_located() {
    let source = lotka_volterra_with(4, r#"hamiltonian = "a1 * q1 + q2.abs()""#);
    let (line, column, kind) = error_of(&source);
    assert!(matches!(kind, ErrorKind::NotDifferentiable(_)), "{kind:?}");
    assert_eq!((line, column), (4, 26));
}

#[test]
fn expression_syntax_errors_are_located() {
    let source = lotka_volterra_with(3, r#"theta = ["q2 + ", "q1 q2"]"#);
    let errors = match ProblemFile::parse(&source) {
        Err(ProblemFileError::Invalid(errors)) => errors,
        other => panic!("expected errors, got {other:?}"),
    };
    let places: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
    // "unexpected end of input" at the end of the first string; "unexpected token" at `q2`.
    assert_eq!(places, [(3, 16), (3, 23)]);
    assert!(
        errors
            .iter()
            .all(|e| matches!(e.kind, ErrorKind::InvalidExpression(_)))
    );
}

/// A Lotka–Volterra file whose Hamiltonian is `hamiltonian` (a TOML literal string).
fn with_hamiltonian(hamiltonian: &str) -> String {
    lotka_volterra_with(4, &format!("hamiltonian = '{hamiltonian}'"))
}

/// Nesting beyond the parser's limit is a located error, however deep (the parser recursed,
/// and overflowed the stack at 5000 parentheses or 2400 calls).
#[test]
fn deep_nesting_is_a_located_error() {
    let parentheses = format!("{}q1{}", "(".repeat(100_000), ")".repeat(100_000));
    let (line, column, kind) = error_of(&with_hamiltonian(&parentheses));
    assert!(
        matches!(&kind, ErrorKind::InvalidExpression(m) if m.contains("nested too deeply")),
        "{kind:?}"
    );
    // `hamiltonian = '` is 15 characters; the 129th parenthesis is the first too deep.
    assert_eq!((line, column), (4, 15 + 129));
    let calls = format!("{}q1{}", "sin(".repeat(2400), ")".repeat(2400));
    let (line, column, _) = error_of(&with_hamiltonian(&calls));
    assert_eq!((line, column), (4, 15 + 4 * 128 + 4));
}

/// A run of 10⁴ signs (which overflowed the stack) is read: an even number of signs is none.
#[test]
fn long_runs_of_signs_work() {
    let signs = format!("{}q1 * a1", "-".repeat(10_000));
    let ProblemFile::DegenerateLagrangian(file) =
        ProblemFile::parse(&with_hamiltonian(&signs)).expect("a valid file")
    else {
        panic!("a degenerate Lagrangian");
    };
    let view = file.view::<2>().expect("two coordinates");
    let q = SVector::from([1.5, 0.5]);
    assert_eq!(view.hamiltonian(&q), -1.5);
    assert_eq!(view.hamiltonian_gradient(&q), SVector::from([-1.0, 0.0]));
}

/// `terms` terms `c_k * q1^k`-like (distinct: `sin(k * q1)`) and `q1 + q1 + …` to about 1 MB
/// parse, differentiate and compile (they took quadratic time and memory, and the flat sum
/// overflowed the stack); the tapes compute the sums.
#[test]
fn long_sums_are_read() {
    let terms = 16_000;
    let distinct: Vec<String> = (1..=terms).map(|k| format!("sin({k} * q1)")).collect();
    let ProblemFile::DegenerateLagrangian(file) =
        ProblemFile::parse(&with_hamiltonian(&distinct.join(" + "))).expect("a valid file")
    else {
        panic!("a degenerate Lagrangian");
    };
    let view = file.view::<2>().expect("two coordinates");
    let q = SVector::from([0.3, 0.5]);
    let sum = (1..=terms).fold(0.0, |s, k| s + (f64::from(k) * 0.3).sin());
    assert!(
        (view.hamiltonian(&q) - sum).abs() <= 1e-9,
        "{}",
        view.hamiltonian(&q)
    );
    let derivative = (1..=terms).fold(0.0, |s, k| s + f64::from(k) * (f64::from(k) * 0.3).cos());
    let gradient = view.hamiltonian_gradient(&q);
    assert!((gradient[0] - derivative).abs() <= 1e-6 * derivative.abs().max(1.0));

    let flat = format!("q1{}", " + q1".repeat(200_000));
    assert!(flat.len() > 1_000_000);
    let ProblemFile::DegenerateLagrangian(file) =
        ProblemFile::parse(&with_hamiltonian(&flat)).expect("a valid file")
    else {
        panic!("a degenerate Lagrangian");
    };
    let view = file.view::<2>().expect("two coordinates");
    let h = view.hamiltonian(&q);
    assert!((h / (200_001.0 * 0.3) - 1.0).abs() <= 1e-9, "{h}");
    assert_eq!(
        view.hamiltonian_gradient(&q),
        SVector::from([200_001.0, 0.0])
    );
}

/// A file larger than the limit is refused after reading at most the limit (`/dev/zero` was
/// read for 2 GB before failing).
#[cfg(unix)]
#[test]
fn endless_files_are_refused_after_the_limit() {
    match ProblemFile::read("/dev/zero") {
        Err(ProblemFileError::TooLarge { limit }) => {
            assert_eq!(limit, sparkgen::problem_file::MAX_FILE_BYTES);
        }
        other => panic!("expected a too-large file, got {other:?}"),
    }
}

/// Too many coordinates are refused at the list, before any expression is compiled (3000 took
/// 28 s and 1.8 GB before the command refused them).
#[test]
fn too_many_coordinates_are_refused_first() {
    let names: Vec<String> = (0..3000).map(|i| format!("\"x{i}\"")).collect();
    let source = lotka_volterra_with(2, &format!("coordinates = [{}]", names.join(", ")));
    let errors = match ProblemFile::parse(&source) {
        Err(ProblemFileError::Invalid(errors)) => errors,
        other => panic!("expected errors, got {other:?}"),
    };
    assert_eq!(
        errors[0].kind,
        ErrorKind::TooMany {
            key: "coordinates".into(),
            found: 3000,
            limit: sparkgen::problem_file::MAX_DIMENSION
        }
    );
    assert_eq!((errors[0].line, errors[0].column), (2, 15));
}

/// NaN and infinite initial values and parameters are located errors (they surfaced later as
/// "|φ(q₀,p₀)|∞ = NaN > inf").
#[test]
fn non_finite_values_are_located() {
    let (line, column, kind) = error_of(&lotka_volterra_with(11, "q = [2.0, nan]"));
    assert_eq!(
        kind,
        ErrorKind::NotFinite {
            key: "q".into(),
            value: "NaN".into()
        }
    );
    assert_eq!((line, column), (11, 11));
    let (line, column, kind) = error_of(&lotka_volterra_with(7, "a2 = -inf"));
    assert!(matches!(kind, ErrorKind::NotFinite { .. }), "{kind:?}");
    assert_eq!((line, column), (7, 6));
}

/// Subexpressions whose value is never finite are located errors, in a Hamiltonian and in a
/// Lagrangian, before 0 · x = 0, 0 / x = 0, x − x = 0 or x / x = 1 could fold them (the file ran
/// as H = q2); the same identities of finite values still fold `0 * q1` and `q1 - q1`.
#[test]
fn values_that_are_never_finite_are_located() {
    // `hamiltonian = '` is 15 characters: the subexpression's first character is at 15 + 1 + its
    // offset in the expression.
    for (hamiltonian, offset) in [
        ("q2 + 0/0 * q1", 5),
        ("q2 + 0*(1/0)*q1", 8),
        ("q2 + (q1-q1)/(q1-q1)", 5),
    ] {
        let (line, column, kind) = error_of(&with_hamiltonian(hamiltonian));
        assert!(
            matches!(&kind, ErrorKind::NotFiniteExpression(m) if m.contains("division by zero")),
            "{hamiltonian}: {kind:?}"
        );
        assert_eq!((line, column), (4, 15 + 1 + offset), "{hamiltonian}");
    }
    let lagrangian = |l: &str| {
        format!(
            "kind = \"lagrangian\"\ncoordinates = [\"x\"]\nvelocities = [\"u\"]\n\
             lagrangian = '{l}'\n[initial]\nq = [0.1]\nv = [0.2]\n"
        )
    };
    let (line, column, kind) = error_of(&lagrangian("u * u / 2 + 0 * ln(x - x)"));
    assert!(
        matches!(&kind, ErrorKind::NotFiniteExpression(m) if m.contains("-inf")),
        "{kind:?}"
    );
    // `lagrangian = '` is 14 characters, `ln` is at offset 16.
    assert_eq!((line, column), (4, 14 + 1 + 16));
    for hamiltonian in ["q2 + 0*q1", "q2 + q1 - q1", "q2 + (q1 - q1) / q1"] {
        ProblemFile::parse(&with_hamiltonian(hamiltonian))
            .unwrap_or_else(|e| panic!("{hamiltonian}: {e}"));
    }
    ProblemFile::parse(&lagrangian("u * u / 2 + 0 * ln(x)")).expect("a valid Lagrangian");
}

/// A holonomic pendulum file with `mass` (a TOML line) and the parameter `m`.
fn pendulum_with_mass(mass: &str, m: f64) -> String {
    format!(
        "kind = \"holonomic\"\ncoordinates = [\"x\", \"y\"]\n{mass}\npotential = \"g * y\"\n\
         constraints = [\"x * x + y * y - 1\"]\n[parameters]\nm = {m:?}\ng = 9.81\n\
         [initial]\nq = [0.0, -1.0]\np = [0.5, 0.0]\n"
    )
}

/// A mass that depends on a coordinate is an error at the mass, in the file's terms (it was
/// "the input `q[0]` has no place in the tape's layout" at 1:1).
#[test]
fn masses_depending_on_coordinates_are_located() {
    let (line, column, kind) = error_of(&pendulum_with_mass("mass = \"[m, m * x]\"", 1.0));
    assert_eq!((line, column), (3, 13));
    assert!(
        matches!(&kind, ErrorKind::InvalidExpression(m) if m.contains("coordinate `x`") && !m.contains("tape")),
        "{kind:?}"
    );
}

/// Masses that are not positive definite at the parameter values are located errors (a
/// negative mass was accepted), and so are detected after a parameter changes.
#[test]
fn masses_must_be_positive_definite() {
    for mass in [
        "mass = \"m\"",
        "mass = \"[1, m]\"",
        "mass = \"[[1, 2], [2, m]]\"",
    ] {
        let (line, column, kind) = error_of(&pendulum_with_mass(mass, -1.0));
        assert_eq!((line, column), (3, 8), "{mass}");
        assert!(
            matches!(kind, ErrorKind::NotPositiveDefinite(_)),
            "{kind:?}"
        );
    }
    // [[1, 2], [2, 5]] is positive definite (pivots 1 and 1); [[1, 2], [2, 4]] is singular.
    let mut file = ProblemFile::parse(&pendulum_with_mass("mass = \"[[1, 2], [2, m]]\"", 5.0))
        .expect("a positive definite mass");
    assert_eq!(file.validate(), Ok(()));
    file.set_parameter("m", 4.0).expect("a parameter");
    assert_eq!(
        file.validate(),
        Err(ValueError::Mass(MassError {
            pivot: 1,
            value: 0.0
        }))
    );
    file.set_parameter("m", f64::NAN).expect("a parameter");
    assert!(matches!(file.validate(), Err(ValueError::NotFinite { .. })));
}

/// A charged particle's degenerate Lagrangian in a field of strength |B| (three coordinates:
/// position (x, y) and parallel velocity u), with the field written through `[definitions]`.
const FIELD_DEFINED: &str = r#"
kind = "degenerate_lagrangian"
coordinates = ["x", "y", "u"]
theta = ["-y * b / 2 + u * bx / b", "x * b / 2 + u * by / b", "0"]
hamiltonian = "u * u / 2 + mu * b"

[parameters]
eps = 0.3
mu = 0.7

[definitions]
bx = "1 + eps * y"
by = "eps * x * sin(y)"
b = "sqrt(bx * bx + by * by + 1)"

[initial]
q = [0.5, 0.2, 0.1]
"#;

/// `FIELD_DEFINED` with every definition written out where it is used.
const FIELD_WRITTEN_OUT: &str = r#"
kind = "degenerate_lagrangian"
coordinates = ["x", "y", "u"]
theta = [
    "-y * sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1) / 2 + u * (1 + eps * y) / sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1)",
    "x * sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1) / 2 + u * (eps * x * sin(y)) / sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1)",
    "0",
]
hamiltonian = "u * u / 2 + mu * sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1)"

[parameters]
eps = 0.3
mu = 0.7

[initial]
q = [0.5, 0.2, 0.1]
"#;

/// `FIELD_DEFINED` as a derive.
#[derive(Clone, Copy, Debug, DegenerateLagrangian)]
#[lagrangian(
    q = [x, y, u],
    definitions = [bx = 1 + eps * y, by = eps * x * sin(y), b = sqrt(bx * bx + by * by + 1)],
    theta = [-y * b / 2 + u * bx / b, x * b / 2 + u * by / b, 0],
    hamiltonian = u * u / 2 + mu * b,
)]
struct FieldDefined {
    eps: f64,
    mu: f64,
}

/// `FIELD_WRITTEN_OUT` as a derive.
#[derive(Clone, Copy, Debug, DegenerateLagrangian)]
#[lagrangian(
    q = [x, y, u],
    theta = [
        -y * sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1) / 2
            + u * (1 + eps * y) / sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1),
        x * sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1) / 2
            + u * (eps * x * sin(y)) / sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1),
        0,
    ],
    hamiltonian = u * u / 2
        + mu * sqrt((1 + eps * y) * (1 + eps * y) + (eps * x * sin(y)) * (eps * x * sin(y)) + 1),
)]
struct FieldWrittenOut {
    eps: f64,
    mu: f64,
}

/// Every method of a `DegenerateLagrangian<3>` at (q, w), flattened in row-major order (as
/// `evaluate` writes them), as bits.
fn degenerate_bits(
    problem: &impl DegenerateLagrangian<3>,
    q: &SVector<f64, 3>,
    w: &SVector<f64, 3>,
) -> Vec<u64> {
    let row_major = |m: SMatrix<f64, 3, 3>| m.transpose().as_slice().to_vec();
    [
        problem.theta(q).as_slice().to_vec(),
        row_major(problem.theta_jacobian(q)),
        vec![problem.hamiltonian(q)],
        problem.hamiltonian_gradient(q).as_slice().to_vec(),
        row_major(problem.hamiltonian_hessian(q)),
        row_major(problem.jacobian_transpose_product_derivative(q, w)),
        row_major(problem.jacobian_product_derivative(q, w)),
    ]
    .concat()
    .into_iter()
    .map(f64::to_bits)
    .collect()
}

/// Every method of `file` evaluated at run time at (q, w), as `degenerate_bits` lays them out.
fn evaluated_bits(file: &DegenerateLagrangianFile, q: &[f64], w: &[f64]) -> Vec<u64> {
    let mut all = Vec::new();
    for &method in DegenerateMethod::ALL {
        let signature = file.signature(method);
        let args: Vec<&[f64]> = [q, w][..signature.arguments.len()].to_vec();
        let mut out = vec![f64::NAN; signature.rows * signature.cols];
        file.evaluate(method, &args, &mut out)
            .expect("the lengths fit the signature");
        all.extend(out.into_iter().map(f64::to_bits));
    }
    all
}

fn degenerate_file(source: &str) -> DegenerateLagrangianFile {
    match ProblemFile::parse(source) {
        Ok(ProblemFile::DegenerateLagrangian(file)) => file,
        other => panic!("expected a degenerate Lagrangian, got {other:?}"),
    }
}

/// Definitions are lowered once into the hash-consed graph, which the same expressions written
/// out produce too (every node of a use of a definition is the definition's node), so a file
/// and a derive with definitions compute bit for bit what the written-out problem computes,
/// and the run-time `evaluate` bit for bit what the views compute.
#[test]
fn definitions_compute_what_the_written_out_problem_computes() {
    let defined = degenerate_file(FIELD_DEFINED);
    let written_out = degenerate_file(FIELD_WRITTEN_OUT);
    let (a, b) = (
        defined.view::<3>().expect("D = 3"),
        written_out.view::<3>().expect("D = 3"),
    );
    let derived = FieldDefined { eps: 0.3, mu: 0.7 };
    let derived_out = FieldWrittenOut { eps: 0.3, mu: 0.7 };
    assert_eq!(a.initial(), b.initial());
    let mut sampler = Sampler(0x5eed_0005);
    for _ in 0..POINTS {
        let q = sampler.vector::<3>(-2.0, 2.0);
        let w = sampler.vector::<3>(-2.0, 2.0);
        let reference = degenerate_bits(&b, &q, &w);
        assert_eq!(degenerate_bits(&a, &q, &w), reference, "file, at {q:?}");
        assert_eq!(
            degenerate_bits(&derived, &q, &w),
            reference,
            "derive, at {q:?}"
        );
        assert_eq!(degenerate_bits(&derived_out, &q, &w), reference, "at {q:?}");
        let evaluated = evaluated_bits(&defined, q.as_slice(), w.as_slice());
        assert_eq!(evaluated, reference, "evaluate, at {q:?}");
    }
}

/// `evaluate` of every kind equals the view of the same file bit for bit (matrices in row-major
/// order), for D = 9, M = 3 and for a Lagrangian.
#[test]
fn run_time_evaluation_equals_the_views() {
    let source = r#"
kind = "holonomic"
coordinates = ["x1", "y1", "z1", "x2", "y2", "z2", "x3", "y3", "z3"]
mass = "[m1, m1, m1, m2, m2, m2, m3, m3, m3]"
potential = "k / 2.0 * (x1 * x1 + y2 * y2 + z3 * z3) + a * (x1 * y2 + y2 * z3 + z3 * x1)"
constraints = [
    "(x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2) + (z1 - z2) * (z1 - z2) - d * d",
    "(x1 - x3) * (x1 - x3) + (y1 - y3) * (y1 - y3) + (z1 - z3) * (z1 - z3) - d * d",
    "sin(x2 - x3) * z2",
]
parameters = { m1 = 16.0, m2 = 1.0, m3 = 2.0, d = 1.0, k = 1.0, a = 0.5 }
initial = { q = [0, 0, 0, 1, 0, 0, 0, 1, 0], p = [0, 0, 0, 0, 0, 0, 0, 0, 0] }
"#;
    let ProblemFile::Holonomic(file) = ProblemFile::parse(source).expect("valid file") else {
        panic!("a holonomic system");
    };
    let view = file.view::<9, 3>().expect("D = 9, M = 3");
    let mut sampler = Sampler(0x5eed_0006);
    let (q, lambda, v) = (
        sampler.vector::<9>(-2.0, 2.0),
        sampler.vector::<3>(-2.0, 2.0),
        sampler.vector::<9>(-2.0, 2.0),
    );
    let (q, lambda, v) = (q.as_slice(), lambda.as_slice(), v.as_slice());
    let evaluate = |method: HolonomicMethod, args: &[&[f64]]| {
        let signature = file.signature(method);
        let mut out = vec![f64::NAN; signature.rows * signature.cols];
        file.evaluate(method, args, &mut out).expect("lengths fit");
        out
    };
    let (qv, vv) = (
        SVector::<f64, 9>::from_column_slice(q),
        SVector::<f64, 9>::from_column_slice(v),
    );
    let lv = SVector::<f64, 3>::from_column_slice(lambda);
    let row_major = |m: &[f64], rows: usize, cols: usize| -> Vec<f64> {
        (0..rows * cols)
            .map(|k| m[(k % cols) * rows + k / cols])
            .collect()
    };
    let mass = view.mass_matrix();
    assert_eq!(
        evaluate(HolonomicMethod::MassMatrix, &[]),
        row_major(mass.as_slice(), 9, 9)
    );
    assert_eq!(
        evaluate(HolonomicMethod::Potential, &[q]),
        [view.potential(&qv)]
    );
    assert_eq!(
        evaluate(HolonomicMethod::Constraints, &[q]),
        view.constraints(&qv).as_slice()
    );
    assert_eq!(
        evaluate(HolonomicMethod::ConstraintJacobian, &[q]),
        row_major(view.constraint_jacobian(&qv).as_slice(), 3, 9)
    );
    assert_eq!(
        evaluate(HolonomicMethod::ConstraintForceDerivative, &[q, lambda]),
        row_major(view.constraint_force_derivative(&qv, &lv).as_slice(), 9, 9)
    );
    assert_eq!(
        evaluate(HolonomicMethod::ConstraintVelocityDerivative, &[q, v]),
        row_major(
            view.constraint_velocity_derivative(&qv, &vv).as_slice(),
            3,
            9
        )
    );
    let signature = file.signature(HolonomicMethod::ConstraintVelocityDerivative);
    assert_eq!(signature.arguments, [("q", 9), ("v", 9)]);
    assert_eq!((signature.rows, signature.cols), (3, 9));
    assert_eq!(HolonomicMethod::ALL.len(), 9);
    assert_eq!(HolonomicMethod::ALL[6].name(), "constraint_jacobian");

    let source = r#"
kind = "lagrangian"
coordinates = ["x", "y"]
velocities = ["u", "w"]
lagrangian = "m / 2.0 * (u * u + w * w) + r * (x * w - y * u) - k * cos(x) * exp(y / 3.0)"
parameters = { m = 2.0, k = 3 }
definitions = { r = "sin(x * y) / 2" }
initial = { q = [0.1, 0.2], v = [0.0, 1.0] }
"#;
    let ProblemFile::Lagrangian(file) = ProblemFile::parse(source).expect("valid file") else {
        panic!("a Lagrangian");
    };
    let view = file.view::<2>().expect("D = 2");
    let (q, v) = (SVector::from([0.3, -1.2]), SVector::from([0.7, 0.4]));
    let mut out = [f64::NAN; 4];
    file.evaluate(
        LagrangianMethod::MixedHessian,
        &[q.as_slice(), v.as_slice()],
        &mut out,
    )
    .expect("lengths fit");
    assert_eq!(
        out.to_vec(),
        view.mixed_hessian(&q, &v).transpose().as_slice()
    );
    let mut momentum = [f64::NAN; 2];
    file.evaluate(
        LagrangianMethod::Momentum,
        &[q.as_slice(), v.as_slice()],
        &mut momentum,
    )
    .expect("lengths fit");
    assert_eq!(momentum, view.momentum(&q, &v).as_slice());
}

/// Arguments and outputs whose lengths do not fit the method are errors naming the method and
/// the argument, and the output is left as it was.
#[test]
fn run_time_evaluation_checks_lengths() {
    let ProblemFile::DegenerateLagrangian(file) = lotka_volterra_file() else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let mut out = [7.0; 4];
    let q = [1.0, 2.0];
    assert_eq!(
        file.evaluate(DegenerateMethod::JacobianProductDerivative, &[&q], &mut out),
        Err(EvaluateError::ArgumentCount {
            method: "jacobian_product_derivative",
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        file.evaluate(
            DegenerateMethod::JacobianProductDerivative,
            &[&q, &[1.0]],
            &mut out
        ),
        Err(EvaluateError::ArgumentLength {
            method: "jacobian_product_derivative",
            argument: "v",
            expected: 2,
            found: 1
        })
    );
    let error = file
        .evaluate(DegenerateMethod::Theta, &[&q], &mut out)
        .expect_err("ϑ has 2 entries");
    assert_eq!(
        error,
        EvaluateError::OutputLength {
            method: "theta",
            rows: 2,
            cols: 1,
            found: 4
        }
    );
    assert_eq!(out, [7.0; 4]);
    assert_eq!(
        error.to_string(),
        "the output of `theta` is 2 × 1 (2 entries, row-major), the slice has 4"
    );
    assert_eq!(file.dimension(), 2);
    // p₀ = ϑ(q₀) = (q₂ + ln q₂ / q₁, q₁) at q₀ = (2, 1).
    assert_eq!(file.initial(), (vec![2.0, 1.0], vec![1.0, 2.0]));
}

/// `FIELD_DEFINED` with its `[definitions]` table replaced by `definitions` (TOML lines).
fn field_with_definitions(definitions: &str) -> String {
    let start = FIELD_DEFINED
        .find("[definitions]")
        .expect("a definitions table");
    let end = FIELD_DEFINED.find("[initial]").expect("an initial table");
    format!(
        "{}[definitions]\n{definitions}\n{}",
        &FIELD_DEFINED[..start],
        &FIELD_DEFINED[end..]
    )
}

/// The (line, column, kind) of the single error of `FIELD_DEFINED` with `definitions`, with
/// the line counted from the `[definitions]` header (its line is 0).
fn definition_error(definitions: &str) -> (usize, usize, ErrorKind) {
    let source = field_with_definitions(definitions);
    let header = source[..source.find("[definitions]").expect("a header")]
        .matches('\n')
        .count()
        + 1;
    let (line, column, kind) = error_of(&source);
    (line - header, column, kind)
}

#[test]
fn definitions_errors_are_located() {
    let defined = "bx = \"1 + eps * y\"\nby = \"eps * x\"\n";
    // An unknown name inside a definition.
    let (line, column, kind) =
        definition_error(&format!("{defined}b = \"sqrt(bx * bx + c * by)\""));
    assert_eq!((line, column), (3, 21), "{kind:?}");
    assert!(
        matches!(&kind, ErrorKind::UnknownName(m) if m.starts_with("unknown identifier `c`") && m.contains("definitions are `bx`, `by`")),
        "{kind:?}"
    );
    // A definition using a later one, and one using itself.
    let (line, column, kind) = definition_error(&format!("bz = \"b * 2\"\n{defined}b = \"bx\""));
    assert_eq!((line, column), (1, 7));
    assert!(
        matches!(&kind, ErrorKind::UnknownName(m) if m.contains("`bz` uses `b`, which is defined after it")),
        "{kind:?}"
    );
    let (line, column, kind) = definition_error(&format!("{defined}b = \"sqrt(b + bx)\""));
    assert_eq!((line, column), (3, 11));
    assert!(
        matches!(&kind, ErrorKind::UnknownName(m) if m == "the definition `b` uses itself"),
        "{kind:?}"
    );
    // Definitions named like a coordinate or a parameter, at the name.
    for (name, other) in [("x", "a coordinate"), ("eps", "a parameter")] {
        let (line, column, kind) =
            definition_error(&format!("{defined}b = \"bx\"\n  {name} = \"by\""));
        assert_eq!((line, column), (4, 3), "{kind:?}");
        assert!(
            matches!(&kind, ErrorKind::InvalidExpression(m) if m.contains(&format!("`{name}` has the name of {other}"))),
            "{kind:?}"
        );
    }
    // A name that is no identifier, at the offending part of the (quoted) key.
    let (line, column, kind) = definition_error(&format!("{defined}b = \"bx\"\n\"r 2\" = \"by\""));
    assert_eq!((line, column), (4, 4), "{kind:?}");
    assert!(matches!(kind, ErrorKind::InvalidExpression(_)), "{kind:?}");
    // Values of the wrong type.
    let (line, column, kind) = definition_error(&format!("{defined}b = 1.5"));
    assert_eq!((line, column), (3, 5));
    assert_eq!(
        kind,
        ErrorKind::WrongType {
            key: "b".into(),
            expected: "a string"
        }
    );
    let source = format!("definitions = 3{FIELD_WRITTEN_OUT}");
    let (_, _, kind) = error_of(&source);
    assert_eq!(
        kind,
        ErrorKind::WrongType {
            key: "definitions".into(),
            expected: "a table"
        }
    );
    // The nesting limit holds inside a definition.
    let deep = format!("{}x{}", "(".repeat(200), ")".repeat(200));
    let (line, column, kind) = definition_error(&format!("{defined}b = '{deep}'"));
    assert_eq!((line, column), (3, 6 + 128));
    assert!(
        matches!(&kind, ErrorKind::InvalidExpression(m) if m.contains("nested too deeply")),
        "{kind:?}"
    );
}

/// A definition that depends on a coordinate makes the mass depend on it: the error is at the
/// mass; a definition of parameters only may be used in the mass.
#[test]
fn definitions_in_the_mass() {
    let source = pendulum_with_mass("mass = \"mq\"", 1.0).replace(
        "[initial]",
        "[definitions]\nmq = \"m * (1 + x * x)\"\n[initial]",
    );
    let (line, column, kind) = error_of(&source);
    assert_eq!((line, column), (3, 9));
    assert!(
        matches!(&kind, ErrorKind::InvalidExpression(m) if m.contains("coordinate `x`")),
        "{kind:?}"
    );
    let source = pendulum_with_mass("mass = \"[mq, mq]\"", 2.0)
        .replace("[initial]", "[definitions]\nmq = \"m * m\"\n[initial]");
    let ProblemFile::Holonomic(file) = ProblemFile::parse(&source).expect("valid file") else {
        panic!("a holonomic system");
    };
    let mut mass = [0.0; 4];
    file.evaluate(HolonomicMethod::MassMatrix, &[], &mut mass)
        .expect("2 × 2");
    assert_eq!(mass, [4.0, 0.0, 0.0, 4.0]);
}

/// A chain of definitions each using the previous one twice stands for an expression of
/// exponential size, but is lowered, differentiated and compiled in time linear in the file:
/// the graph shares every definition.
#[test]
fn long_chains_of_definitions_stay_shared() {
    let links = 2000;
    let mut definitions = String::from("d0 = \"x\"\n");
    for k in 1..=links {
        definitions.push_str(&format!(
            "d{k} = \"sin(d{p}) * 0.5 + d{p} * 0.5\"\n",
            p = k - 1
        ));
    }
    let source = field_with_definitions(&definitions)
        .replace("mu * b", &format!("mu * d{links}"))
        .replace("b / 2", "y / 2")
        .replace("bx / b", "x")
        .replace("by / b", "y");
    let file = degenerate_file(&source);
    let view = file.view::<3>().expect("D = 3");
    let q = SVector::from([0.4, 0.2, 0.1]);
    let mut d = 0.4f64;
    let mut derivative = 1.0f64;
    for _ in 0..links {
        derivative *= d.cos() * 0.5 + 0.5;
        d = d.sin() * 0.5 + d * 0.5;
    }
    let expected = 0.1 * 0.1 / 2.0 + 0.7 * d;
    assert!(
        (view.hamiltonian(&q) - expected).abs() <= 1e-10,
        "{}",
        view.hamiltonian(&q)
    );
    let gradient = view.hamiltonian_gradient(&q)[0];
    assert!((gradient - 0.7 * derivative).abs() <= 1e-10, "{gradient}");
}

/// The bits of a triple of matrices (a vector is a one-column matrix), one after another.
macro_rules! bits {
    ($triple:expr) => {{
        let (a, b, c) = $triple;
        [a.as_slice(), b.as_slice(), c.as_slice()]
            .concat()
            .into_iter()
            .map(f64::to_bits)
            .collect::<Vec<u64>>()
    }};
}

/// `fused(q, w)` and `separate(q, w)` are the same bits at every one of `points` (`w` the
/// point's reversed coordinates, truncated or repeated to W entries).
fn assert_same_bits<const D: usize, const W: usize>(
    points: Vec<SVector<f64, D>>,
    fused: impl Fn(&SVector<f64, D>, &SVector<f64, W>) -> Vec<u64>,
    separate: impl Fn(&SVector<f64, D>, &SVector<f64, W>) -> Vec<u64>,
) {
    for q in points {
        let w = SVector::<f64, W>::from_fn(|i, _| q[D - 1 - i % D]);
        assert_eq!(fused(&q, &w), separate(&q, &w), "at {q:?}, {w:?}");
    }
}

/// `POINTS` points sampled in `[lo, hi)ᴰ`, then hostile ones: every coordinate, or the last
/// one, zero, negative, huge, tiny, NaN or infinite.
fn stage_points<const D: usize>(seed: u64, lo: f64, hi: f64) -> Vec<SVector<f64, D>> {
    let mut sampler = Sampler(seed);
    let mut points: Vec<SVector<f64, D>> =
        (0..POINTS).map(|_| sampler.vector::<D>(lo, hi)).collect();
    for x in [0.0, -1.0, 1e300, 1e-300, -1e-300, f64::NAN, f64::INFINITY] {
        points.push(SVector::from_element(x));
        let mut q = sampler.vector::<D>(lo, hi);
        q[D - 1] = x;
        points.push(q);
    }
    points
}

/// A file's `stage_point` evaluates the map, its Jacobian and the gradient as one tape
/// (ϑ, J, ∇H of a degenerate Lagrangian; c, Dc, ∇V of a holonomic system), and its
/// `stage_point_derivatives` the Jacobian, the Hessian and the contraction's derivative (J, ∇²H,
/// ∂(Jᵀw)/∂q; Dc, ∇²V, ∂(Dcᵀλ)/∂q); their values are the methods' bit for bit, at sampled and
/// hostile points, in two, three, four and twelve coordinates.
#[test]
fn a_files_stage_point_methods_are_its_separate_methods_bit_for_bit() {
    fn degenerate<const D: usize>(file: &DegenerateLagrangianFile, lo: f64, hi: f64, seed: u64) {
        let view = file.view::<D>().expect("the file's dimension");
        assert_same_bits::<D, D>(
            stage_points::<D>(seed, lo, hi),
            |q, w| {
                let mut all = bits!(view.stage_point(q));
                all.extend(bits!(view.stage_point_derivatives(q, w)));
                all
            },
            |q, w| {
                let mut all = bits!((
                    view.theta(q),
                    view.theta_jacobian(q),
                    view.hamiltonian_gradient(q),
                ));
                all.extend(bits!((
                    view.theta_jacobian(q),
                    view.hamiltonian_hessian(q),
                    view.jacobian_transpose_product_derivative(q, w),
                )));
                all
            },
        );
    }
    fn holonomic<const D: usize, const M: usize>(name: &str, seed: u64) {
        let path = format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR"));
        let Ok(ProblemFile::Holonomic(file)) = ProblemFile::read(&path) else {
            panic!("{name} states a holonomic system");
        };
        let view = file.view::<D, M>().expect("the file's shape");
        assert_same_bits::<D, M>(
            stage_points::<D>(seed, -2.0, 2.0),
            |q, lambda| {
                let mut all = bits!(view.stage_point(q));
                all.extend(bits!(view.stage_point_derivatives(q, lambda)));
                all
            },
            |q, lambda| {
                let mut all = bits!((
                    view.constraints(q),
                    view.constraint_jacobian(q),
                    view.potential_gradient(q),
                ));
                all.extend(bits!((
                    view.constraint_jacobian(q),
                    view.potential_hessian(q),
                    view.constraint_force_derivative(q, lambda),
                )));
                all
            },
        );
    }
    let ProblemFile::DegenerateLagrangian(lotka_volterra) = lotka_volterra_file() else {
        panic!("the example file states a degenerate Lagrangian");
    };
    degenerate::<2>(&lotka_volterra, 0.2, 4.0, 0x5eed_0011);
    degenerate::<3>(&degenerate_file(FIELD_DEFINED), -2.0, 2.0, 0x5eed_0012);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/guiding_centre.toml");
    let Ok(ProblemFile::DegenerateLagrangian(guiding_centre)) = ProblemFile::read(path) else {
        panic!("the guiding-centre file states a degenerate Lagrangian");
    };
    degenerate::<4>(&guiding_centre, 0.1, 0.9, 0x5eed_0013);
    holonomic::<2, 1>("pendulum.toml", 0x5eed_0014);
    holonomic::<12, 4>("spherical_chain.toml", 0x5eed_0015);
}

/// `x` and `y` are the same bits, or both NaN.
fn same(x: f64, y: f64) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

/// Evaluates `evaluate` (of arguments of the lengths `arguments` and `outputs` outputs) at 16
/// pseudo-random points, mostly in (0.2, 2.2) and sometimes negative (where `ln` and `sqrt`
/// give NaN): the values.
fn pass(arguments: &[usize], outputs: usize, evaluate: impl Fn(&[&[f64]], &mut [f64])) -> Vec<f64> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.4 - 0.2
    };
    let mut values = Vec::new();
    for _ in 0..16 {
        let point: Vec<Vec<f64>> = arguments
            .iter()
            .map(|&n| (0..n).map(|_| next()).collect())
            .collect();
        let args: Vec<&[f64]> = point.iter().map(Vec::as_slice).collect();
        let mut out = vec![f64::NAN; outputs];
        evaluate(&args, &mut out);
        values.extend(out);
    }
    values
}

/// Compiled to machine code (what a run does when it starts), every method gives the tape
/// interpreter's bits: every method of a degenerate Lagrangian (the guiding centre, `sqrt` and
/// `powi`), a holonomic system (the triatomic molecule, a diagonal mass) and a Lagrangian
/// (Kepler, `1/|q|`) at random points, negative coordinates included; a clone shares the code.
#[test]
fn compiled_methods_give_the_interpreters_bits() {
    let read = |name: &str| {
        ProblemFile::read(format!("{}/problems/{name}", env!("CARGO_MANIFEST_DIR")))
            .expect("a shipped file")
    };
    let check = |name: &str, method: &str, first: &[f64], second: &[f64], compiled: bool| {
        assert!(compiled, "{name}, {method}: not compiled");
        assert_eq!(first.len(), second.len());
        for (k, (a, b)) in first.iter().zip(second).enumerate() {
            assert!(
                same(*a, *b),
                "{name}, {method}, entry {k}: {a:e} then {b:e}"
            );
        }
    };
    // Every method of `$file` (methods `$methods`), interpreted, then compiled through a clone
    // made before `compile()`: the code is shared.
    macro_rules! compare {
        ($name:literal, $file:expr, $ty:ty, $methods:ty) => {{
            let file: $ty = $file;
            let values = |m: $methods, file: &$ty| {
                let s = file.signature(m);
                let lens: Vec<usize> = s.arguments.iter().map(|&(_, n)| n).collect();
                pass(&lens, s.rows * s.cols, |a, o| {
                    file.evaluate(m, a, o).expect("fits")
                })
            };
            let interpreted: Vec<Vec<f64>> = <$methods>::ALL
                .iter()
                .map(|&m| {
                    assert!(
                        !file.compiled(m),
                        "{}, {m}: compiled before compile()",
                        $name
                    );
                    values(m, &file)
                })
                .collect();
            let clone = file.clone();
            file.compile();
            for (&m, first) in <$methods>::ALL.iter().zip(&interpreted) {
                check(
                    $name,
                    m.name(),
                    first,
                    &values(m, &clone),
                    clone.compiled(m),
                );
            }
        }};
    }
    let ProblemFile::DegenerateLagrangian(gc) = read("guiding_centre.toml") else {
        panic!("a degenerate Lagrangian");
    };
    compare!(
        "guiding centre",
        gc,
        DegenerateLagrangianFile,
        DegenerateMethod
    );
    let ProblemFile::Holonomic(molecule) = read("triatomic.toml") else {
        panic!("a holonomic system");
    };
    compare!("triatomic", molecule, HolonomicFile, HolonomicMethod);
    let ProblemFile::Lagrangian(kepler) = read("kepler.toml") else {
        panic!("a Lagrangian");
    };
    compare!("kepler", kepler, LagrangianFile, LagrangianMethod);
}
