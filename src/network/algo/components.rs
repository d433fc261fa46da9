//! Connected components as lists of nodes: weakly connected (edges read both
//! ways) and strongly connected (every node reaches every other), as NetworkX's
//! `weakly_connected_components` and `strongly_connected_components` find them.
//!
//! Order, deterministic: each component lists its nodes by index (insertion
//! order), and the components are sorted by their first node.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;

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
    /// Algorithm: union-find over the compact rows, Afforest's way (weak; see
    /// [`weak_labels`]); iterative Tarjan (strong,
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
            Connectivity::Weak => weak_labels(self),
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

/// Edges per node linked before the largest component is known (Afforest's
/// neighbour rounds).
const SAMPLED_EDGES: usize = 2;

/// Nodes sampled to find the largest component.
const COMPONENT_SAMPLE: usize = 1024;

/// Weak components as one label per node index: the smallest index of the
/// node's component. Afforest (M. Sutton, T. Ben-Nun, A. Barak, "Optimizing
/// Parallel Graph Connectivity Computation via Subgraph Sampling", IPDPS
/// 2018), on one thread: union-find over the first [`SAMPLED_EDGES`] edges of
/// every out-row, which already joins most of the largest component; then the
/// remaining edges of only the nodes outside it, both ways (an edge into such
/// a node from the largest component is in the node's in-row), so most edges
/// are never read. Union by smaller index, finds with path halving.
fn weak_labels(net: &Network) -> Vec<u32> {
    let bound = net.graph().node_bound();
    let out = net.rows(Outgoing);
    let inn = net.rows(Incoming);
    let mut parent: Vec<u32> = (0..bound as u32).collect();
    for round in 0..SAMPLED_EDGES {
        crate::budget::charge(bound as u64);
        for u in 0..bound {
            if let Some(v) = out.neighbors(NodeIndex::new(u)).get(round) {
                union(&mut parent, u as u32, v.index() as u32);
            }
        }
    }
    let largest = largest_sampled(&mut parent, net);
    for u in 0..bound {
        if find(&mut parent, u as u32) == largest {
            continue;
        }
        let ix = NodeIndex::new(u);
        let rest = out.neighbors(ix).get(SAMPLED_EDGES..).unwrap_or_default();
        let sources = inn.neighbors(ix);
        crate::budget::charge(1 + (rest.len() + sources.len()) as u64);
        for v in rest.iter().chain(sources) {
            union(&mut parent, u as u32, v.index() as u32);
        }
    }
    crate::budget::charge(bound as u64);
    (0..bound as u32).map(|u| find(&mut parent, u)).collect()
}

/// The root most of an evenly spaced sample of the nodes have: the largest
/// component, most likely. Deterministic; any answer is correct, a wrong
/// guess only reads more edges.
fn largest_sampled(parent: &mut [u32], net: &Network) -> u32 {
    let n = net.graph().node_count();
    let step = (n / COMPONENT_SAMPLE).max(1);
    let mut roots: Vec<u32> = net
        .graph()
        .node_indices()
        .step_by(step)
        .map(|v| find(parent, v.index() as u32))
        .collect();
    roots.sort_unstable();
    let mut best = (0, u32::MAX);
    for run in roots.chunk_by(|a, b| a == b) {
        if run.len() > best.0 {
            best = (run.len(), run[0]);
        }
    }
    best.1
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let grand = parent[parent[x as usize] as usize];
        parent[x as usize] = grand;
        x = grand;
    }
    x
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}
