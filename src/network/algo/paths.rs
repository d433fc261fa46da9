//! Shortest paths: fewest hops (BFS), least total weight (Dijkstra), and least total
//! weight with negative weights (relaxation in topological order when what the
//! start reaches is acyclic, O(V + E); else Bellman-Ford, as petgraph's
//! queue-based [`spfa`](fn@petgraph::algo::spfa), O(V·E) in the worst case).
//!
//! Dijkstra is written here rather than taken from [`petgraph::algo::dijkstra()`]
//! because that one returns its scores as a hash map and records no predecessors;
//! this one is the same lazy-deletion heap algorithm with a settled bit set, but
//! keeps distances and predecessors in `Vec`s indexed by [`NodeIndex::index`]
//! (sized [`node_bound`](petgraph::visit::NodeIndexable::node_bound)), reads the
//! compact adjacency rows when the network has them, and queues nodes in a radix
//! heap (see [`MonotoneQueue`]): a third less time than the 4-ary heap it
//! replaced at a million nodes, which itself took a quarter less than a binary
//! heap. It returns the `Vec` callers want without a conversion, and yields the
//! path itself. Among nodes at equal distances the last queued settles first.

use std::cmp::Ordering;

use petgraph::Direction::Outgoing;
use petgraph::algo::spfa;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeFiltered, EdgeRef, NodeIndexable, VisitMap, Visitable};

use super::following::Following;
use super::options::Weighted;
use crate::error::{Error, Result};
use crate::network::graph::adjacency::NeighborSource;
use crate::network::graph::{Direction, Edge, EdgeId, Network, RelationFilter};

/// A path through the network.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// The nodes from the start to the end, both included (`hops + 1` of them).
    pub nodes: Vec<NodeIndex>,
    /// The ids of the edges taken, in order (`hops` of them).
    pub edges: Vec<EdgeId>,
    /// The sum of the taken edges' weights (0 for a 0-hop path).
    pub total_weight: f64,
    /// The number of edges.
    pub hops: usize,
}

/// The id of the first (in storage order) edge with a negative weight, if any.
/// O(1) when there is none (the network counts them), else O(|E|).
fn first_negative_edge(net: &Network, filter: &RelationFilter) -> Option<EdgeId> {
    if !net.has_negative_weights() {
        return None;
    }
    net.graph()
        .edge_weights()
        .find(|e| e.weight < 0.0 && filter.keeps(e))
        .map(|e| e.id)
}

/// Dijkstra's queue: a radix heap over the distances' bit patterns.
///
/// Dijkstra over non-negative weights pops distances in increasing order and
/// pushes none below the last popped (`d + w ≥ d`), so a monotone queue does:
/// a push appends to one of 65 buckets, chosen by the highest bit in which the
/// key differs from the last popped one, and a pop redistributes one bucket now
/// and then. Its memory is walked in order, where a heap of a million entries
/// jumps between cache lines on every push and pop. A non-negative `f64` orders
/// as its bits do as a `u64`; the candidates are never `-0.0` (the start is
/// `+0.0`, and `+0.0 + -0.0 = +0.0`), nor NaN (finite weights; an overflow is
/// `+inf`, which orders last).
#[derive(Default)]
struct MonotoneQueue(radix_heap::RadixHeapMap<std::cmp::Reverse<u64>, NodeIndex>);

impl MonotoneQueue {
    fn push(&mut self, dist: f64, node: NodeIndex) {
        debug_assert!(dist >= 0.0 && dist.is_sign_positive());
        self.0.push(std::cmp::Reverse(dist.to_bits()), node);
    }

    fn pop(&mut self) -> Option<(f64, NodeIndex)> {
        self.0
            .pop()
            .map(|(std::cmp::Reverse(bits), node)| (f64::from_bits(bits), node))
    }
}

/// What [`dijkstra_core`] computed.
struct Distances {
    dist: Vec<f64>,
    /// The predecessor of each reached node (`NodeIndex::end()` for none), when
    /// tracked.
    pred: Vec<NodeIndex>,
    /// Whether some path length overflowed `f64` (weights are finite, so only a
    /// sum past ±1.7e308 can be infinite): a node reached only that way looks
    /// unreachable.
    overflowed: bool,
}

