//! `network_ancestors`: every node that reaches a node, nearest first.

use super::{ClosureOutput, ClosureParams, closure};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::Direction;

fn ancestors(ctx: &ToolContext<'_>, p: ClosureParams) -> Result<ClosureOutput> {
    closure(ctx, p, "network_ancestors", Direction::In)
}

/// `network_ancestors`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_ancestors",
            title: "Everything that reaches a node",
            description: "Every node that reaches a node (edges backwards), nearest first, with depths: what is affected if it changes.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        ancestors,
    )
}
