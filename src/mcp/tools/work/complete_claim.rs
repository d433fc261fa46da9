//! `network_complete_claim`: mark held tasks done and list what became ready.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_TASKS_PER_CALL, check_tasks, work_params};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::Success;
use crate::network::work;

/// Newly ready tasks listed by a completion; the total counts all.
const MAX_NEWLY_READY_LISTED: usize = 100;

work_params! {
    relations;
    /// Parameters of `network_complete_claim`.
    pub struct CompleteParams {
        /// Your worker id, as given to network_claim_ready.
        pub worker: String,
        /// The tasks you finished, all claimed by you.
        #[schemars(length(min = 1, max = MAX_TASKS_PER_CALL))]
        pub node_ids: Vec<String>,
        /// Also complete parents whose children are all done.
        #[serde(default)]
        pub complete_parents: bool,
    }
}

/// Result of `network_complete_claim`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CompleteOutput {
    /// "success".
    pub status: Success,
    /// The tasks marked done now.
    pub completed: Vec<String>,
    /// The tasks you had completed before (a repeated call): nothing changed for them.
    pub already_done: Vec<String>,
    /// Tasks that became ready because of this (the first 100, within about 8 KB).
    pub newly_ready: Vec<String>,
    /// How many became ready.
    pub newly_ready_count: usize,
    /// Parents completed with their last child (complete_parents; the first 100).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub completed_parent_node_ids: Vec<String>,
    /// How many parents were completed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub completed_parent_count: usize,
    /// What counted as done, and that a parent waits for its children.
    pub done_rule: String,
    /// True when a list was cut to keep the reply small (the counts count all).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// When truncated: which list, and how to get the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn complete_claim(ctx: &ToolContext<'_>, p: CompleteParams) -> Result<CompleteOutput> {
    let tasks = check_tasks(&p.node_ids)?;
    // The clock is read under the network's lock, so that the times of the
    // writes to one network rise in the order the writes apply.
    ctx.write(&p.network_name, |net| {
        let plan = p.plan(net)?;
        let now = ctx.now();
        let parents = if p.complete_parents {
            work::Parents::Complete
        } else {
            work::Parents::Leave
        };
        let done = net.complete_claimed_with(&plan, &p.worker, &tasks, now, parents)?;
        let mut lists = super::WriteLists::new(net);
        let newly_ready = lists.ids(
            "newly_ready",
            "tasks made ready",
            &done.newly_ready,
            MAX_NEWLY_READY_LISTED,
        );
        if plan.done == crate::mcp::tools::done_rule::default_done() {
            // After the change, on the tasks the reply lists only: uncharged.
            crate::mcp::tools::done_rule::warn_finished_not_done(
                net,
                &plan.done,
                done.newly_ready[..newly_ready.len()].iter().copied(),
                |_| false,
            );
        }
        let completed_parent_node_ids = lists.ids(
            "completed_parent_node_ids",
            "parents completed",
            &done.parents_completed,
            MAX_NEWLY_READY_LISTED,
        );
        let completed = lists.ids(
            "completed",
            "tasks marked done",
            &done.completed,
            MAX_TASKS_PER_CALL,
        );
        let already_done = lists.ids(
            "already_done",
            "tasks done before",
            &done.already_done,
            MAX_TASKS_PER_CALL,
        );
        Ok(CompleteOutput {
            status: Success::Success,
            completed,
            already_done,
            newly_ready,
            newly_ready_count: done.newly_ready.len(),
            completed_parent_node_ids,
            completed_parent_count: done.parents_completed.len(),
            done_rule: crate::mcp::tools::done_rule::describe(
                &plan.done,
                false,
                Some(&plan.parent),
            ),
            truncated: lists.truncated(),
            more: lists.more(
                "Every task named was marked done. Claim the ready tasks with network_claim_ready (or list them with network_ready_nodes); network_plan_progress counts the rest.",
            ),
        })
    })
}

/// `network_complete_claim`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_complete_claim",
            title: "Complete claimed tasks",
            description: "Mark tasks you hold as done (sets done_attributes, drops the lease) and get the tasks this made ready. Repeating it is harmless.",
            toolset: Toolset::Work,
            effect: Effect::Write { idempotent: true },
            long_running: false,
        },
        complete_claim,
    )
}
