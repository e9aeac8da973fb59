//! Property-based fuzzing of the front ends a user (or an attacker) reaches: problem files and
//! the command's argument vectors, generated from a grammar that mixes valid input with every
//! kind of damage (unknown names, wrong lengths, non-finite and huge numbers, deep nesting, long
//! chains, broken TOML, constant subexpressions that are not finite); ensembles with generated
//! states files (CSV and `.npy`, damaged, or devices and directories in their place), thread
//! counts and output paths; and output streams that cannot be written (`/dev/full`, a closed
//! pipe). The states-file readers are fuzzed in process by `src/cli/states/fuzz.rs`.
//!
//! Properties: parsing a problem file ends in `Ok` or in located errors, within a time budget;
//! the command ends in exit code 0 (a run), 1 (a failed run) or 2 (unusable arguments) with one
//! line on stderr, never by a panic or a signal, within a time budget and under an address-space
//! limit (an allocation beyond it aborts the process, which the test reports). A finding is
//! reproduced by proptest's printed minimal case and kept as a named regression test in
//! `tests/cli/*.rs`, `tests/problem_file.rs` or this file.
#![cfg(feature = "cli")]

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sparkgen::problem_file::ProblemFile;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Generated problem files per run (in-process).
const FILE_CASES: u32 = 10_000;
/// Generated argument vectors per command test (two tests, one process per vector): 10⁴ in
/// all, beside the 10⁴ problem files above.
const COMMAND_CASES: u32 = 5_000;
/// Generated ensembles per run (one process each), beside the ensembles among the argument
/// vectors above: with them and the unwritable streams among those, more than 10⁴ commands per
/// run on the surfaces of ensembles and output streams.
const ENSEMBLE_CASES: u32 = 7_000;
/// Time budget of one problem file (parse, lower, differentiate, compile the tapes).
const FILE_BUDGET: Duration = Duration::from_secs(2);
/// Time budget of one command, for a command whose requested work fits in it.
const COMMAND_BUDGET: Duration = Duration::from_secs(10);
/// How long a command asking for more than [`BOUNDED_STEPS`] runs before it is stopped: long
/// enough to have read its input, allocated what it keeps and taken its first steps under the
/// address-space limit (where an allocation that grows with the step count would abort it).
const LONG_RUN_BUDGET: Duration = Duration::from_secs(2);
/// Address-space limit of one command, in KiB (`ulimit -v`).
const ADDRESS_SPACE_KIB: u64 = 4 << 20;
/// Step counts up to this are run to the end; a command asking for more may be stopped at the
/// time budget once it has shown that it runs (within the address-space limit).
const BOUNDED_STEPS: f64 = 5_000.0;

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A TOML basic string holding `text`.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Names an expression may use: coordinates and parameters of the generated files, and some
/// that are unknown or not identifiers.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["q1", "q2", "q3", "x", "y", "a", "b", "m", "g", "l"]),
        1 => prop::sample::select(vec!["zz", "nan", "inf", "self", "q", "1x", "λ", "", " "]),
    ]
    .prop_map(str::to_owned)
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (-5.0f64..5.0).prop_map(|x| format!("{x}")),
        2 => (0u32..10).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![
            "0", "0.0", "1e308", "1e309", "1e-320", "-0.0", "1e", "1.2.3", "0x10", "1_000", "2f64",
            "3f32", "99999999999999999999999999999999999999999",
        ])
        .prop_map(str::to_owned),
    ]
}

const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "exp", "ln", "log", "sqrt", "abs", "asin", "acos", "atan", "sinh", "cosh",
    "tanh", "atan2", "hypot", "powi", "powf", "cbrt", "max",
];

