//! `network_diff`: what changed between two networks ([`crate::network::diff`]):
//! nodes removed, added and changed, edges removed and added (with
//! multiplicity), paged with one cursor across the five lists in that order.

use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;

use super::MAX_SCORES_LIMIT;
use crate::error::{Error, Result};
use crate::mcp::answers::{AnswerKey, Weigh, answer, vec_bytes};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};
use crate::network::diff::{Diff, EdgeChange};
use crate::network::{Network, Node, validate};

fn default_diff_limit() -> usize {
    100
}

/// Parameters of `network_diff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffParams {
    /// The network before.
    pub network_name: String,
    /// The network after.
    pub other: String,
    /// Changes per page, counted across all five lists.
    #[serde(default = "default_diff_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// How many changes of each kind.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DiffCounts {
    /// Nodes only in network_name.
    pub removed_node_count: usize,
    /// Nodes only in other.
    pub added_node_count: usize,
    /// Nodes in both whose attributes or data differ.
    pub changed_node_count: usize,
    /// Edges only in network_name (counting parallel copies).
    pub removed_edge_count: usize,
    /// Edges only in other (counting parallel copies).
    pub added_edge_count: usize,
}

/// A node whose attributes or data changed.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct NodeChangeOut {
    /// The node ID.
    pub node_id: String,
    /// The changed attributes' values before (null: absent).
    pub attributes_before: Map<String, Value>,
    /// Their values after (null: absent).
    pub attributes_after: Map<String, Value>,
    /// Whether the node's data changed.
    pub data_changed: bool,
}

/// Edges with the same source, target, weight and attributes.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct EdgeChangeOut {
    /// Source node ID.
    pub source: String,
    /// Target node ID.
    pub target: String,
    /// Weight.
    pub weight: f64,
    /// Attributes (omitted when none).
    #[serde(skip_serializing_if = "Map::is_empty", default)]
    pub attributes: Map<String, Value>,
    /// How many such edges were removed or added.
    pub edge_count: usize,
}

/// Result of `network_diff`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DiffOutput {
    /// "success".
    pub status: Success,
    /// True when the networks hold the same nodes, attributes, data and edges (edge IDs aside).
    pub identical: bool,
    /// Totals, of which this page shows a part.
    pub counts: DiffCounts,
    /// This page's node IDs only in network_name.
    pub removed_node_ids: Vec<String>,
    /// This page's node IDs only in other.
    pub added_node_ids: Vec<String>,
    /// This page's changed nodes.
    pub changed_nodes: Vec<NodeChangeOut>,
    /// This page's edges only in network_name. A changed weight or attribute shows as one removed and one added.
    pub removed_edges: Vec<EdgeChangeOut>,
    /// This page's edges only in other.
    pub added_edges: Vec<EdgeChangeOut>,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

/// The part of `list` that falls in `page`, where `list` starts at `*start` in
/// the concatenation of the five lists; moves `*start` past it.
fn window<'a, T>(list: &'a [T], start: &mut usize, page: &Range<usize>) -> &'a [T] {
    let first = page.start.saturating_sub(*start).min(list.len());
    let last = page.end.saturating_sub(*start).min(list.len());
    *start += list.len();
    &list[first..last.max(first)]
}

/// A diff as kept between pages ([`crate::mcp::answers`]): indices into the two
/// networks instead of copies of their ids and attributes, valid while both are
/// at the versions the answer's key names (a page reads them under the same
/// read locks). A page then costs O(limit), whatever the size of the diff.
struct DiffAnswer {
    /// Nodes of `a`.
    nodes_removed: Vec<NodeIndex>,
    /// Nodes of `b`.
    nodes_added: Vec<NodeIndex>,
    /// (in `a`, in `b`).
    nodes_changed: Vec<(NodeIndex, NodeIndex)>,
    /// An edge of `a` with the removed content, and how many were removed.
    edges_removed: Vec<(EdgeIndex, usize)>,
    /// An edge of `b` with the added content, and how many were added.
    edges_added: Vec<(EdgeIndex, usize)>,
    edges_removed_count: usize,
    edges_added_count: usize,
}

