//! Copies of a network: the whole of it, the subgraph induced by a set of nodes,
//! or the neighbourhood of some seeds within a number of hops.
//!
//! Definition: a copy holds the chosen nodes (with their data and attributes)
//! and **every** edge whose two endpoints are both chosen (with its weight and
//! attributes; parallel edges and self-loops included), as NetworkX's
//! `G.subgraph(nodes)` does. A neighbourhood is the set of nodes within `depth`
//! hops of any seed along the direction given (`Out`: successors, `In`:
//! predecessors, `Both`: either way at every hop), as the union over the seeds of
//! NetworkX's `ego_graph(G, seed, radius=depth)` (on `G`, on `G.reverse()`, or
//! with `undirected=True`).
//!
//! A copy is another network: it gets an instance of its own (so no cursor or
//! cache of the original applies to it), an empty name, and a version counted as
//! for a network built by the same inserts. It keeps the original's **edge ids**
//! (edge 17 of the copy is edge 17 of the original), and its next edge id
//! continues after the original's, so an id seen in one is never reused for a
//! different edge in the other. Nodes are copied in the original's index order
//! and edges in edge-id order, so the copy's neighbour lists and walks come out
//! in the same order as the original's.
//!
//! Complexity (k chosen nodes, m edges among them, d the sum of the out-degrees
//! of the chosen nodes): whole O(V + E); induced O(k log k + d + m log m);
//! neighbourhood the same plus the walk, O(k + edges at the chosen nodes), with
//! a bit set of V bits. [`Network::extract_size`] is in the same class without
//! the copying. Nothing recurses: the walk is an explicit level-by-level queue.

use hashbrown::HashMap;
use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeRef, NodeIndexable, VisitMap, Visitable};

use crate::network::graph::{Direction, Network};

/// Which part of a network [`Network::extract`] copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extract<'a> {
    /// Every node and edge, and the description.
    Whole,
    /// These nodes and the edges among them. Repeated indices count once;
    /// indices that are not nodes of the network are ignored.
    Induced(&'a [NodeIndex]),
    /// The nodes within `depth` hops of any seed along `direction` (the seeds
    /// themselves at 0 hops), and the edges among them. Repeated seeds count
    /// once; indices that are not nodes of the network are ignored.
    Neighborhood {
        /// Where the walk starts.
        seeds: &'a [NodeIndex],
        /// The most hops a chosen node is from its nearest seed.
        depth: usize,
        /// Which way each hop goes: `Out` to successors, `In` to predecessors,
        /// `Both` to either.
        direction: Direction,
    },
}

/// The chosen nodes in index order: `nodes[k]` of the original becomes node
/// `k` of the copy.
struct Chosen {
    nodes: Vec<NodeIndex>,
    slots: Slots,
}

/// Original node index → position in [`Chosen::nodes`].
enum Slots {
    /// Indexed by the original's node index; [`Slots::NONE`] for a node not chosen.
    Dense(Vec<u32>),
    /// For a choice small next to the network, so that its cost does not grow
    /// with the network's size.
    Sparse(HashMap<NodeIndex, u32>),
}

impl Slots {
    const NONE: u32 = u32::MAX;

    /// The map for `nodes`, sorted and without repeats, out of `bound` indices.
    fn new(nodes: &[NodeIndex], bound: usize) -> Slots {
        // A dense map costs 4 bytes per index of the whole network; a hash map
        // about 16 per chosen node and a hash per lookup.
        if nodes.len().saturating_mul(8) >= bound {
            let mut slots = vec![Self::NONE; bound];
            for (k, ix) in nodes.iter().enumerate() {
                slots[ix.index()] = k as u32;
            }
            Slots::Dense(slots)
        } else {
            Slots::Sparse(
                nodes
                    .iter()
                    .enumerate()
                    .map(|(k, &ix)| (ix, k as u32))
                    .collect(),
            )
        }
    }

    #[inline]
    fn get(&self, ix: NodeIndex) -> Option<NodeIndex> {
        let slot = match self {
            Slots::Dense(slots) => *slots.get(ix.index())?,
            Slots::Sparse(map) => *map.get(&ix)?,
        };
        (slot != Self::NONE).then(|| NodeIndex::new(slot as usize))
    }
}