/// A random expression: arithmetic, calls with any number of arguments, method calls.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![3 => name(), 2 => number()];
    leaf.prop_recursive(6, 48, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "%", "^", "&&", ""]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
            inner.clone().prop_map(|a| format!("-{a}")),
            inner.clone().prop_map(|a| format!("({a})")),
            (
                prop::sample::select(FUNCTIONS.to_vec()),
                prop::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            (inner.clone(), prop::sample::select(FUNCTIONS.to_vec()))
                .prop_map(|(a, f)| format!("({a}).{f}()")),
            (inner, 0i32..4).prop_map(|(a, k)| format!("powi({a}, {k})")),
        ]
    })
}

/// Expressions built to stress the front end's depth and length handling.
fn hostile_expression() -> impl Strategy<Value = String> {
    prop_oneof![
        (1usize..1500).prop_map(|n| format!("{}q1{}", "(".repeat(n), ")".repeat(n))),
        (1usize..1500).prop_map(|n| format!("{}q1", "-".repeat(n))),
        (1usize..1500).prop_map(|n| format!("{}q1{}", "sin(".repeat(n), ")".repeat(n))),
        (1usize..2000).prop_map(|n| vec!["q1"; n].join(" + ")),
        (1usize..1000).prop_map(|n| {
            (0..n)
                .map(|k| format!("{k} * q1 * q2"))
                .collect::<Vec<_>>()
                .join(" - ")
        }),
        (1usize..1000).prop_map(|n| vec!["q1"; n].join(" * ")),
        (1usize..500).prop_map(|n| "(".repeat(n)),
        (1usize..500).prop_map(|n| ")".repeat(n)),
    ]
}

fn any_expression() -> impl Strategy<Value = String> {
    prop_oneof![24 => expression(), 1 => hostile_expression()]
}

fn float_value() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (-3.0f64..3.0).prop_map(|x| format!("{x:?}")),
        1 => prop::sample::select(vec![
            "0.0", "nan", "inf", "-inf", "1e300", "-1.0", "1e-300", "\"1.0\"", "[]", "true",
        ])
        .prop_map(str::to_owned),
    ]
}

fn float_array(max_len: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(float_value(), 0..max_len).prop_map(|v| format!("[{}]", v.join(", ")))
}

fn string_list(
    item: impl Strategy<Value = String>,
    max_len: usize,
) -> impl Strategy<Value = String> {
    prop::collection::vec(item, 0..max_len).prop_map(|v| {
        let items: Vec<String> = v.iter().map(|s| quoted(s)).collect();
        format!("[{}]", items.join(", "))
    })
}

