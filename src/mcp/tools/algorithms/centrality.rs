//! `network_centrality`: which nodes matter most ([`crate::network::centrality`]),
//! one tool with a `measure` parameter, ranked top first, with cursors.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{MAX_SCORES_LIMIT, default_true};
use crate::error::{Error, Result};
use crate::mcp::answers::{AnswerKey, Weigh, answer, vec_bytes};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};
use crate::network::centrality::{BetweennessOptions, DegreeKind, PageRankOptions, Scores};
use crate::network::{Network, validate};
use petgraph::stable_graph::NodeIndex;

/// The most shortest-path searches' worth of work (sources × (V + E)) one
/// betweenness or closeness call may do: about a few seconds. Past it, a sample.
const MAX_PATH_WORK: u128 = 2_000_000_000;

fn default_scores_limit() -> usize {
    20
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
    /// betweenness: bottlenecks; closeness: nearness.
    pub measure: Measure,
    /// Use weights (default: for pagerank only).
    #[serde(default)]
    pub weighted: Option<bool>,
    /// Betweenness: divide by (V-1)(V-2).
    #[serde(default = "default_true")]
    pub normalized: bool,
    /// Betweenness: sample k sources.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub k: Option<usize>,
    /// Betweenness: sample seed.
    #[serde(default)]
    pub seed: u64,
    /// Closeness: Wasserman-Faust scaling.
    #[serde(default = "default_true")]
    pub wf_improved: bool,
    /// PageRank's damping factor.
    #[serde(default = "default_damping")]
    pub damping: f64,
    /// PageRank: converged below tolerance x V.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// PageRank's cap.
    #[serde(default = "default_max_iterations")]
    #[schemars(range(min = 1, max = 100_000))]
    pub max_iterations: usize,
    /// PageRank: jump weights by node ID.
    #[serde(default)]
    pub personalization: Option<Map<String, Value>>,
    /// Scores per page, highest first.
    #[serde(default = "default_scores_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
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
                // As many as the compute pool lends each iteration: its free
                // heavy threads, up to `--kernel-threads`.
                threads: 0,
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

/// The scores, highest first (ties in insertion order), as kept between pages
/// ([`crate::mcp::answers`]): 16 bytes a node, and a page costs O(limit).
struct Ranked(Vec<(NodeIndex, f64)>);

impl Ranked {
    fn of(scores: Scores) -> Result<Ranked> {
        Ok(Ranked(
            scores
                .ranked()
                .into_iter()
                .map(|i| (scores.nodes[i], scores.values[i]))
                .collect(),
        ))
    }
}

impl Weigh for Ranked {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Self>() + vec_bytes(&self.0)
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
            ctx,
            net,
            "network_centrality",
            &query,
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        // Measured and ranked once for all pages while the network stays as it is.
        let key = AnswerKey::new("network_centrality", &[net], &query);
        let ranked = answer(ctx, key, || Ranked::of(measure(net, &p)?))?;
        let listed: Vec<ScoreOut> =
            page.fill(page.slice(&ranked.0).iter().map(|&(node, score)| ScoreOut {
                node_id: net.id_at(node).to_string(),
                score,
            }));
        let ranked_len = ranked.0.len();
        let paging = Paging::of_total(&page, listed.len(), ranked_len);
        ranked.keep_if(paging.next_cursor.is_some());
        Ok(CentralityOutput {
            status: Success::Success,
            measure: p.measure,
            total: ranked_len,
            scores: listed,
            paging,
        })
    })
}

/// `network_centrality`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_centrality",
            title: "Centrality",
            description: "Rank nodes by importance, highest first, as NetworkX computes it: degree, PageRank, betweenness or closeness.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            // Exact betweenness or closeness can take seconds: off the async workers.
            long_running: true,
        },
        centrality,
    )
}