/// Dijkstra from `from` over non-negative weights. Returns the distance vector and,
/// when `TRACK`, the predecessor of each reached node (`NodeIndex::end()` for none).
/// Stops as soon as `goal` is settled.
fn dijkstra_core<const TRACK: bool>(
    net: &Network,
    from: NodeIndex,
    goal: Option<NodeIndex>,
    filter: &RelationFilter,
) -> Distances {
    let graph = net.graph();
    let source = NeighborSource::partial_following(net, Direction::Out, filter);
    let bound = graph.node_bound();
    let mut dist = vec![f64::INFINITY; bound];
    let mut pred = if TRACK {
        vec![NodeIndex::end(); bound]
    } else {
        Vec::new()
    };
    // Settled nodes: a bit set is far smaller than `dist`, so checking it first
    // keeps the inner loop in cache.
    let mut settled = graph.visit_map();
    let mut heap = MonotoneQueue::default();
    let mut overflowed = false;
    dist[from.index()] = 0.0;
    heap.push(0.0, from);
    while let Some((d, node)) = heap.pop() {
        crate::budget::charge(1);
        // Lazy deletion: a node is settled by its first (smallest) entry.
        if !settled.visit(node) {
            continue;
        }
        if goal == Some(node) {
            break;
        }
        source.for_each_out_newest_first(node, |next, weight| {
            if settled.is_visited(&next) {
                return;
            }
            let candidate = d + weight;
            overflowed |= candidate == f64::INFINITY;
            if candidate < dist[next.index()] {
                dist[next.index()] = candidate;
                if TRACK {
                    pred[next.index()] = node;
                }
                heap.push(candidate, next);
            }
        });
    }
    Distances {
        dist,
        pred,
        overflowed,
    }
}

/// The error for a path whose total weight does not fit in an `f64`.
fn overflow(net: &Network, from: NodeIndex, to: Option<NodeIndex>, weighted: bool) -> Error {
    let to = to.map_or(String::new(), |to| format!(" to '{}'", net.id_at(to)));
    Error::WeightOverflow {
        what: format!("a path from '{}'{to}", net.id_at(from)),
        hops_possible: weighted,
    }
}

/// BFS along outgoing edges (neighbors in insertion order) until `to` is found;
/// the predecessor of every discovered node, `NodeIndex::end()` elsewhere.
fn bfs_predecessors(
    net: &Network,
    from: NodeIndex,
    to: NodeIndex,
    filter: &RelationFilter,
) -> Vec<NodeIndex> {
    let source = NeighborSource::partial_following(net, Direction::Out, filter);
    let mut pred = vec![NodeIndex::end(); net.graph().node_bound()];
    pred[from.index()] = from;
    let mut queue = vec![from];
    let mut buf = Vec::new();
    let mut head = 0;
    while let Some(&node) = queue.get(head) {
        head += 1;
        crate::budget::charge(1);
        buf.clear();
        source.extend_oldest_first(node, Outgoing, &mut buf, |n| {
            pred[n.index()] == NodeIndex::end()
        });
        for &n in &buf {
            if pred[n.index()] == NodeIndex::end() {
                pred[n.index()] = node;
                if n == to {
                    return pred;
                }
                queue.push(n);
            }
        }
    }
    pred
}

/// The nodes reachable from `from` in an order where every edge between two of
/// them goes forwards (Kahn's algorithm on the reachable part), or `None` when
/// that part has a cycle (a self-loop included). O(V + E), no recursion.
fn reachable_topological_order(
    net: &Network,
    from: NodeIndex,
    filter: &RelationFilter,
) -> Option<Vec<NodeIndex>> {
    let graph = net.graph();
    let successors = |u: NodeIndex| {
        graph
            .edges_directed(u, Outgoing)
            .filter(|e| filter.keeps(e.weight()))
            .map(|e| e.target())
    };
    // The reachable nodes, and how many edges from reachable nodes enter each.
    let mut in_degree = vec![u32::MAX; graph.node_bound()];
    in_degree[from.index()] = 0;
    let mut reached = vec![from];
    let mut head = 0;
    while let Some(&u) = reached.get(head) {
        head += 1;
        crate::budget::charge(1);
        for v in successors(u) {
            let d = &mut in_degree[v.index()];
            if *d == u32::MAX {
                *d = 0;
                reached.push(v);
            }
        }
    }
    for &u in &reached {
        for v in successors(u) {
            in_degree[v.index()] += 1;
        }
    }
    let mut order = Vec::with_capacity(reached.len());
    if in_degree[from.index()] == 0 {
        order.push(from);
    }
    let mut head = 0;
    while let Some(&u) = order.get(head) {
        head += 1;
        crate::budget::charge(1);
        for v in successors(u) {
            let d = &mut in_degree[v.index()];
            *d -= 1;
            if *d == 0 {
                order.push(v);
            }
        }
    }
    (order.len() == reached.len()).then_some(order)
}

