//! The readers, one per importable format. Each turns a document into an
//! [`ImportedGraph`](super::ImportedGraph) or an [`Error::ImportInvalid`](crate::Error::ImportInvalid)
//! naming where the problem is. They check the document's shape and types; the
//! network's own rules (ids, attributes, weights) are checked by
//! [`apply`](super::apply), which names the offending item.

pub(crate) mod beads;
pub(crate) mod cargo;
pub(crate) mod csv;
pub(crate) mod dot;
mod dot_chunks;
mod dot_depth;
pub(crate) mod go;
pub(crate) mod graphml;
pub(crate) mod memory;
pub(crate) mod mermaid;
pub(crate) mod node_link;
pub(crate) mod npm;
mod packages;
pub(crate) mod pip;
mod plans;
pub(crate) mod taskmaster;
