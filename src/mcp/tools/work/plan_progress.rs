//! `network_plan_progress`: how far a plan is, who holds what, and what is left
//! of its critical path.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ids, work_params};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success};
use crate::network::Direction;

/// The most items a progress page lists.
pub const MAX_PROGRESS_LIMIT: usize = 1_000;

/// Workers and critical-path tasks listed by progress.
const MAX_PROGRESS_LISTED: usize = 20;

fn default_progress_limit() -> usize {
    20
}

work_params! {
    relations;
    /// Parameters of `network_plan_progress`.
    pub struct ProgressParams {
        /// Claims per page.
        #[serde(default = "default_progress_limit")]
        #[schemars(range(min = 1, max = MAX_PROGRESS_LIMIT))]
        pub limit: usize,
        // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
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
    pub claimed_count: usize,
}

/// What is left of the critical path.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RemainingPath {
    /// Its first 20 tasks, in the order they can run.
    pub node_ids: Vec<String>,
    /// The ids of the edges between the listed tasks, in the same order.
    pub edge_ids: Vec<u64>,
    /// How many edges it has (one less than its tasks).
    pub hops: usize,
    /// The sum of its edges' weights.
    pub total_weight: f64,
}

/// Result of `network_plan_progress`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ProgressOutput {
    /// "success".
    pub status: Success,
    /// Tasks in the plan.
    pub task_count: usize,
    /// Tasks done.
    pub done_count: usize,
    /// Tasks held by a worker whose lease has not run out.
    pub claimed_count: usize,
    /// Tasks any worker can claim now.
    pub ready_count: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked_count: usize,
    /// Claims whose lease ran out: their tasks count as ready or blocked again.
    pub expired_count: usize,
    /// True when every task is done.
    pub finished: bool,
    /// Workers holding tasks under a live lease, by id (the first 20).
    pub workers: Vec<WorkerOut>,
    /// How many workers hold tasks.
    pub worker_count: usize,
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
    ctx.registry.read(&p.network_name, |net| {
        let plan = p.plan(net)?;
        let now = ctx.now();
        let progress = net.work_progress(&plan, now)?;
        let query = (
            &p.done_attributes,
            &p.claim_attribute,
            &p.lease_attribute,
            p.prerequisites,
            &plan.relations,
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
            let (mut nodes, mut edges) = (path.nodes, path.edges);
            if plan.prerequisites == Direction::Out {
                // A -> B means A needs B: the path runs against the order of work.
                nodes.reverse();
                edges.reverse();
            }
            let listed = nodes.len().min(MAX_PROGRESS_LISTED);
            RemainingPath {
                node_ids: ids(net, &nodes[..listed]),
                edge_ids: edges.into_iter().take(listed.saturating_sub(1)).collect(),
                hops: nodes.len().saturating_sub(1),
                total_weight: path.total_weight,
            }
        });
        let paging = Paging::of_total(&page, claims.len(), progress.claims.len());
        Ok(ProgressOutput {
            status: Success::Success,
            task_count: net.node_count(),
            done_count: progress.done,
            claimed_count: progress.claimed,
            ready_count: progress.ready,
            blocked_count: progress.blocked,
            expired_count: progress.expired,
            finished: progress.finished(),
            worker_count: per_worker.len(),
            workers: per_worker
                .into_iter()
                .take(MAX_PROGRESS_LISTED)
                .map(|(worker, claimed)| WorkerOut {
                    worker: worker.to_string(),
                    claimed_count: claimed,
                })
                .collect(),
            claims,
            remaining_critical_path,
            now_ms: now,
            paging,
        })
    })
}

/// `network_plan_progress`.
pub fn tool() -> ToolDef {
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
    )
}
