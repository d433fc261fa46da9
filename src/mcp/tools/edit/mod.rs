//! Editing tools: inspect, update and remove nodes and edges, list them page by
//! page, and load many at once in atomic batches.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::common::{
    EdgeOut, Paging, Success, any_json_schema, batch_item_error, check_limit,
    flat_attributes_schema, no_attributes,
};
use crate::error::{Error, Result};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::{
    AddNodeOutcome, AttributeUpdate, DEFAULT_WEIGHT, Direction, EdgeSpec, MissingNodes, NodeFilter,
    NodeSpec, validate,
};

/// The most items one batch call takes.
pub const MAX_BATCH_ITEMS: usize = 10_000;
/// Keeps a default page within about 8 KB (see BENCHMARKS.md).
const DEFAULT_PAGE: usize = 50;
const MAX_PAGE: usize = 1_000;

fn default_page() -> usize {
    DEFAULT_PAGE
}

fn default_weight() -> f64 {
    DEFAULT_WEIGHT
}

/// Distinguishes an absent `data` (keep) from `"data": null` (clear).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

// ---------------------------------------------------------------- get_node

/// Parameters of `network_get_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// ID of the node.
    pub node_id: String,
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

/// Result of `network_get_node`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GetNodeOutput {
    /// "success".
    pub status: Success,
    /// The node.
    #[serde(flatten)]
    pub node: NodeOut,
    /// The network's version: it rises with every change.
    pub version: u64,
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

fn get_node(ctx: &ToolContext<'_>, p: GetNodeParams) -> Result<GetNodeOutput> {
    ctx.registry.read(&p.network_name, |net| {
        validate::id("node_id", &p.node_id)?;
        let ix = net.require("node_id", &p.node_id)?;
        Ok(GetNodeOutput {
            status: Success::Success,
            node: node_out(net, ix, true),
            version: net.version(),
        })
    })
}

// ---------------------------------------------------------------- update_node

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

/// Parameters of `network_update_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// ID of the node.
    pub node_id: String,
    /// New payload (any JSON); null clears it; omit to keep it.
    #[serde(default, deserialize_with = "present")]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Attributes to apply, e.g. {"status": "done"}.
    #[serde(default)]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Option<Map<String, Value>>,
    /// "merge": set these keys, keep the rest. "replace": these become all the attributes.
    #[serde(default)]
    pub mode: UpdateMode,
    /// Attribute keys to delete.
    #[serde(default)]
    pub remove_attributes: Vec<String>,
    /// Only if the node now has these attribute values (null: absent).
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

impl From<UpdateMode> for AttributeUpdate {
    fn from(mode: UpdateMode) -> Self {
        match mode {
            UpdateMode::Merge => AttributeUpdate::Merge,
            UpdateMode::Replace => AttributeUpdate::Replace,
        }
    }
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

// ---------------------------------------------------------------- update_nodes

/// One node's change in `network_update_nodes`: the parameters of `network_update_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeUpdate {
    /// ID of the node.
    pub node_id: String,
    /// New payload (any JSON); null clears it; omit to keep it.
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
    /// Only if the node now has these attribute values (null: absent).
    #[serde(default)]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub expect: Option<Map<String, Value>>,
}

/// Parameters of `network_update_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateNodesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The changes, at most one per node.
    #[schemars(length(min = 1, max = MAX_BATCH_ITEMS))]
    pub updates: Vec<NodeUpdate>,
}

/// Result of `network_update_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UpdateNodesOutput {
    /// "success".
    pub status: Success,
    /// How many nodes changed.
    pub changed: usize,
    /// How many already looked like this (nothing changed).
    pub unchanged: usize,
}

