//! A one-call structural summary of a network.

use petgraph::stable_graph::NodeIndex;
use petgraph::unionfind::UnionFind;
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};

use crate::network::graph::Network;

/// The result of [`Network::describe`].
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    /// Number of nodes.
    pub nodes: usize,
    /// Number of edges (parallel edges and self-loops counted).
    pub edges: usize,
    /// `E / (V · (V − 1))`, 0 when `V < 2`; may exceed 1 with parallel edges or self-loops.
    pub density: f64,
    /// Whether the graph has no cycle (a self-loop is a cycle).
    pub is_dag: bool,
    /// Number of weakly connected components (0 for the empty network).
    pub weakly_connected_components: usize,
    /// Number of self-loop edges.
    pub self_loops: usize,
    /// The first `list_limit` nodes by index with in-degree 0.
    pub sources: Vec<NodeIndex>,
    /// Number of nodes with in-degree 0.
    pub sources_total: usize,
    /// The first `list_limit` nodes by index with out-degree 0.
    pub sinks: Vec<NodeIndex>,
    /// Number of nodes with out-degree 0.
    pub sinks_total: usize,
    /// Number of nodes with no edge at all (a self-loop counts as an edge).
    pub isolated_total: usize,
    /// The `top_k` nodes with the highest in-degree, highest first, ties by index.
    pub top_in_degree: Vec<(NodeIndex, usize)>,
    /// The `top_k` nodes with the highest out-degree, highest first, ties by index.
    pub top_out_degree: Vec<(NodeIndex, usize)>,
    /// The sum of all edge weights (0 without edges).
    pub total_weight: f64,
    /// The smallest edge weight, `None` without edges.
    pub min_weight: Option<f64>,
    /// The largest edge weight, `None` without edges.
    pub max_weight: Option<f64>,
}

impl Network {
    /// Counts, degrees and weights of the network in one pass over its edges.
    ///
    /// Degrees count parallel edges; a self-loop adds 1 to both the in- and the
    /// out-degree of its node. Weak components come from a union-find over the
    /// edges (petgraph's `connected_components` needs compact indices, which a
    /// `StableGraph` does not guarantee). `is_dag` uses [`Network::is_dag`].
    ///
    /// Complexity: O(V + E·α(V)) time, O(V) extra space.
    ///
    /// Order and ties: `sources` and `sinks` hold the first `list_limit` by index
    /// (insertion order); `top_in_degree` and `top_out_degree` hold the `top_k` nodes
    /// by degree, highest first, ties broken by lowest index (nodes of degree 0
    /// included if fewer than `top_k` others exist).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["a", "b", "c", "lonely"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("a", "b", 2.0).unwrap();
    /// net.add_edge("a", "c", 0.5).unwrap();
    ///
    /// let d = net.describe(10, 1);
    /// assert_eq!((d.nodes, d.edges, d.weakly_connected_components), (4, 2, 2));
    /// assert!(d.is_dag);
    /// assert_eq!(net.ids(&d.sources), ["a", "lonely"]);
    /// assert_eq!(d.sinks_total, 3);
    /// assert_eq!(d.isolated_total, 1);
    /// assert_eq!(d.top_out_degree, [(net.index_of("a").unwrap(), 2)]);
    /// assert_eq!((d.total_weight, d.min_weight, d.max_weight), (2.5, Some(0.5), Some(2.0)));
    /// ```
    pub fn describe(&self, list_limit: usize, top_k: usize) -> Description {
        let g = self.graph();
        let bound = g.node_bound();
        let mut in_degree = vec![0u32; bound];
        let mut out_degree = vec![0u32; bound];
        let mut components = UnionFind::<u32>::new(bound);
        let mut self_loops = 0;
        let mut total_weight = 0.0;
        let mut min_weight: Option<f64> = None;
        let mut max_weight: Option<f64> = None;
        for e in g.edge_references() {
            crate::budget::charge(1);
            let (a, b) = (e.source().index(), e.target().index());
            out_degree[a] += 1;
            in_degree[b] += 1;
            if a == b {
                self_loops += 1;
            } else {
                components.union(a as u32, b as u32);
            }
            let w = e.weight().weight;
            total_weight += w;
            min_weight = Some(min_weight.map_or(w, |m| m.min(w)));
            max_weight = Some(max_weight.map_or(w, |m| m.max(w)));
        }

        let mut sources = Vec::new();
        let mut sinks = Vec::new();
        let (mut sources_total, mut sinks_total, mut isolated_total) = (0, 0, 0);
        let mut weak = 0;
        for v in g.node_indices() {
            let i = v.index();
            if in_degree[i] == 0 {
                sources_total += 1;
                if sources.len() < list_limit {
                    sources.push(v);
                }
            }
            if out_degree[i] == 0 {
                sinks_total += 1;
                if sinks.len() < list_limit {
                    sinks.push(v);
                }
            }
            if in_degree[i] == 0 && out_degree[i] == 0 {
                isolated_total += 1;
            }
            if components.find_mut(i as u32) == i as u32 {
                weak += 1;
            }
        }

        let nodes = g.node_count();
        let edges = g.edge_count();
        Description {
            nodes,
            edges,
            density: if nodes < 2 {
                0.0
            } else {
                edges as f64 / (nodes as f64 * (nodes as f64 - 1.0))
            },
            is_dag: self.is_dag(),
            weakly_connected_components: weak,
            self_loops,
            sources,
            sources_total,
            sinks,
            sinks_total,
            isolated_total,
            top_in_degree: self.top_degrees(&in_degree, top_k),
            top_out_degree: self.top_degrees(&out_degree, top_k),
            total_weight,
            min_weight,
            max_weight,
        }
    }

    /// The `k` nodes with the highest `degree`, highest first, ties by lowest index.
    /// O(V + k log k) by selection.
    fn top_degrees(&self, degree: &[u32], k: usize) -> Vec<(NodeIndex, usize)> {
        if k == 0 {
            return Vec::new();
        }
        let mut all: Vec<(NodeIndex, u32)> = self
            .graph()
            .node_indices()
            .map(|v| (v, degree[v.index()]))
            .collect();
        let rank = |a: &(NodeIndex, u32), b: &(NodeIndex, u32)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
        if all.len() > k {
            all.select_nth_unstable_by(k - 1, rank);
            all.truncate(k);
        }
        all.sort_unstable_by(rank);
        all.into_iter().map(|(v, d)| (v, d as usize)).collect()
    }
}
