//! Why a task is not ready: every unfinished prerequisite it waits on, directly
//! or through others, nearest first, and for each the next step of the shortest
//! chain from it up to the task. Following the steps from a prerequisite that is
//! ready itself gives the chain of work that must happen, in order, before the
//! task can start.

use std::collections::VecDeque;

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, NodeIndexable};

use crate::network::algo::following::Following;
use crate::network::graph::{Direction, Network, RelationFilter};

/// One unfinished prerequisite of the task asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocker {
    /// The prerequisite.
    pub node: NodeIndex,
    /// How many prerequisite edges separate it from the task (1: a direct one).
    pub depth: usize,
    /// The node it is a prerequisite of on a shortest chain up to the task (the
    /// task itself at depth 1).
    pub unblocks: NodeIndex,
    /// Whether it can start now: every prerequisite of its own is done.
    pub ready: bool,
}

/// The answer of [`Network::blockers`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blockers {
    /// The unfinished prerequisites, nearest first (ties in discovery order: a
    /// node's prerequisites are met in the order the nodes were inserted).
    pub blockers: Vec<Blocker>,
    /// How many of them are ready now.
    pub ready_count: usize,
}

impl Network {
    /// Why `task` is not ready: its unfinished prerequisites, transitively,
    /// nearest first. `prerequisites` reads the edges as in
    /// [`Network::ready_nodes`]; `is_done` says which nodes are done. A done
    /// prerequisite blocks nothing, so the walk does not go past it. An empty
    /// answer means the task is ready (or done).
    ///
    /// The chain from any blocker up to the task follows `unblocks` (each step
    /// is one of the shortest). Breadth-first: O(reached + their edges) time.
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    ///
    /// // release needs tests; tests needs api and ui; api needs schema.
    /// let mut net = Network::new();
    /// net.add_nodes(["release", "tests", "api", "ui", "schema"])?;
    /// for (a, b) in [("release", "tests"), ("tests", "api"), ("tests", "ui"), ("api", "schema")] {
    ///     net.add_edge(a, b, 1.0)?;
    /// }
    /// let release = net.index_of("release").unwrap();
    /// let why = net.blockers(release, Direction::Out, |_| false);
    /// let listed: Vec<(&str, usize, bool)> =
    ///     why.blockers.iter().map(|b| (net.id_at(b.node), b.depth, b.ready)).collect();
    /// assert_eq!(
    ///     listed,
    ///     [("tests", 1, false), ("api", 2, false), ("ui", 2, true), ("schema", 3, true)]
    /// );
    /// // schema -> api -> tests -> release: the chain that decides when it can start.
    /// assert_eq!(net.id_at(why.blockers[3].unblocks), "api");
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn blockers(
        &self,
        task: NodeIndex,
        prerequisites: Direction,
        is_done: impl Fn(NodeIndex) -> bool,
    ) -> Blockers {
        self.blockers_following(task, prerequisites, is_done, &RelationFilter::default())
    }

    fn blockers_following(
        &self,
        task: NodeIndex,
        prerequisites: Direction,
        is_done: impl Fn(NodeIndex) -> bool,
        filter: &RelationFilter,
    ) -> Blockers {
        let g = self.graph();
        let directions: &[petgraph::Direction] = match prerequisites {
            Direction::Out => &[Outgoing],
            Direction::In => &[Incoming],
            Direction::Both => &[Outgoing, Incoming],
        };
        // Only the edges the filter keeps make prerequisites.
        let prerequisites_of = move |v: NodeIndex| {
            directions.iter().flat_map(move |&d| {
                g.edges_directed(v, d)
                    .filter(|e| filter.keeps(e.weight()))
                    .map(move |e| {
                        if e.source() == v {
                            e.target()
                        } else {
                            e.source()
                        }
                    })
            })
        };
        // petgraph lists a node's edges newest first: sorted by index, the walk
        // meets a node's prerequisites in the order the nodes were inserted.
        let sorted_prerequisites = |v: NodeIndex| {
            let mut list: Vec<NodeIndex> = prerequisites_of(v).collect();
            list.sort_unstable();
            list.dedup();
            list
        };
        let mut seen = vec![false; g.node_bound()];
        seen[task.index()] = true;
        let mut queue = VecDeque::from([(task, 0usize)]);
        let mut answer = Blockers::default();
        while let Some((v, depth)) = queue.pop_front() {
            for w in sorted_prerequisites(v) {
                crate::budget::charge(1);
                if seen[w.index()] || is_done(w) {
                    continue;
                }
                seen[w.index()] = true;
                let ready = prerequisites_of(w).all(|x| {
                    crate::budget::charge(1);
                    is_done(x)
                });
                answer.ready_count += usize::from(ready);
                answer.blockers.push(Blocker {
                    node: w,
                    depth: depth + 1,
                    unblocks: v,
                    ready,
                });
                queue.push_back((w, depth + 1));
            }
        }
        answer
    }

