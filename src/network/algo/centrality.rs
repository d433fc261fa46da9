//! Centrality: which nodes matter most. Degree, PageRank, betweenness (Brandes)
//! and closeness, each defined as NetworkX 3.x defines it for a directed
//! multigraph, so that an answer can be checked against NetworkX on the same graph.
//!
//! Conventions shared by every measure:
//! * Scores come back for every node, in insertion order ([`Scores`]); ranking
//!   them (highest first, ties by insertion order) is [`Scores::ranked`].
//! * Parallel edges: PageRank sums their weights (one heavier link); the
//!   shortest-path measures (betweenness, closeness) take the lightest one, and a
//!   pair of nodes counts once however many edges join them.
//! * Self-loops: PageRank follows them (a node links to itself); shortest paths
//!   ignore them.
//! * Weighted shortest paths need non-negative weights; PageRank with weights
//!   needs non-negative weights too. Otherwise the call is refused.
//! * Zero weights: weighted betweenness counts shortest paths exactly however
//!   zero-weight edges tie them (where NetworkX does not), and refuses a cycle
//!   of zero-weight edges; see [`Network::betweenness`].
//!
//! Determinism: every loop runs in insertion order; betweenness with a sample of
//! `k` sources draws them with a seeded generator, the same for the same seed
//! and network.

use std::collections::VecDeque;

use dary_heap::QuaternaryHeap;
use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, NodeIndexable};

use super::nearest::Nearest;
use super::rng::splitmix64;
use crate::error::{Error, Result};
use crate::network::graph::Network;

/// One score per node, in insertion order.
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    /// The nodes, in insertion order.
    pub nodes: Vec<NodeIndex>,
    /// `values[i]` is the score of `nodes[i]`.
    pub values: Vec<f64>,
}

impl Scores {
    /// The positions of the nodes from the highest score to the lowest; equal
    /// scores keep insertion order. O(V log V).
    pub fn ranked(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.values.len()).collect();
        order.sort_by(|&a, &b| self.values[b].total_cmp(&self.values[a]).then(a.cmp(&b)));
        order
    }
}

/// Which edges a degree counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DegreeKind {
    /// Edges in.
    In,
    /// Edges out.
    Out,
    /// Both (a self-loop counts twice).
    Total,
}

/// Options of [`Network::pagerank`]; the defaults are NetworkX's.
#[derive(Debug, Clone, PartialEq)]
pub struct PageRankOptions {
    /// The probability of following a link rather than jumping (`alpha`). 0.85.
    pub damping: f64,
    /// Convergence: the iteration stops when the scores moved by less than
    /// `tolerance × V` in total (L1). 1e-6.
    pub tolerance: f64,
    /// Give up (an error) after this many iterations. 100.
    pub max_iterations: usize,
    /// Follow links in proportion to edge weights (true), or count edges.
    pub weighted: bool,
    /// Where a jump lands (and where a node without out-links sends its rank),
    /// as non-negative weights per node, normalised to sum 1; uniform when `None`.
    pub personalization: Option<Vec<(NodeIndex, f64)>>,
    /// Threads to iterate on (counting edges, or by weight when every weight
    /// is 1; other weighted PageRank runs on one). 1: the calling thread
    /// alone; 0: as many as the runner lends each iteration
    /// ([`crate::budget::threads`]; the server lends its free compute
    /// threads), one without a runner. The answer is the same for any number.
    pub threads: usize,
}

impl Default for PageRankOptions {
    fn default() -> Self {
        PageRankOptions {
            damping: 0.85,
            tolerance: 1e-6,
            max_iterations: 100,
            weighted: true,
            personalization: None,
            threads: 1,
        }
    }
}

