//! `network_list_nodes`: the nodes page by page, filtered by attribute values
//! or id.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{MAX_PAGE, NodeOut, default_page, node_out};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{
    Paging, Success, check_limit, flat_attributes_schema, no_attributes,
};
use crate::network::{NodeFilter, validate};

/// Parameters of `network_list_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListNodesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Nodes per page.
    #[serde(default = "default_page")]
    #[schemars(range(min = 1, max = MAX_PAGE))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    /// Only nodes with all these attribute values, e.g. {"status": "todo"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
    /// Only ids starting with this.
    #[serde(default)]
    pub id_prefix: Option<String>,
    /// Only ids containing this (case-insensitive).
    #[serde(default)]
    pub id_contains: Option<String>,
    /// Also return each node's data.
    #[serde(default)]
    pub include_data: bool,
}

/// Result of `network_list_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ListNodesOutput {
    /// "success".
    pub status: Success,
    /// This page of matching nodes, in insertion order.
    pub nodes: Vec<NodeOut>,
    /// How many nodes match in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn list_nodes(ctx: &ToolContext<'_>, p: ListNodesParams) -> Result<ListNodesOutput> {
    let limit = check_limit(p.limit, MAX_PAGE)?;
    validate::attributes("attributes", &p.attributes)?;
    ctx.registry.read(&p.network_name, |net| {
        let query = (&p.attributes, &p.id_prefix, &p.id_contains, p.include_data);
        let page = Page::open(
            ctx,
            net,
            "network_list_nodes",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_PAGE,
        )?;
        let filter = NodeFilter {
            attributes: p.attributes.clone(),
            id_prefix: p.id_prefix.clone(),
            id_contains: p.id_contains.clone(),
        };
        let mut total = 0;
        let mut nodes = Vec::new();
        let mut open = true;
        for ix in net.matching_nodes(&filter) {
            if open && total >= page.offset && nodes.len() < limit {
                // One at a time, so that the page stops at the byte bound.
                match page.fill([node_out(net, ix, p.include_data)]).pop() {
                    Some(node) => nodes.push(node),
                    None => open = false,
                }
            }
            total += 1;
        }
        if total == 0 {
            // An equality filter matches nothing when a key or value is unknown.
            crate::mcp::tools::unmatched::warn_unmatched_attributes(
                net,
                "attributes",
                &p.attributes,
            );
        }
        Ok(ListNodesOutput {
            status: Success::Success,
            paging: Paging::of_total(&page, nodes.len(), total),
            nodes,
            total,
        })
    })
}

/// `network_list_nodes`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_list_nodes",
            title: "List nodes",
            description: "List nodes page by page with attributes and degrees, filtered by attribute values, id prefix or substring.",
            toolset: Toolset::Edit,
            effect: Effect::Read,
            long_running: true,
        },
        list_nodes,
    )
}
