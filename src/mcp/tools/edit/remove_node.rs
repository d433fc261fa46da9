//! `network_remove_node`: a node and every edge into or out of it, once confirmed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;
use crate::network::validate;

/// Parameters of `network_remove_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// ID of the node; its edges go too.
    pub node_id: String,
    /// Must be true, or nothing is removed.
    #[serde(default)]
    pub confirm: bool,
}

/// Result of `network_remove_node`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemoveNodeOutput {
    /// "success".
    pub status: Success,
    /// The removed node's ID.
    pub node_id: String,
    /// How many edges went with it.
    pub removed_edge_count: usize,
}

fn remove_node(ctx: &ToolContext<'_>, p: RemoveNodeParams) -> Result<RemoveNodeOutput> {
    ctx.write(&p.network_name, |net| {
        validate::id("node_id", &p.node_id)?;
        net.require("node_id", &p.node_id)?;
        if !p.confirm {
            return Err(Error::ConfirmationRequired {
                action: format!("Removing node '{}' and its edges", p.node_id),
            });
        }
        let removed_edges = net.remove_node(&p.node_id)?;
        info!(network = %p.network_name, node_id = %p.node_id, removed_edges, "node removed");
        Ok(RemoveNodeOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            removed_edge_count: removed_edges,
        })
    })
}

/// `network_remove_node`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_remove_node",
            title: "Remove a node",
            description: "Remove a node and every edge into or out of it. Destructive: does nothing unless confirm is true.",
            toolset: Toolset::Edit,
            effect: Effect::Destroy { idempotent: true },
            long_running: false,
        },
        remove_node,
    )
}
