//! `network_communities`: groups of nodes. Louvain communities
//! ([`crate::network::communities`]) and weak or strong components
//! ([`crate::network::components`]), one shape of answer for all three, with cursors.

use petgraph::stable_graph::NodeIndex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_SCORES_LIMIT, default_true};
use crate::error::{Error, Result};
use crate::mcp::answers::{AnswerKey, Weigh, answer, vec_bytes};
use crate::mcp::page::{Page, halve, shrink_to};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};
use crate::network::communities::LouvainOptions;
use crate::network::components::Connectivity;

fn default_min_size() -> usize {
    1
}
fn default_group_limit() -> usize {
    20
}
fn default_resolution() -> f64 {
    1.0
}

/// How `network_communities` groups the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GroupMethod {
    /// Louvain modularity communities.
    #[default]
    Louvain,
    /// Weakly connected components.
    Weak,
    /// Strongly connected components.
    Strong,
}

/// Parameters of `network_communities`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommunitiesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// louvain reports modularity; weak ignores direction.
    #[serde(default)]
    pub method: GroupMethod,
    /// Louvain: above 1, smaller groups.
    #[serde(default = "default_resolution")]
    pub resolution: f64,
    /// Louvain: the same seed gives the same answer.
    #[serde(default)]
    pub seed: u64,
    /// Louvain: use edge weights as link strengths.
    #[serde(default = "default_true")]
    pub weighted: bool,
    /// Smallest group listed.
    #[serde(default = "default_min_size")]
    #[schemars(range(min = 1))]
    pub min_size: usize,
    /// Groups per page.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    /// Node IDs listed per group.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub max_nodes_per_group: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    /// A group's members_page: list its next nodes instead.
    #[serde(default)]
    pub members_page: Option<String>,
}

/// One group of nodes.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GroupOut {
    /// How many nodes it has.
    pub size: usize,
    /// Its first nodes, in insertion order.
    pub node_ids: Vec<String>,
    /// When node_ids is cut: pass it as members_page for the next ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members_page: Option<String>,
}

/// Result of `network_communities`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CommunitiesOutput {
    /// "success".
    pub status: Success,
    /// How the nodes were grouped.
    pub method: GroupMethod,
    /// This page of the groups of at least min_size nodes, largest first (ties by their first node's insertion order).
    pub groups: Vec<GroupOut>,
    /// How many groups have at least min_size nodes.
    pub total: usize,
    /// How many groups there are, of any size.
    pub group_count: usize,
    /// Louvain: the partition's modularity (NetworkX's directed definition, at most 1); higher is more clustered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modularity: Option<f64>,
    /// How to get the rest of `groups`.
    #[serde(flatten)]
    pub paging: Paging,
}

/// Largest first, ties by the first node (each group is in index order).
fn largest_first(groups: &mut [Vec<NodeIndex>]) {
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a.first().cmp(&b.first())));
}

/// The groups, largest first, as kept between pages ([`crate::mcp::answers`]):
/// a page then costs O(limit × max_nodes_per_group).
struct Groups {
    groups: Vec<Vec<NodeIndex>>,
    modularity: Option<f64>,
}

impl Weigh for Groups {
    fn bytes(&self) -> usize {
        let members: usize = self.groups.iter().map(vec_bytes).sum();
        std::mem::size_of::<Self>() + vec_bytes(&self.groups) + members
    }
}

