//! `networks-mcp demo`: the worked session runs, every call but the deliberate
//! cycle succeeds, and the output names what the session is about.

use std::process::Command;
use std::time::Instant;

use networks_mcp::demo;

fn run() -> (String, Vec<demo::Outcome>) {
    let mut out = Vec::new();
    let outcomes = demo::run(&mut out).expect("writing to a buffer cannot fail");
    (
        String::from_utf8(out).expect("the demo prints UTF-8"),
        outcomes,
    )
}

#[test]
fn every_call_succeeds_but_the_deliberate_cycle() {
    let (_, outcomes) = run();
    assert!(outcomes.len() >= 8, "{outcomes:?}");
    let failed: Vec<&demo::Outcome> = outcomes.iter().filter(|o| o.error_code.is_some()).collect();
    assert_eq!(failed.len(), 1, "{outcomes:?}");
    assert_eq!(failed[0].tool, "network_topological_sort");
    assert_eq!(failed[0].error_code.as_deref(), Some("cycle_detected"));
    for tool in [
        "network_add_edges",
        "network_topological_sort",
        "network_critical_path",
        "network_remove_edge",
        "network_ready_nodes",
    ] {
        assert!(
            outcomes.iter().any(|o| o.tool == tool),
            "the demo calls {tool}"
        );
    }
}

#[test]
fn the_output_names_the_critical_path_the_cycle_and_the_ready_tasks() {
    let (out, _) = run();
    assert!(
        out.contains("critical path: launch → tests → api → schema → design (8.0 days)"),
        "{out}"
    );
    assert!(out.contains("error cycle_detected: cycle"), "{out}");
    assert!(out.contains("ready: api, ui;"), "{out}");
    assert!(out.contains("step 1: [design]"), "{out}");
    assert!(
        out.contains("claude mcp add networks -- networks-mcp"),
        "{out}"
    );
    assert!(!out.contains('\u{1b}'), "no terminal escapes: {out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 200, "a short line: {line}");
    }
}

#[test]
fn the_binary_runs_the_demo_and_lists_it_in_help() {
    let bin = env!("CARGO_BIN_EXE_networks-mcp");
    let started = Instant::now();
    let out = Command::new(bin).arg("demo").output().unwrap();
    let elapsed = started.elapsed();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("critical path:"), "{stdout}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Generous for a loaded machine; the demo itself takes a few milliseconds.
    assert!(elapsed.as_secs() < 10, "the demo took {elapsed:?}");
    let help = Command::new(bin).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("demo") && help.contains("Commands:"),
        "{help}"
    );
}

/// The lines of the demo that the README shows are lines the demo prints.
#[test]
fn the_readme_shows_what_the_demo_prints() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split_once("cargo run --release -- demo")
        .expect("the README shows the demo command")
        .1;
    let shown = section
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("the README shows the demo's output")
        .0;
    let (out, _) = run();
    let printed: Vec<&str> = out.lines().collect();
    for line in shown.lines().filter(|l| !l.is_empty()) {
        assert!(
            printed.contains(&line),
            "the demo does not print:\n{line}\n\nit prints:\n{out}"
        );
    }
}
