//! Emits Gauss(12) and Lobatto IIIE(9), which the catalogue does not ship, into `OUT_DIR`.

use sparkgen_codegen::emit::tableau_source;
use sparkgen_codegen::exact::Precision;
use sparkgen_codegen::tableau::Family;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut source = String::new();
    for (family, s) in [(Family::Gauss, 12), (Family::LobattoIIIE, 9)] {
        source.push_str(&tableau_source(
            family,
            s,
            Precision::DEFAULT,
            "::sparkgen::generated",
        )?);
    }
    std::fs::write(out.join("tableaus.rs"), source)?;
    println!("cargo::rerun-if-changed=build.rs");
    Ok(())
}
