//! Named, directed, weighted graphs for planning: a Rust library, and an MCP server
//! that serves it to AI agents.
//!
//! A [`Network`] is a directed multigraph with string node ids, finite edge
//! weights, JSON data and flat attributes, and it answers the questions a plan
//! asks: [neighbors](Network::neighbors), [what depends on what](Network::reachable),
//! [in which order to do things](Network::topological_sort),
//! [what is ready](Network::ready_nodes), [where the cycles are](Network::find_cycles),
//! [the cheapest path](Network::shortest_path) and
//! [the critical path](Network::critical_path); and it lets several workers
//! execute one plan, [claiming ready tasks](Network::claim_ready) under leases
//! ([`network::work`]). Every answer is deterministic, and
//! every algorithm documents its complexity and how it breaks ties.
//! [`NetworkRegistry`] holds named networks for concurrent use.
//!
//! A build plan, ordered into steps that can run in parallel, and its critical path
//! (`examples/library.rs`):
//!
#![doc = concat!("```\n", include_str!("../examples/library.rs"), "```")]
//!
//! Ids go in and come out; where an algorithm answers in node indices (fast, and
//! what petgraph uses), [`Network::ids`] turns them into ids, and each algorithm
//! that starts from ids has a `…_by_index` twin for programs that hold indices.
//!
//! # Features
//!
//! With `default-features = false` the crate is the graph core alone: [`network`],
//! [`registry`], [`error`] and [`limits`], in 15 crates and no proc macro.
//!
//! * `server` (default): the `networks-mcp` binary and everything it is made of.
//! * `serde`: `Serialize`/`Deserialize` for the core's data types, such as
//!   [`NetworkData`](network::snapshot::NetworkData).
//! * `interchange`: reading and writing GraphML, DOT, CSV, node-link JSON, and
//!   writing Cypher and Mermaid.
//! * `query`: read-only openCypher queries over a network ([`query::run`]).

#![deny(missing_docs)]

pub mod budget;
pub mod clock;
pub mod error;
pub mod limits;
pub mod network;
pub mod registry;
pub mod warnings;

#[cfg(feature = "interchange")]
pub mod interchange;
#[cfg(feature = "query")]
pub mod query;

// The server: public only so that the binary, the tests, the benchmarks and the
// fuzz targets can reach it. Hidden from the docs and outside the semver promise
// (see AGENTS.md, "API boundary").
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod demo;
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod http;
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod logging;
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod mcp;
#[cfg(feature = "storage")]
pub mod paging;
#[cfg(feature = "storage")]
#[doc(hidden)]
pub mod storage;
#[cfg(feature = "view")]
#[doc(hidden)]
pub mod view;

pub use error::{Error, Result};
pub use network::Network;
pub use registry::NetworkRegistry;