/// A problem file: a kind (or a wrong one), coordinates, the kind's expressions (sometimes of
/// another kind, sometimes missing), parameters, initial data, and now and then broken TOML.
fn problem_file() -> impl Strategy<Value = String> {
    let kind = prop::sample::select(vec![
        "degenerate_lagrangian",
        "degenerate_lagrangian",
        "holonomic",
        "holonomic",
        "lagrangian",
        "hamiltonian",
        "",
    ]);
    let coordinates = string_list(name(), 4);
    let parameters = prop::collection::vec((name(), float_value()), 0..5);
    let body = (
        prop::collection::vec(any_expression(), 0..4),
        any_expression(),
        prop::option::of(prop_oneof![
            any_expression(),
            (any_expression(), any_expression()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            (any_expression(), any_expression()).prop_map(|(a, b)| format!("[[{a}, 0], [0, {b}]]")),
        ]),
        string_list(name(), 3),
    );
    let damage = prop_oneof![
        12 => Just(String::new()),
        1 => Just("\n[initial\n".to_owned()),
        1 => Just("\nkind = 3\n".to_owned()),
        1 => Just("\nunknown_key = 1\n".to_owned()),
        1 => Just("\n\u{0}\n".to_owned()),
    ];
    (
        kind,
        coordinates,
        parameters,
        body,
        float_array(5),
        prop::option::of(float_array(5)),
        damage,
    )
        .prop_map(
            |(kind, coordinates, parameters, (list, scalar, mass, velocities), q, p, damage)| {
                let list: Vec<String> = list.iter().map(|s| quoted(s)).collect();
                let list = format!("[{}]", list.join(", "));
                let mut file = format!("kind = {}\ncoordinates = {coordinates}\n", quoted(kind));
                match kind {
                    "holonomic" => {
                        file += &format!("potential = {}\nconstraints = {list}\n", quoted(&scalar));
                        if let Some(mass) = mass {
                            file += &format!("mass = {}\n", quoted(&mass));
                        }
                    }
                    "lagrangian" => {
                        file += &format!(
                            "velocities = {velocities}\nlagrangian = {}\n",
                            quoted(&scalar)
                        );
                    }
                    _ => file += &format!("theta = {list}\nhamiltonian = {}\n", quoted(&scalar)),
                }
                file += &damage;
                file += "[parameters]\n";
                for (name, value) in &parameters {
                    file += &format!("{} = {value}\n", quoted(name));
                }
                let key = if kind == "lagrangian" { "v" } else { "p" };
                file += &format!("[initial]\nq = {q}\n");
                if let Some(p) = p {
                    file += &format!("{key} = {p}\n");
                }
                file
            },
        )
}

#[test]
fn problem_files_parse_or_fail_located_within_budget() {
    let mut runner = TestRunner::new(config(FILE_CASES));
    runner
        .run(&problem_file(), |text| {
            let start = Instant::now();
            let result = ProblemFile::parse(&text);
            let elapsed = start.elapsed();
            prop_assert!(
                elapsed <= FILE_BUDGET,
                "{elapsed:?} over the budget for\n{text}"
            );
            if let Err(error) = result {
                let lines = text.lines().count().max(1);
                for located in error.errors() {
                    prop_assert!(
                        (1..=lines + 1).contains(&located.line) && located.column >= 1,
                        "{located:?} outside the {lines}-line file\n{text}"
                    );
                }
            }
            Ok(())
        })
        .expect("every generated problem file parses or fails with located errors");
}

/// Generated expressions wrapped in the identities the expression algebra folds (per run).
const IDENTITY_CASES: u32 = 2_000;

/// An expression in Lotka–Volterra's coordinates and parameters, of any value.
fn lotka_volterra_expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => prop::sample::select(vec!["q1", "q2", "a1", "b2"]).prop_map(str::to_owned),
        2 => (0u32..4).prop_map(|n| n.to_string()),
        1 => (-3.0f64..3.0).prop_map(|x| format!("{x:?}")),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                prop::sample::select(vec!["sin", "exp", "sqrt", "ln"]),
                inner
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
        ]
    })
}

/// Constant folding cannot change the problem: `e` wrapped in a subexpression whose value is
/// never finite (`0/0`, `1/0`, `(e − e)/(e − e)`, …) is refused at a located error, never
/// folded away; wrapped in an identity of finite values (`0·e`, `e − e`, `(e − e)/q₂`), the
/// file loads exactly when the file with `e` itself does.
#[test]
fn folding_identities_never_hide_a_value_that_is_not_finite() {
    let shipped = include_str!("../problems/lotka_volterra.toml");
    let line = shipped
        .lines()
        .find(|l| l.starts_with("hamiltonian = "))
        .expect("a Hamiltonian");
    let h = line
        .strip_prefix("hamiltonian = \"")
        .and_then(|r| r.strip_suffix('"'))
        .expect("a quoted Hamiltonian");
    let with = |extra: &str| shipped.replace(line, &format!("hamiltonian = \"{h} + {extra}\""));
    let never_finite = prop::sample::select(vec![
        "0/0 * {e}",
        "{e} * (1/0) * 0",
        "0 * ({e} / 0)",
        "({e} - {e}) / ({e} - {e})",
        "{e} / ({e} - {e})",
        "0 * ln(0) * {e}",
        "{e} * 0 * sqrt(-1)",
        "0 * {e} * (1e308 * 1e308)",
    ]);
    let finite = prop::sample::select(vec![
        "0 * {e}",
        "{e} - {e}",
        "({e} - {e}) / q2",
        "0 / q2 * {e}",
    ]);
    let mut runner = TestRunner::new(config(IDENTITY_CASES));
    runner
        .run(
            &(lotka_volterra_expression(), never_finite, finite),
            |(e, never_finite, finite)| {
                let refused = ProblemFile::parse(&with(&never_finite.replace("{e}", &e)));
                let errors = refused.err().map(|error| error.errors().len());
                prop_assert!(
                    errors.is_some_and(|n| n >= 1),
                    "`{never_finite}` with e = `{e}` was accepted"
                );
                let plain = ProblemFile::parse(&with(&e)).is_ok();
                let folded = ProblemFile::parse(&with(&finite.replace("{e}", &e))).is_ok();
                prop_assert_eq!(plain, folded, "`{}` with e = `{}`", finite, e);
                Ok(())
            },
        )
        .expect("no folding identity hides a value that is not finite");
}

