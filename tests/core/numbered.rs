//! Networks whose nodes are numbered `n0`, `n1`, …, built from `(a, b, weight)`
//! edge triples: the shape the core's property tests generate.

use networks_mcp::network::Network;
use petgraph::stable_graph::NodeIndex;

/// The id of node number `i`.
pub fn id(i: usize) -> String {
    format!("n{i}")
}

/// Nodes `n0`..`n{n-1}` in index order (node `i` has index `i`), then `edges` in
/// order (edge `k` has id `k`).
pub fn network(n: usize, edges: impl IntoIterator<Item = (usize, usize, f64)>) -> Network {
    let mut net = Network::new();
    for i in 0..n {
        net.add_node(&id(i)).unwrap();
        assert_eq!(net.index_of(&id(i)).unwrap().index(), i);
    }
    for (k, (a, b, w)) in edges.into_iter().enumerate() {
        let edge = net.add_edge(&id(a), &id(b), w).unwrap();
        assert_eq!(edge, k as u64);
    }
    net
}

/// The index of every node, by number.
pub fn indices(net: &Network, n: usize) -> Vec<NodeIndex> {
    (0..n).map(|i| net.index_of(&id(i)).unwrap()).collect()
}
