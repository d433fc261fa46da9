//! Simple paths between two nodes: all of them up to a length
//! ([`Network::all_simple_paths`]), and the `k` shortest
//! ([`Network::k_shortest_paths`], Yen's algorithm).
//!
//! A *simple path* visits no node twice. Both functions answer in node
//! sequences, as NetworkX's `all_simple_paths` and `shortest_simple_paths` do
//! on a simple digraph:
//! * **Parallel edges** do not make distinct paths. Between two consecutive
//!   nodes a path takes the lightest of their parallel edges, ties to the lowest
//!   edge id, and its `edges` and `total_weight` are those of that edge, whether
//!   paths are ranked by weight or by hops. (NetworkX's `all_simple_paths` on a
//!   multigraph lists a node sequence once per combination of parallel edges;
//!   the set of sequences is the same.)
//! * **Self-loops** are never part of a simple path.
//! * **`from == to`** gives the one 0-hop path `[from]`, as NetworkX 3.x does for
//!   both functions (a cycle back to the start is not simple).
//!
//! The neighbours of a node are ranked by the oldest edge to each: edge ids grow
//! with insertion, so this is the order in which the node was first linked to
//! each neighbour.
//!
//! **Work bound.** The number of simple paths grows exponentially with the size
//! of a graph, so both functions take `max_steps`, a bound on their work counted
//! in *steps*: one per edge read (listing a node's out-edges, trying a
//! neighbour, the pruning search of [`Network::all_simple_paths`]), one per path
//! compared with a root in Yen's algorithm, and one per node of a path built.
//! Past the bound they return what they have, with
//! [`SimplePaths::stopped_early`] set. Memory is bounded by the same count: no
//! path is built without paying for its nodes.
//!
//! Both searches are iterative (an explicit stack, a heap, a queue), never
//! recursive: a path may be a million nodes long.

use std::cmp::Ordering;

use dary_heap::QuaternaryHeap;
use hashbrown::HashSet;
use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, NodeIndexable};

use super::following::Following;
use super::nearest::Nearest;
use super::options::Weighted;
use super::paths::Path;
use crate::error::{Error, Result};
use crate::network::graph::{EdgeId, Network, RelationFilter};

/// Paths found by [`Network::all_simple_paths`] or [`Network::k_shortest_paths`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimplePaths {
    /// The paths, in the order the function documents.
    pub paths: Vec<Path>,
    /// True when a path lies beyond the ones returned (one was found past the
    /// `limit`, or past the `k`-th). False when there is none, and also when the
    /// search stopped early before finding one.
    pub more: bool,
    /// True when the search stopped at `max_steps` before finishing: `paths` is
    /// then a prefix of the full answer, possibly shorter than asked for.
    pub stopped_early: bool,
}

/// One bit per node index.
struct Bits(Vec<u64>);

impl Bits {
    fn new(bound: usize) -> Bits {
        Bits(vec![0; bound.div_ceil(64)])
    }

    #[inline]
    fn get(&self, ix: NodeIndex) -> bool {
        let i = ix.index();
        (self.0[i / 64] >> (i % 64)) & 1 == 1
    }

    #[inline]
    fn set(&mut self, ix: NodeIndex) {
        let i = ix.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn clear(&mut self, ix: NodeIndex) {
        let i = ix.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }
}

/// The steps spent so far against `max_steps`.
struct Budget {
    used: u64,
    max: u64,
}

impl Budget {
    fn new(max: u64) -> Budget {
        Budget { used: 0, max }
    }

    /// Spends `steps`; false once the total is past the bound.
    #[inline]
    fn spend(&mut self, steps: usize) -> bool {
        crate::budget::charge(steps as u64);
        self.used = self.used.saturating_add(steps as u64);
        self.used <= self.max
    }
}

/// The simple out-rows of the nodes a search reaches, built when first read:
/// for each node, its distinct out-neighbours (self-loops left out) in the order
/// of the oldest edge to each, with the lightest edge to each (ties to the lowest
/// id). Flat arrays; a node's row is `span[node]`.
struct SimpleOut<'a> {
    net: &'a Network,
    filter: &'a RelationFilter,
    /// `(start, end)` in the flat arrays; `start == usize::MAX` until built.
    span: Vec<(usize, usize)>,
    target: Vec<NodeIndex>,
    edge: Vec<EdgeId>,
    weight: Vec<f64>,
    /// Scratch: the position of each neighbour in the row being built.
    slot: Vec<usize>,
    scratch: Vec<(EdgeId, NodeIndex, f64)>,
}