/// The built-in problems, their parameters and the method families, with damaged names.
fn problem_name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "lotka-volterra",
        "lotka-volterra-singular",
        "degenerate-pendulum",
        "pendulum",
        "spherical-pendulum",
        "triatomic",
        "lotka-volterra-hamiltonian",
        "index-two-pendulum",
        "nosuch",
        "",
    ])
    .prop_map(str::to_owned)
}

fn method_name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "SlrkLobattoIIIE",
        "SlrkLobattoIIIAB",
        "SlrkLobattoIIID",
        "VprkGauss",
        "VprkLobattoIIIAIIIB",
        "Rattle",
        "Shake",
        "RattleLobattoIIIAIIIB",
        "IdaeVparkLobattoIIIBIIIApSymplectic",
        "HsparkLobattoIIIAIIIB",
        "HparkLobattoIIIAIIIB",
        "VsparkPrimaryGlrkpMidpoint",
        "SlrkLobattoIIIE4",
        "rk4",
        "",
    ])
    .prop_map(str::to_owned)
}

fn parameter() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "a1",
        "a2",
        "b1",
        "b2",
        "q1",
        "q2",
        "m",
        "g",
        "l",
        "theta",
        "theta_dot",
        "phi_dot",
        "m1",
        "d12",
        "k",
        "zz",
        "",
        "=",
    ]);
    let value = prop_oneof![
        4 => (-3.0f64..3.0).prop_map(|x| format!("{x}")),
        1 => prop::sample::select(vec![
            "0", "-1", "1e20", "1e-20", "nan", "inf", "-inf", "x", "", "1e400",
        ])
        .prop_map(str::to_owned),
    ];
    (key, value).prop_map(|(k, v)| format!("{k}={v}"))
}

/// A step count: small, or one that cannot be used or represented.
fn step_count() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (1u64..200).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![
            "0", "-1", "abc", "1e3", "18446744073709551615", "18446744073709551616",
            "1000000000000", "4294967297", "",
        ])
        .prop_map(str::to_owned),
    ]
}

/// The run's length: `--steps N`, or `--t-end T` with a step size.
fn run_length() -> impl Strategy<Value = Vec<String>> {
    let real = prop_oneof![
        6 => (0.01f64..0.5).prop_map(|x| format!("{x}")),
        1 => prop::sample::select(vec![
            "0", "-0.1", "nan", "inf", "1e300", "1e-300", "abc", "", "1e-9",
        ])
        .prop_map(str::to_owned),
    ];
    prop_oneof![
        6 => step_count().prop_map(|n| vec!["--steps".to_owned(), n]),
        1 => (real, (0.01f64..3.0)).prop_map(|(h, t)| {
            vec!["--h".to_owned(), h, "--t-end".to_owned(), format!("{t}")]
        }),
    ]
}

