//! Named choices for the algorithms, instead of bare booleans at call sites.

use crate::network::graph::Direction;

/// Which way a topological order runs along the edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Every edge `a → b` puts `a` before `b`. With edges from a task to what it
    /// depends on, dependents come first.
    #[default]
    Forward,
    /// Every edge `a → b` puts `b` before `a`. With edges from a task to what it
    /// depends on, this is build order: dependencies first.
    Reverse,
}

impl Order {
    /// `Reverse` for `true`, as a `reverse` flag in a tool call reads.
    pub fn from_reverse(reverse: bool) -> Self {
        if reverse {
            Order::Reverse
        } else {
            Order::Forward
        }
    }
}

/// Whether a path's length is the sum of its edges' weights or its number of hops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weighted {
    /// Sum the weights (Dijkstra; Bellman-Ford when a weight is negative).
    #[default]
    Yes,
    /// Count hops (breadth-first search); weights are ignored.
    No,
}

impl Weighted {
    /// `Yes` for `true`.
    pub fn from_bool(weighted: bool) -> Self {
        if weighted {
            Weighted::Yes
        } else {
            Weighted::No
        }
    }

    pub(crate) fn is_yes(self) -> bool {
        self == Weighted::Yes
    }
}

/// How [`Network::traverse`](crate::network::Network::traverse) walks.
///
/// ```
/// use networks_mcp::network::{Direction, TraverseOptions};
///
/// let nearby = TraverseOptions { direction: Direction::Out, max_depth: Some(2), ..Default::default() };
/// assert_eq!(nearby.limit, usize::MAX);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraverseOptions {
    /// Breadth-first (default) or depth-first.
    pub order: TraversalOrder,
    /// Which edges to follow (default: both ways).
    pub direction: Direction,
    /// Nodes further than this many hops are not visited (default: no bound).
    pub max_depth: Option<usize>,
    /// At most this many nodes are returned (default: all).
    pub limit: usize,
}

impl Default for TraverseOptions {
    fn default() -> Self {
        TraverseOptions {
            order: TraversalOrder::default(),
            direction: Direction::default(),
            max_depth: None,
            limit: usize::MAX,
        }
    }
}

/// The order in which [`Network::traverse`](crate::network::Network::traverse) visits nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "server", derive(schemars::JsonSchema))]
pub enum TraversalOrder {
    /// Breadth-first: level by level, nearest nodes first.
    #[default]
    Bfs,
    /// Depth-first, preorder: a node, then everything reached through it.
    Dfs,
}

/// In what order the ready tasks of a plan are listed and claimed
/// ([`Network::ready_nodes`](crate::network::Network::ready_nodes) through the
/// MCP layer, [`Network::claim_ready_selected`](crate::network::Network::claim_ready_selected)).
/// Every order ends with insertion order, so that it is total and the same
/// calls give the same answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TaskOrder {
    /// Insertion order (node index): the order without a choice.
    #[default]
    Insertion,
    /// Most impact first: the task with the most direct dependents not done
    /// (distinct tasks that need it, along the edges that make prerequisites),
    /// then insertion order. Direct dependents, not every task downstream: the
    /// count costs the task's degree, so a claim stays O(log V).
    Impact,
    /// By the number in this attribute, lower first (the P0 = most urgent
    /// convention of Beads and Task Master); tasks whose value is missing or not
    /// a number come last. Ties by impact, then insertion order.
    Priority(String),
}

/// Which ready tasks a worker may take: those with every attribute value of
/// `attributes` and every label of `labels`. The default admits every task.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaskFilter {
    /// Attribute values a task must have, each equal (as a listing's filter).
    pub attributes: serde_json::Map<String, serde_json::Value>,
    /// Labels a task must carry: its attribute [`TASK_LABELS`] is a string of
    /// labels separated by commas (`"db,api"`; spaces around a label ignored).
    pub labels: Vec<String>,
}

/// The attribute that holds a task's labels, separated by commas.
pub const TASK_LABELS: &str = "labels";

impl TaskFilter {
    /// Whether this filter admits every task.
    pub fn is_everything(&self) -> bool {
        self.attributes.is_empty() && self.labels.is_empty()
    }

    /// Whether a task with these attributes passes.
    pub fn admits(&self, attributes: &crate::network::graph::Attributes) -> bool {
        self.attributes
            .iter()
            .all(|(k, v)| attributes.get(k) == Some(v))
            && (self.labels.is_empty()
                || attributes
                    .get(TASK_LABELS)
                    .and_then(serde_json::Value::as_str)
                    .is_some_and(|have| {
                        self.labels
                            .iter()
                            .all(|want| have.split(',').any(|l| l.trim() == want.trim()))
                    }))
    }
}

/// How a worker picks among the ready tasks: an order and a filter. The
/// default (insertion order, every task) is what a claim did before either.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaskSelection {
    /// The order.
    pub order: TaskOrder,
    /// The filter.
    pub filter: TaskFilter,
}

/// A task's rank under a priority attribute, as a key that sorts lower
/// numbers first and tasks without a number last: the IEEE order of the
/// number mapped onto unsigned integers.
pub(crate) fn priority_rank(
    attributes: &crate::network::graph::Attributes,
    attribute: Option<&str>,
) -> u64 {
    let Some(number) = attribute
        .and_then(|a| attributes.get(a))
        .and_then(serde_json::Value::as_f64)
    else {
        return attribute.map_or(0, |_| u64::MAX);
    };
    let bits = number.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}
