//! The overhead benchmark embeds Python: it finds `libpython` at run time where pyo3 linked it
//! (an rpath), whatever the library path. The extension module itself links no `libpython`.

fn main() {
    let config = pyo3_build_config::get();
    if let Some(dir) = config.lib_dir() {
        println!("cargo:rustc-link-arg-benches=-Wl,-rpath,{dir}");
    }
}