/// One option of `run` besides its length, as its words.
fn run_option(dir: PathBuf) -> impl Strategy<Value = Vec<String>> {
    let h = prop_oneof![
        4 => (0.01f64..0.5).prop_map(|x| format!("{x}")),
        1 => prop::sample::select(vec!["0", "-0.1", "nan", "inf", "1e300", "1e-300", "abc", ""])
            .prop_map(str::to_owned),
    ];
    let extension = prop::sample::select(vec!["csv", "json", "npy", "txt", "png", "svg"]);
    prop_oneof![
        2 => method_name().prop_map(|m| vec!["--method".to_owned(), m]),
        1 => (0u32..8).prop_map(|s| vec!["--stages".to_owned(), s.to_string()]),
        1 => step_count().prop_map(|n| vec!["--every".to_owned(), n]),
        1 => h.prop_map(|h| vec!["--h".to_owned(), h]),
        2 => parameter().prop_map(|p| vec!["--param".to_owned(), p]),
        1 => Just(vec!["--json".to_owned()]),
        1 => (extension.clone(), 0u32..1000).prop_map({
            let dir = dir.clone();
            move |(e, k)| {
                vec!["--out".to_owned(), dir.join(format!("out{k}.{e}")).display().to_string()]
            }
        }),
        1 => (extension, 0u32..1000).prop_map(move |(e, k)| {
            vec!["--plot".to_owned(), dir.join(format!("plot{k}.{e}")).display().to_string()]
        }),
        1 => prop::sample::select(vec!["--nosuch", "-x", "--", "--steps", "--steps=2"])
            .prop_map(|o| vec![o.to_owned()]),
    ]
}

/// The shipped problem files an ensemble runs, and a path that is not one.
fn ensemble_problem() -> impl Strategy<Value = String> {
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/");
    prop::sample::select(vec![
        "lotka_volterra.toml",
        "guiding_centre.toml",
        "pendulum.toml",
        "penning_trap.toml",
        "point_vortices.toml",
        "nosuch.toml",
    ])
    .prop_map(move |name| format!("{shipped}{name}"))
}

/// A value of a state: near the shipped problems' initial states, or hostile.
fn state_value() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (-2.0f64..2.0).prop_map(|x| format!("{x}")),
        1 => prop::sample::select(vec![
            "0", "1e300", "-1e300", "1e-300", "nan", "inf", "1e400", "abc", "", " 1 ", "1,",
        ])
        .prop_map(str::to_owned),
    ]
}

/// The text of a states file: rows of about the width a state has (`2D` for D = 2 … 6),
/// with an optional header or byte-order mark.
fn states_text() -> impl Strategy<Value = String> {
    let row = (2usize..=13).prop_flat_map(|width| prop::collection::vec(state_value(), width));
    (
        prop::collection::vec(row, 0..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(rows, header, bom)| {
            let mut text = String::new();
            if bom {
                text.push('\u{feff}');
            }
            if header {
                text.push_str("q1,q2,p1,p2\n");
            }
            for row in rows {
                text.push_str(&row.join(","));
                text.push('\n');
            }
            text
        })
}

/// The states file of an ensemble: a CSV text, the `.npy` of a CSV's numbers (float64, or a
/// lying header), or something that is not a states file.
fn states_file() -> impl Strategy<Value = States> {
    prop_oneof![
        6 => states_text().prop_map(States::Csv),
        3 => (states_text(), prop::sample::select(vec!["<f8", "<f8", "<f4", ">f8"]))
            .prop_map(|(text, descr)| States::Npy(npy_of(&text, descr))),
        1 => prop::sample::select(vec![
            States::Path("/dev/zero".to_owned()),
            States::Path("/dev/null".to_owned()),
            States::Path("/".to_owned()),
            States::Path("nosuch.csv".to_owned()),
            States::Path("states.txt".to_owned()),
        ]),
    ]
}

/// The `.npy` bytes of the numbers of `text`'s first row's width (rows of another width, and
/// fields that are not numbers, dropped), with the header's type `descr`.
fn npy_of(text: &str, descr: &str) -> Vec<u8> {
    let rows: Vec<Vec<f64>> = text
        .lines()
        .map(|line| {
            line.split(',')
                .filter_map(|f| f.trim().parse().ok())
                .collect()
        })
        .filter(|row: &Vec<f64>| !row.is_empty())
        .collect();
    let width = rows.first().map_or(0, Vec::len);
    let rows: Vec<&Vec<f64>> = rows.iter().filter(|r| r.len() == width).collect();
    let header = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({}, {width}), }}\n",
        rows.len()
    );
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    for x in rows.into_iter().flatten() {
        bytes.extend(x.to_le_bytes());
    }
    bytes
}

