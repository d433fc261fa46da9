//! Executing a plan with several workers: claim ready tasks under leases,
//! complete, release or renew them, and see the progress. The logic is
//! [`crate::network::work`]; these tools read the server's clock and name things
//! for an agent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{Paging, Success, check_range, flat_attributes_schema};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::work::{self, WorkAttributes};
use crate::network::{Direction, Network, validate};

/// The most tasks one claim takes.
pub const MAX_CLAIM_COUNT: usize = 100;
/// The most tasks one complete, release or renew names.
pub const MAX_TASKS_PER_CALL: usize = 1_000;
/// The longest lease: a day. Longer work renews.
pub const MAX_LEASE_SECONDS: u64 = 86_400;
/// The most items a progress page lists.
pub const MAX_PROGRESS_LIMIT: usize = 1_000;
/// Newly ready tasks listed by a completion; the total counts all.
const MAX_NEWLY_READY_LISTED: usize = 100;
/// The most bytes of `data` one claim's reply carries; the tasks past it come
/// without their data (`data_omitted`), which network_get_node reads.
const MAX_CLAIM_DATA_BYTES: usize = 1024 * 1024;
/// Workers and critical-path tasks listed by progress.
const MAX_PROGRESS_LISTED: usize = 20;

fn default_done() -> Map<String, Value> {
    WorkAttributes::default().done
}
fn default_claim_attribute() -> String {
    WorkAttributes::default().claimed_by
}
fn default_lease_attribute() -> String {
    WorkAttributes::default().lease_expires
}
fn default_out() -> Direction {
    Direction::Out
}
fn default_count() -> usize {
    1
}
fn default_lease_seconds() -> u64 {
    600
}
fn default_progress_limit() -> usize {
    20
}

/// Declares a work tool's parameters: its own fields, then the network and the
/// four that say where the plan keeps its state (the same in every work tool).
macro_rules! work_params {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            // Self-explanatory: left undescribed to keep tools/list small.
            pub network_name: String,
            $($body)*
            /// A task is done when it has all these attribute values; completing sets them.
            #[serde(default = "default_done")]
            #[schemars(schema_with = "flat_attributes_schema")]
            pub done_attributes: Map<String, Value>,
            /// Attribute naming the worker holding a task.
            #[serde(default = "default_claim_attribute")]
            pub claim_attribute: String,
            /// Attribute holding when a claim's lease ends (ms since the Unix epoch).
            #[serde(default = "default_lease_attribute")]
            pub lease_attribute: String,
            /// "out": A -> B means A needs B first. "in": A -> B means A comes before B.
            #[serde(default = "default_out")]
            pub prerequisites: Direction,
        }

        impl $name {
            fn plan(&self) -> WorkAttributes {
                WorkAttributes {
                    done: self.done_attributes.clone(),
                    claimed_by: self.claim_attribute.clone(),
                    lease_expires: self.lease_attribute.clone(),
                    prerequisites: self.prerequisites,
                }
            }
        }
    };
}

fn ids(net: &Network, nodes: &[petgraph::stable_graph::NodeIndex]) -> Vec<String> {
    nodes.iter().map(|&ix| net.id_at(ix).to_string()).collect()
}

fn lease_ms(seconds: u64) -> u64 {
    seconds.saturating_mul(1_000)
}

fn check_tasks(node_ids: &[String]) -> Result<Vec<&str>> {
    check_range("node_ids", node_ids.len(), MAX_TASKS_PER_CALL)?;
    for id in node_ids {
        validate::id("node_ids", id)?;
    }
    Ok(node_ids.iter().map(String::as_str).collect())
}

// ---------------------------------------------------------------- claim

