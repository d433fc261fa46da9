//! Import and export tools: `network_export`, `network_import`.
//!
//! The formats themselves live in [`crate::interchange`]; this module selects what
//! to export, bounds the result, and applies imports within the limits.
//!
//! One file per tool, named after it. The memory estimate an import checks
//! against `--max-memory` is in [`crate::mcp::tools::common`], since
//! `network_copy` checks it too.

mod export;
pub(crate) mod import;

use crate::mcp::tool::ToolDef;

/// The import and export tools.
pub fn tools() -> Vec<ToolDef> {
    vec![export::tool(), import::tool()]
}
