//! Analysis tools: the questions a planning agent asks of its graph. Each answers
//! within a bound (`limit`, `max_depth`) and says when it cut (`truncated`).

use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{
    Paging, Success, check_limit, check_range, flat_attributes_schema, no_attributes,
};
use crate::error::{Error, Result};
use crate::mcp::page::{Page, fit, halve, shrink_to};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::traversal::TraversalOrder;
use crate::network::{Direction, Network, Order, TraverseOptions, Weighted, validate};

/// The largest `limit` any analysis tool accepts.
pub const MAX_ANALYSIS_LIMIT: usize = 10_000;

/// Default page sizes keep a default reply within about 8 KB (2k tokens) on a
/// network the size of Debian's package graph (68k nodes, 300k edges): see
/// BENCHMARKS.md, "Default reply sizes".
fn default_limit() -> usize {
    100
}
fn default_group_limit() -> usize {
    10
}
fn default_members_limit() -> usize {
    20
}
fn default_blocked_limit() -> usize {
    5
}
fn default_list_limit() -> usize {
    20
}
/// A blocked node lists at most this many of the prerequisites it waits on.
const MAX_WAITING_LISTED: usize = 20;
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
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Node IDs to start from (depth 0).
    pub start_nodes: Vec<String>,
    /// "bfs": nearest first. "dfs": depth-first preorder.
    #[serde(default)]
    pub order: TraversalOrder,
    /// "out" follows edges forwards (what the starts depend on), "in" backwards (what depends on them).
    #[serde(default = "default_out")]
    pub direction: Direction,
    /// Go at most this many edges from a start; omit for no limit.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_depth: Option<usize>,
    /// Visited nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
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
    /// This page of the visited nodes, in visit order.
    pub visited: Vec<VisitOut>,
    /// Number of visited nodes returned.
    pub count: usize,
    /// How to get the rest of the walk.
    #[serde(flatten)]
    pub paging: Paging,
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
        let query = (&p.start_nodes, p.order, p.direction, max_depth);
        let page = Page::open(
            ctx,
            net,
            "network_traverse",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        // The walk is deterministic, so the page is the slice of it that ends at
        // the page's end: a walk to there, cut at the page's start.
        let walk = net.traverse_by_index(
            &starts,
            TraverseOptions {
                order: p.order,
                direction: p.direction,
                max_depth,
                limit: page.end(),
            },
        );
        let visited: Vec<VisitOut> = page.fill(page.slice(&walk.visits).iter().map(|v| VisitOut {
            node_id: net.id_at(v.node).to_string(),
            depth: v.depth,
            parent: v.parent.map(|n| net.id_at(n).to_string()),
        }));
        Ok(TraverseOutput {
            status: Success::Success,
            count: visited.len(),
            paging: Paging::of(&page, visited.len(), None, walk.truncated),
            visited,
        })
    })
}

// ---------------------------------------------------------------- descendants / ancestors

/// Parameters of `network_descendants` and `network_ancestors`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClosureParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The start node (not itself in the answer).
    pub node_id: String,
    /// Only nodes at most this many edges away; omit for all.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_depth: Option<usize>,
    /// Nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
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
    /// This page of the reached nodes, nearest first (ties in discovery order).
    pub nodes: Vec<Reached>,
    /// How many nodes are reachable in all (within max_depth).
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn closure(
    ctx: &ToolContext<'_>,
    p: ClosureParams,
    tool: &str,
    direction: Direction,
) -> Result<ClosureOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let max_depth = check_depth(p.max_depth)?;
    ctx.registry.read(&p.network_name, |net| {
        let start = require(net, "node_id", &p.node_id)?;
        let query = (&p.node_id, max_depth);
        let page = Page::open(
            ctx,
            net,
            tool,
            query,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let reach = net.reachable_by_index(start, direction, max_depth, page.end());
        let nodes: Vec<Reached> = page.fill(page.slice(&reach.nodes).iter().map(
            |&(n, distance)| Reached {
                node_id: net.id_at(n).to_string(),
                distance,
            },
        ));
        Ok(ClosureOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            paging: Paging::of_total(&page, nodes.len(), reach.total),
            nodes,
            total: reach.total,
        })
    })
}

fn descendants(ctx: &ToolContext<'_>, p: ClosureParams) -> Result<ClosureOutput> {
    closure(ctx, p, "network_descendants", Direction::Out)
}

