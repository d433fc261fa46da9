//! Editing tools: inspect, update and remove nodes and edges, list them page by
//! page, and load many at once in atomic batches.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::common::{
    EdgeOut, Success, any_json_schema, batch_item_error, check_limit, flat_attributes_schema,
    no_attributes,
};
use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::{
    AddNodeOutcome, AttributeUpdate, DEFAULT_WEIGHT, Direction, EdgeSpec, MissingNodes, NodeFilter,
    NodeSpec, validate,
};

/// The most items one batch call takes.
pub const MAX_BATCH_ITEMS: usize = 10_000;
const DEFAULT_PAGE: usize = 100;
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

fn parse_cursor(cursor: &Option<String>) -> Result<usize> {
    match cursor {
        None => Ok(0),
        Some(c) => c.parse().map_err(|_| Error::InvalidValue {
            field: "cursor".into(),
            reason: format!(
                "'{c}' is not a cursor from this tool; pass the next_cursor of the previous page, or omit it for the first page"
            ),
        }),
    }
}

fn next_cursor(offset: usize, returned: usize, total: usize) -> Option<String> {
    (offset + returned < total).then(|| (offset + returned).to_string())
}

// ---------------------------------------------------------------- get_node

/// Parameters of `network_get_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetNodeParams {
    /// Name of the network.
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
    /// Name of the network.
    pub network_name: String,
    /// ID of the node to change; it must exist.
    pub node_id: String,
    /// New payload (any JSON); null clears it; omit to keep the current payload.
    #[serde(default, deserialize_with = "present")]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Attributes to apply, e.g. {"status": "done"}. Omit to leave attributes as they are.
    #[serde(default)]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Option<Map<String, Value>>,
    /// "merge" (default): set the given keys, keep the rest. "replace": the given map becomes all the attributes.
    #[serde(default)]
    pub mode: UpdateMode,
    /// Attribute keys to delete.
    #[serde(default)]
    pub remove_attributes: Vec<String>,
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

fn update_node(ctx: &ToolContext<'_>, p: UpdateNodeParams) -> Result<UpdateNodeOutput> {
    let mode = match p.mode {
        UpdateMode::Merge => AttributeUpdate::Merge,
        UpdateMode::Replace => AttributeUpdate::Replace,
    };
    ctx.registry.write(&p.network_name, |net| {
        if let Some(node) = net.node(&p.node_id) {
            // Check the node as it would be after the update.
            let mut attributes = match (&p.attributes, mode) {
                (Some(new), AttributeUpdate::Replace) => new.clone(),
                (new, _) => {
                    let mut map = node.attributes.to_map();
                    map.extend(new.clone().unwrap_or_default());
                    map
                }
            };
            for key in &p.remove_attributes {
                attributes.shift_remove(key);
            }
            let data = p.data.as_ref().or(node.data.as_deref());
            ctx.limits.check_item(&attributes, data)?;
        }
        let changed =
            net.update_node(&p.node_id, p.data, p.attributes, mode, &p.remove_attributes)?;
        if changed {
            info!(network = %p.network_name, node_id = %p.node_id, "node updated");
        }
        let ix = net.require("node_id", &p.node_id)?;
        Ok(UpdateNodeOutput {
            status: Success::Success,
            changed,
            node: node_out(net, ix, true),
        })
    })
}

// ---------------------------------------------------------------- remove_node

