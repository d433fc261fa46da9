//! The opt-in `algorithms` toolset: what the peer graph servers answer, grouped
//! into a few tools with a `measure` or `method` parameter rather than one tool
//! per algorithm, so that the tool list stays short:
//! - [`centrality`]: which nodes matter most;
//! - [`communities`]: Louvain communities, weak and strong components, as groups;
//! - [`paths`]: every simple path, or the k shortest;
//! - [`structure`]: redundant edges, dominators, articulation points, bridges;
//! - [`copy`]: a new network from an old one (whole, a subgraph, a
//!   neighbourhood, the transitive reduction, the condensation);
//! - [`search`]: nodes by id or attribute text, exact or fuzzy;
//! - [`diff`]: what changed between two networks;
//! - [`query`]: a read-only openCypher query.
//!
//! Every list result is ranked or ordered deterministically and read page by
//! page with cursors ([`crate::mcp::page`]).

mod centrality;
mod communities;
mod copy;
mod diff;
mod paths;
mod query;
mod search;
mod structure;

use super::super::tool::ToolDef;

/// The most items (scores, groups, edges, matches) one page lists.
pub const MAX_SCORES_LIMIT: usize = 10_000;

/// The most steps a transitive reduction's bitset stage may take in one call
/// (about a second): only dense DAGs of hundreds of thousands of nodes reach it.
pub const MAX_REDUCTION_WORK: u64 = 200_000_000;

fn default_true() -> bool {
    true
}

/// The opt-in algorithm tools, in listing order.
pub fn tools() -> Vec<ToolDef> {
    vec![
        centrality::tool(),
        communities::tool(),
        paths::tool(),
        structure::tool(),
        search::tool(),
        diff::tool(),
        copy::tool(),
        query::tool(),
    ]
}
