//! A small start, every tool one call away: `network_toolsets`.
//!
//! A host sends every listed tool's schema to the model on every turn, so a
//! server started without `--toolsets` lists only [`START`], what a planning agent
//! needs first, and `network_toolsets`, which lists the toolsets and turns them
//! on or off for the calling session. A change is announced with
//! `notifications/tools/list_changed`, after which a host lists the tools again.
//! Every tool stays callable whatever is listed: the list is what the model is
//! shown, not a permission (`--toolsets` is the operator's permission, and fixes
//! the list).

use std::collections::BTreeSet;
use std::sync::Arc;

use parking_lot::Mutex;
use rmcp::model::{Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::schema;
use super::tool::{ToolDef, Toolset};
use crate::error::{Error, Result};

/// The name of the tool that turns toolsets on and off.
pub const TOOL_NAME: &str = "network_toolsets";

/// The tools listed before any toolset is turned on: the seed's three, making a
/// network, and what order, what can start and what waits.
pub const START: [&str; 8] = [
    "network_list",
    "network_create",
    "network_add_node",
    "network_add_edge",
    "network_get_neighbors",
    "network_topological_sort",
    "network_ready_nodes",
    "network_why_blocked",
];

/// Parameters of `network_toolsets`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolsetsParams {
    /// Toolsets to list from now on.
    #[serde(default)]
    pub enable: Vec<Toolset>,
    /// Toolsets to stop listing.
    #[serde(default)]
    pub disable: Vec<Toolset>,
}

/// One toolset as `network_toolsets` shows it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ToolsetOut {
    /// The toolset's name, for `enable` and `disable`.
    pub name: &'static str,
    /// Whether it is turned on: all its tools listed now.
    pub on: bool,
    /// What it is for.
    pub about: &'static str,
    /// Its tools.
    pub tools: Vec<String>,
    /// Those of its tools listed to this session now: all when it is on; when
    /// off, those a new session starts with. Every tool can be called by name
    /// whatever is listed.
    pub listed_tools: Vec<String>,
}

/// Result of `network_toolsets`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ToolsetsOutput {
    /// "success".
    pub status: super::tools::common::Success,
    /// Every toolset, on or off.
    pub toolsets: Vec<ToolsetOut>,
    /// Whether the call changed what is listed.
    pub changed: bool,
    /// How many tools are listed now.
    pub listed_tool_count: usize,
    /// What to do next.
    pub note: String,
}

/// The toolsets one session has turned on.
#[derive(Debug, Default)]
pub struct Shown {
    on: Mutex<BTreeSet<Toolset>>,
}

impl Shown {
    /// Whether no toolset was turned on: what a new session lists.
    pub(crate) fn is_default(&self) -> bool {
        self.on.lock().is_empty()
    }

    /// Whether `tool` is listed to this session now.
    pub fn lists(&self, tool: &ToolDef) -> bool {
        START.contains(&tool.name()) || self.on.lock().contains(&tool.toolset)
    }

    /// Applies a call's `enable` and `disable` (enable wins a tie); says whether
    /// anything changed.
    fn apply(&self, params: &ToolsetsParams) -> bool {
        let mut on = self.on.lock();
        let before = on.clone();
        for set in &params.disable {
            on.remove(set);
        }
        on.extend(params.enable.iter().copied());
        *on != before
    }

    fn is_on(&self, set: Toolset) -> bool {
        self.on.lock().contains(&set)
    }
}

/// The published `network_toolsets` tool.
pub fn tool() -> Tool {
    let input = schema::tidy_input(
        rmcp::handler::server::common::schema_for_type::<ToolsetsParams>()
            .as_ref()
            .clone(),
    );
    let mut output = rmcp::handler::server::common::schema_for_output::<ToolsetsOutput>()
        .as_ref()
        .clone();
    schema::add_warnings(&mut output);
    let output = schema::success_or_error(output);
    let mut tool = Tool::new(
        TOOL_NAME,
        "List the toolsets (more tools, by group) and turn them on or off for this session.",
        Arc::new(input),
    );
    tool.title = Some("Toolsets".into());
    tool.output_schema = Some(Arc::new(output));
    // It changes what this session is shown, never a network.
    tool.annotations = Some(
        ToolAnnotations::new()
            .read_only(false)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    );
    tool
}

/// What one toolset is for, in a line.
fn about(set: Toolset) -> &'static str {
    match set {
        Toolset::Core => {
            "Networks and the seed tools: create, list, delete, add a node or edge, neighbors."
        }
        Toolset::Edit => "Batch adds and updates, removals, reading nodes and edges.",
        Toolset::Analysis => {
            "Traversal, ancestors and descendants, order, critical path, shortest path, cycles, describe."
        }
        Toolset::Interchange => {
            "Import and export (Mermaid, DOT, NetworkX JSON, GraphML, CSV, Cypher, plans), pictures, read-only Cypher queries."
        }
        Toolset::Work => {
            "Several workers executing one plan: claim ready tasks under leases, complete, release, renew, progress, history."
        }
        Toolset::Algorithms => {
            "Centrality, communities, all and k shortest paths, structure, search, diff and copies."
        }
    }
}

/// Runs `network_toolsets` for a session: decodes `arguments`, applies them to
/// `shown`, and answers with every toolset. `listed` counts the tools the session
/// is shown afterwards. Returns the reply and whether the list changed.
pub fn call(
    shown: &Shown,
    tools: &[ToolDef],
    arguments: Value,
    listed: impl Fn() -> usize,
) -> Result<(Value, bool)> {
    let arguments = match arguments {
        Value::Null => Value::Object(Default::default()),
        other => other,
    };
    let params: ToolsetsParams =
        serde_json::from_value(arguments).map_err(|e| Error::InvalidArguments {
            message: format!(
                "invalid arguments for {TOOL_NAME}: {e}. Expected parameters: enable and disable, each a list of toolset names ({}).",
                Toolset::ALL.map(Toolset::name).join(", ")
            ),
            field: None,
        })?;
    let changed = shown.apply(&params);
    let toolsets = Toolset::ALL
        .into_iter()
        .map(|set| {
            let of_set = || tools.iter().filter(move |tool| tool.toolset == set);
            ToolsetOut {
                name: set.name(),
                on: shown.is_on(set),
                about: about(set),
                tools: of_set().map(|tool| tool.name().to_string()).collect(),
                listed_tools: of_set()
                    .filter(|tool| shown.lists(tool))
                    .map(|tool| tool.name().to_string())
                    .collect(),
            }
        })
        .collect();
    let note = if changed {
        "The tool list changed (notifications/tools/list_changed was sent); list the tools again. \
         If your host does not refresh its list, the new tools can still be called by name, or the \
         operator can restart the server with --toolsets naming the toolsets you need."
    } else {
        "Nothing changed. Pass enable (or disable) with toolset names to change the tool list."
    };
    let output = ToolsetsOutput {
        status: super::tools::common::Success::Success,
        toolsets,
        changed,
        listed_tool_count: listed(),
        note: note.to_string(),
    };
    let value = serde_json::to_value(output).map_err(|e| Error::Internal {
        message: format!("could not encode the result of {TOOL_NAME}: {e}"),
    })?;
    Ok((value, changed))
}
