//! `network_get_node`: one node with its payload, attributes and degrees.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{NodeOut, node_out};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;
use crate::network::validate;

/// Parameters of `network_get_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// ID of the node.
    pub node_id: String,
}

/// Result of `network_get_node`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GetNodeOutput {
    /// "success".
    pub status: Success,
    /// The node.
    #[serde(flatten)]
    pub node: NodeOut,
    /// The network's version: it rises with every change.
    pub version: u64,
}

fn get_node(ctx: &ToolContext<'_>, p: GetNodeParams) -> Result<GetNodeOutput> {
    ctx.registry.read(&p.network_name, |net| {
        validate::id("node_id", &p.node_id)?;
        let ix = net.require("node_id", &p.node_id)?;
        Ok(GetNodeOutput {
            status: Success::Success,
            node: node_out(net, ix, true),
            version: net.version(),
        })
    })
}

/// `network_get_node`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_get_node",
            title: "Get a node",
            description: "Get one node: its data, attributes and in/out degree; an unknown id gives the closest ids.",
            toolset: Toolset::Edit,
            effect: Effect::Read,
            long_running: false,
        },
        get_node,
    )
}
