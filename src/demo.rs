//! `networks-mcp demo`: a worked planning session, run in-process.
//!
//! The demo makes the calls an agent makes while it plans a release, through the
//! same `NetworksServer::dispatch` an MCP client's `tools/call` reaches, on a fresh
//! in-memory registry (nothing is saved), and prints each call with a short reply.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

use crate::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use crate::registry::NetworkRegistry;

/// One call the demo made, and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The tool called.
    pub tool: String,
    /// `None` when the call succeeded; else the error object's `code`.
    pub error_code: Option<String>,
}

/// Arrays longer than this are shown by their first items and a count.
const SHOWN_ITEMS: usize = 2;

/// Runs the demo session, printing it to `out`; returns every call's outcome.
pub fn run(out: &mut dyn Write) -> io::Result<Vec<Outcome>> {
    let started = Instant::now();
    let options = ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    let mut session = Session {
        server,
        out,
        outcomes: Vec::new(),
        step: 0,
    };
    session.intro()?;

    session.heading("Create a network for the plan")?;
    session.call(
        "network_create",
        json!({"network_name": "release", "description": "Release 2.0"}),
        |r| format!("created, version {}", r["version"]),
    )?;

    session.heading("Add the eight tasks in one atomic batch")?;
    let tasks = [
        "design", "schema", "api", "ui", "billing", "docs", "tests", "launch",
    ];
    let nodes: Vec<Value> = tasks.iter().map(|t| json!({"node_id": t})).collect();
    session.call(
        "network_add_nodes",
        json!({"network_name": "release", "nodes": nodes}),
        |r| format!("{} tasks added", r["created_count"]),
    )?;

    session.heading(
        "Say what needs what first: an edge A → B reads \"A needs B\", its weight is days",
    )?;
    let edges: Vec<Value> = [
        ("schema", "design", 2),
        ("api", "schema", 3),
        ("ui", "design", 4),
        ("billing", "api", 1),
        ("docs", "api", 1),
        ("tests", "api", 2),
        ("tests", "ui", 2),
        ("launch", "tests", 1),
        ("launch", "docs", 1),
        ("launch", "billing", 1),
    ]
    .into_iter()
    .map(|(source, target, days)| json!({"source": source, "target": target, "weight": days}))
    .collect();
    session.call(
        "network_add_edges",
        json!({"network_name": "release", "edges": edges}),
        |r| format!("{} dependencies added", r["created_count"]),
    )?;

    session.heading("What can run in parallel? (dependencies first)")?;
    session.call(
        "network_topological_sort",
        json!({"network_name": "release", "reverse": true}),
        |r| {
            let layers: Vec<String> = r["layers"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, layer)| format!("step {}: {}", i + 1, names(layer)))
                .collect();
            layers.join(" | ")
        },
    )?;

    session.heading("Which chain of tasks decides the finish date?")?;
    session.call(
        "network_critical_path",
        json!({"network_name": "release"}),
        |r| {
            format!(
                "critical path: {} ({} days)",
                names_joined(&r["node_ids"], " → "),
                r["total_weight"]
            )
        },
    )?;

    session.heading("A mistaken dependency: design made to wait for launch")?;
    let added = session.call(
        "network_add_edge",
        json!({"network_name": "release", "source": "design", "target": "launch"}),
        |r| format!("edge {} added", r["edge_id"]),
    )?;
    let bad_edge = added.as_ref().map_or(Value::Null, |r| r["edge_id"].clone());

    session.heading("Order the plan again: the server finds the cycle")?;
    session.call(
        "network_topological_sort",
        json!({"network_name": "release", "reverse": true}),
        |r| format!("no cycle, {} steps", r["layer_count"]),
    )?;

    session.heading("Remove the edge that closed the cycle")?;
    session.call(
        "network_remove_edge",
        json!({"network_name": "release", "edge_id": bad_edge}),
        |r| {
            format!(
                "{} edge removed; the plan is acyclic again",
                r["removed_count"]
            )
        },
    )?;

    session.heading("Design and schema are finished: mark them done")?;
    session.call(
        "network_update_nodes",
        json!({"network_name": "release", "updates": [
            {"node_id": "design", "attributes": {"status": "done"}},
            {"node_id": "schema", "attributes": {"status": "done"}},
        ]}),
        |r| format!("{} tasks marked done", r["changed_count"]),
    )?;

    session.heading("What is ready to start now?")?;
    session.call(
        "network_ready_nodes",
        json!({"network_name": "release", "done_attributes": {"status": "done"}}),
        |r| {
            let blocked: Vec<String> = r["blocked"]
                .as_array()
                .into_iter()
                .flatten()
                .take(SHOWN_ITEMS)
                .map(|b| {
                    format!(
                        "{} waits on {}",
                        text(&b["node_id"]),
                        names(&b["waiting_on"])
                    )
                })
                .collect();
            let total = r["blocked_count"].as_u64().unwrap_or(0);
            let rest = (total as usize).saturating_sub(blocked.len());
            let more = if rest > 0 {
                format!(", {rest} more")
            } else {
                String::new()
            };
            format!(
                "ready: {}; blocked: {}{more}",
                names_joined(&r["ready"], ", "),
                blocked.join(", ")
            )
        },
    )?;

    let calls = session.outcomes.len();
    let elapsed = started.elapsed();
    let out = session.out;
    writeln!(out)?;
    let server = server_command();
    writeln!(
        out,
        "{calls} calls in {:.1} ms. Next, list the tools with a real client, the MCP Inspector:",
        elapsed.as_secs_f64() * 1000.0
    )?;
    writeln!(
        out,
        "  npx @modelcontextprotocol/inspector --cli {server} --method tools/list"
    )?;
    writeln!(
        out,
        "or connect Claude Code: claude mcp add networks -- {server}"
    )?;
    out.flush()?;
    Ok(session.outcomes)
}

