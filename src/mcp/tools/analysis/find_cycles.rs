//! `network_find_cycles`: every group of nodes caught in a cycle, each with one
//! concrete cycle.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_ANALYSIS_LIMIT, ids};
use crate::error::Result;
use crate::mcp::page::{Page, halve, shrink_to};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit, check_range};

fn default_group_limit() -> usize {
    10
}

fn default_members_limit() -> usize {
    20
}

/// Parameters of `network_find_cycles`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CyclesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Cyclic groups per page.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// Most member nodes, and cycle nodes, listed per group.
    #[serde(default = "default_members_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub max_nodes_per_group: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One group of nodes that all reach each other (a strongly connected component with a cycle).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CycleGroup {
    /// Number of nodes in the group.
    pub size: usize,
    /// Member node IDs (the first max_nodes_per_group, in insertion order).
    pub nodes: Vec<String>,
    /// One concrete cycle in edge direction: each node has an edge to the next, and the last to the first (its first max_nodes_per_group nodes).
    pub cycle: Vec<String>,
    /// Number of nodes on that cycle.
    pub cycle_length: usize,
}

/// Result of `network_find_cycles`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CyclesOutput {
    /// "success".
    pub status: Success,
    /// True when the network has no cycle at all.
    pub is_dag: bool,
    /// This page of the cyclic groups (strongly connected components of 2+ nodes, and single nodes with a self-loop).
    pub groups: Vec<CycleGroup>,
    /// How many cyclic groups exist in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn find_cycles(ctx: &ToolContext<'_>, p: CyclesParams) -> Result<CyclesOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let per_group = check_range(
        "max_nodes_per_group",
        p.max_nodes_per_group,
        MAX_ANALYSIS_LIMIT,
    )?;
    ctx.registry.read(&p.network_name, |net| {
        let page = Page::open(ctx, net,
            "network_find_cycles",
            per_group,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let cycles = net.find_cycles(page.end());
        let groups: Vec<CycleGroup> = page.fill_cut(
            page.slice(&cycles.components).iter().map(|c| CycleGroup {
                size: c.nodes.len(),
                nodes: ids(net, c.nodes.iter().take(per_group).copied()),
                cycle: ids(net, c.cycle.iter().take(per_group).copied()),
                cycle_length: c.cycle.len(),
            }),
            // Cut like max_nodes_per_group cuts: size and cycle_length still
            // count every node, and the note below says so.
            |mut group, bytes| {
                shrink_to(&mut group, bytes, |g| halve(&mut g.nodes) | halve(&mut g.cycle));
                group
            },
        );
        let mut paging = Paging::of_total(&page, groups.len(), cycles.total);
        if groups.iter().any(|g| g.nodes.len() < g.size || g.cycle.len() < g.cycle_length) {
            paging.add_note(format!(
                "Each group lists at most {per_group} members and cycle nodes, fewer when the reply size bound cuts it (size and cycle_length count them all); raise max_nodes_per_group (at most {MAX_ANALYSIS_LIMIT}), or take the group apart with network_copy, to see more."
            ));
        }
        Ok(CyclesOutput {
            status: Success::Success,
            is_dag: cycles.total == 0,
            paging,
            groups,
            total: cycles.total,
        })
    })
}

/// `network_find_cycles`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_find_cycles",
            title: "Find cycles",
            description: "Every group of nodes caught in a cycle (strongly connected components of 2+ nodes, and self-loops), each with one concrete cycle; is_dag is true when there is none.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        find_cycles,
    )
}
