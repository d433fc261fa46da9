//! Structure: which edges are redundant, which nodes and edges everything goes
//! through, and the network with its cycles collapsed.
//!
//! * [`Network::transitive_reduction`]: the edges of a DAG that a longer path
//!   already implies.
//! * [`Network::immediate_dominators`] and [`Network::dominators_of`]: the nodes
//!   every path from a root to a node must pass ("every path from `root` to X
//!   goes through D").
//! * [`Network::articulation_points`] and [`Network::bridges`]: the nodes and
//!   edges whose removal splits the network, edges read both ways.
//! * [`Network::condensation`]: one node per strongly connected component, so
//!   that a cyclic dependency graph can still be ordered.
//!
//! Each answer is unique as a set (it does not depend on the order of a
//! search), so the results are given sorted: nodes by index (insertion order),
//! edges by id. Every search is iterative with an explicit stack: inputs are
//! untrusted and may be chains a million nodes deep.
//!
//! How a directed multigraph is read, compared with NetworkX 3.x:
//! * Transitive reduction: `nx.transitive_reduction` accepts a `MultiDiGraph`
//!   but returns a simple `DiGraph`, one edge per remaining pair. Here parallel
//!   edges are kept apart: of a pair `u → v` that stays, the lowest edge id stays
//!   and its parallels are reported redundant, so the edges left form exactly
//!   NetworkX's pairs. A self-loop is a cycle; a cyclic network is refused, as
//!   NetworkX refuses it.
//! * Dominators: as `nx.immediate_dominators` (NetworkX 3.6 leaves the root out
//!   of its dict, as we do); parallel edges and self-loops change nothing.
//! * Articulation points: as `nx.articulation_points` on the undirected view;
//!   parallel edges and self-loops change nothing.
//! * Bridges: each directed edge is one undirected edge, so two edges between the
//!   same pair, in either direction, are never bridges, and a self-loop never
//!   is. This is `nx.bridges` on an `nx.MultiGraph` holding one edge per directed
//!   edge. (`MultiDiGraph.to_undirected()` is different: it merges `u → v` and
//!   `v → u` when they have the same key, so there they may form a bridge.)
//! * Condensation: the same components and component edges as `nx.condensation`,
//!   with the members and the joining edges recorded on the new network.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};
use serde_json::{Map, Value, json};

use super::cycles::scc_labels;
use crate::error::{Error, Result};
use crate::network::graph::{Attributes, EdgeId, Network};

/// "None" in the `u32` arrays: unvisited, no parent, not a candidate.
const NONE: u32 = u32::MAX;

/// The 64-bit words of one node's reachability bitset in
/// [`Network::transitive_reduction`]: a block holds `64 × WORDS` targets.
const WORDS: usize = 8;

/// Targets per block of [`Network::transitive_reduction`].
const BLOCK: usize = 64 * WORDS;

type Bits = [u64; WORDS];

/// The edges one node's bounded search in [`Network::transitive_reduction`]
/// may look at: this many, plus [`SEARCH_PER_CHILD`] per distinct child.
const SEARCH_BASE: usize = 256;

/// See [`SEARCH_BASE`].
const SEARCH_PER_CHILD: usize = 16;

/// A DAG's distinct edges by topological position (see
/// [`Network::transitive_reduction`]): each node's distinct children sorted by
/// position, and for each such pair the run of its parallel edges in `edges`.
struct Children {
    /// `kid[start[u]..start[u + 1]]`: the children of the node at position `u`.
    start: Vec<usize>,
    kid: Vec<u32>,
    /// `edges[run[k]..run[k + 1]]`: the edges of the pair `k`, lowest id first.
    run: Vec<usize>,
    /// (child position, id) of every edge, grouped by pair.
    edges: Vec<(u32, EdgeId)>,
}

impl Children {
    fn of(&self, u: usize) -> std::ops::Range<usize> {
        self.start[u]..self.start[u + 1]
    }
}

