//! `network_descendants`: every node a node reaches along edges, nearest first.

use super::{ClosureOutput, ClosureParams, closure};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::Direction;

fn descendants(ctx: &ToolContext<'_>, p: ClosureParams) -> Result<ClosureOutput> {
    closure(ctx, p, "network_descendants", Direction::Out)
}

/// `network_descendants`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_descendants",
            title: "Everything a node reaches",
            description: "Every node a node reaches along edges, nearest first, with depths: in a depends-on graph, everything it needs.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        descendants,
    )
}
