//! `network_renew_claim`: extend the lease of held tasks.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    MAX_LEASE_SECONDS, MAX_TASKS_PER_CALL, check_tasks, default_lease_seconds, lease_ms,
    work_params,
};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;

work_params! {
    /// Parameters of `network_renew_claim`.
    pub struct RenewParams {
        /// Your worker id, as given to network_claim_ready.
        pub worker: String,
        /// The tasks to renew, all claimed by you.
        #[schemars(length(min = 1, max = MAX_TASKS_PER_CALL))]
        pub node_ids: Vec<String>,
        /// The new lease, counted from now.
        #[serde(default = "default_lease_seconds")]
        #[schemars(range(min = 1, max = MAX_LEASE_SECONDS))]
        pub lease_seconds: u64,
    }
}

/// Result of `network_renew_claim`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RenewOutput {
    /// "success".
    pub status: Success,
    /// The tasks whose lease was extended.
    pub renewed: Vec<String>,
    /// When their lease ends now (ms since the Unix epoch).
    pub lease_expires_ms: u64,
    /// The server's time now (ms since the Unix epoch).
    pub now_ms: u64,
    /// True when renewed was cut to keep the reply small.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// When truncated: how many were renewed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

fn renew_claim(ctx: &ToolContext<'_>, p: RenewParams) -> Result<RenewOutput> {
    let tasks = check_tasks(&p.node_ids)?;
    // The clock is read under the network's lock, so that the times of the
    // writes to one network rise in the order the writes apply.
    ctx.write(&p.network_name, |net| {
        let plan = p.plan(net)?;
        let now = ctx.now();
        let lease = lease_ms(p.lease_seconds);
        let renewed = net.renew_claimed(&plan, &p.worker, &tasks, lease, now)?;
        let mut lists = super::WriteLists::new(net);
        let listed = lists.ids("renewed", "tasks renewed", &renewed, MAX_TASKS_PER_CALL);
        Ok(RenewOutput {
            status: Success::Success,
            renewed: listed,
            lease_expires_ms: now.saturating_add(lease),
            now_ms: now,
            truncated: lists.truncated(),
            more: lists.more("Every task named was renewed."),
        })
    })
}

/// `network_renew_claim`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_renew_claim",
            title: "Renew claims",
            description: "Extend your tasks' leases to lease_seconds from now, before another worker may claim them.",
            toolset: Toolset::Work,
            effect: Effect::Write { idempotent: false },
            long_running: false,
        },
        renew_claim,
    )
}
