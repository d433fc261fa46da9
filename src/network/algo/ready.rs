//! Ready nodes: what can be worked on next, given what is done.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;

use petgraph::visit::{EdgeRef, NodeIndexable};

use super::following::Following;
use super::options::{TaskOrder, TaskSelection, priority_rank};
use crate::network::graph::{Direction, Network, RelationFilter};

/// A node that is not done and waits on some prerequisites.
#[derive(Debug, Clone, PartialEq)]
pub struct Blocked {
    /// The blocked node.
    pub node: NodeIndex,
    /// Its prerequisites that are not done, sorted by index, without duplicates
    /// (the node itself if it has a self-loop).
    pub waiting_on: Vec<NodeIndex>,
}

/// The result of [`Network::ready_nodes`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReadyNodes {
    /// At most `limit` ready nodes, sorted by index.
    pub ready: Vec<NodeIndex>,
    /// The number of ready nodes.
    pub ready_total: usize,
    /// At most `blocked_limit` blocked nodes, sorted by index.
    pub blocked: Vec<Blocked>,
    /// The number of blocked nodes (not done, not ready).
    pub blocked_total: usize,
    /// The number of nodes marked done.
    pub done_total: usize,
}

impl Network {
    /// The nodes that are not done and whose prerequisites are all done, given the
    /// ids of the nodes that are done.
    ///
    /// `prerequisites` says which neighbors a node needs first:
    /// [`Direction::Out`] for a depends-on graph (`A → B`: A needs B),
    /// [`Direction::In`] for a precedence graph (`A → B`: A comes before B),
    /// [`Direction::Both`] for the union of the two. A self-loop makes a node its own
    /// prerequisite, so a self-looped node that is not done is blocked by itself.
    /// Unknown ids in `done` are an error that names all of them
    /// ([`Network::require_all`]).
    ///
    /// Algorithm: one scan over the nodes and their prerequisite edges.
    /// Complexity: O(V + E + |done|) time; O(k log k) more per reported blocked node
    /// with `k` prerequisites.
    ///
    /// Order: `ready` (at most `limit`) and `blocked` (at most `blocked_limit`) hold
    /// the first nodes by index (insertion order); the totals count all.
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    ///
    /// // "app" depends on "lib" and "log"; "lib" depends on "log".
    /// let mut net = Network::new();
    /// net.add_nodes(["app", "lib", "log"])?;
    /// net.add_edge("app", "lib", 1.0)?;
    /// net.add_edge("app", "log", 1.0)?;
    /// net.add_edge("lib", "log", 1.0)?;
    ///
    /// let r = net.ready_nodes(&[], Direction::Out, 10, 10)?;
    /// assert_eq!(net.ids(&r.ready), ["log"]);
    /// assert_eq!(r.blocked_total, 2);
    /// assert_eq!(net.ids(&r.blocked[0].waiting_on), ["lib", "log"]);
    ///
    /// let r = net.ready_nodes(&["log"], Direction::Out, 10, 10)?;
    /// assert_eq!(net.ids(&r.ready), ["lib"]);
    /// assert_eq!((r.ready_total, r.blocked_total, r.done_total), (1, 1, 1));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn ready_nodes(
        &self,
        done: &[&str],
        prerequisites: Direction,
        limit: usize,
        blocked_limit: usize,
    ) -> crate::error::Result<ReadyNodes> {
        self.following(&RelationFilter::all()).ready_nodes(
            done,
            prerequisites,
            limit,
            blocked_limit,
        )
    }

    /// [`Network::ready_nodes`] with done-ness as a mask over node indices:
    /// `done[i]` tells whether the node with [`NodeIndex::index`] `i` is done; its
    /// length should be `graph().node_bound()` (indices past the end count as not
    /// done, entries at vacant indices are ignored). For programs that keep
    /// done-ness by index, and for the MCP layer, which reads it from attributes too.
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    /// use petgraph::visit::{EdgeRef, NodeIndexable};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["app", "log"])?;
    /// net.add_edge("app", "log", 1.0)?;
    /// let mut done = vec![false; net.graph().node_bound()];
    /// done[net.index_of("log").unwrap().index()] = true;
    /// let r = net.ready_nodes_by_index(&done, Direction::Out, 10, 10);
    /// assert_eq!(net.ids(&r.ready), ["app"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn ready_nodes_by_index(
        &self,
        done: &[bool],
        prerequisites: Direction,
        limit: usize,
        blocked_limit: usize,
    ) -> ReadyNodes {
        self.ready_nodes_following(
            done,
            prerequisites,
            limit,
            blocked_limit,
            RelationFilter::every_edge(),
            None,
        )
    }

    /// Each node named as a parent by the attribute `parent_attribute`, with
    /// its children that are not done, in index order: a parent (an epic) waits
    /// on its children, as in the work tools ([`crate::network::work`]). O(V).
    fn unfinished_children(
        &self,
        done: &[bool],
        parent_attribute: &str,
    ) -> hashbrown::HashMap<NodeIndex, Vec<NodeIndex>> {
        let mut children: hashbrown::HashMap<NodeIndex, Vec<NodeIndex>> = hashbrown::HashMap::new();
        for v in self.graph().node_indices() {
            crate::budget::charge(1);
            if done.get(v.index()).copied().unwrap_or(false) {
                continue;
            }
            if let Some(parent) = self.parent_named(v, parent_attribute) {
                children.entry(parent).or_default().push(v);
            }
        }
        children
    }

    fn ready_nodes_following(
        &self,
        done: &[bool],
        prerequisites: Direction,
        limit: usize,
        blocked_limit: usize,
        filter: &RelationFilter,
        children: Option<&hashbrown::HashMap<NodeIndex, Vec<NodeIndex>>>,
    ) -> ReadyNodes {
        let unfinished_children = |v: NodeIndex| {
            children
                .and_then(|c| c.get(&v))
                .map(Vec::as_slice)
                .unwrap_or_default()
        };
        let g = self.graph();
        let prerequisites_of = |v: NodeIndex, d: petgraph::Direction| {
            g.edges_directed(v, d)
                .filter(|e| filter.keeps(e.weight()))
                .map(move |e| {
                    if e.source() == v {
                        e.target()
                    } else {
                        e.source()
                    }
                })
        };
        let directions: &[petgraph::Direction] = match prerequisites {
            Direction::Out => &[Outgoing],
            Direction::In => &[Incoming],
            Direction::Both => &[Outgoing, Incoming],
        };
        let is_done = |v: NodeIndex| done.get(v.index()).copied().unwrap_or(false);

        let mut result = ReadyNodes {
            ready: Vec::new(),
            ready_total: 0,
            blocked: Vec::new(),
            blocked_total: 0,
            done_total: 0,
        };
        for v in g.node_indices() {
            crate::budget::charge(1);
            if is_done(v) {
                result.done_total += 1;
                continue;
            }
            let waits = !unfinished_children(v).is_empty()
                || directions
                    .iter()
                    .any(|&d| prerequisites_of(v, d).any(|w| !is_done(w)));
            if !waits {
                result.ready_total += 1;
                if result.ready.len() < limit {
                    result.ready.push(v);
                }
                continue;
            }
            result.blocked_total += 1;
            if result.blocked.len() < blocked_limit {
                let mut waiting_on: Vec<NodeIndex> = directions
                    .iter()
                    .flat_map(|&d| prerequisites_of(v, d))
                    .filter(|&w| !is_done(w))
                    .chain(unfinished_children(v).iter().copied())
                    .collect();
                waiting_on.sort_unstable();
                waiting_on.dedup();
                result.blocked.push(Blocked {
                    node: v,
                    waiting_on,
                });
            }
        }
        result
    }
}