/// Parameters of `network_remove_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveNodeParams {
    /// Name of the network.
    pub network_name: String,
    /// ID of the node to remove, with every edge into or out of it.
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
    ctx.registry.write(&p.network_name, |net| {
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
    /// Name of the network.
    pub network_name: String,
    /// The edge to remove, by its id (from network_add_edge or network_list_edges).
    #[serde(default)]
    pub edge_id: Option<u64>,
    /// Instead of edge_id: remove every edge from this source node...
    #[serde(default)]
    pub source: Option<String>,
    /// ...to this target node (all parallel edges between them).
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
    ctx.registry.write(&p.network_name, |net| {
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
    /// Name of the network.
    pub network_name: String,
    /// Page size, 1 to 1000. Default 100.
    #[serde(default = "default_page")]
    pub limit: usize,
    /// The next_cursor of the previous page; omit for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
    /// Keep only nodes whose attributes equal all of these, e.g. {"status": "todo"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
    /// Keep only nodes whose id starts with this.
    #[serde(default)]
    pub id_prefix: Option<String>,
    /// Keep only nodes whose id contains this (case-insensitive).
    #[serde(default)]
    pub id_contains: Option<String>,
    /// Also return each node's data payload. Default false.
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
    /// True when more pages follow.
    pub truncated: bool,
    /// Pass this as cursor to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

fn list_nodes(ctx: &ToolContext<'_>, p: ListNodesParams) -> Result<ListNodesOutput> {
    let limit = check_limit(p.limit, MAX_PAGE)?;
    let offset = parse_cursor(&p.cursor)?;
    validate::attributes("attributes", &p.attributes)?;
    ctx.registry.read(&p.network_name, |net| {
        let filter = NodeFilter {
            attributes: p.attributes.clone(),
            id_prefix: p.id_prefix.clone(),
            id_contains: p.id_contains.clone(),
        };
        let mut total = 0;
        let mut nodes = Vec::new();
        for ix in net.matching_nodes(&filter) {
            if total >= offset && nodes.len() < limit {
                nodes.push(node_out(net, ix, p.include_data));
            }
            total += 1;
        }
        let next = next_cursor(offset, nodes.len(), total);
        Ok(ListNodesOutput {
            status: Success::Success,
            truncated: next.is_some(),
            next_cursor: next,
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
    /// Name of the network.
    pub network_name: String,
    /// Only the edges of this node (omit for all edges).
    #[serde(default)]
    pub node_id: Option<String>,
    /// With node_id: "out" (edges leaving it), "in" (edges entering it) or "both" (default).
    #[serde(default)]
    pub direction: Direction,
    /// Page size, 1 to 1000. Default 100.
    #[serde(default = "default_page")]
    pub limit: usize,
    /// The next_cursor of the previous page; omit for the first page.
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
    /// True when more pages follow.
    pub truncated: bool,
    /// Pass this as cursor to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

fn list_edges(ctx: &ToolContext<'_>, p: ListEdgesParams) -> Result<ListEdgesOutput> {
    let limit = check_limit(p.limit, MAX_PAGE)?;
    let offset = parse_cursor(&p.cursor)?;
    ctx.registry.read(&p.network_name, |net| {
        let node = match &p.node_id {
            Some(id) => {
                validate::id("node_id", id)?;
                Some((net.require("node_id", id)?, p.direction))
            }
            None => None,
        };
        let all = net.edges_of(node);
        let total = all.len();
        let edges: Vec<EdgeOut> = all
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(EdgeOut::from)
            .collect();
        let next = next_cursor(offset, edges.len(), total);
        Ok(ListEdgesOutput {
            status: Success::Success,
            truncated: next.is_some(),
            next_cursor: next,
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
    /// Payload data (any JSON).
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
    /// Name of the target network.
    pub network_name: String,
    /// The nodes to add, 1 to 10000.
    pub nodes: Vec<NodeItem>,
    /// Also return each item's outcome ("success" or "duplicate"), in item order. Default false.
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
    let outcomes = ctx.registry.write(&p.network_name, |net| {
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
    /// Edge weight, a finite number. Default 1.0.
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
    /// Name of the target network.
    pub network_name: String,
    /// The edges to add, 1 to 10000, each source -> target.
    pub edges: Vec<EdgeItem>,
    /// Create endpoint nodes that do not exist yet (as plain nodes) instead of failing. Default false.
    #[serde(default)]
    pub create_missing_nodes: bool,
    /// Also return the new edge ids, in item order. Default false.
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
    let outcome = ctx.registry.write(&p.network_name, |net| {
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
                description: "Get one node: its data payload, attributes, and in/out degree (in a depends-on graph, in_degree counts what depends on it and out_degree what it depends on). Use network_get_neighbors for the connected nodes.",
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
                description: "Change an existing node's data and attributes. mode \"merge\" (default) sets the given attribute keys and keeps the others; \"replace\" makes the given map the whole attribute set; remove_attributes deletes keys; data replaces the payload (null clears it, omitted keeps it). Idempotent. Typical use: mark progress, e.g. attributes {\"status\": \"done\"}.",
                toolset: Toolset::Edit,
                effect: Effect::Write { idempotent: true },
                long_running: false,
            },
            update_node,
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
                description: "Remove one edge by edge_id, or every edge source -> target (all parallel edges between them) when given source and target. Reports the removed edges and their count. Use network_list_edges or network_get_neighbors with include_edges to find edge ids.",
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
                description: "List a network's nodes page by page (limit, cursor), with attributes and degrees, optionally filtered by attribute equality (e.g. {\"status\": \"todo\"}), id prefix or id substring. Returns the total number of matches. Prefer the analysis tools over paging through a large network.",
                toolset: Toolset::Edit,
                effect: Effect::Read,
                long_running: false,
            },
            list_nodes,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_list_edges",
                title: "List edges",
                description: "List edges page by page (limit, cursor) with ids, weights and attributes: all edges, or those of one node (node_id with direction out, in or both). Returns the total count.",
                toolset: Toolset::Edit,
                effect: Effect::Read,
                long_running: false,
            },
            list_edges,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_add_nodes",
                title: "Add many nodes",
                description: "Add up to 10000 nodes in one atomic call: if any item is invalid, nothing is added and the error names the item's index. Existing IDs are duplicates (unchanged, counted). Use this to load a plan in one call, then network_add_edges.",
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
                description: "Add up to 10000 directed edges source -> target in one atomic call: if any item is invalid (unknown node, bad weight...), nothing is added and the error names the item's index. Like network_add_edge, each item adds a new edge (not idempotent). Set create_missing_nodes to create unknown endpoints on the fly. Convention: A -> B reads \"A depends on B\".",
                toolset: Toolset::Edit,
                effect: Effect::Write { idempotent: false },
                long_running: true,
            },
            add_edges,
        ),
    ]
}
