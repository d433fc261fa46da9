//! The graph core's layering, checked on its source: `src/network/graph/` (the
//! data structure) imports nothing from `src/network/algo/` (the algorithm
//! families over it), and nothing in `src/network/` reaches above the core.
//!
//! The compiler already keeps `algo/` out of `Network`'s private fields; these
//! checks keep the import direction, which it does not see: an upward import
//! compiles, and once one is there the two layers can no longer be read, tested
//! or changed apart. Comment lines are skipped (docs may name anything).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The crate modules the core may use besides itself: its error type, the
/// budget its long loops charge, and the fixed limits of its input rules.
const CORE_MAY_USE: [&str; 4] = ["network", "error", "budget", "limits"];

fn network_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/network")
}

/// Every `.rs` file under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The lines of a file that are code, numbered from 1 (comment lines dropped).
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    std::fs::read_to_string(path)
        .expect("a readable source file")
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line.to_string()))
        .collect()
}

/// The identifier starting at `s` (letters, digits, underscores).
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The names `algo/` defines at the top: its modules, and what the facade
/// re-exports from it (`pub use algo::options::{Order, …}`).
fn algo_names() -> BTreeSet<String> {
    let dir = network_dir();
    let mut names: BTreeSet<String> = rust_files(&dir.join("algo"))
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|stem| stem != "mod")
        .collect();
    let facade = std::fs::read_to_string(dir.join("mod.rs")).expect("src/network/mod.rs");
    for statement in facade.split(';') {
        if let Some((_, rest)) = statement.split_once("pub use algo::") {
            names.extend(
                rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string),
            );
        }
    }
    names
}

fn fail_on(problems: &[String], rule: &str) {
    assert!(
        problems.is_empty(),
        "{rule}\n{}\n",
        problems
            .iter()
            .map(|p| format!("  {p}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn the_graph_layer_imports_nothing_from_the_algorithm_layer() {
    let algo = algo_names();
    assert!(
        algo.contains("paths") && algo.contains("work"),
        "src/network/algo/ should hold the algorithm families; found {algo:?}"
    );
    let mut problems = Vec::new();
    for file in rust_files(&network_dir().join("graph")) {
        for (n, line) in code_lines(&file) {
            let mut why = None;
            if line.contains("algo::") {
                why = Some("names `algo::`".to_string());
            }
            // A path through the facade (`crate::network::paths::…`, or
            // `super::super::…` from a graph module) to a module of algo/ or a
            // name the facade re-exports from it, alone or in a `{…}` list.
            let through_facade = ["network::", "super::super::"]
                .into_iter()
                .flat_map(|prefix| line.match_indices(prefix).map(|(at, p)| at + p.len()));
            for start in through_facade {
                let rest = &line[start..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(list) => list
                        .split('}')
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .map(|s| ident(s.trim()))
                        .collect(),
                    None => vec![ident(rest)],
                };
                if let Some(name) = names.into_iter().find(|n| algo.contains(*n)) {
                    why = Some(format!("reaches `{name}` of algo/ through the facade"));
                }
            }
            if let Some(why) = why {
                problems.push(format!("{}:{n}: {why}: {}", relative(&file), line.trim()));
            }
        }
    }
    fail_on(
        &problems,
        "src/network/graph/ must not import from src/network/algo/ (the structure sits below \
         its algorithms; move a helper both need down into graph/, see AGENTS.md \"Code map\"):",
    );
}

#[test]
fn the_core_reaches_nothing_above_it() {
    let mut problems = Vec::new();
    for file in rust_files(&network_dir()) {
        for (n, line) in code_lines(&file) {
            for (at, _) in line.match_indices("crate::") {
                // `networks_mcp::…` or `some_crate::…` is another crate's path.
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let module = ident(&line[at + "crate::".len()..]);
                if !CORE_MAY_USE.contains(&module) {
                    problems.push(format!(
                        "{}:{n}: uses `crate::{module}`: {}",
                        relative(&file),
                        line.trim()
                    ));
                }
            }
        }
    }
    fail_on(
        &problems,
        &format!(
            "src/network/ is the pure core: besides itself it may use only crate::{{{}}} \
             (import `crate::error::{{Error, Result}}`, not `crate::Result`; nothing of mcp, \
             registry, storage, http or the server):",
            CORE_MAY_USE[1..].join(", ")
        ),
    );
}
