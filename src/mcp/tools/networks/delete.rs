//! `network_delete`: a whole network, once confirmed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;
use crate::network::estimate::{EDGE_BYTES, NODE_BYTES};

/// Parameters of `network_delete`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Must be true, or nothing is deleted; ask the user first.
    #[serde(default)]
    pub confirm: bool,
}

/// Result of `network_delete`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DeleteOutput {
    /// "success".
    pub status: Success,
    /// The network's name.
    pub network_name: String,
    /// True if the network existed and is now gone; false if there was nothing to delete.
    pub deleted: bool,
    /// Nodes removed with it.
    pub node_count: usize,
    /// Edges removed with it.
    pub edge_count: usize,
    /// Human-readable result message.
    pub message: String,
}

fn delete(ctx: &ToolContext<'_>, p: DeleteParams) -> Result<DeleteOutput> {
    crate::network::validate::id("network_name", &p.network_name)?;
    if !p.confirm {
        return Err(Error::ConfirmationRequired {
            action: format!(
                "Deleting network '{}' (with all its nodes and edges)",
                p.network_name
            ),
        });
    }
    // With if_version, the compare and the removal happen under the network's lock.
    let removed = ctx.registry.delete_checked(&p.network_name, |net| {
        ctx.check_version(&p.network_name, net)
    })?;
    let (deleted, nodes, edges) = match &removed {
        Some(network) => {
            let network = network.read();
            // What a node and an edge take at least; the estimate of every
            // attribute would cost a pass over the network.
            crate::mcp::release::note_freed(
                network.node_count() * NODE_BYTES + network.edge_count() * EDGE_BYTES,
            );
            (true, network.node_count(), network.edge_count())
        }
        None => (false, 0, 0),
    };
    let message = if deleted {
        info!(network = %p.network_name, nodes, edges, "network deleted");
        format!(
            "Network '{}' deleted ({nodes} nodes, {edges} edges)",
            p.network_name
        )
    } else {
        format!(
            "Network '{}' did not exist; nothing to delete",
            p.network_name
        )
    };
    Ok(DeleteOutput {
        status: Success::Success,
        network_name: p.network_name,
        deleted,
        node_count: nodes,
        edge_count: edges,
        message,
    })
}

/// `network_delete`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_delete",
            title: "Delete a network",
            description: "Delete a network with all its nodes and edges. Irreversible: does nothing unless confirm is true, so ask the user first.",
            toolset: Toolset::Core,
            effect: Effect::Destroy { idempotent: true },
            long_running: false,
        },
        delete,
    )
}