impl Network {
    /// The redundant edges of a DAG: the ids (ascending) of the edges whose
    /// removal leaves every node reaching exactly what it reached before. An edge
    /// `u → v` is redundant when `v` is reachable from `u` by another path; of
    /// parallel edges `u → v` that are not, the lowest id is kept and the others
    /// are redundant. Removing the returned edges gives the transitive reduction
    /// (unique for a DAG): the same reachability with the fewest edges.
    ///
    /// Algorithm, on a topological order: `u → v` is redundant iff `v` is a
    /// strict descendant of another child of `u`, so (parallels aside) only a
    /// node with two or more distinct children can have a redundant edge.
    /// 1. A search per such node: from its children in topological order,
    ///    marking what they reach, never past the last child's position; a
    ///    child found marked when its turn comes is redundant, one found
    ///    unmarked is not. The search may look at 256 edges plus 16 per child,
    ///    which settles every child in most dependency graphs, whose shortcuts
    ///    are short (and every one of a node whose children lie on one chain).
    /// 2. The children the searches did not get to, the *candidates*, in blocks
    ///    of 512 consecutive in topological order: for a block, a walk backwards
    ///    from its candidates finds their ancestors, and those, in reverse
    ///    topological order, get the bitset of the block's candidates they reach
    ///    (the union of their children's bitsets and the children themselves).
    ///    A node's edge to a candidate is redundant iff the union of its
    ///    children's bitsets holds it.
    ///
    /// Complexity: O(V + E log d) to sort the children (d the largest
    /// out-degree) and O(V + E) for the bounded searches; then, per block,
    /// O(A + E_A) steps of 8 words each for its A ancestors and their E_A
    /// edges: at worst O((V + E) · C / 64) word operations in all for C
    /// candidates, C ≤ V. A chain or a tree has none. O(V + E) extra space. Measured on one core: 0.2 s for a random
    /// DAG of 100k nodes and 300k edges whose edges lead to uniformly random
    /// later nodes (almost every node reaches most of the later ones: no
    /// search settles much), about 1 s with 600k edges; 0.07 s for a chain of
    /// 1M nodes with a shortcut from its start to every other node.
    ///
    /// # Errors
    /// [`Error::CycleDetected`](crate::Error::CycleDetected) with operation
    /// `"a transitive reduction"` and a witness cycle when the network has a
    /// cycle (a self-loop included).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["app", "lib", "log"])?;
    /// let a = net.add_edge("app", "lib", 1.0)?;
    /// let b = net.add_edge("lib", "log", 1.0)?;
    /// let c = net.add_edge("app", "log", 1.0)?; // implied by app → lib → log
    /// let d = net.add_edge("app", "lib", 1.0)?; // a parallel of `a`
    /// assert_eq!(net.transitive_reduction()?, [c, d]);
    ///
    /// net.add_edge("log", "app", 1.0)?;
    /// assert_eq!(net.transitive_reduction().unwrap_err().code(), "cycle_detected");
    /// # let _ = (a, b);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn transitive_reduction(&self) -> Result<Vec<EdgeId>> {
        self.transitive_reduction_within(u64::MAX)
    }

    /// [`Network::transitive_reduction`], giving up when its second stage would
    /// take more than `max_work` steps (one step: an ancestor or an edge of a
    /// block's pass, 8 words of bitset each). The first stage and the cycle
    /// check are O(V + E log d) and always run; a chain, a tree or a sparse
    /// dependency graph never reaches the limit, a dense 1M-node DAG can.
    ///
    /// # Errors
    /// As [`Network::transitive_reduction`], and [`Error::WorkExceeded`] (code
    /// `invalid_value`, field `method`) when the work would pass `max_work`: its
    /// message advises a larger `max_work`, or the reduction of a part copied
    /// with [`Network::extract`].
    pub fn transitive_reduction_within(&self, max_work: u64) -> Result<Vec<EdgeId>> {
        let children = self.children_by_position()?;
        let mut redundant = vec![false; children.kid.len()];
        let unsettled = search_shortcuts(&children, &mut redundant, SEARCH_BASE, SEARCH_PER_CHILD);
        if unsettled.iter().any(|&u| u)
            && !reach_by_blocks(&children, &unsettled, &mut redundant, max_work)
        {
            return Err(Error::WorkExceeded {
                field: "method".into(),
                operation: format!(
                    "the transitive reduction of {} nodes and {} edges this densely connected",
                    self.node_count(),
                    self.edge_count()
                ),
                max_work,
            });
        }
        let mut out = Vec::new();
        for (k, &gone) in redundant.iter().enumerate() {
            let from = if gone {
                children.run[k]
            } else {
                children.run[k] + 1
            };
            out.extend(
                children.edges[from..children.run[k + 1]]
                    .iter()
                    .map(|&(_, id)| id),
            );
        }
        out.sort_unstable();
        Ok(out)
    }

    /// The [`Children`] of a DAG, nodes numbered by a topological order (an
    /// edge goes from a lower position to a higher one); the cycle error
    /// otherwise. O(V + E log d).
    fn children_by_position(&self) -> Result<Children> {
        let g = self.graph();
        let (order, _) = self
            .kahn(false, false)
            .ok_or_else(|| self.cycle_error("a transitive reduction"))?;
        let n = order.len();
        let mut pos = vec![NONE; g.node_bound()];
        for (i, v) in order.iter().enumerate() {
            pos[v.index()] = i as u32;
        }
        // Every edge as (child position, id), in rows by parent position, each
        // row sorted so that the parallels of a pair are adjacent, lowest id first.
        let mut row_start = vec![0usize; n + 1];
        for e in g.edge_references() {
            row_start[pos[e.source().index()] as usize + 1] += 1;
        }
        for i in 1..=n {
            row_start[i] += row_start[i - 1];
        }
        let mut edges: Vec<(u32, EdgeId)> = vec![(0, 0); g.edge_count()];
        let mut next = row_start.clone();
        for e in g.edge_references() {
            let slot = &mut next[pos[e.source().index()] as usize];
            edges[*slot] = (pos[e.target().index()], e.weight().id);
            *slot += 1;
        }
        drop(next);
        let mut start = Vec::with_capacity(n + 1);
        let mut kid: Vec<u32> = Vec::new();
        let mut run: Vec<usize> = Vec::new();
        for u in 0..n {
            start.push(kid.len());
            let row = &mut edges[row_start[u]..row_start[u + 1]];
            row.sort_unstable();
            for (j, &(c, _)) in row.iter().enumerate() {
                if j == 0 || row[j - 1].0 != c {
                    kid.push(c);
                    run.push(row_start[u] + j);
                }
            }
        }
        start.push(kid.len());
        run.push(edges.len());
        Ok(Children {
            start,
            kid,
            run,
            edges,
        })
    }

    /// The immediate dominator of every node reachable from `root`, root left
    /// out, as `(node, immediate dominator)` in node index order. `D` dominates
    /// `X` when every path from `root` to `X` passes through `D`; the immediate
    /// dominator is the strict dominator closest to `X`. Nodes not reachable from
    /// `root` are left out; an index that is not a node gives an empty list.
    ///
    /// Algorithm: Lengauer and Tarjan, "A fast algorithm for finding dominators
    /// in a flowgraph", ACM TOPLAS 1(1), 1979, with path compression (their
    /// "simple" version), iterative throughout. Not the iterative algorithm of
    /// Cooper, Harvey and Kennedy that petgraph's `simple_fast` implements: it
    /// is quadratic when many nodes join a deep dominator chain to a shallow
    /// node (a chain of k nodes, each with a side node that the root also
    /// reaches directly: 2.4 s at k = 40,000, four times as long at each
    /// doubling, where this takes 7 ms), and petgraph's version keeps a hash
    /// set of predecessors per node (4.5 s for a random graph of 1M nodes and
    /// 3M edges, against 2 s here). Complexity: O(E log V) time, O(V) extra
    /// space.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// // Every path from "start" to "ship" goes through "build"; "test" and
    /// // "lint" each have a way round the other.
    /// let mut net = Network::new();
    /// net.add_nodes(["start", "build", "test", "lint", "ship"])?;
    /// for (a, b) in [("start", "build"), ("build", "test"), ("build", "lint"),
    ///                ("test", "ship"), ("lint", "ship")] {
    ///     net.add_edge(a, b, 1.0)?;
    /// }
    /// let root = net.require("root", "start")?;
    /// let idom: Vec<(&str, &str)> = net
    ///     .immediate_dominators(root)
    ///     .into_iter()
    ///     .map(|(v, d)| (net.id_at(v), net.id_at(d)))
    ///     .collect();
    /// assert_eq!(idom, [("build", "start"), ("test", "build"), ("lint", "build"), ("ship", "build")]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn immediate_dominators(&self, root: NodeIndex) -> Vec<(NodeIndex, NodeIndex)> {
        let Some(tree) = self.dominator_tree(root) else {
            return Vec::new();
        };
        let mut out: Vec<(NodeIndex, NodeIndex)> = (1..tree.vertex.len())
            .map(|w| (tree.vertex[w], tree.vertex[tree.idom[w] as usize]))
            .collect();
        out.sort_unstable_by_key(|&(v, _)| v);
        out
    }

    /// The strict dominators of `target` from `root`, nearest first: its
    /// immediate dominator, that node's immediate dominator, and so on up to and
    /// including `root`: the nodes every path from `root` to `target` passes
    /// through (the single points of failure between them). `None` when
    /// `target` is not reachable from `root` (or either index is not a node);
    /// empty when `target == root`.
    ///
    /// Complexity: that of [`Network::immediate_dominators`], plus the length
    /// of the answer.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d", "island"])?;
    /// for (x, y) in [("a", "b"), ("b", "c"), ("b", "d"), ("c", "d")] {
    ///     net.add_edge(x, y, 1.0)?;
    /// }
    /// let [a, d, island] = ["a", "d", "island"].map(|id| net.index_of(id).unwrap());
    /// assert_eq!(net.ids(&net.dominators_of(a, d).unwrap()), ["b", "a"]);
    /// assert_eq!(net.dominators_of(a, a), Some(vec![]));
    /// assert_eq!(net.dominators_of(a, island), None);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn dominators_of(&self, root: NodeIndex, target: NodeIndex) -> Option<Vec<NodeIndex>> {
        let g = self.graph();
        if !g.contains_node(root) || !g.contains_node(target) {
            return None;
        }
        if root == target {
            return Some(Vec::new());
        }
        let tree = self.dominator_tree(root)?;
        let mut w = tree.pre[target.index()];
        if w == NONE {
            return None;
        }
        let mut out = Vec::new();
        while w != 0 {
            w = tree.idom[w as usize];
            out.push(tree.vertex[w as usize]);
        }
        Some(out)
    }

    /// The dominator tree of the nodes reachable from `root`, in DFS preorder
    /// numbers (see [`DominatorTree`]); `None` if `root` is not a node.
    fn dominator_tree(&self, root: NodeIndex) -> Option<DominatorTree> {
        let g = self.graph();
        if !g.contains_node(root) {
            return None;
        }
        let out = self.rows(Outgoing);
        let inn = self.rows(Incoming);
        // Depth-first preorder from the root, with each node's tree parent.
        let mut pre = vec![NONE; g.node_bound()];
        let mut vertex: Vec<NodeIndex> = Vec::new();
        let mut parent: Vec<u32> = Vec::new();
        let mut call: Vec<(u32, std::slice::Iter<'_, NodeIndex>)> = Vec::new();
        pre[root.index()] = 0;
        vertex.push(root);
        parent.push(NONE);
        call.push((0, out.neighbors(root).iter()));
        while let Some((v, successors)) = call.last_mut() {
            crate::budget::charge(1);
            if let Some(&w) = successors.next() {
                if pre[w.index()] == NONE {
                    let number = vertex.len() as u32;
                    pre[w.index()] = number;
                    vertex.push(w);
                    parent.push(*v);
                    call.push((number, out.neighbors(w).iter()));
                }
            } else {
                call.pop();
            }
        }
        let n = vertex.len();
        // Lengauer–Tarjan on preorder numbers. `ancestor` and `label` are the
        // link-eval forest; `bucket` lists, per node, the nodes whose
        // semidominator it is (one linked list per node in `bucket_next`).
        let mut semi: Vec<u32> = (0..n as u32).collect();
        let mut label: Vec<u32> = (0..n as u32).collect();
        let mut ancestor = vec![NONE; n];
        let mut idom = vec![0u32; n];
        let mut bucket_head = vec![NONE; n];
        let mut bucket_next = vec![NONE; n];
        let mut path: Vec<u32> = Vec::new();
        for w in (1..n).rev() {
            for &v in inn.neighbors(vertex[w]) {
                let v = pre[v.index()];
                if v == NONE {
                    continue; // a predecessor the root does not reach
                }
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                if semi[u as usize] < semi[w] {
                    semi[w] = semi[u as usize];
                }
            }
            let s = semi[w] as usize;
            bucket_next[w] = bucket_head[s];
            bucket_head[s] = w as u32;
            let p = parent[w];
            ancestor[w] = p;
            let mut v = std::mem::replace(&mut bucket_head[p as usize], NONE);
            while v != NONE {
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                idom[v as usize] = if semi[u as usize] < semi[v as usize] {
                    u
                } else {
                    p
                };
                v = bucket_next[v as usize];
            }
        }
        for w in 1..n {
            if idom[w] != semi[w] {
                idom[w] = idom[idom[w] as usize];
            }
        }
        Some(DominatorTree { pre, vertex, idom })
    }

    /// The articulation points of the undirected view (each edge read both
    /// ways), in index order: the nodes whose removal leaves more weakly
    /// connected components than before. Parallel edges and self-loops change
    /// nothing. As `nx.articulation_points(G.to_undirected())`.
    ///
    /// Algorithm: Hopcroft and Tarjan, "Algorithm 447: efficient algorithms for
    /// graph manipulation", CACM 16(6), 1973: one depth-first search with
    /// low points, iterative. Complexity: O(V + E) time and extra space.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// // Two triangles sharing "hub", and a tail hanging off "c".
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "hub", "c", "d", "tail"])?;
    /// for (x, y) in [("a", "b"), ("b", "hub"), ("hub", "a"), ("hub", "c"),
    ///                ("c", "d"), ("d", "hub"), ("tail", "c")] {
    ///     net.add_edge(x, y, 1.0)?;
    /// }
    /// assert_eq!(net.ids(&net.articulation_points()), ["hub", "c"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn articulation_points(&self) -> Vec<NodeIndex> {
        let cuts = self.cuts();
        self.graph()
            .node_indices()
            .filter(|v| cuts.articulation[v.index()])
            .collect()
    }

    /// The bridges of the undirected view, as edge ids ascending: the edges
    /// whose removal disconnects their two endpoints. Each directed edge is one
    /// undirected edge, so two edges between the same pair (in either
    /// direction) are never bridges, and neither is a self-loop. As `nx.bridges`
    /// on an `nx.MultiGraph` with one edge per directed edge (see the module
    /// docs for how that differs from `MultiDiGraph.to_undirected()`).
    ///
    /// Algorithm: the depth-first search of [`Network::articulation_points`]
    /// (Hopcroft–Tarjan low points; Tarjan, "A note on finding the bridges of a
    /// graph", IPL 2(6), 1974): a tree edge is a bridge when nothing below it
    /// reaches above it by another edge. The search skips the tree edge it came
    /// by, not every edge to the parent, which is what keeps a parallel edge
    /// from being a bridge. Complexity: O(V + E) time and extra space.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// let ab = net.add_edge("a", "b", 1.0)?;
    /// let bc = net.add_edge("b", "c", 1.0)?;
    /// assert_eq!(net.bridges(), [ab, bc]);
    /// net.add_edge("c", "b", 1.0)?; // b and c now have two edges
    /// assert_eq!(net.bridges(), [ab]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn bridges(&self) -> Vec<EdgeId> {
        let mut out = self.cuts().bridges;
        out.sort_unstable();
        out
    }

    /// Articulation points and bridges in one search (see
    /// [`Network::articulation_points`]).
    fn cuts(&self) -> Cuts {
        let g = self.graph();
        let bound = g.node_bound();
        // The undirected view in rows: (neighbor, edge slot), self-loops left out.
        let mut ids: Vec<EdgeId> = Vec::with_capacity(g.edge_count());
        let mut start = vec![0usize; bound + 1];
        for e in g.edge_references() {
            if e.source() != e.target() {
                start[e.source().index() + 1] += 1;
                start[e.target().index() + 1] += 1;
            }
        }
        for i in 1..=bound {
            start[i] += start[i - 1];
        }
        let mut row = vec![(0u32, 0u32); start[bound]];
        let mut next = start.clone();
        for e in g.edge_references() {
            let (a, b) = (e.source().index(), e.target().index());
            if a == b {
                continue;
            }
            let slot = ids.len() as u32;
            ids.push(e.weight().id);
            row[next[a]] = (b as u32, slot);
            next[a] += 1;
            row[next[b]] = (a as u32, slot);
            next[b] += 1;
        }
        drop(next);

        // disc[v]: DFS number, from 1 (0: not visited); low[v]: the lowest DFS
        // number reachable from v's subtree by one edge other than v's tree edge.
        let mut disc = vec![0u32; bound];
        let mut low = vec![0u32; bound];
        let mut articulation = vec![false; bound];
        let mut bridges = Vec::new();
        // Call frames: node, the slot of the tree edge it was reached by, and
        // the next position in its row.
        let mut call: Vec<(u32, u32, usize)> = Vec::new();
        let mut time = 0u32;
        for root in g.node_indices() {
            let r = root.index();
            if disc[r] != 0 {
                continue;
            }
            time += 1;
            disc[r] = time;
            low[r] = time;
            call.push((r as u32, NONE, start[r]));
            let mut root_children = 0;
            while let Some(frame) = call.last_mut() {
                crate::budget::charge(1);
                let v = frame.0 as usize;
                if frame.2 < start[v + 1] {
                    let (w, slot) = row[frame.2];
                    frame.2 += 1;
                    if slot == frame.1 {
                        continue;
                    }
                    let w = w as usize;
                    if disc[w] == 0 {
                        time += 1;
                        disc[w] = time;
                        low[w] = time;
                        if v == r {
                            root_children += 1;
                        }
                        call.push((w as u32, slot, start[w]));
                    } else {
                        low[v] = low[v].min(disc[w]);
                    }
                } else {
                    let slot = frame.1;
                    call.pop();
                    if let Some(&(p, _, _)) = call.last() {
                        let p = p as usize;
                        low[p] = low[p].min(low[v]);
                        if low[v] >= disc[p] && p != r {
                            articulation[p] = true;
                        }
                        if low[v] > disc[p] {
                            bridges.push(ids[slot as usize]);
                        }
                    }
                }
            }
            if root_children >= 2 {
                articulation[r] = true;
            }
        }
        Cuts {
            articulation,
            bridges,
        }
    }

    /// The condensation: a new network with one node per strongly connected
    /// component. See [`Network::condensation_with_mapping`], which also says
    /// which component each node went to.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    /// use serde_json::json;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 2.0)?;
    /// net.add_edge("b", "a", 1.0)?;
    /// net.add_edge("b", "c", 5.0)?;
    /// net.add_edge("a", "c", 3.0)?;
    /// let dag = net.condensation();
    /// assert!(dag.is_dag());
    /// assert_eq!(dag.node_ids().collect::<Vec<_>>(), ["a", "c"]);
    /// let ab = dag.node("a").unwrap();
    /// assert_eq!(ab.data.as_deref(), Some(&json!({"members": ["a", "b"]})));
    /// assert_eq!(ab.attributes.get("size"), Some(&json!(2)));
    /// let edge = dag.edges().next().unwrap();
    /// assert_eq!((edge.source, edge.target, edge.weight), ("a", "c", 3.0));
    /// assert_eq!(edge.attributes.get("edges"), Some(&json!(2)));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn condensation(&self) -> Network {
        self.condensation_with_mapping().0
    }

    /// The condensation, and for every node (in index order) the node of the
    /// new network that stands for its component.
    ///
    /// The new network has one node per strongly connected component (as
    /// [`Network::strongly_connected_components`] finds them), in the order of
    /// their first members' indices. A component's node takes its first
    /// member's id, has data `{"members": [every member's id, in index order]}`
    /// and the attribute `"size"` (the member count). There is one edge per
    /// ordered pair of distinct components joined by at least one edge, in the
    /// order of the lowest id among the edges joining them; its weight is the
    /// lightest joining edge's, and its attribute `"edges"` counts them. Edges
    /// inside a component (and self-loops) leave no trace. The result is a DAG,
    /// with no name and no description.
    ///
    /// Algorithm: iterative Tarjan, then the edges between components sorted by
    /// pair (to merge them) and by lowest id (to order them). Complexity:
    /// O(V + E log E) time, O(V + E) extra space. On large inputs the cost is
    /// building the new network, whose every node carries JSON data and an
    /// attribute: about 2.5 µs a component (2.5 s for a chain of 1M nodes, each
    /// its own component; 0.25 s for 100k).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["x", "y", "z"])?;
    /// net.add_edge("y", "z", 1.0)?;
    /// net.add_edge("z", "y", 1.0)?;
    /// let (dag, mapping) = net.condensation_with_mapping();
    /// let to: Vec<&str> = mapping.iter().map(|&(_, c)| dag.id_at(c)).collect();
    /// assert_eq!(to, ["x", "y", "y"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn condensation_with_mapping(&self) -> (Network, Vec<(NodeIndex, NodeIndex)>) {
        let g = self.graph();
        let labels = scc_labels(
            g,
            &self.follow(
                Outgoing,
                crate::network::graph::RelationFilter::every_edge(),
            ),
        );
        // comp[v]: the position of v's component in first-member order.
        let mut slot = vec![NONE; labels.count];
        let mut comp = vec![NONE; g.node_bound()];
        let mut start = vec![0usize; labels.count + 1];
        let mut count = 0usize;
        for v in g.node_indices() {
            let l = labels.comp[v.index()] as usize;
            if slot[l] == NONE {
                slot[l] = count as u32;
                count += 1;
            }
            comp[v.index()] = slot[l];
            start[slot[l] as usize + 1] += 1;
        }
        drop(slot);
        for i in 1..=count {
            start[i] += start[i - 1];
        }
        // The members of component c: members[start[c]..start[c + 1]], by index.
        let mut members = vec![NodeIndex::end(); start[count]];
        let mut next = start.clone();
        for v in g.node_indices() {
            let c = comp[v.index()] as usize;
            members[next[c]] = v;
            next[c] += 1;
        }
        drop(next);
        // The edges between components, grouped by pair: (source, target,
        // lowest id, lightest weight, count), then in order of lowest id.
        let mut crossing: Vec<(u32, u32, EdgeId, f64)> = g
            .edge_references()
            .filter_map(|e| {
                let (a, b) = (comp[e.source().index()], comp[e.target().index()]);
                (a != b).then(|| (a, b, e.weight().id, e.weight().weight))
            })
            .collect();
        crossing.sort_unstable_by_key(|&(a, b, id, _)| (a, b, id));
        let mut joins: Vec<(u32, u32, EdgeId, f64, u64)> = Vec::new();
        for (a, b, id, w) in crossing {
            match joins.last_mut() {
                Some(j) if (j.0, j.1) == (a, b) => {
                    j.3 = j.3.min(w);
                    j.4 += 1;
                }
                _ => joins.push((a, b, id, w, 1)),
            }
        }
        joins.sort_unstable_by_key(|j| j.2);

        let mut dag = Network::with_capacity(count, joins.len());
        // A result, not a network anyone comes back to: no window of changes.
        dag.set_change_window(crate::network::ChangeWindow::OFF);
        for c in 0..count {
            let group = &members[start[c]..start[c + 1]];
            let ids: Vec<Value> = group.iter().map(|&v| Value::from(self.id_at(v))).collect();
            let mut attributes = Map::new();
            attributes.insert("size".into(), Value::from(group.len() as u64));
            // The ids are those of this network's nodes, distinct and valid,
            // and the data two levels deep: nothing to validate again.
            dag.insert_node_unchecked(
                self.id_at(group[0]),
                Some(json!({ "members": ids })),
                Attributes::from_map(attributes),
            );
        }
        for (a, b, _, w, edges) in joins {
            let mut attributes = Map::new();
            attributes.insert("edges".into(), Value::from(edges));
            // A fresh network numbers its nodes 0, 1, ... in insertion order.
            dag.insert_edge_unchecked(
                NodeIndex::new(a as usize),
                NodeIndex::new(b as usize),
                w,
                Attributes::from_map(attributes),
            );
        }
        let mapping = g
            .node_indices()
            .map(|v| (v, NodeIndex::new(comp[v.index()] as usize)))
            .collect();
        (dag, mapping)
    }
}

