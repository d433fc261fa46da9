//! `network_structure`: the shape of a dependency graph
//! ([`crate::network::topology`]): redundant edges (what a transitive
//! reduction removes), dominators (the nodes every path from a root goes
//! through), articulation points and bridges (single points of failure).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MAX_REDUCTION_WORK, MAX_SCORES_LIMIT};
use crate::error::{Error, Result};
use crate::mcp::answers::{AnswerKey, Weigh, answer, vec_bytes};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};
use crate::network::{EdgeId, Network, validate};

fn default_structure_limit() -> usize {
    100
}

/// What `network_structure` finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StructureMethod {
    /// Edges implied by other paths.
    RedundantEdges,
    /// Immediate dominators from root.
    Dominators,
    /// Nodes whose removal disconnects.
    ArticulationPoints,
    /// Edges whose removal disconnects.
    Bridges,
}

/// Parameters of `network_structure`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// redundant_edges: implied by another path (DAG only). dominators: the last node every path from root passes. articulation_points / bridges: whose loss splits the network.
    pub method: StructureMethod,
    /// dominators: the node ID the paths start from.
    #[serde(default)]
    pub root: Option<String>,
    /// dominators: only this node's (its single points of failure), nearest first.
    #[serde(default)]
    pub target: Option<String>,
    /// Items per page.
    #[serde(default = "default_structure_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One edge.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct EdgeOut {
    /// Its ID.
    pub edge_id: u64,
    /// Source node ID.
    pub source: String,
    /// Target node ID.
    pub target: String,
    /// Its weight.
    pub weight: f64,
}

/// A node and its immediate dominator.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DominatorOut {
    /// The node ID.
    pub node_id: String,
    /// The nearest node every path from root to it passes.
    pub dominator: String,
}

/// Result of `network_structure`: the list its method fills.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct StructureOutput {
    /// "success".
    pub status: Success,
    /// What was found.
    pub method: StructureMethod,
    /// redundant_edges, bridges: this page of the edges, by ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<Vec<EdgeOut>>,
    /// articulation_points, or dominators with a target: this page of the node IDs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_ids: Option<Vec<String>>,
    /// dominators without a target: this page of the nodes reachable from root, in insertion order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dominators: Option<Vec<DominatorOut>>,
    /// dominators with a target: false when the target cannot be reached from root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<bool>,
    /// How many items in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

impl StructureOutput {
    fn empty(method: StructureMethod, total: usize, paging: Paging) -> Self {
        StructureOutput {
            status: Success::Success,
            method,
            edges: None,
            node_ids: None,
            dominators: None,
            reachable: None,
            total,
            paging,
        }
    }
}

fn edges_out(net: &Network, ids: &[EdgeId]) -> Vec<EdgeOut> {
    ids.iter()
        .filter_map(|&id| net.edge(id))
        .map(|e| EdgeOut {
            edge_id: e.id,
            source: e.source.to_string(),
            target: e.target.to_string(),
            weight: e.weight,
        })
        .collect()
}

fn owned(ids: Vec<&str>) -> Vec<String> {
    ids.into_iter().map(String::from).collect()
}

/// The root dominators need, or an error that says how to name it.
fn require_root(p: &StructureParams) -> Result<&str> {
    p.root.as_deref().ok_or_else(|| Error::InvalidValue {
        field: "root".into(),
        reason: "method \"dominators\" needs root: the node ID every path starts from (e.g. the plan's start node)".into(),
    })
}

/// Redundant edges or bridges, as kept between pages ([`crate::mcp::answers`]).
struct EdgeIds(Vec<EdgeId>);

impl Weigh for EdgeIds {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Self>() + vec_bytes(&self.0)
    }
}

fn structure(ctx: &ToolContext<'_>, p: StructureParams) -> Result<StructureOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    for (field, id) in [("root", &p.root), ("target", &p.target)] {
        if let Some(id) = id {
            validate::id(field, id)?;
        }
    }
    if p.method != StructureMethod::Dominators && (p.root.is_some() || p.target.is_some()) {
        return Err(Error::InvalidValue {
            field: if p.root.is_some() { "root" } else { "target" }.into(),
            reason: "root and target apply to method \"dominators\" only; leave them out".into(),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        let query = (p.method, &p.root, &p.target);
        let page = Page::open(
            ctx,
            net,
            "network_structure",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        let out = match p.method {
            StructureMethod::RedundantEdges | StructureMethod::Bridges => {
                // Computed once for all pages while the network stays as it is:
                // a transitive reduction can take a second.
                let key = AnswerKey::new("network_structure", &[net], query);
                let ids = answer(ctx, key, || {
                    Ok(EdgeIds(if p.method == StructureMethod::Bridges {
                        net.bridges()
                    } else {
                        net.transitive_reduction_within(MAX_REDUCTION_WORK)?
                    }))
                })?;
                let listed = page.fill(edges_out(net, page.slice(&ids.0)));
                let paging = Paging::of_total(&page, listed.len(), ids.0.len());
                let ids_len = ids.0.len();
                ids.keep_if(paging.next_cursor.is_some());
                StructureOutput {
                    edges: Some(listed),
                    ..StructureOutput::empty(p.method, ids_len, paging)
                }
            }
            StructureMethod::ArticulationPoints => {
                let points = net.articulation_points();
                let listed = page.fill(owned(net.ids(page.slice(&points))));
                let paging = Paging::of_total(&page, listed.len(), points.len());
                StructureOutput {
                    node_ids: Some(listed),
                    ..StructureOutput::empty(p.method, points.len(), paging)
                }
            }
            StructureMethod::Dominators => {
                let root = net.require("root", require_root(&p)?)?;
                match &p.target {
                    Some(target) => {
                        let target = net.require("target", target)?;
                        let chain = net.dominators_of(root, target);
                        let reachable = chain.is_some();
                        let chain = chain.unwrap_or_default();
                        let listed = page.fill(owned(net.ids(page.slice(&chain))));
                        let paging = Paging::of_total(&page, listed.len(), chain.len());
                        StructureOutput {
                            node_ids: Some(listed),
                            reachable: Some(reachable),
                            ..StructureOutput::empty(p.method, chain.len(), paging)
                        }
                    }
                    None => {
                        let idoms = net.immediate_dominators(root);
                        let listed: Vec<DominatorOut> =
                            page.fill(page.slice(&idoms).iter().map(|&(node, idom)| {
                                DominatorOut {
                                    node_id: net.id_at(node).to_string(),
                                    dominator: net.id_at(idom).to_string(),
                                }
                            }));
                        let paging = Paging::of_total(&page, listed.len(), idoms.len());
                        StructureOutput {
                            dominators: Some(listed),
                            ..StructureOutput::empty(p.method, idoms.len(), paging)
                        }
                    }
                }
            }
        };
        Ok(out)
    })
}

/// `network_structure`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_structure",
            title: "Structure: redundancy and single points of failure",
            description: "Find redundant edges, dominators (single points of failure), articulation points or bridges.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            long_running: true,
        },
        structure,
    )
}
