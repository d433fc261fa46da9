//! Epics and their subtasks: the forest a node attribute draws by naming each
//! task's parent, the roll-up of task states over each epic's descendants, and
//! the network seen at the level of its epics.
//!
//! A task names its parent (its epic) by node id in one attribute
//! ([`WorkAttributes::parent`], `"parent"` by default), as imported plans set it
//! (subtasks, subgraphs, parent-child links). The rules:
//!
//! * the value is a string naming a node, or a number naming the node whose id
//!   is that number as JSON writes it (`3` names `"3"`, `2.5` names `"2.5"`);
//!   a value that names no node, and any other value, gives no parent;
//! * a node is never its own ancestor: a chain of parents that comes back to
//!   where it started is a loop, and every node on a loop (a node naming itself
//!   included) counts as having no parent, a root ([`Hierarchy::looped`] lists
//!   them). Nodes whose chain leads into a loop keep their parent;
//! * the children of a node are the nodes whose parent it is, in index
//!   (insertion) order; an **epic** is a node with at least one child, a
//!   **top-level** node one without a parent.
//!
//! Every walk here is iterative: the depth of a chain of parents is whatever the
//! input says, so nothing recurses on it.
//!
//! [`WorkAttributes::parent`]: super::work::WorkAttributes::parent

use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};
use serde_json::Value;

use super::critical::CriticalPath;
use super::following::Following;
use super::work::{TaskState, WorkAttributes, WorkProgress};
use crate::error::Result;
use crate::network::graph::{Attributes, EdgeId, Network, RelationFilter, validate};

/// The parent forest of a network: who is whose parent, children, roots, loops,
/// and an order with every parent before its children.
#[derive(Debug, Clone, PartialEq)]
pub struct Hierarchy {
    /// Each node's parent, by index (`None` for roots and vacant indices).
    parent: Vec<Option<NodeIndex>>,
    /// `children[start[v]..start[v + 1]]` are the children of `v`.
    start: Vec<usize>,
    children: Vec<NodeIndex>,
    /// Every node once, each parent before its children: the roots in index
    /// order, then breadth-first.
    order: Vec<NodeIndex>,
    /// The number of roots, the first entries of `order`.
    root_count: usize,
    /// Each node's top-level ancestor (itself for a root), by index.
    top: Vec<NodeIndex>,
    /// The nodes on a loop of parents, by index.
    looped: Vec<NodeIndex>,
}

impl Hierarchy {
    /// The parent of `ix`: `None` for a top-level node (and for an index that
    /// holds no node).
    pub fn parent(&self, ix: NodeIndex) -> Option<NodeIndex> {
        self.parent.get(ix.index()).copied().flatten()
    }

    /// The children of `ix`, in index order (empty for an index that holds no
    /// node).
    pub fn children(&self, ix: NodeIndex) -> &[NodeIndex] {
        let i = ix.index();
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&from), Some(&to)) => &self.children[from..to],
            _ => &[],
        }
    }

    /// The top-level nodes (without a parent), in index order.
    pub fn roots(&self) -> &[NodeIndex] {
        &self.order[..self.root_count]
    }

    /// The top-level epics: the top-level nodes that have children, in index
    /// order.
    pub fn top_epics(&self) -> Vec<NodeIndex> {
        self.roots()
            .iter()
            .copied()
            .filter(|&r| !self.children(r).is_empty())
            .collect()
    }

    /// The top-level ancestor of `ix`: the root of its chain of parents
    /// (itself when it has no parent).
    pub fn top(&self, ix: NodeIndex) -> NodeIndex {
        self.top.get(ix.index()).copied().unwrap_or(ix)
    }

    /// The nodes on a loop of parents, in index order: each counts as a root.
    pub fn looped(&self) -> &[NodeIndex] {
        &self.looped
    }

    /// Every node once, each parent before its children (the roots in index
    /// order, then breadth-first, children in index order).
    pub fn order(&self) -> &[NodeIndex] {
        &self.order
    }

    /// The descendants of `ix` (not `ix` itself), breadth-first, children in
    /// index order. O(their number).
    pub fn descendants(&self, ix: NodeIndex) -> Vec<NodeIndex> {
        let mut out: Vec<NodeIndex> = self.children(ix).to_vec();
        let mut head = 0;
        while let Some(&v) = out.get(head) {
            head += 1;
            crate::budget::charge(1);
            out.extend_from_slice(self.children(v));
        }
        out
    }
}