/// The dominator tree of the nodes a root reaches, numbered in DFS preorder
/// (the root is 0).
struct DominatorTree {
    /// The preorder number of each node index; [`NONE`] if unreachable.
    pre: Vec<u32>,
    /// The node of each preorder number.
    vertex: Vec<NodeIndex>,
    /// The immediate dominator of each preorder number (the root's is itself).
    idom: Vec<u32>,
}

/// What [`Network::cuts`] finds.
struct Cuts {
    /// Per node index: whether it is an articulation point.
    articulation: Vec<bool>,
    /// The bridges' ids, unsorted.
    bridges: Vec<EdgeId>,
}

/// Lengauer–Tarjan's EVAL: the node of least semidominator on the forest path
/// from `v` up to (not including) its tree's root, compressing that path.
fn eval(v: u32, ancestor: &mut [u32], label: &mut [u32], semi: &[u32], path: &mut Vec<u32>) -> u32 {
    if ancestor[v as usize] == NONE {
        return v;
    }
    // COMPRESS without recursion: collect the nodes whose ancestor has an
    // ancestor, then update them from the top down.
    path.clear();
    let mut x = v;
    while ancestor[ancestor[x as usize] as usize] != NONE {
        path.push(x);
        x = ancestor[x as usize];
    }
    while let Some(x) = path.pop() {
        let (x, a) = (x as usize, ancestor[x as usize] as usize);
        if semi[label[a] as usize] < semi[label[x] as usize] {
            label[x] = label[a];
        }
        ancestor[x] = ancestor[a];
    }
    label[v as usize]
}

