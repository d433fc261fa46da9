//! The opt-in `algorithms` toolset: what the peer graph servers answer.
//! Centrality ([`crate::network::centrality`], one tool with a `measure`
//! parameter, ranked, top first) and components as groups
//! ([`crate::network::components`]), both with cursors.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{Paging, Success, check_limit};
use crate::error::{Error, Result};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::centrality::{BetweennessOptions, DegreeKind, PageRankOptions, Scores};
use crate::network::components::Connectivity;
use crate::network::{Network, validate};

/// The most scores a page lists.
pub const MAX_SCORES_LIMIT: usize = 10_000;
/// The most shortest-path searches' worth of work (sources × (V + E)) one
/// betweenness or closeness call may do: about a few seconds. Past it, a sample.
const MAX_PATH_WORK: u128 = 2_000_000_000;

fn default_scores_limit() -> usize {
    20
}
fn default_true() -> bool {
    true
}
fn default_damping() -> f64 {
    0.85
}
fn default_tolerance() -> f64 {
    1e-6
}
fn default_max_iterations() -> usize {
    100
}

/// What `network_centrality` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// In + out degree / (V - 1).
    Degree,
    /// In-degree / (V - 1).
    InDegree,
    /// Out-degree / (V - 1).
    OutDegree,
    /// PageRank.
    Pagerank,
    /// Betweenness (Brandes).
    Betweenness,
    /// Closeness (inward distances, Wasserman-Faust).
    Closeness,
}

/// Parameters of `network_centrality`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CentralityParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// degree, in_degree, out_degree: links; pagerank: importance by links; betweenness: how many shortest paths pass through; closeness: how near the rest is.
    pub measure: Measure,
    /// Use edge weights (as lengths for paths, strengths for pagerank). Default: true for pagerank, false otherwise.
    #[serde(default)]
    pub weighted: Option<bool>,
    /// Betweenness: divide by (V-1)(V-2).
    #[serde(default = "default_true")]
    pub normalized: bool,
    /// Betweenness: estimate from k sampled sources (needed on big networks).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub k: Option<usize>,
    /// Betweenness: the sample's seed.
    #[serde(default)]
    pub seed: u64,
    /// Closeness: scale by the share of nodes that reach each one.
    #[serde(default = "default_true")]
    pub wf_improved: bool,
    /// PageRank: probability of following a link.
    #[serde(default = "default_damping")]
    pub damping: f64,
    /// PageRank: stop when the total change is below tolerance x V.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// PageRank: give up after this many iterations.
    #[serde(default = "default_max_iterations")]
    #[schemars(range(min = 1, max = 100_000))]
    pub max_iterations: usize,
    /// PageRank: jump weights per node ID (default uniform).
    #[serde(default)]
    pub personalization: Option<Map<String, Value>>,
    /// Scores per page, highest first.
    #[serde(default = "default_scores_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One node's score.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ScoreOut {
    /// The node ID.
    pub node_id: String,
    /// Its score.
    pub score: f64,
}

/// Result of `network_centrality`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CentralityOutput {
    /// "success".
    pub status: Success,
    /// What was measured.
    pub measure: Measure,
    /// This page of the nodes, highest score first (ties in insertion order).
    pub scores: Vec<ScoreOut>,
    /// How many nodes were scored.
    pub total: usize,
    /// How to get the rest of `scores`.
    #[serde(flatten)]
    pub paging: Paging,
}

/// Refuses an exact path measure that would run for minutes.
fn check_path_work(net: &Network, sources: usize, measure: Measure) -> Result<()> {
    let work = sources as u128 * (net.node_count() + net.edge_count()) as u128;
    if work <= MAX_PATH_WORK {
        return Ok(());
    }
    let size = format!("{} nodes and {} edges", net.node_count(), net.edge_count());
    Err(match measure {
        Measure::Betweenness => Error::InvalidValue {
            field: "k".into(),
            reason: format!(
                "exact betweenness on {size} needs a shortest-path search from every node, too long for one call; estimate it from a sample of k sources (e.g. k 100)"
            ),
        },
        _ => Error::InvalidValue {
            field: "measure".into(),
            reason: format!(
                "closeness on {size} needs a shortest-path search from every node, too long for one call; on a network this large use pagerank, degree, or betweenness with a sample of k sources"
            ),
        },
    })
}

fn measure(net: &Network, p: &CentralityParams) -> Result<Scores> {
    let weighted = p.weighted.unwrap_or(p.measure == Measure::Pagerank);
    match p.measure {
        Measure::Degree => Ok(net.degree_centrality(DegreeKind::Total)),
        Measure::InDegree => Ok(net.degree_centrality(DegreeKind::In)),
        Measure::OutDegree => Ok(net.degree_centrality(DegreeKind::Out)),
        Measure::Pagerank => {
            let personalization = match &p.personalization {
                None => None,
                Some(map) => {
                    let mut weights = Vec::with_capacity(map.len());
                    for (id, value) in map {
                        validate::id("personalization", id)?;
                        let ix = net.require("personalization", id)?;
                        let w = value.as_f64().ok_or_else(|| Error::InvalidValue {
                            field: "personalization".into(),
                            reason: format!("the weight of '{id}' is {value}; give a number"),
                        })?;
                        weights.push((ix, w));
                    }
                    Some(weights)
                }
            };
            net.pagerank(&PageRankOptions {
                damping: p.damping,
                tolerance: p.tolerance,
                max_iterations: p.max_iterations,
                weighted,
                personalization,
            })
        }
        Measure::Betweenness => {
            let sources = p.k.map_or(net.node_count(), |k| k.min(net.node_count()));
            check_path_work(net, sources, Measure::Betweenness)?;
            net.betweenness(&BetweennessOptions {
                weighted,
                normalized: p.normalized,
                sample: p.k.map(|k| (k, p.seed)),
            })
        }
        Measure::Closeness => {
            check_path_work(net, net.node_count(), Measure::Closeness)?;
            net.closeness(weighted, p.wf_improved)
        }
    }
}

