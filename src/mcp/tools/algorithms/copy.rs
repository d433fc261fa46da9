//! `network_copy`: a new network made from an existing one: the whole of it,
//! the subgraph induced on some nodes, the neighbourhood of some nodes
//! ([`crate::network::subgraph`]), its transitive reduction or its
//! condensation ([`crate::network::topology`]).
//!
//! Atomic: the copy is built aside, under the source's read lock only, checked
//! against the limits, and registered in one step; nothing exists under the new
//! name until it is whole. This is how an agent asks "what if": copy, change the
//! copy, ask again, and `network_diff` the two.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tracing::info;

use super::MAX_REDUCTION_WORK;
use crate::error::{Error, Result};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, memory_held, network_bytes, reserve_memory};
use crate::network::subgraph::Extract;
use crate::network::{Direction, Network, validate};

/// The most node IDs `node_ids` may list.
const MAX_NODE_IDS: usize = 100_000;
/// The largest neighbourhood depth.
const MAX_DEPTH: usize = 1_000;

fn default_depth() -> usize {
    1
}

/// What `network_copy` copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CopyMethod {
    /// Everything.
    Whole,
    /// node_ids and the edges among them.
    Induced,
    /// Nodes within depth hops of node_ids.
    Neighborhood,
    /// Without its redundant edges.
    TransitiveReduction,
    /// One node per strong component.
    Condensation,
}

/// Parameters of `network_copy`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CopyParams {
    pub network_name: String,
    /// The new network's name.
    pub into: String,
    /// induced: node_ids and edges among them; neighborhood: within depth of node_ids; transitive_reduction: implied edges dropped (DAG only); condensation: each cycle as one node.
    pub method: CopyMethod,
    /// The nodes to keep (induced) or start from (neighborhood).
    #[serde(default)]
    pub node_ids: Option<Vec<String>>,
    /// neighborhood: how many hops.
    #[serde(default = "default_depth")]
    #[schemars(range(min = 0, max = MAX_DEPTH))]
    pub depth: usize,
    /// neighborhood: which edges to follow.
    #[serde(default)]
    pub direction: Direction,
}

/// Result of `network_copy`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CopyOutput {
    /// "success".
    pub status: Success,
    /// The new network.
    pub network_name: String,
    /// What was copied.
    pub method: CopyMethod,
    /// Its node count.
    pub node_count: usize,
    /// Its edge count.
    pub edge_count: usize,
}

/// The node IDs `method` needs, resolved; an error when they are missing or
/// given to a method that takes none.
fn seeds(net: &Network, p: &CopyParams) -> Result<Vec<petgraph::stable_graph::NodeIndex>> {
    let takes_nodes = matches!(p.method, CopyMethod::Induced | CopyMethod::Neighborhood);
    match (&p.node_ids, takes_nodes) {
        (None, false) => Ok(Vec::new()),
        (Some(_), false) => Err(Error::InvalidValue {
            field: "node_ids".into(),
            reason:
                "node_ids apply to methods \"induced\" and \"neighborhood\" only; leave them out"
                    .into(),
        }),
        (None, true) => Err(Error::InvalidValue {
            field: "node_ids".into(),
            reason:
                "this method copies the nodes you name: give node_ids, e.g. [\"build\", \"test\"]"
                    .into(),
        }),
        (Some(ids), true) => {
            if ids.len() > MAX_NODE_IDS {
                return Err(Error::InvalidValue {
                    field: "node_ids".into(),
                    reason: format!(
                        "{} node IDs given; give at most {MAX_NODE_IDS}, or copy the whole network and remove what you do not need",
                        ids.len()
                    ),
                });
            }
            if ids.is_empty() {
                return Err(Error::InvalidValue {
                    field: "node_ids".into(),
                    reason: "no node IDs given; name at least one node to copy or start from"
                        .into(),
                });
            }
            for id in ids {
                validate::id("node_ids", id)?;
            }
            net.require_all("node_ids", ids.iter().map(String::as_str))
        }
    }
}

