//! `network_diff`: what changed between two networks ([`crate::network::diff`]):
//! nodes removed, added and changed, edges removed and added (with
//! multiplicity), paged with one cursor across the five lists in that order.

use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::MAX_SCORES_LIMIT;
use crate::error::Result;
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
    /// The network before (e.g. yesterday's plan, or the original of a copy).
    pub network_name: String,
    /// The network after.
    pub other: String,
    /// Changes per page, counted across all five lists.
    #[serde(default = "default_diff_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// How many changes of each kind.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DiffCounts {
    /// Nodes only in network_name.
    pub nodes_removed: usize,
    /// Nodes only in other.
    pub nodes_added: usize,
    /// Nodes in both whose attributes or data differ.
    pub nodes_changed: usize,
    /// Edges only in network_name (counting parallel copies).
    pub edges_removed: usize,
    /// Edges only in other (counting parallel copies).
    pub edges_added: usize,
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
    pub count: usize,
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
    pub nodes_removed: Vec<String>,
    /// This page's node IDs only in other.
    pub nodes_added: Vec<String>,
    /// This page's changed nodes.
    pub nodes_changed: Vec<NodeChangeOut>,
    /// This page's edges only in network_name. A changed weight or attribute shows as one removed and one added.
    pub edges_removed: Vec<EdgeChangeOut>,
    /// This page's edges only in other.
    pub edges_added: Vec<EdgeChangeOut>,
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

fn node_change(before: &Node, after: &Node) -> NodeChangeOut {
    let mut attributes_before = Map::new();
    let mut attributes_after = Map::new();
    let keys = before.attributes.iter().chain(after.attributes.iter());
    for (key, _) in keys {
        let old = before.attributes.get(key);
        let new = after.attributes.get(key);
        if old != new && !attributes_before.contains_key(key) {
            attributes_before.insert(key.clone(), old.cloned().unwrap_or(Value::Null));
            attributes_after.insert(key.clone(), new.cloned().unwrap_or(Value::Null));
        }
    }
    NodeChangeOut {
        node_id: after.id.to_string(),
        attributes_before,
        attributes_after,
        data_changed: before.data != after.data,
    }
}

fn edge_change(change: &EdgeChange<'_>) -> EdgeChangeOut {
    EdgeChangeOut {
        source: change.source.to_string(),
        target: change.target.to_string(),
        weight: change.weight,
        attributes: change.attributes.to_map(),
        count: change.count,
    }
}

fn ids<'a>(nodes: &'a [&Node]) -> impl Iterator<Item = String> + 'a {
    nodes.iter().map(|n| n.id.to_string())
}

fn page_of(diff: &Diff<'_>, page: &Page) -> DiffOutput {
    let range = page.offset..page.end();
    let mut start = 0;
    // One page over the five lists in turn: once the byte bound stops it, the
    // later lists take nothing, and the cursor continues where it stopped.
    let nodes_removed = page.fill(ids(window(&diff.nodes_removed, &mut start, &range)));
    let nodes_added = page.fill(ids(window(&diff.nodes_added, &mut start, &range)));
    let nodes_changed: Vec<NodeChangeOut> = page.fill(
        window(&diff.nodes_changed, &mut start, &range)
            .iter()
            .map(|(before, after)| node_change(before, after)),
    );
    let edges_removed: Vec<EdgeChangeOut> = page.fill(
        window(&diff.edges_removed, &mut start, &range)
            .iter()
            .map(edge_change),
    );
    let edges_added: Vec<EdgeChangeOut> = page.fill(
        window(&diff.edges_added, &mut start, &range)
            .iter()
            .map(edge_change),
    );
    let total = start;
    let returned = nodes_removed.len()
        + nodes_added.len()
        + nodes_changed.len()
        + edges_removed.len()
        + edges_added.len();
    let multiplicity = |list: &[EdgeChange<'_>]| list.iter().map(|e| e.count).sum();
    DiffOutput {
        status: Success::Success,
        identical: diff.is_empty(),
        counts: DiffCounts {
            nodes_removed: diff.nodes_removed.len(),
            nodes_added: diff.nodes_added.len(),
            nodes_changed: diff.nodes_changed.len(),
            edges_removed: multiplicity(&diff.edges_removed),
            edges_added: multiplicity(&diff.edges_added),
        },
        nodes_removed,
        nodes_added,
        nodes_changed,
        edges_removed,
        edges_added,
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
        Ok(page_of(&a.diff(b), &page))
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
            description: "What changed from network_name to other (e.g. yesterday's plan and today's, or a copy after a what-if edit): nodes removed, added and changed (attributes, data), edges removed and added with their counts. Paged with cursors.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            long_running: true,
        },
        diff,
    )
}
