//! Analysis tools: the questions a planning agent asks of its graph. Each answers
//! within a bound (`limit`, `max_depth`) and says when it cut (`truncated`).

use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{Success, check_limit, check_range, flat_attributes_schema, no_attributes};
use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::traversal::TraversalOrder;
use crate::network::{Direction, Network, Order, TraverseOptions, Weighted, validate};

/// The largest `limit` any analysis tool accepts.
pub const MAX_ANALYSIS_LIMIT: usize = 10_000;

fn default_limit() -> usize {
    1_000
}
fn default_small_limit() -> usize {
    100
}
fn default_blocked_limit() -> usize {
    10
}
fn default_top_k() -> usize {
    5
}
fn default_true() -> bool {
    true
}
fn default_out() -> Direction {
    Direction::Out
}

fn ids(net: &Network, nodes: impl IntoIterator<Item = NodeIndex>) -> Vec<String> {
    nodes
        .into_iter()
        .map(|n| net.id_at(n).to_string())
        .collect()
}

fn require(net: &Network, field: &str, id: &str) -> Result<NodeIndex> {
    validate::id(field, id)?;
    net.require(field, id)
}

/// [`require`] for a list: every id checked, then every unknown one named at once.
fn require_all(net: &Network, field: &str, ids: &[String]) -> Result<Vec<NodeIndex>> {
    for id in ids {
        validate::id(field, id)?;
    }
    net.require_all(field, ids.iter().map(String::as_str))
}

fn check_depth(max_depth: Option<usize>) -> Result<Option<usize>> {
    if max_depth == Some(0) {
        return Err(Error::InvalidValue {
            field: "max_depth".into(),
            reason:
                "0 would visit nothing beyond the start; give 1 or more, or omit it for no limit"
                    .into(),
        });
    }
    Ok(max_depth)
}

// ---------------------------------------------------------------- traverse

/// Parameters of `network_traverse`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraverseParams {
    /// Name of the network.
    pub network_name: String,
    /// One or more node IDs to start from (each at depth 0).
    pub start_nodes: Vec<String>,
    /// "bfs" (default: nearest first) or "dfs" (depth-first, preorder).
    #[serde(default)]
    pub order: TraversalOrder,
    /// "out" (default: follow edges forwards; in a depends-on graph, into what the starts depend on), "in" (backwards: what depends on them) or "both".
    #[serde(default = "default_out")]
    pub direction: Direction,
    /// Do not go deeper than this many edges from a start. Omit for no limit.
    #[serde(default)]
    pub max_depth: Option<usize>,
    /// Return at most this many visited nodes, 1 to 10000. Default 1000.
    #[serde(default = "default_limit")]
    pub limit: usize,
}

/// One visited node.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct VisitOut {
    /// The node ID.
    pub node_id: String,
    /// Edges from the nearest start (BFS) or depth in the DFS tree; 0 for a start.
    pub depth: usize,
    /// The node it was reached from; absent for a start. Follow parents to rebuild paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// Result of `network_traverse`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TraverseOutput {
    /// "success".
    pub status: Success,
    /// The visited nodes in visit order.
    pub visited: Vec<VisitOut>,
    /// Number of visited nodes returned.
    pub count: usize,
    /// True when the walk stopped at `limit` with more nodes left to visit.
    pub truncated: bool,
}