/// One option of `ensemble` besides the problem, the states and the length, as its words.
fn ensemble_option(dir: PathBuf) -> impl Strategy<Value = Vec<String>> {
    let extension = prop::sample::select(vec!["csv", "npy", "json", "txt", ""]);
    prop_oneof![
        2 => prop::sample::select(vec!["0", "1", "2", "3", "1024", "1025", "1000000", "x", ""])
            .prop_map(|t| vec!["--threads".to_owned(), t.to_owned()]),
        2 => method_name().prop_map(|m| vec!["--method".to_owned(), m]),
        1 => step_count().prop_map(|n| vec!["--every".to_owned(), n]),
        1 => Just(vec!["--json".to_owned()]),
        1 => Just(vec!["--project-initial".to_owned()]),
        1 => parameter().prop_map(|p| vec!["--param".to_owned(), p]),
        2 => (extension, 0u32..4).prop_map({
            let dir = dir.clone();
            move |(e, k)| {
                vec!["--out".to_owned(), dir.join(format!("final{k}.{e}")).display().to_string()]
            }
        }),
        1 => prop::sample::select(vec!["trajectories", "final0.csv", "/dev/null/x", ""])
            .prop_map(move |t| {
                let path = if t.is_empty() { String::new() } else { dir.join(t).display().to_string() };
                vec!["--trajectories".to_owned(), path]
            }),
    ]
}

/// The initial states of a generated ensemble.
#[derive(Clone, Debug)]
enum States {
    /// A CSV text, written to `states.csv`.
    Csv(String),
    /// `.npy` bytes, written to `states.npy`.
    Npy(Vec<u8>),
    /// A path given as it is (relative to the scratch directory).
    Path(String),
}

/// Where the command's output streams go.
#[derive(Clone, Copy, Debug)]
enum Streams {
    /// Both read by the test.
    Read,
    /// stdout to `/dev/full`, where every write fails.
    FullStdout,
    /// stderr to `/dev/full` (the exit code is all the test sees).
    FullStderr,
    /// stdout a pipe whose reading end is closed before the command writes.
    ClosedStdout,
}

/// A generated command: its words, a problem file to append as `--problem-file`, the
/// states of an ensemble (`--initial`), and its output streams.
#[derive(Clone, Debug)]
struct Case {
    args: Vec<String>,
    problem: Option<String>,
    states: Option<States>,
    streams: Streams,
}

fn streams() -> impl Strategy<Value = Streams> {
    prop_oneof![
        12 => Just(Streams::Read),
        1 => Just(Streams::FullStdout),
        1 => Just(Streams::FullStderr),
        1 => Just(Streams::ClosedStdout),
    ]
}

