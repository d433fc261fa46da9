//! `network_update_nodes`: many nodes' updates in one atomic call.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use super::{
    MAX_BATCH_ITEMS, NodeUpdate, apply_update, check_batch_size, check_update, expectations_hold,
    unmet,
};
use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, batch_item_error};
use crate::network::validate;

/// Parameters of `network_update_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateNodesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The changes, at most one per node.
    #[schemars(length(min = 1, max = MAX_BATCH_ITEMS))]
    pub updates: Vec<NodeUpdate>,
}

/// Result of `network_update_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UpdateNodesOutput {
    /// "success".
    pub status: Success,
    /// How many nodes changed.
    pub changed_count: usize,
    /// How many already looked like this (nothing changed).
    pub unchanged_count: usize,
}

fn update_nodes(ctx: &ToolContext<'_>, p: UpdateNodesParams) -> Result<UpdateNodesOutput> {
    check_batch_size("updates", p.updates.len())?;
    let mut first_item: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, update) in p.updates.iter().enumerate() {
        validate::id("node_id", &update.node_id)
            .map_err(|e| batch_item_error("updates", index, e))?;
        if let Some(expect) = &update.expect {
            validate::attributes("expect", expect)
                .map_err(|e| batch_item_error("updates", index, e))?;
        }
        if let Some(first) = first_item.insert(&update.node_id, index) {
            return Err(batch_item_error(
                "updates",
                index,
                Error::InvalidValue {
                    field: "node_id".into(),
                    reason: format!(
                        "node '{}' is already changed by item {first}; merge the two into one item",
                        update.node_id
                    ),
                },
            ));
        }
    }
    ctx.write(&p.network_name, |net| {
        // Every unknown id named at once, then every item checked: nothing is
        // applied unless all of it can be.
        net.require_all("updates", p.updates.iter().map(|u| u.node_id.as_str()))?;
        // Every expectation of every item, all unmet ones named at once.
        let mismatches = p.updates.iter().flat_map(|u| unmet(net, u)).collect();
        expectations_hold(net, mismatches)?;
        for (index, u) in p.updates.iter().enumerate() {
            check_update(ctx, net, u).map_err(|e| batch_item_error("updates", index, e))?;
        }
        ctx.progress.check("network_update_nodes")?;
        let items = p.updates.len();
        let mut changed = 0;
        for u in p.updates {
            changed += usize::from(apply_update(net, u)?);
        }
        info!(network = %p.network_name, changed, "nodes updated");
        Ok(UpdateNodesOutput {
            status: Success::Success,
            changed_count: changed,
            unchanged_count: items - changed,
        })
    })
}

/// `network_update_nodes`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_update_nodes",
            title: "Update many nodes",
            description: "Change up to 10000 nodes atomically, each as network_update_node does; one invalid item changes nothing.",
            toolset: Toolset::Edit,
            effect: Effect::Write { idempotent: true },
            long_running: true,
        },
        update_nodes,
    )
}