/// How many tasks are in each state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StateCounts {
    /// Tasks done.
    pub done: usize,
    /// Tasks held under a lease that has not run out.
    pub claimed: usize,
    /// Tasks that can be claimed now.
    pub ready: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked: usize,
    /// Tasks that would be ready but for a claimed task of their exclusion group.
    pub excluded: usize,
}

impl StateCounts {
    /// The tasks counted, in every state.
    pub fn total(&self) -> usize {
        self.done + self.claimed + self.ready + self.blocked + self.excluded
    }

    /// Counts one more task in `state`.
    pub fn add(&mut self, state: TaskState) {
        match state {
            TaskState::Done => self.done += 1,
            TaskState::Claimed => self.claimed += 1,
            TaskState::Ready => self.ready += 1,
            TaskState::Blocked => self.blocked += 1,
            TaskState::Excluded => self.excluded += 1,
        }
    }

    fn merge(&mut self, other: &StateCounts) {
        self.done += other.done;
        self.claimed += other.claimed;
        self.ready += other.ready;
        self.blocked += other.blocked;
        self.excluded += other.excluded;
    }
}

/// Each task's state with the counts of its descendants' states, from
/// [`Network::epic_rollup`].
#[derive(Debug, Clone, PartialEq)]
pub struct EpicRollup {
    hierarchy: Hierarchy,
    /// Each node's state, by index (vacant indices: `Blocked`, never read).
    states: Vec<TaskState>,
    /// The counts of each node's descendants, by index.
    below: Vec<StateCounts>,
}

impl EpicRollup {
    /// The parent forest the roll-up was made on.
    pub fn hierarchy(&self) -> &Hierarchy {
        &self.hierarchy
    }

    /// The state of task `ix` itself.
    pub fn state(&self, ix: NodeIndex) -> TaskState {
        self.states
            .get(ix.index())
            .copied()
            .unwrap_or(TaskState::Blocked)
    }

    /// The states of the descendants of `ix` (children, their children, …;
    /// not `ix` itself), counted.
    pub fn descendants(&self, ix: NodeIndex) -> StateCounts {
        self.below.get(ix.index()).copied().unwrap_or_default()
    }

    /// [`Network::work_progress`] from the states of this roll-up, over the
    /// descendants of `epic`, or over the whole network when `epic` is `None`:
    /// the counts, the claims on tasks not done (by index) and how many of
    /// those ran out. O(descendants), or O(V) for the whole network.
    pub fn progress_under(
        &self,
        net: &Network,
        spec: &WorkAttributes,
        epic: Option<NodeIndex>,
    ) -> WorkProgress {
        let (counts, tasks) = match epic {
            Some(epic) => (self.descendants(epic), self.hierarchy.descendants(epic)),
            None => {
                let mut counts = StateCounts::default();
                let tasks: Vec<NodeIndex> = net.graph().node_indices().collect();
                for &ix in &tasks {
                    counts.add(self.state(ix));
                }
                (counts, tasks)
            }
        };
        let mut claims: Vec<NodeIndex> = tasks
            .into_iter()
            .filter(|&ix| self.state(ix) != TaskState::Done && net.claim_on(ix, spec).is_some())
            .collect();
        claims.sort_unstable();
        let expired = claims
            .iter()
            .filter(|&&ix| self.state(ix) != TaskState::Claimed)
            .count();
        WorkProgress {
            done: counts.done,
            claimed: counts.claimed,
            ready: counts.ready,
            blocked: counts.blocked,
            excluded: counts.excluded,
            expired,
            claims,
        }
    }
}

impl TaskState {
    /// The state's name: `"done"`, `"claimed"`, `"ready"`, `"blocked"` or
    /// `"excluded"`.
    pub fn name(self) -> &'static str {
        match self {
            TaskState::Done => "done",
            TaskState::Claimed => "claimed",
            TaskState::Ready => "ready",
            TaskState::Blocked => "blocked",
            TaskState::Excluded => "excluded",
        }
    }
}

