//! `network_release_claim`: give held tasks back to the pool.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_TASKS_PER_CALL, check_tasks, work_params};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;

work_params! {
    /// Parameters of `network_release_claim`.
    pub struct ReleaseParams {
        /// Your worker id, as given to network_claim_ready.
        pub worker: String,
        /// The tasks to give back, claimed by you.
        #[schemars(length(min = 1, max = MAX_TASKS_PER_CALL))]
        pub node_ids: Vec<String>,
    }
}

/// Result of `network_release_claim`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReleaseOutput {
    /// "success".
    pub status: Success,
    /// The tasks given back: ready again for any worker.
    pub released: Vec<String>,
    /// True when released was cut to keep the reply small.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// When truncated: how many were given back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

fn release_claim(ctx: &ToolContext<'_>, p: ReleaseParams) -> Result<ReleaseOutput> {
    let tasks = check_tasks(&p.node_ids)?;
    ctx.write(&p.network_name, |net| {
        let plan = p.plan(net)?;
        let released = net.release_claimed(&plan, &p.worker, &tasks)?;
        let mut lists = super::WriteLists::new(net);
        let listed = lists.ids(
            "released",
            "tasks given back",
            &released,
            MAX_TASKS_PER_CALL,
        );
        Ok(ReleaseOutput {
            status: Success::Success,
            released: listed,
            truncated: lists.truncated(),
            more: lists.more("Every task named was given back."),
        })
    })
}

/// `network_release_claim`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_release_claim",
            title: "Release claimed tasks",
            description: "Give tasks you hold and cannot finish back to the pool: any worker can claim them again at once.",
            toolset: Toolset::Work,
            effect: Effect::Write { idempotent: false },
            long_running: false,
        },
        release_claim,
    )
}