/// An argument vector: a subcommand with options, a problem file to run, or an ensemble.
fn argument_vector(dir: PathBuf) -> impl Strategy<Value = Case> {
    let case = |args: Vec<String>, problem: Option<String>| (args, problem, None::<States>);
    let run = (
        prop::option::of(problem_name()),
        run_length(),
        prop::collection::vec(run_option(dir.clone()), 0..5),
    )
        .prop_map(move |(problem, length, options)| {
            let mut args = vec!["run".to_owned()];
            args.extend(problem);
            args.extend(length);
            args.extend(options.into_iter().flatten());
            case(args, None)
        });
    let file = (
        problem_file(),
        run_length(),
        prop::collection::vec(run_option(dir.clone()), 0..3),
    )
        .prop_map(move |(file, length, options)| {
            let mut args = vec!["run".to_owned()];
            args.extend(length);
            args.extend(options.into_iter().flatten());
            case(args, Some(file))
        });
    let ensemble = ensemble_command(dir);
    let tableau = (
        prop::sample::select(vec!["Gauss", "LobattoIIIA", "RadauIIA", "NoSuch", ""]),
        prop::sample::select(vec!["1", "2", "5", "0", "99", "x", "-1"]),
        any::<bool>(),
    )
        .prop_map(move |(family, s, exact)| {
            let mut args = vec!["tableau".to_owned(), family.to_owned(), s.to_owned()];
            if exact {
                args.push("--exact".to_owned());
            }
            case(args, None)
        });
    let other = prop::sample::select(vec![
        vec!["methods"],
        vec!["methods", "--json"],
        vec!["verify", "--quick", "--only", "NoSuchMethod"],
        vec!["verify", "--only"],
        vec!["ensemble"],
        vec!["frobnicate"],
        vec!["--help"],
        vec![],
    ])
    .prop_map(move |v| case(v.into_iter().map(str::to_owned).collect(), None));
    let command = prop_oneof![8 => run, 3 => file, 4 => ensemble, 2 => tableau, 1 => other];
    with_streams(command)
}

/// An ensemble's words (problem, length and options) and its initial states.
fn ensemble_command(
    dir: PathBuf,
) -> impl Strategy<Value = (Vec<String>, Option<String>, Option<States>)> {
    (
        ensemble_problem(),
        states_file(),
        run_length(),
        prop::collection::vec(ensemble_option(dir), 0..4),
    )
        .prop_map(|(problem, states, length, options)| {
            let mut args = vec!["ensemble".to_owned(), "--problem-file".to_owned(), problem];
            args.extend(length);
            args.extend(options.into_iter().flatten());
            (args, None, Some(states))
        })
}

/// `command` with output streams of every kind.
fn with_streams(
    command: impl Strategy<Value = (Vec<String>, Option<String>, Option<States>)>,
) -> impl Strategy<Value = Case> {
    (command, streams()).prop_map(|((args, problem, states), streams)| Case {
        args,
        problem,
        states,
        streams,
    })
}

/// The number of steps `args` asks for, as far as it can be told (`None` if unknown); 0 for
/// the commands that integrate nothing.
fn requested_steps(args: &[String]) -> Option<f64> {
    if args.first().is_some_and(|c| c != "run" && c != "ensemble") {
        return Some(0.0);
    }
    let value = |flag: &str| {
        args.iter()
            .rposition(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<f64>().ok())
    };
    match (value("--steps"), value("--t-end"), value("--h")) {
        (Some(n), _, _) => Some(n),
        (None, Some(t), h) => Some(t / h.unwrap_or(0.1)),
        (None, None, _) => None,
    }
}

/// Whether `args` asks for at most [`BOUNDED_STEPS`] steps, which must end within the budget.
fn bounded(args: &[String]) -> bool {
    requested_steps(args).is_some_and(|n| n <= BOUNDED_STEPS)
}

/// What one command did.
struct Ended {
    /// The exit code, or `None` if a signal ended it.
    code: Option<i32>,
    stderr: String,
    /// Whether the test stopped it at the time budget.
    stopped: bool,
}

