//! Graph traversals: breadth-first and depth-first walks, and reachability.
//!
//! petgraph's [`Bfs`](petgraph::visit::Bfs) and [`Dfs`](petgraph::visit::Dfs) walk
//! each node's edge list newest first and record neither depth nor parent, so the
//! walks here are written directly against the network's neighbor rows (the
//! compact [`Adjacency`](crate::network::Adjacency) when it is worth having, else
//! petgraph's lists; see [`crate::network::adjacency`]): a
//! [`FixedBitSet`](petgraph::visit::Visitable::visit_map) as the visited set, the
//! output vectors (or one flat queue) as the work list, and one reusable neighbor
//! buffer per walk, so nothing is allocated per node. Neighbors are taken in
//! [`Network::neighbor_indices`] order — out-neighbors by edge insertion, then
//! in-neighbors by edge insertion — which makes every result deterministic.

use std::ops::ControlFlow;

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{VisitMap, Visitable};

use super::following::Following;
pub use super::options::TraversalOrder;
use super::options::TraverseOptions;
use crate::error::Result;
use crate::network::graph::adjacency::NeighborSource;
use crate::network::graph::{Direction, Network, RelationFilter};

/// One node visited by a traversal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visit {
    /// The visited node.
    pub node: NodeIndex,
    /// Its depth: the hop distance from the nearest start (BFS), or the depth in
    /// the DFS tree (DFS). Starts have depth 0.
    pub depth: usize,
    /// The node it was reached from (`None` for a start).
    pub parent: Option<NodeIndex>,
}

/// The result of [`Network::traverse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traversal {
    /// The visited nodes, in visit order.
    pub visits: Vec<Visit>,
    /// Whether the walk stopped at `limit` although more nodes would have been visited.
    pub truncated: bool,
}

/// The result of [`Network::reachable`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    /// Reachable nodes with their hop distance, sorted by distance, then discovery order.
    /// At most `limit` entries.
    pub nodes: Vec<(NodeIndex, usize)>,
    /// The number of reachable nodes within `max_depth`, including those past `limit`.
    pub total: usize,
    /// Whether `nodes` was cut at `limit` (`total > nodes.len()`).
    pub truncated: bool,
}

/// Appends to `buf` the not yet visited neighbors of `ix` in `direction`, in
/// [`Network::neighbor_indices`] order (out-neighbors by edge insertion, then
/// in-neighbors by edge insertion). A node may appear more than once (parallel
/// edges, or both an out- and an in-neighbor); callers re-check `visited`.
#[inline]
fn extend_neighbors<M: VisitMap<NodeIndex>>(
    source: &NeighborSource<'_>,
    ix: NodeIndex,
    direction: Direction,
    visited: &M,
    buf: &mut Vec<NodeIndex>,
) {
    let unvisited = |n: NodeIndex| !visited.is_visited(&n);
    let before = buf.len();
    if matches!(direction, Direction::Out | Direction::Both) {
        source.extend_oldest_first(ix, Outgoing, buf, unvisited);
    }
    if matches!(direction, Direction::In | Direction::Both) {
        source.extend_oldest_first(ix, Incoming, buf, unvisited);
    }
    crate::budget::charge(1 + (buf.len() - before) as u64);
}

/// Breadth-first (multi-source) walk shared by [`Network::traverse`] and
/// [`Network::reachable`]. `queue` holds the already visited sources (depth 0).
/// Calls `discover(node, depth, parent)` for every newly visited node, in
/// visit order; `Break` stops the walk. Nodes at depth `max_depth` are not expanded.
fn bfs_walk<M: VisitMap<NodeIndex>>(
    source: &NeighborSource<'_>,
    mut queue: Vec<NodeIndex>,
    visited: &mut M,
    direction: Direction,
    max_depth: Option<usize>,
    mut discover: impl FnMut(NodeIndex, usize, NodeIndex) -> ControlFlow<()>,
) {
    let mut buf = Vec::new();
    let mut head = 0;
    let mut depth = 0;
    let mut level_end = queue.len();
    while head < queue.len() {
        if head == level_end {
            depth += 1;
            level_end = queue.len();
        }
        if max_depth.is_some_and(|m| depth >= m) {
            return;
        }
        let node = queue[head];
        head += 1;
        buf.clear();
        extend_neighbors(source, node, direction, visited, &mut buf);
        for &n in &buf {
            if visited.visit(n) {
                if discover(n, depth + 1, node).is_break() {
                    return;
                }
                queue.push(n);
            }
        }
    }
}