fn update_nodes(ctx: &ToolContext<'_>, p: UpdateNodesParams) -> Result<UpdateNodesOutput> {
    check_batch_size("updates", p.updates.len())?;
    let mut first_item: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, update) in p.updates.iter().enumerate() {
        validate::id("node_id", &update.node_id)
            .map_err(|e| batch_item_error("updates", index, e))?;
        if let Some(expect) = &update.expect {
            validate::attributes("expect", expect)
                .map_err(|e| batch_item_error("updates", index, e))?;
        }
        if let Some(first) = first_item.insert(&update.node_id, index) {
            return Err(batch_item_error(
                "updates",
                index,
                Error::InvalidValue {
                    field: "node_id".into(),
                    reason: format!(
                        "node '{}' is already changed by item {first}; merge the two into one item",
                        update.node_id
                    ),
                },
            ));
        }
    }
    ctx.write(&p.network_name, |net| {
        // Every unknown id named at once, then every item checked: nothing is
        // applied unless all of it can be.
        net.require_all("updates", p.updates.iter().map(|u| u.node_id.as_str()))?;
        // Every expectation of every item, all unmet ones named at once.
        let mismatches = p.updates.iter().flat_map(|u| unmet(net, u)).collect();
        expectations_hold(net, mismatches)?;
        for (index, u) in p.updates.iter().enumerate() {
            check_update(ctx, net, u).map_err(|e| batch_item_error("updates", index, e))?;
        }
        ctx.progress.check("network_update_nodes")?;
        let items = p.updates.len();
        let mut changed = 0;
        for u in p.updates {
            changed += usize::from(apply_update(net, u)?);
        }
        info!(network = %p.network_name, changed, "nodes updated");
        Ok(UpdateNodesOutput {
            status: Success::Success,
            changed,
            unchanged: items - changed,
        })
    })
}

// ---------------------------------------------------------------- remove_node

/// Parameters of `network_remove_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveNodeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// ID of the node; its edges go too.
    pub node_id: String,
    /// Must be true, or nothing is removed.
    #[serde(default)]
    pub confirm: bool,
}

/// Result of `network_remove_node`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemoveNodeOutput {
    /// "success".
    pub status: Success,
    /// The removed node's ID.
    pub node_id: String,
    /// How many edges went with it.
    pub removed_edges: usize,
}

fn remove_node(ctx: &ToolContext<'_>, p: RemoveNodeParams) -> Result<RemoveNodeOutput> {
    ctx.write(&p.network_name, |net| {
        validate::id("node_id", &p.node_id)?;
        net.require("node_id", &p.node_id)?;
        if !p.confirm {
            return Err(Error::ConfirmationRequired {
                action: format!("Removing node '{}' and its edges", p.node_id),
            });
        }
        let removed_edges = net.remove_node(&p.node_id)?;
        info!(network = %p.network_name, node_id = %p.node_id, removed_edges, "node removed");
        Ok(RemoveNodeOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            removed_edges,
        })
    })
}

// ---------------------------------------------------------------- remove_edge

/// Parameters of `network_remove_edge`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveEdgeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The edge's id.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub edge_id: Option<u64>,
    /// Instead of edge_id: every edge from this node...
    #[serde(default)]
    pub source: Option<String>,
    /// ...to this node.
    #[serde(default)]
    pub target: Option<String>,
}

/// Result of `network_remove_edge`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemoveEdgeOutput {
    /// "success".
    pub status: Success,
    /// How many edges were removed (0 when source and target had none between them).
    pub count: usize,
    /// The removed edges as they were.
    pub removed: Vec<RemovedEdgeOut>,
}

/// A removed edge.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemovedEdgeOut {
    /// Its id.
    pub edge_id: u64,
    /// Source node ID.
    pub source: String,
    /// Target node ID.
    pub target: String,
    /// Its weight.
    pub weight: f64,
}

fn remove_edge(ctx: &ToolContext<'_>, p: RemoveEdgeParams) -> Result<RemoveEdgeOutput> {
    ctx.write(&p.network_name, |net| {
        let removed = match (p.edge_id, &p.source, &p.target) {
            (Some(id), None, None) => vec![net.remove_edge(id)?],
            (None, Some(source), Some(target)) => net.remove_edges_between(source, target)?,
            _ => {
                return Err(Error::InvalidArguments {
                    message: "invalid arguments for network_remove_edge: give either edge_id, or both source and target (not both forms)".into(),
                    field: Some("edge_id".into()),
                });
            }
        };
        info!(network = %p.network_name, count = removed.len(), "edges removed");
        Ok(RemoveEdgeOutput {
            status: Success::Success,
            count: removed.len(),
            removed: removed
                .into_iter()
                .map(|e| RemovedEdgeOut {
                    edge_id: e.id,
                    source: e.source,
                    target: e.target,
                    weight: e.weight,
                })
                .collect(),
        })
    })
}