work_params! {
    /// Parameters of `network_claim_ready`.
    pub struct ClaimParams {
        /// Your worker id: the same in every call of this worker.
        pub worker: String,
        /// How many ready tasks to take at most.
        #[serde(default = "default_count")]
        #[schemars(range(min = 1, max = MAX_CLAIM_COUNT))]
        pub count: usize,
        /// How long the claim holds before another worker may take the task.
        #[serde(default = "default_lease_seconds")]
        #[schemars(range(min = 1, max = MAX_LEASE_SECONDS))]
        pub lease_seconds: u64,
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
    /// Tasks held by other workers.
    pub claimed: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked: usize,
    /// Tasks done.
    pub done: usize,
    /// When the first lease of another worker ends (ms since the Unix epoch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_lease_end_ms: Option<u64>,
}

/// Result of `network_claim_ready`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ClaimOutput {
    /// "success".
    pub status: Success,
    /// The tasks now yours, in insertion order; empty when none is ready.
    pub claimed: Vec<ClaimedTask>,
    /// When their lease ends (ms since the Unix epoch); absent when none was claimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_expires_ms: Option<u64>,
    /// The server's time now (ms since the Unix epoch).
    pub now_ms: u64,
    /// True when every task is done: stop.
    pub finished: bool,
    /// When fewer than count were ready: what the others are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    /// What to do next, when fewer than count were ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn claim_ready(ctx: &ToolContext<'_>, p: ClaimParams) -> Result<ClaimOutput> {
    let plan = p.plan();
    // The clock is read under the network's lock, so that the times of the
    // writes to one network rise in the order the writes apply.
    ctx.write(&p.network_name, |net| {
        let now = ctx.now();
        let lease = lease_ms(p.lease_seconds);
        let (claimed, waiting) = net.claim_ready_counted(&plan, &p.worker, p.count, lease, now)?;
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
            note: waiting
                .as_ref()
                .map(|w| waiting_note(&p.network_name, w, now, claimed.len())),
            claimed,
            waiting: waiting.map(|w| Waiting {
                claimed: w.claimed,
                blocked: w.blocked,
                done: w.done,
                next_lease_end_ms: w.next_lease_end,
            }),
        })
    })
}

fn waiting_note(network: &str, waiting: &work::Waiting, now: u64, claimed_now: usize) -> String {
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
    if waiting.claimed == 0 {
        // Nothing ready and nothing held, yet tasks remain: each waits on another
        // that waits too, around a cycle. No worker can finish the plan.
        return format!(
            "{got}, and no task is claimed, yet {} wait on each other: the plan has a dependency cycle, so no worker can finish it. Find it with network_find_cycles and fix the plan (or mark a task done), then claim again.",
            count(waiting.blocked, "blocked")
        );
    }
    let claimed = count(waiting.claimed, "claimed");
    let lease = match waiting.next_lease_end {
        Some(end) => format!(
            " (the first lease of another worker ends in {} s)",
            end.saturating_sub(now).div_ceil(1_000)
        ),
        None => String::new(),
    };
    let blocked = count(waiting.blocked, "blocked");
    format!(
        "{got}: {claimed}{lease} and {blocked}. Work on what you hold, then call network_claim_ready again; a client subscribed to {} is told when tasks become ready. Stop when finished is true.",
        crate::mcp::resources::ready_uri(network)
    )
}

// ---------------------------------------------------------------- complete