/// Preorder DFS from each root in turn (roots already marked visited), pushing
/// visits; returns whether it stopped at `limit` with more to visit.
fn dfs_walk<M: VisitMap<NodeIndex>>(
    source: &NeighborSource<'_>,
    roots: &[NodeIndex],
    visited: &mut M,
    direction: Direction,
    max_depth: Option<usize>,
    limit: usize,
    visits: &mut Vec<Visit>,
) -> bool {
    /// A node being expanded: its pending neighbors are `nbrs[cursor..]` up to
    /// the next frame's `start` (or the end of `nbrs` for the top frame).
    struct Frame {
        node: NodeIndex,
        depth: usize,
        start: usize,
        cursor: usize,
    }
    let expands = |depth: usize| max_depth.is_none_or(|m| depth < m);
    // All pending neighbor lists of the current DFS path, stacked end to end.
    let mut nbrs: Vec<NodeIndex> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    for &root in roots {
        if visits.len() == limit {
            return true;
        }
        visits.push(Visit {
            node: root,
            depth: 0,
            parent: None,
        });
        if !expands(0) {
            continue;
        }
        extend_neighbors(source, root, direction, visited, &mut nbrs);
        stack.push(Frame {
            node: root,
            depth: 0,
            start: 0,
            cursor: 0,
        });
        while let Some(top) = stack.last_mut() {
            if top.cursor == nbrs.len() {
                nbrs.truncate(top.start);
                stack.pop();
                continue;
            }
            let n = nbrs[top.cursor];
            top.cursor += 1;
            if !visited.visit(n) {
                continue;
            }
            if visits.len() == limit {
                return true;
            }
            let (parent, depth) = (top.node, top.depth + 1);
            visits.push(Visit {
                node: n,
                depth,
                parent: Some(parent),
            });
            if expands(depth) {
                let start = nbrs.len();
                extend_neighbors(source, n, direction, visited, &mut nbrs);
                stack.push(Frame {
                    node: n,
                    depth,
                    start,
                    cursor: start,
                });
            }
        }
    }
    false
}

