//! specs/ stays in step with the code: every listed tool has a spec in the
//! eight-section format, and each spec's parameter and output tables name exactly
//! the tool's schema properties.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};

const SECTIONS: [&str; 8] = [
    "### 1. Tool Purpose and Description",
    "### 2. Invocation Name",
    "### 3. Input Schema (Parameters)",
    "### 4. Output Schema (Return Value)",
    "### 5. Error Handling",
    "### 6. Idempotency",
    "### 7. Usage Example",
    "### 8. Security Considerations",
];

/// The first-column names (`name`) of the table rows in one section.
fn table_names(spec: &str, section: usize) -> BTreeSet<String> {
    let start = spec.find(SECTIONS[section]).unwrap_or(0);
    let end = SECTIONS
        .get(section + 1)
        .and_then(|next| spec.find(next))
        .unwrap_or(spec.len());
    spec[start..end]
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_string)
        .collect()
}

/// The property names of a schema; for an output schema, those of its success branch
/// (the first `anyOf` alternative; the second is the shared error object).
fn properties(schema: &serde_json::Map<String, serde_json::Value>) -> BTreeSet<String> {
    let success = schema
        .get("anyOf")
        .and_then(|a| a.get(0))
        .and_then(|s| s.as_object())
        .unwrap_or(schema);
    success
        .get("properties")
        .and_then(|p| p.as_object())
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn every_tool_has_a_matching_spec_and_every_spec_a_tool() {
    // Every toolset, the opt-in ones too.
    let options = ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut problems = Vec::new();
    let mut names = BTreeSet::new();
    for tool in server.listed_tools() {
        let name = tool.name.to_string();
        names.insert(name.clone());
        let path = specs.join(format!("{name}.md"));
        let Ok(spec) = std::fs::read_to_string(&path) else {
            problems.push(format!("{name}: no spec at {}", path.display()));
            continue;
        };
        if !spec.contains(&format!("## Tool: `{name}`")) {
            problems.push(format!(
                "{name}: spec lacks the heading '## Tool: `{name}`'"
            ));
        }
        for section in SECTIONS {
            if !spec.contains(section) {
                problems.push(format!("{name}: spec lacks section '{section}'"));
            }
        }
        let params = properties(&tool.input_schema);
        let documented = table_names(&spec, 2);
        if params != documented {
            problems.push(format!(
                "{name}: parameters in schema {params:?} but in spec {documented:?}"
            ));
        }
        let outputs = tool
            .output_schema
            .as_ref()
            .map(|s| properties(s))
            .unwrap_or_default();
        let documented = table_names(&spec, 3);
        if outputs != documented {
            problems.push(format!(
                "{name}: output fields in schema {outputs:?} but in spec {documented:?}"
            ));
        }
    }
    for entry in std::fs::read_dir(&specs).expect("specs/ exists") {
        let file = entry.unwrap().file_name().to_string_lossy().to_string();
        if let Some(stem) = file.strip_suffix(".md")
            && stem.starts_with("network_")
            && !names.contains(stem)
        {
            problems.push(format!("specs/{file} describes no listed tool"));
        }
    }
    assert!(
        problems.is_empty(),
        "specs out of step with the code:\n{}",
        problems.join("\n")
    );
}

/// The README's library example is `examples/library.rs` exactly, as a user types
/// it (no rustdoc-hidden lines), and so is the crate-level doc's.
#[test]
fn readme_shows_the_library_example_verbatim() {
    let root = env!("CARGO_MANIFEST_DIR");
    let example = std::fs::read_to_string(format!("{root}/examples/library.rs")).unwrap();
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    assert!(
        readme.contains(&format!("```rust\n{example}```")),
        "README.md's library section must show examples/library.rs verbatim"
    );
    assert!(
        !readme.contains("\n# Ok::<"),
        "README.md shows a rustdoc-hidden line"
    );
}
