//! Editing tools: inspect, update and remove nodes and edges, list them page by
//! page, and load many at once in atomic batches.
//!
//! One file per tool, named after it; this module holds what they share: the
//! batch and page bounds, a node as the tools show it ([`NodeOut`]), and one
//! node's update ([`NodeUpdate`]), checked and applied the same way by
//! `network_update_node` and `network_update_nodes`.

mod add_edges;
mod add_nodes;
mod get_node;
mod list_edges;
mod list_nodes;
mod remove_edge;
mod remove_node;
mod update_node;
mod update_nodes;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::mcp::tool::{ToolContext, ToolDef};
use crate::mcp::tools::common::{any_json_schema, flat_attributes_schema};
use crate::network::{AttributeUpdate, validate};

/// The most items one batch call takes.
pub const MAX_BATCH_ITEMS: usize = 10_000;
/// Keeps a default page within about 8 KB (see BENCHMARKS.md).
const DEFAULT_PAGE: usize = 50;
const MAX_PAGE: usize = 1_000;

fn default_page() -> usize {
    DEFAULT_PAGE
}

/// Distinguishes an absent `data` (keep) from `"data": null` (clear).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A node with its payload, attributes and degrees.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct NodeOut {
    /// The node ID.
    pub node_id: String,
    /// The payload, or null.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Flat attributes.
    pub attributes: Map<String, Value>,
    /// Number of edges into the node (what depends on it, in a depends-on graph).
    pub in_degree: usize,
    /// Number of edges out of the node (what it depends on).
    pub out_degree: usize,
}

fn node_out(
    net: &crate::Network,
    ix: petgraph::stable_graph::NodeIndex,
    with_data: bool,
) -> NodeOut {
    let node = &net.graph()[ix];
    let (in_degree, out_degree) = net.degrees(ix);
    NodeOut {
        node_id: node.id.to_string(),
        data: if with_data {
            node.data.as_deref().cloned()
        } else {
            None
        },
        attributes: node.attributes.to_map(),
        in_degree,
        out_degree,
    }
}

/// How `attributes` are applied by `network_update_node`.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum UpdateMode {
    /// Set the given keys and keep the others.
    #[default]
    Merge,
    /// Replace all attributes with the given ones.
    Replace,
}

impl From<UpdateMode> for AttributeUpdate {
    fn from(mode: UpdateMode) -> Self {
        match mode {
            UpdateMode::Merge => AttributeUpdate::Merge,
            UpdateMode::Replace => AttributeUpdate::Replace,
        }
    }
}

/// One node's change in `network_update_nodes`: the parameters of `network_update_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeUpdate {
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
    /// "merge" (default) or "replace".
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

/// Checks one node's update against the limits as the node would be after it,
/// and the update's own ids, attributes and payload, without changing anything.
fn check_update(ctx: &ToolContext<'_>, net: &crate::Network, u: &NodeUpdate) -> Result<()> {
    validate::id("node_id", &u.node_id)?;
    if let Some(new) = &u.attributes {
        validate::attributes("attributes", new)?;
    }
    if let Some(data) = &u.data {
        validate::data("data", data)?;
    }
    let Some(node) = net.node(&u.node_id) else {
        return Ok(());
    };
    let mut attributes = match (&u.attributes, u.mode) {
        (Some(new), UpdateMode::Replace) => new.clone(),
        (new, _) => {
            let mut map = node.attributes.to_map();
            map.extend(new.clone().unwrap_or_default());
            map
        }
    };
    for key in &u.remove_attributes {
        attributes.shift_remove(key);
    }
    let data = u.data.as_ref().or(node.data.as_deref());
    ctx.limits.check_item(&attributes, data)
}

/// Applies a checked update; whether the node changed.
fn apply_update(net: &mut crate::Network, u: NodeUpdate) -> Result<bool> {
    net.update_node(
        &u.node_id,
        u.data,
        u.attributes,
        u.mode.into(),
        &u.remove_attributes,
    )
}

/// What of an update's `expect` does not hold on its node now: `(node, key,
/// expected, current)`, current null when absent. A null expectation is met by
/// an absent attribute or a null one.
fn unmet(net: &crate::Network, u: &NodeUpdate) -> Vec<(String, String, Value, Value)> {
    let (Some(expect), Some(node)) = (&u.expect, net.node(&u.node_id)) else {
        return Vec::new();
    };
    expect
        .iter()
        .filter_map(|(key, expected)| {
            let current = node.attributes.get(key).cloned().unwrap_or(Value::Null);
            (current != *expected)
                .then(|| (u.node_id.clone(), key.clone(), expected.clone(), current))
        })
        .collect()
}

/// [`Error::PreconditionFailed`] when anything is in `mismatches`.
fn expectations_hold(
    net: &crate::Network,
    mismatches: Vec<(String, String, Value, Value)>,
) -> Result<()> {
    if mismatches.is_empty() {
        return Ok(());
    }
    Err(Error::PreconditionFailed {
        network: net.name().to_string(),
        mismatches,
    })
}

fn check_batch_size(field: &str, len: usize) -> Result<()> {
    if len == 0 {
        return Err(Error::InvalidValue {
            field: field.into(),
            reason: "the list is empty; give at least one item".into(),
        });
    }
    if len > MAX_BATCH_ITEMS {
        return Err(Error::LimitExceeded {
            what: format!("a batch of {len} {field}"),
            limit: MAX_BATCH_ITEMS as u64,
            hint: "Split it into several calls.".into(),
        });
    }
    Ok(())
}

/// The editing tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        get_node::tool(),
        update_node::tool(),
        update_nodes::tool(),
        remove_node::tool(),
        remove_edge::tool(),
        list_nodes::tool(),
        list_edges::tool(),
        add_nodes::tool(),
        add_edges::tool(),
    ]
}