    /// The chain from `blocker` up to the task of `blockers`, following each
    /// one's `unblocks`: `[blocker, …, task]`. O(chain length) with the index
    /// `position` maps a node to its entry; `None` if `blocker` is not listed.
    pub fn blocker_chain(answer: &Blockers, blocker: NodeIndex) -> Option<Vec<NodeIndex>> {
        let position: std::collections::HashMap<NodeIndex, usize> = answer
            .blockers
            .iter()
            .enumerate()
            .map(|(i, b)| (b.node, i))
            .collect();
        let mut at = *position.get(&blocker)?;
        let mut chain = vec![blocker];
        loop {
            let step = answer.blockers[at];
            chain.push(step.unblocks);
            match position.get(&step.unblocks) {
                Some(&next) => at = next,
                None => return Some(chain),
            }
        }
    }
}

impl Following<'_> {
    /// [`Network::blockers`] along the edges the filter keeps: only kept edges
    /// make prerequisites.
    pub fn blockers(
        &self,
        task: NodeIndex,
        prerequisites: Direction,
        is_done: impl Fn(NodeIndex) -> bool,
    ) -> Blockers {
        self.net
            .blockers_following(task, prerequisites, is_done, self.filter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Network {
        let mut net = Network::new();
        net.add_nodes(["release", "tests", "api", "ui", "schema", "docs"])
            .unwrap();
        for (a, b) in [
            ("release", "tests"),
            ("release", "docs"),
            ("tests", "api"),
            ("tests", "ui"),
            ("api", "schema"),
            ("ui", "schema"),
        ] {
            net.add_edge(a, b, 1.0).unwrap();
        }
        net
    }

    #[test]
    fn a_done_prerequisite_blocks_nothing_and_stops_the_walk() {
        let net = plan();
        let done = [net.index_of("api").unwrap(), net.index_of("docs").unwrap()];
        let why = net.blockers(net.index_of("release").unwrap(), Direction::Out, |v| {
            done.contains(&v)
        });
        let listed: Vec<(&str, usize, bool)> = why
            .blockers
            .iter()
            .map(|b| (net.id_at(b.node), b.depth, b.ready))
            .collect();
        // schema is still reached, through ui.
        assert_eq!(
            listed,
            [("tests", 1, false), ("ui", 2, false), ("schema", 3, true)]
        );
        assert_eq!(why.ready_count, 1);
        let chain = Network::blocker_chain(&why, net.index_of("schema").unwrap()).unwrap();
        assert_eq!(net.ids(&chain), ["schema", "ui", "tests", "release"]);
    }

    #[test]
    fn a_ready_task_has_no_blockers_and_a_cycle_ends() {
        let mut net = plan();
        let schema = net.index_of("schema").unwrap();
        assert_eq!(
            net.blockers(schema, Direction::Out, |_| false),
            Blockers::default()
        );
        // A cycle through the task: it blocks itself, and the walk still ends.
        net.add_edge("schema", "release", 1.0).unwrap();
        let why = net.blockers(schema, Direction::Out, |_| false);
        assert_eq!(why.blockers.len(), 5);
        // Only docs, which needs nothing, can start.
        assert_eq!(why.ready_count, 1);
        assert!(
            why.blockers
                .iter()
                .all(|b| b.ready == (net.id_at(b.node) == "docs"))
        );
        assert_eq!(net.id_at(why.blockers[0].node), "release");
    }

    #[test]
    fn precedence_edges_read_the_other_way() {
        let net = plan();
        // With prerequisites "in", A -> B means A comes before B: what "tests" waits on is "release".
        let why = net.blockers(net.index_of("tests").unwrap(), Direction::In, |_| false);
        assert_eq!(
            why.blockers
                .iter()
                .map(|b| net.id_at(b.node))
                .collect::<Vec<_>>(),
            ["release"]
        );
        assert!(why.blockers[0].ready);
    }
}
