//! The writers, one per format. Each takes a [`Selection`] (the nodes and edges to
//! write, already in output order) and returns the document as a `String`.

pub(crate) mod csv;
pub(crate) mod cypher;
pub(crate) mod dot;
pub(crate) mod graphml;
pub(crate) mod mermaid;
pub(crate) mod node_link;

use petgraph::stable_graph::NodeIndex;
use std::collections::HashSet;

use crate::network::{EdgeView, Network, Node};

/// What to write: nodes in index order, edges in edge-id order, restricted to the
/// subgraph induced by `only` when given.
pub(crate) struct Selection<'a> {
    /// Nodes, in index order.
    pub nodes: Vec<&'a Node>,
    /// Edges whose endpoints are both selected, in edge-id order.
    pub edges: Vec<EdgeView<'a>>,
}

impl<'a> Selection<'a> {
    /// O(V + E log E).
    pub fn new(network: &'a Network, only: Option<&HashSet<NodeIndex>>) -> Self {
        let graph = network.graph();
        let keep = |ix: NodeIndex| only.is_none_or(|set| set.contains(&ix));
        let nodes = graph
            .node_indices()
            .filter(|&ix| keep(ix))
            .map(|ix| &graph[ix])
            .collect();
        let mut edges: Vec<EdgeView<'a>> = match only {
            None => network.edges_of(None),
            Some(_) => network
                .edges_of(None)
                .into_iter()
                .filter(|e| {
                    network.index_of(e.source).is_some_and(keep)
                        && network.index_of(e.target).is_some_and(keep)
                })
                .collect(),
        };
        edges.sort_unstable_by_key(|e| e.id);
        Selection { nodes, edges }
    }
}
