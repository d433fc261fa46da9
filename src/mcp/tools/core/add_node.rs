//! `network_add_node`: one node, idempotently (an existing id is left unchanged).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{
    CreateStatus, any_json_schema, flat_attributes_schema, no_attributes,
};
use crate::network::{AddNodeOutcome, NodeSpec};

/// Parameters of `network_add_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Unique ID, e.g. "networks".
    pub node_id: String,
    /// Any JSON payload.
    #[serde(default)]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Flat attributes, e.g. {"status": "todo"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
}

/// Result of `network_add_node`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddNodeOutput {
    /// "success" when the node was added, "duplicate" when it already existed (nothing changed).
    pub status: CreateStatus,
    /// The node ID.
    pub node_id: String,
    /// Human-readable result message.
    pub message: String,
}

fn add_node(ctx: &ToolContext<'_>, p: AddNodeParams) -> Result<AddNodeOutput> {
    ctx.limits.check_item(&p.attributes, p.data.as_ref())?;
    let outcome = ctx.write(&p.network_name, |net| {
        if !net.contains_node(&p.node_id) {
            ctx.limits.check_nodes(net.node_count(), 1)?;
        }
        net.add_node_with(NodeSpec {
            id: p.node_id.clone(),
            data: p.data,
            attributes: p.attributes,
        })
    })?;
    let (status, message) = match outcome {
        AddNodeOutcome::Added => {
            info!(network = %p.network_name, node_id = %p.node_id, "node added");
            (CreateStatus::Success, format!("Node '{}' added", p.node_id))
        }
        AddNodeOutcome::Duplicate => (
            CreateStatus::Duplicate,
            format!(
                "Node '{}' already exists; nothing changed (use network_update_node to change it)",
                p.node_id
            ),
        ),
    };
    Ok(AddNodeOutput {
        status,
        node_id: p.node_id,
        message,
    })
}

/// `network_add_node`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_add_node",
            title: "Add a node",
            description: "Add a node, with optional data (any JSON) and attributes. An existing ID answers \"duplicate\" and changes nothing. For many, network_add_nodes.",
            toolset: Toolset::Core,
            effect: Effect::Write { idempotent: true },
            long_running: false,
        },
        add_node,
    )
}