/// Options of [`Network::betweenness`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BetweennessOptions {
    /// Shortest paths by total weight (true) or by hops.
    pub weighted: bool,
    /// Divide by the number of node pairs, `(V − 1)(V − 2)`, as NetworkX's
    /// `normalized=True` does.
    pub normalized: bool,
    /// Estimate from `k` source nodes drawn with `seed` instead of all of them
    /// (NetworkX's `k`, with its rescaling): O(k·E) instead of O(V·E).
    pub sample: Option<(usize, u64)>,
}

/// The simple graph of shortest paths: for each node, its distinct
/// out-neighbours (self-loops left out) with the lightest parallel edge's
/// weight, in compressed rows. `reverse` follows edges backwards.
struct SimpleRows {
    start: Vec<usize>,
    target: Vec<u32>,
    weight: Vec<f64>,
}

impl SimpleRows {
    fn new(net: &Network, position: &[u32], nodes: &[NodeIndex], reverse: bool) -> SimpleRows {
        let g = net.graph();
        let direction = if reverse { Incoming } else { Outgoing };
        let mut rows = SimpleRows {
            start: Vec::with_capacity(nodes.len() + 1),
            target: Vec::new(),
            weight: Vec::new(),
        };
        let mut row: Vec<(u32, f64)> = Vec::new();
        for &v in nodes {
            rows.start.push(rows.target.len());
            crate::budget::charge(1);
            row.clear();
            for e in g.edges_directed(v, direction) {
                let other = if reverse { e.source() } else { e.target() };
                if other != v {
                    row.push((position[other.index()], e.weight().weight));
                }
            }
            // Insertion order of the first edge to each neighbour; lightest weight.
            row.sort_by_key(|&(w, _)| w);
            let mut k = 0;
            while k < row.len() {
                let (w, mut lightest) = row[k];
                while k + 1 < row.len() && row[k + 1].0 == w {
                    k += 1;
                    lightest = lightest.min(row[k].1);
                }
                rows.target.push(w);
                rows.weight.push(lightest);
                k += 1;
            }
        }
        rows.start.push(rows.target.len());
        rows
    }

    fn of(&self, v: usize) -> std::ops::Range<usize> {
        self.start[v]..self.start[v + 1]
    }
}

fn refuse_negative(net: &Network, measure: &str) -> Result<()> {
    if net.has_negative_weights() {
        return Err(Error::InvalidValue {
            field: "weighted".into(),
            reason: format!(
                "{measure} by weight needs non-negative edge weights, and this network has negative ones; count hops instead (weighted false), or make the weights non-negative"
            ),
        });
    }
    Ok(())
}