/// Runs the binary under the address-space limit with its output streams as `streams` says,
/// stopping it at its time budget: the command's for runs of at most [`BOUNDED_STEPS`],
/// [`LONG_RUN_BUDGET`] for longer ones.
fn command(args: &[String], dir: &Path, streams: Streams) -> Ended {
    let budget = if bounded(args) {
        COMMAND_BUDGET
    } else {
        LONG_RUN_BUDGET
    };
    let full = || {
        std::fs::File::create("/dev/full")
            .map(Stdio::from)
            .expect("/dev/full")
    };
    let (stdout, stderr) = match streams {
        Streams::Read => (Stdio::null(), Stdio::piped()),
        Streams::FullStdout => (full(), Stdio::piped()),
        Streams::FullStderr => (Stdio::null(), full()),
        Streams::ClosedStdout => (Stdio::piped(), Stdio::piped()),
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_sparkgen"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("the binary starts");
    // The reading end of a piped stdout is closed at once.
    drop(child.stdout.take());
    let start = Instant::now();
    let mut stopped = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting on the binary") {
            break status;
        }
        if start.elapsed() > budget {
            stopped = true;
            let _ = child.kill();
            break child.wait().expect("waiting on the stopped binary");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    Ended {
        code: status.code(),
        stderr,
        stopped,
    }
}

/// Writes the generated case's files into `dir` and completes its words.
fn prepared(case: &Case, dir: &Path) -> Vec<String> {
    let mut args = case.args.clone();
    if let Some(file) = &case.problem {
        let problem = dir.join("problem.toml");
        std::fs::write(&problem, file).expect("scratch problem file");
        args.push("--problem-file".to_owned());
        args.push(problem.display().to_string());
    }
    if let Some(states) = &case.states {
        let path = match states {
            States::Csv(text) => {
                let path = dir.join("states.csv");
                std::fs::write(&path, text).expect("scratch states file");
                path
            }
            States::Npy(bytes) => {
                let path = dir.join("states.npy");
                std::fs::write(&path, bytes).expect("scratch states file");
                path
            }
            States::Path(path) => dir.join(path),
        };
        args.push("--initial".to_owned());
        args.push(path.display().to_string());
    }
    // An ensemble writes its final states where `--out` says, by default into the scratch
    // directory.
    if args.first().is_some_and(|c| c == "ensemble") && !args.iter().any(|a| a == "--out") {
        args.push("--out".to_owned());
        args.push(dir.join("final.csv").display().to_string());
    }
    args
}

/// Runs `cases` argument vectors generated by `strategy` (from the scratch directory) through
/// the binary.
fn fuzz_command<S: Strategy<Value = Case>>(cases: u32, name: &str, strategy: fn(PathBuf) -> S) {
    let dir = std::env::temp_dir().join(format!("sparkgen-fuzz-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let mut runner = TestRunner::new(config(cases));
    runner
        .run(&strategy(dir.clone()), |case| {
            let args = prepared(&case, &dir);
            let ended = command(&args, &dir, case.streams);
            // The arguments, the files, and the head of stderr (a panic's backtrace cut).
            let shown = || {
                let head: Vec<&str> = ended.stderr.lines().take(4).collect();
                format!(
                    "{args:?}\n{}\n{:?}\n{:?}\nstderr: {}",
                    case.problem.as_deref().unwrap_or(""),
                    case.states,
                    case.streams,
                    head.join("\n")
                )
            };
            prop_assert!(!ended.stderr.contains("panicked"), "panic: {}", shown());
            if ended.stopped {
                prop_assert!(!bounded(&args), "over the time budget: {}", shown());
                return Ok(());
            }
            let Some(code) = ended.code else {
                return Err(TestCaseError::fail(format!(
                    "ended by a signal: {}",
                    shown()
                )));
            };
            prop_assert!(matches!(code, 0..=2), "exit code {code}: {}", shown());
            // With stderr at /dev/full the exit code is all there is to see.
            if code != 0 && !matches!(case.streams, Streams::FullStderr) {
                let lines = ended.stderr.trim_end().lines().count();
                prop_assert!(
                    lines == 1 && ended.stderr.starts_with("error"),
                    "not one error line: {}",
                    shown()
                );
            }
            Ok(())
        })
        .expect("every generated command ends cleanly");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn commands_end_cleanly_within_budget_first_half() {
    fuzz_command(COMMAND_CASES, "a", argument_vector);
}

#[test]
fn commands_end_cleanly_within_budget_second_half() {
    fuzz_command(COMMAND_CASES, "b", argument_vector);
}

/// The surfaces of ensembles (generated states files, thread counts, output paths) and output
/// streams that cannot be written, on their own.
#[test]
fn ensembles_and_unwritable_streams_end_cleanly_within_budget() {
    fuzz_command(ENSEMBLE_CASES, "e", |dir| {
        with_streams(ensemble_command(dir))
    });
}
