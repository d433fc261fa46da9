//! `network_critical_path`: the longest path by total weight in an acyclic
//! network, page by page.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    Level, MAX_ANALYSIS_LIMIT, default_limit, epics_of, loop_note, named_cycle, ordered_on,
};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit, relation_filter};

/// Parameters of `network_critical_path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CriticalParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Path nodes per page.
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
    /// "epics": order whole epics (the nodes others name as parent) instead of tasks.
    #[serde(default)]
    pub level: Level,
    // The node attribute naming a node's parent, default "parent": see the specs.
    #[serde(default)]
    pub parent_attribute: Option<String>,
}

/// Result of `network_critical_path`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CriticalOutput {
    /// "success".
    pub status: Success,
    /// This page of the node IDs of the longest path by total weight, in edge direction.
    pub node_ids: Vec<String>,
    /// The ids of the edges leaving this page's nodes along the path, in order.
    pub edge_ids: Vec<u64>,
    /// Its total weight (with weights as durations: the least time the whole plan can take).
    pub total_weight: f64,
    /// Number of edges on the path.
    pub hops: usize,
    /// At level "epics", when parents form a loop: which nodes, and what to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn critical_path(ctx: &ToolContext<'_>, p: CriticalParams) -> Result<CriticalOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        crate::mcp::tools::warn_if_empty(&p.network_name, net.node_count());
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let epics = epics_of(net, &filter, p.level, p.parent_attribute.as_deref())?;
        let (on, followed, operation) = ordered_on(net, &filter, &epics, "a critical path");
        let path = on
            .following(followed)
            .critical_path()
            .map_err(|e| named_cycle(e, &operation))?;
        let page = Page::open(
            ctx,
            net,
            "network_critical_path",
            (&filter, p.level, &p.parent_attribute),
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let hops = path.edges.len();
        // Edge i leaves node i, so the pages of nodes page the edges too: a
        // node and its edge are measured together.
        let (nodes, edges): (Vec<String>, Vec<Option<u64>>) = page
            .fill(
                page.slice(&path.nodes)
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| (on.id_at(n), path.edges.get(page.offset + i).copied())),
            )
            .into_iter()
            .map(|(id, edge)| (id.to_string(), edge))
            .unzip();
        let note = loop_note(net, epics.as_ref());
        Ok(CriticalOutput {
            status: Success::Success,
            note,
            paging: Paging::of_total(&page, nodes.len(), path.nodes.len()),
            node_ids: nodes,
            edge_ids: edges.into_iter().flatten().collect(),
            total_weight: path.total_weight,
            hops,
        })
    })
}

/// `network_critical_path`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_critical_path",
            title: "Critical path",
            description: "The longest path by total weight (weights as durations: the chain that sets a plan's least time). A cycle is an error naming one.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        critical_path,
    )
}
