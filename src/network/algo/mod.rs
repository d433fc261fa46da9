//! The algorithm families over the graph core, one family per file, in the
//! manner of petgraph's `algo/`.
//!
//! What belongs here: anything that reads a [`Network`](crate::network::Network)
//! to answer a question (traversals, paths, orders, cycles, centrality,
//! communities, copies, diffs, search) or that changes one on behalf of a
//! higher-level operation (applying a diff, the work calls' task state), each
//! with its algorithm, complexity, tie-breaking and a doctest.
//!
//! The rule: a family sees the network only through the documented interface
//! of `graph/`: [`Network::graph`](crate::network::Network::graph) (the
//! petgraph graph, shared), the adjacency rows (`Network::rows`,
//! `Network::adjacency`, `NeighborSource`), the id and edge-id lookups, and,
//! to change it, the change path (`Network::change` and its helpers in
//! `graph/structure.rs`). The fields of `Network` are private to `graph/`, so
//! the compiler holds every family to this. A helper two families share lives
//! in a small module here (`nearest`, `rng`, `options`) or, if it needs the
//! network's private state, in `graph/`. A family may build on another's
//! answer (components and topology on the strongly connected components of
//! `cycles`, `ordering` on `cycles`' witness, `work` on `critical`,
//! `simple_paths` on `paths::Path`), never in a circle. Nothing in `graph/`
//! imports from here (`tests/core/layers.rs` checks it).

pub mod bfs;
pub mod blocked;
pub mod centrality;
pub mod communities;
pub mod components;
pub mod critical;
pub mod cycles;
pub mod describe;
pub mod diff;
pub mod following;
pub mod hierarchy;
pub mod inventory;
mod nearest;
pub mod options;
pub mod ordering;
mod pagerank;
pub mod paths;
pub mod ready;
mod rng;
#[cfg(feature = "search")]
pub mod search;
pub mod simple_paths;
mod sssp;
pub mod subgraph;
mod threads;
pub mod topology;
pub mod traversal;
pub mod work;