fn traverse(ctx: &ToolContext<'_>, p: TraverseParams) -> Result<TraverseOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let max_depth = check_depth(p.max_depth)?;
    if p.start_nodes.is_empty() {
        return Err(Error::InvalidValue {
            field: "start_nodes".into(),
            reason: "the list is empty; give at least one node ID".into(),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        let starts = require_all(net, "start_nodes", &p.start_nodes)?;
        let walk = net.traverse_by_index(
            &starts,
            TraverseOptions {
                order: p.order,
                direction: p.direction,
                max_depth,
                limit,
            },
        );
        let visited: Vec<VisitOut> = walk
            .visits
            .iter()
            .map(|v| VisitOut {
                node_id: net.id_at(v.node).to_string(),
                depth: v.depth,
                parent: v.parent.map(|n| net.id_at(n).to_string()),
            })
            .collect();
        Ok(TraverseOutput {
            status: Success::Success,
            count: visited.len(),
            visited,
            truncated: walk.truncated,
        })
    })
}

// ---------------------------------------------------------------- descendants / ancestors

/// Parameters of `network_descendants` and `network_ancestors`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClosureParams {
    /// Name of the network.
    pub network_name: String,
    /// The node to start from (not itself included in the answer).
    pub node_id: String,
    /// Only nodes at most this many edges away. Omit for no limit.
    #[serde(default)]
    pub max_depth: Option<usize>,
    /// Return at most this many nodes, 1 to 10000. Default 1000.
    #[serde(default = "default_limit")]
    pub limit: usize,
}

/// One reached node.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Reached {
    /// The node ID.
    pub node_id: String,
    /// The fewest edges between it and the start.
    pub distance: usize,
}

/// Result of `network_descendants` and `network_ancestors`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ClosureOutput {
    /// "success".
    pub status: Success,
    /// The start node.
    pub node_id: String,
    /// The reached nodes, nearest first (ties in discovery order).
    pub nodes: Vec<Reached>,
    /// How many nodes are reachable in all (within max_depth).
    pub total: usize,
    /// True when `nodes` holds only the first `limit` of `total`.
    pub truncated: bool,
}

fn closure(ctx: &ToolContext<'_>, p: ClosureParams, direction: Direction) -> Result<ClosureOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let max_depth = check_depth(p.max_depth)?;
    ctx.registry.read(&p.network_name, |net| {
        let start = require(net, "node_id", &p.node_id)?;
        let reach = net.reachable_by_index(start, direction, max_depth, limit);
        Ok(ClosureOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            nodes: reach
                .nodes
                .iter()
                .map(|&(n, distance)| Reached {
                    node_id: net.id_at(n).to_string(),
                    distance,
                })
                .collect(),
            total: reach.total,
            truncated: reach.truncated,
        })
    })
}

fn descendants(ctx: &ToolContext<'_>, p: ClosureParams) -> Result<ClosureOutput> {
    closure(ctx, p, Direction::Out)
}

fn ancestors(ctx: &ToolContext<'_>, p: ClosureParams) -> Result<ClosureOutput> {
    closure(ctx, p, Direction::In)
}

// ---------------------------------------------------------------- shortest_path

/// Parameters of `network_shortest_path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShortestPathParams {
    /// Name of the network.
    pub network_name: String,
    /// Node ID to start from.
    pub source: String,
    /// Node ID to reach, following edges forwards (source -> target direction).
    pub target: String,
    /// true (default): least total weight (Dijkstra; Bellman-Ford if any weight is negative). false: fewest edges.
    #[serde(default = "default_true")]
    pub weighted: bool,
}

/// Result of `network_shortest_path`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ShortestPathOutput {
    /// "success" (also when no path exists: see `found`).
    pub status: Success,
    /// False when target cannot be reached from source.
    pub found: bool,
    /// Start node ID.
    pub source: String,
    /// End node ID.
    pub target: String,
    /// Node IDs from source to target, both included (empty when not found).
    pub path: Vec<String>,
    /// The ids of the edges taken, in order.
    pub edge_ids: Vec<u64>,
    /// Sum of the taken edges' weights (absent when not found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_weight: Option<f64>,
    /// Number of edges taken (absent when not found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hops: Option<usize>,
    /// Whether weights were minimised (true) or hops (false).
    pub weighted: bool,
}

fn shortest_path(ctx: &ToolContext<'_>, p: ShortestPathParams) -> Result<ShortestPathOutput> {
    ctx.registry.read(&p.network_name, |net| {
        let from = require(net, "source", &p.source)?;
        let to = require(net, "target", &p.target)?;
        let found = net.shortest_path_by_index(from, to, Weighted::from_bool(p.weighted))?;
        let mut out = ShortestPathOutput {
            status: Success::Success,
            found: found.is_some(),
            source: p.source.clone(),
            target: p.target.clone(),
            path: Vec::new(),
            edge_ids: Vec::new(),
            total_weight: None,
            hops: None,
            weighted: p.weighted,
        };
        if let Some(path) = found {
            out.path = ids(net, path.nodes);
            out.edge_ids = path.edges;
            out.total_weight = Some(path.total_weight);
            out.hops = Some(path.hops);
        }
        Ok(out)
    })
}

