//! The worked sessions in the docs are replayed against a fresh server, so they
//! stay true: every `→ tool {arguments}` line is called in order, and the reply
//! must equal the `← {reply}` line after it (an error reply ends with
//! `(isError)`). A `next_cursor` is shown as `"<cursor>"`, and `"<cursor>"` in
//! arguments stands for the last one received. An export's document travels as
//! its own text block (see `specs/README.md`), so it is not part of the reply
//! line. `TRANSCRIPTS_UPDATE=1` rewrites the reply lines from the server.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::clock::ManualClock;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use serde_json::Value;

const ERROR_MARK: &str = "   (isError)";

/// Replays `path`; returns the file with every reply line as the server gave it.
fn replay(path: &str) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    // Every toolset, the opt-in work toolset too, on a clock that stands at
    // 2027-01-15T08:00:00Z, so that lease times read the same on every run.
    let options = ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        clock: Arc::new(ManualClock::new(1_800_000_000_000)),
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut cursor: Option<String> = None;
    let mut last: Option<(String, Value, bool)> = None;
    for (number, line) in text.lines().enumerate() {
        if let Some(call) = line.strip_prefix("→ ") {
            let (tool, args) = call.split_once(' ').unwrap_or((call, "{}"));
            let args = match &cursor {
                Some(c) => args.replace("\"<cursor>\"", &format!("\"{c}\"")),
                None => args.to_string(),
            };
            let args: Value = serde_json::from_str(&args)
                .unwrap_or_else(|e| panic!("{path}:{}: arguments are not JSON: {e}", number + 1));
            let (mut reply, is_error) = match server.dispatch(Call::new(tool, args)) {
                Some(Ok(value)) => (value, false),
                Some(Err(error)) => (error.to_object(), true),
                None => panic!("{path}:{}: no tool {tool}", number + 1),
            };
            if tool == "network_export" && !is_error {
                reply.as_object_mut().unwrap().remove("content");
            }
            if let Some(next) = reply.get("next_cursor").and_then(Value::as_str) {
                cursor = Some(next.to_string());
                reply["next_cursor"] = Value::from("<cursor>");
            }
            last = Some((tool.to_string(), reply, is_error));
            out.push(line.to_string());
        } else if let Some(expected) = line.strip_prefix("← ") {
            let (tool, reply, is_error) = last
                .take()
                .unwrap_or_else(|| panic!("{path}:{}: a reply without a call", number + 1));
            let (json, marked) = match expected.strip_suffix(ERROR_MARK) {
                Some(json) => (json, true),
                None => (expected, false),
            };
            let expected: Value = serde_json::from_str(json)
                .unwrap_or_else(|e| panic!("{path}:{}: the reply is not JSON: {e}", number + 1));
            if expected != reply || marked != is_error {
                problems.push(format!(
                    "{path}:{}: {tool} answered\n  {}{}\nbut the document says\n  {}",
                    number + 1,
                    reply,
                    if is_error { ERROR_MARK } else { "" },
                    line
                ));
            }
            if expected == reply && marked == is_error {
                out.push(line.to_string());
            } else {
                let mark = if is_error { ERROR_MARK } else { "" };
                out.push(format!("← {}{mark}", inline(&reply)));
            }
        } else {
            out.push(line.to_string());
        }
    }
    let mut rewritten = out.join("\n");
    if text.ends_with('\n') {
        rewritten.push('\n');
    }
    (rewritten, problems)
}

/// JSON on one line, spaced as people write it: `{"a": [1, 2]}`.
fn inline(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(key, item)| format!("{}: {}", Value::from(key.as_str()), inline(item)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

fn check(path: &str) {
    let (rewritten, problems) = replay(path);
    if std::env::var_os("TRANSCRIPTS_UPDATE").is_some() {
        std::fs::write(path, rewritten).unwrap();
        return;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The README and every page of `docs/`.
fn documents() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("README.md")];
    let mut docs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
}

/// Whether a document shows a session: a line that is a call.
fn has_session(path: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().any(|line| line.starts_with("→ "))
}

#[test]
fn every_session_in_the_docs_is_what_the_server_answers() {
    let documents: Vec<_> = documents().into_iter().filter(|p| has_session(p)).collect();
    // The README, the agent guide, and the tool, format and many-agents pages show sessions.
    for name in [
        "README.md",
        "agent-guide.md",
        "tools.md",
        "formats.md",
        "many-agents.md",
    ] {
        assert!(
            documents
                .iter()
                .any(|p| p.file_name().is_some_and(|f| f == name)),
            "{name} shows a session, and it is replayed"
        );
    }
    for path in documents {
        check(path.to_str().expect("a UTF-8 path"));
    }
}
