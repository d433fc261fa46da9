//! `network_traverse`: a breadth- or depth-first walk from start nodes, page by
//! page, each visited node with its depth and parent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_ANALYSIS_LIMIT, check_depth, default_limit, default_out, require_all};
use crate::error::{Error, Result};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit, relation_filter};
use crate::network::traversal::TraversalOrder;
use crate::network::{Direction, TraverseOptions};

/// Parameters of `network_traverse`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraverseParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Node IDs to start from (depth 0).
    pub start_node_ids: Vec<String>,
    /// "bfs": nearest first. "dfs": depth-first preorder.
    #[serde(default)]
    pub order: TraversalOrder,
    /// "out": what the starts depend on. "in": what depends on them.
    #[serde(default = "default_out")]
    pub direction: Direction,
    /// Go at most this many edges from a start.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_depth: Option<usize>,
    /// Visited nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    // The relation filter: described once, in the server instructions.
    #[serde(default)]
    pub relations: Option<Vec<String>>,
    #[serde(default)]
    pub ignore_relations: Option<Vec<String>>,
    #[serde(default)]
    pub relation_attribute: Option<String>,
}

/// One visited node.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct VisitOut {
    /// The node ID.
    pub node_id: String,
    /// Edges from the nearest start (BFS) or depth in the DFS tree; 0 for a start.
    pub depth: usize,
    /// The node it was reached from; absent for a start. Follow parents to rebuild paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// Result of `network_traverse`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TraverseOutput {
    /// "success".
    pub status: Success,
    /// This page of the visited nodes, in visit order.
    pub visited: Vec<VisitOut>,
    /// Number of visited nodes returned.
    pub visited_count: usize,
    /// How to get the rest of the walk.
    #[serde(flatten)]
    pub paging: Paging,
}

fn traverse(ctx: &ToolContext<'_>, p: TraverseParams) -> Result<TraverseOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let max_depth = check_depth(p.max_depth)?;
    if p.start_node_ids.is_empty() {
        return Err(Error::InvalidValue {
            field: "start_node_ids".into(),
            reason: "the list is empty; give at least one node ID".into(),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        let starts = require_all(net, "start_node_ids", &p.start_node_ids)?;
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let query = (&p.start_node_ids, p.order, p.direction, max_depth, &filter);
        let page = Page::open(
            ctx,
            net,
            "network_traverse",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        // The walk is deterministic, so the page is the slice of it that ends at
        // the page's end: a walk to there, cut at the page's start.
        let walk = net.following(&filter).traverse_by_index(
            &starts,
            TraverseOptions {
                order: p.order,
                direction: p.direction,
                max_depth,
                limit: page.end(),
            },
        );
        let visited: Vec<VisitOut> = page.fill(page.slice(&walk.visits).iter().map(|v| VisitOut {
            node_id: net.id_at(v.node).to_string(),
            depth: v.depth,
            parent: v.parent.map(|n| net.id_at(n).to_string()),
        }));
        Ok(TraverseOutput {
            status: Success::Success,
            visited_count: visited.len(),
            paging: Paging::of(&page, visited.len(), None, walk.truncated),
            visited,
        })
    })
}

/// `network_traverse`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_traverse",
            title: "Traverse from nodes",
            description: "Walk bfs or dfs from start nodes: each visited node with its depth and the parent it was reached from.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        traverse,
    )
}
