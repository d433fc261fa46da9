//! Every MCP tool, one module per family. Each module exports `tools()`; a family
//! of several tools is a directory with one file per tool, named after it
//! without the `network_` prefix, and a `mod.rs` holding what its tools share.
//! What tools of different families share is in [`common`].

pub(crate) mod algorithms;
pub(crate) mod analysis;
pub(crate) mod common;
pub(crate) mod core;
pub(crate) mod done_rule;
pub(crate) mod edit;
pub(crate) mod interchange;
pub(crate) mod networks;
pub(crate) mod unmatched;
pub(crate) mod visualize;
pub(crate) mod work;

use super::tool::ToolDef;

/// Every tool, in listing order.
pub fn all() -> Vec<ToolDef> {
    let mut tools = networks::tools();
    tools.extend(core::tools());
    tools.extend(edit::tools());
    tools.extend(analysis::tools());
    tools.extend(interchange::tools());
    tools.extend(visualize::tools());
    tools.extend(work::tools());
    tools.extend(algorithms::tools());
    tools
}

/// The tool called `name` in `tools`.
pub fn find<'a>(tools: &'a [ToolDef], name: &str) -> Option<&'a ToolDef> {
    tools.iter().find(|t| t.name() == name)
}

/// Warns that the network `name` holds no nodes (`node_count` 0), for a call
/// whose empty answer an agent would otherwise read as "nothing to do": a plan
/// imported under another name, or not imported yet, looks finished.
pub(crate) fn warn_if_empty(name: &str, node_count: usize) {
    if node_count > 0 {
        return;
    }
    let name: String = name.chars().take(80).collect();
    crate::warnings::warn(
        crate::warnings::WarningCode::EmptyNetwork,
        format!(
            "Network '{name}' has no nodes, so this answer is empty: add the tasks (network_add_nodes, network_import) or check network_name (network_list names every network)."
        ),
    );
}