/// Least-weight predecessors from `from` when what it reaches has no cycle:
/// each node's out-edges relaxed once, in topological order, so negative
/// weights cost O(V + E) instead of Bellman-Ford's O(V·E) (a chain of negative
/// edges with a shortcut to each node is Bellman-Ford's quadratic case, and
/// it is acyclic). `None` when the reachable part has a cycle. Also returns
/// the number of edges relaxed. A node keeps the first strictly better
/// predecessor, in topological order.
fn dag_predecessors(
    net: &Network,
    from: NodeIndex,
    filter: &RelationFilter,
) -> Option<(Vec<NodeIndex>, usize)> {
    let graph = net.graph();
    let order = reachable_topological_order(net, from, filter)?;
    let mut dist = vec![f64::INFINITY; graph.node_bound()];
    let mut pred = vec![NodeIndex::end(); graph.node_bound()];
    dist[from.index()] = 0.0;
    pred[from.index()] = from;
    let mut relaxed = 0;
    for u in order {
        crate::budget::charge(1);
        let du = dist[u.index()];
        for e in graph.edges_directed(u, Outgoing) {
            if !filter.keeps(e.weight()) {
                continue;
            }
            relaxed += 1;
            let v = e.target().index();
            let d = du + e.weight().weight;
            // An unreached node takes any predecessor, so a sum past the float
            // range is reported as an overflow rather than as "no path".
            if d < dist[v] || pred[v] == NodeIndex::end() {
                dist[v] = d;
                pred[v] = u;
            }
        }
    }
    Some((pred, relaxed))
}

/// Bellman-Ford's predecessors from `from` (negative weights): the acyclic
/// shortcut when what `from` reaches has no cycle, else petgraph's queue-based
/// [`spfa`](fn@petgraph::algo::spfa), O(V·E) in the worst case.
fn negative_predecessors(
    net: &Network,
    from: NodeIndex,
    filter: &RelationFilter,
) -> Result<Vec<NodeIndex>> {
    if let Some((pred, _)) = dag_predecessors(net, from, filter) {
        return Ok(pred);
    }
    // Each relaxation reads an edge's cost, so that is where the call's budget is
    // charged: a graph built to make this quadratic is stopped by its deadline.
    let cost = |e: petgraph::stable_graph::EdgeReference<'_, Edge>| {
        crate::budget::charge(1);
        e.weight().weight
    };
    let kept = EdgeFiltered::from_fn(
        net.graph(),
        |e: petgraph::stable_graph::EdgeReference<'_, Edge>| filter.keeps(e.weight()),
    );
    let paths = spfa(&kept, from, cost).map_err(|_| Error::NegativeCycle {
        source_id: net.id_at(from).to_string(),
    })?;
    Ok(paths
        .predecessors
        .into_iter()
        .map(|p| p.unwrap_or_else(NodeIndex::end))
        .collect())
}

/// Turns a node sequence into a [`Path`], choosing between each consecutive pair
/// the lightest (`weighted`) or lowest-id edge, ties to the lowest id.
fn path_through(
    net: &Network,
    nodes: Vec<NodeIndex>,
    weighted: bool,
    filter: &RelationFilter,
) -> Result<Path> {
    let mut edges = Vec::with_capacity(nodes.len().saturating_sub(1));
    let mut total_weight = 0.0;
    for pair in nodes.windows(2) {
        let best = net
            .graph()
            .edges_connecting(pair[0], pair[1])
            .map(|e| e.weight())
            .filter(|e| filter.keeps(e))
            .min_by(|x, y| {
                let by_weight = if weighted {
                    // Weights are finite, so only ±0 compare equal, as they should.
                    x.weight.partial_cmp(&y.weight).unwrap_or(Ordering::Equal)
                } else {
                    Ordering::Equal
                };
                by_weight.then(x.id.cmp(&y.id))
            })
            .ok_or_else(|| Error::Internal {
                message: format!(
                    "shortest path steps from '{}' to '{}' without an edge",
                    net.id_at(pair[0]),
                    net.id_at(pair[1])
                ),
            })?;
        edges.push(best.id);
        total_weight += best.weight;
    }
    Ok(Path {
        hops: edges.len(),
        nodes,
        edges,
        total_weight,
    })
}