/// A network seen at the level of its epics, from [`Network::by_epic`]: every
/// node replaced by its top-level ancestor.
#[derive(Debug, Clone)]
pub struct EpicGraph {
    /// One node per top-level node of the original, with its id, in the
    /// original's index order; one edge for each ordered pair of different
    /// top-level nodes that an edge of the original joins (between their
    /// descendants or themselves), under the id of the heaviest such edge
    /// (ties: the lowest id) and with its weight: the greatest. Edges inside one
    /// top-level node's tree are dropped. No attributes, no data.
    pub network: Network,
    /// The nodes of the original on a loop of parents, in index order: each
    /// counts as top-level.
    pub looped: Vec<NodeIndex>,
}

impl Network {
    /// The parent named by the attribute `attribute` of node `ix`, if it names
    /// a node (see the [module documentation](self)).
    pub(in crate::network) fn parent_named(
        &self,
        ix: NodeIndex,
        attribute: &str,
    ) -> Option<NodeIndex> {
        match self.graph().node_weight(ix)?.attributes.get(attribute)? {
            Value::String(id) => self.index_of(id),
            Value::Number(n) => self.index_of(&n.to_string()),
            _ => None,
        }
    }

    /// The parent forest drawn by the node attribute `parent_attribute` (see
    /// the [module documentation](self) for the rules, loops included).
    ///
    /// Algorithm: one pass reads each node's parent; one pass walks up the
    /// chains of parents, marking each node once, and finds the loops where a
    /// walk meets itself; the children are gathered by counting sort, then a
    /// breadth-first pass from the roots gives the order and each node's
    /// top-level ancestor. O(V) time and space, iterative throughout.
    ///
    /// # Errors
    /// [`Error::InvalidId`](crate::Error::InvalidId) (field
    /// `parent_attribute`) when the name breaks the id rules.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("release"),
    ///     NodeSpec::new("api").with_attribute("parent", "release"),
    ///     NodeSpec::new("schema").with_attribute("parent", "api"),
    ///     NodeSpec::new("ghost").with_attribute("parent", "nowhere"),
    ///     NodeSpec::new("a").with_attribute("parent", "b"),
    ///     NodeSpec::new("b").with_attribute("parent", "a"),
    /// ])?;
    /// let tree = net.hierarchy("parent")?;
    /// let ix = |id| net.index_of(id).unwrap();
    /// assert_eq!(net.ids(tree.children(ix("release"))), ["api"]);
    /// assert_eq!(net.id_at(tree.top(ix("schema"))), "release");
    /// // A parent that names no node is none; a loop makes its nodes roots.
    /// assert_eq!(net.ids(tree.roots()), ["release", "ghost", "a", "b"]);
    /// assert_eq!(net.ids(tree.looped()), ["a", "b"]);
    /// assert_eq!(net.ids(&tree.top_epics()), ["release"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn hierarchy(&self, parent_attribute: &str) -> Result<Hierarchy> {
        validate::id("parent_attribute", parent_attribute)?;
        let g = self.graph();
        let bound = g.node_bound();
        let mut named: Vec<Option<NodeIndex>> = vec![None; bound];
        for v in g.node_indices() {
            crate::budget::charge(1);
            named[v.index()] = self.parent_named(v, parent_attribute);
        }

        // Walk up from each node not yet seen until a node seen before (or no
        // parent): a node met again on the same walk closes a loop.
        const UNSEEN: u8 = 0;
        const ON_WALK: u8 = 1;
        const SEEN: u8 = 2;
        let mut mark = vec![UNSEEN; bound];
        let mut on_loop = vec![false; bound];
        let mut looped = Vec::new();
        let mut walk: Vec<NodeIndex> = Vec::new();
        for s in g.node_indices() {
            if mark[s.index()] != UNSEEN {
                continue;
            }
            walk.clear();
            let mut next = Some(s);
            while let Some(v) = next {
                if mark[v.index()] != UNSEEN {
                    break;
                }
                crate::budget::charge(1);
                mark[v.index()] = ON_WALK;
                walk.push(v);
                next = named[v.index()];
            }
            if let Some(v) = next
                && mark[v.index()] == ON_WALK
                && let Some(from) = walk.iter().rposition(|&w| w == v)
            {
                for &w in &walk[from..] {
                    on_loop[w.index()] = true;
                    looped.push(w);
                }
            }
            for &w in &walk {
                mark[w.index()] = SEEN;
            }
        }
        looped.sort_unstable();
        let parent: Vec<Option<NodeIndex>> = named
            .into_iter()
            .enumerate()
            .map(|(i, p)| if on_loop[i] { None } else { p })
            .collect();