fn ancestors(ctx: &ToolContext<'_>, p: ClosureParams) -> Result<ClosureOutput> {
    closure(ctx, p, "network_ancestors", Direction::In)
}

// ---------------------------------------------------------------- shortest_path

/// Parameters of `network_shortest_path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShortestPathParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Node ID to start from.
    pub source: String,
    /// Node ID to reach, along edge direction.
    pub target: String,
    /// true: least total weight. false: fewest edges.
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
    /// True when path and edge_ids were cut at the reply size bound (hops counts every edge); continue from the last listed node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
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
            cut: false,
        };
        if let Some(path) = found {
            // Measured node by node: a path of a million long ids is never built whole.
            let mut left = ctx.limits.reply_item_bytes();
            let (nodes, cut) = fit(
                path.nodes
                    .iter()
                    .zip(path.edges.iter().map(Some).chain([None]))
                    .map(|(&n, edge)| (net.id_at(n), edge.copied())),
                &mut left,
            );
            let (path_ids, edges): (Vec<&str>, Vec<Option<u64>>) = nodes.into_iter().unzip();
            out.path = path_ids.into_iter().map(String::from).collect();
            out.edge_ids = edges.into_iter().flatten().collect();
            out.cut = cut;
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
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// true: targets before sources; in a depends-on graph (A -> B = A depends on B), dependencies first: the order to do the work.
    #[serde(default)]
    pub reverse: bool,
    /// Nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Result of `network_topological_sort`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TopoOutput {
    /// "success".
    pub status: Success,
    /// This page of an order of all node IDs that respects every edge (the layers concatenated).
    pub order: Vec<String>,
    /// The same page split by layer: `layers[i]` is (part of) layer `first_layer + i`. Layer k holds the nodes whose longest chain of predecessors has k edges; each layer needs only earlier layers, so its nodes can run in parallel.
    pub layers: Vec<Vec<String>>,
    /// The number of the page's first layer (0 on the first page).
    pub first_layer: usize,
    /// Number of layers (the length of the longest chain, in nodes).
    pub layer_count: usize,
    /// Number of nodes in the network.
    pub node_count: usize,
    /// Whether `reverse` was applied.
    pub reverse: bool,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn topological_sort(ctx: &ToolContext<'_>, p: TopoParams) -> Result<TopoOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let sorted = net
            .topological_sort(Order::from_reverse(p.reverse))
            .map_err(|e| named_cycle(e, "a topological order"))?;
        let page = Page::open(
            ctx,
            net,
            "network_topological_sort",
            p.reverse,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let node_count = sorted.order.len();
        // Each node is listed twice, in `order` and in its layer: measured as a
        // pair, so that the page stops where both fit.
        let order: Vec<String> = page
            .fill(
                page.slice(&sorted.order)
                    .iter()
                    .map(|&n| [net.id_at(n), net.id_at(n)]),
            )
            .into_iter()
            .map(|[id, _]| id.to_string())
            .collect();
        let end = page.offset + order.len();
        // The layers that overlap [offset, end) of the concatenated order.
        let mut layers = Vec::new();
        let mut first_layer = sorted.layers.len();
        let mut layer_start = 0;
        for (number, layer) in sorted.layers.iter().enumerate() {
            let layer_end = layer_start + layer.len();
            let from = page.offset.max(layer_start);
            let to = end.min(layer_end);
            if from < to {
                first_layer = first_layer.min(number);
                layers.push(ids(
                    net,
                    layer[from - layer_start..to - layer_start].iter().copied(),
                ));
            }
            if layer_end >= end {
                break;
            }
            layer_start = layer_end;
        }
        Ok(TopoOutput {
            status: Success::Success,
            paging: Paging::of_total(&page, order.len(), node_count),
            order,
            layer_count: sorted.layers.len(),
            first_layer: first_layer.min(sorted.layers.len()),
            layers,
            node_count,
            reverse: p.reverse,
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
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Cyclic groups per page.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// Most member nodes, and cycle nodes, listed per group.
    #[serde(default = "default_members_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub max_nodes_per_group: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One group of nodes that all reach each other (a strongly connected component with a cycle).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CycleGroup {
    /// Number of nodes in the group.
    pub size: usize,
    /// Member node IDs (the first max_nodes_per_group, in insertion order).
    pub nodes: Vec<String>,
    /// One concrete cycle in edge direction: each node has an edge to the next, and the last to the first (its first max_nodes_per_group nodes).
    pub cycle: Vec<String>,
    /// Number of nodes on that cycle.
    pub cycle_length: usize,
}

/// Result of `network_find_cycles`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CyclesOutput {
    /// "success".
    pub status: Success,
    /// True when the network has no cycle at all.
    pub is_dag: bool,
    /// This page of the cyclic groups (strongly connected components of 2+ nodes, and single nodes with a self-loop).
    pub groups: Vec<CycleGroup>,
    /// How many cyclic groups exist in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn find_cycles(ctx: &ToolContext<'_>, p: CyclesParams) -> Result<CyclesOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let per_group = check_range(
        "max_nodes_per_group",
        p.max_nodes_per_group,
        MAX_ANALYSIS_LIMIT,
    )?;
    ctx.registry.read(&p.network_name, |net| {
        let page = Page::open(ctx, net,
            "network_find_cycles",
            per_group,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let cycles = net.find_cycles(page.end());
        let groups: Vec<CycleGroup> = page.fill_cut(
            page.slice(&cycles.components).iter().map(|c| CycleGroup {
                size: c.nodes.len(),
                nodes: ids(net, c.nodes.iter().take(per_group).copied()),
                cycle: ids(net, c.cycle.iter().take(per_group).copied()),
                cycle_length: c.cycle.len(),
            }),
            // Cut like max_nodes_per_group cuts: size and cycle_length still
            // count every node, and the note below says so.
            |mut group, bytes| {
                shrink_to(&mut group, bytes, |g| halve(&mut g.nodes) | halve(&mut g.cycle));
                group
            },
        );
        let mut paging = Paging::of_total(&page, groups.len(), cycles.total);
        if groups.iter().any(|g| g.nodes.len() < g.size || g.cycle.len() < g.cycle_length) {
            paging.add_note(format!(
                "Each group lists at most {per_group} members and cycle nodes, fewer when the reply size bound cuts it (size and cycle_length count them all); raise max_nodes_per_group (at most {MAX_ANALYSIS_LIMIT}), or take the group apart with network_copy, to see more."
            ));
        }
        Ok(CyclesOutput {
            status: Success::Success,
            is_dag: cycles.total == 0,
            paging,
            groups,
            total: cycles.total,
        })
    })
}

// ---------------------------------------------------------------- critical_path

/// Parameters of `network_critical_path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CriticalParams {
    /// Name of the network (acyclic).
    pub network_name: String,
    /// Path nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Result of `network_critical_path`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CriticalOutput {
    /// "success".
    pub status: Success,
    /// This page of the node IDs of the longest path by total weight, in edge direction.
    pub path: Vec<String>,
    /// The ids of the edges leaving this page's nodes along the path, in order.
    pub edge_ids: Vec<u64>,
    /// Its total weight (with weights as durations: the least time the whole plan can take).
    pub length: f64,
    /// Number of edges on the path.
    pub hops: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn critical_path(ctx: &ToolContext<'_>, p: CriticalParams) -> Result<CriticalOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let path = net
            .critical_path()
            .map_err(|e| named_cycle(e, "a critical path"))?;
        let page = Page::open(
            ctx,
            net,
            "network_critical_path",
            (),
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let hops = path.edges.len();
        // Edge i leaves node i, so the pages of nodes page the edges too: a
        // node and its edge are measured together.
        let (nodes, edges): (Vec<String>, Vec<Option<u64>>) = page
            .fill(
                page.slice(&path.nodes)
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| (net.id_at(n), path.edges.get(page.offset + i).copied())),
            )
            .into_iter()
            .map(|(id, edge)| (id.to_string(), edge))
            .unzip();
        Ok(CriticalOutput {
            status: Success::Success,
            paging: Paging::of_total(&page, nodes.len(), path.nodes.len()),
            path: nodes,
            edge_ids: edges.into_iter().flatten().collect(),
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
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Node IDs that are done.
    #[serde(default)]
    pub done: Vec<String>,
    /// Also done: every node with all these attribute values, e.g. {"status": "done"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub done_attributes: Map<String, Value>,
    /// "out": A -> B means A needs B first. "in": A -> B means A comes before B. "both": either.
    #[serde(default = "default_out")]
    pub prerequisites: Direction,
    /// Ready nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// Blocked nodes shown as examples, on the first page.
    #[serde(default = "default_blocked_limit")]
    #[schemars(range(min = 0, max = MAX_ANALYSIS_LIMIT))]
    pub blocked_limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A node that cannot start yet.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct BlockedOut {
    /// The node ID.
    pub node_id: String,
    /// Its prerequisites that are not done yet (the first 20).
    pub waiting_on: Vec<String>,
    /// How many prerequisites it waits on.
    pub waiting_on_total: usize,
}

/// Result of `network_ready_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReadyOutput {
    /// "success".
    pub status: Success,
    /// This page of the nodes not done whose prerequisites are all done: what can start now (insertion order).
    pub ready: Vec<String>,
    /// How many nodes are ready in all.
    pub ready_total: usize,
    /// Examples of nodes still waiting, with what they wait on (first page only).
    pub blocked: Vec<BlockedOut>,
    /// How many nodes are blocked in all.
    pub blocked_total: usize,
    /// How many nodes count as done.
    pub done_total: usize,
    /// How to get the rest of `ready`.
    #[serde(flatten)]
    pub paging: Paging,
}

fn ready_nodes(ctx: &ToolContext<'_>, p: ReadyParams) -> Result<ReadyOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    // blocked_limit's range (0 to MAX_ANALYSIS_LIMIT) is checked against its
    // schema before the body runs, like every integer parameter's.
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
        let mut done_sorted: Vec<&str> = p.done.iter().map(String::as_str).collect();
        done_sorted.sort_unstable();
        done_sorted.dedup();
        let query = (done_sorted, &p.done_attributes, p.prerequisites);
        let page = Page::open(ctx, net,
            "network_ready_nodes",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let blocked_limit = if page.offset == 0 { p.blocked_limit } else { 0 };
        let r = net.ready_nodes_by_index(&done, p.prerequisites, page.end(), blocked_limit);
        let ready: Vec<String> = page.fill(page.slice(&r.ready).iter().map(|&n| net.id_at(n).to_string()));
        // The blocked examples take what the page leaves.
        let blocked: Vec<BlockedOut> = r
            .blocked
            .iter()
            .map(|b| BlockedOut {
                node_id: net.id_at(b.node).to_string(),
                waiting_on: ids(net, b.waiting_on.iter().take(MAX_WAITING_LISTED).copied()),
                waiting_on_total: b.waiting_on.len(),
            })
            .take_while(|b| page.charge(b))
            .collect();
        let mut paging = Paging::of_total(&page, ready.len(), r.ready_total);
        // The blocked examples are cut too; say how to see more of them.
        let mut cut = Vec::new();
        if page.offset == 0 && r.blocked_total > blocked.len() {
            let bound = if blocked.len() < r.blocked.len() {
                " (the reply size bound cut the list)"
            } else {
                ""
            };
            cut.push(format!(
                "{} of {} blocked nodes are shown{bound}; raise blocked_limit (at most {MAX_ANALYSIS_LIMIT}) for more.",
                blocked.len(),
                r.blocked_total
            ));
        }
        if r.blocked.iter().any(|b| b.waiting_on.len() > MAX_WAITING_LISTED) {
            cut.push(format!(
                "A blocked node lists at most {MAX_WAITING_LISTED} prerequisites (waiting_on_total counts them all); network_get_neighbors of it gives all."
            ));
        }
        if !cut.is_empty() {
            paging.add_note(cut.join(" "));
        }
        Ok(ReadyOutput {
            status: Success::Success,
            paging,
            ready,
            ready_total: r.ready_total,
            blocked,
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
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Most sources and sinks listed.
    #[serde(default = "default_list_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub list_limit: usize,
    /// How many top nodes by in- and out-degree.
    #[serde(default = "default_top_k")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
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
    /// Its version: it rises with every change.
    pub version: u64,
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
    /// True when sources or sinks were cut at list_limit, or a list at the reply size bound.
    pub truncated: bool,
    /// When cut: how to see more of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

fn describe(ctx: &ToolContext<'_>, p: DescribeParams) -> Result<DescribeOutput> {
    let list_limit = check_range("list_limit", p.list_limit, MAX_ANALYSIS_LIMIT)?;
    let top_k = check_range("top_k", p.top_k, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let d = net.describe(list_limit, top_k);
        // The four lists share what the reply size bound leaves, in this order.
        let mut left = ctx.limits.reply_item_bytes();
        let (sources, sources_cut) = fit(d.sources.iter().map(|&n| net.id_at(n)), &mut left);
        let (sinks, sinks_cut) = fit(d.sinks.iter().map(|&n| net.id_at(n)), &mut left);
        let mut degrees = |list: &[(NodeIndex, usize)]| {
            fit(
                list.iter().map(|&(n, degree)| Degree {
                    node_id: net.id_at(n).to_string(),
                    degree,
                }),
                &mut left,
            )
        };
        let (top_in_degree, in_cut) = degrees(&d.top_in_degree);
        let (top_out_degree, out_cut) = degrees(&d.top_out_degree);
        let listed = d.sources_total > sources.len() || d.sinks_total > sinks.len();
        let bound = sources_cut || sinks_cut || in_cut || out_cut;
        let mut more = Vec::new();
        if listed {
            more.push(format!(
                "The first {list_limit} sources and sinks are listed; raise list_limit (at most {MAX_ANALYSIS_LIMIT}) for more."
            ));
        }
        if bound {
            more.push(format!(
                "The reply size bound ({} bytes, --max-reply-bytes) cut the lists; network_list_nodes pages through every node.",
                ctx.limits.max_reply_bytes
            ));
        }
        Ok(DescribeOutput {
            status: Success::Success,
            network_name: p.network_name.clone(),
            description: net.description().map(str::to_string),
            version: net.version(),
            nodes: d.nodes,
            edges: d.edges,
            density: d.density,
            is_dag: d.is_dag,
            weakly_connected_components: d.weakly_connected_components,
            self_loops: d.self_loops,
            truncated: listed || bound,
            more: (!more.is_empty()).then(|| more.join(" ")),
            sources: sources.into_iter().map(String::from).collect(),
            sources_total: d.sources_total,
            sinks: sinks.into_iter().map(String::from).collect(),
            sinks_total: d.sinks_total,
            isolated_total: d.isolated_total,
            top_in_degree,
            top_out_degree,
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
                description: "Summarise a network: counts, density, whether it is a DAG, weakly connected components, self-loops, sources and sinks, top nodes by in- and out-degree, weight range. Start here with an unknown network.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            describe,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_traverse",
                title: "Traverse from nodes",
                description: "Walk breadth-first (bfs) or depth-first (dfs) from start nodes along edges out, in or both, up to max_depth. Returns each visited node with its depth and parent. For plain reachability use network_descendants or network_ancestors.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            traverse,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_descendants",
                title: "Everything a node reaches",
                description: "Every node a node reaches along edges, nearest first, with distances. In a depends-on graph (A -> B = A depends on B): everything it needs, directly or not. total counts all.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            descendants,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_ancestors",
                title: "Everything that reaches a node",
                description: "Every node that reaches a node (walking edges backwards), nearest first, with distances. In a depends-on graph: everything affected if it changes. total counts all.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            ancestors,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_shortest_path",
                title: "Shortest path",
                description: "The cheapest path source -> target along edge direction: least total weight (weighted true; Dijkstra, or Bellman-Ford with negative weights) or fewest edges. Returns nodes, edge ids, total weight and hops; found: false if unreachable.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            shortest_path,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_topological_sort",
                title: "Order and parallel layers",
                description: "Order the nodes so that every edge's source comes first, in layers whose nodes can run in parallel. For a depends-on graph pass reverse: true to get dependencies first, the order to do the work. Paged. A cycle is an error naming one to break.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            topological_sort,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_find_cycles",
                title: "Find cycles",
                description: "Every group of nodes caught in a cycle (strongly connected components of 2+ nodes, and self-loops), each with one concrete cycle; is_dag is true when there is none.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            find_cycles,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_critical_path",
                title: "Critical path",
                description: "The longest path by total edge weight in an acyclic network, weights read as durations: the chain that sets the least total time of a plan. Returns its nodes, edge ids and length. A cycle is an error naming one.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            critical_path,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_ready_nodes",
                title: "What can start now",
                description: "What can start now: the nodes not done whose prerequisites are all done. Done means listed in done, or matching done_attributes such as {\"status\": \"done\"}. Prerequisites are out-neighbors (A -> B = A needs B) unless prerequisites is \"in\". Also counts blocked nodes.",
                toolset: Toolset::Analysis,
                effect: Effect::Read,
                long_running: true,
            },
            ready_nodes,
        ),
    ]
}
