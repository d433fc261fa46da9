//! `network_get_neighbors`: a node's neighbors, page by page, optionally with
//! the edges.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{EdgeOut, Paging, Success, check_limit};
use crate::network::Direction;

/// The most neighbors one call returns.
pub const MAX_NEIGHBORS_LIMIT: usize = 10_000;
/// Keeps a default reply within about 8 KB (see BENCHMARKS.md).
const DEFAULT_NEIGHBORS_LIMIT: usize = 100;

fn default_neighbors_limit() -> usize {
    DEFAULT_NEIGHBORS_LIMIT
}

/// Parameters of `network_get_neighbors`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetNeighborsParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    pub node_id: String,
    /// "out": what it depends on. "in": what depends on it. "both": either.
    #[serde(default)]
    pub direction: Direction,
    /// Also return the edges.
    #[serde(default)]
    pub include_edges: bool,
    /// Neighbors (and edges) per page.
    #[serde(default = "default_neighbors_limit")]
    #[schemars(range(min = 1, max = MAX_NEIGHBORS_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Result of `network_get_neighbors`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GetNeighborsOutput {
    /// "success".
    pub status: Success,
    /// The queried node ID.
    pub node_id: String,
    /// This page of the neighboring node IDs, each once: targets of outgoing edges
    /// first, then sources of incoming edges, each in edge-insertion order.
    pub neighbors: Vec<String>,
    /// Number of neighbors (all of them, also when `neighbors` is one page of them).
    pub count: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
    /// The direction that was followed.
    pub direction: Direction,
    /// This page of the incident edges in the same direction, when `include_edges` was true
    /// (paged alongside `neighbors`: the same offset and limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<Vec<EdgeOut>>,
    /// Number of those edges, when `include_edges` was true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge_count: Option<usize>,
}

fn get_neighbors(ctx: &ToolContext<'_>, p: GetNeighborsParams) -> Result<GetNeighborsOutput> {
    let limit = check_limit(p.limit, MAX_NEIGHBORS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        crate::network::validate::id("node_id", &p.node_id)?;
        let ix = net.require("node_id", &p.node_id)?;
        let query = (&p.node_id, p.direction, p.include_edges);
        let page = Page::open(
            ctx,
            net,
            "network_get_neighbors",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_NEIGHBORS_LIMIT,
        )?;
        let all = net.neighbor_indices(ix, p.direction);
        let count = all.len();
        let incident = p.include_edges.then(|| net.incident_edges(ix, p.direction));
        let total = count.max(incident.as_ref().map_or(0, Vec::len));
        // Neighbors and edges share the page's positions: position i holds the
        // i-th of each (either may have run out), measured together.
        let none = Vec::new();
        let edge_list = incident.as_ref().unwrap_or(&none);
        let (neighbors, page_edges): (Vec<Option<String>>, Vec<Option<EdgeOut>>) = page
            .fill((page.offset..page.end().min(total)).map(|i| {
                (
                    all.get(i).map(|&n| net.id_at(n).to_string()),
                    edge_list.get(i).cloned().map(EdgeOut::from),
                )
            }))
            .into_iter()
            .unzip();
        let neighbors: Vec<String> = neighbors.into_iter().flatten().collect();
        let (edges, edge_count) = match &incident {
            Some(list) => (
                Some(page_edges.into_iter().flatten().collect()),
                Some(list.len()),
            ),
            None => (None, None),
        };
        Ok(GetNeighborsOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            paging: Paging::of(&page, neighbors.len(), Some(count), page.end() < total),
            neighbors,
            count,
            direction: p.direction,
            edges,
            edge_count,
        })
    })
}

/// `network_get_neighbors`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_get_neighbors",
            title: "Get node neighbors",
            description: "The node IDs joined to a node by an edge, each once: what it depends on (out), what depends on it (in), or both.",
            toolset: Toolset::Core,
            effect: Effect::Read,
            long_running: false,
        },
        get_neighbors,
    )
}