// ---------------------------------------------------------------- list_nodes

/// Parameters of `network_list_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListNodesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Nodes per page.
    #[serde(default = "default_page")]
    #[schemars(range(min = 1, max = MAX_PAGE))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
    /// Only nodes with all these attribute values, e.g. {"status": "todo"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
    /// Only ids starting with this.
    #[serde(default)]
    pub id_prefix: Option<String>,
    /// Only ids containing this (case-insensitive).
    #[serde(default)]
    pub id_contains: Option<String>,
    /// Also return each node's data.
    #[serde(default)]
    pub include_data: bool,
}

/// Result of `network_list_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ListNodesOutput {
    /// "success".
    pub status: Success,
    /// This page of matching nodes, in insertion order.
    pub nodes: Vec<NodeOut>,
    /// How many nodes match in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn list_nodes(ctx: &ToolContext<'_>, p: ListNodesParams) -> Result<ListNodesOutput> {
    let limit = check_limit(p.limit, MAX_PAGE)?;
    validate::attributes("attributes", &p.attributes)?;
    ctx.registry.read(&p.network_name, |net| {
        let query = (&p.attributes, &p.id_prefix, &p.id_contains, p.include_data);
        let page = Page::open(
            ctx,
            net,
            "network_list_nodes",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_PAGE,
        )?;
        let filter = NodeFilter {
            attributes: p.attributes.clone(),
            id_prefix: p.id_prefix.clone(),
            id_contains: p.id_contains.clone(),
        };
        let mut total = 0;
        let mut nodes = Vec::new();
        let mut open = true;
        for ix in net.matching_nodes(&filter) {
            if open && total >= page.offset && nodes.len() < limit {
                // One at a time, so that the page stops at the byte bound.
                match page.fill([node_out(net, ix, p.include_data)]).pop() {
                    Some(node) => nodes.push(node),
                    None => open = false,
                }
            }
            total += 1;
        }
        Ok(ListNodesOutput {
            status: Success::Success,
            paging: Paging::of_total(&page, nodes.len(), total),
            nodes,
            total,
        })
    })
}

// ---------------------------------------------------------------- list_edges

/// Parameters of `network_list_edges`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListEdgesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Only the edges of this node; omit for all.
    #[serde(default)]
    pub node_id: Option<String>,
    /// With node_id: edges leaving it ("out"), entering it ("in") or both.
    #[serde(default)]
    pub direction: Direction,
    /// Edges per page.
    #[serde(default = "default_page")]
    #[schemars(range(min = 1, max = MAX_PAGE))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Result of `network_list_edges`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ListEdgesOutput {
    /// "success".
    pub status: Success,
    /// This page of edges.
    pub edges: Vec<EdgeOut>,
    /// How many edges match in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn list_edges(ctx: &ToolContext<'_>, p: ListEdgesParams) -> Result<ListEdgesOutput> {
    let limit = check_limit(p.limit, MAX_PAGE)?;
    ctx.registry.read(&p.network_name, |net| {
        let query = (&p.node_id, p.direction);
        let page = Page::open(
            ctx,
            net,
            "network_list_edges",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_PAGE,
        )?;
        let node = match &p.node_id {
            Some(id) => {
                validate::id("node_id", id)?;
                Some((net.require("node_id", id)?, p.direction))
            }
            None => None,
        };
        let all = net.edges_of(node);
        let total = all.len();
        let edges: Vec<EdgeOut> = page.fill(page.slice(&all).iter().cloned().map(EdgeOut::from));
        Ok(ListEdgesOutput {
            status: Success::Success,
            paging: Paging::of_total(&page, edges.len(), total),
            edges,
            total,
        })
    })
}

// ---------------------------------------------------------------- add_nodes

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
    pub status: super::common::CreateStatus,
}

