//! The three tools of the seed contract: `network_get_neighbors`, `network_add_node`,
//! `network_add_edge`. Names, parameters, output fields and status words are binding.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tracing::info;

use super::common::{
    CreateStatus, EdgeOut, Paging, Success, any_json_schema, check_limit, flat_attributes_schema,
    no_attributes,
};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::{AddNodeOutcome, DEFAULT_WEIGHT, Direction, EdgeSpec, NodeSpec};

/// The most neighbors one call returns.
pub const MAX_NEIGHBORS_LIMIT: usize = 10_000;
/// Keeps a default reply within about 8 KB (see BENCHMARKS.md).
const DEFAULT_NEIGHBORS_LIMIT: usize = 100;

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
    /// Name of the network, e.g. "module_deps".
    pub network_name: String,
    /// ID of the node whose neighbors to retrieve, e.g. "agents".
    pub node_id: String,
    /// "out": what it depends on. "in": what depends on it. "both": either.
    #[serde(default)]
    pub direction: Direction,
    /// Also return the edges (ids, weights, attributes).
    #[serde(default)]
    pub include_edges: bool,
    /// Neighbors (and edges) per page.
    #[serde(default = "default_neighbors_limit")]
    #[schemars(range(min = 1, max = MAX_NEIGHBORS_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Result of `network_get_neighbors`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GetNeighborsOutput {
    /// "success".
    pub status: Success,
    /// The queried node ID.
    pub node_id: String,
    /// This page of the neighboring node IDs, each once: targets of outgoing edges
    /// first, then sources of incoming edges, each in edge-insertion order.
    pub neighbors: Vec<String>,
    /// Number of neighbors (all of them, also when `neighbors` is one page of them).
    pub count: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
    /// The direction that was followed.
    pub direction: Direction,
    /// This page of the incident edges in the same direction, when `include_edges` was true
    /// (paged alongside `neighbors`: the same offset and limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<Vec<EdgeOut>>,
    /// Number of those edges, when `include_edges` was true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge_count: Option<usize>,
}

fn get_neighbors(ctx: &ToolContext<'_>, p: GetNeighborsParams) -> Result<GetNeighborsOutput> {
    let limit = check_limit(p.limit, MAX_NEIGHBORS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        crate::network::validate::id("node_id", &p.node_id)?;
        let ix = net.require("node_id", &p.node_id)?;
        let query = (&p.node_id, p.direction, p.include_edges);
        let page = Page::open(
            ctx,
            net,
            "network_get_neighbors",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_NEIGHBORS_LIMIT,
        )?;
        let all = net.neighbor_indices(ix, p.direction);
        let count = all.len();
        let incident = p.include_edges.then(|| net.incident_edges(ix, p.direction));
        let total = count.max(incident.as_ref().map_or(0, Vec::len));
        // Neighbors and edges share the page's positions: position i holds the
        // i-th of each (either may have run out), measured together.
        let none = Vec::new();
        let edge_list = incident.as_ref().unwrap_or(&none);
        let (neighbors, page_edges): (Vec<Option<String>>, Vec<Option<EdgeOut>>) = page
            .fill((page.offset..page.end().min(total)).map(|i| {
                (
                    all.get(i).map(|&n| net.id_at(n).to_string()),
                    edge_list.get(i).cloned().map(EdgeOut::from),
                )
            }))
            .into_iter()
            .unzip();
        let neighbors: Vec<String> = neighbors.into_iter().flatten().collect();
        let (edges, edge_count) = match &incident {
            Some(list) => (
                Some(page_edges.into_iter().flatten().collect()),
                Some(list.len()),
            ),
            None => (None, None),
        };
        Ok(GetNeighborsOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            paging: Paging::of(&page, neighbors.len(), Some(count), page.end() < total),
            neighbors,
            count,
            direction: p.direction,
            edges,
            edge_count,
        })
    })
}

/// Parameters of `network_add_node`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddNodeParams {
    /// Name of the network, e.g. "module_deps".
    pub network_name: String,
    /// Unique node ID, e.g. "networks": 1 to 256 bytes, no control characters.
    pub node_id: String,
    /// Payload: any JSON, e.g. {"owner": "ana"}, nested at most 64 levels deep.
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

/// Parameters of `network_add_edge`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddEdgeParams {
    /// Name of the network, e.g. "module_deps".
    pub network_name: String,
    /// Source node ID, e.g. "agents".
    pub source: String,
    /// Target node ID, e.g. "logging".
    pub target: String,
    /// Edge weight: cost, distance or duration.
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

/// The seed tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_get_neighbors",
                title: "Get node neighbors",
                description: "Query the neighbors of a node in a network. Returns all node IDs connected to the specified node via inbound or outbound edges (each once), paged by limit and cursor. Edges point source -> target: in a depends-on graph \"out\" lists what the node depends on and \"in\" what depends on it.",
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
                description: "Add a node, with optional payload data (any JSON) and flat attributes, to an existing network. Idempotent: an existing ID changes nothing and gives status \"duplicate\". For many nodes use network_add_nodes.",
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
                description: "Add a directed, weighted edge source -> target between existing nodes. In a dependency graph A -> B reads \"A depends on B\". Not idempotent: each call adds a new edge (parallel edges and self-loops are allowed) and returns its edge_id.",
                toolset: Toolset::Core,
                effect: Effect::Write { idempotent: false },
                long_running: false,
            },
            add_edge,
        ),
    ]
}
