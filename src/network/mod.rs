//! The pure graph core: [`Network`] and its algorithms.
//!
//! A `Network` is a petgraph [`StableDiGraph`](petgraph::stable_graph::StableDiGraph)
//! of [`Node`]s and [`Edge`]s plus an id → [`NodeIndex`](petgraph::stable_graph::NodeIndex)
//! index (a hash table of indices keyed by the ids in the node records), an
//! edge-id → [`EdgeIndex`](petgraph::stable_graph::EdgeIndex) index (a vector:
//! edge ids only grow), and a lazily built compact copy of the adjacency for
//! whole-graph algorithms ([`adjacency`]). It knows nothing of MCP, async or
//! I/O: programs and benchmarks use it directly.
//!
//! The code sits in two layers, as petgraph separates `graph_impl` from `algo`:
//! `graph/` holds the data structure and everything that must stay consistent
//! with it (the `Network` struct, the one change path, the indices, the
//! adjacency rows, validation, snapshots), and `algo/` the algorithm families
//! over it, which reach the structure only through its documented accessors.
//! This module only re-exports both, so the public paths
//! (`network::Network`, `network::paths::…`, `network::work::…`) do not
//! depend on the layout.
//!
//! ```
//! use networks_mcp::network::{Direction, Network};
//! use serde_json::Map;
//!
//! let mut net = Network::new();
//! for id in ["agents", "logging", "cli"] {
//!     net.add_node(id).unwrap();
//! }
//! net.add_edge("agents", "logging", 1.0).unwrap();
//! net.add_edge("cli", "agents", 1.0).unwrap();
//! assert_eq!(net.neighbors("agents", Direction::Both).unwrap(), ["logging", "cli"]);
//! ```

mod algo;
mod graph;

pub use graph::{adjacency, edit, estimate, history, query, relations, snapshot, validate};
#[cfg(feature = "query")]
pub(crate) use graph::{edge_columns, node_columns};

#[cfg(feature = "search")]
pub use algo::search;
pub use algo::{
    bfs, blocked, centrality, communities, components, critical, cycles, describe, diff, following,
    hierarchy, inventory, options, ordering, paths, ready, simple_paths, subgraph, topology,
    traversal, work,
};

pub use algo::following::Following;
pub use algo::options::{
    Order, TASK_LABELS, TaskFilter, TaskOrder, TaskSelection, TraversalOrder, TraverseOptions,
    Weighted,
};
pub use graph::{
    AddNodeOutcome, Adjacency, AttributeUpdate, Attributes, ChangeKind, ChangeRecord, ChangeWindow,
    Changes, DEFAULT_RELATION_ATTRIBUTE, DEFAULT_WEIGHT, Direction, Edge, EdgeBatchOutcome, EdgeId,
    EdgeItem, EdgeSpec, EdgeView, MissingNodes, Network, Node, NodeFilter, NodeItem, NodeSpec,
    PLAIN, RelationFilter, RemovedEdge, SmolStr,
};
