//! `network_visualize`: a drawing of a network for people, inline in the chat.
//!
//! Hosts that support MCP Apps render the result with the `ui://` view
//! ([`crate::mcp::app`]), which reads the laid-out graph from the resource
//! `view_uri`, so that the drawing never enters the model's context; other
//! hosts show the summary and, while it fits the reply, the Mermaid diagram.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;

use super::common::{Success, check_range};
use crate::error::Result;
use crate::interchange::{self, Format};
use crate::mcp::app::{self, VIEW_URI};
use crate::mcp::page;
use crate::mcp::resources::{
    DEFAULT_VIEW_NODES as DEFAULT_MAX_NODES, MAX_VIEW_DEPTH as MAX_DEPTH,
    MAX_VIEW_NODES as MAX_MAX_NODES, view_uri,
};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::view::model::{self, Scope, ViewRequest};

/// Past this many drawn nodes the Mermaid fallback is left out: it would be unreadable.
const MAX_MERMAID_NODES: usize = 300;

fn default_depth() -> usize {
    2
}

fn default_max_nodes() -> usize {
    DEFAULT_MAX_NODES
}

/// Which part of the network to draw around `node_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum VisualizeScope {
    /// The nodes within `depth` edges, either way (default).
    #[default]
    Neighborhood,
    /// Everything that reaches the node (in a depends-on graph: what depends on it).
    Ancestors,
    /// Everything the node reaches (in a depends-on graph: what it needs).
    Descendants,
}

impl From<VisualizeScope> for Scope {
    fn from(scope: VisualizeScope) -> Self {
        match scope {
            VisualizeScope::Neighborhood => Scope::Neighborhood,
            VisualizeScope::Ancestors => Scope::Ancestors,
            VisualizeScope::Descendants => Scope::Descendants,
        }
    }
}

/// Parameters of `network_visualize`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VisualizeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Draw only the part around this node (see scope).
    #[serde(default)]
    pub node_id: Option<String>,
    /// With node_id: "neighborhood" (within depth), "ancestors" (what depends on it) or "descendants" (what it needs).
    #[serde(default)]
    pub scope: VisualizeScope,
    /// With scope "neighborhood": how many edges away.
    #[serde(default = "default_depth")]
    #[schemars(range(min = 1, max = MAX_DEPTH))]
    pub depth: usize,
    /// Most nodes drawn; a bigger network is summarised.
    #[serde(default = "default_max_nodes")]
    #[schemars(range(min = 1, max = MAX_MAX_NODES))]
    pub max_nodes: usize,
}

/// Result of `network_visualize`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct VisualizeOutput {
    /// "success".
    pub status: Success,
    /// The network drawn.
    pub network_name: String,
    /// "full" (the whole network is drawn), "focus" (the part around node_id) or "summary" (too big to draw; only the facts).
    pub mode: String,
    /// Nodes in the drawing.
    pub drawn_node_count: usize,
    /// Edge lines in the drawing (parallel edges share one).
    pub drawn_edge_count: usize,
    /// True when the part asked for had more than max_nodes nodes.
    pub truncated: bool,
    /// When truncated: how to draw more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
    /// The whole network's facts: counts, DAG or not, sources, sinks, top degrees.
    pub summary: Value,
    /// The drawing as a Mermaid flowchart, for hosts without the view, while it fits the reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mermaid: Option<String>,
    /// When mermaid is left out: how to get it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The resource (resources/read) with the laid-out drawing the view renders.
    pub view_uri: String,
    /// The MCP Apps view that renders this result.
    pub ui_resource_uri: String,
}

fn visualize(ctx: &ToolContext<'_>, p: VisualizeParams) -> Result<VisualizeOutput> {
    check_range("max_nodes", p.max_nodes, MAX_MAX_NODES)?;
    check_range("depth", p.depth, MAX_DEPTH)?;
    let request = ViewRequest {
        focus: p.node_id.clone(),
        scope: p.scope.into(),
        depth: p.depth,
        max_nodes: p.max_nodes,
    };
    let view = model::graph(ctx.registry, &p.network_name, &request)?;
    let mermaid = if view.nodes.is_empty() || view.nodes.len() > MAX_MERMAID_NODES {
        None
    } else {
        let ids: Vec<&str> = view.nodes.iter().map(|n| n.id.as_str()).collect();
        Some(ctx.registry.read(&p.network_name, |net| {
            let only: HashSet<_> = ids.iter().filter_map(|id| net.index_of(id)).collect();
            Ok(interchange::export(net, Format::Mermaid, Some(&only)))
        })?)
    };
    let mut out = VisualizeOutput {
        status: Success::Success,
        network_name: p.network_name.clone(),
        mode: view.mode.to_string(),
        drawn_node_count: view.nodes.len(),
        drawn_edge_count: view.edges.len(),
        truncated: view.truncated,
        more: view.truncated.then(|| {
            let raise = if p.max_nodes < MAX_MAX_NODES {
                format!(", or raise max_nodes (at most {MAX_MAX_NODES})")
            } else {
                String::new()
            };
            format!(
                "The part asked for has more than {} nodes. Draw the part around one node (node_id, with scope and depth){raise}.",
                p.max_nodes
            )
        }),
        // The view types are plain data: encoding them cannot fail.
        summary: serde_json::to_value(&view.summary).unwrap_or(Value::Null),
        mermaid: None,
        note: None,
        view_uri: view_uri(&p.network_name, &request),
        ui_resource_uri: VIEW_URI.to_string(),
    };
    if let Some(mermaid) = mermaid {
        out.mermaid = Some(mermaid);
        if page::reply_bytes(&out) + page::ENVELOPE_BYTES > page::DEFAULT_REPLY_BYTES {
            out.mermaid = None;
            out.note = Some(mermaid_note(&p));
        }
    }
    Ok(out)
}

/// Where the Mermaid diagram left out of a reply is: the same part, exported.
fn mermaid_note(p: &VisualizeParams) -> String {
    let part = match (&p.node_id, p.scope) {
        (None, _) => String::new(),
        (Some(id), VisualizeScope::Neighborhood) => format!(
            ", node_ids [{}], depth {}, direction \"both\"",
            serde_json::Value::from(id.as_str()),
            p.depth
        ),
        (Some(id), VisualizeScope::Ancestors) => format!(
            ", node_ids [{}], depth 1000, direction \"in\"",
            serde_json::Value::from(id.as_str())
        ),
        (Some(id), VisualizeScope::Descendants) => format!(
            ", node_ids [{}], depth 1000, direction \"out\"",
            serde_json::Value::from(id.as_str())
        ),
    };
    crate::error::clip(
        &format!(
            "The Mermaid diagram was left out to keep this reply within 8 KB: network_export with format \"mermaid\"{part} and a limit gives it."
        ),
        600,
    )
    .into_owned()
}

/// The visualisation tool.
pub fn tools() -> Vec<ToolDef> {
    vec![ToolDef::new(
        ToolMeta {
            name: "network_visualize",
            title: "Show a network",
            description: "Draw a network for a person, in layers with cycles highlighted: an interactive view in MCP Apps hosts, else a summary and Mermaid.",
            toolset: Toolset::Interchange,
            effect: Effect::Read,
            long_running: true,
        },
        visualize,
    )
    .with_meta("ui", app::tool_meta())]
}