// ---------------------------------------------------------------- topological_sort

/// Parameters of `network_topological_sort`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopoParams {
    /// Name of the network.
    pub network_name: String,
    /// false (default): every edge's source comes before its target. true: targets first — for a depends-on graph (A -> B = "A depends on B") this lists dependencies before what needs them, i.e. the order to do the work.
    #[serde(default)]
    pub reverse: bool,
    /// Return at most this many nodes in `order` and `layers`, 1 to 10000. Default 1000.
    #[serde(default = "default_limit")]
    pub limit: usize,
}

/// Result of `network_topological_sort`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TopoOutput {
    /// "success".
    pub status: Success,
    /// All node IDs in an order that respects every edge (the layers concatenated).
    pub order: Vec<String>,
    /// Groups that can run in parallel: layer k holds the nodes whose longest chain of predecessors has k edges. Each layer only needs the earlier layers.
    pub layers: Vec<Vec<String>>,
    /// Number of layers (the length of the longest chain, in nodes).
    pub layer_count: usize,
    /// Number of nodes in the network.
    pub node_count: usize,
    /// Whether `reverse` was applied.
    pub reverse: bool,
    /// True when order and layers were cut at `limit` nodes.
    pub truncated: bool,
}

fn topological_sort(ctx: &ToolContext<'_>, p: TopoParams) -> Result<TopoOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let sorted = net
            .topological_sort(Order::from_reverse(p.reverse))
            .map_err(|e| named_cycle(e, "a topological order"))?;
        let node_count = sorted.order.len();
        let mut budget = limit;
        let mut layers = Vec::new();
        for layer in &sorted.layers {
            if budget == 0 {
                break;
            }
            let take = layer.len().min(budget);
            budget -= take;
            layers.push(ids(net, layer[..take].iter().copied()));
        }
        Ok(TopoOutput {
            status: Success::Success,
            order: ids(net, sorted.order.iter().take(limit).copied()),
            layer_count: sorted.layers.len(),
            layers,
            node_count,
            reverse: p.reverse,
            truncated: node_count > limit,
        })
    })
}

/// Keeps the algorithm's cycle error but names the operation the caller asked for.
fn named_cycle(error: Error, operation: &str) -> Error {
    match error {
        Error::CycleDetected { cycle, .. } => Error::CycleDetected {
            operation: operation.to_string(),
            cycle,
        },
        other => other,
    }
}

// ---------------------------------------------------------------- find_cycles

/// Parameters of `network_find_cycles`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CyclesParams {
    /// Name of the network.
    pub network_name: String,
    /// Return at most this many cyclic groups, 1 to 10000. Default 100.
    #[serde(default = "default_small_limit")]
    pub limit: usize,
    /// List at most this many member nodes per group. Default 100.
    #[serde(default = "default_small_limit")]
    pub max_nodes_per_group: usize,
}

/// One group of nodes that all reach each other (a strongly connected component with a cycle).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CycleGroup {
    /// Number of nodes in the group.
    pub size: usize,
    /// Member node IDs (the first max_nodes_per_group, in insertion order).
    pub nodes: Vec<String>,
    /// One concrete cycle in edge direction: each node has an edge to the next, and the last to the first.
    pub cycle: Vec<String>,
}

/// Result of `network_find_cycles`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CyclesOutput {
    /// "success".
    pub status: Success,
    /// True when the network has no cycle at all.
    pub is_dag: bool,
    /// The cyclic groups (strongly connected components of 2+ nodes, and single nodes with a self-loop).
    pub groups: Vec<CycleGroup>,
    /// How many cyclic groups exist in all.
    pub total: usize,
    /// True when `groups` holds only the first `limit` of `total`.
    pub truncated: bool,
}

