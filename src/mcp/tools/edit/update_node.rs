//! `network_update_node`: change one node's payload and attributes, if it
//! still has the attribute values the caller expects.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::{
    NodeOut, NodeUpdate, UpdateMode, apply_update, check_update, expectations_hold, node_out,
    present, unmet,
};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, any_json_schema, flat_attributes_schema};
use crate::network::validate;

/// Parameters of `network_update_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// ID of the node.
    pub node_id: String,
    /// New payload (any JSON); null clears it.
    #[serde(default, deserialize_with = "present")]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Attributes to apply, e.g. {"status": "done"}.
    #[serde(default)]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Option<Map<String, Value>>,
    /// "replace": these become all the attributes.
    #[serde(default)]
    pub mode: UpdateMode,
    /// Attribute keys to delete.
    #[serde(default)]
    pub remove_attributes: Vec<String>,
    /// Only if the node has these values now (null: absent).
    #[serde(default)]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub expect: Option<Map<String, Value>>,
}

/// Result of `network_update_node`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UpdateNodeOutput {
    /// "success".
    pub status: Success,
    /// False when the node already looked like this (nothing changed).
    pub changed: bool,
    /// The node after the update.
    #[serde(flatten)]
    pub node: NodeOut,
}

impl UpdateNodeParams {
    /// The network, and the change as one item of `network_update_nodes`.
    fn into_parts(self) -> (String, NodeUpdate) {
        let update = NodeUpdate {
            node_id: self.node_id,
            data: self.data,
            attributes: self.attributes,
            mode: self.mode,
            remove_attributes: self.remove_attributes,
            expect: self.expect,
        };
        (self.network_name, update)
    }
}

fn update_node(ctx: &ToolContext<'_>, p: UpdateNodeParams) -> Result<UpdateNodeOutput> {
    let (network_name, update) = p.into_parts();
    if let Some(expect) = &update.expect {
        validate::attributes("expect", expect)?;
    }
    ctx.write(&network_name, |net| {
        validate::id("node_id", &update.node_id)?;
        net.require("node_id", &update.node_id)?;
        expectations_hold(net, unmet(net, &update))?;
        check_update(ctx, net, &update)?;
        let node_id = update.node_id.clone();
        let changed = apply_update(net, update)?;
        if changed {
            info!(network = %network_name, node_id = %node_id, "node updated");
        }
        let ix = net.require("node_id", &node_id)?;
        Ok(UpdateNodeOutput {
            status: Success::Success,
            changed,
            node: node_out(net, ix, true),
        })
    })
}

/// `network_update_node`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_update_node",
            title: "Update a node",
            description: "Change a node's data and attributes (see mode); remove_attributes deletes keys; data null clears the payload.",
            toolset: Toolset::Edit,
            effect: Effect::Write { idempotent: true },
            long_running: false,
        },
        update_node,
    )
}
