//! `cargo codegen` rewrites `generated/`; `cargo codegen --check` exits non-zero on drift.

use sparkgen_codegen::catalogue::{Catalogue, Config};
use sparkgen_codegen::emit;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check_only = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check_only = true,
            "-h" | "--help" => {
                println!(
                    "usage: cargo codegen [--check]\n  rewrites generated/ (or, with --check, fails if it drifted)"
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("error: unknown argument `{other}` (usage: cargo codegen [--check])");
                return ExitCode::from(2);
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("generated");
    let files = match Catalogue::build(Config::default()).and_then(|c| emit::generate(&c)) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = if check_only {
        emit::check(&root, &files)
    } else {
        emit::write(&root, &files)
    };
    match result {
        Ok(drift) if drift.is_empty() => {
            println!("generated/: {} files up to date", files.len());
            ExitCode::SUCCESS
        }
        Ok(drift) => {
            for d in &drift {
                println!("{d}");
            }
            if check_only {
                eprintln!(
                    "error: generated/ drifted from the generator ({} files); run `cargo codegen`",
                    drift.len()
                );
                ExitCode::FAILURE
            } else {
                println!(
                    "generated/: rewrote {} of {} files",
                    drift.len(),
                    files.len()
                );
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {}: {e}", root.display());
            ExitCode::FAILURE
        }
    }
}