fn find_cycles(ctx: &ToolContext<'_>, p: CyclesParams) -> Result<CyclesOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let per_group = check_range(
        "max_nodes_per_group",
        p.max_nodes_per_group,
        MAX_ANALYSIS_LIMIT,
    )?;
    ctx.registry.read(&p.network_name, |net| {
        let cycles = net.find_cycles(limit);
        Ok(CyclesOutput {
            status: Success::Success,
            is_dag: cycles.total == 0,
            groups: cycles
                .components
                .iter()
                .map(|c| CycleGroup {
                    size: c.nodes.len(),
                    nodes: ids(net, c.nodes.iter().take(per_group).copied()),
                    cycle: ids(net, c.cycle.iter().copied()),
                })
                .collect(),
            total: cycles.total,
            truncated: cycles.truncated,
        })
    })
}

// ---------------------------------------------------------------- critical_path

/// Parameters of `network_critical_path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CriticalParams {
    /// Name of the network (it must have no cycle).
    pub network_name: String,
    /// Return at most this many nodes of the path, 1 to 10000. Default 1000.
    #[serde(default = "default_limit")]
    pub limit: usize,
}

/// Result of `network_critical_path`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CriticalOutput {
    /// "success".
    pub status: Success,
    /// Node IDs of the longest path by total weight, in edge direction.
    pub path: Vec<String>,
    /// The ids of its edges, in order.
    pub edge_ids: Vec<u64>,
    /// Its total weight (with weights as durations: the least time the whole plan can take).
    pub length: f64,
    /// Number of edges on the path.
    pub hops: usize,
    /// True when path and edge_ids were cut at `limit` nodes.
    pub truncated: bool,
}

fn critical_path(ctx: &ToolContext<'_>, p: CriticalParams) -> Result<CriticalOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let path = net
            .critical_path()
            .map_err(|e| named_cycle(e, "a critical path"))?;
        let hops = path.edges.len();
        Ok(CriticalOutput {
            status: Success::Success,
            truncated: path.nodes.len() > limit,
            path: ids(net, path.nodes.iter().take(limit).copied()),
            edge_ids: path
                .edges
                .into_iter()
                .take(limit.saturating_sub(1))
                .collect(),
            length: path.length,
            hops,
        })
    })
}

// ---------------------------------------------------------------- ready_nodes

/// Parameters of `network_ready_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadyParams {
    /// Name of the network.
    pub network_name: String,
    /// Node IDs that are done.
    #[serde(default)]
    pub done: Vec<String>,
    /// Also count as done every node whose attributes include all of these, e.g. {"status": "done"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub done_attributes: Map<String, Value>,
    /// Which neighbors are prerequisites: "out" (default, depends-on graph: A -> B means A needs B first) or "in" (precedence graph: A -> B means A comes before B).
    #[serde(default = "default_out")]
    pub prerequisites: Direction,
    /// Return at most this many ready nodes, 1 to 10000. Default 100.
    #[serde(default = "default_small_limit")]
    pub limit: usize,
    /// Return at most this many blocked nodes as examples, 1 to 10000. Default 10.
    #[serde(default = "default_blocked_limit")]
    pub blocked_limit: usize,
}

/// A node that cannot start yet.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct BlockedOut {
    /// The node ID.
    pub node_id: String,
    /// Its prerequisites that are not done yet.
    pub waiting_on: Vec<String>,
}

/// Result of `network_ready_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReadyOutput {
    /// "success".
    pub status: Success,
    /// Nodes not done whose prerequisites are all done: what can start now (insertion order).
    pub ready: Vec<String>,
    /// How many nodes are ready in all.
    pub ready_total: usize,
    /// Examples of nodes still waiting, with what they wait on.
    pub blocked: Vec<BlockedOut>,
    /// How many nodes are blocked in all.
    pub blocked_total: usize,
    /// How many nodes count as done.
    pub done_total: usize,
    /// True when ready or blocked was cut at its limit.
    pub truncated: bool,
}

