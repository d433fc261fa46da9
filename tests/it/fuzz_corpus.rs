//! Every committed fuzz input (`fuzz/corpus/<target>/`, the corpora the
//! coverage-guided runs built, plus the inputs that once crashed or hung) goes
//! through the same harness the fuzz target runs (`networks_mcp::fuzzing`): CI's
//! short smoke run of each target, in the ordinary test build. Long runs:
//! `cd fuzz && cargo +nightly fuzz run <target>` (see AGENTS.md).

use std::path::Path;

fn replay(target: &str, harness: impl Fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus for {target}");
    for file in &files {
        // A running fuzzer may replace files while this reads them.
        let Ok(data) = std::fs::read(file) else {
            continue;
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| harness(&data)));
        assert!(outcome.is_ok(), "{target}: {} fails", file.display());
    }
    eprintln!("{target}: {} inputs replayed", files.len());
}

#[test]
fn import_dot() {
    replay("import_dot", |d| networks_mcp::fuzzing::import("dot", d));
}

#[test]
fn import_graphml() {
    replay("import_graphml", |d| {
        networks_mcp::fuzzing::import("graphml", d)
    });
}

#[test]
fn import_csv() {
    replay("import_csv", |d| {
        networks_mcp::fuzzing::import("edge_list_csv", d)
    });
}

#[test]
fn import_node_link() {
    replay("import_node_link", |d| {
        networks_mcp::fuzzing::import("node_link_json", d)
    });
}

#[test]
fn import_mermaid() {
    replay("import_mermaid", |d| {
        networks_mcp::fuzzing::import("mermaid", d)
    });
}

#[test]
fn import_taskmaster() {
    replay("import_taskmaster", |d| {
        networks_mcp::fuzzing::import("taskmaster_json", d)
    });
}

#[test]
fn import_beads() {
    replay("import_beads", |d| {
        networks_mcp::fuzzing::import("beads_jsonl", d)
    });
}

#[test]
fn import_memory() {
    replay("import_memory", |d| {
        networks_mcp::fuzzing::import("memory_jsonl", d)
    });
}

#[test]
fn import_cargo() {
    replay("import_cargo", |d| {
        networks_mcp::fuzzing::import("cargo_metadata", d)
    });
}

#[test]
fn import_npm() {
    replay("import_npm", |d| {
        networks_mcp::fuzzing::import("package_lock_json", d)
    });
}

#[test]
fn import_go() {
    replay("import_go", |d| {
        networks_mcp::fuzzing::import("go_mod_graph", d)
    });
}

#[test]
fn import_pip() {
    replay("import_pip", |d| {
        networks_mcp::fuzzing::import("pipdeptree_json", d)
    });
}

#[test]
fn stdio_frames() {
    replay("stdio_frames", networks_mcp::fuzzing::stdio_frames);
}

#[test]
fn dispatch() {
    replay("dispatch", networks_mcp::fuzzing::dispatch);
}

#[test]
fn recovery() {
    replay("recovery", networks_mcp::fuzzing::recovery);
}

#[test]
fn query() {
    replay("query", networks_mcp::fuzzing::query);
}
