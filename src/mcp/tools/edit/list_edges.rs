//! `network_list_edges`: the edges page by page, all of them or those of one node.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_PAGE, default_page};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{EdgeOut, Paging, Success, check_limit};
use crate::network::{Direction, validate};

/// Parameters of `network_list_edges`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListEdgesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Only the edges of this node.
    #[serde(default)]
    pub node_id: Option<String>,
    /// With node_id: edges leaving it ("out"), entering it ("in") or both.
    #[serde(default)]
    pub direction: Direction,
    /// Edges per page.
    #[serde(default = "default_page")]
    #[schemars(range(min = 1, max = MAX_PAGE))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Result of `network_list_edges`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ListEdgesOutput {
    /// "success".
    pub status: Success,
    /// This page of edges.
    pub edges: Vec<EdgeOut>,
    /// How many edges match in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn list_edges(ctx: &ToolContext<'_>, p: ListEdgesParams) -> Result<ListEdgesOutput> {
    let limit = check_limit(p.limit, MAX_PAGE)?;
    ctx.registry.read(&p.network_name, |net| {
        let query = (&p.node_id, p.direction);
        let page = Page::open(
            ctx,
            net,
            "network_list_edges",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_PAGE,
        )?;
        let node = match &p.node_id {
            Some(id) => {
                validate::id("node_id", id)?;
                Some((net.require("node_id", id)?, p.direction))
            }
            None => None,
        };
        let all = net.edges_of(node);
        let total = all.len();
        let edges: Vec<EdgeOut> = page.fill(page.slice(&all).iter().cloned().map(EdgeOut::from));
        Ok(ListEdgesOutput {
            status: Success::Success,
            paging: Paging::of_total(&page, edges.len(), total),
            edges,
            total,
        })
    })
}

/// `network_list_edges`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_list_edges",
            title: "List edges",
            description: "List edges page by page with ids, weights and attributes: all of them, or those of one node (node_id, direction).",
            toolset: Toolset::Edit,
            effect: Effect::Read,
            long_running: true,
        },
        list_edges,
    )
}
