//! The critical path: the longest path of a DAG, edge weights read as durations.

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};

use super::following::Following;
use crate::error::{Error, Result};
use crate::network::graph::{EdgeId, Network, RelationFilter};

/// A longest path and its length.
#[derive(Debug, Clone, PartialEq)]
pub struct CriticalPath {
    /// The path's nodes, in edge direction (empty only for the empty network).
    pub nodes: Vec<NodeIndex>,
    /// The stable ids of the path's edges; `edges[i]` joins `nodes[i]` to `nodes[i + 1]`.
    pub edges: Vec<EdgeId>,
    /// The sum of the edges' weights (0 for a single node).
    pub total_weight: f64,
}

impl Network {
    /// The longest path by total edge weight, in a DAG.
    ///
    /// Weights are durations; negative weights are allowed. A path may be a single
    /// node (length 0), so the result is never negative; the empty network gives an
    /// empty path of length 0. Among parallel edges the heaviest counts.
    ///
    /// Algorithm: dynamic programming over a topological order, folded into Kahn's
    /// algorithm (source before target): `best[v] = max(0, max over edges u → v of
    /// best[u] + w)`, where 0 means "the path starts at `v`". Each node's best value
    /// is final when Kahn dequeues it, and then relaxes its out-edges.
    ///
    /// Complexity: O(V + E) time (one pass over the edges for in-degrees, one
    /// traversal of the adjacency lists), O(V) extra space.
    ///
    /// Ties, all deterministic: the path ends at the lowest-index node among those
    /// with the greatest `best`; at each node the predecessor edge is the one with the
    /// greatest `best[u] + w`, then the lowest source index `u`, then the lowest edge
    /// id; extending a path is preferred over starting a new one at `v` when both are
    /// equally long.
    ///
    /// # Errors
    /// [`Error::CycleDetected`] with operation
    /// `"a critical path"` and a witness cycle if the graph has a cycle.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["design", "build", "test", "docs"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("design", "build", 5.0).unwrap();
    /// let slow = net.add_edge("build", "test", 3.0).unwrap();
    /// net.add_edge("design", "docs", 4.0).unwrap();
    /// net.add_edge("build", "test", 1.0).unwrap(); // parallel, lighter
    ///
    /// let path = net.critical_path().unwrap();
    /// let ids: Vec<&str> = path.nodes.iter().map(|&ix| net.id_at(ix)).collect();
    /// assert_eq!(ids, ["design", "build", "test"]);
    /// assert_eq!(path.edges[1], slow);
    /// assert_eq!(path.total_weight, 8.0);
    /// ```
    pub fn critical_path(&self) -> Result<CriticalPath> {
        self.critical_path_following(RelationFilter::every_edge())
    }

    fn critical_path_following(&self, filter: &RelationFilter) -> Result<CriticalPath> {
        match self.longest_path_among(&|_| true, filter) {
            Some(result) => result,
            None => Err(self.cycle_error_following("a critical path", filter)),
        }
    }

    /// [`Network::critical_path`] of the subgraph induced by the nodes `keep`
    /// accepts (edges count when both ends are kept), with the same algorithm,
    /// complexity and ties; `None` when the kept nodes hold a cycle.
    pub(crate) fn longest_path_among(
        &self,
        keep: &dyn Fn(NodeIndex) -> bool,
        filter: &RelationFilter,
    ) -> Option<Result<CriticalPath>> {
        self.longest_path_linked(keep, filter, &[])
    }