impl<'a> SimpleOut<'a> {
    fn new(net: &'a Network, filter: &'a RelationFilter) -> SimpleOut<'a> {
        let bound = net.graph().node_bound();
        SimpleOut {
            net,
            filter,
            span: vec![(usize::MAX, 0); bound],
            target: Vec::new(),
            edge: Vec::new(),
            weight: Vec::new(),
            slot: vec![usize::MAX; bound],
            scratch: Vec::new(),
        }
    }

    /// The row of `v` as a range of the flat arrays, built now if needed
    /// (O(d log d) for out-degree d, charged d + 1 steps). `None` when that
    /// spends the budget.
    fn row(&mut self, v: NodeIndex, budget: &mut Budget) -> Option<(usize, usize)> {
        let (start, end) = self.span[v.index()];
        if start != usize::MAX {
            return Some((start, end));
        }
        self.scratch.clear();
        let mut read = 1;
        for e in self.net.graph().edges_directed(v, Outgoing) {
            read += 1;
            if e.target() != v && self.filter.keeps(e.weight()) {
                let edge = e.weight();
                self.scratch.push((edge.id, e.target(), edge.weight));
            }
        }
        if !budget.spend(read) {
            return None;
        }
        // Ids grow with insertion: sorting by id is insertion order.
        self.scratch.sort_unstable_by_key(|&(id, _, _)| id);
        let start = self.target.len();
        for &(id, t, w) in &self.scratch {
            match self.slot[t.index()] {
                usize::MAX => {
                    self.slot[t.index()] = self.target.len();
                    self.target.push(t);
                    self.edge.push(id);
                    self.weight.push(w);
                }
                // Strictly lighter only: an equal weight keeps the older (lower) id.
                s if w < self.weight[s] => {
                    self.edge[s] = id;
                    self.weight[s] = w;
                }
                _ => {}
            }
        }
        let end = self.target.len();
        for &t in &self.target[start..end] {
            self.slot[t.index()] = usize::MAX;
        }
        self.span[v.index()] = (start, end);
        Some((start, end))
    }
}

/// Hops from each node to `to` along out-edges, for the nodes within
/// `max_depth` of it (`u32::MAX` elsewhere): BFS over in-edges, charged one step
/// per edge read. `None` when that spends the budget.
fn hops_to(
    net: &Network,
    to: NodeIndex,
    max_depth: usize,
    budget: &mut Budget,
    filter: &RelationFilter,
) -> Option<Vec<u32>> {
    let g = net.graph();
    let mut dist = vec![u32::MAX; g.node_bound()];
    dist[to.index()] = 0;
    let mut queue = vec![to];
    let mut head = 0;
    while let Some(&v) = queue.get(head) {
        head += 1;
        let d = dist[v.index()];
        if d as usize >= max_depth {
            continue;
        }
        let mut read = 1;
        for e in g.edges_directed(v, Incoming) {
            read += 1;
            if !filter.keeps(e.weight()) {
                continue;
            }
            let u = e.source();
            if dist[u.index()] == u32::MAX {
                dist[u.index()] = d + 1;
                queue.push(u);
            }
        }
        if !budget.spend(read) {
            return None;
        }
    }
    Some(dist)
}

/// A node of the depth-first search's stack: the node, and the part of its row
/// not yet tried (`next..end`); `next - 1` is the entry that leads to the frame
/// above.
struct Frame {
    node: NodeIndex,
    next: usize,
    end: usize,
}

/// A candidate of Yen's algorithm, ordered so that the max-heap pops the
/// smallest `(primary, secondary, nodes)` first.
struct Candidate {
    /// The cost ranked by: total weight, or hops.
    primary: f64,
    /// The other one of the two.
    secondary: f64,
    path: Path,
}

impl Candidate {
    fn new(path: Path, weighted: bool) -> Candidate {
        let hops = path.hops as f64;
        let (primary, secondary) = if weighted {
            (path.total_weight, hops)
        } else {
            (hops, path.total_weight)
        };
        Candidate {
            primary,
            secondary,
            path,
        }
    }

    fn key_cmp(&self, other: &Self) -> Ordering {
        self.primary
            .total_cmp(&other.primary)
            .then(self.secondary.total_cmp(&other.secondary))
            .then_with(|| {
                let a = self.path.nodes.iter().map(|n| n.index());
                let b = other.path.nodes.iter().map(|n| n.index());
                a.cmp(b)
            })
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.key_cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key_cmp(self)
    }
}

/// What one spur search found.
enum Spur {
    /// A shortest path from the spur node to the target: its nodes and edges.
    Found(Vec<NodeIndex>, Vec<EdgeId>),
    /// No path avoids the blocked nodes and first steps.
    NoPath,
    /// Some path length overflowed `f64` and the target was not reached: a path
    /// may exist whose length is out of range.
    Overflow,
    /// The budget is spent.
    OutOfSteps,
}

