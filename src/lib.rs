//! networks-mcp: an in-memory registry of named, directed, weighted graphs, served to
//! AI agents over the Model Context Protocol and usable as a plain Rust library.
//!
//! Layers, strictly downwards: [`mcp`] → [`registry`] → [`network`].

pub mod error;
pub mod limits;
pub mod network;
pub mod registry;

#[cfg(feature = "server")]
pub mod cli;
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(feature = "server")]
pub mod http;
#[cfg(feature = "interchange")]
pub mod interchange;
#[cfg(feature = "server")]
pub mod logging;
#[cfg(feature = "server")]
pub mod mcp;
#[cfg(feature = "storage")]
pub mod storage;
#[cfg(feature = "view")]
pub mod view;

pub use error::{Error, Result};
pub use network::Network;
pub use registry::NetworkRegistry;
