//! Import circles between the files of the library crates: module `a` imports from module `b`
//! (a `use` path, groups and renames expanded) while `b` imports, directly or through others,
//! from `a`. A module and its own ancestors or descendants are not counted (a child module
//! naming its parent's items is how Rust modules nest); test modules (`#[cfg(test)]`) are not
//! counted. Every circle found must be one listed in [`KNOWN`], the ones left to remove
//! (issue 52), and every circle listed must still exist, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates checked: their source roots, relative to the workspace.
const ROOTS: &[&str] = &[
    "runtime/src",
    "runtime/core/src",
    "runtime/jit/src",
    "codegen/src",
    "codegen/sym/src",
    "codegen/description/src",
];

/// Circles left to remove, each as `root: module, module, …` (sorted).
const KNOWN: &[&str] = &[
    "runtime/src: engine::fusion, engine::program",
    "codegen/description/src: spark, structure",
];

type Module = Vec<String>;

/// Every module of the crate at `root` and its file (`lib.rs`, `mod.rs` and `a.rs` beside
/// `a/`), binaries left out.
fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(root).expect("below the root");
            let mut parts: Module = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.first().is_some_and(|p| p == "bin") {
                continue;
            }
            if parts
                .last()
                .is_some_and(|p| p == "lib" || p == "main" || p == "mod")
            {
                parts.pop();
            }
            found.insert(parts, path);
        }
    }
    found
}

/// Every path a `use` tree names, as segments.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            if n.ident != "self" {
                path.push(n.ident.to_string());
            }
            out.push(path);
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push(path);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

/// Whether `attrs` hold `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The `use` paths of `items` (inline modules included, test modules not), each with the
/// module it is written in.
fn uses(items: &[syn::Item], module: &Module, out: &mut Vec<(Module, Vec<String>)>) {
    for item in items {
        match item {
            syn::Item::Use(u) if !is_test(&u.attrs) => {
                let mut paths = Vec::new();
                use_paths(&u.tree, &mut Vec::new(), &mut paths);
                out.extend(paths.into_iter().map(|p| (module.clone(), p)));
            }
            syn::Item::Mod(m) if !is_test(&m.attrs) => {
                if let Some((_, items)) = &m.content {
                    let mut inner = module.clone();
                    inner.push(m.ident.to_string());
                    uses(items, &inner, out);
                }
            }
            _ => {}
        }
    }
}

/// The module a path written in `within` names (the longest prefix that is a module of
/// `modules`), if the path is in the crate.
fn target(within: &Module, path: &[String], modules: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let (mut base, mut rest) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("self") => (within.clone(), &path[1..]),
        Some("super") => (within.clone(), path),
        _ => return None,
    };
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    let full: Module = base.into_iter().chain(rest.iter().cloned()).collect();
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| modules.contains_key(m))
}

/// The edges `a → b` between modules of the crate at `root` that are not ancestors of each
/// other.
fn edges(
    root: &Path,
) -> (
    BTreeMap<Module, PathBuf>,
    BTreeMap<Module, BTreeSet<Module>>,
) {
    let modules = modules(root);
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).expect("a source file");
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut found = Vec::new();
        uses(&parsed.items, module, &mut found);
        for (within, path) in found {
            let Some(to) = target(&within, &path, &modules) else {
                continue;
            };
            let nested = to.starts_with(module) || module.starts_with(&to);
            if !nested {
                graph.entry(module.clone()).or_default().insert(to);
            }
        }
    }
    (modules, graph)
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(nodes: &[Module], graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on: BTreeSet<Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit(v: &Module, s: &mut State<'_>) {
        let i = s.index.len();
        s.index.insert(v.clone(), i);
        s.low.insert(v.clone(), i);
        s.stack.push(v.clone());
        s.on.insert(v.clone());
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.clone(), low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                let done = &w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in nodes {
        if !state.index.contains_key(v) {
            visit(v, &mut state);
        }
    }
    state.found
}

#[test]
fn no_import_circles_beyond_the_known_ones() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = BTreeSet::new();
    for root in ROOTS {
        let (modules, graph) = edges(&workspace.join(root));
        let nodes: Vec<Module> = modules.keys().cloned().collect();
        for circle in circles(&nodes, &graph) {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            found.insert(format!("{root}: {}", names.join(", ")));
        }
    }
    let known: BTreeSet<String> = KNOWN.iter().map(|s| (*s).to_owned()).collect();
    let new: Vec<&String> = found.difference(&known).collect();
    let gone: Vec<&String> = known.difference(&found).collect();
    assert!(new.is_empty(), "new import circles: {new:#?}");
    assert!(
        gone.is_empty(),
        "circles removed, take them off KNOWN: {gone:#?}"
    );
}

/// The check finds a circle written into a crate of its own, and none where there is none.
#[test]
fn a_circle_between_two_files_is_found() {
    let dir = std::env::temp_dir().join(format!("sparkgen-cycles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).expect("scratch");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("scratch");
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    write("a.rs", "mod inner;\nuse self::inner::X;\n");
    write("a/inner.rs", "use super::super::{b::{self, Y as Z}};\n");
    write(
        "b.rs",
        "use crate::c::*;\n#[cfg(test)]\nmod tests { use crate::a::X; }\n",
    );
    write("c.rs", "pub struct W;\n");
    let (modules, graph) = edges(&dir);
    let nodes: Vec<Module> = modules.keys().cloned().collect();
    assert!(circles(&nodes, &graph).is_empty(), "{graph:?}");
    write("c.rs", "use crate::a::inner::X;\n");
    let (modules, graph) = edges(&dir);
    let nodes: Vec<Module> = modules.keys().cloned().collect();
    let found = circles(&nodes, &graph);
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| m.join("::")).collect())
        .collect();
    assert_eq!(names, vec![vec!["a::inner", "b", "c"]], "{graph:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
