//! `network_paths`: every simple path between two nodes up to a length, or the
//! k shortest ([`crate::network::simple_paths`]), with cursors.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::default_true;
use crate::error::{Error, Result};
use crate::mcp::page::{Page, halve, shrink_to};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit, check_range, relation_filter};
use crate::network::simple_paths::SimplePaths;
use crate::network::{Weighted, validate};

/// The most paths one page lists.
const MAX_PATHS_LIMIT: usize = 1_000;
/// The longest path `all_simple` looks for, in edges.
const MAX_DEPTH: usize = 1_000;
/// The most edges one direct call's search examines: well under a second. Past
/// it the call answers with what it found and says so. A call that runs as a
/// task may examine this many per second of its longer deadline
/// ([`crate::budget::work_scale`]).
const MAX_STEPS: u64 = 20_000_000;

fn default_paths_limit() -> usize {
    20
}
/// What to do when a search stopped at its work limit, in the terms of the
/// method that ran: only all_simple has a max_depth to lower.
fn work_limit_note(method: PathMethod, steps: u64) -> String {
    let advice = match method {
        PathMethod::AllSimple => "lower max_depth, or ask for k_shortest (the best paths first)",
        PathMethod::KShortest => {
            "the paths listed are the shortest; ask for fewer (a lower limit), or search a smaller part of the network (network_copy)"
        }
    };
    format!(
        "The search stopped at its work limit ({steps} steps), so more paths may exist: {advice}."
    )
}

fn default_max_depth() -> usize {
    10
}

/// Which paths `network_paths` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathMethod {
    /// Every simple path up to max_depth edges.
    AllSimple,
    /// The shortest simple paths, shortest first (Yen).
    KShortest,
}

/// Parameters of `network_paths`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathsParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    pub source: String,
    pub target: String,
    /// all_simple: every one up to max_depth edges. k_shortest: the shortest first (alternatives to the best route).
    pub method: PathMethod,
    /// all_simple: the most edges a path may have.
    #[serde(default = "default_max_depth")]
    #[schemars(range(min = 1, max = MAX_DEPTH))]
    pub max_depth: usize,
    /// k_shortest: true: least total weight. false: fewest edges.
    #[serde(default = "default_true")]
    pub weighted: bool,
    /// Paths per page (for k_shortest: k).
    #[serde(default = "default_paths_limit")]
    #[schemars(range(min = 1, max = MAX_PATHS_LIMIT))]
    pub limit: usize,
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
}

/// One path.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct PathOut {
    /// Node IDs from source to target.
    pub node_ids: Vec<String>,
    /// The edges taken (the lightest of parallel edges).
    pub edge_ids: Vec<u64>,
    /// Sum of their weights.
    pub total_weight: f64,
    /// Number of edges.
    pub hops: usize,
    /// True when node_ids and edge_ids were cut at the reply size bound (hops counts every edge).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
}

/// Result of `network_paths`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct PathsOutput {
    /// "success" (also when there is no path: `paths` is empty).
    pub status: Success,
    /// Which paths.
    pub method: PathMethod,
    /// This page of the paths.
    pub paths: Vec<PathOut>,
    /// How to get the rest of `paths`.
    #[serde(flatten)]
    pub paging: Paging,
}

fn paths(ctx: &ToolContext<'_>, p: PathsParams) -> Result<PathsOutput> {
    let limit = check_limit(p.limit, MAX_PATHS_LIMIT)?;
    let max_depth = check_range("max_depth", p.max_depth, MAX_DEPTH)?;
    validate::id("source", &p.source)?;
    validate::id("target", &p.target)?;
    ctx.registry.read(&p.network_name, |net| {
        let from = net.require("source", &p.source)?;
        let to = net.require("target", &p.target)?;
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let query = (
            &p.source,
            &p.target,
            p.method,
            (p.method == PathMethod::AllSimple).then_some(max_depth),
            (p.method == PathMethod::KShortest).then_some(p.weighted),
            &filter,
        );
        let page = Page::open(ctx, net,
            "network_paths",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_PATHS_LIMIT,
        )?;
        let max_steps = MAX_STEPS.saturating_mul(crate::budget::work_scale());
        let found: SimplePaths = match p.method {
            PathMethod::AllSimple => {
                net.following(&filter)
                    .all_simple_paths(from, to, max_depth, page.offset, limit, max_steps)
            }
            PathMethod::KShortest => {
                let mut found = net.following(&filter).k_shortest_paths(
                    from,
                    to,
                    page.end(),
                    Weighted::from_bool(p.weighted),
                    max_steps,
                )?;
                // Yen finds the paths in order: this page is the tail of the first `end`.
                let start = page.offset.min(found.paths.len());
                found.paths.drain(..start);
                found
            }
        };
        // Weights are finite, but a long path of huge ones can sum past the range
        // of an f64, which JSON cannot carry.
        if found
            .paths
            .iter()
            .any(|path| !path.total_weight.is_finite())
        {
            return Err(Error::WeightOverflow {
                what: format!("a path from '{}' to '{}'", p.source, p.target),
                hops_possible: false,
            });
        }
        // Built and measured one path at a time: the page stops at the reply
        // size bound, and a path larger than it alone is cut and marked.
        let listed: Vec<PathOut> = page.fill_cut(
            found.paths.iter().map(|path| PathOut {
                node_ids: net.ids(&path.nodes).into_iter().map(String::from).collect(),
                edge_ids: path.edges.clone(),
                total_weight: path.total_weight,
                hops: path.hops,
                cut: false,
            }),
            |mut path, bytes| {
                path.cut = true;
                shrink_to(&mut path, bytes, |p| halve(&mut p.node_ids) | halve(&mut p.edge_ids));
                path
            },
        );
        let beyond = found.more && !found.stopped_early;
        let mut paging = Paging::of(&page, listed.len(), None, beyond);
        if listed.iter().any(|path| path.cut) {
            paging.add_note(format!(
                "A path longer than the reply size bound ({} bytes, --max-reply-bytes) lists its first nodes and edges (cut: true; hops counts them all); network_shortest_path from its last listed node continues it.",
                ctx.limits.max_reply_bytes
            ));
        }
        if found.stopped_early {
            // No cursor: the next page would run out of work at the same point.
            paging.truncated = true;
            paging.add_note(work_limit_note(p.method, max_steps));
        }
        Ok(PathsOutput {
            status: Success::Success,
            method: p.method,
            paths: listed,
            paging,
        })
    })
}

/// `network_paths`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_paths",
            title: "Paths between two nodes",
            description: "Paths source -> target that visit no node twice (see method). For one shortest path, network_shortest_path.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            long_running: true,
        },
        paths,
    )
}
