//! Cycles and strongly connected components.
//!
//! Strongly connected components are computed by an **iterative** Tarjan: petgraph
//! 0.8's [`tarjan_scc`](petgraph::algo::tarjan_scc) and
//! [`is_cyclic_directed`](petgraph::algo::is_cyclic_directed) recurse once per node
//! on a path, which overflows the stack on long dependency chains (a 1M-node chain
//! needs a 1M-deep recursion). The iterative version keeps its call stack on the
//! heap and labels nodes in flat `Vec`s indexed by [`NodeIndex::index`].
//!
//! A *witness* cycle is a concrete cycle given as nodes in edge direction: each node
//! has an edge to the next, the last to the first; a self-loop is a 1-node cycle.

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};

use super::following::Following;
use crate::error::Error;
use crate::network::graph::adjacency::{Follow, Neighbors};
use crate::network::graph::{Edge, Network, Node, RelationFilter};

/// Marks "no component" (a vacant index) or "no parent".
const NONE: u32 = u32::MAX;

/// One strongly connected component that contains a cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct CyclicComponent {
    /// The component's nodes, sorted by index.
    pub nodes: Vec<NodeIndex>,
    /// One witness cycle inside the component, in edge direction, starting at the
    /// component's lowest-index node.
    pub cycle: Vec<NodeIndex>,
}

/// The result of [`Network::find_cycles`].
#[derive(Debug, Clone, PartialEq)]
pub struct Cycles {
    /// At most `limit` cyclic components, sorted by their lowest node index.
    pub components: Vec<CyclicComponent>,
    /// The number of cyclic components in the whole graph.
    pub total: usize,
    /// Whether `components` holds fewer than `total`.
    pub truncated: bool,
}

/// The strongly connected component of every node.
pub(crate) struct SccLabels {
    /// The component number of each node index ([`NONE`] for vacant indices).
    /// Components are numbered in the order Tarjan completes them (a reverse
    /// topological order of the condensation).
    pub(crate) comp: Vec<u32>,
    /// The number of components.
    pub(crate) count: usize,
}

