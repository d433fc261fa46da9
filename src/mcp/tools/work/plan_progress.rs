//! `network_plan_progress`: how far a plan is, who holds what, what is left
//! of its critical path, and the epics with their descendants' counts (the
//! tree, one level per call).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ids, work_params};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success};
use crate::mcp::tools::done_rule;
use crate::network::{Direction, validate};

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
        /// Count only this epic's descendants, and list its children.
        #[serde(default)]
        pub epic_node_id: Option<String>,
    }
}

/// An epic (or, under `epic_node_id`, a child) with its descendants' counts.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct EpicOut {
    /// The node's ID.
    pub node_id: String,
    /// Its own state.
    pub state: String,
    /// How many children it has.
    pub child_count: usize,
    /// Descendants done.
    pub done_count: usize,
    /// Descendants claimed.
    pub claimed_count: usize,
    /// Descendants ready.
    pub ready_count: usize,
    /// Descendants blocked.
    pub blocked_count: usize,
    /// Descendants excluded (their group held by another claimed task).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub excluded_count: usize,
}

/// One item of a page: the epics come first, then the claims.
#[derive(Serialize)]
#[serde(untagged)]
enum Item {
    Epic(EpicOut),
    Claim(ClaimOut),
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
    /// How many edges it has: one less than its tasks, fewer when a parent follows its last child (no edge).
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
    /// Tasks waiting on a prerequisite (a parent: on a child).
    pub blocked_count: usize,
    /// Tasks that would be ready but for a claimed task of their exclusion group.
    pub excluded_count: usize,
    /// Claims whose lease ran out: their tasks count as ready or blocked again.
    pub expired_count: usize,
    /// True when every task is done.
    pub finished: bool,
    /// Workers holding tasks under a live lease, by id (the first 20).
    pub workers: Vec<WorkerOut>,
    /// How many workers hold tasks.
    pub worker_count: usize,
    /// This page of the top-level epics, or of the children of `epic_node_id`, each with its descendants' counts.
    pub epics: Vec<EpicOut>,
    /// How many epics (or children) over all pages.
    pub epic_count: usize,
    /// This page of the claims on tasks not done, held or expired, in insertion order (after the epics).
    pub claims: Vec<ClaimOut>,
    /// The longest path by weight through the tasks not done; null when they hold a cycle.
    pub remaining_critical_path: Option<RemainingPath>,
    /// The server's time now (ms since the Unix epoch).
    pub now_ms: u64,
    /// What counted as done, and that a parent waits for its children.
    pub done_rule: String,
    /// Nodes on a loop of parents (the first 20): each counts as top-level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loop_node_ids: Vec<String>,
    /// How many nodes are on a loop of parents.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loop_node_count: usize,
    /// How to get the rest of `epics` and `claims`.
    #[serde(flatten)]
    pub paging: Paging,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn plan_progress(ctx: &ToolContext<'_>, p: ProgressParams) -> Result<ProgressOutput> {
    ctx.registry.read(&p.network_name, |net| {
        crate::mcp::tools::warn_if_empty(&p.network_name, net.node_count());
        let plan = p.plan(net)?;
        let epic = match p.epic_node_id.as_deref() {
            Some(id) => {
                validate::id("epic_node_id", id)?;
                Some(net.require("epic_node_id", id)?)
            }
            None => None,
        };
        let now = ctx.now();
        done_rule::check_rule_against_data(net, &plan.done, |v| net.is_done(v, &plan));
        let rollup = net.epic_rollup(&plan, now)?;
        let tree = rollup.hierarchy();
        let progress = rollup.progress_under(net, &plan, epic);
        let epics = match epic {
            Some(epic) => tree.children(epic).to_vec(),
            None => tree.top_epics(),
        };
        let query = (
            &p.done_attributes,
            &p.claim_attribute,
            &p.lease_attribute,
            p.prerequisites,
            &plan.relations,
            &plan.parent,
            &p.epic_node_id,
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
        // One list, the epics then the claims. Every position is measured (a
        // claim that vanished as None), so that a page cut by bytes continues
        // at the right one.
        let listed = epics.len() + progress.claims.len();
        let items = page.fill((page.offset..page.end().min(listed)).map(|i| {
            if let Some(&ix) = epics.get(i) {
                let counts = rollup.descendants(ix);
                return Some(Item::Epic(EpicOut {
                    node_id: net.id_at(ix).to_string(),
                    state: rollup.state(ix).name().to_string(),
                    child_count: tree.children(ix).len(),
                    done_count: counts.done,
                    claimed_count: counts.claimed,
                    ready_count: counts.ready,
                    blocked_count: counts.blocked,
                    excluded_count: counts.excluded,
                }));
            }
            let ix = *progress.claims.get(i - epics.len())?;
            let (worker, expires) = net.claim_on(ix, &plan)?;
            Some(Item::Claim(ClaimOut {
                node_id: net.id_at(ix).to_string(),
                worker: worker.to_string(),
                lease_expires_ms: expires,
                expired: expires <= now,
            }))
        }));
        let returned = items.len();
        let (mut epic_page, mut claims) = (Vec::new(), Vec::new());
        for item in items.into_iter().flatten() {
            match item {
                Item::Epic(e) => epic_page.push(e),
                Item::Claim(c) => claims.push(c),
            }
        }
        let mut per_worker: std::collections::BTreeMap<&str, usize> = Default::default();
        for &ix in &progress.claims {
            if let Some((worker, expires)) = net.claim_on(ix, &plan)
                && expires > now
            {
                *per_worker.entry(worker).or_default() += 1;
            }
        }
        let remaining = match epic {
            Some(epic) => net.remaining_critical_path_under(&plan, tree, epic)?,
            None => net.remaining_critical_path(&plan)?,
        };
        let remaining_critical_path = remaining.map(|path| {
            let (mut nodes, mut edges) = (path.nodes, path.edges);
            if plan.prerequisites == Direction::Out {
                // A -> B means A needs B: the path runs against the order of work.
                nodes.reverse();
                edges.reverse();
            }
            let listed = nodes.len().min(MAX_PROGRESS_LISTED);
            // The edges among the listed tasks: a step from a child to the
            // parent waiting on it has none, so match each edge to its step.
            let hops = edges.len();
            let mut edge_ids = Vec::new();
            let mut next = edges.into_iter().peekable();
            for pair in nodes[..listed].windows(2) {
                let (a, b) = (net.id_at(pair[0]), net.id_at(pair[1]));
                if let Some(&id) = next.peek()
                    && net.edge(id).is_some_and(|e| {
                        (e.source, e.target) == (a, b) || (e.source, e.target) == (b, a)
                    })
                {
                    edge_ids.push(id);
                    next.next();
                }
            }
            RemainingPath {
                node_ids: ids(net, &nodes[..listed]),
                edge_ids,
                hops,
                total_weight: path.total_weight,
            }
        });
        let paging = Paging::of_total(&page, returned, listed);
        let looped = tree.looped();
        Ok(ProgressOutput {
            status: Success::Success,
            task_count: match epic {
                Some(epic) => rollup.descendants(epic).total(),
                None => net.node_count(),
            },
            done_count: progress.done,
            claimed_count: progress.claimed,
            ready_count: progress.ready,
            blocked_count: progress.blocked,
            excluded_count: progress.excluded,
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
            epics: epic_page,
            epic_count: epics.len(),
            claims,
            remaining_critical_path,
            now_ms: now,
            done_rule: done_rule::describe(&plan.done, false, Some(&plan.parent)),
            loop_node_ids: ids(net, &looped[..looped.len().min(MAX_PROGRESS_LISTED)]),
            loop_node_count: looped.len(),
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
            description: "How far a plan is: done, claimed, ready, blocked, expired claims, who holds what, the critical path left, each epic's counts.",
            toolset: Toolset::Work,
            effect: Effect::Read,
            long_running: true,
        },
        plan_progress,
    )
}
