//! networks-mcp: an in-memory registry of named, directed, weighted graphs, served to
//! AI agents over the Model Context Protocol and usable as a plain Rust library.
//!
//! Layers, strictly downwards: [`mcp`] → [`registry`] → [`network`].

pub mod cli;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod http;
pub mod interchange;
pub mod limits;
pub mod logging;
pub mod mcp;
pub mod network;
pub mod registry;
pub mod storage;
pub mod view;

pub use error::{Error, Result};
pub use network::Network;
pub use registry::NetworkRegistry;
