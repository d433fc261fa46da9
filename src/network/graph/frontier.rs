//! The slot where the work family ([`crate::network::work`]) keeps its frontier
//! on the network it works on.
//!
//! The frontier is derived from the network at one version, so it lives, clones
//! and is dropped with the network; it is defined here so that the `Network`
//! struct names no type of `algo/`. Nothing in `graph/` reads or updates it: the
//! work calls do, through [`Network::frontier`] and [`Network::frontier_mut`],
//! and any other change moves the version past the one it records.

use std::collections::BTreeSet;

use petgraph::stable_graph::NodeIndex;
use serde_json::{Map, Value};

use super::{Direction, Network, RelationFilter};

/// What the work calls keep between calls, derived from the network at one
/// version: the tasks not done whose prerequisites are all done (the ready and
/// the claimed ones), the count of done tasks, and the blocked tasks that name a
/// worker. A claim then looks at this frontier instead of the whole plan, and
/// each work call updates it for the change it made. Any other change moves
/// the version past the one recorded, and the next work call rebuilds it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frontier {
    /// The version and the state's definition it was derived at.
    pub(in crate::network) key: Option<(u64, Map<String, Value>, Direction, RelationFilter)>,
    /// Tasks not done whose prerequisites are all done (ready or claimed).
    pub(in crate::network) candidates: BTreeSet<NodeIndex>,
    /// How many tasks are done.
    pub(in crate::network) done: usize,
    /// Tasks not done, not candidates, naming a worker (a prerequisite was
    /// reopened after they were claimed): usually none.
    pub(in crate::network) named_blocked: BTreeSet<NodeIndex>,
    /// The candidates in the order the last call that asked for one chose, if
    /// any: kept with the candidates from then on, so that a claim in that
    /// order stays O(log V).
    pub(in crate::network) ranked: Option<Ranked>,
}

/// The candidates ranked by a key the work family computes: (priority, impact)
/// under the priority attribute `priority` (`None`: impact alone), then index.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ranked {
    /// The priority attribute the keys were read from (`None`: none).
    pub(in crate::network) priority: Option<String>,
    /// The candidates by key, then index.
    pub(in crate::network) order: BTreeSet<(u64, u64, NodeIndex)>,
    /// Each ranked candidate's key, to find it in `order`.
    pub(in crate::network) keys: hashbrown::HashMap<NodeIndex, (u64, u64)>,
}

impl Network {
    /// The work family's frontier, as the last work call left it (see
    /// [`Frontier`]; it may be stale: check its key against the version).
    pub(in crate::network) fn frontier(&self) -> &Frontier {
        &self.frontier
    }

    /// The work family's frontier, to rebuild or update it. Not a change of
    /// content: the version does not move.
    pub(in crate::network) fn frontier_mut(&mut self) -> &mut Frontier {
        &mut self.frontier
    }
}