work_params! {
    /// Parameters of `network_complete_claim`.
    pub struct CompleteParams {
        /// Your worker id, as given to network_claim_ready.
        pub worker: String,
        /// The tasks you finished, all claimed by you.
        #[schemars(length(min = 1, max = MAX_TASKS_PER_CALL))]
        pub node_ids: Vec<String>,
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
    /// Tasks that became ready because of this (the first 100).
    pub newly_ready: Vec<String>,
    /// How many became ready.
    pub newly_ready_total: usize,
}

fn complete_claim(ctx: &ToolContext<'_>, p: CompleteParams) -> Result<CompleteOutput> {
    let plan = p.plan();
    let tasks = check_tasks(&p.node_ids)?;
    // The clock is read under the network's lock, so that the times of the
    // writes to one network rise in the order the writes apply.
    ctx.write(&p.network_name, |net| {
        let now = ctx.now();
        let done = net.complete_claimed(&plan, &p.worker, &tasks, now)?;
        let listed = done.newly_ready.len().min(MAX_NEWLY_READY_LISTED);
        Ok(CompleteOutput {
            status: Success::Success,
            completed: ids(net, &done.completed),
            already_done: ids(net, &done.already_done),
            newly_ready: ids(net, &done.newly_ready[..listed]),
            newly_ready_total: done.newly_ready.len(),
        })
    })
}

// ---------------------------------------------------------------- release

work_params! {
    /// Parameters of `network_release_claim`.
    pub struct ReleaseParams {
        /// Your worker id, as given to network_claim_ready.
        pub worker: String,
        /// The tasks to give back, all claimed by you and not done.
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
}

fn release_claim(ctx: &ToolContext<'_>, p: ReleaseParams) -> Result<ReleaseOutput> {
    let plan = p.plan();
    let tasks = check_tasks(&p.node_ids)?;
    ctx.write(&p.network_name, |net| {
        let released = net.release_claimed(&plan, &p.worker, &tasks)?;
        Ok(ReleaseOutput {
            status: Success::Success,
            released: ids(net, &released),
        })
    })
}

// ---------------------------------------------------------------- renew

work_params! {
    /// Parameters of `network_renew_claim`.
    pub struct RenewParams {
        /// Your worker id, as given to network_claim_ready.
        pub worker: String,
        /// The tasks whose lease to extend, all claimed by you and not done.
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
}

fn renew_claim(ctx: &ToolContext<'_>, p: RenewParams) -> Result<RenewOutput> {
    let plan = p.plan();
    let tasks = check_tasks(&p.node_ids)?;
    // The clock is read under the network's lock, so that the times of the
    // writes to one network rise in the order the writes apply.
    ctx.write(&p.network_name, |net| {
        let now = ctx.now();
        let lease = lease_ms(p.lease_seconds);
        let renewed = net.renew_claimed(&plan, &p.worker, &tasks, lease, now)?;
        Ok(RenewOutput {
            status: Success::Success,
            renewed: ids(net, &renewed),
            lease_expires_ms: now.saturating_add(lease),
            now_ms: now,
        })
    })
}

// ---------------------------------------------------------------- progress

work_params! {
    /// Parameters of `network_plan_progress`.
    pub struct ProgressParams {
        /// Claims per page.
        #[serde(default = "default_progress_limit")]
        #[schemars(range(min = 1, max = MAX_PROGRESS_LIMIT))]
        pub limit: usize,
        /// The previous page's next_cursor.
        #[serde(default)]
        pub cursor: Option<String>,
    }
}

/// A claim on a task not done.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ClaimOut {
    /// The task's node ID.
    pub node_id: String,
    /// The worker named on it.
    pub worker: String,
    /// When its lease ends (ms since the Unix epoch).
    pub lease_expires_ms: u64,
    /// True when the lease ran out: any worker may take the task.
    pub expired: bool,
}

/// How many tasks one worker holds.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WorkerOut {
    /// The worker id.
    pub worker: String,
    /// How many tasks it holds.
    pub claimed: usize,
}

/// What is left of the critical path.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemainingPath {
    /// Its length: the sum of its edges' weights.
    pub length: f64,
    /// Its first 20 tasks, in the order they can run.
    pub node_ids: Vec<String>,
    /// How many tasks it has.
    pub nodes_total: usize,
}

/// Result of `network_plan_progress`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ProgressOutput {
    /// "success".
    pub status: Success,
    /// Tasks in the plan.
    pub total: usize,
    /// Tasks done.
    pub done: usize,
    /// Tasks held by a worker whose lease has not run out.
    pub claimed: usize,
    /// Tasks any worker can claim now.
    pub ready: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked: usize,
    /// Claims whose lease ran out: their tasks count as ready or blocked again.
    pub expired: usize,
    /// True when every task is done.
    pub finished: bool,
    /// Workers holding tasks under a live lease, by id (the first 20).
    pub workers: Vec<WorkerOut>,
    /// How many workers hold tasks.
    pub workers_total: usize,
    /// This page of the claims on tasks not done, held or expired, in insertion order.
    pub claims: Vec<ClaimOut>,
    /// The longest path by weight through the tasks not done; null when they hold a cycle.
    pub remaining_critical_path: Option<RemainingPath>,
    /// The server's time now (ms since the Unix epoch).
    pub now_ms: u64,
    /// How to get the rest of `claims`.
    #[serde(flatten)]
    pub paging: Paging,
}

