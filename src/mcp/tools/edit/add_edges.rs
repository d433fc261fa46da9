//! `network_add_edges`: many edges in one atomic batch, creating missing
//! endpoints on request.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::{MAX_BATCH_ITEMS, check_batch_size};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, batch_item_error, flat_attributes_schema, no_attributes};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, MissingNodes};

fn default_weight() -> f64 {
    DEFAULT_WEIGHT
}

/// One edge of `network_add_edges`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeItem {
    /// Source node ID.
    pub source: String,
    /// Target node ID.
    pub target: String,
    /// Edge weight.
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// Flat attributes.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
}

/// Parameters of `network_add_edges`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddEdgesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The edges, each source -> target.
    #[schemars(length(min = 1, max = MAX_BATCH_ITEMS))]
    pub edges: Vec<EdgeItem>,
    /// Create unknown endpoints as plain nodes.
    #[serde(default)]
    pub create_missing_nodes: bool,
    /// Also return the new edge ids, in item order.
    #[serde(default)]
    pub include_ids: bool,
}

/// Result of `network_add_edges`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddEdgesOutput {
    /// "success".
    pub status: Success,
    /// Edges added (always the number of items).
    pub created_count: usize,
    /// Nodes created because create_missing_nodes was true.
    pub created_node_count: usize,
    /// The new edge ids in item order, when include_ids was true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge_ids: Option<Vec<u64>>,
}

fn add_edges(ctx: &ToolContext<'_>, p: AddEdgesParams) -> Result<AddEdgesOutput> {
    check_batch_size("edges", p.edges.len())?;
    let specs: Vec<EdgeSpec> = p
        .edges
        .into_iter()
        .map(|e| EdgeSpec {
            source: e.source,
            target: e.target,
            weight: e.weight,
            attributes: e.attributes,
        })
        .collect();
    let outcome = ctx.write(&p.network_name, |net| {
        let mut new_nodes = hashbrown::HashSet::new();
        for (index, spec) in specs.iter().enumerate() {
            ctx.limits
                .check_item(&spec.attributes, None)
                .map_err(|e| batch_item_error("edges", index, e))?;
            if p.create_missing_nodes {
                for id in [spec.source.as_str(), spec.target.as_str()] {
                    if !net.contains_node(id) {
                        new_nodes.insert(id);
                    }
                }
            }
        }
        ctx.limits.check_edges(net.edge_count(), specs.len())?;
        let new_node_count = new_nodes.len();
        drop(new_nodes); // it borrows the ids that `add_edges` takes
        ctx.limits.check_nodes(net.node_count(), new_node_count)?;
        let total = specs.len() as u64;
        ctx.progress.report(total / 2, total, "validated");
        ctx.progress.check("the batch")?;
        let outcome = net.add_edges(
            specs,
            if p.create_missing_nodes {
                MissingNodes::Create
            } else {
                MissingNodes::Fail
            },
        );
        ctx.progress.report(total, total, "applied");
        outcome
    })?;
    info!(network = %p.network_name, created = outcome.edge_ids.len(), created_nodes = outcome.created_nodes.len(), "edges added in batch");
    Ok(AddEdgesOutput {
        status: Success::Success,
        created_count: outcome.edge_ids.len(),
        created_node_count: outcome.created_nodes.len(),
        edge_ids: p.include_ids.then_some(outcome.edge_ids),
    })
}

/// `network_add_edges`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_add_edges",
            title: "Add many edges",
            description: "Add up to 10000 edges atomically, each as network_add_edge does; one invalid item adds nothing.",
            toolset: Toolset::Edit,
            effect: Effect::Write { idempotent: false },
            long_running: true,
        },
        add_edges,
    )
}
