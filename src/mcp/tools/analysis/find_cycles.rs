//! `network_find_cycles`: every group of nodes caught in a cycle, each with one
//! concrete cycle.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_ANALYSIS_LIMIT, ids};
use crate::error::{Error, Result};
use crate::mcp::page::{Page, shrink_to};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit, check_range, relation_filter};

fn default_group_limit() -> usize {
    10
}

fn default_members_limit() -> usize {
    20
}

/// Parameters of `network_find_cycles`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CyclesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Cyclic groups per page.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    /// Nodes and cycle nodes listed per group.
    #[serde(default = "default_members_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub max_nodes_per_group: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    /// A group's members_page: list its next nodes instead.
    #[serde(default)]
    pub members_page: Option<String>,
    // The relation filter: described once, in the server instructions.
    #[serde(default)]
    pub relations: Option<Vec<String>>,
    #[serde(default)]
    pub ignore_relations: Option<Vec<String>>,
    #[serde(default)]
    pub relation_attribute: Option<String>,
}

/// One group of nodes that all reach each other (a strongly connected component with a cycle).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CycleGroup {
    /// Number of nodes in the group.
    pub size: usize,
    /// Member node IDs (the first max_nodes_per_group, in insertion order).
    pub node_ids: Vec<String>,
    /// One concrete cycle in edge direction: each node has an edge to the next, and the last to the first (its first max_nodes_per_group nodes).
    pub cycle_node_ids: Vec<String>,
    /// Number of nodes on that cycle.
    pub cycle_node_count: usize,
    /// When nodes or cycle is cut: pass it as members_page for the next ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members_page: Option<String>,
}

/// Result of `network_find_cycles`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CyclesOutput {
    /// "success".
    pub status: Success,
    /// True when the network has no cycle at all.
    pub is_dag: bool,
    /// This page of the cyclic groups (strongly connected components of 2+ nodes, and single nodes with a self-loop).
    pub groups: Vec<CycleGroup>,
    /// How many cyclic groups exist in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

const TOOL: &str = "network_find_cycles";

fn find_cycles(ctx: &ToolContext<'_>, p: CyclesParams) -> Result<CyclesOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    let per_group = check_range(
        "max_nodes_per_group",
        p.max_nodes_per_group,
        MAX_ANALYSIS_LIMIT,
    )?;
    if let Some(members) = &p.members_page {
        if p.cursor.is_some() {
            return Err(Error::InvalidValue {
                field: "members_page".into(),
                reason: "give cursor (the next groups) or members_page (one group's next members), not both".into(),
            });
        }
        return ctx.registry.read(&p.network_name, |net| {
            let filter = relation_filter(
                net,
                p.relations.as_deref(),
                p.ignore_relations.as_deref(),
                p.relation_attribute.as_deref(),
            )?;
            group_members(ctx, net, members, per_group, &filter)
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        crate::mcp::tools::warn_if_empty(&p.network_name, net.node_count());
        // max_nodes_per_group is left out of the call: it sizes pages of
        // members, as limit sizes pages of groups.
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let page = Page::open(ctx, net, TOOL, &filter, p.cursor.as_deref(), limit, MAX_ANALYSIS_LIMIT)?;
        let cycles = net.following(&filter).find_cycles(page.end());
        let mut groups: Vec<CycleGroup> = page.fill_cut(
            page.slice(&cycles.components).iter().map(|c| CycleGroup {
                size: c.nodes.len(),
                node_ids: ids(net, c.nodes.iter().take(per_group).copied()),
                cycle_node_ids: ids(net, c.cycle.iter().take(per_group).copied()),
                cycle_node_count: c.cycle.len(),
                members_page: None,
            }),
            // Cut like max_nodes_per_group cuts, both lists at the same
            // position: size and cycle_node_count still count every node, and
            // members_page continues both there.
            |mut group, bytes| {
                shrink_to(&mut group, bytes, |g| {
                    let shown = g.node_ids.len().max(g.cycle_node_ids.len());
                    g.node_ids.truncate(shown / 2);
                    g.cycle_node_ids.truncate(shown / 2);
                    shown > 0
                });
                group
            },
        );
        // Each list is whole or shown up to the same position.
        for (i, group) in groups.iter_mut().enumerate() {
            if group.node_ids.len() < group.size || group.cycle_node_ids.len() < group.cycle_node_count {
                let shown = group.node_ids.len().max(group.cycle_node_ids.len());
                group.members_page = Some(page.members_cursor(page.offset + i, shown));
            }
        }
        let mut paging = Paging::of_total(&page, groups.len(), cycles.total);
        if groups.iter().any(|g| g.members_page.is_some()) {
            let raise = if per_group < MAX_ANALYSIS_LIMIT {
                format!("raise max_nodes_per_group (at most {MAX_ANALYSIS_LIMIT}), or ")
            } else {
                String::new()
            };
            paging.add_note(format!(
                "Each group lists at most {per_group} members and cycle nodes, fewer when the reply size bound cuts it (size and cycle_node_count count them all); {raise}pass a cut group's members_page as members_page to list the rest page by page."
            ));
        }
        Ok(CyclesOutput {
            status: Success::Success,
            is_dag: cycles.total == 0,
            paging,
            groups,
            total: cycles.total,
        })
    })
}

/// The page of one group's nodes and cycle nodes that `members` asks for: the
/// same positions of both lists, each while it lasts.
fn group_members(
    ctx: &ToolContext<'_>,
    net: &crate::network::Network,
    members: &str,
    per_group: usize,
    filter: &crate::network::RelationFilter,
) -> Result<CyclesOutput> {
    let page = Page::members(
        ctx,
        net,
        TOOL,
        filter,
        members,
        per_group,
        MAX_ANALYSIS_LIMIT,
        "max_nodes_per_group",
    )?;
    let group = page.group().unwrap_or_default();
    let cycles = net.following(filter).find_cycles(group.saturating_add(1));
    let Some(c) = cycles.components.get(group) else {
        return Err(Error::InvalidValue {
            field: "members_page".into(),
            reason: "it names no group of this answer; omit it to list the groups".into(),
        });
    };
    let longest = c.nodes.len().max(c.cycle.len());
    let end = page.end().min(longest);
    let pairs = page.fill((page.offset.min(end)..end).map(|i| {
        (
            c.nodes.get(i).map(|&n| net.id_at(n)),
            c.cycle.get(i).map(|&n| net.id_at(n)),
        )
    }));
    let returned = pairs.len();
    let (nodes, cycle): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
    let next = page.next(page.end() < longest);
    let more = page.more(returned, Some(longest), &next);
    Ok(CyclesOutput {
        status: Success::Success,
        is_dag: false,
        groups: vec![CycleGroup {
            size: c.nodes.len(),
            node_ids: nodes.into_iter().flatten().map(String::from).collect(),
            cycle_node_ids: cycle.into_iter().flatten().map(String::from).collect(),
            cycle_node_count: c.cycle.len(),
            members_page: next.clone(),
        }],
        total: cycles.total,
        paging: Paging {
            truncated: next.is_some(),
            next_cursor: None,
            more,
        },
    })
}

/// `network_find_cycles`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_find_cycles",
            title: "Find cycles",
            description: "Every group of nodes caught in a cycle (strong components of 2+ nodes, and self-loops), each with one concrete cycle.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        find_cycles,
    )
}