/// An [`Error::InvalidValue`] unless `ix` is a node of this network.
fn check_index(net: &Network, field: &str, ix: NodeIndex) -> Result<()> {
    if net.graph().contains_node(ix) {
        Ok(())
    } else {
        Err(Error::InvalidValue {
            field: field.to_string(),
            reason: format!(
                "node index {} is not a node of {}; look indices up with index_of",
                ix.index(),
                if net.name().is_empty() {
                    "this network".to_string()
                } else {
                    format!("network '{}'", net.name())
                }
            ),
        })
    }
}

impl Network {
    /// The shortest path from `from` to `to`, following edges forwards.
    ///
    /// * `weighted: true` — least total weight. **Dijkstra** (binary heap, stopping
    ///   once `to` is settled) when no edge weight is negative: O((|V| + |E|) log |V|).
    ///   When any weight is negative: if the part of the network reachable from
    ///   `from` has no cycle, each node's out-edges are relaxed once in
    ///   topological order, O(|V| + |E|); otherwise **Bellman-Ford** (petgraph's
    ///   queue-based [`spfa()`]), whose true worst case is O(|V|·|E|) (a
    ///   negative edge can make a node's distance improve once per node before
    ///   it settles: 10⁴ nodes and 10⁵ edges, up to 10⁹ relaxations); a
    ///   cycle of negative total weight reachable from `from` gives
    ///   [`Error::NegativeCycle`] — whatever `to` is, even `from` itself, since
    ///   shortest paths from `from` are then undefined.
    /// * `weighted: false` — fewest edges, by **BFS** stopping once `to` is found:
    ///   O(|V| + |E|). `total_weight` is still the sum of the chosen edges' weights.
    ///
    /// Between two consecutive nodes joined by parallel edges, the lightest edge is
    /// taken when weighted and the lowest edge id when not; ties between equally
    /// light edges go to the lowest edge id. `from == to` gives the 0-hop path
    /// `[from]`. `Ok(None)` when `to` is unreachable. An index that is not a node of
    /// this network is an [`Error::InvalidValue`].
    ///
    /// **Determinism:** among several optimal paths the result is fixed by the
    /// network's content and history: BFS takes neighbors in edge-insertion order and
    /// keeps each node's first discoverer; Dijkstra keeps the first strictly better
    /// predecessor, and its heap orders equal distances deterministically; with
    /// negative weights, the acyclic case keeps the first strictly better
    /// predecessor in topological order, and Bellman-Ford petgraph's. (Sums of
    /// weights so large that they overflow to infinity are treated as unreachable.)
    ///
    /// ```
    /// use networks_mcp::network::{Network, Weighted};
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["a", "b", "c"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("a", "c", 10.0).unwrap(); // edge 0
    /// net.add_edge("a", "b", 1.0).unwrap(); // edge 1
    /// net.add_edge("b", "c", 2.0).unwrap(); // edge 2
    ///
    /// let light = net.shortest_path("a", "c", Weighted::Yes).unwrap().unwrap();
    /// assert_eq!((light.edges, light.total_weight, light.hops), (vec![1, 2], 3.0, 2));
    ///
    /// let short = net.shortest_path("a", "c", Weighted::No).unwrap().unwrap();
    /// assert_eq!((short.edges, short.total_weight, short.hops), (vec![0], 10.0, 1));
    ///
    /// assert_eq!(net.shortest_path("c", "a", Weighted::Yes).unwrap(), None);
    /// ```
    pub fn shortest_path(&self, from: &str, to: &str, weighted: Weighted) -> Result<Option<Path>> {
        let from = self.require("from", from)?;
        let to = self.require("to", to)?;
        self.shortest_path_by_index(from, to, weighted)
    }

    /// [`Network::shortest_path`] between node indices, for programs that hold
    /// indices already (no id lookups).
    ///
    /// ```
    /// use networks_mcp::network::{Network, Weighted};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// net.add_edge("a", "b", 2.0)?;
    /// let (a, b) = (net.index_of("a").unwrap(), net.index_of("b").unwrap());
    /// let path = net.shortest_path_by_index(a, b, Weighted::Yes)?.unwrap();
    /// assert_eq!((net.ids(&path.nodes), path.total_weight), (vec!["a", "b"], 2.0));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn shortest_path_by_index(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        weighted: Weighted,
    ) -> Result<Option<Path>> {
        self.shortest_path_following(from, to, weighted, RelationFilter::every_edge())
    }

