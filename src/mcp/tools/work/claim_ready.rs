//! `network_claim_ready`: take ready tasks under a lease, atomically, or learn
//! why none is ready.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{MAX_LEASE_SECONDS, default_lease_seconds, lease_ms, work_params};
use crate::error::Result;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{ReadyOrder, Success, task_selection};
use crate::mcp::tools::{done_rule, unmatched};
use crate::network::work;

/// The most tasks one claim takes.
pub const MAX_CLAIM_COUNT: usize = 100;

/// The most bytes of `data` one claim's reply carries; the tasks past it come
/// without their data (`data_omitted`), which network_get_node reads.
const MAX_CLAIM_DATA_BYTES: usize = 1024 * 1024;

fn default_count() -> usize {
    1
}

work_params! {
    relations;
    /// Parameters of `network_claim_ready`.
    pub struct ClaimParams {
        /// Your worker id: the same in every call of this worker.
        pub worker: String,
        /// How many ready tasks to take at most.
        #[serde(default = "default_count")]
        #[schemars(range(min = 1, max = MAX_CLAIM_COUNT))]
        pub limit: usize,
        /// How long the claim holds.
        #[serde(default = "default_lease_seconds")]
        #[schemars(range(min = 1, max = MAX_LEASE_SECONDS))]
        pub lease_seconds: u64,
        // The order and the filter: described once, in the server instructions.
        #[serde(default)]
        #[schemars(schema_with = "crate::mcp::tools::common::ready_order_schema")]
        pub order: Option<ReadyOrder>,
        #[serde(default)]
        pub priority_attribute: Option<String>,
        #[serde(default)]
        pub match_attributes: Option<Map<String, Value>>,
        #[serde(default)]
        pub labels: Option<Vec<String>>,
    }
}

/// A task a claim took.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ClaimedTask {
    /// The task's node ID.
    pub node_id: String,
    /// Its attributes (with the claim's).
    pub attributes: Map<String, Value>,
    /// Its data payload, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// True when its data was left out to keep the reply small: read it with network_get_node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub data_omitted: bool,
    /// The worker whose lease on it had run out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken_from: Option<String>,
}

/// Why a claim came back short: the state of the rest of the plan.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Waiting {
    /// Ready tasks your match_attributes or labels left.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ready_count: usize,
    /// Tasks held by other workers.
    pub claimed_count: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked_count: usize,
    /// Ready tasks held back by a claimed task of their exclusion group.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub excluded_count: usize,
    /// Tasks done.
    pub done_count: usize,
    /// When the first lease of another worker ends (ms since the Unix epoch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_lease_end_ms: Option<u64>,
}

/// Result of `network_claim_ready`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ClaimOutput {
    /// "success".
    pub status: Success,
    /// The tasks now yours, in the order asked; empty when none is ready.
    pub claimed: Vec<ClaimedTask>,
    /// When their lease ends (ms since the Unix epoch); absent when none was claimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_expires_ms: Option<u64>,
    /// The server's time now (ms since the Unix epoch).
    pub now_ms: u64,
    /// True when every task is done: stop.
    pub finished: bool,
    /// When fewer than limit were ready: what the others are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    /// What to do next, when fewer than limit were ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// What counted as done, and that a parent waits for its children.
    pub done_rule: String,
}

fn claim_ready(ctx: &ToolContext<'_>, p: ClaimParams) -> Result<ClaimOutput> {
    // The clock is read under the network's lock, so that the times of the
    // writes to one network rise in the order the writes apply.
    ctx.write(&p.network_name, |net| {
        crate::mcp::tools::warn_if_empty(&p.network_name, net.node_count());
        let plan = p.plan(net)?;
        let now = ctx.now();
        let lease = lease_ms(p.lease_seconds);
        let selection = task_selection(
            p.order,
            p.priority_attribute.as_deref(),
            p.match_attributes.as_ref(),
            p.labels.as_deref(),
        )?;
        let (claimed, waiting) =
            net.claim_ready_selected(&plan, &selection, &p.worker, p.limit, lease, now)?;
        let claimed_nodes: Vec<_> = claimed.iter().map(|c| c.node).collect();
        // After the change: nothing here may stop the call.
        crate::budget::unbudgeted(|| warn_about_claim(net, &plan, &selection, &claimed_nodes));
        let mut data_budget = MAX_CLAIM_DATA_BYTES;
        let claimed = claimed
            .into_iter()
            .map(|c| {
                let node = &net.graph()[c.node];
                let data = node.data.as_deref().cloned();
                let size = data.as_ref().map_or(0, |d| d.to_string().len());
                let data_omitted = size > data_budget;
                data_budget = data_budget.saturating_sub(size);
                ClaimedTask {
                    node_id: node.id.to_string(),
                    attributes: node.attributes.to_map(),
                    data: if data_omitted { None } else { data },
                    data_omitted,
                    taken_from: c.taken_from,
                }
            })
            .collect::<Vec<_>>();
        Ok(ClaimOutput {
            status: Success::Success,
            finished: waiting.as_ref().is_some_and(|w| w.finished),
            lease_expires_ms: (!claimed.is_empty()).then(|| now.saturating_add(lease)),
            now_ms: now,
            done_rule: done_rule::describe(&plan.done, false, Some(&plan.parent)),
            note: waiting
                .as_ref()
                .map(|w| waiting_note(net, &p.network_name, w, now, claimed.len())),
            claimed,
            waiting: waiting.map(|w| Waiting {
                ready_count: w.unmatched,
                claimed_count: w.claimed,
                blocked_count: w.blocked,
                excluded_count: w.excluded,
                done_count: w.done,
                next_lease_end_ms: w.next_lease_end,
            }),
        })
    })
}