fn ready_nodes(ctx: &ToolContext<'_>, p: ReadyParams) -> Result<ReadyOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let blocked_limit = check_range("blocked_limit", p.blocked_limit, MAX_ANALYSIS_LIMIT)?;
    validate::attributes("done_attributes", &p.done_attributes)?;
    ctx.registry.read(&p.network_name, |net| {
        let mut done = vec![false; net.graph().node_bound()];
        for ix in require_all(net, "done", &p.done)? {
            done[ix.index()] = true;
        }
        if !p.done_attributes.is_empty() {
            for ix in net.node_indices() {
                let attributes = &net.graph()[ix].attributes;
                if p.done_attributes
                    .iter()
                    .all(|(k, v)| attributes.get(k) == Some(v))
                {
                    done[ix.index()] = true;
                }
            }
        }
        let r = net.ready_nodes_by_index(&done, p.prerequisites, limit, blocked_limit);
        Ok(ReadyOutput {
            status: Success::Success,
            truncated: r.ready_total > r.ready.len() || r.blocked_total > r.blocked.len(),
            ready: ids(net, r.ready.iter().copied()),
            ready_total: r.ready_total,
            blocked: r
                .blocked
                .iter()
                .map(|b| BlockedOut {
                    node_id: net.id_at(b.node).to_string(),
                    waiting_on: ids(net, b.waiting_on.iter().copied()),
                })
                .collect(),
            blocked_total: r.blocked_total,
            done_total: r.done_total,
        })
    })
}

// ---------------------------------------------------------------- describe

/// Parameters of `network_describe`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeParams {
    /// Name of the network.
    pub network_name: String,
    /// List at most this many sources and sinks, 1 to 10000. Default 100.
    #[serde(default = "default_small_limit")]
    pub list_limit: usize,
    /// How many top nodes by in-degree and by out-degree, 1 to 10000. Default 5.
    #[serde(default = "default_top_k")]
    pub top_k: usize,
}

/// A node with a degree.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Degree {
    /// The node ID.
    pub node_id: String,
    /// Its degree.
    pub degree: usize,
}

/// Result of `network_describe`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DescribeOutput {
    /// "success".
    pub status: Success,
    /// The network's name.
    pub network_name: String,
    /// Its description, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Number of nodes.
    pub nodes: usize,
    /// Number of edges.
    pub edges: usize,
    /// edges / (nodes * (nodes - 1)); 0 for fewer than 2 nodes.
    pub density: f64,
    /// True when there is no cycle (a topological order exists).
    pub is_dag: bool,
    /// Number of weakly connected components (pieces when edge direction is ignored).
    pub weakly_connected_components: usize,
    /// Number of self-loop edges.
    pub self_loops: usize,
    /// Nodes nothing points to (in a depends-on graph: nothing depends on them, e.g. final goals).
    pub sources: Vec<String>,
    /// How many sources exist.
    pub sources_total: usize,
    /// Nodes that point to nothing (in a depends-on graph: no dependencies; they can start first).
    pub sinks: Vec<String>,
    /// How many sinks exist.
    pub sinks_total: usize,
    /// Nodes with no edge at all.
    pub isolated_total: usize,
    /// Nodes with the most incoming edges (most depended upon).
    pub top_in_degree: Vec<Degree>,
    /// Nodes with the most outgoing edges (most dependencies).
    pub top_out_degree: Vec<Degree>,
    /// Sum of all edge weights.
    pub total_weight: f64,
    /// Smallest edge weight (absent without edges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_weight: Option<f64>,
    /// Largest edge weight (absent without edges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_weight: Option<f64>,
    /// True when sources or sinks were cut at list_limit.
    pub truncated: bool,
}