        // Children by counting sort: in index order within each parent.
        let mut start = vec![0usize; bound + 1];
        for p in parent.iter().flatten() {
            start[p.index() + 1] += 1;
        }
        for i in 0..bound {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut children = vec![NodeIndex::end(); start[bound]];
        for v in g.node_indices() {
            if let Some(p) = parent[v.index()] {
                children[fill[p.index()]] = v;
                fill[p.index()] += 1;
            }
        }

        let mut order: Vec<NodeIndex> = g
            .node_indices()
            .filter(|v| parent[v.index()].is_none())
            .collect();
        let root_count = order.len();
        let mut top: Vec<NodeIndex> = (0..bound).map(NodeIndex::new).collect();
        let mut head = 0;
        while let Some(&v) = order.get(head) {
            head += 1;
            crate::budget::charge(1);
            let (from, to) = (start[v.index()], start[v.index() + 1]);
            for &c in &children[from..to] {
                top[c.index()] = top[v.index()];
                order.push(c);
            }
        }
        Ok(Hierarchy {
            parent,
            start,
            children,
            order,
            root_count,
            top,
            looped,
        })
    }

    /// Each task's state at time `now` (as [`Network::task_state`] computes it)
    /// and, for each node, the counts of its descendants' states, by the parent
    /// attribute [`WorkAttributes::parent`].
    ///
    /// Algorithm: one pass computes the states, then one pass over
    /// [`Hierarchy::order`] backwards adds each node's counts and its own state
    /// to its parent's: children before parents, so each count is final when
    /// it is added. O(V + E) time, O(V) space.
    ///
    /// # Errors
    /// [`Error::InvalidValue`](crate::Error::InvalidValue) or
    /// [`Error::InvalidId`](crate::Error::InvalidId) when `spec` is invalid
    /// ([`WorkAttributes::validate`], and the parent attribute's name).
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec, work::WorkAttributes};
    ///
    /// // "launch" is an epic of two tasks; "docs" needs "api" first.
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("launch"),
    ///     NodeSpec::new("api").with_attribute("parent", "launch").with_attribute("status", "done"),
    ///     NodeSpec::new("docs").with_attribute("parent", "launch"),
    ///     NodeSpec::new("ui").with_attribute("parent", "launch"),
    /// ])?;
    /// net.add_edge("ui", "docs", 1.0)?;
    /// let rollup = net.epic_rollup(&WorkAttributes::default(), 0)?;
    /// let counts = rollup.descendants(net.index_of("launch").unwrap());
    /// assert_eq!((counts.done, counts.ready, counts.blocked), (1, 1, 1));
    /// assert_eq!(counts.total(), 3);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn epic_rollup(&self, spec: &WorkAttributes, now: u64) -> Result<EpicRollup> {
        spec.validate()?;
        let hierarchy = self.hierarchy(&spec.parent)?;
        let bound = self.graph().node_bound();
        let mut states = vec![TaskState::Blocked; bound];
        // One index of parents and groups for all the states: built per task,
        // as `task_state` does, it would make this pass quadratic.
        let index = self.plan_index_shared(spec)?;
        for v in self.graph().node_indices() {
            crate::budget::charge(1);
            states[v.index()] = self.task_state_in(&index, v, spec, now);
        }
        let mut below = vec![StateCounts::default(); bound];
        for &v in hierarchy.order().iter().rev() {
            if let Some(p) = hierarchy.parent(v) {
                let mut counts = below[v.index()];
                counts.add(states[v.index()]);
                below[p.index()].merge(&counts);
            }
        }
        Ok(EpicRollup {
            hierarchy,
            states,
            below,
        })
    }

    /// [`Network::remaining_critical_path`] among the descendants of `epic` in
    /// `hierarchy`: the longest path by weight through those not done (edges
    /// count when both ends are such tasks, and a parent waits on its
    /// children among them). `None` if they hold a cycle. O(V + E).
    pub fn remaining_critical_path_under(
        &self,
        spec: &WorkAttributes,
        hierarchy: &Hierarchy,
        epic: NodeIndex,
    ) -> Result<Option<CriticalPath>> {
        spec.validate()?;
        let mut under = vec![false; self.graph().node_bound()];
        for v in hierarchy.descendants(epic) {
            under[v.index()] = true;
        }
        let keep = |ix: NodeIndex| under[ix.index()] && !self.is_done(ix, spec);
        let index = self.plan_index_shared(spec)?;
        let links = self.parent_links(&index, spec, &keep);
        self.longest_path_linked(&keep, &spec.relations, &links)
            .transpose()
    }

    /// This network at the level of its epics by the parent attribute
    /// `parent_attribute`, following every edge: see [`Following::by_epic`].
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec, Order};
    ///
    /// // Two epics; "ui" (in "web") needs "api" (in "backend").
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("backend"),
    ///     NodeSpec::new("web"),
    ///     NodeSpec::new("api").with_attribute("parent", "backend"),
    ///     NodeSpec::new("db").with_attribute("parent", "backend"),
    ///     NodeSpec::new("ui").with_attribute("parent", "web"),
    /// ])?;
    /// net.add_edge("api", "db", 1.0)?; // inside "backend": dropped
    /// net.add_edge("ui", "api", 3.0)?;
    /// net.add_edge("ui", "db", 2.0)?; // merged with the heavier edge
    /// let epics = net.by_epic("parent")?;
    /// assert_eq!(epics.network.node_ids().collect::<Vec<_>>(), ["backend", "web"]);
    /// assert_eq!(epics.network.edge_count(), 1);
    /// let path = epics.network.critical_path()?;
    /// assert_eq!(epics.network.ids(&path.nodes), ["web", "backend"]);
    /// assert_eq!((path.edges[0], path.total_weight), (1, 3.0));
    /// let order = epics.network.topological_sort(Order::Reverse)?;
    /// assert_eq!(epics.network.ids(&order.order), ["backend", "web"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn by_epic(&self, parent_attribute: &str) -> Result<EpicGraph> {
        self.following(RelationFilter::every_edge())
            .by_epic(parent_attribute)
    }
}

