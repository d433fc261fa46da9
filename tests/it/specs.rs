//! specs/ stays in step with the code: every listed tool has a spec in the
//! eight-section format, and each spec's parameter and output tables name exactly
//! the tool's schema properties. The README and docs/ stay in step too: their links
//! resolve, and the tool and option pages list every tool and flag.

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
        // What it accepts: the published parameters, and the attribute names the
        // instructions explain once.
        let mut params = properties(&tool.input_schema);
        if tool.name != "network_toolsets" {
            params = server.accepted_parameters(&tool.name).into_iter().collect();
        }
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

/// The README and every page of `docs/`, with their text.
fn documents() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(root.join(&name)).unwrap();
            (name, text)
        })
        .collect()
}

/// The text with fenced code blocks and inline code removed, where a link is no link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(part);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the Markdown links `[text](target)` and images in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(rest[..end].to_string());
        }
    }
    targets
}

/// The anchors GitHub gives a Markdown file's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Every relative link of the README and `docs/` names a file that exists, and
/// an anchor into a Markdown file names one of its headings.
#[test]
fn every_relative_link_in_the_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for (name, text) in documents() {
        let dir = Path::new(&name).parent().unwrap_or(Path::new(""));
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                Path::new(&name).to_path_buf()
            } else {
                dir.join(file)
            };
            let full = root.join(&path);
            let relative = normalise(&path);
            if !full.exists() {
                problems.push(format!("{name}: '{target}' names no file ({relative})"));
                continue;
            }
            if let Some(anchor) = anchor
                && relative.ends_with(".md")
            {
                let target_text = std::fs::read_to_string(&full).unwrap();
                if !anchors(&target_text).contains(anchor) {
                    problems.push(format!(
                        "{name}: '{target}': {relative} has no heading #{anchor}"
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

/// `a/../b` as `b`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::CurDir => {}
            other => parts.push(other.as_os_str().to_string_lossy().to_string()),
        }
    }
    parts.join("/")
}

/// `docs/options.md` names every flag of `--help` with its environment variable,
/// and no flag that does not exist.
#[test]
fn the_options_page_lists_every_flag() {
    use clap::CommandFactory;
    let root = env!("CARGO_MANIFEST_DIR");
    let page = std::fs::read_to_string(format!("{root}/docs/options.md")).unwrap();
    let command = networks_mcp::cli::Cli::command();
    let mut problems = Vec::new();
    let mut flags = BTreeSet::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        flags.insert(long.to_string());
        if matches!(long, "help" | "version") {
            continue;
        }
        let row = page
            .lines()
            .find(|line| line.starts_with(&format!("| `--{long}")));
        match (row, arg.get_env()) {
            (None, _) => problems.push(format!("--{long} has no row")),
            (Some(row), Some(env)) if !row.contains(&format!("`{}`", env.to_string_lossy())) => {
                problems.push(format!("--{long}: its row does not name {env:?}"))
            }
            _ => {}
        }
    }
    for line in page.lines() {
        if let Some(rest) = line.strip_prefix("| `--") {
            let long: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '-')
                .collect();
            if !flags.contains(&long) {
                problems.push(format!("docs/options.md names --{long}, which is no flag"));
            }
        }
    }
    for sub in command.get_subcommands() {
        if !page.contains(&format!("`networks-mcp {}`", sub.get_name())) {
            problems.push(format!("the command {} is not described", sub.get_name()));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/options.md out of step with --help:\n{}",
        problems.join("\n")
    );
}

/// `docs/tools.md`'s table names every tool once, with its toolset.
#[test]
fn the_tools_page_lists_every_tool_with_its_toolset() {
    use clap::ValueEnum;
    let root = env!("CARGO_MANIFEST_DIR");
    let page = std::fs::read_to_string(format!("{root}/docs/tools.md")).unwrap();
    let rows: Vec<(String, String)> = page
        .lines()
        .filter_map(|line| line.strip_prefix("| `network_"))
        .map(|rest| {
            let cells: Vec<&str> = rest.split(" | ").collect();
            let name = format!("network_{}", cells[0].trim_end_matches('`'));
            let toolset = cells
                .get(1)
                .map_or("", |c| c.split(' ').next().unwrap_or(""));
            (name, toolset.to_string())
        })
        .collect();
    let mut expected = Vec::new();
    for toolset in Toolset::ALL {
        let options = ServerOptions {
            toolsets: [toolset].into_iter().collect(),
            switchable: false,
            ..ServerOptions::default()
        };
        let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
        let name = toolset.to_possible_value().expect("a named toolset");
        for tool in server.listed_tools() {
            expected.push((tool.name.to_string(), name.get_name().to_string()));
        }
    }
    let listed: BTreeSet<_> = rows.iter().cloned().collect();
    let expected: BTreeSet<_> = expected.into_iter().collect();
    assert_eq!(rows.len(), listed.len(), "a tool listed twice");
    assert_eq!(
        listed.difference(&expected).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "rows of docs/tools.md that name no tool of that toolset"
    );
    assert_eq!(
        expected.difference(&listed).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "tools missing from docs/tools.md"
    );
}
