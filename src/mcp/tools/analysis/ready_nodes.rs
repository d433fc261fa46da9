//! `network_ready_nodes`: what can start now, and examples of what waits.

use petgraph::visit::NodeIndexable;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{MAX_ANALYSIS_LIMIT, default_limit, default_out, ids, require_all};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{
    Paging, ReadyOrder, Success, check_limit, flat_attributes_schema, relation_filter,
    task_selection,
};
use crate::mcp::tools::{done_rule, unmatched};
use crate::network::{Direction, validate};

fn default_blocked_limit() -> usize {
    5
}

/// A blocked node lists at most this many of the prerequisites it waits on.
const MAX_WAITING_LISTED: usize = 20;

/// Parameters of `network_ready_nodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadyParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Node IDs that are done.
    #[serde(default)]
    pub done: Vec<String>,
    /// Also done: every node with all these attribute values, as in the work tools; {} for none.
    #[serde(default = "crate::mcp::tools::done_rule::default_done")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub done_attributes: Map<String, Value>,
    /// "out": A -> B means A needs B. "in": A comes before B. "both": either.
    #[serde(default = "default_out")]
    pub prerequisites: Direction,
    /// Ready nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// Blocked examples on the first page.
    #[serde(default = "default_blocked_limit")]
    #[schemars(range(min = 0, max = MAX_ANALYSIS_LIMIT))]
    pub blocked_limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    // The relation filter: described once, in the server instructions.
    #[serde(default)]
    pub relations: Option<Vec<String>>,
    #[serde(default)]
    pub ignore_relations: Option<Vec<String>>,
    #[serde(default)]
    pub relation_attribute: Option<String>,
    // The order and the filter on the ready nodes: described once, in the
    // server instructions.
    #[serde(default)]
    #[schemars(schema_with = "crate::mcp::tools::common::ready_order_schema")]
    pub order: Option<ReadyOrder>,
    #[serde(default)]
    pub priority_attribute: Option<String>,
    #[serde(default)]
    pub match_attributes: Option<Map<String, Value>>,
    #[serde(default)]
    pub labels: Option<Vec<String>>,
    // Parents: described once, in the server instructions.
    #[serde(default = "crate::mcp::tools::done_rule::default_parent")]
    pub parent_attribute: String,
}

/// A node that cannot start yet.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct BlockedOut {
    /// The node ID.
    pub node_id: String,
    /// Its prerequisites that are not done yet (the first 20).
    pub waiting_on: Vec<String>,
    /// How many prerequisites it waits on.
    pub waiting_on_count: usize,
}

/// Result of `network_ready_nodes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReadyOutput {
    /// "success".
    pub status: Success,
    /// This page of the nodes not done whose prerequisites are all done: what can start now, in the order asked.
    pub ready: Vec<String>,
    /// How many nodes are ready in all.
    pub ready_count: usize,
    /// Examples of nodes still waiting, with what they wait on (first page only).
    pub blocked: Vec<BlockedOut>,
    /// How many nodes are blocked in all.
    pub blocked_count: usize,
    /// How many nodes count as done.
    pub done_count: usize,
    /// What counted as done, and that a parent waits for its children.
    pub done_rule: String,
    /// How to get the rest of `ready`.
    #[serde(flatten)]
    pub paging: Paging,
}