    /// [`Network::longest_path_among`] with `links` besides the edges: pairs
    /// (source, target) in edge direction that weigh nothing and have no edge
    /// id (a parent and the child it waits on). A path may step along one: it
    /// then has fewer edges than steps, and `edges` lists those it has, in
    /// order. Between steps of equal length from one node, an edge wins over a
    /// link. O(V + E + links).
    pub(crate) fn longest_path_linked(
        &self,
        keep: &dyn Fn(NodeIndex) -> bool,
        filter: &RelationFilter,
        links: &[(NodeIndex, NodeIndex)],
    ) -> Option<Result<CriticalPath>> {
        /// How a node was reached on its best path so far.
        #[derive(Clone, Copy)]
        enum Step {
            Edge(EdgeIndex),
            Link,
        }
        let g = self.graph();
        let bound = g.node_bound();
        // Kahn's algorithm with the DP folded in: when `v` is dequeued all its
        // predecessors are final, so `best[v]` is final; then its out-edges relax
        // their targets. Until then `best[w]` is the best extension seen so far,
        // from the step `pred[w]` whose source is `pred_source[w]`.
        let kept: Vec<bool> = (0..bound)
            .map(|i| g.contains_node(NodeIndex::new(i)) && keep(NodeIndex::new(i)))
            .collect();
        let kept_count = kept.iter().filter(|&&k| k).count();
        let mut pending = vec![0u32; bound];
        for e in g.edge_references() {
            if kept[e.source().index()] && kept[e.target().index()] && filter.keeps(e.weight()) {
                pending[e.target().index()] += 1;
            }
        }
        // The links between kept nodes, by source (compressed rows).
        let links: Vec<(NodeIndex, NodeIndex)> = links
            .iter()
            .copied()
            .filter(|(a, b)| a.index() < bound && b.index() < bound)
            .filter(|(a, b)| kept[a.index()] && kept[b.index()])
            .collect();
        let mut link_start = vec![0usize; if links.is_empty() { 0 } else { bound + 1 }];
        let mut link_target = vec![NodeIndex::end(); links.len()];
        if !links.is_empty() {
            for &(a, b) in &links {
                link_start[a.index() + 1] += 1;
                pending[b.index()] += 1;
            }
            for i in 0..bound {
                link_start[i + 1] += link_start[i];
            }
            let mut next = link_start.clone();
            for &(a, b) in &links {
                link_target[next[a.index()]] = b;
                next[a.index()] += 1;
            }
        }
        let linked = |v: usize| -> &[NodeIndex] {
            if link_start.is_empty() {
                &[]
            } else {
                &link_target[link_start[v]..link_start[v + 1]]
            }
        };
        let mut best = vec![f64::NEG_INFINITY; bound];
        let mut pred: Vec<Option<Step>> = vec![None; bound];
        let mut pred_source = vec![0u32; bound];
        let mut queue: Vec<NodeIndex> = g
            .node_indices()
            .filter(|v| kept[v.index()] && pending[v.index()] == 0)
            .collect();
        let mut head = 0;
        while let Some(&v) = queue.get(head) {
            head += 1;
            crate::budget::charge(1);
            let vi = v.index();
            // Start a new path at `v` unless extending is at least as long.
            if pred[vi].is_none() || best[vi] < 0.0 {
                best[vi] = 0.0;
                pred[vi] = None;
            }
            let steps = g
                .edges_directed(v, Outgoing)
                .filter(|e| kept[e.target().index()] && filter.keeps(e.weight()))
                .map(|e| (e.target(), e.weight().weight, Step::Edge(e.id())))
                .chain(linked(vi).iter().map(|&w| (w, 0.0, Step::Link)));
            for (target, weight, step) in steps {
                let w = target.index();
                let candidate = best[vi] + weight;
                let source = vi as u32;
                let better = match pred[w] {
                    None => true,
                    Some(_) if candidate != best[w] => candidate > best[w],
                    // Equally long: lowest source index, then an edge before
                    // a link, then lowest edge id.
                    Some(_) if source != pred_source[w] => source < pred_source[w],
                    Some(current) => match (step, current) {
                        (Step::Edge(new), Step::Edge(old)) => {
                            match (g.edge_weight(new), g.edge_weight(old)) {
                                (Some(n), Some(o)) => n.id < o.id,
                                _ => false,
                            }
                        }
                        (Step::Edge(_), Step::Link) => true,
                        (Step::Link, _) => false,
                    },
                };
                if better {
                    best[w] = candidate;
                    pred[w] = Some(step);
                    pred_source[w] = source;
                }
                pending[w] -= 1;
                if pending[w] == 0 {
                    queue.push(target);
                }
            }
        }
        if queue.len() != kept_count {
            return None;
        }

        let mut end: Option<NodeIndex> = None;
        for v in g.node_indices().filter(|v| kept[v.index()]) {
            if end.is_none_or(|e| best[v.index()] > best[e.index()]) {
                end = Some(v);
            }
        }
        let Some(end) = end else {
            return Some(Ok(CriticalPath {
                nodes: Vec::new(),
                edges: Vec::new(),
                total_weight: 0.0,
            }));
        };
        if !best[end.index()].is_finite() {
            return Some(Err(Error::WeightOverflow {
                what: "the critical path".into(),
                hops_possible: false,
            }));
        }

        let mut nodes = vec![end];
        let mut edges = Vec::new();
        let mut v = end;
        while let Some(step) = pred[v.index()] {
            if let Step::Edge(edge) = step {
                let Some(weight) = g.edge_weight(edge) else {
                    break;
                };
                edges.push(weight.id);
            }
            let source = NodeIndex::new(pred_source[v.index()] as usize);
            nodes.push(source);
            v = source;
        }
        nodes.reverse();
        edges.reverse();
        Some(Ok(CriticalPath {
            nodes,
            edges,
            total_weight: best[end.index()],
        }))
    }
}

impl Following<'_> {
    /// [`Network::critical_path`] along the edges the filter keeps.
    pub fn critical_path(&self) -> Result<CriticalPath> {
        self.net.critical_path_following(self.filter)
    }
}