impl Network {
    /// Keeps the nodes of `ready` that `selection`'s filter admits and sorts
    /// them in its order, with done-ness as in
    /// [`Network::ready_nodes_by_index`]: what a worker with this selection
    /// may take, first what it should take first (see [`TaskOrder`]; impact
    /// counts the distinct direct dependents not done). `ready` is expected
    /// sorted by index, as [`ReadyNodes::ready`] is. O(R log R + the edges
    /// around the R nodes).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network, NodeSpec, TaskOrder, TaskSelection};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("docs"),
    ///     NodeSpec::new("fix").with_attribute("priority", 1),
    /// ])?;
    /// let r = net.ready_nodes(&[], Direction::Out, usize::MAX, 0)?;
    /// let mut ready = r.ready;
    /// let by_priority = TaskSelection { order: TaskOrder::Priority("priority".into()), ..Default::default() };
    /// net.select_ready(&mut ready, &[], Direction::Out, &by_priority);
    /// assert_eq!(net.ids(&ready), ["fix", "docs"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn select_ready(
        &self,
        ready: &mut Vec<NodeIndex>,
        done: &[bool],
        prerequisites: Direction,
        selection: &TaskSelection,
    ) {
        self.select_ready_following(
            ready,
            done,
            prerequisites,
            selection,
            RelationFilter::every_edge(),
        );
    }

    fn select_ready_following(
        &self,
        ready: &mut Vec<NodeIndex>,
        done: &[bool],
        prerequisites: Direction,
        selection: &TaskSelection,
        filter: &RelationFilter,
    ) {
        let g = self.graph();
        if !selection.filter.is_everything() {
            ready.retain(|&v| selection.filter.admits(&g[v].attributes));
        }
        let priority = match &selection.order {
            TaskOrder::Insertion => return,
            TaskOrder::Impact => None,
            TaskOrder::Priority(attribute) => Some(attribute.as_str()),
        };
        let needed_by: &[petgraph::Direction] = match prerequisites {
            Direction::Out => &[Incoming],
            Direction::In => &[Outgoing],
            Direction::Both => &[Outgoing, Incoming],
        };
        let is_done = |v: NodeIndex| done.get(v.index()).copied().unwrap_or(false);
        let mut dependents = Vec::new();
        let mut keyed: Vec<(u64, u64, NodeIndex)> = ready
            .iter()
            .map(|&v| {
                crate::budget::charge(1);
                dependents.clear();
                for &d in needed_by {
                    dependents.extend(
                        g.edges_directed(v, d)
                            .filter(|e| filter.keeps(e.weight()))
                            .map(|e| {
                                if e.source() == v {
                                    e.target()
                                } else {
                                    e.source()
                                }
                            })
                            .filter(|&w| w != v && !is_done(w)),
                    );
                }
                dependents.sort_unstable();
                dependents.dedup();
                (
                    priority_rank(&g[v].attributes, priority),
                    u64::MAX - dependents.len() as u64,
                    v,
                )
            })
            .collect();
        keyed.sort_unstable();
        ready.clear();
        ready.extend(keyed.into_iter().map(|(_, _, v)| v));
    }
}