impl Network {
    /// Walks the network breadth-first or depth-first from `starts`, following
    /// edges in `direction` (`Out`: source → target, `In`: backwards, `Both`: either).
    ///
    /// Each start is visited first, in the given order, with depth 0 and no parent;
    /// duplicate starts, and indices that are not nodes of this network, are ignored.
    /// Every node is visited at most once. Nodes deeper than `max_depth` are not
    /// visited (`None`: unlimited). At most `limit` visits are returned; `truncated`
    /// is `true` exactly when at least one more node would have been visited.
    ///
    /// * **BFS** is a multi-source breadth-first search: a node's depth is its hop
    ///   distance from the nearest start and its parent is the first node (in visit
    ///   order) it was reached from.
    /// * **DFS** is a recursive-style preorder depth-first search run from each start in
    ///   turn (all starts count as visited from the beginning, so each keeps depth 0);
    ///   a node's depth is its depth in the DFS tree. With `max_depth`, a node visited
    ///   at depth `max_depth` is not expanded even if a shorter branch reaches it later, so
    ///   DFS may miss nodes that BFS finds within the same `max_depth`.
    ///
    /// **Determinism:** neighbors are taken in [`Network::neighbor_indices`] order
    /// (out-neighbors by edge insertion, then in-neighbors by edge insertion), so
    /// the result depends only on the network's content and history.
    ///
    /// **Complexity:** O(|V| + |E|) time for the part of the graph walked; O(|V|) extra
    /// space (a bit set, the output, and a neighbor buffer — nothing per node).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network, TraversalOrder, TraverseOptions};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("a", "c", 1.0)?;
    /// net.add_edge("b", "d", 1.0)?;
    ///
    /// let walk = |order| -> Result<Vec<String>, networks_mcp::Error> {
    ///     let options = TraverseOptions { order, direction: Direction::Out, ..Default::default() };
    ///     let visits = net.traverse(&["a"], options)?.visits;
    ///     Ok(visits.iter().map(|v| format!("{}@{}", net.id_at(v.node), v.depth)).collect())
    /// };
    /// assert_eq!(walk(TraversalOrder::Bfs)?, ["a@0", "b@1", "c@1", "d@2"]);
    /// assert_eq!(walk(TraversalOrder::Dfs)?, ["a@0", "b@1", "d@2", "c@1"]);
    ///
    /// let near = TraverseOptions { direction: Direction::Out, max_depth: Some(1), limit: 2, ..Default::default() };
    /// let cut = net.traverse(&["a"], near)?;
    /// assert_eq!(cut.visits.len(), 2);
    /// assert!(cut.truncated);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn traverse(&self, starts: &[&str], options: TraverseOptions) -> Result<Traversal> {
        let starts = self.require_all("start", starts.iter().copied())?;
        Ok(self.traverse_by_index(&starts, options))
    }

    /// [`Network::traverse`] from node indices, for programs that hold indices
    /// already (no id lookups).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network, TraverseOptions};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// let start = net.index_of("a").unwrap();
    /// let options = TraverseOptions { direction: Direction::Out, ..Default::default() };
    /// let walk = net.traverse_by_index(&[start], options);
    /// let order: Vec<_> = walk.visits.iter().map(|v| net.id_at(v.node)).collect();
    /// assert_eq!(order, ["a", "b", "c"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn traverse_by_index(&self, starts: &[NodeIndex], options: TraverseOptions) -> Traversal {
        self.traverse_following(starts, options, RelationFilter::every_edge())
    }

    fn traverse_following(
        &self,
        starts: &[NodeIndex],
        options: TraverseOptions,
        filter: &RelationFilter,
    ) -> Traversal {
        let TraverseOptions {
            order,
            direction,
            max_depth,
            limit,
        } = options;
        let graph = self.graph();
        let source = NeighborSource::partial_following(self, direction, filter);
        let mut visited = graph.visit_map();
        let mut roots = Vec::with_capacity(starts.len());
        for &s in starts {
            if graph.contains_node(s) && visited.visit(s) {
                roots.push(s);
            }
        }
        let mut visits: Vec<Visit> = Vec::with_capacity(limit.min(graph.node_count()));
        let truncated = match order {
            TraversalOrder::Bfs => {
                visits.extend(roots.iter().take(limit).map(|&node| Visit {
                    node,
                    depth: 0,
                    parent: None,
                }));
                let mut truncated = roots.len() > limit;
                if !truncated {
                    bfs_walk(
                        &source,
                        roots,
                        &mut visited,
                        direction,
                        max_depth,
                        |node, depth, parent| {
                            if visits.len() == limit {
                                truncated = true;
                                return ControlFlow::Break(());
                            }
                            visits.push(Visit {
                                node,
                                depth,
                                parent: Some(parent),
                            });
                            ControlFlow::Continue(())
                        },
                    );
                }
                truncated
            }
            TraversalOrder::Dfs => dfs_walk(
                &source,
                &roots,
                &mut visited,
                direction,
                max_depth,
                limit,
                &mut visits,
            ),
        };
        Traversal { visits, truncated }
    }

    /// Every node reachable from `start` by a path of at least one edge in
    /// `direction`, **excluding `start` itself** (even when it lies on a cycle), with
    /// its hop distance (the fewest edges on such a path).
    ///
    /// A breadth-first search: `nodes` is sorted by distance, then by BFS discovery
    /// order (neighbors in [`Network::neighbor_indices`] order, so the result is
    /// deterministic). Nodes farther than `max_depth` hops are left out (`None`:
    /// unlimited). `nodes` holds at most `limit` entries, while `total` counts every
    /// reachable node within `max_depth`; `truncated` is `total > nodes.len()`. An
    /// index that is not a node of this network reaches nothing.
    ///
    /// **Complexity:** O(|V| + |E|) time for the part of the graph within
    /// `max_depth` (the walk continues past `limit` to count `total`); O(|V|) space.
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["agents", "logging", "cli"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("agents", "logging", 1.0).unwrap();
    /// net.add_edge("cli", "agents", 1.0).unwrap();
    /// let cli = net.index_of("cli").unwrap();
    ///
    /// let reach = net.reachable_by_index(cli, Direction::Out, None, 10);
    /// let found: Vec<(&str, usize)> =
    ///     reach.nodes.iter().map(|&(n, d)| (net.id_at(n), d)).collect();
    /// assert_eq!(found, [("agents", 1), ("logging", 2)]);
    /// assert_eq!((reach.total, reach.truncated), (2, false));
    ///
    /// let cut = net.reachable_by_index(cli, Direction::Out, None, 1);
    /// assert_eq!((cut.nodes.len(), cut.total, cut.truncated), (1, 2, true));
    /// ```
    pub fn reachable(
        &self,
        start: &str,
        direction: Direction,
        max_depth: Option<usize>,
        limit: usize,
    ) -> Result<Reach> {
        let start = self.require("start", start)?;
        Ok(self.reachable_by_index(start, direction, max_depth, limit))
    }

    /// [`Network::reachable`] from a node index.
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// let c = net.index_of("c").unwrap();
    /// let up = net.reachable_by_index(c, Direction::In, Some(1), 10);
    /// assert_eq!((up.nodes.len(), up.total), (1, 1)); // only "b" within one hop
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn reachable_by_index(
        &self,
        start: NodeIndex,
        direction: Direction,
        max_depth: Option<usize>,
        limit: usize,
    ) -> Reach {
        self.reachable_following(
            start,
            direction,
            max_depth,
            limit,
            RelationFilter::every_edge(),
        )
    }

    fn reachable_following(
        &self,
        start: NodeIndex,
        direction: Direction,
        max_depth: Option<usize>,
        limit: usize,
        filter: &RelationFilter,
    ) -> Reach {
        let graph = self.graph();
        let mut nodes = Vec::new();
        let mut total = 0;
        if graph.contains_node(start) {
            let mut visited = graph.visit_map();
            visited.visit(start);
            bfs_walk(
                &NeighborSource::partial_following(self, direction, filter),
                vec![start],
                &mut visited,
                direction,
                max_depth,
                |n, d, _| {
                    total += 1;
                    if nodes.len() < limit {
                        nodes.push((n, d));
                    }
                    ControlFlow::Continue(())
                },
            );
        }
        let truncated = total > nodes.len();
        Reach {
            nodes,
            total,
            truncated,
        }
    }

    /// Plain breadth-first search along outgoing edges from `start`, returning the
    /// visit order (`start` first). The fast path for benchmarks: no depth, parent or
    /// limit bookkeeping, and neighbors are taken in petgraph's own order (newest
    /// edge first) rather than insertion order, so the order among siblings differs
    /// from [`Network::traverse`]; the visited set and each node's BFS level do not.
    /// An index that is not a node of this network gives an empty vector.
    ///
    /// **Complexity:** O(|V| + |E|) time for the part reached; one bit set and the
    /// output vector (which doubles as the queue) as extra space.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["a", "b", "c"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("a", "b", 1.0).unwrap();
    /// net.add_edge("b", "c", 1.0).unwrap();
    /// net.add_edge("c", "a", 1.0).unwrap();
    /// let order = net.bfs_order_by_index(net.index_of("a").unwrap());
    /// let ids: Vec<&str> = order.iter().map(|&n| net.id_at(n)).collect();
    /// assert_eq!(ids, ["a", "b", "c"]);
    /// ```
    pub fn bfs_order(&self, start: &str) -> Result<Vec<NodeIndex>> {
        Ok(self.bfs_order_by_index(self.require("start", start)?))
    }

    /// [`Network::bfs_order`] from a node index.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// let order = net.bfs_order_by_index(net.index_of("a").unwrap());
    /// assert_eq!(net.ids(&order), ["a", "b"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn bfs_order_by_index(&self, start: NodeIndex) -> Vec<NodeIndex> {
        let graph = self.graph();
        if !graph.contains_node(start) {
            return Vec::new();
        }
        let source = NeighborSource::partial(self, Direction::Out);
        let mut visited = graph.visit_map();
        visited.visit(start);
        let mut order = vec![start];
        let mut head = 0;
        while let Some(&node) = order.get(head) {
            head += 1;
            crate::budget::charge(1);
            source.for_each_out_newest_first(node, |n, _| {
                if visited.visit(n) {
                    order.push(n);
                }
            });
        }
        order
    }
}