fn communities(ctx: &ToolContext<'_>, p: CommunitiesParams) -> Result<CommunitiesOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    if p.min_size == 0 {
        return Err(Error::InvalidValue {
            field: "min_size".into(),
            reason: "0 is out of range; give 1 to list every group, or more to skip small ones"
                .into(),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        // max_nodes_per_group is left out of the call: it sizes pages of
        // members, as limit sizes pages of groups.
        let query = (
            p.method,
            p.resolution.to_bits(),
            p.seed,
            p.weighted,
            p.min_size,
        );
        let page = match (&p.members_page, &p.cursor) {
            (Some(_), Some(_)) => return Err(Error::InvalidValue {
                field: "members_page".into(),
                reason: "give cursor (the next groups) or members_page (one group's next members), not both".into(),
            }),
            (Some(members), None) => Page::members(ctx, net,
                "network_communities",
                query,
                members,
                p.max_nodes_per_group,
                MAX_SCORES_LIMIT,
                "max_nodes_per_group",
            )?,
            (None, cursor) => Page::open(ctx, net,
                "network_communities",
                query,
                cursor.as_deref(),
                limit,
                MAX_SCORES_LIMIT,
            )?,
        };
        // Grouped and sorted once for all pages while the network stays as it is.
        let key = AnswerKey::new("network_communities", &[net], query);
        let found = answer(ctx, key, || {
            let (mut groups, modularity) = match p.method {
                GroupMethod::Louvain => {
                    let found = net.louvain(&LouvainOptions {
                        resolution: p.resolution,
                        seed: p.seed,
                        weighted: p.weighted,
                        ..LouvainOptions::default()
                    })?;
                    (found.groups, Some(found.modularity))
                }
                GroupMethod::Weak => (net.components(Connectivity::Weak), None),
                GroupMethod::Strong => (net.components(Connectivity::Strong), None),
            };
            largest_first(&mut groups);
            Ok(Groups { groups, modularity })
        })?;
        let (groups, modularity) = (&found.groups, found.modularity);
        let all_groups = groups.len();
        // Largest first: the groups big enough are a prefix.
        let kept = groups.partition_point(|g| g.len() >= p.min_size);
        let kept = &groups[..kept];
        if let Some(group) = page.group() {
            let out = group_members(net, &page, kept, group, all_groups, p.method, modularity);
            // A group's members come page by page from the same kept grouping.
            found.keep_if(out.is_ok());
            return out;
        }
        let mut listed: Vec<GroupOut> = page.fill_cut(
            page.slice(kept).iter().map(|g| {
                let shown = g.len().min(p.max_nodes_per_group);
                GroupOut {
                    size: g.len(),
                    node_ids: net.ids(&g[..shown]).into_iter().map(String::from).collect(),
                    members_page: None,
                }
            }),
            // A group larger than the reply alone lists fewer members; size
            // still counts them all, and the note below says so.
            |mut group, bytes| {
                shrink_to(&mut group, bytes, |g| halve(&mut g.node_ids));
                group
            },
        );
        let mut cut = false;
        for (i, group) in listed.iter_mut().enumerate() {
            if group.node_ids.len() < group.size {
                cut = true;
                group.members_page = Some(page.members_cursor(page.offset + i, group.node_ids.len()));
            }
        }
        let mut paging = Paging::of_total(&page, listed.len(), kept.len());
        if cut {
            let raise = if p.max_nodes_per_group < MAX_SCORES_LIMIT {
                format!("raise max_nodes_per_group (at most {MAX_SCORES_LIMIT}), or ")
            } else {
                String::new()
            };
            paging.add_note(format!(
                "Groups of more than {0} nodes list their first {0}, fewer when the reply size bound cuts them (size counts them all); {raise}pass a cut group's members_page as members_page to list the rest page by page.",
                p.max_nodes_per_group
            ));
        }
        let total = kept.len();
        found.keep_if(paging.next_cursor.is_some());
        Ok(CommunitiesOutput {
            status: Success::Success,
            method: p.method,
            groups: listed,
            total,
            group_count: all_groups,
            modularity,
            paging,
        })
    })
}

/// The page of the members of `kept[group]` that `page` (a members page) asks for.
fn group_members(
    net: &crate::network::Network,
    page: &Page,
    kept: &[Vec<NodeIndex>],
    group: usize,
    all_groups: usize,
    method: GroupMethod,
    modularity: Option<f64>,
) -> Result<CommunitiesOutput> {
    let Some(members) = kept.get(group) else {
        return Err(Error::InvalidValue {
            field: "members_page".into(),
            reason: "it names no group of this answer; omit it to list the groups".into(),
        });
    };
    let node_ids: Vec<String> = page
        .fill(page.slice(members).iter().map(|&n| net.id_at(n)))
        .into_iter()
        .map(String::from)
        .collect();
    let next = page.next(page.end() < members.len());
    let more = page.more(node_ids.len(), Some(members.len()), &next);
    Ok(CommunitiesOutput {
        status: Success::Success,
        method,
        groups: vec![GroupOut {
            size: members.len(),
            node_ids,
            members_page: next.clone(),
        }],
        total: kept.len(),
        group_count: all_groups,
        modularity,
        paging: Paging {
            truncated: next.is_some(),
            next_cursor: None,
            more,
        },
    })
}

/// `network_communities`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_communities",
            title: "Communities and components",
            description: "Group nodes into clusters (louvain), islands (weak) or dependency cycles (strong), largest group first.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            // Louvain on a million nodes takes seconds: off the async workers.
            long_running: true,
        },
        communities,
    )
}