impl Weigh for DiffAnswer {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + vec_bytes(&self.nodes_removed)
            + vec_bytes(&self.nodes_added)
            + vec_bytes(&self.nodes_changed)
            + vec_bytes(&self.edges_removed)
            + vec_bytes(&self.edges_added)
    }
}

/// What the diff names, found again in the network it came from.
fn lost() -> Error {
    Error::Internal {
        message: "a node or edge of the diff was not found in its network".into(),
    }
}

fn node_ix(net: &Network, node: &Node) -> Result<NodeIndex> {
    net.index_of(&node.id).ok_or_else(lost)
}

/// The edge `change` was read from (its attributes are that edge's own field).
fn edge_ix(net: &Network, change: &EdgeChange<'_>) -> Result<(EdgeIndex, usize)> {
    let source = net.index_of(change.source).ok_or_else(lost)?;
    let target = net.index_of(change.target).ok_or_else(lost)?;
    net.graph()
        .edges_connecting(source, target)
        .find(|e| std::ptr::eq(&e.weight().attributes, change.attributes))
        .map(|e| (e.id(), change.count))
        .ok_or_else(lost)
}

impl DiffAnswer {
    fn of(a: &Network, b: &Network, diff: &Diff<'_>) -> Result<DiffAnswer> {
        let multiplicity = |list: &[EdgeChange<'_>]| list.iter().map(|e| e.count).sum();
        Ok(DiffAnswer {
            nodes_removed: diff
                .nodes_removed
                .iter()
                .map(|n| node_ix(a, n))
                .collect::<Result<_>>()?,
            nodes_added: diff
                .nodes_added
                .iter()
                .map(|n| node_ix(b, n))
                .collect::<Result<_>>()?,
            nodes_changed: diff
                .nodes_changed
                .iter()
                .map(|(x, y)| Ok((node_ix(a, x)?, node_ix(b, y)?)))
                .collect::<Result<_>>()?,
            edges_removed: diff
                .edges_removed
                .iter()
                .map(|e| edge_ix(a, e))
                .collect::<Result<_>>()?,
            edges_added: diff
                .edges_added
                .iter()
                .map(|e| edge_ix(b, e))
                .collect::<Result<_>>()?,
            edges_removed_count: multiplicity(&diff.edges_removed),
            edges_added_count: multiplicity(&diff.edges_added),
        })
    }

    fn is_empty(&self) -> bool {
        self.nodes_removed.is_empty()
            && self.nodes_added.is_empty()
            && self.nodes_changed.is_empty()
            && self.edges_removed.is_empty()
            && self.edges_added.is_empty()
    }
}

fn node_change(before: &Node, after: &Node) -> NodeChangeOut {
    let mut attributes_before = Map::new();
    let mut attributes_after = Map::new();
    let keys = before.attributes.iter().chain(after.attributes.iter());
    for (key, _) in keys {
        let old = before.attributes.get(key);
        let new = after.attributes.get(key);
        if old != new && !attributes_before.contains_key(key) {
            attributes_before.insert(key.to_string(), old.cloned().unwrap_or(Value::Null));
            attributes_after.insert(key.to_string(), new.cloned().unwrap_or(Value::Null));
        }
    }
    NodeChangeOut {
        node_id: after.id.to_string(),
        attributes_before,
        attributes_after,
        data_changed: before.data != after.data,
    }
}

fn edge_change(net: &Network, &(ix, count): &(EdgeIndex, usize)) -> EdgeChangeOut {
    let graph = net.graph();
    let edge = &graph[ix];
    let (source, target) = graph
        .edge_endpoints(ix)
        .map_or(("", ""), |(s, t)| (net.id_at(s), net.id_at(t)));
    EdgeChangeOut {
        source: source.to_string(),
        target: target.to_string(),
        weight: edge.weight,
        attributes: edge.attributes.to_map(),
        edge_count: count,
    }
}

fn ids<'a>(net: &'a Network, nodes: &'a [NodeIndex]) -> impl Iterator<Item = String> + 'a {
    nodes.iter().map(|&n| net.id_at(n).to_string())
}

fn page_of(a: &Network, b: &Network, diff: &DiffAnswer, page: &Page) -> DiffOutput {
    let range = page.offset..page.end();
    let mut start = 0;
    // One page over the five lists in turn: once the byte bound stops it, the
    // later lists take nothing, and the cursor continues where it stopped.
    let nodes_removed = page.fill(ids(a, window(&diff.nodes_removed, &mut start, &range)));
    let nodes_added = page.fill(ids(b, window(&diff.nodes_added, &mut start, &range)));
    let nodes_changed: Vec<NodeChangeOut> = page.fill(
        window(&diff.nodes_changed, &mut start, &range)
            .iter()
            .map(|&(before, after)| node_change(&a.graph()[before], &b.graph()[after])),
    );
    let edges_removed: Vec<EdgeChangeOut> = page.fill(
        window(&diff.edges_removed, &mut start, &range)
            .iter()
            .map(|e| edge_change(a, e)),
    );
    let edges_added: Vec<EdgeChangeOut> = page.fill(
        window(&diff.edges_added, &mut start, &range)
            .iter()
            .map(|e| edge_change(b, e)),
    );
    let total = start;
    let returned = nodes_removed.len()
        + nodes_added.len()
        + nodes_changed.len()
        + edges_removed.len()
        + edges_added.len();
    DiffOutput {
        status: Success::Success,
        identical: diff.is_empty(),
        counts: DiffCounts {
            removed_node_count: diff.nodes_removed.len(),
            added_node_count: diff.nodes_added.len(),
            changed_node_count: diff.nodes_changed.len(),
            removed_edge_count: diff.edges_removed_count,
            added_edge_count: diff.edges_added_count,
        },
        removed_node_ids: nodes_removed,
        added_node_ids: nodes_added,
        changed_nodes: nodes_changed,
        removed_edges: edges_removed,
        added_edges: edges_added,
        paging: Paging::of_total(page, returned, total),
    }
}

fn diff(ctx: &ToolContext<'_>, p: DiffParams) -> Result<DiffOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    validate::id("other", &p.other)?;
    let before = ctx.registry.get(&p.network_name)?;
    let after = ctx.registry.get(&p.other)?;
    let answer = |a: &Network, b: &Network| -> Result<DiffOutput> {
        // The cursor names `a`'s state; `b`'s state is part of the question, so a
        // cursor made before `b` changed is refused too.
        let query = (&p.other, b.instance(), b.version());
        let page = Page::open(
            ctx,
            a,
            "network_diff",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        // Computed once for all pages while both networks stay as they are.
        let key = AnswerKey::new("network_diff", &[a, b], query);
        let diff = answer(ctx, key, || DiffAnswer::of(a, b, &a.diff(b)))?;
        let out = page_of(a, b, &diff, &page);
        diff.keep_if(out.paging.next_cursor.is_some());
        Ok(out)
    };
    if p.network_name == p.other {
        let net = before.read();
        return answer(&net, &net);
    }
    // Two read locks, always taken in name order, so that two diffs in opposite
    // directions cannot each hold one while a writer waits on the other.
    if p.network_name < p.other {
        let a = before.read();
        let b = after.read();
        answer(&a, &b)
    } else {
        let b = after.read();
        let a = before.read();
        answer(&a, &b)
    }
}

/// `network_diff`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_diff",
            title: "Compare two networks",
            description: "What changed from network_name to other (e.g. a copy after a what-if edit): nodes and edges removed, added and changed.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            long_running: true,
        },
        diff,
    )
}