/// Iterative Tarjan. O(V + E) time, O(V) extra space (three `u32` per node index
/// plus the DFS stacks). Roots are taken in index order and successors in
/// petgraph's adjacency order, so the labelling is deterministic.
///
/// A node's DFS number, low-link and component live side by side in one 12-byte
/// [`TarjanSlot`], so looking at an edge's target costs one cache miss, not three
/// (on large graphs the walk is bound by those misses).
pub(crate) fn scc_labels(g: &StableDiGraph<Node, Edge>, out: &Follow<'_>) -> SccLabels {
    /// `index == 0`: not visited yet (indices start at 1).
    #[derive(Clone, Copy)]
    struct TarjanSlot {
        index: u32,
        low: u32,
        comp: u32,
    }
    let bound = g.node_bound();
    let mut slots = vec![
        TarjanSlot {
            index: 0,
            low: 0,
            comp: NONE,
        };
        bound
    ];
    let mut stack: Vec<NodeIndex> = Vec::new();
    // DFS call frames: a node and the unread part of its out-row.
    let mut call: Vec<(NodeIndex, Neighbors<'_>)> = Vec::new();
    let mut next_index = 1u32;
    let mut count = 0u32;

    for root in g.node_indices() {
        if slots[root.index()].index != 0 {
            continue;
        }
        slots[root.index()].index = next_index;
        slots[root.index()].low = next_index;
        next_index += 1;
        stack.push(root);
        call.push((root, out.neighbors(root)));

        while let Some((v, successors)) = call.last_mut() {
            let v = *v;
            crate::budget::charge(1);
            if let Some(w) = successors.next() {
                let ws = slots[w.index()];
                if ws.index == 0 {
                    slots[w.index()].index = next_index;
                    slots[w.index()].low = next_index;
                    next_index += 1;
                    stack.push(w);
                    call.push((w, out.neighbors(w)));
                } else if ws.comp == NONE {
                    // Visited and not yet assigned: `w` is on the Tarjan stack.
                    let vs = &mut slots[v.index()];
                    vs.low = vs.low.min(ws.index);
                }
            } else {
                call.pop();
                let vs = slots[v.index()];
                if vs.low == vs.index {
                    while let Some(w) = stack.pop() {
                        slots[w.index()].comp = count;
                        if w == v {
                            break;
                        }
                    }
                    count += 1;
                }
                if let Some((parent, _)) = call.last() {
                    let ps = &mut slots[parent.index()];
                    ps.low = ps.low.min(vs.low);
                }
            }
        }
    }
    SccLabels {
        comp: slots.into_iter().map(|s| s.comp).collect(),
        count: count as usize,
    }
}

/// Which components of an [`SccLabels`] contain a cycle: more than one node, or a
/// self-loop. O(V + E).
fn cyclic_flags(
    g: &StableDiGraph<Node, Edge>,
    labels: &SccLabels,
    filter: &RelationFilter,
) -> Vec<bool> {
    let mut size = vec![0u32; labels.count];
    for v in g.node_indices() {
        size[labels.comp[v.index()] as usize] += 1;
    }
    let mut cyclic: Vec<bool> = size.iter().map(|&s| s > 1).collect();
    for e in g.edge_references() {
        if e.source() == e.target() && filter.keeps(e.weight()) {
            cyclic[labels.comp[e.source().index()] as usize] = true;
        }
    }
    cyclic
}

/// Scratch space for shortest-cycle searches. Components are disjoint and each
/// search stays inside one, so the `visited` marks never need resetting.
struct WitnessSearch {
    visited: Vec<bool>,
    parent: Vec<u32>,
    queue: Vec<NodeIndex>,
    successors: Vec<NodeIndex>,
}

impl WitnessSearch {
    fn new(bound: usize) -> Self {
        WitnessSearch {
            visited: vec![false; bound],
            parent: vec![NONE; bound],
            queue: Vec::new(),
            successors: Vec::new(),
        }
    }

    /// A shortest cycle through `s` inside `s`'s component: BFS from `s` along
    /// out-edges that stay in the component, visiting each node's successors in
    /// increasing index order; the first dequeued node with an edge back to `s`
    /// closes the cycle. Empty only if `s` lies on no cycle (never for a cyclic
    /// component). O(size of the component + its edges · log degree).
    fn shortest_cycle_through(
        &mut self,
        g: &StableDiGraph<Node, Edge>,
        comp: &[u32],
        s: NodeIndex,
        filter: &RelationFilter,
    ) -> Vec<NodeIndex> {
        let c = comp[s.index()];
        self.queue.clear();
        self.queue.push(s);
        self.visited[s.index()] = true;
        let mut head = 0;
        while let Some(&u) = self.queue.get(head) {
            head += 1;
            crate::budget::charge(1);
            self.successors.clear();
            self.successors.extend(
                g.edges_directed(u, Outgoing)
                    .filter(|e| filter.keeps(e.weight()))
                    .map(|e| e.target())
                    .filter(|w| comp[w.index()] == c),
            );
            self.successors.sort_unstable();
            self.successors.dedup();
            if self.successors.binary_search(&s).is_ok() {
                let mut cycle = vec![u];
                let mut x = u;
                while x != s {
                    let p = self.parent[x.index()];
                    if p == NONE {
                        break;
                    }
                    x = NodeIndex::new(p as usize);
                    cycle.push(x);
                }
                cycle.reverse();
                return cycle;
            }
            for &w in &self.successors {
                if !self.visited[w.index()] {
                    self.visited[w.index()] = true;
                    self.parent[w.index()] = u.index() as u32;
                    self.queue.push(w);
                }
            }
        }
        Vec::new()
    }
}

impl Network {
    /// The cyclic components of the graph, with one witness cycle each.
    ///
    /// A component is *cyclic* if it is a strongly connected component of more than
    /// one node, or a single node with a self-loop. Each witness is a shortest cycle
    /// through the component's lowest-index node, found by a BFS inside the component
    /// that visits successors in increasing index order (see [`Cycles`]).
    ///
    /// Algorithm: iterative Tarjan (see the module docs for why not petgraph's
    /// recursive `tarjan_scc`), then one BFS per returned component.
    ///
    /// Complexity: O(V + E) for the components and `total`, plus O(E_c log d) for the
    /// BFS in each of the at most `limit` returned components.
    ///
    /// Order and ties: components are sorted by their lowest node index (insertion
    /// order), their `nodes` by index. At most `limit` are returned; `total` counts all
    /// and `truncated` says whether some were left out.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["a", "b", "c", "d"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("a", "b", 1.0).unwrap();
    /// net.add_edge("b", "c", 1.0).unwrap();
    /// net.add_edge("c", "a", 1.0).unwrap();
    /// net.add_edge("d", "d", 1.0).unwrap();
    ///
    /// let cycles = net.find_cycles(10);
    /// assert_eq!(cycles.total, 2);
    /// assert!(!cycles.truncated);
    /// assert_eq!(net.ids(&cycles.components[0].cycle), ["a", "b", "c"]);
    /// assert_eq!(net.ids(&cycles.components[1].cycle), ["d"]);
    ///
    /// let first = net.find_cycles(1);
    /// assert_eq!((first.components.len(), first.total, first.truncated), (1, 2, true));
    /// ```
    pub fn find_cycles(&self, limit: usize) -> Cycles {
        self.cyclic_components(limit, true, RelationFilter::every_edge())
    }

    /// One cycle of the graph, if it has any: the witness of the first component of
    /// [`Network::find_cycles`] (a shortest cycle through the lowest-index node that
    /// lies on a cycle), in edge direction. A self-loop gives a 1-node cycle.
    ///
    /// Complexity: O(V + E) time, O(V) extra space.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["x", "y", "z"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("x", "y", 1.0).unwrap();
    /// assert_eq!(net.find_any_cycle(), None);
    ///
    /// net.add_edge("z", "y", 1.0).unwrap();
    /// net.add_edge("y", "z", 1.0).unwrap();
    /// let cycle = net.find_any_cycle().unwrap();
    /// assert_eq!(net.ids(&cycle), ["y", "z"]);
    /// ```
    pub fn find_any_cycle(&self) -> Option<Vec<NodeIndex>> {
        self.find_any_cycle_following(RelationFilter::every_edge())
    }

    fn find_any_cycle_following(&self, filter: &RelationFilter) -> Option<Vec<NodeIndex>> {
        self.cyclic_components(1, false, filter)
            .components
            .into_iter()
            .next()
            .map(|c| c.cycle)
    }

    /// All strongly connected components, singletons included, each sorted by node
    /// index, the components sorted by their lowest node index.
    ///
    /// Algorithm: iterative Tarjan. Complexity: O(V + E) time; allocates one `Vec`
    /// per component (meant for tests and benchmarks; prefer
    /// [`Network::find_cycles`] on large graphs).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::Map;
    ///
    /// let mut net = Network::new();
    /// for id in ["a", "b", "c"] {
    ///     net.add_node(id).unwrap();
    /// }
    /// net.add_edge("c", "b", 1.0).unwrap();
    /// net.add_edge("b", "c", 1.0).unwrap();
    ///
    /// let ids: Vec<Vec<&str>> = net
    ///     .strongly_connected_components()
    ///     .iter()
    ///     .map(|scc| scc.iter().map(|&ix| net.id_at(ix)).collect())
    ///     .collect();
    /// assert_eq!(ids, [vec!["a"], vec!["b", "c"]]);
    /// ```
    pub fn strongly_connected_components(&self) -> Vec<Vec<NodeIndex>> {
        let g = self.graph();
        let labels = scc_labels(g, &self.follow(Outgoing, RelationFilter::every_edge()));
        let mut slot = vec![NONE; labels.count];
        let mut sccs: Vec<Vec<NodeIndex>> = Vec::with_capacity(labels.count);
        for v in g.node_indices() {
            let c = labels.comp[v.index()] as usize;
            if slot[c] == NONE {
                slot[c] = sccs.len() as u32;
                sccs.push(Vec::new());
            }
            sccs[slot[c] as usize].push(v);
        }
        sccs
    }

    /// The [`Error::CycleDetected`] for an operation that needs a DAG, with a witness
    /// cycle from [`Network::find_any_cycle`]. `operation` completes "so ... is
    /// undefined", e.g. `"a topological order"`. O(V + E).
    pub(crate) fn cycle_error(&self, operation: &str) -> Error {
        self.cycle_error_following(operation, RelationFilter::every_edge())
    }

    /// [`Network::cycle_error`] with a witness made of edges `filter` keeps.
    pub(crate) fn cycle_error_following(&self, operation: &str, filter: &RelationFilter) -> Error {
        match self.find_any_cycle_following(filter) {
            Some(cycle) => Error::CycleDetected {
                operation: operation.to_string(),
                cycle: self.ids_owned(&cycle),
            },
            None => Error::Internal {
                message: format!("{operation} failed on a cycle, but no cycle was found"),
            },
        }
    }

    /// Shared body of [`Network::find_cycles`] and [`Network::find_any_cycle`];
    /// `with_nodes: false` leaves every `nodes` list empty.
    fn cyclic_components(&self, limit: usize, with_nodes: bool, filter: &RelationFilter) -> Cycles {
        let g = self.graph();
        let labels = scc_labels(g, &self.follow(Outgoing, filter));
        let cyclic = cyclic_flags(g, &labels, filter);

        // slot[c]: NONE = not seen yet, SKIPPED = counted but not returned,
        // otherwise the position in `components`.
        const SKIPPED: u32 = NONE - 1;
        let mut slot = vec![NONE; labels.count];
        let mut components: Vec<CyclicComponent> = Vec::new();
        let mut search: Option<WitnessSearch> = None;
        let mut total = 0;
        for v in g.node_indices() {
            let c = labels.comp[v.index()] as usize;
            if !cyclic[c] || slot[c] != NONE {
                continue;
            }
            total += 1;
            if components.len() < limit {
                slot[c] = components.len() as u32;
                let search = search.get_or_insert_with(|| WitnessSearch::new(g.node_bound()));
                components.push(CyclicComponent {
                    nodes: Vec::new(),
                    cycle: search.shortest_cycle_through(g, &labels.comp, v, filter),
                });
            } else {
                slot[c] = SKIPPED;
            }
        }
        if with_nodes && !components.is_empty() {
            for v in g.node_indices() {
                let s = slot[labels.comp[v.index()] as usize];
                if s < SKIPPED {
                    components[s as usize].nodes.push(v);
                }
            }
        }
        Cycles {
            truncated: components.len() < total,
            components,
            total,
        }
    }
}

impl Following<'_> {
    /// [`Network::find_cycles`] along the edges the filter keeps.
    pub fn find_cycles(&self, limit: usize) -> Cycles {
        self.net.cyclic_components(limit, true, self.filter)
    }

    /// [`Network::find_any_cycle`] along the edges the filter keeps.
    pub fn find_any_cycle(&self) -> Option<Vec<NodeIndex>> {
        self.net.find_any_cycle_following(self.filter)
    }
}