    fn shortest_path_following(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        weighted: Weighted,
        filter: &RelationFilter,
    ) -> Result<Option<Path>> {
        let weighted = weighted.is_yes();
        check_index(self, "from", from)?;
        check_index(self, "to", to)?;
        let graph = self.graph();
        let pred: Vec<NodeIndex> = if weighted && first_negative_edge(self, filter).is_some() {
            negative_predecessors(self, from, filter)?
        } else if from == to {
            Vec::new()
        } else if weighted {
            let found = dijkstra_core::<true>(self, from, Some(to), filter);
            // A path may exist whose length is past the range of f64: say so
            // rather than answer "no path".
            if found.overflowed
                && found.pred[to.index()] == NodeIndex::end()
                && bfs_predecessors(self, from, to, filter)[to.index()] != NodeIndex::end()
            {
                return Err(overflow(self, from, Some(to), true));
            }
            found.pred
        } else {
            bfs_predecessors(self, from, to, filter)
        };
        if from == to {
            return Ok(Some(Path {
                nodes: vec![from],
                edges: Vec::new(),
                total_weight: 0.0,
                hops: 0,
            }));
        }
        if pred.get(to.index()).is_none_or(|p| *p == NodeIndex::end()) {
            return Ok(None);
        }
        // Walk the predecessors back from `to`; a simple path has < |V| edges.
        let mut nodes = vec![to];
        let mut node = to;
        while node != from {
            node = match pred.get(node.index()) {
                Some(&p) if p != NodeIndex::end() && nodes.len() <= graph.node_count() => p,
                _ => {
                    return Err(Error::Internal {
                        message: format!(
                            "shortest path predecessors from '{}' to '{}' do not lead back to the start",
                            self.id_at(from),
                            self.id_at(to)
                        ),
                    });
                }
            };
            nodes.push(node);
        }
        nodes.reverse();
        let path = path_through(self, nodes, weighted, filter)?;
        if !path.total_weight.is_finite() {
            return Err(overflow(self, from, Some(to), weighted));
        }
        Ok(Some(path))
    }

    /// Dijkstra's single-source distances along outgoing edges from `from`, as a
    /// `Vec` indexed by [`NodeIndex::index`] (length `node_bound()`), with
    /// `f64::INFINITY` for unreachable nodes (and for indices of removed nodes).
    ///
    /// Weights must be non-negative: if any edge weight is negative this returns
    /// [`Error::InvalidValue`] for field `"weight"` (use
    /// [`Network::shortest_path`], which falls back to Bellman-Ford). An index that is
    /// not a node of this network is an [`Error::InvalidValue`] for field `"from"`.
    ///
    /// **Complexity:** O(|E|) to check the weights, then O((|V| + |E|) log |V|) with a
    /// binary heap and `Vec`-backed distances (no hashing). Distances do not depend on
    /// tie-breaking, so the result is fully deterministic.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["a", "b", "c"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("a", "b", 2.0).unwrap();
    /// net.add_edge("b", "c", 0.5).unwrap();
    /// let dist = net.dijkstra_distances_by_index(net.index_of("b").unwrap()).unwrap();
    /// assert_eq!(dist, [f64::INFINITY, 0.0, 0.5]);
    ///
    /// net.add_edge("c", "a", -1.0).unwrap();
    /// assert!(net.dijkstra_distances_by_index(net.index_of("a").unwrap()).is_err());
    /// ```
    pub fn dijkstra_distances(&self, from: &str) -> Result<Vec<f64>> {
        self.dijkstra_distances_by_index(self.require("from", from)?)
    }

