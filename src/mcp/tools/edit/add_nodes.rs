//! `network_add_nodes`: many nodes in one atomic batch.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::{MAX_BATCH_ITEMS, check_batch_size};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{
    CreateStatus, Success, any_json_schema, batch_item_error, flat_attributes_schema, no_attributes,
};
use crate::network::{AddNodeOutcome, NodeSpec};

/// One node of `network_add_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeItem {
    /// Unique node ID.
    pub node_id: String,
    /// Payload (any JSON).
    #[serde(default)]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Flat attributes.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
}

/// Parameters of `network_add_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddNodesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The nodes.
    #[schemars(length(min = 1, max = MAX_BATCH_ITEMS))]
    pub nodes: Vec<NodeItem>,
    /// Also return each item's status, in item order.
    #[serde(default)]
    pub include_items: bool,
}

/// One item's outcome in a batch.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct NodeItemOutcome {
    /// The node ID.
    pub node_id: String,
    /// "success" (added) or "duplicate" (already existed; unchanged).
    pub status: CreateStatus,
}

/// Result of `network_add_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddNodesOutput {
    /// "success".
    pub status: Success,
    /// Nodes added.
    pub created_count: usize,
    /// Items whose ID already existed (or repeated an earlier item): left unchanged.
    pub duplicate_count: usize,
    /// Per-item outcomes, when include_items was true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<NodeItemOutcome>>,
}

fn add_nodes(ctx: &ToolContext<'_>, p: AddNodesParams) -> Result<AddNodesOutput> {
    check_batch_size("nodes", p.nodes.len())?;
    let ids: Option<Vec<String>> = p
        .include_items
        .then(|| p.nodes.iter().map(|n| n.node_id.clone()).collect());
    let specs: Vec<NodeSpec> = p
        .nodes
        .into_iter()
        .map(|n| NodeSpec {
            id: n.node_id,
            data: n.data,
            attributes: n.attributes,
        })
        .collect();
    let outcomes = ctx.write(&p.network_name, |net| {
        let mut new_ids = hashbrown::HashSet::new();
        for (index, spec) in specs.iter().enumerate() {
            ctx.limits
                .check_item(&spec.attributes, spec.data.as_ref())
                .map_err(|e| batch_item_error("nodes", index, e))?;
            if !net.contains_node(&spec.id) {
                new_ids.insert(spec.id.as_str());
            }
        }
        let new_nodes = new_ids.len();
        drop(new_ids); // it borrows the ids that `add_nodes` takes
        ctx.limits.check_nodes(net.node_count(), new_nodes)?;
        let total = specs.len() as u64;
        ctx.progress.report(total / 2, total, "validated");
        ctx.progress.check("the batch")?;
        let outcomes = net.add_nodes(specs);
        ctx.progress.report(total, total, "applied");
        outcomes
    })?;
    let created = outcomes
        .iter()
        .filter(|o| **o == AddNodeOutcome::Added)
        .count();
    info!(network = %p.network_name, created, "nodes added in batch");
    Ok(AddNodesOutput {
        status: Success::Success,
        created_count: created,
        duplicate_count: outcomes.len() - created,
        items: ids.map(|ids| {
            ids.into_iter()
                .zip(outcomes)
                .map(|(node_id, o)| NodeItemOutcome {
                    node_id,
                    status: match o {
                        AddNodeOutcome::Added => CreateStatus::Success,
                        AddNodeOutcome::Duplicate => CreateStatus::Duplicate,
                    },
                })
                .collect()
        }),
    })
}

/// `network_add_nodes`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_add_nodes",
            title: "Add many nodes",
            description: "Add up to 10000 nodes atomically; one invalid item adds nothing, existing IDs stay unchanged.",
            toolset: Toolset::Edit,
            effect: Effect::Write { idempotent: true },
            long_running: true,
        },
        add_nodes,
    )
}