/// The work space of Yen's spur searches, reused between them: the shortest
/// path from a spur node to the target avoiding `blocked` nodes, and avoiding
/// the first steps in `cut` out of the spur node. Only the entries a search
/// touched are reset before the next one.
struct SpurSearch<'a> {
    rows: SimpleOut<'a>,
    weighted: bool,
    budget: Budget,
    blocked: Bits,
    cut: Bits,
    dist: Vec<f64>,
    settled: Bits,
    /// The node before each reached node, and the flat row entry of the step.
    pred: Vec<(NodeIndex, usize)>,
    touched: Vec<NodeIndex>,
    /// Ties by the lowest node index.
    heap: QuaternaryHeap<Nearest<usize, NodeIndex>>,
    /// Whether a distance of the last Dijkstra search overflowed `f64`.
    overflowed: bool,
}

impl<'a> SpurSearch<'a> {
    fn new(
        net: &'a Network,
        weighted: bool,
        max_steps: u64,
        filter: &'a RelationFilter,
    ) -> SpurSearch<'a> {
        let bound = net.graph().node_bound();
        SpurSearch {
            rows: SimpleOut::new(net, filter),
            weighted,
            budget: Budget::new(max_steps),
            blocked: Bits::new(bound),
            cut: Bits::new(bound),
            dist: vec![f64::INFINITY; bound],
            settled: Bits::new(bound),
            pred: vec![(NodeIndex::end(), usize::MAX); bound],
            touched: Vec::new(),
            heap: QuaternaryHeap::new(),
            overflowed: false,
        }
    }

    fn reset(&mut self) {
        for v in self.touched.drain(..) {
            self.dist[v.index()] = f64::INFINITY;
            self.pred[v.index()] = (NodeIndex::end(), usize::MAX);
            self.settled.clear(v);
        }
        self.heap.clear();
    }

    /// Marks `n` reached from `v` by row entry `i` at distance `d`.
    #[inline]
    fn reach(&mut self, n: NodeIndex, v: NodeIndex, i: usize, d: f64) {
        if self.dist[n.index()] == f64::INFINITY {
            self.touched.push(n);
        }
        self.dist[n.index()] = d;
        self.pred[n.index()] = (v, i);
    }

    /// Whether the search may step from `v` to `n`.
    #[inline]
    fn open(&self, spur: NodeIndex, v: NodeIndex, n: NodeIndex) -> bool {
        !(self.blocked.get(n) || (v == spur && self.cut.get(n)))
    }

    fn search(&mut self, spur: NodeIndex, to: NodeIndex) -> Spur {
        self.reset();
        self.touched.push(spur);
        self.dist[spur.index()] = 0.0;
        let reached = if self.weighted {
            self.dijkstra(spur, to)
        } else {
            self.bfs(spur, to)
        };
        match reached {
            None => Spur::OutOfSteps,
            Some(false) if self.weighted && self.overflowed => Spur::Overflow,
            Some(false) => Spur::NoPath,
            Some(true) => {
                let mut nodes = vec![to];
                let mut edges = Vec::new();
                let mut v = to;
                while v != spur {
                    let (p, i) = self.pred[v.index()];
                    edges.push(self.rows.edge[i]);
                    nodes.push(p);
                    v = p;
                }
                nodes.reverse();
                edges.reverse();
                Spur::Found(nodes, edges)
            }
        }
    }

    /// Dijkstra from `spur` until `to` is settled: `Some(reached)`, or `None`
    /// when the budget is spent. Equal distances settle the lowest node index
    /// first; a node keeps the first predecessor that strictly improved it.
    fn dijkstra(&mut self, spur: NodeIndex, to: NodeIndex) -> Option<bool> {
        self.overflowed = false;
        self.heap.push(Nearest {
            dist: 0.0,
            tie: spur.index(),
            item: spur,
        });
        while let Some(Nearest {
            dist: d, item: v, ..
        }) = self.heap.pop()
        {
            if self.settled.get(v) {
                continue;
            }
            self.settled.set(v);
            if v == to {
                return Some(true);
            }
            let (start, end) = self.rows.row(v, &mut self.budget)?;
            if !self.budget.spend(end - start) {
                return None;
            }
            for i in start..end {
                let n = self.rows.target[i];
                if self.settled.get(n) || !self.open(spur, v, n) {
                    continue;
                }
                let nd = d + self.rows.weight[i];
                self.overflowed |= nd == f64::INFINITY;
                if nd < self.dist[n.index()] {
                    self.reach(n, v, i, nd);
                    self.heap.push(Nearest {
                        dist: nd,
                        tie: n.index(),
                        item: n,
                    });
                }
            }
        }
        Some(false)
    }

    /// Breadth-first search from `spur` until `to` is discovered: `Some(reached)`,
    /// or `None` when the budget is spent. Neighbours in row order; a node keeps
    /// its first discoverer.
    fn bfs(&mut self, spur: NodeIndex, to: NodeIndex) -> Option<bool> {
        let mut queue = vec![spur];
        let mut head = 0;
        while let Some(&v) = queue.get(head) {
            head += 1;
            let (start, end) = self.rows.row(v, &mut self.budget)?;
            if !self.budget.spend(end - start) {
                return None;
            }
            let d = self.dist[v.index()] + 1.0;
            for i in start..end {
                let n = self.rows.target[i];
                if self.dist[n.index()] != f64::INFINITY || !self.open(spur, v, n) {
                    continue;
                }
                self.reach(n, v, i, d);
                if n == to {
                    return Some(true);
                }
                queue.push(n);
            }
        }
        Some(false)
    }
}

