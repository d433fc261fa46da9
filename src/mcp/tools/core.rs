//! The three tools of the seed contract: `network_get_neighbors`, `network_add_node`,
//! `network_add_edge`. Names, parameters, output fields and status words are binding.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::common::{
    CreateStatus, EdgeOut, Success, any_json_schema, check_limit, flat_attributes_schema,
    no_attributes,
};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::{AddNodeOutcome, DEFAULT_WEIGHT, Direction, EdgeSpec, NodeSpec};

/// The most neighbors one call returns.
pub const MAX_NEIGHBORS_LIMIT: usize = 10_000;
const DEFAULT_NEIGHBORS_LIMIT: usize = 1_000;

fn default_neighbors_limit() -> usize {
    DEFAULT_NEIGHBORS_LIMIT
}

fn default_weight() -> f64 {
    DEFAULT_WEIGHT
}

/// Parameters of `network_get_neighbors`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetNeighborsParams {
    /// Name of the network to query, e.g. "module_deps".
    pub network_name: String,
    /// ID of the node whose neighbors to retrieve, e.g. "agents".
    pub node_id: String,
    /// Which edges to follow: "both" (default: every node joined by an edge either way),
    /// "out" (targets of the node's edges; in a depends-on graph, what it depends on) or
    /// "in" (sources of edges into it; what depends on it).
    #[serde(default)]
    pub direction: Direction,
    /// Also return the edges themselves (ids, weights, attributes). Default false.
    #[serde(default)]
    pub include_edges: bool,
    /// At most this many neighbors (and edges) are returned, 1 to 10000. Default 1000.
    #[serde(default = "default_neighbors_limit")]
    pub limit: usize,
}

/// Result of `network_get_neighbors`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GetNeighborsOutput {
    /// "success".
    pub status: Success,
    /// The queried node ID.
    pub node_id: String,
    /// Neighboring node IDs, each once: targets of outgoing edges first, then sources of
    /// incoming edges, each in edge-insertion order.
    pub neighbors: Vec<String>,
    /// Number of neighbors (all of them, even when `neighbors` was cut at `limit`).
    pub count: usize,
    /// True when `neighbors` holds only the first `limit` of `count`.
    pub truncated: bool,
    /// The direction that was followed.
    pub direction: Direction,
    /// The incident edges in the same direction, when `include_edges` was true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<Vec<EdgeOut>>,
}

fn get_neighbors(ctx: &ToolContext<'_>, p: GetNeighborsParams) -> Result<GetNeighborsOutput> {
    let limit = check_limit(p.limit, MAX_NEIGHBORS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        crate::network::validate::id("node_id", &p.node_id)?;
        let ix = net.require("node_id", &p.node_id)?;
        let all = net.neighbor_indices(ix, p.direction);
        let count = all.len();
        let mut truncated = count > limit;
        let neighbors = all
            .into_iter()
            .take(limit)
            .map(|n| net.id_at(n).to_string())
            .collect();
        let edges = p.include_edges.then(|| {
            let edges = net.incident_edges(ix, p.direction);
            truncated |= edges.len() > limit;
            edges.into_iter().take(limit).map(EdgeOut::from).collect()
        });
        Ok(GetNeighborsOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            neighbors,
            count,
            truncated,
            direction: p.direction,
            edges,
        })
    })
}

/// Parameters of `network_add_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddNodeParams {
    /// Name of the target network, e.g. "module_deps". It must exist (network_create).
    pub network_name: String,
    /// Unique identifier for the new node, e.g. "networks": 1 to 256 bytes, no control characters.
    pub node_id: String,
    /// Payload data for the node: any JSON, e.g. "Core" or {"owner": "ana"}, nested at
    /// most 64 levels deep.
    #[serde(default)]
    #[schemars(schema_with = "any_json_schema")]
    pub data: Option<Value>,
    /// Arbitrary flat key-value attributes, e.g. {"layer": 2, "status": "todo"}.
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
    let outcome = ctx.registry.write(&p.network_name, |net| {
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

/// Parameters of `network_add_edge`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddEdgeParams {
    /// Name of the target network, e.g. "module_deps".
    pub network_name: String,
    /// Source node ID, e.g. "agents". The node must exist.
    pub source: String,
    /// Target node ID, e.g. "logging". The node must exist.
    pub target: String,
    /// Edge weight, a finite number (cost, distance or duration). Default 1.0.
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// Arbitrary flat key-value attributes, e.g. {"relation": "depends_on"}.
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
    let edge_id = ctx.registry.write(&p.network_name, |net| {
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

/// The seed tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_get_neighbors",
                title: "Get node neighbors",
                description: "Query the neighbors of a node in a network. Returns all node IDs connected to the specified node via inbound or outbound edges (each once), with their count. Useful for exploring graph topology, dependency analysis and traversal planning. Edges point source -> target; in a depends-on graph an edge A -> B means \"A depends on B\", so direction \"out\" lists what the node depends on and \"in\" lists what depends on it. Set include_edges to also get edge ids and weights.",
                toolset: Toolset::Core,
                effect: Effect::Read,
                long_running: false,
            },
            get_neighbors,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_add_node",
                title: "Add a node",
                description: "Add a node to an existing network, with optional payload `data` (any JSON) and flat `attributes`. Idempotent: adding an ID that already exists changes nothing and returns status \"duplicate\" (not an error). The network must exist: create it with network_create. To add many nodes at once, use network_add_nodes if available.",
                toolset: Toolset::Core,
                effect: Effect::Write { idempotent: true },
                long_running: false,
            },
            add_node,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_add_edge",
                title: "Add an edge",
                description: "Add a directed, weighted edge source -> target between two existing nodes. Convention: in a dependency graph, an edge A -> B reads \"A depends on B\" (e.g. agents -> logging). Not idempotent: each call adds a new edge, even if an identical one exists (parallel edges and self-loops are allowed); the result carries the new edge's edge_id. Both nodes must exist first (network_add_node). weight defaults to 1.0.",
                toolset: Toolset::Core,
                effect: Effect::Write { idempotent: false },
                long_running: false,
            },
            add_edge,
        ),
    ]
}