/// The first stage of [`Network::transitive_reduction`]: for each node with two
/// or more distinct children, a search from the children in topological order,
/// looking at no more than `base` edges plus `per_child` per child. A child is settled when the search
/// gets to it (redundant if marked); returns, per pair, whether it was left
/// unsettled because the budget ran out first.
fn search_shortcuts(
    children: &Children,
    redundant: &mut [bool],
    base: usize,
    per_child: usize,
) -> Vec<bool> {
    let n = children.start.len() - 1;
    let kid = &children.kid;
    let mut unsettled = vec![false; kid.len()];
    // mark[x] == u: the search of u reached x.
    let mut mark = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    for u in 0..n {
        let own = children.of(u);
        if own.len() < 2 {
            continue;
        }
        // Nothing past the last child can reach a child.
        let last = kid[own.end - 1];
        let mut budget = base + per_child * own.len();
        let stamp = u as u32;
        'children: for k in own.clone() {
            let c = kid[k];
            if mark[c as usize] == stamp {
                redundant[k] = true;
                continue;
            }
            mark[c as usize] = stamp;
            stack.clear();
            stack.push(c);
            while let Some(x) = stack.pop() {
                crate::budget::charge(1 + children.of(x as usize).len() as u64);
                for j in children.of(x as usize) {
                    let y = kid[j];
                    if y > last {
                        break; // children are sorted by position
                    }
                    if budget == 0 {
                        unsettled[k + 1..own.end].fill(true);
                        break 'children;
                    }
                    budget -= 1;
                    if mark[y as usize] != stamp {
                        mark[y as usize] = stamp;
                        stack.push(y);
                    }
                }
            }
        }
    }
    unsettled
}