/// The error for a path whose total weight does not fit in an `f64`.
fn overflow(net: &Network, from: NodeIndex, to: NodeIndex, weighted: bool) -> Error {
    Error::WeightOverflow {
        what: format!("a path from '{}' to '{}'", net.id_at(from), net.id_at(to)),
        hops_possible: weighted,
    }
}

/// An [`Error::InvalidValue`] unless `ix` is a node of this network.
fn check_index(net: &Network, field: &str, ix: NodeIndex) -> Result<()> {
    if net.graph().contains_node(ix) {
        return Ok(());
    }
    Err(Error::InvalidValue {
        field: field.to_string(),
        reason: format!(
            "node index {} is not a node of this network; look indices up with index_of",
            ix.index()
        ),
    })
}

/// The 0-hop path at `node`.
fn zero_hop(node: NodeIndex) -> Path {
    Path {
        nodes: vec![node],
        edges: Vec::new(),
        total_weight: 0.0,
        hops: 0,
    }
}

impl Network {
    /// All simple paths from `from` to `to` with at most `max_depth` edges, in
    /// depth-first order; the first `skip` are passed over and at most `limit`
    /// returned.
    ///
    /// **Order.** Depth-first from `from`: the out-neighbours of a node are tried
    /// in the order of the oldest edge to each (insertion order), and a path is
    /// listed when it reaches `to` (it never goes on past `to`). Equivalently, the
    /// paths are sorted lexicographically by the sequence of their steps, each
    /// step ranked among its node's neighbours by oldest edge. The order is a
    /// function of the network's content and history alone, so `skip` pages
    /// through the list: the pages of successive `skip`s concatenate to the
    /// whole list.
    ///
    /// **Paths** are node sequences: parallel edges do not repeat a path, and
    /// each step takes the lightest edge between its nodes, ties to the lowest
    /// edge id (see the [module docs](self)). `from == to` gives the 0-hop path
    /// `[from]` only, whatever `max_depth`, as NetworkX 3.x does. A `from` or
    /// `to` that is not a node of this network gives no path.
    ///
    /// **Result.** [`SimplePaths::more`] is true when a path exists past the
    /// `limit` returned ones (the search goes on to find one more, then stops).
    /// At most `max_steps` steps are spent (see the [module docs](self)); past
    /// them the search stops with [`SimplePaths::stopped_early`] and the paths
    /// found so far. Negative weights are allowed (they are only summed).
    ///
    /// **Algorithm and complexity.** A breadth-first search backwards from `to`
    /// first finds every node's hop distance to `to` (up to `max_depth`), so that
    /// the depth-first search never enters a node from which `to` is out of reach
    /// within the remaining depth: every branch it enters is cut short only by
    /// the no-revisit rule. Then an iterative depth-first search with an explicit
    /// stack and an on-path bit set; a node's neighbour row is built the first
    /// time the search enters it. O(V + E) to set up; then O(E log E) to build
    /// rows over the whole run, plus one step per neighbour tried and per node
    /// of a returned path. The number of simple paths, and the dead ends the
    /// no-revisit rule makes, can grow exponentially with `max_depth`, so this
    /// part is bounded by `max_steps` alone. Memory O(V + E + the returned
    /// paths' lengths).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "c", 1.0)?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// net.add_edge("c", "d", 1.0)?;
    /// net.add_edge("b", "d", 5.0)?;
    /// net.add_edge("b", "d", 2.0)?; // a lighter parallel edge: the one taken
    /// let (a, d) = (net.index_of("a").unwrap(), net.index_of("d").unwrap());
    ///
    /// let all = net.all_simple_paths(a, d, 10, 0, 100, 1_000_000);
    /// let listed: Vec<_> = all.paths.iter().map(|p| net.ids(&p.nodes)).collect();
    /// // "c" is a's oldest neighbour, then "b"; b's are "c" then "d".
    /// assert_eq!(listed, [vec!["a", "c", "d"], vec!["a", "b", "c", "d"], vec!["a", "b", "d"]]);
    /// assert_eq!((all.paths[2].edges.clone(), all.paths[2].total_weight), (vec![1, 5], 3.0));
    /// assert!(!all.more && !all.stopped_early);
    ///
    /// // Paths of at most 2 edges, one page of one after skipping one.
    /// let page = net.all_simple_paths(a, d, 2, 1, 1, 1_000_000);
    /// assert_eq!(net.ids(&page.paths[0].nodes), ["a", "b", "d"]);
    /// assert!(!page.more);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn all_simple_paths(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        max_depth: usize,
        skip: usize,
        limit: usize,
        max_steps: u64,
    ) -> SimplePaths {
        self.all_simple_paths_following(
            from,
            to,
            max_depth,
            skip,
            limit,
            max_steps,
            RelationFilter::every_edge(),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn all_simple_paths_following(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        max_depth: usize,
        skip: usize,
        limit: usize,
        max_steps: u64,
        filter: &RelationFilter,
    ) -> SimplePaths {
        let mut out = SimplePaths::default();
        let g = self.graph();
        if !g.contains_node(from) || !g.contains_node(to) {
            return out;
        }
        if from == to {
            if skip == 0 {
                if limit > 0 {
                    out.paths.push(zero_hop(from));
                } else {
                    out.more = true;
                }
            }
            return out;
        }
        // A simple path has fewer edges than there are nodes.
        let max_depth = max_depth.min(g.node_count() - 1);
        let mut budget = Budget::new(max_steps);
        let Some(dist) = hops_to(self, to, max_depth, &mut budget, filter) else {
            out.stopped_early = true;
            return out;
        };
        if dist[from.index()] as usize > max_depth {
            return out;
        }
        let mut rows = SimpleOut::new(self, filter);
        let mut on_path = Bits::new(g.node_bound());
        let mut stack: Vec<Frame> = Vec::new();
        let mut seen = 0usize;
        let Some((next, end)) = rows.row(from, &mut budget) else {
            out.stopped_early = true;
            return out;
        };
        on_path.set(from);
        stack.push(Frame {
            node: from,
            next,
            end,
        });
        while let Some(top) = stack.last_mut() {
            if top.next == top.end {
                on_path.clear(top.node);
                stack.pop();
                continue;
            }
            let i = top.next;
            top.next += 1;
            if !budget.spend(1) {
                out.stopped_early = true;
                break;
            }
            let n = rows.target[i];
            if on_path.get(n) {
                continue;
            }
            // Hops of the path once `n` is on it.
            let depth = stack.len();
            if n == to {
                seen += 1;
                if seen <= skip {
                    continue;
                }
                if out.paths.len() == limit {
                    out.more = true;
                    break;
                }
                if !budget.spend(depth + 1) {
                    out.stopped_early = true;
                    break;
                }
                let mut nodes = Vec::with_capacity(depth + 1);
                let mut edges = Vec::with_capacity(depth);
                let mut total_weight = 0.0;
                for frame in &stack {
                    let taken = frame.next - 1;
                    nodes.push(frame.node);
                    edges.push(rows.edge[taken]);
                    total_weight += rows.weight[taken];
                }
                nodes.push(to);
                out.paths.push(Path {
                    nodes,
                    edges,
                    total_weight,
                    hops: depth,
                });
                continue;
            }
            // Enter `n` only if `to` is within reach of it in the hops left.
            let left = dist[n.index()];
            if left == u32::MAX || depth + left as usize > max_depth {
                continue;
            }
            let Some((next, end)) = rows.row(n, &mut budget) else {
                out.stopped_early = true;
                break;
            };
            on_path.set(n);
            stack.push(Frame { node: n, next, end });
        }
        out
    }

    /// The `k` shortest simple paths from `from` to `to`, by **Yen's algorithm**
    /// (J. Y. Yen, "Finding the K shortest loopless paths in a network",
    /// *Management Science* 17(11):712–716, 1971), shortest first.
    ///
    /// * `Weighted::Yes` ranks paths by total weight. Weights must be
    ///   non-negative (the spur searches are Dijkstra's): a network with a
    ///   negative weight is refused with [`Error::InvalidValue`] for field
    ///   `"weighted"`.
    /// * `Weighted::No` ranks them by hops (the spur searches are breadth-first);
    ///   any weights are fine.
    ///
    /// Paths are node sequences taking the lightest parallel edge, as in
    /// [`Network::all_simple_paths`]; `from == to` gives the 0-hop path `[from]`
    /// only (as NetworkX's `shortest_simple_paths`). Returns at most `k` paths,
    /// fewer when no more exist; [`SimplePaths::more`] says whether another
    /// exists (known from the candidates, or found by one more round of spur
    /// searches). Past `max_steps` steps (see the [module docs](self)) the search
    /// stops with [`SimplePaths::stopped_early`], returning the paths it had
    /// settled.
    ///
    /// **Order and ties.** Costs never decrease along the list. Among the
    /// candidates, the next path taken is the one of least cost, then (cost
    /// equal) the fewest hops when weighted or the least total weight when by
    /// hops, then the node sequence that comes first comparing node indices
    /// (insertion order) lexicographically. Spur searches are deterministic too:
    /// Dijkstra settles equal distances lowest index first and keeps a node's
    /// first strictly better predecessor; breadth-first search tries neighbours
    /// by oldest edge and keeps a node's first discoverer. So the list is a
    /// function of the network's content and history; among paths of equal cost
    /// it may differ from NetworkX's, whose ties follow its own order.
    ///
    /// **Algorithm.** The first path is a shortest one. Each later round takes
    /// the last path found and, for each of its nodes but the target (the spur
    /// node), searches a shortest path from the spur node to `to` that avoids the
    /// nodes before it (the root) and, out of the spur node, the next node of
    /// every path already found that shares that root; root + spur path is a
    /// candidate. The candidates wait in a heap, deduplicated by node sequence;
    /// the least one is the next path. Removed nodes and first steps are bit
    /// sets over the one network, never a copy of the graph.
    ///
    /// **Complexity.** With L the most hops of a path found: at most k·L spur
    /// searches, each O(V + E log V) (Dijkstra) or O(V + E) (BFS) but only over
    /// what it reaches; O(k²·L) to compare roots; O(k·L·log(k·L)) heap work;
    /// candidates hold O(k·L²) nodes. All of it bounded by `max_steps`, after an
    /// O(V + E) set-up.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for an index that is not a node (field `"from"` or
    /// `"to"`) or for negative weights when weighted (field `"weighted"`);
    /// [`Error::WeightOverflow`] when a path's total weight is past the range of
    /// an `f64`.
    ///
    /// ```
    /// use networks_mcp::network::{Network, Weighted};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "d", 1.0)?;
    /// net.add_edge("a", "c", 1.0)?;
    /// net.add_edge("c", "d", 3.0)?;
    /// net.add_edge("a", "d", 5.0)?;
    /// let (a, d) = (net.index_of("a").unwrap(), net.index_of("d").unwrap());
    ///
    /// let light = net.k_shortest_paths(a, d, 2, Weighted::Yes, 1_000_000)?;
    /// let costs: Vec<f64> = light.paths.iter().map(|p| p.total_weight).collect();
    /// assert_eq!(costs, [2.0, 4.0]);
    /// assert!(light.more); // a -> d, of weight 5, is third
    ///
    /// let short = net.k_shortest_paths(a, d, 10, Weighted::No, 1_000_000)?;
    /// let listed: Vec<_> = short.paths.iter().map(|p| net.ids(&p.nodes)).collect();
    /// assert_eq!(listed, [vec!["a", "d"], vec!["a", "b", "d"], vec!["a", "c", "d"]]);
    /// assert!(!short.more);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn k_shortest_paths(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        k: usize,
        weighted: Weighted,
        max_steps: u64,
    ) -> Result<SimplePaths> {
        self.k_shortest_paths_following(
            from,
            to,
            k,
            weighted,
            max_steps,
            RelationFilter::every_edge(),
        )
    }

    fn k_shortest_paths_following(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        k: usize,
        weighted: Weighted,
        max_steps: u64,
        filter: &RelationFilter,
    ) -> Result<SimplePaths> {
        check_index(self, "from", from)?;
        check_index(self, "to", to)?;
        let weighted = weighted.is_yes();
        let negative = self.has_negative_weights()
            && self
                .graph()
                .edge_weights()
                .any(|e| e.weight < 0.0 && filter.keeps(e));
        if weighted && negative {
            return Err(Error::InvalidValue {
                field: "weighted".into(),
                reason: "the k shortest paths by weight need non-negative edge weights, and this network has negative ones; rank by hops instead (weighted false), or make the weights non-negative".into(),
            });
        }
        let mut out = SimplePaths::default();
        if from == to {
            if k > 0 {
                out.paths.push(zero_hop(from));
            } else {
                out.more = true;
            }
            return Ok(out);
        }
        let mut search = SpurSearch::new(self, weighted, max_steps, filter);
        let mut candidates: QuaternaryHeap<Candidate> = QuaternaryHeap::new();
        let mut known: HashSet<Vec<NodeIndex>> = HashSet::new();
        match search.search(from, to) {
            Spur::Found(nodes, edges) => {
                let path = self.simple_path(nodes, edges);
                known.insert(path.nodes.clone());
                candidates.push(Candidate::new(path, weighted));
            }
            Spur::NoPath => return Ok(out),
            Spur::Overflow => return Err(overflow(self, from, to, weighted)),
            Spur::OutOfSteps => {
                out.stopped_early = true;
                return Ok(out);
            }
        }
        while let Some(best) = candidates.pop() {
            if out.paths.len() == k {
                out.more = true;
                break;
            }
            if !best.path.total_weight.is_finite() {
                return Err(overflow(self, from, to, weighted));
            }
            out.paths.push(best.path);
            if out.paths.len() == k && !candidates.is_empty() {
                out.more = true;
                break;
            }
            match self.spur_round(&mut search, &out.paths, to, &mut known, &mut candidates) {
                Spur::OutOfSteps => {
                    out.stopped_early = true;
                    out.more = !candidates.is_empty();
                    break;
                }
                Spur::Overflow => return Err(overflow(self, from, to, weighted)),
                Spur::Found(..) | Spur::NoPath => {}
            }
        }
        Ok(out)
    }

    /// One round of Yen's algorithm: the spur paths of the last path of
    /// `found`, pushed as candidates unless already known. Returns
    /// `Spur::OutOfSteps` or `Spur::Overflow` when the round stopped so, else
    /// `Spur::NoPath`.
    fn spur_round(
        &self,
        search: &mut SpurSearch<'_>,
        found: &[Path],
        to: NodeIndex,
        known: &mut HashSet<Vec<NodeIndex>>,
        candidates: &mut QuaternaryHeap<Candidate>,
    ) -> Spur {
        let Some(last) = found.last() else {
            return Spur::NoPath;
        };
        // The paths found that share the root `last.nodes[..=i]`, narrowed as i grows.
        let mut sharing: Vec<usize> = (0..found.len()).collect();
        let mut result = Spur::NoPath;
        for i in 0..last.hops {
            let spur = last.nodes[i];
            if !search.budget.spend(sharing.len()) {
                result = Spur::OutOfSteps;
                break;
            }
            sharing.retain(|&j| found[j].nodes.get(i) == Some(&spur));
            let cut: Vec<NodeIndex> = sharing
                .iter()
                .filter_map(|&j| found[j].nodes.get(i + 1).copied())
                .collect();
            for &n in &cut {
                search.cut.set(n);
            }
            if i > 0 {
                search.blocked.set(last.nodes[i - 1]);
            }
            let spurred = search.search(spur, to);
            for &n in &cut {
                search.cut.clear(n);
            }
            match spurred {
                Spur::Found(tail, tail_edges) => {
                    if !search.budget.spend(i + tail.len()) {
                        result = Spur::OutOfSteps;
                        break;
                    }
                    let mut nodes = last.nodes[..i].to_vec();
                    nodes.extend_from_slice(&tail);
                    let mut edges = last.edges[..i].to_vec();
                    edges.extend_from_slice(&tail_edges);
                    if known.insert(nodes.clone()) {
                        let path = self.simple_path(nodes, edges);
                        candidates.push(Candidate::new(path, search.weighted));
                    }
                }
                Spur::NoPath => {}
                stop @ (Spur::Overflow | Spur::OutOfSteps) => {
                    result = stop;
                    break;
                }
            }
        }
        for &n in &last.nodes {
            search.blocked.clear(n);
        }
        result
    }

    /// A [`Path`] of `nodes` and the `edges` between them (the lightest of each
    /// step's parallel edges), its weight summed from the start.
    fn simple_path(&self, nodes: Vec<NodeIndex>, edges: Vec<EdgeId>) -> Path {
        let total_weight = edges
            .iter()
            .map(|&id| self.edge(id).map_or(0.0, |e| e.weight))
            .sum();
        Path {
            hops: edges.len(),
            nodes,
            edges,
            total_weight,
        }
    }
}