impl Network {
    /// A new network holding the part of this one that `what` chooses: the
    /// chosen nodes (data and attributes) in this network's index order, and every
    /// edge among them (weight and attributes) in edge-id order, **with the same
    /// edge ids**. The copy's next edge id is this network's, so an edge added to
    /// the copy gets an id this network has never used.
    ///
    /// The copy is a new network: a new [`Network::instance`], an empty name, no
    /// description unless `what` is [`Extract::Whole`], and the version a new
    /// network has after inserting its nodes and edges. (A [`Clone`] instead
    /// would share this network's instance and version, and so be mistaken for it.)
    ///
    /// Complexity: see the [module docs](self).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network, subgraph::Extract};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "b", 1.0)?; // edge 0
    /// net.add_edge("b", "c", 2.0)?; // edge 1
    /// net.add_edge("c", "d", 3.0)?; // edge 2
    ///
    /// let picked = net.require_all("node_ids", ["c", "b"])?;
    /// let induced = net.extract(Extract::Induced(&picked));
    /// assert_eq!(induced.node_ids().collect::<Vec<_>>(), ["b", "c"]);
    /// assert_eq!(induced.edge(1).map(|e| (e.source, e.target)), Some(("b", "c")));
    ///
    /// let seeds = [net.require("seed", "a")?];
    /// let near = net.extract(Extract::Neighborhood { seeds: &seeds, depth: 2, direction: Direction::Out });
    /// assert_eq!(near.node_ids().collect::<Vec<_>>(), ["a", "b", "c"]);
    /// assert_eq!(near.edge_count(), 2);
    ///
    /// let mut whole = net.extract(Extract::Whole);
    /// assert_ne!(whole.instance(), net.instance());
    /// assert_eq!(whole.add_edge("d", "a", 1.0)?, 3); // after the original's ids
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn extract(&self, what: Extract<'_>) -> Network {
        let chosen = self.choose(&what);
        let edges = match what {
            Extract::Whole => self.edge_indices_by_id(),
            _ => {
                let mut edges: Vec<(u64, EdgeIndex)> = Vec::new();
                self.for_each_chosen_edge(&chosen, |ix| {
                    edges.push((self.graph()[ix].id, ix));
                });
                edges.sort_unstable_by_key(|&(id, _)| id);
                edges.into_iter().map(|(_, ix)| ix).collect()
            }
        };
        let mut copy = Network::with_capacity(chosen.nodes.len(), edges.len());
        if matches!(what, Extract::Whole) {
            // As a restore from a snapshot sets it: not a change of its own.
            copy.restore_description(self.description().map(str::to_string));
            copy.restore_nonblocking_relations(self.nonblocking_relations());
        }
        for (k, &ix) in chosen.nodes.iter().enumerate() {
            crate::budget::charge(1);
            let node = &self.graph()[ix];
            let new = copy.insert_node_unchecked(
                &node.id,
                node.data.as_deref().cloned(),
                node.attributes.clone(),
            );
            debug_assert_eq!(new.index(), k, "a new network numbers its nodes from 0");
        }
        for ix in edges {
            crate::budget::charge(1);
            let (Some((a, b)), Some(edge)) = (
                self.graph().edge_endpoints(ix),
                self.graph().edge_weight(ix),
            ) else {
                continue;
            };
            let (Some(a), Some(b)) = (chosen.slots.get(a), chosen.slots.get(b)) else {
                continue;
            };
            // Edges go in by increasing id, each with its own id, as a restore
            // from a snapshot inserts them: every derived fact (edge-id index,
            // adjacency, negative count) is kept by the one structural path.
            copy.insert_edge_as(edge.id, a, b, edge.weight, edge.attributes.clone());
        }
        copy.set_next_edge_id(self.next_edge_id());
        // A copy's past is its original's: its window starts now.
        copy.forget_history();
        copy
    }

