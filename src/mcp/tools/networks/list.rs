//! `network_list`: the networks with their sizes, without taking a network lock.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::error::{Error, Result};
use crate::mcp::page::{Page, State};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};

const DEFAULT_LIST_LIMIT: usize = 100;
const MAX_LIST_LIMIT: usize = 1_000;

fn default_list_limit() -> usize {
    DEFAULT_LIST_LIMIT
}

/// Parameters of `network_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Networks per page.
    #[serde(default = "default_list_limit")]
    #[schemars(range(min = 1, max = MAX_LIST_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
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
    pub node_count: usize,
    /// Number of edges.
    pub edge_count: usize,
    /// Its version: it rises with every change (pass it as if_version to write only if nothing changed since).
    pub version: u64,
}

/// Result of `network_list`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ListOutput {
    /// "success".
    pub status: Success,
    /// This page of the networks, sorted by name.
    pub networks: Vec<NetworkInfo>,
    /// How many networks exist in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn list(ctx: &ToolContext<'_>, p: ListParams) -> Result<ListOutput> {
    let limit = check_limit(p.limit, MAX_LIST_LIMIT)?;
    let all = ctx.registry.list();
    let total = all.len();
    // The list's state is the set of names: a page never skips or repeats a
    // network unless one was created or deleted, and then its cursor is
    // refused. A write inside a network changes only its entry's counts.
    let mut names = DefaultHasher::new();
    for summary in &all {
        summary.name.hash(&mut names);
    }
    let state = State {
        name: "",
        instance: 0,
        version: names.finish(),
    };
    let page = Page::open_on(ctx, state, "network_list", (), p.cursor.as_deref(), limit, MAX_LIST_LIMIT)
        .map_err(|error| match error {
            Error::CursorStale { .. } => Error::InvalidValue {
                field: "cursor".into(),
                reason: "a network was created or deleted since this cursor was made, so the next page could skip or repeat one. Repeat the call without cursor to start again".into(),
            },
            other => other,
        })?;
    let networks = page.fill(page.slice(&all).iter().map(|s| NetworkInfo {
        name: s.name.clone(),
        description: s.description.clone(),
        node_count: s.nodes,
        edge_count: s.edges,
        version: s.version,
    }));
    Ok(ListOutput {
        status: Success::Success,
        paging: Paging::of_total(&page, networks.len(), total),
        networks,
        total,
    })
}

/// `network_list`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_list",
            title: "List networks",
            description: "The networks by name, with node and edge counts. Call it first to find network names.",
            toolset: Toolset::Core,
            effect: Effect::Read,
            long_running: false,
        },
        list,
    )
}
