//! Connected components as lists of nodes: weakly connected (edges read both
//! ways) and strongly connected (every node reaches every other), as NetworkX's
//! `weakly_connected_components` and `strongly_connected_components` find them.
//!
//! Order, deterministic: each component lists its nodes by index (insertion
//! order), and the components are sorted by their first node.

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::NodeIndex;
use petgraph::unionfind::UnionFind;
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};

use super::cycles::scc_labels;
use crate::network::graph::Network;

/// Which components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// Connected when edges are read in either direction.
    Weak,
    /// Every node reaches every other along edges.
    Strong,
}

impl Network {
    /// The components of the network, each its nodes in insertion order, sorted
    /// by their first node. A node without edges is a component of its own.
    ///
    /// Algorithm: union-find over the edges (weak); iterative Tarjan (strong,
    /// as [`Network::find_cycles`] uses it). Complexity: O(V + E) (times the
    /// inverse Ackermann function for union-find), O(V) extra space.
    ///
    /// ```
    /// use networks_mcp::network::{Network, components::Connectivity};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "a", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// let weak = net.components(Connectivity::Weak);
    /// assert_eq!(weak.iter().map(|c| net.ids(c)).collect::<Vec<_>>(), [vec!["a", "b", "c"], vec!["d"]]);
    /// let strong = net.components(Connectivity::Strong);
    /// assert_eq!(strong.iter().map(|c| net.ids(c)).collect::<Vec<_>>(), [vec!["a", "b"], vec!["c"], vec!["d"]]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn components(&self, connectivity: Connectivity) -> Vec<Vec<NodeIndex>> {
        let g = self.graph();
        let bound = g.node_bound();
        // A label per node index, then the nodes grouped by label in index order.
        let label: Vec<u32> = match connectivity {
            Connectivity::Weak => {
                let mut sets = UnionFind::<u32>::new(bound);
                for e in g.edge_references() {
                    crate::budget::charge(1);
                    sets.union(e.source().index() as u32, e.target().index() as u32);
                }
                (0..bound as u32).map(|i| sets.find_mut(i)).collect()
            }
            Connectivity::Strong => {
                scc_labels(
                    g,
                    &self.follow(
                        Outgoing,
                        crate::network::graph::RelationFilter::every_edge(),
                    ),
                )
                .comp
            }
        };
        let mut slot = vec![u32::MAX; bound];
        let mut groups: Vec<Vec<NodeIndex>> = Vec::new();
        for v in g.node_indices() {
            let l = label[v.index()] as usize;
            if slot[l] == u32::MAX {
                slot[l] = groups.len() as u32;
                groups.push(Vec::new());
            }
            groups[slot[l] as usize].push(v);
        }
        groups
    }
}
