//! Analysis tools: the questions a planning agent asks of its graph. Each answers
//! within a bound (`limit`, `max_depth`) and says when it cut (`truncated`).
//!
//! One file per tool, named after it; this module holds what they share: the
//! largest `limit`, the default page, the checks of node ids and `max_depth`,
//! the cycle error named after the operation asked for, and the walk that
//! `network_descendants` and `network_ancestors` both answer with ([`closure`]).

mod ancestors;
mod critical_path;
mod descendants;
mod describe;
mod find_cycles;
mod ready_nodes;
mod shortest_path;
mod topological_sort;
mod traverse;

use petgraph::stable_graph::NodeIndex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::mcp::page::Page;
use crate::mcp::tool::{ToolContext, ToolDef};
use crate::mcp::tools::common::{Paging, Success, check_limit, relation_filter};
use crate::network::hierarchy::EpicGraph;
use crate::network::work::WorkAttributes;
use crate::network::{Direction, Network, RelationFilter, validate};

/// The largest `limit` any analysis tool accepts.
pub const MAX_ANALYSIS_LIMIT: usize = 10_000;

/// Default page sizes keep a default reply within about 8 KB (2k tokens) on a
/// network the size of Debian's package graph (68k nodes, 300k edges): see
/// BENCHMARKS.md, "Default reply sizes".
fn default_limit() -> usize {
    100
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

/// The graph an ordering tool answers on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The nodes themselves.
    #[default]
    Tasks,
    /// Each node replaced by its top-level ancestor.
    Epics,
}

/// The most nodes on a loop of parents a reply names.
const MAX_LOOP_LISTED: usize = 20;

/// At [`Level::Epics`], `net` at the level of its epics by `parent_attribute`
/// (default `"parent"`), along the edges `filter` keeps; `None` at
/// [`Level::Tasks`].
fn epics_of(
    net: &Network,
    filter: &RelationFilter,
    level: Level,
    parent_attribute: Option<&str>,
) -> Result<Option<EpicGraph>> {
    match level {
        Level::Tasks => Ok(None),
        Level::Epics => {
            let default = WorkAttributes::default().parent;
            let attribute = parent_attribute.unwrap_or(&default);
            let epics = net.following(filter).by_epic(attribute)?;
            // No node names a parent: the epics are the tasks, which the
            // caller did not ask for by level "epics".
            super::unmatched::warn_no_parents(net, attribute);
            Ok(Some(epics))
        }
    }
}

/// The network an ordering tool answers on, the edges it follows and the name
/// of the operation for a cycle error: `net` through `filter`, or at level
/// "epics" the graph of its epics, whose edges the filter already chose.
fn ordered_on<'a>(
    net: &'a Network,
    filter: &'a RelationFilter,
    epics: &'a Option<EpicGraph>,
    operation: &str,
) -> (&'a Network, &'a RelationFilter, String) {
    match epics {
        Some(epics) => (
            &epics.network,
            RelationFilter::every_edge(),
            format!("{operation} of the epics"),
        ),
        None => (net, filter, operation.to_string()),
    }
}

/// The first nodes on a loop of parents, and how many there are.
fn loop_note(net: &Network, epics: Option<&EpicGraph>) -> Option<String> {
    let looped = epics.map_or(&[][..], |e| &e.looped[..]);
    if looped.is_empty() {
        return None;
    }
    let named = ids(net, looped.iter().take(MAX_LOOP_LISTED).copied()).join(", ");
    let more = if looped.len() > MAX_LOOP_LISTED {
        ", …"
    } else {
        ""
    };
    Some(format!(
        "{} nodes are on a loop of parents, each counted as a top-level epic: {named}{more}. Give one of them another parent, or none.",
        looped.len()
    ))
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

/// Parameters of `network_descendants` and `network_ancestors`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClosureParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The start node (not itself in the answer).
    pub node_id: String,
    /// Only nodes at most this many edges away.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_depth: Option<usize>,
    /// Nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    // The relation filter: described once, in the server instructions.
    #[serde(default)]
    pub relations: Option<Vec<String>>,
    #[serde(default)]
    pub ignore_relations: Option<Vec<String>>,
    #[serde(default)]
    pub relation_attribute: Option<String>,
}

/// One reached node.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Reached {
    /// The node ID.
    pub node_id: String,
    /// The fewest edges between it and the start.
    pub depth: usize,
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
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let query = (&p.node_id, max_depth, &filter);
        let page = Page::open(
            ctx,
            net,
            tool,
            query,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let reach =
            net.following(&filter)
                .reachable_by_index(start, direction, max_depth, page.end());
        let nodes: Vec<Reached> = page.fill(page.slice(&reach.nodes).iter().map(
            |&(n, distance)| Reached {
                node_id: net.id_at(n).to_string(),
                depth: distance,
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

/// The analysis tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        describe::tool(),
        traverse::tool(),
        descendants::tool(),
        ancestors::tool(),
        shortest_path::tool(),
        topological_sort::tool(),
        find_cycles::tool(),
        critical_path::tool(),
        ready_nodes::tool(),
    ]
}