/// The second stage of [`Network::transitive_reduction`]: the unsettled pairs,
/// by reachability bitsets over blocks of their children.
/// False, leaving `redundant` partly filled, when the blocks' passes would take
/// more than `max_work` steps.
fn reach_by_blocks(
    children: &Children,
    unsettled: &[bool],
    redundant: &mut [bool],
    max_work: u64,
) -> bool {
    let mut work: u64 = 0;
    let n = children.start.len() - 1;
    let kid = &children.kid;
    // Candidates, ranked in topological order; every node's distinct parents.
    let mut rank = vec![NONE; n];
    let mut candidates: Vec<u32> = Vec::new();
    let mut parent_start = vec![0usize; n + 1];
    for u in 0..n {
        for k in children.of(u) {
            parent_start[kid[k] as usize + 1] += 1;
            if unsettled[k] {
                rank[kid[k] as usize] = 0;
            }
        }
    }
    for (c, r) in rank.iter_mut().enumerate() {
        if *r != NONE {
            *r = candidates.len() as u32;
            candidates.push(c as u32);
        }
    }
    for i in 1..=n {
        parent_start[i] += parent_start[i - 1];
    }
    let mut parents = vec![0u32; kid.len()];
    let mut next = parent_start.clone();
    for u in 0..n {
        for k in children.of(u) {
            let slot = &mut next[kid[k] as usize];
            parents[*slot] = u as u32;
            *slot += 1;
        }
    }
    drop(next);

    // Per block: `stamp[v] == block` marks the ancestors of its candidates,
    // `local[v]` is v's bitset in `reach`.
    let mut stamp = vec![NONE; n];
    let mut local = vec![0u32; n];
    let mut ancestors: Vec<u32> = Vec::new();
    let mut reach: Vec<Bits> = Vec::new();
    for (block, targets) in candidates.chunks(BLOCK).enumerate() {
        let block = block as u32;
        // The bit of a candidate of this block.
        let bit = |c: usize| {
            (rank[c] != NONE && rank[c] / BLOCK as u32 == block).then(|| rank[c] as usize % BLOCK)
        };
        ancestors.clear();
        for &t in targets {
            stamp[t as usize] = block;
            ancestors.push(t);
        }
        let mut head = 0;
        while let Some(&v) = ancestors.get(head) {
            head += 1;
            let v = v as usize;
            crate::budget::charge(1 + (parent_start[v + 1] - parent_start[v]) as u64);
            for &p in &parents[parent_start[v]..parent_start[v + 1]] {
                if stamp[p as usize] != block {
                    stamp[p as usize] = block;
                    ancestors.push(p);
                }
            }
        }
        // Reverse topological order: sort the ancestors, or scan the span of
        // positions they lie in when that is cheaper.
        let top = *targets.last().unwrap_or(&0) as usize;
        let bottom = ancestors.iter().copied().min().unwrap_or(0) as usize;
        if top + 1 - bottom <= ancestors.len().saturating_mul(16) {
            ancestors.clear();
            ancestors.extend(
                (bottom..=top)
                    .rev()
                    .filter(|&v| stamp[v] == block)
                    .map(|v| v as u32),
            );
        } else {
            ancestors.sort_unstable_by(|a, b| b.cmp(a));
        }
        reach.clear();
        reach.resize(ancestors.len(), [0; WORDS]);
        for (i, &u) in ancestors.iter().enumerate() {
            let u = u as usize;
            work = work.saturating_add(1 + children.of(u).len() as u64);
            if work > max_work {
                return false;
            }
            local[u] = i as u32;
            // The block's candidates strictly below u's children, and u's
            // children among them.
            let mut below: Bits = [0; WORDS];
            let mut own: Bits = [0; WORDS];
            for k in children.of(u) {
                let c = kid[k] as usize;
                if c > top {
                    break; // children are sorted: none further reaches the block
                }
                if stamp[c] != block {
                    continue;
                }
                let r = &reach[local[c] as usize];
                for w in 0..WORDS {
                    below[w] |= r[w];
                }
                if let Some(b) = bit(c) {
                    own[b / 64] |= 1 << (b % 64);
                }
            }
            for k in children.of(u) {
                let c = kid[k] as usize;
                if c > top {
                    break;
                }
                if unsettled[k]
                    && let Some(b) = bit(c)
                    && below[b / 64] >> (b % 64) & 1 == 1
                {
                    redundant[k] = true;
                }
            }
            let r = &mut reach[i];
            for w in 0..WORDS {
                r[w] = below[w] | own[w];
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reduction_past_its_work_limit_is_refused_and_within_it_is_exact() {
        // A dense DAG: 300 nodes, each with an edge to a third of the later ones.
        let mut net = Network::new();
        let ids: Vec<String> = (0..300).map(|i| format!("n{i}")).collect();
        net.add_nodes(ids.iter().map(String::as_str)).unwrap();
        let mut state = 7u64;
        for u in 0..300 {
            for v in u + 1..300 {
                if crate::network::algo::rng::splitmix64(&mut state).is_multiple_of(3) {
                    net.add_edge(&ids[u], &ids[v], 1.0).unwrap();
                }
            }
        }
        let err = net.transitive_reduction_within(1_000).unwrap_err();
        assert_eq!(err.code(), "invalid_value");
        assert!(
            matches!(
                err,
                Error::WorkExceeded {
                    max_work: 1_000,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("`Network::extract`"), "{err}");
        assert_eq!(
            net.transitive_reduction_within(u64::MAX).unwrap(),
            net.transitive_reduction().unwrap()
        );
    }

    /// A small generator, so that the test needs no dependency.
    fn draw(state: &mut u64, m: usize) -> usize {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*state >> 33) as usize) % m
    }

    /// The redundant pairs found with the given search budget, then blocks.
    fn reduce(children: &Children, base: usize, per_child: usize) -> Vec<bool> {
        let mut redundant = vec![false; children.kid.len()];
        let unsettled = search_shortcuts(children, &mut redundant, base, per_child);
        assert!(reach_by_blocks(
            children,
            &unsettled,
            &mut redundant,
            u64::MAX
        ));
        redundant
    }

    /// The two stages answer alike: with no budget the blocks settle almost
    /// everything, with an unbounded one the searches settle everything, and any
    /// mix in between gives the same pairs.
    #[test]
    fn the_search_and_the_blocks_agree() {
        let mut state = 11u64;
        for case in 0..300 {
            let n = if case % 50 == 0 {
                1500
            } else {
                2 + draw(&mut state, 40)
            };
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, draw(&mut state, i + 1));
            }
            let mut net = Network::new();
            let ids: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
            net.add_nodes(ids.iter().map(String::as_str)).unwrap();
            for _ in 0..draw(&mut state, 4 * n) {
                let (a, b) = (draw(&mut state, n), draw(&mut state, n));
                if a != b {
                    let (a, b) = (order[a.min(b)], order[a.max(b)]);
                    net.add_edge(&ids[a], &ids[b], 1.0).unwrap();
                }
            }
            let children = net.children_by_position().unwrap();
            let unbounded = reduce(&children, usize::MAX / 2, 0);
            assert_eq!(reduce(&children, 0, 0), unbounded, "case {case}");
            let (base, per_child) = (draw(&mut state, 50), draw(&mut state, 4));
            assert_eq!(reduce(&children, base, per_child), unbounded, "case {case}");
        }
    }
}
