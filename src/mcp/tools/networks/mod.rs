//! Registry tools: `network_create`, `network_list`, `network_delete`.
//!
//! One file per tool, named after it; they share nothing but what
//! [`crate::mcp::tools::common`] holds.

mod create;
mod delete;
mod list;

use crate::mcp::tool::ToolDef;

/// The registry tools.
pub fn tools() -> Vec<ToolDef> {
    vec![create::tool(), list::tool(), delete::tool()]
}