/// `k` distinct positions of `0..n`, drawn with `seed` (a partial Fisher–Yates
/// shuffle), in the order drawn.
fn sample(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let mut state = seed;
    let k = k.min(n);
    for i in 0..k {
        let j = i + (splitmix64(&mut state) % (n - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(k);
    all
}

/// The per-source work space of Brandes' algorithm, reused between sources.
struct Brandes {
    /// The nodes reached, in the order settled (Dijkstra) or discovered (BFS).
    order: Vec<u32>,
    /// By weight: the nodes reached in an order where every tight predecessor
    /// comes first (see [`Brandes::tight_order`]).
    tight: Vec<u32>,
    sigma: Vec<f64>,
    dist: Vec<f64>,
    settled: Vec<bool>,
    delta: Vec<f64>,
    /// By weight: how many tight predecessors of each node are not yet in `tight`.
    waiting: Vec<u32>,
    /// Whether a distance of the last Dijkstra search overflowed `f64`.
    overflowed: bool,
}

/// Why the shortest paths from one source cannot be counted by weight: a cycle
/// of tight edges (weight 0, or too light to change a distance), as positions.
struct TightCycle(Vec<u32>);

impl Brandes {
    fn new(n: usize) -> Brandes {
        Brandes {
            order: Vec::with_capacity(n),
            tight: Vec::new(),
            sigma: vec![0.0; n],
            dist: vec![f64::INFINITY; n],
            settled: vec![false; n],
            delta: vec![0.0; n],
            waiting: Vec::new(),
            overflowed: false,
        }
    }

    fn reset(&mut self) {
        for &v in &self.order {
            let v = v as usize;
            self.sigma[v] = 0.0;
            self.dist[v] = f64::INFINITY;
            self.settled[v] = false;
            self.delta[v] = 0.0;
            if let Some(waiting) = self.waiting.get_mut(v) {
                *waiting = 0;
            }
        }
        self.order.clear();
        self.tight.clear();
        self.overflowed = false;
    }

    /// Shortest paths from `s` by hops (NetworkX's
    /// `_single_source_shortest_path_basic`): order of discovery, distances and path
    /// counts, without predecessor lists ([`Brandes::accumulate_by_hops`] finds
    /// the predecessors among the in-neighbours instead: no list per node to
    /// fill and clear, the cost of the search at a million nodes).
    fn bfs_counts(&mut self, rows: &SimpleRows, s: usize) {
        let mut queue = VecDeque::new();
        self.sigma[s] = 1.0;
        self.dist[s] = 0.0;
        queue.push_back(s as u32);
        while let Some(v) = queue.pop_front() {
            self.order.push(v);
            crate::budget::charge(1 + rows.of(v as usize).len() as u64);
            let (dv, sv) = (self.dist[v as usize], self.sigma[v as usize]);
            for k in rows.of(v as usize) {
                let w = rows.target[k] as usize;
                if self.dist[w].is_infinite() {
                    self.dist[w] = dv + 1.0;
                    queue.push_back(w as u32);
                }
                if self.dist[w] == dv + 1.0 {
                    self.sigma[w] += sv;
                }
            }
        }
    }

    /// [`Brandes::accumulate`] after [`Brandes::bfs_counts`]: the predecessors of
    /// `w` are its in-neighbours one hop nearer to the source.
    fn accumulate_by_hops(&mut self, incoming: &SimpleRows, s: usize, scores: &mut [f64]) {
        for &w in self.order.iter().rev() {
            let w = w as usize;
            let coefficient = (1.0 + self.delta[w]) / self.sigma[w];
            let before = self.dist[w] - 1.0;
            for k in incoming.of(w) {
                let v = incoming.target[k] as usize;
                if self.dist[v] == before {
                    self.delta[v] += self.sigma[v] * coefficient;
                }
            }
            if w != s {
                scores[w] += self.delta[w];
            }
        }
    }

    /// Distances from `s` by weight (Dijkstra; equal distances settle in the
    /// order pushed), and the nodes reached in the order settled. Every node it
    /// reaches is settled, so [`Brandes::reset`] finds them all in `order`.
    /// Sets `overflowed` when a distance passed the range of an `f64`.
    fn dijkstra(&mut self, rows: &SimpleRows, s: usize) {
        let mut heap = QuaternaryHeap::new();
        let mut count = 0u64;
        self.dist[s] = 0.0;
        heap.push(Nearest {
            dist: 0.0,
            tie: count,
            item: s as u32,
        });
        while let Some(Nearest {
            dist, item: node, ..
        }) = heap.pop()
        {
            let v = node as usize;
            crate::budget::charge(1);
            if self.settled[v] {
                continue;
            }
            self.order.push(node);
            self.settled[v] = true;
            for k in rows.of(v) {
                let w = rows.target[k] as usize;
                let vw = dist + rows.weight[k];
                self.overflowed |= vw == f64::INFINITY;
                if !self.settled[w] && (self.dist[w].is_infinite() || vw < self.dist[w]) {
                    self.dist[w] = vw;
                    count += 1;
                    heap.push(Nearest {
                        dist: vw,
                        tie: count,
                        item: w as u32,
                    });
                }
            }
        }
    }

    /// Whether the edge `v → rows.target[k]` lies on a shortest path from the
    /// source: `dist[v] + weight == dist[target]`, compared exactly.
    #[inline]
    fn is_tight(&self, rows: &SimpleRows, v: usize, k: usize) -> bool {
        self.dist[v] + rows.weight[k] == self.dist[rows.target[k] as usize]
    }

    /// After [`Brandes::dijkstra`]: the shortest-path counts `sigma`, summed
    /// over the DAG of tight edges in an order where every tight predecessor of
    /// a node comes before it (Kahn's algorithm from `s`), equal distances
    /// included. Dijkstra's settle order is not such an order: a zero-weight
    /// edge may join two nodes at the same distance in either order, and
    /// counting in settle order then misses the paths through it. O(V + E).
    ///
    /// Fails with the nodes of one cycle of tight edges when there is one: then
    /// there are infinitely many shortest walks.
    fn tight_order(&mut self, rows: &SimpleRows, s: usize) -> std::result::Result<(), TightCycle> {
        if self.waiting.len() < self.sigma.len() {
            self.waiting.resize(self.sigma.len(), 0);
        }
        for i in 0..self.order.len() {
            let v = self.order[i] as usize;
            crate::budget::charge(1 + rows.of(v).len() as u64);
            for k in rows.of(v) {
                if self.is_tight(rows, v, k) {
                    self.waiting[rows.target[k] as usize] += 1;
                }
            }
        }
        self.sigma[s] = 1.0;
        if self.waiting[s] == 0 {
            self.tight.push(s as u32);
        }
        let mut head = 0;
        while let Some(&v) = self.tight.get(head) {
            head += 1;
            let v = v as usize;
            crate::budget::charge(1 + rows.of(v).len() as u64);
            let sv = self.sigma[v];
            for k in rows.of(v) {
                if self.is_tight(rows, v, k) {
                    let w = rows.target[k] as usize;
                    self.sigma[w] += sv;
                    self.waiting[w] -= 1;
                    if self.waiting[w] == 0 {
                        self.tight.push(w as u32);
                    }
                }
            }
        }
        if self.tight.len() == self.order.len() {
            return Ok(());
        }
        // The nodes left wait on each other: each has a tight predecessor
        // among them. Walking back along one of them from any node closes a cycle.
        let mut back = vec![u32::MAX; self.sigma.len()];
        for &u in &self.order {
            let u = u as usize;
            if self.waiting[u] == 0 {
                continue;
            }
            for k in rows.of(u) {
                let w = rows.target[k] as usize;
                if self.is_tight(rows, u, k) && self.waiting[w] > 0 {
                    back[w] = u as u32;
                }
            }
        }
        Err(TightCycle(close_cycle(&back, &self.waiting)))
    }

    /// Adds `s`'s dependencies to `scores` after [`Brandes::tight_order`]: in
    /// the reverse of that order, each node's dependency is the sum over its
    /// tight successors `w` of `sigma[v] / sigma[w] · (1 + delta[w])`.
    fn accumulate_tight(&mut self, rows: &SimpleRows, s: usize, scores: &mut [f64]) {
        for i in (0..self.tight.len()).rev() {
            let v = self.tight[i] as usize;
            crate::budget::charge(1 + rows.of(v).len() as u64);
            let mut share = 0.0;
            for k in rows.of(v) {
                if self.is_tight(rows, v, k) {
                    let w = rows.target[k] as usize;
                    share += (1.0 + self.delta[w]) / self.sigma[w];
                }
            }
            self.delta[v] = self.sigma[v] * share;
            if v != s {
                scores[v] += self.delta[v];
            }
        }
    }
}

/// One cycle of the graph given by `back` (each node with `waiting > 0` points
/// to a predecessor that also has `waiting > 0`), in edge order.
fn close_cycle(back: &[u32], waiting: &[u32]) -> Vec<u32> {
    let Some(start) = waiting.iter().position(|&w| w > 0) else {
        return Vec::new();
    };
    // Walk back until a node repeats; the walk from its first visit is a cycle.
    let mut step = vec![usize::MAX; back.len()];
    let mut walk: Vec<u32> = Vec::new();
    let mut v = start;
    while step[v] == usize::MAX {
        step[v] = walk.len();
        walk.push(v as u32);
        v = back[v] as usize;
    }
    let mut cycle = walk.split_off(step[v]);
    cycle.reverse();
    cycle
}

/// The refusal of weighted betweenness over a cycle of edges that add nothing
/// to a path's length.
fn infinitely_many(net: &Network, nodes: &[NodeIndex], cycle: &[u32]) -> Error {
    const SHOWN: usize = 8;
    let mut ids: Vec<String> = cycle
        .iter()
        .take(SHOWN)
        .map(|&v| format!("'{}'", net.id_at(nodes[v as usize])))
        .collect();
    if cycle.len() > SHOWN {
        ids.push(format!("… ({} nodes)", cycle.len()));
    } else if let Some(first) = ids.first().cloned() {
        ids.push(first);
    }
    Error::InvalidValue {
        field: "weighted".into(),
        reason: format!(
            "betweenness by weight counts shortest paths, and the cycle {} adds nothing to a path's length (its edges weigh 0, or too little to change a distance), so there are infinitely many shortest paths; count hops instead (weighted false), or give an edge of the cycle a positive weight",
            ids.join(" → ")
        ),
    }
}

/// A cycle of zero-weight edges (lightest parallel edge, self-loops left out),
/// if there is one: Kahn's algorithm on those edges alone. O(V + E).
fn zero_weight_cycle(rows: &SimpleRows, n: usize) -> Option<Vec<u32>> {
    let mut waiting = vec![0u32; n];
    for (k, &w) in rows.target.iter().enumerate() {
        if rows.weight[k] == 0.0 {
            waiting[w as usize] += 1;
        }
    }
    crate::budget::charge(1 + rows.target.len() as u64);
    let mut ready: Vec<u32> = (0..n as u32)
        .filter(|&v| waiting[v as usize] == 0)
        .collect();
    let mut done = 0;
    while let Some(v) = ready.pop() {
        done += 1;
        let v = v as usize;
        crate::budget::charge(1 + rows.of(v).len() as u64);
        for k in rows.of(v) {
            if rows.weight[k] == 0.0 {
                let w = rows.target[k] as usize;
                waiting[w] -= 1;
                if waiting[w] == 0 {
                    ready.push(w as u32);
                }
            }
        }
    }
    if done == n {
        return None;
    }
    let mut back = vec![u32::MAX; n];
    for u in 0..n {
        if waiting[u] == 0 {
            continue;
        }
        for k in rows.of(u) {
            let w = rows.target[k] as usize;
            if rows.weight[k] == 0.0 && waiting[w] > 0 {
                back[w] = u as u32;
            }
        }
    }
    Some(close_cycle(&back, &waiting))
}

impl Network {
    /// Degree centrality: each node's degree (in, out or both, parallel edges
    /// each counted) divided by `V − 1`; every node scores 1 when `V ≤ 1`.
    /// NetworkX's `degree_centrality`, `in_…` and `out_degree_centrality`. O(V).
    pub fn degree_centrality(&self, kind: DegreeKind) -> Scores {
        let nodes: Vec<NodeIndex> = self.graph().node_indices().collect();
        let n = nodes.len();
        let values = nodes
            .iter()
            .map(|&v| {
                if n <= 1 {
                    return 1.0;
                }
                let (din, dout) = self.degrees(v);
                let d = match kind {
                    DegreeKind::In => din,
                    DegreeKind::Out => dout,
                    DegreeKind::Total => din + dout,
                };
                d as f64 / (n - 1) as f64
            })
            .collect();
        Scores { nodes, values }
    }

    /// PageRank by power iteration, exactly as NetworkX's `pagerank` computes it:
    /// each node's out-links weighted by the summed weight of its parallel edges
    /// (or their count), a node without out-links handing its rank to the
    /// personalization vector, and the scores summing to 1.
    ///
    /// Complexity: O((V + E) · iterations).
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for a damping outside 0..=1, a tolerance that is not
    /// positive, negative edge weights (weighted), or a personalization that is
    /// negative or sums to 0; [`Error::InvalidValue`] naming `max_iterations` if
    /// the iteration does not converge in time.
    ///
    /// ```
    /// use networks_mcp::network::{Network, centrality::PageRankOptions};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "c", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// let ranks = net.pagerank(&PageRankOptions::default())?;
    /// let best = ranks.ranked()[0];
    /// assert_eq!(net.id_at(ranks.nodes[best]), "c");
    /// assert!((ranks.values.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn pagerank(&self, options: &PageRankOptions) -> Result<Scores> {
        if !(0.0..=1.0).contains(&options.damping) {
            return Err(Error::InvalidValue {
                field: "damping".into(),
                reason: format!("{} is not between 0 and 1; 0.85 is usual", options.damping),
            });
        }
        if !(options.tolerance > 0.0 && options.tolerance.is_finite()) {
            return Err(Error::InvalidValue {
                field: "tolerance".into(),
                reason: format!(
                    "{} is not a positive number; 1e-6 is usual",
                    options.tolerance
                ),
            });
        }
        if options.weighted {
            refuse_negative(self, "PageRank")?;
        }
        let nodes: Vec<NodeIndex> = self.graph().node_indices().collect();
        let n = nodes.len();
        if n == 0 {
            return Ok(Scores {
                nodes,
                values: Vec::new(),
            });
        }
        // Where a jump lands, by node index.
        let mut jump = vec![0.0; self.graph().node_bound()];
        match &options.personalization {
            None => nodes.iter().for_each(|u| jump[u.index()] = 1.0 / n as f64),
            Some(weights) => {
                for &(ix, w) in weights {
                    if !(w >= 0.0 && w.is_finite()) {
                        return Err(Error::InvalidValue {
                            field: "personalization".into(),
                            reason: format!(
                                "the weight of '{}' is {w}; give non-negative numbers",
                                self.id_at(ix)
                            ),
                        });
                    }
                    if self.graph().contains_node(ix) {
                        jump[ix.index()] = w;
                    }
                }
                let sum: f64 = jump.iter().sum();
                if sum <= 0.0 {
                    return Err(Error::InvalidValue {
                        field: "personalization".into(),
                        reason: "its weights sum to 0; give at least one node a positive weight"
                            .into(),
                    });
                }
                jump.iter_mut().for_each(|w| *w /= sum);
            }
        }
        let iteration = super::pagerank::Iteration {
            nodes: &nodes,
            jump: &jump,
            damping: options.damping,
            weighted: options.weighted,
            tolerance: options.tolerance,
            max_iterations: options.max_iterations,
            threads: options.threads,
        };
        if let Some(ranks) = super::pagerank::ranks(self, &iteration) {
            let values = nodes.iter().map(|u| ranks[u.index()]).collect();
            return Ok(Scores { nodes, values });
        }
        Err(Error::InvalidValue {
            field: "max_iterations".into(),
            reason: format!(
                "PageRank did not converge to tolerance {} in {} iterations; raise max_iterations or tolerance",
                options.tolerance, options.max_iterations
            ),
        })
    }

    /// Betweenness centrality by Brandes' algorithm (U. Brandes, "A faster
    /// algorithm for betweenness centrality", J. Math. Sociol. 25(2), 2001): for
    /// each node, the share of shortest paths between other nodes that pass
    /// through it, with NetworkX's `betweenness_centrality` definition
    /// (endpoints excluded, directed, its rescaling for `normalized` and `k`).
    ///
    /// **By weight, the counts are exact, ties of every kind included.** From
    /// each source, Dijkstra finds the distances; the shortest paths are then
    /// the paths of the DAG of *tight* edges (those with `dist[u] + w ==
    /// dist[v]`, compared exactly as floats), and they are counted, and the
    /// dependencies accumulated, in an order where every tight predecessor of a
    /// node comes before it, among nodes at equal distance too (Kahn's
    /// algorithm over the tight edges). So a zero-weight edge between two nodes
    /// at the same distance counts however the nodes were inserted: with
    /// `a → b` (2), `a → c` (2) and `c → b` (0) there are two shortest paths
    /// from `a` to `b`, and `c` scores 0.5. **NetworkX differs here:** its
    /// `betweenness_centrality` counts paths in Dijkstra's settle order, so it
    /// misses paths through a zero-weight edge into an already settled node and
    /// answers 0 or 0.5 for `c` depending on insertion order. Without
    /// zero-weight edges (and distances small enough that no weight vanishes in
    /// rounding) the two agree.
    ///
    /// **Cycles of zero-weight edges are refused.** Such a cycle makes
    /// infinitely many shortest walks, and counting the shortest *simple* paths
    /// instead is #P-hard in general; so weighted betweenness fails with
    /// [`Error::InvalidValue`] (field `"weighted"`) naming one such cycle,
    /// whether or not a sampled source reaches it (the answer never depends on
    /// the seed's luck). NetworkX answers on such a network, with numbers that
    /// depend on insertion order. By hops every edge counts 1, so
    /// `weighted: false` always answers. The same refusal comes when edges
    /// light enough to vanish in a distance's rounding (e.g. weight 1 after a
    /// distance of 1e17) close a cycle from some source.
    ///
    /// Complexity: O(S·E) by hops, O(S·(E + V log V)) by weight, S being the
    /// sources: every node, or the `k` of the sample; plus O(V + E) for the
    /// zero-weight cycle check.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for weighted paths on negative weights or over
    /// a cycle of zero-weight edges (field `"weighted"`), or a sample of 0
    /// sources (field `"k"`); [`Error::WeightOverflow`] when a weighted
    /// distance is past the range of an `f64`.
    ///
    /// ```
    /// use networks_mcp::network::{Network, centrality::BetweennessOptions};
    ///
    /// // Every path from a to c goes through b.
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// let b = net.betweenness(&BetweennessOptions::default())?;
    /// assert_eq!(b.values, [0.0, 1.0, 0.0]);
    ///
    /// // Two shortest paths from a to b by weight, one through c (by a
    /// // zero-weight edge): c scores 1/2, in any insertion order.
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "b", 2.0)?;
    /// net.add_edge("a", "c", 2.0)?;
    /// net.add_edge("c", "b", 0.0)?;
    /// let by_weight = BetweennessOptions { weighted: true, ..BetweennessOptions::default() };
    /// assert_eq!(net.betweenness(&by_weight)?.values, [0.0, 0.0, 0.5]);
    ///
    /// // A cycle of zero-weight edges: infinitely many shortest paths.
    /// net.add_edge("b", "c", 0.0)?;
    /// assert!(net.betweenness(&by_weight).is_err());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn betweenness(&self, options: &BetweennessOptions) -> Result<Scores> {
        if options.weighted {
            refuse_negative(self, "betweenness")?;
        }
        let (nodes, position) = self.dense_numbering();
        let n = nodes.len();
        let sources: Vec<usize> = match options.sample {
            None => (0..n).collect(),
            Some((0, _)) => {
                return Err(Error::InvalidValue {
                    field: "k".into(),
                    reason: "a sample of 0 sources measures nothing; give at least 1".into(),
                });
            }
            Some((k, seed)) => sample(n, k, seed),
        };
        let rows = SimpleRows::new(self, &position, &nodes, false);
        let incoming = (!options.weighted).then(|| SimpleRows::new(self, &position, &nodes, true));
        if options.weighted
            && let Some(cycle) = zero_weight_cycle(&rows, n)
        {
            return Err(infinitely_many(self, &nodes, &cycle));
        }
        let mut scores = vec![0.0; n];
        let mut work = Brandes::new(n);
        for &s in &sources {
            match &incoming {
                None => {
                    work.dijkstra(&rows, s);
                    if work.overflowed {
                        return Err(Error::WeightOverflow {
                            what: format!("a shortest path from '{}'", self.id_at(nodes[s])),
                            hops_possible: true,
                        });
                    }
                    if let Err(TightCycle(cycle)) = work.tight_order(&rows, s) {
                        return Err(infinitely_many(self, &nodes, &cycle));
                    }
                    work.accumulate_tight(&rows, s, &mut scores);
                }
                Some(incoming) => {
                    work.bfs_counts(&rows, s);
                    work.accumulate_by_hops(incoming, s, &mut scores);
                }
            }
            work.reset();
        }
        rescale(&mut scores, n, options, &sources);
        Ok(Scores {
            nodes,
            values: scores,
        })
    }

    /// Closeness centrality as NetworkX's `closeness_centrality` defines it on a
    /// directed graph: from the distances *to* each node (inward), `(r − 1) / Σd`
    /// with `r` the nodes that reach it (itself included), scaled by
    /// `(r − 1) / (V − 1)` (Wasserman and Faust) when `wf_improved`; 0 for a node
    /// nothing reaches.
    ///
    /// Complexity: O(V·E) by hops, O(V·(E + V log V)) by weight.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for weighted distances on negative weights.
    pub fn closeness(&self, weighted: bool, wf_improved: bool) -> Result<Scores> {
        if weighted {
            refuse_negative(self, "closeness")?;
        }
        let (nodes, position) = self.dense_numbering();
        let n = nodes.len();
        let rows = SimpleRows::new(self, &position, &nodes, true);
        let mut work = Brandes::new(n);
        let mut values = vec![0.0; n];
        for (s, value) in values.iter_mut().enumerate() {
            if weighted {
                work.dijkstra(&rows, s);
            } else {
                work.bfs_counts(&rows, s);
            }
            let reached = work.order.len();
            let total: f64 = work.order.iter().map(|&v| work.dist[v as usize]).sum();
            if total > 0.0 && n > 1 {
                *value = (reached as f64 - 1.0) / total;
                if wf_improved {
                    *value *= (reached as f64 - 1.0) / (n as f64 - 1.0);
                }
            }
            work.reset();
        }
        Ok(Scores { nodes, values })
    }
}

/// NetworkX 3.6's `_rescale` for node betweenness without endpoints.
fn rescale(scores: &mut [f64], n: usize, options: &BetweennessOptions, sources: &[usize]) {
    let big_n = n.saturating_sub(1) as f64;
    if n < 3 {
        return;
    }
    match options.sample {
        None => {
            if options.normalized {
                let scale = 1.0 / (big_n * (big_n - 1.0));
                scores.iter_mut().for_each(|s| *s *= scale);
            }
        }
        Some(_) => {
            let k = sources.len() as f64;
            let (source_scale, other_scale) = if options.normalized {
                let source = if k > 1.0 {
                    1.0 / ((k - 1.0) * (big_n - 1.0))
                } else {
                    0.0
                };
                (source, 1.0 / (k * (big_n - 1.0)))
            } else {
                let source = if k > 1.0 { big_n / (k - 1.0) } else { 0.0 };
                (source, big_n / k)
            };
            let mut is_source = vec![false; n];
            for &s in sources {
                is_source[s] = true;
            }
            for (v, score) in scores.iter_mut().enumerate() {
                *score *= if is_source[v] {
                    source_scale
                } else {
                    other_scale
                };
            }
        }
    }
}
