//! The writers, one per format. Each takes a [`Selection`] (the nodes and edges to
//! write, already in output order) and returns the document as a `String`.

pub(crate) mod csv;
pub(crate) mod cypher;
pub(crate) mod dot;
pub(crate) mod graphml;
pub(crate) mod mermaid;
pub(crate) mod node_link;

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::EdgeRef;
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
    /// The whole network in O(V + E log E), or the subgraph induced by `only` in
    /// time proportional to it: O(k log k + the out-degrees of its k nodes), so
    /// exporting a small neighbourhood of a large network stays cheap.
    pub fn new(network: &'a Network, only: Option<&HashSet<NodeIndex>>) -> Self {
        let graph = network.graph();
        let (nodes, mut edges): (Vec<&Node>, Vec<EdgeView<'a>>) = match only {
            None => (
                graph.node_indices().map(|ix| &graph[ix]).collect(),
                network.edges_of(None),
            ),
            Some(set) => {
                let mut kept: Vec<NodeIndex> = set.iter().copied().collect();
                kept.sort_unstable();
                let edges = kept
                    .iter()
                    .flat_map(|&ix| graph.edges_directed(ix, Outgoing))
                    .filter(|e| set.contains(&e.target()))
                    .filter_map(|e| network.edge(e.weight().id))
                    .collect();
                (kept.into_iter().map(|ix| &graph[ix]).collect(), edges)
            }
        };
        edges.sort_unstable_by_key(|e| e.id);
        Selection { nodes, edges }
    }
}
