//! Embeds the method descriptions (`generated/descriptions/*.txt`, one file per family, beside
//! the table of roundings `roundings.txt`, which the macros embed themselves) in the macro crate:
//! writes `$OUT_DIR/descriptions.rs`, a table `&[(family, text)]` sorted by family name whose
//! texts are `include_str!`s of the committed files, so `sparkgen::stepper!` reads them without
//! the generator (and without arbitrary-precision arithmetic).

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

/// The table of roundings of every description's coefficients, no family's description.
const ROUNDINGS: &str = "roundings.txt";

fn main() -> Result<(), Box<dyn Error>> {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?);
    let dir = manifest.join("../generated/descriptions").canonicalize()?;
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut families = Vec::new();
    for entry in fs::read_dir(&dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "txt") {
            println!("cargo:rerun-if-changed={}", path.display());
            if path.file_name().is_some_and(|n| n != ROUNDINGS) {
                families.push((family(&path)?, path));
            }
        }
    }
    families.sort();
    let mut table = String::from("&[\n");
    for (name, path) in &families {
        let path = path.to_str().ok_or("a description path is not UTF-8")?;
        writeln!(table, "    ({name:?}, include_str!({path:?})),")?;
    }
    table.push(']');
    let out = PathBuf::from(env::var("OUT_DIR")?).join("descriptions.rs");
    fs::write(out, table)?;
    Ok(())
}

/// The family a description file describes: its first `family` line (every method of a file
/// belongs to one family).
fn family(path: &Path) -> Result<String, Box<dyn Error>> {
    let text = fs::read_to_string(path)?;
    text.lines()
        .find_map(|line| line.strip_prefix("family "))
        .map(|name| name.trim().to_owned())
        .ok_or_else(|| format!("{}: no `family` line", path.display()).into())
}