fn ready_nodes(ctx: &ToolContext<'_>, p: ReadyParams) -> Result<ReadyOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    // blocked_limit's range (0 to MAX_ANALYSIS_LIMIT) is checked against its
    // schema before the body runs, like every integer parameter's.
    validate::attributes("done_attributes", &p.done_attributes)?;
    validate::id("parent_attribute", &p.parent_attribute)?;
    let selection = task_selection(
        p.order,
        p.priority_attribute.as_deref(),
        p.match_attributes.as_ref(),
        p.labels.as_deref(),
    )?;
    let selected = selection != crate::network::TaskSelection::default();
    ctx.registry.read(&p.network_name, |net| {
        crate::mcp::tools::warn_if_empty(&p.network_name, net.node_count());
        let mut done = vec![false; net.graph().node_bound()];
        for ix in require_all(net, "done", &p.done)? {
            done[ix.index()] = true;
        }
        if !p.done_attributes.is_empty() {
            for ix in net.node_indices() {
                let attributes = &net.graph()[ix].attributes;
                if p.done_attributes
                    .iter()
                    .all(|(k, v)| attributes.get(k) == Some(v))
                {
                    done[ix.index()] = true;
                }
            }
        }
        let mut done_sorted: Vec<&str> = p.done.iter().map(String::as_str).collect();
        done_sorted.sort_unstable();
        done_sorted.dedup();
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let query = (
            done_sorted,
            &p.done_attributes,
            &p.parent_attribute,
            p.prerequisites,
            &filter,
            selected.then_some((
                format!("{:?}", selection.order),
                &selection.filter.attributes,
                &selection.filter.labels,
            )),
        );
        let page = Page::open(ctx, net,
            "network_ready_nodes",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let blocked_limit = if page.offset == 0 { p.blocked_limit } else { 0 };
        let following = net.following(&filter);
        let mut r = following.ready_tasks_by_index(
            &done,
            p.prerequisites,
            if selected { usize::MAX } else { page.end() },
            blocked_limit,
            &p.parent_attribute,
        );
        done_rule::check_rule_against_data(net, &p.done_attributes, |v| done[v.index()]);
        if selected {
            unmatched::warn_unmatched_selection(net, &selection);
        }
        if selected {
            following.select_ready(&mut r.ready, &done, p.prerequisites, &selection);
            r.ready_total = r.ready.len();
        }
        let ready: Vec<String> = page.fill(page.slice(&r.ready).iter().map(|&n| net.id_at(n).to_string()));
        // The blocked examples take what the page leaves.
        let blocked: Vec<BlockedOut> = r
            .blocked
            .iter()
            .map(|b| BlockedOut {
                node_id: net.id_at(b.node).to_string(),
                waiting_on: ids(net, b.waiting_on.iter().take(MAX_WAITING_LISTED).copied()),
                waiting_on_count: b.waiting_on.len(),
            })
            .take_while(|b| page.charge(b))
            .collect();
        let mut paging = Paging::of_total(&page, ready.len(), r.ready_total);
        // The blocked examples are cut too; say how to see more of them.
        let mut cut = Vec::new();
        if page.offset == 0 && r.blocked_total > blocked.len() {
            let bound = if blocked.len() < r.blocked.len() {
                " (the reply size bound cut the list)"
            } else {
                ""
            };
            let advice = if p.blocked_limit < MAX_ANALYSIS_LIMIT && bound.is_empty() {
                format!("raise blocked_limit (at most {MAX_ANALYSIS_LIMIT}) for more")
            } else {
                "they are examples: to see the others, ask about a part of the network (network_copy)".to_string()
            };
            cut.push(format!(
                "{} of {} blocked nodes are shown{bound}; {advice}.",
                blocked.len(),
                r.blocked_total
            ));
        }
        if r.blocked.iter().any(|b| b.waiting_on.len() > MAX_WAITING_LISTED) {
            cut.push(format!(
                "A blocked node lists at most {MAX_WAITING_LISTED} prerequisites (waiting_on_count counts them all); network_get_neighbors of it gives all."
            ));
        }
        if !cut.is_empty() {
            paging.add_note(cut.join(" "));
        }
        Ok(ReadyOutput {
            status: Success::Success,
            paging,
            ready,
            ready_count: r.ready_total,
            blocked,
            blocked_count: r.blocked_total,
            done_count: r.done_total,
            done_rule: done_rule::describe(
                &p.done_attributes,
                !p.done.is_empty(),
                Some(&p.parent_attribute),
            ),
        })
    })
}

/// `network_ready_nodes`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_ready_nodes",
            title: "What can start now",
            description: "The nodes not done whose prerequisites (and children, for a parent) are all done: what can start now.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        ready_nodes,
    )
}
