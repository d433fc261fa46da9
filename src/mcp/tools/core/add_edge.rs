//! `network_add_edge`: one new edge per call.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, flat_attributes_schema, no_attributes};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec};

fn default_weight() -> f64 {
    DEFAULT_WEIGHT
}

/// Parameters of `network_add_edge`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddEdgeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    pub source: String,
    pub target: String,
    /// Cost, distance or duration.
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// Flat attributes, e.g. {"relation": "depends_on"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
}

/// Result of `network_add_edge`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddEdgeOutput {
    /// "success".
    pub status: Success,
    /// Source node ID.
    pub source: String,
    /// Target node ID.
    pub target: String,
    /// Edge weight.
    pub weight: f64,
    /// The new edge's stable id.
    pub edge_id: u64,
}

fn add_edge(ctx: &ToolContext<'_>, p: AddEdgeParams) -> Result<AddEdgeOutput> {
    ctx.limits.check_item(&p.attributes, None)?;
    let edge_id = ctx.write(&p.network_name, |net| {
        ctx.limits.check_edges(net.edge_count(), 1)?;
        net.add_edge_with(EdgeSpec {
            source: p.source.clone(),
            target: p.target.clone(),
            weight: p.weight,
            attributes: p.attributes,
        })
    })?;
    info!(network = %p.network_name, source = %p.source, target = %p.target, weight = p.weight, edge_id, "edge added");
    Ok(AddEdgeOutput {
        status: Success::Success,
        source: p.source,
        target: p.target,
        weight: p.weight,
        edge_id,
    })
}

/// `network_add_edge`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_add_edge",
            title: "Add an edge",
            description: "Add an edge source -> target between existing nodes (A -> B: A depends on B). Each call adds one (parallel edges allowed) and returns its edge_id.",
            toolset: Toolset::Core,
            effect: Effect::Write { idempotent: false },
            long_running: false,
        },
        add_edge,
    )
}