fn centrality(ctx: &ToolContext<'_>, p: CentralityParams) -> Result<CentralityOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let query = (
            p.measure,
            p.weighted,
            p.normalized,
            p.k,
            p.seed,
            p.wf_improved,
            p.damping.to_bits(),
            p.tolerance.to_bits(),
            p.max_iterations,
            p.personalization
                .as_ref()
                .map(|m| Value::Object(m.clone()).to_string()),
        );
        let page = Page::open(
            net,
            "network_centrality",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        let scores = measure(net, &p)?;
        let ranked = scores.ranked();
        let listed: Vec<ScoreOut> = page
            .slice(&ranked)
            .iter()
            .map(|&i| ScoreOut {
                node_id: net.id_at(scores.nodes[i]).to_string(),
                score: scores.values[i],
            })
            .collect();
        let paging = Paging::of_total(&page, listed.len(), ranked.len());
        Ok(CentralityOutput {
            status: Success::Success,
            measure: p.measure,
            scores: listed,
            total: ranked.len(),
            paging,
        })
    })
}

// ---------------------------------------------------------------- components

fn default_min_size() -> usize {
    1
}
fn default_group_limit() -> usize {
    20
}

/// Which components `network_components` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConnectivityParam {
    /// Edges read both ways.
    Weak,
    /// Every node reaches every other.
    Strong,
}

/// Parameters of `network_components`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentsParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// "weak": connected ignoring direction (separate islands). "strong": each node reaches every other (dependency cycles).
    pub connectivity: ConnectivityParam,
    /// List only components of at least this many nodes (2 skips the singletons).
    #[serde(default = "default_min_size")]
    #[schemars(range(min = 1))]
    pub min_size: usize,
    /// Components per page.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    /// Node IDs listed per component.
    #[serde(default = "default_group_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub max_nodes_per_component: usize,
    /// The previous page's next_cursor.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One component.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ComponentOut {
    /// How many nodes it has.
    pub size: usize,
    /// Its first nodes, in insertion order.
    pub node_ids: Vec<String>,
}

/// Result of `network_components`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ComponentsOutput {
    /// "success".
    pub status: Success,
    /// This page of the components of at least min_size nodes, by their first node's insertion order.
    pub components: Vec<ComponentOut>,
    /// How many components have at least min_size nodes.
    pub total: usize,
    /// How many components the network has, of any size.
    pub all_components: usize,
    /// How to get the rest of `components`.
    #[serde(flatten)]
    pub paging: Paging,
}

fn components(ctx: &ToolContext<'_>, p: ComponentsParams) -> Result<ComponentsOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let query = (p.connectivity, p.min_size, p.max_nodes_per_component);
        let page = Page::open(
            net,
            "network_components",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        let connectivity = match p.connectivity {
            ConnectivityParam::Weak => Connectivity::Weak,
            ConnectivityParam::Strong => Connectivity::Strong,
        };
        let all = net.components(connectivity);
        let all_components = all.len();
        let kept: Vec<Vec<_>> = all.into_iter().filter(|c| c.len() >= p.min_size).collect();
        let mut cut = false;
        let listed: Vec<ComponentOut> = page
            .slice(&kept)
            .iter()
            .map(|c| {
                let shown = c.len().min(p.max_nodes_per_component);
                cut |= shown < c.len();
                ComponentOut {
                    size: c.len(),
                    node_ids: c[..shown].iter().map(|&ix| net.id_at(ix).to_string()).collect(),
                }
            })
            .collect();
        let mut paging = Paging::of_total(&page, listed.len(), kept.len());
        if cut {
            paging.add_note(format!(
                "Components of more than {} nodes list their first {}; raise max_nodes_per_component to see more.",
                p.max_nodes_per_component, p.max_nodes_per_component
            ));
        }
        Ok(ComponentsOutput {
            status: Success::Success,
            components: listed,
            total: kept.len(),
            all_components,
            paging,
        })
    })
}

/// The opt-in analysis tools of the peer graph servers.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_centrality",
                title: "Centrality",
                description: "Rank nodes by importance, highest first, as NetworkX computes it: degree (in/out/total), PageRank, betweenness (the bottlenecks many shortest paths go through; k samples sources on big networks) or closeness. Paged with cursors.",
                toolset: Toolset::Algorithms,
                effect: Effect::Read,
                // Exact betweenness or closeness can take seconds: off the async workers.
                long_running: true,
            },
            centrality,
        ),
        ToolDef::new(
            ToolMeta {
                name: "network_components",
                title: "Components",
                description: "List connected components as groups of nodes, ordered by their first node: weak (islands, ignoring direction) or strong (every node reaches every other; a group of 2 or more is a dependency cycle). min_size 2 skips single nodes. Paged with cursors.",
                toolset: Toolset::Algorithms,
                effect: Effect::Read,
                long_running: false,
            },
            components,
        ),
    ]
}