impl Following<'_> {
    /// [`Network::select_ready`] along the edges the filter keeps.
    pub fn select_ready(
        &self,
        ready: &mut Vec<NodeIndex>,
        done: &[bool],
        prerequisites: Direction,
        selection: &TaskSelection,
    ) {
        self.net
            .select_ready_following(ready, done, prerequisites, selection, self.filter);
    }

    /// [`Network::ready_nodes`] along the edges the filter keeps: only kept
    /// edges make prerequisites.
    pub fn ready_nodes(
        &self,
        done: &[&str],
        prerequisites: Direction,
        limit: usize,
        blocked_limit: usize,
    ) -> crate::error::Result<ReadyNodes> {
        let mut mask = vec![false; self.net.graph().node_bound()];
        for ix in self.net.require_all("done", done.iter().copied())? {
            mask[ix.index()] = true;
        }
        Ok(self.ready_nodes_by_index(&mask, prerequisites, limit, blocked_limit))
    }

    /// [`Network::ready_nodes_by_index`] along the edges the filter keeps.
    pub fn ready_nodes_by_index(
        &self,
        done: &[bool],
        prerequisites: Direction,
        limit: usize,
        blocked_limit: usize,
    ) -> ReadyNodes {
        self.net
            .ready_nodes_following(done, prerequisites, limit, blocked_limit, self.filter, None)
    }

    /// [`Following::ready_nodes_by_index`] where a parent also waits on its
    /// children: every node whose attribute `parent_attribute` names it (by id,
    /// or a number by its JSON text) and that is not done is one more
    /// prerequisite of it, listed in its `waiting_on` after its edges'. This is
    /// the rule of the work tools ([`crate::network::work`]), so that what is
    /// ready here is what a worker may claim (claims aside). O(V + E).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network, NodeSpec, RelationFilter};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("epic"),
    ///     NodeSpec::new("task").with_attribute("parent", "epic"),
    /// ])?;
    /// let done = vec![false; 2];
    /// let every_edge = RelationFilter::all();
    /// let following = net.following(&every_edge);
    /// let r = following.ready_tasks_by_index(&done, Direction::Out, 10, 10, "parent");
    /// assert_eq!(net.ids(&r.ready), ["task"]);
    /// assert_eq!(net.ids(&r.blocked[0].waiting_on), ["task"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn ready_tasks_by_index(
        &self,
        done: &[bool],
        prerequisites: Direction,
        limit: usize,
        blocked_limit: usize,
        parent_attribute: &str,
    ) -> ReadyNodes {
        let children = self.net.unfinished_children(done, parent_attribute);
        self.net.ready_nodes_following(
            done,
            prerequisites,
            limit,
            blocked_limit,
            self.filter,
            Some(&children),
        )
    }
}
