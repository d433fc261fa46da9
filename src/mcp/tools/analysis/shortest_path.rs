//! `network_shortest_path`: the cheapest path from one node to another, by
//! weight or by hops.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::require;
use crate::error::Result;
use crate::mcp::page::fit;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, relation_filter};
use crate::network::Weighted;

fn default_true() -> bool {
    true
}

/// Parameters of `network_shortest_path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShortestPathParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    pub source: String,
    pub target: String,
    /// true: least total weight. false: fewest edges.
    #[serde(default = "default_true")]
    pub weighted: bool,
    // The relation filter: described once, in the server instructions.
    #[serde(default)]
    pub relations: Option<Vec<String>>,
    #[serde(default)]
    pub ignore_relations: Option<Vec<String>>,
    #[serde(default)]
    pub relation_attribute: Option<String>,
}

/// Result of `network_shortest_path`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ShortestPathOutput {
    /// "success" (also when no path exists: see `found`).
    pub status: Success,
    /// False when target cannot be reached from source.
    pub found: bool,
    /// Start node ID.
    pub source: String,
    /// End node ID.
    pub target: String,
    /// Node IDs from source to target, both included (empty when not found).
    pub node_ids: Vec<String>,
    /// The ids of the edges taken, in order.
    pub edge_ids: Vec<u64>,
    /// Sum of the taken edges' weights (absent when not found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_weight: Option<f64>,
    /// Number of edges taken (absent when not found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hops: Option<usize>,
    /// Whether weights were minimised (true) or hops (false).
    pub weighted: bool,
    /// True when path and edge_ids were cut at the reply size bound (hops counts every edge); continue from the last listed node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
}

fn shortest_path(ctx: &ToolContext<'_>, p: ShortestPathParams) -> Result<ShortestPathOutput> {
    ctx.registry.read(&p.network_name, |net| {
        let from = require(net, "source", &p.source)?;
        let to = require(net, "target", &p.target)?;
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let found = net.following(&filter).shortest_path_by_index(
            from,
            to,
            Weighted::from_bool(p.weighted),
        )?;
        let mut out = ShortestPathOutput {
            status: Success::Success,
            found: found.is_some(),
            source: p.source.clone(),
            target: p.target.clone(),
            node_ids: Vec::new(),
            edge_ids: Vec::new(),
            total_weight: None,
            hops: None,
            weighted: p.weighted,
            cut: false,
        };
        if let Some(path) = found {
            // Measured node by node: a path of a million long ids is never built whole.
            let mut left = ctx.limits.reply_item_bytes();
            let (nodes, cut) = fit(
                path.nodes
                    .iter()
                    .zip(path.edges.iter().map(Some).chain([None]))
                    .map(|(&n, edge)| (net.id_at(n), edge.copied())),
                &mut left,
            );
            let (path_ids, edges): (Vec<&str>, Vec<Option<u64>>) = nodes.into_iter().unzip();
            out.node_ids = path_ids.into_iter().map(String::from).collect();
            out.edge_ids = edges.into_iter().flatten().collect();
            out.cut = cut;
            out.total_weight = Some(path.total_weight);
            out.hops = Some(path.hops);
        }
        Ok(out)
    })
}

/// `network_shortest_path`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_shortest_path",
            title: "Shortest path",
            description: "The cheapest path source -> target: least total weight (negative weights allowed) or fewest edges; found: false if none.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        shortest_path,
    )
}