/// Result of `network_add_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddNodesOutput {
    /// "success".
    pub status: Success,
    /// Nodes added.
    pub created: usize,
    /// Items whose ID already existed (or repeated an earlier item): left unchanged.
    pub duplicates: usize,
    /// Per-item outcomes, when include_items was true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<NodeItemOutcome>>,
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
        created,
        duplicates: outcomes.len() - created,
        items: ids.map(|ids| {
            ids.into_iter()
                .zip(outcomes)
                .map(|(node_id, o)| NodeItemOutcome {
                    node_id,
                    status: match o {
                        AddNodeOutcome::Added => super::common::CreateStatus::Success,
                        AddNodeOutcome::Duplicate => super::common::CreateStatus::Duplicate,
                    },
                })
                .collect()
        }),
    })
}

// ---------------------------------------------------------------- add_edges

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
    /// Create unknown endpoints as plain nodes instead of failing.
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
    pub created: usize,
    /// Nodes created because create_missing_nodes was true.
    pub created_nodes: usize,
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
        created: outcome.edge_ids.len(),
        created_nodes: outcome.created_nodes.len(),
        edge_ids: p.include_ids.then_some(outcome.edge_ids),
    })
}

/// The editing tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_get_node",
                title: "Get a node",
                description: "Get one node: its data payload, attributes, and in/out degree (in a depends-on graph, in_degree counts what depends on it). Use network_get_neighbors for the connected nodes.",
                toolset: Toolset::Edit,
                effect: Effect::Read,
                long_running: false,
            },
            get_node,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_update_node",
                title: "Update a node",
                description: "Change a node's data and attributes: mode \"merge\" (default) sets the given keys and keeps the rest, \"replace\" makes them the whole set; remove_attributes deletes keys; data null clears the payload. Idempotent.",
                toolset: Toolset::Edit,
                effect: Effect::Write { idempotent: true },
                long_running: false,
            },
            update_node,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_update_nodes",
                title: "Update many nodes",
                description: "Change up to 10000 nodes in one atomic call, each item as in network_update_node; if any item is invalid or unknown, nothing changes and the error names them all. E.g. mark tasks done: [{\"node_id\": \"a\", \"attributes\": {\"status\": \"done\"}}].",
                toolset: Toolset::Edit,
                effect: Effect::Write { idempotent: true },
                long_running: true,
            },
            update_nodes,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_remove_node",
                title: "Remove a node",
                description: "Remove a node and every edge into or out of it; reports how many edges went. Destructive: does nothing unless confirm is true.",
                toolset: Toolset::Edit,
                effect: Effect::Destroy { idempotent: true },
                long_running: false,
            },
            remove_node,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_remove_edge",
                title: "Remove edges",
                description: "Remove one edge by edge_id, or every edge source -> target when given source and target. Reports what was removed. Edge ids come from network_list_edges or network_get_neighbors with include_edges.",
                toolset: Toolset::Edit,
                effect: Effect::Destroy { idempotent: true },
                long_running: false,
            },
            remove_edge,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_list_nodes",
                title: "List nodes",
                description: "List nodes page by page with attributes and degrees, optionally filtered by attribute values (e.g. {\"status\": \"todo\"}), id prefix or id substring. On a large network prefer the analysis tools.",
                toolset: Toolset::Edit,
                effect: Effect::Read,
                long_running: true,
            },
            list_nodes,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_list_edges",
                title: "List edges",
                description: "List edges page by page with ids, weights and attributes: all of them, or those of one node (node_id, direction). Returns the total.",
                toolset: Toolset::Edit,
                effect: Effect::Read,
                long_running: true,
            },
            list_edges,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_add_nodes",
                title: "Add many nodes",
                description: "Add up to 10000 nodes in one atomic call: if any item is invalid, nothing is added and the error names the item. Existing IDs are counted as duplicates and left unchanged.",
                toolset: Toolset::Edit,
                effect: Effect::Write { idempotent: true },
                long_running: true,
            },
            add_nodes,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_add_edges",
                title: "Add many edges",
                description: "Add up to 10000 edges in one atomic call: if any item is invalid, nothing is added and the error names the item. Each item adds a new edge, as network_add_edge does; create_missing_nodes creates unknown endpoints.",
                toolset: Toolset::Edit,
                effect: Effect::Write { idempotent: false },
                long_running: true,
            },
            add_edges,
        ),
    ]
}
