//! Registry tools: `network_create`, `network_list`, `network_delete`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use super::common::{CreateStatus, Success, check_limit};
use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::registry::CreateOutcome;

const DEFAULT_LIST_LIMIT: usize = 100;
const MAX_LIST_LIMIT: usize = 1_000;

fn default_list_limit() -> usize {
    DEFAULT_LIST_LIMIT
}

/// Parameters of `network_create`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateParams {
    /// Name, e.g. "module_deps": 1 to 256 bytes, no control characters.
    pub network_name: String,
    /// What the network is for.
    #[serde(default)]
    pub description: Option<String>,
}

/// Result of `network_create`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CreateOutput {
    /// "success" when created, "duplicate" when a network of that name already existed (left unchanged).
    pub status: CreateStatus,
    /// The network's name.
    pub network_name: String,
    /// Human-readable result message.
    pub message: String,
}

fn create(ctx: &ToolContext<'_>, p: CreateParams) -> Result<CreateOutput> {
    // A network that does not exist yet has no version to compare: if_version
    // applies to an existing one (which create leaves unchanged anyway).
    if ctx.if_version.is_some()
        && let Ok(network) = ctx.registry.get(&p.network_name)
    {
        ctx.check_version(&p.network_name, &network.read())?;
    }
    let outcome =
        ctx.registry
            .create_bounded(&p.network_name, p.description, ctx.limits.max_networks)?;
    ctx.record_version(&p.network_name);
    let (status, message) = match outcome {
        CreateOutcome::Created => {
            info!(network = %p.network_name, "network created");
            (
                CreateStatus::Success,
                format!("Network '{}' created", p.network_name),
            )
        }
        CreateOutcome::Duplicate => (
            CreateStatus::Duplicate,
            format!(
                "Network '{}' already exists; nothing changed",
                p.network_name
            ),
        ),
    };
    Ok(CreateOutput {
        status,
        network_name: p.network_name,
        message,
    })
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

/// Parameters of `network_delete`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Must be true, or nothing is deleted; ask the user first.
    #[serde(default)]
    pub confirm: bool,
}

/// Result of `network_delete`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DeleteOutput {
    /// "success".
    pub status: Success,
    /// The network's name.
    pub network_name: String,
    /// True if the network existed and is now gone; false if there was nothing to delete.
    pub deleted: bool,
    /// Nodes removed with it.
    pub nodes: usize,
    /// Edges removed with it.
    pub edges: usize,
    /// Human-readable result message.
    pub message: String,
}

fn delete(ctx: &ToolContext<'_>, p: DeleteParams) -> Result<DeleteOutput> {
    crate::network::validate::id("network_name", &p.network_name)?;
    if !p.confirm {
        return Err(Error::ConfirmationRequired {
            action: format!(
                "Deleting network '{}' (with all its nodes and edges)",
                p.network_name
            ),
        });
    }
    // With if_version, the compare and the removal happen under the network's lock.
    let removed = ctx.registry.delete_checked(&p.network_name, |net| {
        ctx.check_version(&p.network_name, net)
    })?;
    let (deleted, nodes, edges) = match &removed {
        Some(network) => {
            let network = network.read();
            (true, network.node_count(), network.edge_count())
        }
        None => (false, 0, 0),
    };
    let message = if deleted {
        info!(network = %p.network_name, nodes, edges, "network deleted");
        format!(
            "Network '{}' deleted ({nodes} nodes, {edges} edges)",
            p.network_name
        )
    } else {
        format!(
            "Network '{}' did not exist; nothing to delete",
            p.network_name
        )
    };
    Ok(DeleteOutput {
        status: Success::Success,
        network_name: p.network_name,
        deleted,
        nodes,
        edges,
        message,
    })
}

/// The registry tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_create",
                title: "Create a network",
                description: "Create an empty named network (a directed, weighted graph). Idempotent: an existing name changes nothing and gives status \"duplicate\". Then add nodes and edges. Call network_list first to reuse a network.",
                toolset: Toolset::Core,
                effect: Effect::Write { idempotent: true },
                long_running: false,
            },
            create,
        ),
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
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_delete",
                title: "Delete a network",
                description: "Delete a network with all its nodes and edges. Irreversible: nothing happens unless confirm is true, so ask the user first. A network that does not exist gives deleted: false.",
                toolset: Toolset::Core,
                effect: Effect::Destroy { idempotent: true },
                long_running: false,
            },
            delete,
        ),
    ]
}