    /// How many nodes and edges [`Network::extract`] would copy, `(nodes, edges)`,
    /// without copying anything: to check a size limit before copying. O(1) for
    /// [`Extract::Whole`]; otherwise the cost of choosing the nodes and walking
    /// their out-edges (see the [module docs](self)).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network, subgraph::Extract};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("c", "a", 1.0)?;
    /// let seeds = [net.require("seed", "b")?];
    /// let what = Extract::Neighborhood { seeds: &seeds, depth: 1, direction: Direction::In };
    /// assert_eq!(net.extract_size(&what), (2, 2));
    /// assert_eq!(net.extract_size(&Extract::Whole), (3, 3));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn extract_size(&self, what: &Extract<'_>) -> (usize, usize) {
        if matches!(what, Extract::Whole) {
            return (self.node_count(), self.edge_count());
        }
        let chosen = self.choose(what);
        let mut edges = 0;
        self.for_each_chosen_edge(&chosen, |_| edges += 1);
        (chosen.nodes.len(), edges)
    }

    /// The nodes `what` chooses, in index order.
    fn choose(&self, what: &Extract<'_>) -> Chosen {
        let bound = self.graph().node_bound();
        let mut nodes: Vec<NodeIndex> = match *what {
            Extract::Whole => self.graph().node_indices().collect(),
            Extract::Induced(ids) => ids
                .iter()
                .copied()
                .filter(|&ix| self.graph().contains_node(ix))
                .collect(),
            Extract::Neighborhood {
                seeds,
                depth,
                direction,
            } => self.ball(seeds, depth, direction),
        };
        if !matches!(what, Extract::Whole) {
            nodes.sort_unstable();
            nodes.dedup();
        }
        let slots = Slots::new(&nodes, bound);
        Chosen { nodes, slots }
    }

    /// Every node within `depth` hops of a seed along `direction`, each once, in
    /// no particular order: a multi-source breadth-first walk, level by level.
    fn ball(&self, seeds: &[NodeIndex], depth: usize, direction: Direction) -> Vec<NodeIndex> {
        let graph = self.graph();
        let mut visited = graph.visit_map();
        // The queue is also the result: every node enters it once, when first seen.
        let mut queue: Vec<NodeIndex> = Vec::with_capacity(seeds.len());
        for &s in seeds {
            if graph.contains_node(s) && visited.visit(s) {
                queue.push(s);
            }
        }
        let mut head = 0;
        let mut level = 0;
        while level < depth && head < queue.len() {
            let level_end = queue.len();
            while head < level_end {
                let node = queue[head];
                head += 1;
                for (wanted, dir) in [(Direction::Out, Outgoing), (Direction::In, Incoming)] {
                    if direction == wanted || direction == Direction::Both {
                        for n in graph.neighbors_directed(node, dir) {
                            if visited.visit(n) {
                                queue.push(n);
                            }
                        }
                    }
                }
            }
            level += 1;
        }
        queue
    }

    /// Calls `f` with every edge whose endpoints are both chosen, each once (as
    /// an out-edge of its chosen source), in no particular order.
    fn for_each_chosen_edge(&self, chosen: &Chosen, mut f: impl FnMut(EdgeIndex)) {
        for &ix in &chosen.nodes {
            for e in self.graph().edges_directed(ix, Outgoing) {
                if chosen.slots.get(e.target()).is_some() {
                    f(e.id());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::{Attributes, EdgeSpec, Node, NodeSpec};
    use serde_json::json;

    fn sample() -> Network {
        let mut net = Network::named("plan");
        net.set_description(Some("the plan".into()));
        net.add_node_with(NodeSpec::new("a").with_attribute("k", 1))
            .unwrap();
        net.add_node_with(NodeSpec::new("b").with_data(json!({"x": [1, 2]})))
            .unwrap();
        net.add_nodes(["c", "d", "e"]).unwrap();
        net.add_edge("a", "b", 1.0).unwrap(); // 0
        net.add_edge("b", "c", -2.0).unwrap(); // 1
        net.add_edge_with(EdgeSpec::new("c", "a").with_attribute("why", "loop"))
            .unwrap(); // 2
        net.add_edge("a", "b", 3.0).unwrap(); // 3
        net.add_edge("d", "d", 1.0).unwrap(); // 4
        net.add_edge("d", "e", 1.0).unwrap(); // 5
        net
    }

    #[test]
    fn a_whole_copy_is_equal_in_content_and_a_new_network() {
        let net = sample();
        let copy = net.extract(Extract::Whole);
        assert_eq!(copy.to_data(), net.to_data());
        assert_ne!(copy.instance(), net.instance());
        assert_eq!(copy.name(), "");
        assert_eq!(copy.description(), Some("the plan"));
        assert_eq!(copy.version(), (net.node_count() + net.edge_count()) as u64);
        assert!(copy.has_negative_weights());
        for id in ["a", "b", "c", "d", "e"] {
            for dir in [Direction::Out, Direction::In, Direction::Both] {
                assert_eq!(
                    copy.neighbors(id, dir).unwrap(),
                    net.neighbors(id, dir).unwrap()
                );
            }
        }
        assert_eq!(copy.adjacency().out_neighbors(NodeIndex::new(0)).len(), 2);
    }

    #[test]
    fn removed_nodes_and_edges_leave_no_trace_in_a_copy() {
        let mut net = sample();
        net.remove_node("b").unwrap();
        net.remove_edge(4).unwrap();
        let copy = net.extract(Extract::Whole);
        assert_eq!(copy.to_data(), net.to_data());
        assert_eq!(copy.node_ids().collect::<Vec<_>>(), ["a", "c", "d", "e"]);
        assert!(!copy.has_negative_weights());
        assert!(copy.edge(1).is_none() && copy.edge(4).is_none());
        assert_eq!(copy.edge(5).map(|e| e.target), Some("e"));
    }

    #[test]
    fn an_induced_copy_keeps_ids_and_continues_after_them() {
        let net = sample();
        let picked = net.require_all("n", ["b", "a", "b", "e"]).unwrap();
        let mut copy = net.extract(Extract::Induced(&picked));
        assert_eq!(copy.node_ids().collect::<Vec<_>>(), ["a", "b", "e"]);
        assert_eq!(copy.description(), None);
        let ids: Vec<_> = copy
            .edge_indices_by_id()
            .iter()
            .map(|&ix| copy.graph()[ix].id)
            .collect();
        assert_eq!(ids, [0, 3]);
        assert_eq!(
            copy.node("b").unwrap().data.as_deref(),
            Some(&json!({"x": [1, 2]}))
        );
        assert_eq!(copy.node("a").unwrap().attributes.get("k"), Some(&json!(1)));
        assert_eq!(copy.add_edge("e", "a", 1.0).unwrap(), 6);
        assert_eq!(net.extract_size(&Extract::Induced(&picked)), (3, 2));
    }

    #[test]
    fn an_edge_id_far_ahead_is_kept() {
        use crate::network::snapshot::{EdgeData, NetworkData};
        // Ids further apart than the edge-id index bridges with a vector.
        let far = 5 << 20;
        let edge = |id, source: &str, target: &str| EdgeData {
            id,
            source: source.into(),
            target: target.into(),
            weight: 1.0,
            attributes: Attributes::default(),
        };
        let data = NetworkData {
            description: None,
            next_edge_id: far + 1,
            nodes: ["a", "b"]
                .map(|id| Node {
                    id: id.into(),
                    data: None,
                    attributes: Attributes::default(),
                })
                .to_vec(),
            edges: vec![edge(0, "a", "b"), edge(far, "a", "a")],
            nonblocking_relations: Vec::new(),
        };
        let net = Network::from_data("far", data).unwrap();
        let mut copy = net.extract(Extract::Whole);
        assert_eq!(copy.to_data(), net.to_data());
        assert_eq!(copy.edge(far).map(|e| e.source), Some("a"));
        assert_eq!(copy.edge(0).map(|e| e.target), Some("b"));
        assert_eq!(copy.add_edge("b", "a", 1.0).unwrap(), far + 1);
    }

    #[test]
    fn neighborhoods_follow_the_direction() {
        let net = sample();
        let seed = [net.index_of("c").unwrap()];
        let ids = |direction, depth| {
            let what = Extract::Neighborhood {
                seeds: &seed,
                depth,
                direction,
            };
            let copy = net.extract(what);
            assert_eq!(
                net.extract_size(&what),
                (copy.node_count(), copy.edge_count())
            );
            copy.node_ids().map(str::to_string).collect::<Vec<_>>()
        };
        assert_eq!(ids(Direction::Out, 0), ["c"]);
        assert_eq!(ids(Direction::Out, 1), ["a", "c"]);
        assert_eq!(ids(Direction::In, 1), ["b", "c"]);
        assert_eq!(ids(Direction::Both, 1), ["a", "b", "c"]);
        assert_eq!(ids(Direction::Out, usize::MAX), ["a", "b", "c"]);
        let none: [NodeIndex; 0] = [];
        let empty = net.extract(Extract::Neighborhood {
            seeds: &none,
            depth: 3,
            direction: Direction::Both,
        });
        assert_eq!((empty.node_count(), empty.edge_count()), (0, 0));
    }
}
