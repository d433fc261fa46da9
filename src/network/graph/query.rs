//! Filtered listings of nodes and edges, for paging through a network.

use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use serde_json::{Map, Value};

use super::{Direction, EdgeView, Network};

/// Which nodes [`Network::matching_nodes`] keeps. Empty fields match everything.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeFilter {
    /// Every listed attribute must be present with exactly this value.
    pub attributes: Map<String, Value>,
    /// The id must start with this.
    pub id_prefix: Option<String>,
    /// The id must contain this (case-insensitive).
    pub id_contains: Option<String>,
}

impl NodeFilter {
    fn matches(&self, network: &Network, ix: NodeIndex, contains_lower: Option<&str>) -> bool {
        let node = &network.graph()[ix];
        if let Some(prefix) = &self.id_prefix
            && !node.id.starts_with(prefix.as_str())
        {
            return false;
        }
        if let Some(needle) = contains_lower
            && !node.id.to_lowercase().contains(needle)
        {
            return false;
        }
        self.attributes
            .iter()
            .all(|(key, value)| node.attributes.get(key) == Some(value))
    }
}

impl Network {
    /// The nodes that pass `filter`, in index order (insertion order until removals).
    /// O(V) for a full pass.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeFilter, NodeSpec};
    ///
    /// let mut net = Network::new();
    /// net.add_node_with(NodeSpec::new("build").with_attribute("status", "done"))?;
    /// net.add_node_with(NodeSpec::new("test").with_attribute("status", "todo"))?;
    /// let mut todo = NodeFilter::default();
    /// todo.attributes.insert("status".into(), "todo".into());
    /// let found: Vec<_> = net.matching_nodes(&todo).collect();
    /// assert_eq!(net.ids(&found), ["test"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn matching_nodes<'a>(
        &'a self,
        filter: &'a NodeFilter,
    ) -> impl Iterator<Item = NodeIndex> + 'a {
        let needle = filter.id_contains.as_ref().map(|s| s.to_lowercase());
        self.graph()
            .node_indices()
            .filter(move |&ix| filter.matches(self, ix, needle.as_deref()))
    }

    /// Every edge, in storage order (stable between calls that do not remove edges).
    /// O(E) to walk.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// let id = net.add_edge("a", "b", 1.5)?;
    /// let all: Vec<_> = net.edges().map(|e| (e.id, e.source, e.target, e.weight)).collect();
    /// assert_eq!(all, [(id, "a", "b", 1.5)]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn edges(&self) -> impl Iterator<Item = EdgeView<'_>> {
        self.graph().edge_indices().filter_map(|ix| {
            let (a, b) = self.graph().edge_endpoints(ix)?;
            let edge = self.graph().edge_weight(ix)?;
            Some(EdgeView {
                id: edge.id,
                source: &self.graph()[a].id,
                target: &self.graph()[b].id,
                weight: edge.weight,
                attributes: &edge.attributes,
            })
        })
    }

    /// Every edge, or the edges of one node in `direction` (insertion order), as views.
    /// The whole-network order is the storage order, stable between calls that do not
    /// remove edges. O(E) or O(degree).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "c", 2.0)?;
    /// assert_eq!(net.edges_of(None).len(), 2);
    /// let b = net.index_of("b").unwrap();
    /// let out: Vec<_> = net.edges_of(Some((b, Direction::Out))).iter().map(|e| e.target).collect();
    /// assert_eq!(out, ["c"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn edges_of(&self, node: Option<(NodeIndex, Direction)>) -> Vec<EdgeView<'_>> {
        match node {
            Some((ix, direction)) => self.incident_edges(ix, direction),
            None => self.edges().collect(),
        }
    }

    /// Every edge index, in increasing edge id (insertion order). O(E), plus the
    /// holes left by removed edges in the edge-id index.
    pub(crate) fn edge_indices_by_id(&self) -> Vec<EdgeIndex> {
        let mut edges = Vec::with_capacity(self.edge_count());
        self.edge_index.for_each_newest_first(|ix| edges.push(ix));
        edges.reverse();
        edges
    }
}