impl Following<'_> {
    /// [`Network::traverse`] along the edges the filter keeps.
    pub fn traverse(&self, starts: &[&str], options: TraverseOptions) -> Result<Traversal> {
        let starts = self.net.require_all("start", starts.iter().copied())?;
        Ok(self.traverse_by_index(&starts, options))
    }

    /// [`Network::traverse_by_index`] along the edges the filter keeps.
    pub fn traverse_by_index(&self, starts: &[NodeIndex], options: TraverseOptions) -> Traversal {
        self.net.traverse_following(starts, options, self.filter)
    }

    /// [`Network::reachable`] along the edges the filter keeps.
    pub fn reachable(
        &self,
        start: &str,
        direction: Direction,
        max_depth: Option<usize>,
        limit: usize,
    ) -> Result<Reach> {
        let start = self.net.require("start", start)?;
        Ok(self.reachable_by_index(start, direction, max_depth, limit))
    }

    /// [`Network::reachable_by_index`] along the edges the filter keeps.
    ///
    /// ```
    /// use networks_mcp::network::{Direction, EdgeSpec, Network, RelationFilter};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge_with(EdgeSpec::new("a", "b").with_attribute("relation", "blocks"))?;
    /// net.add_edge_with(EdgeSpec::new("b", "c").with_attribute("relation", "related"))?;
    /// let a = net.index_of("a").unwrap();
    /// let blocks = RelationFilter::only(["blocks"]);
    /// let reach = net.following(&blocks).reachable_by_index(a, Direction::Out, None, 10);
    /// assert_eq!(reach.total, 1);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn reachable_by_index(
        &self,
        start: NodeIndex,
        direction: Direction,
        max_depth: Option<usize>,
        limit: usize,
    ) -> Reach {
        self.net
            .reachable_following(start, direction, max_depth, limit, self.filter)
    }
}