struct Session<'a> {
    server: NetworksServer,
    out: &'a mut dyn Write,
    outcomes: Vec<Outcome>,
    step: usize,
}

impl Session<'_> {
    fn intro(&mut self) -> io::Result<()> {
        writeln!(
            self.out,
            "networks-mcp {} demo: an agent plans a release with the server's tools.",
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(
            self.out,
            "Each step is a tool call (→ tool {{arguments}}) and the server's reply (←), in memory: nothing is saved."
        )
    }

    fn heading(&mut self, text: &str) -> io::Result<()> {
        self.step += 1;
        writeln!(self.out)?;
        writeln!(self.out, "{}. {text}", self.step)
    }

    /// Makes one call, prints it and a summary of its reply (`summary` for a
    /// success, the error's code and message for a failure); returns the reply of
    /// a success.
    fn call(
        &mut self,
        tool: &str,
        arguments: Value,
        summary: impl FnOnce(&Value) -> String,
    ) -> io::Result<Option<Value>> {
        writeln!(self.out, "   → {tool} {}", compact(&arguments))?;
        let reply = self.server.dispatch(Call::new(tool, arguments));
        let (line, reply, error_code) = match reply {
            Some(Ok(reply)) => (summary(&reply), Some(reply), None),
            Some(Err(error)) => {
                let object = error.to_object();
                let code = text(&object["code"]);
                let mut line = format!("error {code}: {}", text(&object["error"]));
                if let Some(cycle) = object.get("cycle_node_ids") {
                    let first = cycle.get(0).map(text).unwrap_or_default();
                    line = format!(
                        "error {code}: cycle {} → {first}; nothing was ordered",
                        names_joined(cycle, " → ")
                    );
                }
                (line, None, Some(code))
            }
            None => (
                format!("error: no tool {tool}"),
                None,
                Some("no_tool".into()),
            ),
        };
        writeln!(self.out, "   ← {line}")?;
        self.outcomes.push(Outcome {
            tool: tool.to_string(),
            error_code,
        });
        Ok(reply)
    }
}

/// A string value as it reads, anything else as JSON.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A list of ids, as `[a, b]`.
fn names(list: &Value) -> String {
    format!("[{}]", names_joined(list, ", "))
}

fn names_joined(list: &Value, separator: &str) -> String {
    let items: Vec<String> = list.as_array().into_iter().flatten().map(text).collect();
    items.join(separator)
}

/// JSON on one line, spaced as the docs write it, each array cut to its first
/// [`SHOWN_ITEMS`] items and a count of the rest.
fn compact(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let mut shown: Vec<String> = items.iter().take(SHOWN_ITEMS).map(compact).collect();
            if items.len() > SHOWN_ITEMS {
                shown.push(format!("… {} more", items.len() - SHOWN_ITEMS));
            }
            format!("[{}]", shown.join(", "))
        }
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(key, item)| format!("{}: {}", Value::from(key.as_str()), compact(item)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// How to start this server from a shell: the path of the running binary when it
/// is `networks-mcp` (so the line works right after `cargo run --release -- demo`,
/// before any install), else the name an installed binary has on `PATH`.
fn server_command() -> String {
    std::env::current_exe()
        .ok()
        .filter(|path| path.file_stem().is_some_and(|stem| stem == "networks-mcp"))
        .and_then(|path| path.to_str().map(str::to_string))
        .filter(|path| !path.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)))
        .unwrap_or_else(|| "networks-mcp".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_cuts_long_arrays() {
        let value = json!({"a": [1, 2, 3, 4, 5], "b": "x"});
        assert_eq!(compact(&value), r#"{"a": [1, 2, … 3 more], "b": "x"}"#);
    }
}