fn describe(ctx: &ToolContext<'_>, p: DescribeParams) -> Result<DescribeOutput> {
    let list_limit = check_range("list_limit", p.list_limit, MAX_ANALYSIS_LIMIT)?;
    let top_k = check_range("top_k", p.top_k, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let d = net.describe(list_limit, top_k);
        let degrees = |list: &[(NodeIndex, usize)]| {
            list.iter()
                .map(|&(n, degree)| Degree {
                    node_id: net.id_at(n).to_string(),
                    degree,
                })
                .collect()
        };
        Ok(DescribeOutput {
            status: Success::Success,
            network_name: p.network_name.clone(),
            description: net.description().map(str::to_string),
            nodes: d.nodes,
            edges: d.edges,
            density: d.density,
            is_dag: d.is_dag,
            weakly_connected_components: d.weakly_connected_components,
            self_loops: d.self_loops,
            truncated: d.sources_total > d.sources.len() || d.sinks_total > d.sinks.len(),
            sources: ids(net, d.sources.iter().copied()),
            sources_total: d.sources_total,
            sinks: ids(net, d.sinks.iter().copied()),
            sinks_total: d.sinks_total,
            isolated_total: d.isolated_total,
            top_in_degree: degrees(&d.top_in_degree),
            top_out_degree: degrees(&d.top_out_degree),
            total_weight: d.total_weight,
            min_weight: d.min_weight,
            max_weight: d.max_weight,
        })
    })
}

/// The analysis tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_describe",
                title: "Describe a network",
                description: "Summarise a network in one call: node and edge counts, density, whether it is a DAG (acyclic), weakly connected components, self-loops, sources and sinks (bounded lists with totals), the top nodes by in-degree and out-degree, and weight range. Start here to understand a network before querying it.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            describe,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_traverse",
                title: "Traverse from nodes",
                description: "Walk the network breadth-first (bfs) or depth-first (dfs) from one or more start nodes, following edges out (default), in, or both, up to max_depth edges and limit nodes. Returns each visited node with its depth and parent, so paths can be rebuilt. Use network_descendants / network_ancestors for plain reachability.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            traverse,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_descendants",
                title: "Everything a node reaches",
                description: "All nodes reachable from a node by following edges forwards, with the distance (edges) of each, nearest first. In a depends-on graph (A -> B = A depends on B) this is everything the node needs, directly or transitively. Bounded by max_depth and limit; total counts all.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            descendants,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_ancestors",
                title: "Everything that reaches a node",
                description: "All nodes that reach a node by following edges forwards (i.e. walking edges backwards from it), with distances, nearest first. In a depends-on graph this is impact analysis: everything affected if the node changes. Bounded by max_depth and limit; total counts all.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            ancestors,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_shortest_path",
                title: "Shortest path",
                description: "Find the cheapest path source -> target following edge direction. weighted true (default): least total weight, by Dijkstra, or Bellman-Ford when negative weights exist (a negative cycle is reported as an error). weighted false: fewest edges. Returns the node path, the edge ids, the total weight and the hop count. When target is unreachable the call succeeds with found: false.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            shortest_path,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_topological_sort",
                title: "Order and parallel layers",
                description: "Order all nodes so that every edge's source comes before its target, and group them into layers that can run in parallel (each layer needs only earlier layers). For a depends-on graph pass reverse: true to get dependencies first: the order in which to do the work, with each layer a batch of tasks that can run at the same time. A cycle makes ordering impossible: the error names one concrete cycle to break.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            topological_sort,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_find_cycles",
                title: "Find cycles",
                description: "Find every group of nodes caught in a cycle (strongly connected components with 2+ nodes, and self-loops), each with one concrete cycle in edge direction. is_dag is true when there is none. Use it when network_topological_sort reports a cycle, to see all of them.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            find_cycles,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_critical_path",
                title: "Critical path",
                description: "Find the longest path by total edge weight in an acyclic network, treating weights as durations: the chain of steps that determines the least total time of a plan. Returns the node path, edge ids and total length. A cycle gives an error naming one.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            critical_path,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_ready_nodes",
                title: "What can start now",
                description: "Given what is done (a list of node IDs, and/or an attribute match such as {\"status\": \"done\"}), return the nodes not yet done whose prerequisites are all done: what can start now. Also counts the blocked nodes and shows examples with what they wait on. Prerequisites are a node's out-neighbors by default (depends-on graph: A -> B = A needs B); use prerequisites \"in\" when edges mean \"comes before\".",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: false,
            },
            ready_nodes,
        ),
    ]
}