/// Builds the copy of `net` that `p` asks for, refusing one past the limits
/// before building it where its size is known in advance.
fn build(ctx: &ToolContext<'_>, net: &Network, p: &CopyParams) -> Result<Network> {
    let seeds = seeds(net, p)?;
    let what = match p.method {
        CopyMethod::Induced => Some(Extract::Induced(&seeds)),
        CopyMethod::Neighborhood => Some(Extract::Neighborhood {
            seeds: &seeds,
            depth: p.depth,
            direction: p.direction,
        }),
        CopyMethod::Whole | CopyMethod::TransitiveReduction => Some(Extract::Whole),
        CopyMethod::Condensation => None,
    };
    // Found before anything is copied: a cyclic network is refused at once.
    let redundant = match p.method {
        CopyMethod::TransitiveReduction => net.transitive_reduction_within(MAX_REDUCTION_WORK)?,
        _ => Vec::new(),
    };
    let copy = match what {
        Some(what) => {
            let (nodes, edges) = net.extract_size(&what);
            ctx.limits.check_nodes(0, nodes)?;
            ctx.limits
                .check_edges(0, edges.saturating_sub(redundant.len()))?;
            let mut copy = net.extract(what);
            for id in redundant {
                copy.remove_edge(id)?;
            }
            copy
        }
        // Never larger than the source, which is within the limits.
        None => net.condensation(),
    };
    Ok(copy)
}

/// The error for an `into` that names an existing network.
fn into_taken(into: &str) -> Error {
    Error::InvalidValue {
        field: "into".into(),
        reason: format!(
            "a network named '{into}' already exists; choose another name, or network_delete it first"
        ),
    }
}

fn copy(ctx: &ToolContext<'_>, p: CopyParams) -> Result<CopyOutput> {
    if p.depth > MAX_DEPTH {
        return Err(Error::InvalidValue {
            field: "depth".into(),
            reason: format!(
                "{} is out of range; give a number from 0 to {MAX_DEPTH}",
                p.depth
            ),
        });
    }
    validate::id("into", &p.into)?;
    if ctx.registry.get(&p.into).is_ok() {
        return Err(into_taken(&p.into));
    }
    ctx.limits.check_networks(ctx.registry.len())?;
    // What all networks hold (`--max-memory`), counted before the source's lock
    // is taken: the count takes each network's lock in turn.
    let held = memory_held(ctx);
    let whole = matches!(
        p.method,
        CopyMethod::Whole | CopyMethod::TransitiveReduction
    );
    // The bytes promised to the copy, held until it is registered, so that
    // two copies at once cannot both pass the bound.
    let mut reservation = None;
    let mut copy = ctx.registry.read(&p.network_name, |net| {
        // if_version names the source's state: copy exactly what the caller saw.
        ctx.check_version(&p.network_name, net)?;
        // A whole copy is as big as its source: refused before it is made.
        if whole {
            reservation = reserve_memory(ctx, held, network_bytes(net), "this copy")?;
        }
        build(ctx, net, &p)
    })?;
    // A part is counted once made, before it is registered: making it took at
    // most what the source holds, which the bound admitted.
    if !whole {
        reservation = reserve_memory(ctx, held, network_bytes(&copy), "this copy")?;
    }
    copy.set_name(&p.into);
    let (node_count, edge_count) = (copy.node_count(), copy.edge_count());
    // The version this copy starts at, before anyone else can write to it.
    let version = copy.version();
    // Another call may have taken the name since it was checked above.
    ctx.registry
        .insert(&p.into, copy)
        .map_err(|_| into_taken(&p.into))?;
    drop(reservation);
    ctx.written.set(Some(version));
    info!(from = %p.network_name, into = %p.into, method = ?p.method, nodes = node_count, edges = edge_count, "network copied");
    Ok(CopyOutput {
        status: Success::Success,
        network_name: p.into,
        method: p.method,
        node_count,
        edge_count,
    })
}

/// `network_copy`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_copy",
            title: "Copy a network",
            description: "Make a new network from an existing one (see method), edge IDs kept. For what-if questions: copy, edit the copy, compare with network_diff.",
            toolset: Toolset::Algorithms,
            effect: Effect::Write { idempotent: false },
            long_running: true,
        },
        copy,
    )
}
