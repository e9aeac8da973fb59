//! Emits Gauss(12) and Lobatto IIIE(9), and the SLRK Lobatto IIIE stepper with s = 6, none of
//! which the catalogue ships, into `OUT_DIR`.

use sparkgen_codegen::emit::{stepper_source, tableau_source};
use sparkgen_codegen::exact::Precision;
use sparkgen_codegen::method::slrk::slrk;
use sparkgen_codegen::tableau::{Family, PairKind};
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
    let method = slrk(PairKind::LobattoIIIEIIIEBar, 6, Precision::DEFAULT)?;
    std::fs::write(
        out.join("steppers.rs"),
        stepper_source(&method, "::sparkgen::sparkgen_core")?,
    )?;
    println!("cargo::rerun-if-changed=build.rs");
    Ok(())
}
