//! The slot where the work family ([`crate::network::work`]) keeps its frontier
//! on the network it works on.
//!
//! The frontier is derived from the network at one version, so it lives, clones
//! and is dropped with the network; it is defined here so that the `Network`
//! struct names no type of `algo/`. Nothing in `graph/` reads or updates it: the
//! work calls do, through [`Network::frontier`] and [`Network::frontier_mut`],
//! and any other change moves the version past the one it records.

use std::collections::{BTreeMap, BTreeSet};

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
    /// The version and the state's definition it was derived at: the done
    /// values, the direction of prerequisites, the relations followed, and the
    /// claim, parent and exclusion attribute names.
    pub(in crate::network) key: Option<FrontierKey>,
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
    /// Parents and exclusion groups, kept with the candidates.
    pub(in crate::network) plan: PlanIndex,
    /// Candidates whose exclusion group another task held when a claim met
    /// them, taken out of `candidates` (and the ranking) so that the next
    /// claims do not skip them one by one: parked by group until the group is
    /// freed (a completion or a release of its holder) or the hold's last
    /// lease ends, whichever comes first.
    pub(in crate::network) parked: hashbrown::HashMap<Group, Parked>,
    /// When each parked group's hold ends, by time: a claim at or past it
    /// looks at the group again. An entry whose time is no longer its group's
    /// `until` is left behind by a later hold and skipped.
    pub(in crate::network) wakes: BTreeMap<u64, Vec<Group>>,
}

/// The candidates of one held exclusion group, parked until it is freed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Parked {
    /// The parked tasks (candidates not held), in the order they were met.
    pub(in crate::network) tasks: Vec<NodeIndex>,
    /// The end of the group's hold when they were parked: the last end of a
    /// live lease on one of its tasks.
    pub(in crate::network) until: u64,
}

/// What a [`Frontier`] was derived from (see its `key`).
pub(crate) type FrontierKey = (
    u64,
    Map<String, Value>,
    Direction,
    RelationFilter,
    [String; 3],
);

/// A value of a plan's exclusion attribute: the group a task is in. Values are
/// compared as JSON values: a string and a number never name the same group,
/// and a number by its JSON text (`1` and `1.0` differ).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Group {
    /// A string value.
    Text(Box<str>),
    /// A number, by its JSON text.
    Number(Box<str>),
}

impl std::fmt::Display for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Group::Text(text) => write!(f, "{:?}", &**text),
            Group::Number(text) => f.write_str(text),
        }
    }
}

/// What the state of a task depends on beyond its own edges, derived from the
/// plan in one O(V) pass (`Network::plan_index`): which tasks name each task
/// as their parent (a parent waits on its children), how many of them are not
/// done, and which tasks are in each exclusion group. The work calls keep one
/// in their frontier; a read builds it once and asks it about many tasks.
#[derive(Debug, Clone, Default)]
pub struct PlanIndex {
    /// Each parent's children (the tasks naming it), in index order.
    pub(in crate::network) children: hashbrown::HashMap<NodeIndex, Vec<NodeIndex>>,
    /// Each parent's count of children not done; a parent with none left (or
    /// no children) is absent.
    pub(in crate::network) unfinished: hashbrown::HashMap<NodeIndex, usize>,
    /// Each exclusion group's tasks, done or not, in index order: fixed
    /// between rebuilds, since only another kind of write changes a value.
    pub(in crate::network) members: hashbrown::HashMap<Group, Vec<NodeIndex>>,
    /// Each exclusion group's tasks not done that name a worker (lease live or
    /// run out): the ones that may hold the group. Usually one or none.
    pub(in crate::network) named: hashbrown::HashMap<Group, Vec<NodeIndex>>,
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