fn plan_progress(ctx: &ToolContext<'_>, p: ProgressParams) -> Result<ProgressOutput> {
    let plan = p.plan();
    ctx.registry.read(&p.network_name, |net| {
        let now = ctx.now();
        let progress = net.work_progress(&plan, now)?;
        let query = (
            &p.done_attributes,
            &p.claim_attribute,
            &p.lease_attribute,
            p.prerequisites,
        );
        let page = Page::open(
            ctx,
            net,
            "network_plan_progress",
            query,
            p.cursor.as_deref(),
            p.limit,
            MAX_PROGRESS_LIMIT,
        )?;
        // Every position is measured (a claim that vanished as None), so that a
        // page cut by bytes continues at the right one.
        let claims: Vec<ClaimOut> = page
            .fill(page.slice(&progress.claims).iter().map(|&ix| {
                let (worker, expires) = net.claim_on(ix, &plan)?;
                Some(ClaimOut {
                    node_id: net.id_at(ix).to_string(),
                    worker: worker.to_string(),
                    lease_expires_ms: expires,
                    expired: expires <= now,
                })
            }))
            .into_iter()
            .flatten()
            .collect();
        let mut per_worker: std::collections::BTreeMap<&str, usize> = Default::default();
        for &ix in &progress.claims {
            if let Some((worker, expires)) = net.claim_on(ix, &plan)
                && expires > now
            {
                *per_worker.entry(worker).or_default() += 1;
            }
        }
        let remaining_critical_path = net.remaining_critical_path(&plan)?.map(|path| {
            let mut nodes = path.nodes;
            if plan.prerequisites == Direction::Out {
                // A -> B means A needs B: the path runs against the order of work.
                nodes.reverse();
            }
            RemainingPath {
                length: path.length,
                nodes_total: nodes.len(),
                node_ids: ids(net, &nodes[..nodes.len().min(MAX_PROGRESS_LISTED)]),
            }
        });
        let paging = Paging::of_total(&page, claims.len(), progress.claims.len());
        Ok(ProgressOutput {
            status: Success::Success,
            total: net.node_count(),
            done: progress.done,
            claimed: progress.claimed,
            ready: progress.ready,
            blocked: progress.blocked,
            expired: progress.expired,
            finished: progress.finished(),
            workers_total: per_worker.len(),
            workers: per_worker
                .into_iter()
                .take(MAX_PROGRESS_LISTED)
                .map(|(worker, claimed)| WorkerOut {
                    worker: worker.to_string(),
                    claimed,
                })
                .collect(),
            claims,
            remaining_critical_path,
            now_ms: now,
            paging,
        })
    })
}

/// Whether a successful call of `tool` with `output` made tasks ready to
/// claim, so that subscribers of the plan's ready resource are told: a
/// completion that unblocked some, or a release.
pub fn frees_work(tool: &str, output: &Value) -> bool {
    match tool {
        "network_complete_claim" => output
            .get("newly_ready_total")
            .and_then(Value::as_u64)
            .is_some_and(|n| n > 0),
        "network_release_claim" => true,
        _ => false,
    }
}

/// The tools that let several workers execute one plan.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_claim_ready",
                title: "Claim ready tasks",
                description: "Take up to count tasks that are ready (not done, every prerequisite done) and not held by another worker, atomically: no two workers ever get the same task. They stay yours until lease_seconds pass; renew long work. A task is done when it has done_attributes (default {\"status\": \"done\"}). Returns the tasks, or why none is ready, and finished: true when all are done.",
                toolset: Toolset::Work,
                effect: Effect::Write { idempotent: false },
                long_running: false,
            },
            claim_ready,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_complete_claim",
                title: "Complete claimed tasks",
                description: "Mark tasks you hold as done (sets done_attributes, drops the lease) and get the tasks this made ready. Only the worker holding a task can complete it; repeating the call is harmless.",
                toolset: Toolset::Work,
                effect: Effect::Write { idempotent: true },
                long_running: false,
            },
            complete_claim,
        ),
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
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_renew_claim",
                title: "Renew claims",
                description: "Extend the lease of tasks you hold to lease_seconds from now, before it runs out: a task whose lease ran out can be claimed by another worker.",
                toolset: Toolset::Work,
                effect: Effect::Write { idempotent: false },
                long_running: false,
            },
            renew_claim,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_plan_progress",
                title: "Plan progress",
                description: "How far a plan is: tasks done, claimed, ready and blocked, expired claims, who holds what, and what is left of the critical path by weight.",
                toolset: Toolset::Work,
                effect: Effect::Read,
                long_running: true,
            },
            plan_progress,
        ),
    ]
}
