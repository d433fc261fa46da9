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
