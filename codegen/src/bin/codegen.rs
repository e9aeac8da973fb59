//! `cargo codegen` rewrites `generated/` and the method guide `docs/methods.md`;
//! `cargo codegen --check` exits non-zero on drift of either.

use sparkgen_codegen::catalogue::{Catalogue, Config};
use sparkgen_codegen::emit::{self, GeneratedFile};
use sparkgen_codegen::guide;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check_only = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check_only = true,
            "-h" | "--help" => {
                println!(
                    "usage: cargo codegen [--check]\n  rewrites generated/ and docs/methods.md \
                     (or, with --check, fails if they drifted)"
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("error: unknown argument `{other}` (usage: cargo codegen [--check])");
                return ExitCode::from(2);
            }
        }
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let outputs = match Catalogue::build(Config::default()).and_then(|c| {
        Ok([
            ("generated/", emit::generate(&c)?),
            ("docs/", vec![guide::guide(&c)]),
        ])
    }) {
        Ok(outputs) => outputs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut drifted = false;
    for (dir, files) in &outputs {
        match sync(&workspace.join(dir), dir, files, check_only) {
            Ok(clean) => drifted |= !clean,
            Err(()) => return ExitCode::FAILURE,
        }
    }
    if check_only && drifted {
        eprintln!("error: the generated files drifted from the generator; run `cargo codegen`");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks (or rewrites) the `files` under `root`, printing what drifted; `Ok(true)` when
/// nothing did, `Err(())` after printing an I/O error.
fn sync(root: &Path, dir: &str, files: &[GeneratedFile], check_only: bool) -> Result<bool, ()> {
    let result = if check_only {
        emit::check(root, files)
    } else {
        emit::write(root, files)
    };
    match result {
        Ok(drift) if drift.is_empty() => {
            println!("{dir}: {} files up to date", files.len());
            Ok(true)
        }
        Ok(drift) => {
            for d in &drift {
                println!("{dir}: {d}");
            }
            if check_only {
                println!("{dir}: {} of {} files drifted", drift.len(), files.len());
            } else {
                println!("{dir}: rewrote {} of {} files", drift.len(), files.len());
            }
            Ok(false)
        }
        Err(e) => {
            eprintln!("error: {}: {e}", root.display());
            Err(())
        }
    }
}