impl Following<'_> {
    /// [`Network::all_simple_paths`] along the edges the filter keeps.
    pub fn all_simple_paths(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        max_depth: usize,
        skip: usize,
        limit: usize,
        max_steps: u64,
    ) -> SimplePaths {
        self.net.all_simple_paths_following(
            from,
            to,
            max_depth,
            skip,
            limit,
            max_steps,
            self.filter,
        )
    }

    /// [`Network::k_shortest_paths`] along the edges the filter keeps.
    pub fn k_shortest_paths(
        &self,
        from: NodeIndex,
        to: NodeIndex,
        k: usize,
        weighted: Weighted,
        max_steps: u64,
    ) -> Result<SimplePaths> {
        self.net
            .k_shortest_paths_following(from, to, k, weighted, max_steps, self.filter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> Network {
        let mut net = Network::new();
        for i in 0..n {
            net.add_node(&format!("n{i}")).unwrap();
        }
        for i in 1..n {
            net.add_edge(&format!("n{}", i - 1), &format!("n{i}"), 1.0)
                .unwrap();
        }
        net
    }

    fn ix(net: &Network, id: &str) -> NodeIndex {
        net.index_of(id).unwrap()
    }

    #[test]
    fn a_long_chain_is_one_path_without_recursion() {
        let n = 100_000;
        let net = chain(n);
        let (a, z) = (ix(&net, "n0"), ix(&net, &format!("n{}", n - 1)));
        let all = net.all_simple_paths(a, z, usize::MAX, 0, 10, u64::MAX);
        assert_eq!(all.paths.len(), 1);
        assert_eq!(all.paths[0].hops, n - 1);
        let k = net
            .k_shortest_paths(a, z, 3, Weighted::Yes, u64::MAX)
            .unwrap();
        assert_eq!(k.paths.len(), 1);
        assert_eq!(k.paths[0].total_weight, (n - 1) as f64);
        assert!(!k.more && !k.stopped_early);
    }

    #[test]
    fn from_equal_to_is_the_zero_hop_path() {
        let mut net = chain(3);
        net.add_edge("n2", "n0", 1.0).unwrap();
        net.add_edge("n0", "n0", 1.0).unwrap();
        let a = ix(&net, "n0");
        let all = net.all_simple_paths(a, a, 5, 0, 10, 100);
        assert_eq!(all.paths, [zero_hop(a)]);
        assert!(!all.more);
        assert!(net.all_simple_paths(a, a, 5, 1, 10, 100).paths.is_empty());
        assert!(net.all_simple_paths(a, a, 5, 0, 0, 100).more);
        let k = net.k_shortest_paths(a, a, 3, Weighted::Yes, 100).unwrap();
        assert_eq!(k.paths, [zero_hop(a)]);
    }

    #[test]
    fn the_budget_stops_the_search_with_a_prefix() {
        // A ladder: 2^10 paths from s to t.
        let mut net = Network::new();
        net.add_node("s").unwrap();
        let mut prev = "s".to_string();
        for i in 0..10 {
            let (up, down, join) = (format!("u{i}"), format!("d{i}"), format!("j{i}"));
            net.add_nodes([up.as_str(), down.as_str(), join.as_str()])
                .unwrap();
            for mid in [&up, &down] {
                net.add_edge(&prev, mid, 1.0).unwrap();
                net.add_edge(mid, &join, 1.0).unwrap();
            }
            prev = join;
        }
        let (s, t) = (ix(&net, "s"), ix(&net, &prev));
        let full = net.all_simple_paths(s, t, 100, 0, usize::MAX, u64::MAX);
        assert_eq!(full.paths.len(), 1024);
        let cut = net.all_simple_paths(s, t, 100, 0, usize::MAX, 2_000);
        assert!(cut.stopped_early && !cut.more);
        assert!(!cut.paths.is_empty() && cut.paths.len() < 1024);
        assert_eq!(cut.paths[..], full.paths[..cut.paths.len()]);
        let k = net
            .k_shortest_paths(s, t, 1000, Weighted::No, 3_000)
            .unwrap();
        assert!(k.stopped_early);
        assert!(k.paths.len() < 1000);
        assert!(k.paths.iter().all(|p| p.hops == 20));
    }

    #[test]
    fn negative_weights_are_refused_by_weight_only() {
        let mut net = chain(3);
        net.add_edge("n0", "n2", -1.0).unwrap();
        let (a, c) = (ix(&net, "n0"), ix(&net, "n2"));
        let err = net
            .k_shortest_paths(a, c, 2, Weighted::Yes, 100)
            .unwrap_err();
        assert!(matches!(err, Error::InvalidValue { ref field, .. } if field == "weighted"));
        let hops = net.k_shortest_paths(a, c, 2, Weighted::No, 100).unwrap();
        let costs: Vec<usize> = hops.paths.iter().map(|p| p.hops).collect();
        assert_eq!(costs, [1, 2]);
        assert_eq!(hops.paths[0].total_weight, -1.0);
    }

    #[test]
    fn a_missing_index_is_no_path_or_an_error() {
        let net = chain(2);
        let gone = NodeIndex::new(7);
        let a = ix(&net, "n0");
        assert_eq!(
            net.all_simple_paths(a, gone, 3, 0, 3, 10),
            SimplePaths::default()
        );
        let err = net
            .k_shortest_paths(gone, a, 1, Weighted::No, 10)
            .unwrap_err();
        assert!(matches!(err, Error::InvalidValue { ref field, .. } if field == "from"));
    }

    #[test]
    fn overflowing_weights_are_an_error() {
        let mut net = chain(3);
        net.add_edge("n0", "n1", f64::MAX).unwrap();
        net.add_edge("n1", "n2", f64::MAX).unwrap();
        let mut huge = Network::new();
        huge.add_nodes(["a", "b", "c"]).unwrap();
        huge.add_edge("a", "b", f64::MAX).unwrap();
        huge.add_edge("b", "c", f64::MAX).unwrap();
        let (a, c) = (ix(&huge, "a"), ix(&huge, "c"));
        let err = huge
            .k_shortest_paths(a, c, 2, Weighted::Yes, 100)
            .unwrap_err();
        assert!(matches!(err, Error::WeightOverflow { .. }));
        // The chain's light edges still make a finite shortest path.
        let (x, z) = (ix(&net, "n0"), ix(&net, "n2"));
        let k = net.k_shortest_paths(x, z, 1, Weighted::Yes, 100).unwrap();
        assert_eq!(k.paths[0].total_weight, 2.0);
    }
}
