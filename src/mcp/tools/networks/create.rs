//! `network_create`: a new empty network, idempotently.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{CreateStatus, check_relation_names};
use crate::registry::CreateOutcome;

/// Parameters of `network_create`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateParams {
    /// e.g. "module_deps".
    pub network_name: String,
    /// What the network is for.
    #[serde(default)]
    pub description: Option<String>,
    /// Edge types that never block (e.g. related): skipped when following edges.
    #[serde(default)]
    pub nonblocking_relations: Option<Vec<String>>,
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
    if let Some(names) = &p.nonblocking_relations {
        check_relation_names("nonblocking_relations", names)?;
    }
    let outcome =
        ctx.registry
            .create_bounded(&p.network_name, p.description, ctx.limits.max_networks)?;
    let mut declared = false;
    if let Some(names) = p.nonblocking_relations {
        ctx.write(&p.network_name, |net| {
            declared = net.nonblocking_relations() != names.as_slice();
            net.set_nonblocking_relations(names);
            Ok(())
        })?;
    }
    ctx.record_version(&p.network_name);
    let (status, message) = match outcome {
        CreateOutcome::Created => {
            info!(network = %p.network_name, "network created");
            (
                CreateStatus::Success,
                format!("Network '{}' created", p.network_name),
            )
        }
        CreateOutcome::Duplicate if declared => (
            CreateStatus::Duplicate,
            format!(
                "Network '{}' already exists; its nonblocking_relations were replaced",
                p.network_name
            ),
        ),
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

/// `network_create`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_create",
            title: "Create a network",
            description: "Create an empty network (a directed, weighted graph). An existing name answers \"duplicate\" and changes only nonblocking_relations.",
            toolset: Toolset::Core,
            effect: Effect::Write { idempotent: true },
            long_running: false,
        },
        create,
    )
}
