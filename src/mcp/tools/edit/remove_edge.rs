//! `network_remove_edge`: one edge by id, or every edge from one node to another.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;

/// Parameters of `network_remove_edge`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveEdgeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The edge's id.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub edge_id: Option<u64>,
    /// Instead of edge_id: every edge from this node...
    #[serde(default)]
    pub source: Option<String>,
    /// ...to this node.
    #[serde(default)]
    pub target: Option<String>,
}

/// Result of `network_remove_edge`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemoveEdgeOutput {
    /// "success".
    pub status: Success,
    /// How many edges were removed (0 when source and target had none between them).
    pub removed_count: usize,
    /// The removed edges as they were (within about 8 KB: see truncated).
    pub removed: Vec<RemovedEdgeOut>,
    /// True when removed was cut to keep the reply small (removed_count counts all).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// When truncated: how many are listed, and where to read the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

/// A removed edge.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemovedEdgeOut {
    /// Its id.
    pub edge_id: u64,
    /// Source node ID.
    pub source: String,
    /// Target node ID.
    pub target: String,
    /// Its weight.
    pub weight: f64,
}

fn remove_edge(ctx: &ToolContext<'_>, p: RemoveEdgeParams) -> Result<RemoveEdgeOutput> {
    ctx.write(&p.network_name, |net| {
        let removed = match (p.edge_id, &p.source, &p.target) {
            (Some(id), None, None) => vec![net.remove_edge(id)?],
            (None, Some(source), Some(target)) => net.remove_edges_between(source, target)?,
            _ => {
                return Err(Error::InvalidArguments {
                    message: "invalid arguments for network_remove_edge: give either edge_id, or both source and target (not both forms)".into(),
                    field: Some("edge_id".into()),
                });
            }
        };
        info!(network = %p.network_name, count = removed.len(), "edges removed");
        let removed_count = removed.len();
        // A write's list, bounded as a read's default page is: a pair of
        // nodes may have had any number of parallel edges.
        let mut left = crate::mcp::page::DEFAULT_ITEM_BYTES;
        let (listed, cut) = crate::mcp::page::fit(
            removed.into_iter().map(|e| RemovedEdgeOut {
                edge_id: e.id,
                source: e.source,
                target: e.target,
                weight: e.weight,
            }),
            &mut left,
        );
        Ok(RemoveEdgeOutput {
            status: Success::Success,
            removed_count,
            more: cut.then(|| {
                format!(
                    "removed lists {} of the {removed_count} edges removed, to keep the reply within about 8 KB; every one was removed (network_changes lists recent changes).",
                    listed.len()
                )
            }),
            truncated: cut,
            removed: listed,
        })
    })
}

/// `network_remove_edge`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_remove_edge",
            title: "Remove edges",
            description: "Remove one edge by edge_id (from network_list_edges), or every edge source -> target.",
            toolset: Toolset::Edit,
            effect: Effect::Destroy { idempotent: true },
            long_running: false,
        },
        remove_edge,
    )
}
