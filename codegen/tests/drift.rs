//! `generated/` and the method guide `docs/methods.md` are exactly what the generator emits
//! now (the same check as `cargo codegen --check`), and the check notices hand edits, deletions
//! and strays.

use sparkgen_codegen::catalogue::{Catalogue, Config};
use sparkgen_codegen::emit::{self, Drift, GeneratedFile};
use sparkgen_codegen::guide::{GUIDE_HEADER, GUIDE_PATH, guide};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| Catalogue::build(Config::default()).expect("catalogue builds"))
}

fn emitted() -> &'static [GeneratedFile] {
    static FILES: OnceLock<Vec<GeneratedFile>> = OnceLock::new();
    FILES.get_or_init(|| emit::generate(catalogue()).expect("emission succeeds"))
}

fn docs_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
}

fn generated_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("generated")
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sparkgen-drift-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy_tree(&generated_root(), &dir);
    dir
}

#[test]
fn committed_generated_crate_has_no_drift() {
    let drift = emit::check(&generated_root(), emitted()).unwrap();
    assert!(
        drift.is_empty(),
        "generated/ drifted; run `cargo codegen`: {drift:?}"
    );
}

#[test]
fn every_emitted_file_carries_the_header_and_is_deterministic() {
    let again = emit::generate(&Catalogue::build(Config::default()).unwrap()).unwrap();
    assert_eq!(again, emitted(), "two runs of the generator differ");
    for f in emitted() {
        assert!(f.contents.starts_with(emit::HEADER), "{}", f.path.display());
    }
}

#[test]
fn hand_edit_deletion_and_stray_file_are_detected_and_repaired() {
    let dir = scratch("edit");
    let target = dir.join("src/tableaus/gauss.rs");
    let text = fs::read_to_string(&target).unwrap();
    fs::write(&target, text.replacen("0.5", "0.50000001", 1)).unwrap();
    fs::remove_file(dir.join("src/pairs.rs")).unwrap();
    fs::write(dir.join("src/stray.rs"), "// not emitted\n").unwrap();
    let drift = emit::check(&dir, emitted()).unwrap();
    assert_eq!(
        drift,
        vec![
            Drift::Changed(PathBuf::from("src/tableaus/gauss.rs")),
            Drift::Missing(PathBuf::from("src/pairs.rs")),
            Drift::Extra(PathBuf::from("src/stray.rs")),
        ]
    );
    let repaired = emit::write(&dir, emitted()).unwrap();
    assert_eq!(repaired.len(), 3);
    assert!(emit::check(&dir, emitted()).unwrap().is_empty());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn committed_method_guide_has_no_drift() {
    let guide = guide(catalogue());
    let drift = emit::check(&docs_root(), std::slice::from_ref(&guide)).unwrap();
    assert!(
        drift.is_empty(),
        "docs/{GUIDE_PATH} drifted; run `cargo codegen`: {drift:?}"
    );
    assert!(guide.contents.starts_with(GUIDE_HEADER));
    assert_eq!(
        guide,
        sparkgen_codegen::guide::guide(catalogue()),
        "two runs differ"
    );
}

#[test]
fn method_guide_edit_and_deletion_are_detected_and_repaired() {
    let dir = std::env::temp_dir().join(format!("sparkgen-drift-guide-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let guide = [guide(catalogue())];
    let path = PathBuf::from(GUIDE_PATH);
    assert_eq!(
        emit::check(&dir, &guide).unwrap(),
        vec![Drift::Missing(path.clone())]
    );
    emit::write(&dir, &guide).unwrap();
    let text = fs::read_to_string(dir.join(&path)).unwrap();
    fs::write(dir.join(&path), text.replacen("Recommended", "Suitable", 1)).unwrap();
    assert_eq!(
        emit::check(&dir, &guide).unwrap(),
        vec![Drift::Changed(path)]
    );
    assert_eq!(emit::write(&dir, &guide).unwrap().len(), 1);
    assert!(emit::check(&dir, &guide).unwrap().is_empty());
    fs::remove_dir_all(&dir).unwrap();
}