impl Following<'_> {
    /// The network at the level of its epics: each node replaced by its
    /// top-level ancestor by `parent_attribute` (see [`Network::hierarchy`]),
    /// the edges the filter keeps between different top-level nodes kept,
    /// parallel ones merged into one with the greatest weight (the heaviest
    /// edge's id; ties: the lowest id), and those inside one top-level node's
    /// tree dropped (see [`EpicGraph`]). Every algorithm of [`Network`] then
    /// answers at that level; a cycle there names top-level nodes.
    ///
    /// Complexity: O(V + E) time, O(V + E') space for E' merged edges.
    ///
    /// # Errors
    /// [`Error::InvalidId`](crate::Error::InvalidId) (field
    /// `parent_attribute`) when the name breaks the id rules.
    pub fn by_epic(&self, parent_attribute: &str) -> Result<EpicGraph> {
        let net = self.net;
        let g = net.graph();
        let hierarchy = net.hierarchy(parent_attribute)?;
        let roots = hierarchy.roots();
        let mut slot = vec![u32::MAX; g.node_bound()];
        for (k, &r) in roots.iter().enumerate() {
            slot[r.index()] = k as u32;
        }
        // (source slot, target slot) → (weight, edge id) of the heaviest edge.
        let mut merged: hashbrown::HashMap<(u32, u32), (f64, EdgeId)> = hashbrown::HashMap::new();
        for e in g.edge_references() {
            crate::budget::charge(1);
            let edge = e.weight();
            if !self.filter.keeps(edge) {
                continue;
            }
            let a = slot[hierarchy.top(e.source()).index()];
            let b = slot[hierarchy.top(e.target()).index()];
            if a == b {
                continue;
            }
            merged
                .entry((a, b))
                .and_modify(|(weight, id)| {
                    if edge.weight > *weight || (edge.weight == *weight && edge.id < *id) {
                        *weight = edge.weight;
                        *id = edge.id;
                    }
                })
                .or_insert((edge.weight, edge.id));
        }
        let mut edges: Vec<(EdgeId, u32, u32, f64)> = merged
            .into_iter()
            .map(|((a, b), (weight, id))| (id, a, b, weight))
            .collect();
        edges.sort_unstable_by_key(|&(id, ..)| id);

        let mut epics = Network::with_capacity(roots.len(), edges.len());
        epics.set_name(net.name());
        for &r in roots {
            crate::budget::charge(1);
            epics.insert_node_unchecked(net.id_at(r), None, Attributes::default());
        }
        for (id, a, b, weight) in edges {
            crate::budget::charge(1);
            epics.insert_edge_as(
                id,
                NodeIndex::new(a as usize),
                NodeIndex::new(b as usize),
                weight,
                Attributes::default(),
            );
        }
        epics.set_next_edge_id(net.next_edge_id());
        epics.forget_history();
        Ok(EpicGraph {
            network: epics,
            looped: hierarchy.looped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NodeSpec;

    fn plan(items: &[(&str, Option<&str>)]) -> Network {
        let mut net = Network::new();
        net.add_nodes(items.iter().map(|&(id, parent)| {
            let spec = NodeSpec::new(id);
            match parent {
                Some(p) => spec.with_attribute("parent", p),
                None => spec,
            }
        }))
        .unwrap();
        net
    }

    #[test]
    fn a_long_chain_of_parents_needs_no_stack() {
        let n = 200_000;
        let ids: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
        let mut net = Network::new();
        net.add_nodes((0..n).map(|i| {
            let spec = NodeSpec::new(ids[i].as_str());
            if i == 0 {
                spec
            } else {
                spec.with_attribute("parent", ids[i - 1].as_str())
            }
        }))
        .unwrap();
        let rollup = net.epic_rollup(&WorkAttributes::default(), 0).unwrap();
        let root = net.index_of("t0").unwrap();
        assert_eq!(rollup.descendants(root).total(), n - 1);
        assert_eq!(
            rollup.hierarchy().top(net.index_of("t199999").unwrap()),
            root
        );
        // And as one long loop: every node is a root.
        let mut loop_back = serde_json::Map::new();
        loop_back.insert("parent".into(), "t199999".into());
        net.update_node(
            "t0",
            None,
            Some(loop_back),
            crate::network::AttributeUpdate::Merge,
            &[],
        )
        .unwrap();
        let tree = net.hierarchy("parent").unwrap();
        assert_eq!(tree.looped().len(), n);
        assert_eq!(tree.roots().len(), n);
    }

    #[test]
    fn loops_self_parents_and_numbers() {
        let mut net = plan(&[
            ("a", Some("a")),
            ("b", Some("c")),
            ("c", Some("d")),
            ("d", Some("b")),
            ("e", Some("c")),
            ("f", None),
        ]);
        net.add_node_with(NodeSpec::new("7")).unwrap();
        net.add_node_with(NodeSpec::new("g").with_attribute("parent", 7))
            .unwrap();
        net.add_node_with(NodeSpec::new("h").with_attribute("parent", true))
            .unwrap();
        let tree = net.hierarchy("parent").unwrap();
        assert_eq!(net.ids(tree.looped()), ["a", "b", "c", "d"]);
        let ix = |id| net.index_of(id).unwrap();
        assert_eq!(tree.parent(ix("e")), Some(ix("c")));
        assert_eq!(tree.parent(ix("g")), Some(ix("7")));
        assert_eq!(tree.parent(ix("h")), None);
        assert_eq!(net.ids(&tree.top_epics()), ["c", "7"]);
        assert_eq!(tree.order().len(), net.node_count());
    }

    #[test]
    fn epic_level_filters_before_contracting() {
        use crate::network::EdgeSpec;
        let mut net = plan(&[
            ("x", None),
            ("y", None),
            ("x1", Some("x")),
            ("y1", Some("y")),
        ]);
        net.add_edge_with(EdgeSpec::new("x1", "y1").with_attribute("relation", "related"))
            .unwrap();
        net.add_edge("y1", "x1", 2.0).unwrap();
        assert!(
            net.by_epic("parent")
                .unwrap()
                .network
                .topological_sort(crate::network::Order::Forward)
                .is_err()
        );
        let blocking = RelationFilter::except(["related"]);
        let epics = net.following(&blocking).by_epic("parent").unwrap();
        assert_eq!(epics.network.edge_count(), 1);
        let cycle = net
            .by_epic("parent")
            .unwrap()
            .network
            .critical_path()
            .unwrap_err();
        assert_eq!(cycle.code(), "cycle_detected");
        assert_eq!(net.hierarchy("").unwrap_err().code(), "invalid_id");
    }
}