/// Warnings for a claim (see [`crate::warnings`]): claimed tasks whose state
/// looks finished under the default done rule; a filter that matched no task, or
/// a priority attribute no claimed task has (the order then fell back to impact),
/// looked up over the whole plan only then, so a claim that went as asked costs
/// nothing more.
fn warn_about_claim(
    net: &crate::network::Network,
    plan: &work::WorkAttributes,
    selection: &crate::network::TaskSelection,
    claimed: &[petgraph::stable_graph::NodeIndex],
) {
    if plan.done == done_rule::default_done() {
        done_rule::warn_finished_not_done(net, &plan.done, claimed.iter().copied(), |_| false);
    }
    let priority_unseen = match &selection.order {
        crate::network::TaskOrder::Priority(key) => !claimed
            .iter()
            .any(|&v| net.graph()[v].attributes.get(key).is_some()),
        _ => false,
    };
    let filter_empty = claimed.is_empty() && !selection.filter.is_everything();
    if priority_unseen || filter_empty {
        unmatched::warn_unmatched_selection(net, selection);
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The longest exclusion group value or task id a note quotes, in bytes.
const NOTE_NAME_BYTES: usize = 64;

/// `text` cut to [`NOTE_NAME_BYTES`] at a character boundary, marked when cut.
fn clip(text: &str) -> String {
    if text.len() <= NOTE_NAME_BYTES {
        return text.to_string();
    }
    let mut end = NOTE_NAME_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

fn waiting_note(
    net: &crate::network::Network,
    network: &str,
    waiting: &work::Waiting,
    now: u64,
    claimed_now: usize,
) -> String {
    if waiting.finished && net.node_count() == 0 {
        // Nothing to do because nothing was planned: say so, rather than
        // that the work is over.
        return format!(
            "Network '{}' has no tasks: nothing to claim (see warnings).",
            clip(network)
        );
    }
    if waiting.finished {
        return "Every task is done: stop.".into();
    }
    let got = if claimed_now > 0 {
        "No more tasks are ready"
    } else {
        "No task is ready"
    };
    let count = |n: usize, state: &str| match n {
        1 => format!("1 task is {state}"),
        n => format!("{n} tasks are {state}"),
    };
    if waiting.claimed == 0 && waiting.unmatched > 0 {
        return format!(
            "{got} that your match_attributes or labels admit: {} ready for other workers, and {}. Leave them to a worker they fit, or claim again with a wider filter.",
            match waiting.unmatched {
                1 => "1 task is".to_string(),
                n => format!("{n} tasks are"),
            },
            count(waiting.blocked, "blocked")
        );
    }
    if waiting.claimed == 0 {
        // Nothing ready and nothing held, yet tasks remain: each waits on another
        // that waits too, around a cycle. No worker can finish the plan.
        return format!(
            "{got}, and no task is claimed, yet {} wait on each other: the plan has a dependency cycle, so no worker can finish it. Find it with network_find_cycles and fix the plan (or mark a task done), then claim again.",
            count(waiting.blocked, "blocked")
        );
    }
    let claimed = count(waiting.claimed, "claimed");
    let unmatched = match waiting.unmatched {
        0 => String::new(),
        1 => " (1 more is ready but not one your match_attributes or labels admit)".into(),
        n => format!(" ({n} more are ready but not ones your match_attributes or labels admit)"),
    };
    let lease = match waiting.next_lease_end {
        Some(end) => format!(
            " (the first lease of another worker ends in {} s)",
            end.saturating_sub(now).div_ceil(1_000)
        ),
        None => String::new(),
    };
    let blocked = count(waiting.blocked, "blocked");
    let excluded = match &waiting.exclusion {
        Some((group, holder)) => format!(
            "; {} held back by their exclusion group (group {} is held by claimed task '{}')",
            match waiting.excluded {
                1 => "1 task is".to_string(),
                n => format!("{n} tasks are"),
            },
            clip(&group.to_string()),
            clip(net.id_at(*holder)),
        ),
        None => String::new(),
    };
    format!(
        "{got}{unmatched}: {claimed}{lease} and {blocked}{excluded}. Work on what you hold, then call network_claim_ready again; a client subscribed to {} is told when tasks become ready. Stop when finished is true.",
        crate::mcp::resources::ready_uri(network)
    )
}

/// `network_claim_ready`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_claim_ready",
            title: "Claim ready tasks",
            description: "Atomically take up to limit ready tasks: no two workers get the same one. They stay yours for lease_seconds (renew long work). Returns the tasks, or why none is ready; finished: true when all are done.",
            toolset: Toolset::Work,
            effect: Effect::Write { idempotent: false },
            long_running: false,
        },
        claim_ready,
    )
}
