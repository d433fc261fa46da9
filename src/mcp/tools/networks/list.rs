//! `network_list`: the networks with their sizes, without taking a network lock.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, check_limit};

const DEFAULT_LIST_LIMIT: usize = 100;
const MAX_LIST_LIMIT: usize = 1_000;

fn default_list_limit() -> usize {
    DEFAULT_LIST_LIMIT
}

/// Parameters of `network_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Most networks returned, by name.
    #[serde(default = "default_list_limit")]
    #[schemars(range(min = 1, max = MAX_LIST_LIMIT))]
    pub limit: usize,
}

/// One network in `network_list`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct NetworkInfo {
    /// The network's name.
    pub name: String,
    /// Its description, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Number of nodes.
    pub nodes: usize,
    /// Number of edges.
    pub edges: usize,
    /// Its version: it rises with every change (pass it as if_version to write only if nothing changed since).
    pub version: u64,
}

/// Result of `network_list`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ListOutput {
    /// "success".
    pub status: Success,
    /// The networks, sorted by name.
    pub networks: Vec<NetworkInfo>,
    /// How many networks exist in all.
    pub total: usize,
    /// True when `networks` holds only the first `limit` of `total`.
    pub truncated: bool,
}

fn list(ctx: &ToolContext<'_>, p: ListParams) -> Result<ListOutput> {
    let limit = check_limit(p.limit, MAX_LIST_LIMIT)?;
    let all = ctx.registry.list();
    let total = all.len();
    let networks = all
        .into_iter()
        .take(limit)
        .map(|s| NetworkInfo {
            name: s.name,
            description: s.description,
            nodes: s.nodes,
            edges: s.edges,
            version: s.version,
        })
        .collect();
    Ok(ListOutput {
        status: Success::Success,
        networks,
        total,
        truncated: total > limit,
    })
}

/// `network_list`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_list",
            title: "List networks",
            description: "List the networks, sorted by name, with node and edge counts and descriptions. Call it first to find the network_name the other tools need.",
            toolset: Toolset::Core,
            effect: Effect::Read,
            long_running: false,
        },
        list,
    )
}
