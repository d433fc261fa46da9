//! `network_export`: a network, or the neighbourhood of some nodes, as a
//! document in one of the formats of [`crate::interchange`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::interchange::{self, Format};
use crate::mcp::resources::export_uri;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, check_range};
use crate::network::{Direction, Network};

/// Keeps a default export of a neighbourhood within about 8 KB (see BENCHMARKS.md).
const DEFAULT_EXPORT_LIMIT: usize = 25;
const MAX_EXPORT_LIMIT: usize = 100_000;
const MAX_EXPORT_DEPTH: usize = 1_000;

fn default_export_limit() -> usize {
    DEFAULT_EXPORT_LIMIT
}

fn default_depth() -> usize {
    1
}

/// The formats `network_export` writes: every [`Format`] that
/// [`Format::can_export`] (the formats of other tools are read only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// NetworkX node-link JSON (`directed`, `multigraph`, `graph`, `nodes`, `edges`).
    NodeLinkJson,
    /// GraphML XML with typed keys.
    Graphml,
    /// Graphviz DOT (`digraph`).
    Dot,
    /// A Mermaid `flowchart LR` (export only).
    Mermaid,
    /// Cypher statements for Neo4j or Memgraph (export only).
    Cypher,
    /// An edge list as CSV: `source,target,weight,edge_id,<attributes>`.
    EdgeListCsv,
}

impl From<ExportFormat> for Format {
    fn from(format: ExportFormat) -> Self {
        match format {
            ExportFormat::NodeLinkJson => Format::NodeLinkJson,
            ExportFormat::Graphml => Format::Graphml,
            ExportFormat::Dot => Format::Dot,
            ExportFormat::Mermaid => Format::Mermaid,
            ExportFormat::Cypher => Format::Cypher,
            ExportFormat::EdgeListCsv => Format::EdgeListCsv,
        }
    }
}

/// Parameters of `network_export`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The format: mermaid renders in chat; edge_list_csv leaves out isolated nodes.
    pub format: ExportFormat,
    /// Only these nodes and their neighbourhood (depth, direction); omit for all.
    #[serde(default)]
    pub node_ids: Option<Vec<String>>,
    /// With node_ids: how many edges away.
    #[serde(default = "default_depth")]
    #[schemars(range(min = 0, max = MAX_EXPORT_DEPTH))]
    pub depth: usize,
    /// With node_ids: which edges to follow.
    #[serde(default)]
    pub direction: Direction,
    /// Most nodes in the document.
    #[serde(default = "default_export_limit")]
    #[schemars(range(min = 1, max = MAX_EXPORT_LIMIT))]
    pub limit: usize,
}

/// Result of `network_export`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ExportOutput {
    /// "success".
    pub status: Success,
    /// The exported network.
    pub network_name: String,
    /// The format of `content`.
    pub format: ExportFormat,
    /// The document, as text.
    pub content: String,
    /// Nodes in the document.
    pub node_count: usize,
    /// Edges in the document.
    pub edge_count: usize,
    /// Nodes selected before the limit was applied (the whole network, or the neighbourhood of `node_ids`).
    pub selected_node_count: usize,
    /// True when `limit` cut the selection: the document is partial.
    pub truncated: bool,
    /// What was cut and how to get everything, when truncated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The resource with the whole network in this format.
    pub resource_uri: String,
}

fn export(ctx: &ToolContext<'_>, p: ExportParams) -> Result<ExportOutput> {
    let limit = check_range("limit", p.limit, MAX_EXPORT_LIMIT)?;
    if p.depth > MAX_EXPORT_DEPTH {
        return Err(Error::InvalidValue {
            field: "depth".into(),
            reason: format!("{} is out of range; give 0 to {MAX_EXPORT_DEPTH}", p.depth),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        let selected = select(net, p.node_ids.as_deref(), p.depth, p.direction)?;
        let total_nodes = selected.len();
        let truncated = total_nodes > limit;
        let kept: HashSet<_> = selected.into_iter().take(limit).collect();
        let only = (p.node_ids.is_some() || truncated).then_some(&kept);
        let format = Format::from(p.format);
        let exported = interchange::export_counted(net, format, only);
        let resource_uri = export_uri(&p.network_name, format);
        let note = truncated.then(|| {
            let raise = if limit < MAX_EXPORT_LIMIT {
                format!("Raise limit (up to {MAX_EXPORT_LIMIT}), export")
            } else {
                "Export".to_string()
            };
            format!(
                "Only {limit} of {total_nodes} nodes were exported (with the edges among them). {raise} the neighbourhood of some nodes with `node_ids`, or read the resource {resource_uri} for everything."
            )
        });
        Ok(ExportOutput {
            status: Success::Success,
            network_name: p.network_name.clone(),
            format: p.format,
            content: exported.document,
            node_count: exported.nodes,
            edge_count: exported.edges,
            selected_node_count: total_nodes,
            truncated,
            note,
            resource_uri,
        })
    })
}

/// The nodes to export, in a stable order: the given nodes and then their
/// neighbourhood nearest first, or every node in index order.
fn select(
    net: &Network,
    nodes: Option<&[String]>,
    depth: usize,
    direction: Direction,
) -> Result<Vec<petgraph::stable_graph::NodeIndex>> {
    let Some(starts) = nodes else {
        return Ok(net.node_indices().collect());
    };
    if starts.is_empty() {
        return Err(Error::InvalidValue {
            field: "node_ids".into(),
            reason: "the list is empty; give at least one node id, or omit node_ids to export the whole network".into(),
        });
    }
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let starts = net.require_all("node_ids", starts.iter().map(String::as_str))?;
    for &start in &starts {
        if seen.insert(start) {
            order.push(start);
        }
    }
    if depth > 0 {
        for &start in &starts {
            let reach = net.reachable_by_index(start, direction, Some(depth), usize::MAX);
            for (n, _) in reach.nodes {
                if seen.insert(n) {
                    order.push(n);
                }
            }
        }
    }
    Ok(order)
}

/// `network_export`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_export",
            title: "Export a network",
            description: "Write a network, or the neighbourhood of some nodes, as a document: mermaid (renders in chat), dot, node_link_json (NetworkX), graphml, cypher or edge_list_csv. The document is the last text block of the result; resource_uri holds the whole network.",
            toolset: Toolset::Interchange,
            effect: Effect::Read,
            long_running: true,
        },
        export,
    )
    .with_document("content")
}