    /// [`Network::dijkstra_distances`] from a node index.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// net.add_edge("a", "b", 0.5)?;
    /// let distances = net.dijkstra_distances_by_index(net.index_of("b").unwrap())?;
    /// assert_eq!(distances[net.index_of("b").unwrap().index()], 0.0);
    /// assert!(distances[net.index_of("a").unwrap().index()].is_infinite());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn dijkstra_distances_by_index(&self, from: NodeIndex) -> Result<Vec<f64>> {
        self.dijkstra_distances_on_threads(from, 0)
    }

    /// [`Network::dijkstra_distances_by_index`] with the relaxations of its
    /// large buckets (where most of the time goes on a large graph) shared
    /// among `threads` threads; the same distances, to the bit. `threads` 0:
    /// as many as the runner lends ([`crate::budget::threads`]; the server
    /// lends its free compute threads), one without a runner.
    pub fn dijkstra_distances_on_threads(
        &self,
        from: NodeIndex,
        threads: usize,
    ) -> Result<Vec<f64>> {
        check_index(self, "from", from)?;
        if let Some(edge) = first_negative_edge(self, RelationFilter::every_edge()) {
            return Err(Error::InvalidValue {
                field: "weight".to_string(),
                reason: format!(
                    "edge {edge} has a negative weight, and Dijkstra needs non-negative weights; use shortest_path (Bellman-Ford) or make the weights non-negative"
                ),
            });
        }
        // Buckets where the weights suit them (the same distances), else a heap.
        let (dist, overflowed) = match super::sssp::distances(self, from, threads) {
            Some(found) => (found.dist, found.overflowed),
            None => {
                let found = dijkstra_core::<false>(self, from, None, RelationFilter::every_edge());
                (found.dist, found.overflowed)
            }
        };
        if overflowed {
            return Err(overflow(self, from, None, true));
        }
        Ok(dist)
    }
}

impl Following<'_> {
    /// [`Network::shortest_path`] along the edges the filter keeps.
    pub fn shortest_path(&self, from: &str, to: &str, weighted: Weighted) -> Result<Option<Path>> {
        let from = self.net.require("from", from)?;
        let to = self.net.require("to", to)?;
        self.shortest_path_by_index(from, to, weighted)
    }

    /// [`Network::shortest_path_by_index`] along the edges the filter keeps.
    pub fn shortest_path_by_index(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        weighted: Weighted,
    ) -> Result<Option<Path>> {
        self.net
            .shortest_path_following(from, to, weighted, self.filter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::MissingNodes;

    /// Bellman-Ford's quadratic case: a start with a 0-weight edge to every
    /// node, and a chain of −1 edges through them (n1 → n2 → …).
    fn shortcut_chain(n: usize) -> Network {
        let ids: Vec<String> = (0..=n).map(|i| format!("n{i}")).collect();
        let mut net = Network::new();
        net.add_nodes(ids.iter().map(String::as_str)).unwrap();
        let shortcuts = ids[1..]
            .iter()
            .map(|id| (ids[0].as_str(), id.as_str(), 0.0));
        let chain = ids[1..]
            .windows(2)
            .map(|p| (p[0].as_str(), p[1].as_str(), -1.0));
        net.add_edges(shortcuts.chain(chain), MissingNodes::Fail)
            .unwrap();
        net
    }

    #[test]
    fn negative_weights_on_an_acyclic_part_relax_each_edge_once() {
        let n = 40_000;
        let net = shortcut_chain(n);
        let from = net.index_of("n0").unwrap();
        let (_, relaxed) = dag_predecessors(&net, from, RelationFilter::every_edge()).unwrap();
        assert_eq!(relaxed, net.edge_count());
        let to = net.index_of(&format!("n{n}")).unwrap();
        let path = net
            .shortest_path_by_index(from, to, Weighted::Yes)
            .unwrap()
            .unwrap();
        // n0 → n1 (0), then the whole chain at −1 a hop.
        assert_eq!((path.hops, path.total_weight), (n, -(n as f64 - 1.0)));
    }

    #[test]
    fn the_acyclic_shortcut_agrees_with_bellman_ford() {
        let net = shortcut_chain(300);
        let from = net.index_of("n0").unwrap();
        let (dag, _) = dag_predecessors(&net, from, RelationFilter::every_edge()).unwrap();
        let spfa = spfa(net.graph(), from, |e| e.weight().weight).unwrap();
        let weight = |pred: &[NodeIndex], mut node: NodeIndex| {
            let mut total = 0.0;
            while node != from {
                let p = pred[node.index()];
                total += net
                    .graph()
                    .edges_connecting(p, node)
                    .map(|e| e.weight().weight)
                    .fold(f64::INFINITY, f64::min);
                node = p;
            }
            total
        };
        for node in net.graph().node_indices() {
            assert_eq!(weight(&dag, node), spfa.distances[node.index()]);
        }
        // A cycle anywhere the start reaches sends it to Bellman-Ford.
        let mut cyclic = shortcut_chain(3);
        cyclic.add_edge("n3", "n1", 5.0).unwrap();
        assert!(dag_predecessors(&cyclic, from, RelationFilter::every_edge()).is_none());
        let mut looped = shortcut_chain(3);
        looped.add_edge("n2", "n2", 1.0).unwrap();
        assert!(dag_predecessors(&looped, from, RelationFilter::every_edge()).is_none());
    }
}
