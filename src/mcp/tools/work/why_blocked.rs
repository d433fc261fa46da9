//! `network_why_blocked`: why a task is not ready yet, down to the work that can
//! start now.

use std::collections::HashMap;

use petgraph::stable_graph::NodeIndex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::work_params;
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_range};
use crate::mcp::tools::done_rule;
use crate::network::blocked::Blockers;
use crate::network::work::TaskState;
use crate::network::{Network, validate};

/// The most blockers one page lists.
const MAX_WHY_LIMIT: usize = 10_000;
/// Nodes of a chain listed with each blocker.
const MAX_CHAIN_LISTED: usize = 20;

fn default_why_limit() -> usize {
    20
}

work_params! {
    relations;
    /// Parameters of `network_why_blocked`.
    pub struct WhyParams {
        pub node_id: String,
        /// Blockers per page, nearest first.
        #[serde(default = "default_why_limit")]
        #[schemars(range(min = 1, max = MAX_WHY_LIMIT))]
        pub limit: usize,
        // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
        #[serde(default)]
        pub cursor: Option<String>,
    }
}

/// One unfinished prerequisite of the task.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct BlockerOut {
    /// The prerequisite.
    pub node_id: String,
    /// Prerequisite edges between it and the task (1: direct).
    pub depth: usize,
    /// The node it is a prerequisite of, one step nearer the task.
    pub unblocks: String,
    /// "ready" (can start now), "claimed" (a worker holds it), "excluded" or "blocked".
    pub state: String,
    /// The worker holding it, when claimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
    /// When ready: the shortest chain from it up to the task (its first 20 nodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain_node_ids: Option<Vec<String>>,
}

/// The claimed task holding an exclusion group.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct HolderOut {
    /// The task.
    pub node_id: String,
    /// The worker holding it.
    pub worker: String,
}

/// Result of `network_why_blocked`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct WhyOutput {
    /// "success".
    pub status: Success,
    /// The task.
    pub node_id: String,
    /// Its own state: "done", "claimed", "ready", "excluded" (its exclusion group is held) or "blocked".
    pub state: String,
    /// When excluded: the claimed task holding its exclusion group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excluded_by: Option<HolderOut>,
    /// This page of its unfinished prerequisites, direct and indirect, nearest first.
    pub blockers: Vec<BlockerOut>,
    /// How many unfinished prerequisites it has in all.
    pub total: usize,
    /// How many of them can start now.
    pub ready_count: usize,
    /// The server's time now (ms since the Unix epoch): claims are judged at it.
    pub now_ms: u64,
    /// What counted as done, and that a parent waits for its children.
    pub done_rule: String,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn state_name(state: TaskState) -> &'static str {
    match state {
        TaskState::Done => "done",
        TaskState::Claimed => "claimed",
        TaskState::Ready => "ready",
        TaskState::Excluded => "excluded",
        TaskState::Blocked => "blocked",
    }
}

fn why_blocked(ctx: &ToolContext<'_>, p: WhyParams) -> Result<WhyOutput> {
    let limit = check_range("limit", p.limit, MAX_WHY_LIMIT)?;
    validate::id("node_id", &p.node_id)?;
    ctx.registry.read(&p.network_name, |net| {
        let plan = p.plan(net)?;
        plan.validate()?;
        let task = net.require("node_id", &p.node_id)?;
        let now = ctx.now();
        let query = (
            &p.node_id,
            &p.done_attributes,
            &p.claim_attribute,
            &p.lease_attribute,
            p.prerequisites,
            &plan.relations,
            &p.parent_attribute,
        );
        let page = Page::open(
            ctx,
            net,
            "network_why_blocked",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_WHY_LIMIT,
        )?;
        // Borrowed from the last work call when current: no O(V) pass then.
        let index = net.plan_index_shared(&plan)?;
        let why = net.task_blockers(&index, task, &plan);
        if plan.done == done_rule::default_done() {
            let listed = std::iter::once(task).chain(why.blockers.iter().map(|b| b.node));
            done_rule::warn_finished_not_done(net, &plan.done, listed, |_| false);
        }
        let position: HashMap<NodeIndex, usize> = why
            .blockers
            .iter()
            .enumerate()
            .map(|(i, b)| (b.node, i))
            .collect();
        let blockers: Vec<BlockerOut> = page.fill(page.slice(&why.blockers).iter().map(|b| {
            let state = net.task_state_in(&index, b.node, &plan, now);
            BlockerOut {
                node_id: net.id_at(b.node).to_string(),
                depth: b.depth,
                unblocks: net.id_at(b.unblocks).to_string(),
                state: state_name(state).to_string(),
                worker: (state == TaskState::Claimed)
                    .then(|| net.claim_on(b.node, &plan).map(|(w, _)| w.to_string()))
                    .flatten(),
                chain_node_ids: (state == TaskState::Ready)
                    .then(|| chain(net, &why, &position, b.node)),
            }
        }));
        let paging = Paging::of_total(&page, blockers.len(), why.blockers.len());
        let state = net.task_state_in(&index, task, &plan, now);
        let excluded_by = (state == TaskState::Excluded)
            .then(|| net.exclusion_holder_in(&index, task, &plan, now))
            .flatten()
            .map(|holder| HolderOut {
                node_id: net.id_at(holder).to_string(),
                worker: net
                    .claim_on(holder, &plan)
                    .map_or_else(String::new, |(w, _)| w.to_string()),
            });
        // Ready means it can start now: not held back by its exclusion group.
        let ready_count = why
            .blockers
            .iter()
            .filter(|b| {
                b.ready && net.task_state_in(&index, b.node, &plan, now) != TaskState::Excluded
            })
            .count();
        Ok(WhyOutput {
            status: Success::Success,
            node_id: p.node_id.clone(),
            state: state_name(state).to_string(),
            excluded_by,
            blockers,
            total: why.blockers.len(),
            ready_count,
            now_ms: now,
            done_rule: done_rule::describe(&plan.done, false, Some(&plan.parent)),
            paging,
        })
    })
}

/// The first [`MAX_CHAIN_LISTED`] nodes of the shortest chain from `from` up to
/// the task, following each blocker's `unblocks`.
fn chain(
    net: &Network,
    why: &Blockers,
    position: &HashMap<NodeIndex, usize>,
    from: NodeIndex,
) -> Vec<String> {
    let mut listed = vec![net.id_at(from).to_string()];
    let mut at = position.get(&from).copied();
    while let Some(i) = at {
        if listed.len() == MAX_CHAIN_LISTED {
            break;
        }
        let next = why.blockers[i].unblocks;
        listed.push(net.id_at(next).to_string());
        at = position.get(&next).copied();
    }
    listed
}

/// `network_why_blocked`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_why_blocked",
            title: "Why is a task blocked",
            description: "Why a task is not ready: its unfinished prerequisites, nearest first, and for each ready one the chain up to the task: the work to do first.",
            toolset: Toolset::Work,
            effect: Effect::Read,
            long_running: true,
        },
        why_blocked,
    )
}
