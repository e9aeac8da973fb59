//! What calling sparkgen from Python costs: a 10-step run of VPRK Gauss(3) on the
//! Lotka–Volterra problem file through `sparkgen.solve` (argument conversion, the GIL released
//! and taken back, the numpy arrays and the summary built) against the same run called from Rust
//! ([`sparkgen::cli::problem_files::run`], which `solve` calls), side by side in one process:
//! the embedded interpreter has the module registered as a built-in (`append_to_inittab`), and
//! numpy from the tests' virtual environment (`cargo xtask python` makes it, at
//! `target/python-venv`, or where `SPARKGEN_PYTHON_VENV` says).

use divan::Bencher;
use pyo3::prelude::*;
use sparkgen::cli::choice;
use sparkgen::cli::problem_files;
use sparkgen::cli::run::RunSpec;
use sparkgen::cli::trajectory::{Keep, Memory};
use std::num::NonZeroUsize;
use std::path::PathBuf;
// The `#[pymodule]` by a name that is not the crate's.
use sparkgen_python::sparkgen_python as sparkgen_module;

/// The steps of a run.
const STEPS: usize = 10;

fn problem_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../problems/lotka_volterra.toml")
}

fn venv() -> PathBuf {
    std::env::var_os("SPARKGEN_PYTHON_VENV").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/python-venv"),
        PathBuf::from,
    )
}

fn main() {
    pyo3::append_to_inittab!(sparkgen_module);
    Python::initialize();
    divan::main();
}

/// The run from Rust, as `solve` makes it.
#[divan::bench]
fn rust(bencher: Bencher) {
    let (file, subject) = problem_files::load(&problem_file(), &[]).expect("the shipped file");
    let method = choice::resolve(subject.kind, Some("VprkGauss"), Some(3)).expect("a method");
    let spec = RunSpec {
        keep: Keep {
            memory: Memory::Every,
            out: None,
            every: NonZeroUsize::MIN,
            progress: false,
        },
        ..RunSpec::new(method, 0.1, STEPS)
    };
    bencher.bench_local(|| problem_files::run(&file, &subject, &spec).expect("the run"));
}

/// The same run from Python.
#[divan::bench]
fn python(bencher: Bencher) {
    Python::attach(|py| {
        let setup = format!(
            "import glob, sys\n\
             sys.path.extend(glob.glob({venv:?} + '/lib/python*/site-packages'))\n\
             import numpy, sparkgen\n\
             problem = sparkgen.Problem.from_file({file:?})\n\
             run = lambda: sparkgen.solve(problem, 'VprkGauss', 3, h=0.1, steps={STEPS})\n",
            venv = venv().display().to_string(),
            file = problem_file().display().to_string(),
        );
        let setup = std::ffi::CString::new(setup).expect("no NUL");
        let globals = pyo3::types::PyDict::new(py);
        if let Err(e) = py.run(&setup, Some(&globals), None) {
            panic!(
                "the embedded interpreter cannot import numpy and sparkgen ({e}); \
                 run `cargo xtask python` first, which makes target/python-venv"
            );
        }
        let run = globals
            .get_item("run")
            .expect("a dict")
            .expect("`run` defined");
        bencher.bench_local(|| run.call0().expect("the run"));
    });
}
