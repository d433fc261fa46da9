//! The three tools of the seed contract: `network_get_neighbors`, `network_add_node`,
//! `network_add_edge`. Names, parameters, output fields and status words are binding.
//!
//! One file per tool, named after it; they share nothing but what
//! [`crate::mcp::tools::common`] holds.

mod add_edge;
mod add_node;
mod get_neighbors;

use crate::mcp::tool::ToolDef;

/// The seed tools.
pub fn tools() -> Vec<ToolDef> {
    vec![get_neighbors::tool(), add_node::tool(), add_edge::tool()]
}
