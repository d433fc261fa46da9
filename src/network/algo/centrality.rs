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
//!
//! Determinism: every loop runs in insertion order; betweenness with a sample of
//! `k` sources draws them with a seeded generator, the same for the same seed
//! and network.

use std::collections::VecDeque;

use dary_heap::QuaternaryHeap;
use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::EdgeRef;

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
}

impl Default for PageRankOptions {
    fn default() -> Self {
        PageRankOptions {
            damping: 0.85,
            tolerance: 1e-6,
            max_iterations: 100,
            weighted: true,
            personalization: None,
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
    order: Vec<u32>,
    preds: Vec<Vec<u32>>,
    sigma: Vec<f64>,
    dist: Vec<f64>,
    settled: Vec<bool>,
    delta: Vec<f64>,
}

impl Brandes {
    fn new(n: usize) -> Brandes {
        Brandes {
            order: Vec::with_capacity(n),
            preds: vec![Vec::new(); n],
            sigma: vec![0.0; n],
            dist: vec![f64::INFINITY; n],
            settled: vec![false; n],
            delta: vec![0.0; n],
        }
    }

    fn reset(&mut self) {
        for &v in &self.order {
            let v = v as usize;
            self.preds[v].clear();
            self.sigma[v] = 0.0;
            self.dist[v] = f64::INFINITY;
            self.settled[v] = false;
            self.delta[v] = 0.0;
        }
        self.order.clear();
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

    /// Shortest paths from `s` by weight (NetworkX's
    /// `_single_source_dijkstra_path_basic`, equal distances compared exactly).
    /// Every node it reaches is settled, so [`Brandes::reset`] finds them all in
    /// `order`. Path counts are half NetworkX's (it counts the source twice),
    /// which their ratios, all that betweenness uses, do not see.
    fn dijkstra(&mut self, rows: &SimpleRows, s: usize) {
        let mut heap = QuaternaryHeap::new();
        let mut count = 0u64;
        self.sigma[s] = 1.0;
        self.dist[s] = 0.0;
        // Ties in the order pushed, as NetworkX's counter breaks them; the item
        // is (predecessor, node).
        heap.push(Nearest {
            dist: 0.0,
            tie: count,
            item: (s as u32, s as u32),
        });
        // `dist` holds NetworkX's `seen`; `settled` its `D`.
        let mut first = true;
        while let Some(Nearest {
            dist,
            item: (pred, node),
            ..
        }) = heap.pop()
        {
            let v = node as usize;
            crate::budget::charge(1);
            if self.settled[v] {
                continue;
            }
            if !first {
                self.sigma[v] += self.sigma[pred as usize];
            }
            first = false;
            self.order.push(node);
            self.settled[v] = true;
            for k in rows.of(v) {
                let w = rows.target[k] as usize;
                let vw = dist + rows.weight[k];
                if !self.settled[w] && (self.dist[w].is_infinite() || vw < self.dist[w]) {
                    self.dist[w] = vw;
                    count += 1;
                    heap.push(Nearest {
                        dist: vw,
                        tie: count,
                        item: (node, w as u32),
                    });
                    self.sigma[w] = 0.0;
                    self.preds[w].clear();
                    self.preds[w].push(node);
                } else if vw == self.dist[w] {
                    self.sigma[w] += self.sigma[v];
                    self.preds[w].push(node);
                }
            }
        }
    }

    /// Adds `s`'s dependencies to `scores` (NetworkX's `_accumulate_basic`).
    fn accumulate(&mut self, s: usize, scores: &mut [f64]) {
        for &w in self.order.iter().rev() {
            let w = w as usize;
            let coefficient = (1.0 + self.delta[w]) / self.sigma[w];
            for &v in &self.preds[w] {
                self.delta[v as usize] += self.sigma[v as usize] * coefficient;
            }
            if w != s {
                scores[w] += self.delta[w];
            }
        }
    }
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
        let (nodes, position) = self.dense_numbering();
        let n = nodes.len();
        if n == 0 {
            return Ok(Scores {
                nodes,
                values: Vec::new(),
            });
        }
        let g = self.graph();
        // Row-stochastic links: u -> v with (summed weight of u -> v edges) / (u's out-weight).
        let mut start = Vec::with_capacity(n + 1);
        let mut target: Vec<u32> = Vec::new();
        let mut share: Vec<f64> = Vec::new();
        let mut row: Vec<(u32, f64)> = Vec::new();
        let mut dangling = vec![false; n];
        for (i, &u) in nodes.iter().enumerate() {
            start.push(target.len());
            row.clear();
            for e in g.edges_directed(u, Outgoing) {
                let w = if options.weighted {
                    e.weight().weight
                } else {
                    1.0
                };
                row.push((position[e.target().index()], w));
            }
            row.sort_by_key(|&(v, _)| v);
            let mut merged: Vec<(u32, f64)> = Vec::with_capacity(row.len());
            for &(v, w) in &row {
                match merged.last_mut() {
                    Some((last, sum)) if *last == v => *sum += w,
                    _ => merged.push((v, w)),
                }
            }
            let total: f64 = merged.iter().map(|&(_, w)| w).sum();
            if total == 0.0 {
                dangling[i] = true;
                continue;
            }
            for (v, w) in merged {
                target.push(v);
                share.push(w * (1.0 / total));
            }
        }
        start.push(target.len());

        let jump: Vec<f64> = match &options.personalization {
            None => vec![1.0 / n as f64; n],
            Some(weights) => {
                let mut p = vec![0.0; n];
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
                    if let Some(&k) = position.get(ix.index()) {
                        p[k as usize] = w;
                    }
                }
                let sum: f64 = p.iter().sum();
                if sum <= 0.0 {
                    return Err(Error::InvalidValue {
                        field: "personalization".into(),
                        reason: "its weights sum to 0; give at least one node a positive weight"
                            .into(),
                    });
                }
                p.iter().map(|w| w / sum).collect()
            }
        };

        let alpha = options.damping;
        let mut x = vec![1.0 / n as f64; n];
        let mut next = vec![0.0; n];
        for _ in 0..options.max_iterations {
            next.iter_mut().for_each(|v| *v = 0.0);
            for u in 0..n {
                crate::budget::charge(1 + (start[u + 1] - start[u]) as u64);
                let xu = x[u];
                for k in start[u]..start[u + 1] {
                    next[target[k] as usize] += xu * share[k];
                }
            }
            let lost: f64 = (0..n).filter(|&u| dangling[u]).map(|u| x[u]).sum();
            let mut err = 0.0;
            for v in 0..n {
                let value = alpha * (next[v] + lost * jump[v]) + (1.0 - alpha) * jump[v];
                err += (value - x[v]).abs();
                next[v] = value;
            }
            std::mem::swap(&mut x, &mut next);
            if err < n as f64 * options.tolerance {
                return Ok(Scores { nodes, values: x });
            }
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
    /// Complexity: O(S·E) by hops, O(S·(E + V log V)) by weight, S being the
    /// sources: every node, or the `k` of the sample.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for weighted paths on negative weights, or a
    /// sample of 0 sources.
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
        let mut scores = vec![0.0; n];
        let mut work = Brandes::new(n);
        for &s in &sources {
            match &incoming {
                None => {
                    work.dijkstra(&rows, s);
                    work.accumulate(s, &mut scores);
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
