//! A plain-data form of a [`Network`] for snapshots: serialisable, and restorable
//! with the same node order, edge ids, edge order and next edge id.

use super::{Attributes, EdgeId, Network, Node, validate};
use crate::error::{Error, Result};

/// One edge in plain data.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EdgeData {
    /// Stable edge id.
    pub id: EdgeId,
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Weight.
    pub weight: f64,
    /// Attributes.
    pub attributes: Attributes,
}

/// A whole network in plain data.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NetworkData {
    /// The description, if any.
    pub description: Option<String>,
    /// The id the next edge will get.
    pub next_edge_id: EdgeId,
    /// Nodes in index order.
    pub nodes: Vec<Node>,
    /// Edges in id (insertion) order.
    pub edges: Vec<EdgeData>,
    /// The relation types declared non-blocking ([`Network::nonblocking_relations`]);
    /// absent from snapshots of networks that declare none.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub nonblocking_relations: Vec<String>,
}

impl Network {
    /// The network as plain data. O(V + E log E).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// net.add_edge("a", "b", 1.5)?;
    /// let copy = Network::from_data("copy", net.to_data())?;
    /// assert_eq!(copy.to_data(), net.to_data());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn to_data(&self) -> NetworkData {
        let nodes = self
            .graph
            .node_indices()
            .map(|ix| self.graph[ix].clone())
            .collect();
        let mut edges: Vec<EdgeData> = self
            .edges_of(None)
            .into_iter()
            .map(|e| EdgeData {
                id: e.id,
                source: e.source.to_string(),
                target: e.target.to_string(),
                weight: e.weight,
                attributes: e.attributes.clone(),
            })
            .collect();
        edges.sort_unstable_by_key(|e| e.id);
        NetworkData {
            description: self.description.clone(),
            next_edge_id: self.next_edge_id,
            nodes,
            edges,
            nonblocking_relations: self.nonblocking_relations.clone(),
        }
    }

    /// Rebuilds a network from plain data, checking it as strictly as live input:
    /// valid unique ids, flat attributes, finite weights, known endpoints, unique
    /// edge ids below `next_edge_id`.
    pub fn from_data(name: &str, data: NetworkData) -> Result<Network> {
        let mut net = Network::with_capacity(data.nodes.len(), data.edges.len());
        net.set_name(name);
        net.description = data.description;
        net.nonblocking_relations = data.nonblocking_relations;
        for node in data.nodes {
            validate::id("node_id", &node.id)?;
            validate::attributes("attributes", &node.attributes.to_map())?;
            if net.contains_node(&node.id) {
                return Err(Error::InvalidValue {
                    field: "nodes".into(),
                    reason: format!("node '{}' appears twice", node.id),
                });
            }
            let id = node.id.clone();
            net.insert_node_unchecked(&id, node.data.map(|d| *d), node.attributes);
        }
        // Edges go in by id so that each node's petgraph edge list is newest first
        // by id, as it is for a network built through the API.
        let mut edges = data.edges;
        edges.sort_by_key(|e| e.id);
        for edge in edges {
            validate::weight(edge.weight)?;
            validate::attributes("attributes", &edge.attributes.to_map())?;
            let a = net.require("source", &edge.source)?;
            let b = net.require("target", &edge.target)?;
            if edge.id >= data.next_edge_id || net.edge_index.contains(edge.id) {
                return Err(Error::InvalidValue {
                    field: "edges".into(),
                    reason: format!("edge id {} is repeated or not below next_edge_id", edge.id),
                });
            }
            net.next_edge_id = edge.id;
            net.insert_edge_unchecked(a, b, edge.weight, edge.attributes);
        }
        net.next_edge_id = data.next_edge_id;
        // The rebuild is not the network's past.
        net.forget_history();
        Ok(net)
    }
}
