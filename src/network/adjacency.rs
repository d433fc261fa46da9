//! A compact, read-only copy of a network's adjacency (compressed sparse rows),
//! built lazily and dropped by every structural change.
//!
//! petgraph's [`StableDiGraph`] keeps each node's edges as a linked list threaded
//! through the edge records, so walking a large graph costs one dependent cache
//! miss per edge. Whole-graph algorithms (BFS, Dijkstra, topological order, SCC)
//! are bound by exactly those misses. An [`Adjacency`] stores every node's
//! neighbors contiguously — 12 bytes per out-edge (target and weight), 4 per
//! in-edge — so the same walks read memory mostly in order.
//!
//! Rows list edges in petgraph's own order (newest edge first), so an algorithm
//! gives the same answer on either representation; callers that want insertion
//! order read a row backwards, as they reverse petgraph's lists.
//!
//! **When it is built** ([`AdjacencyCache`]). Building costs one pass over the
//! edges, O(V + E). Algorithms that look at the whole graph anyway build it
//! on first use ([`AdjacencyCache::full`]). Queries that may touch only a little of
//! it — one node's neighbors, a bounded walk — use it only when it exists and
//! otherwise walk petgraph's lists, adding the edges they walked to a counter; once
//! that work since the last change reaches the cost of a build, the next such
//! query builds it ([`AdjacencyCache::partial`]). That rule (the "ski rental"
//! argument) keeps a read-mostly workload within about twice the cost of the best
//! choice made in hindsight, while a workload that alternates writes and small
//! reads never pays for a build it cannot use.

use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::{EdgeRef, NodeIndexable};

use super::edge_ids::EdgeIdIndex;
use super::{Edge, Network, Node};

type Graph = StableDiGraph<Node, Edge>;

/// Every node's out- and in-neighbors in compressed sparse rows, indexed by
/// `NodeIndex::index()` (vacant indices have empty rows).
#[derive(Debug, Clone)]
pub struct Adjacency {
    out_start: Vec<u32>,
    out_target: Vec<NodeIndex>,
    out_weight: Vec<f64>,
    in_start: Vec<u32>,
    in_source: Vec<NodeIndex>,
}

impl Adjacency {
    /// Builds the rows from the graph, taking edges newest first (descending edge
    /// id) so that each row matches petgraph's list order. O(V + E).
    pub(crate) fn build(graph: &Graph, edge_ids: &EdgeIdIndex) -> Adjacency {
        let bound = graph.node_bound();
        let edges = graph.edge_count();
        let mut out_start = vec![0u32; bound + 1];
        let mut in_start = vec![0u32; bound + 1];
        // Two passes over the edges: count each row's length, then fill the rows.
        let each_edge = |f: &mut dyn FnMut(NodeIndex, NodeIndex, f64)| {
            edge_ids.for_each_newest_first(|ix| {
                if let (Some((a, b)), Some(e)) = (graph.edge_endpoints(ix), graph.edge_weight(ix)) {
                    f(a, b, e.weight);
                }
            })
        };
        each_edge(&mut |a, b, _| {
            out_start[a.index() + 1] += 1;
            in_start[b.index() + 1] += 1;
        });
        prefix_sum(&mut out_start);
        prefix_sum(&mut in_start);
        let mut out_target = vec![NodeIndex::end(); edges];
        let mut out_weight = vec![0.0; edges];
        let mut in_source = vec![NodeIndex::end(); edges];
        // Cursors: the next free slot of each row, advanced as edges are placed.
        let mut out_next = out_start.clone();
        let mut in_next = in_start.clone();
        each_edge(&mut |a, b, w| {
            let o = &mut out_next[a.index()];
            out_target[*o as usize] = b;
            out_weight[*o as usize] = w;
            *o += 1;
            let i = &mut in_next[b.index()];
            in_source[*i as usize] = a;
            *i += 1;
        });
        Adjacency {
            out_start,
            out_target,
            out_weight,
            in_start,
            in_source,
        }
    }

    /// Out-neighbors of `ix`, newest edge first (one entry per edge).
    #[inline]
    pub fn out_neighbors(&self, ix: NodeIndex) -> &[NodeIndex] {
        let (s, e) = row(&self.out_start, ix);
        &self.out_target[s..e]
    }

    /// Out-neighbors of `ix` with the weights of the edges to them, newest edge first.
    #[inline]
    pub fn out_weighted(&self, ix: NodeIndex) -> (&[NodeIndex], &[f64]) {
        let (s, e) = row(&self.out_start, ix);
        (&self.out_target[s..e], &self.out_weight[s..e])
    }

    /// In-neighbors of `ix`, newest edge first (one entry per edge).
    #[inline]
    pub fn in_neighbors(&self, ix: NodeIndex) -> &[NodeIndex] {
        let (s, e) = row(&self.in_start, ix);
        &self.in_source[s..e]
    }

    /// Neighbors of `ix` along `dir` (petgraph's direction), newest edge first.
    #[inline]
    pub fn neighbors(&self, ix: NodeIndex, dir: petgraph::Direction) -> &[NodeIndex] {
        match dir {
            petgraph::Direction::Outgoing => self.out_neighbors(ix),
            petgraph::Direction::Incoming => self.in_neighbors(ix),
        }
    }

    /// In-degree of every node index (the length of each in-row).
    pub fn in_degrees(&self) -> impl Iterator<Item = u32> + '_ {
        self.in_start.windows(2).map(|w| w[1] - w[0])
    }

    /// Out-degree of every node index (the length of each out-row).
    pub fn out_degrees(&self) -> impl Iterator<Item = u32> + '_ {
        self.out_start.windows(2).map(|w| w[1] - w[0])
    }
}

#[inline]
fn row(start: &[u32], ix: NodeIndex) -> (usize, usize) {
    match start.get(ix.index()..ix.index() + 2) {
        Some(w) => (w[0] as usize, w[1] as usize),
        None => (0, 0),
    }
}

fn prefix_sum(v: &mut [u32]) {
    for i in 1..v.len() {
        v[i] += v[i - 1];
    }
}

/// The lazily built [`Adjacency`] of one network and the bookkeeping that decides
/// when to build it (see the module docs). Cloning a network does not copy it.
#[derive(Debug, Default)]
pub(crate) struct AdjacencyCache {
    built: OnceLock<Adjacency>,
    /// Edges walked on petgraph's lists since the last change.
    linked_work: AtomicUsize,
}

impl Clone for AdjacencyCache {
    fn clone(&self) -> Self {
        AdjacencyCache::default()
    }
}

impl AdjacencyCache {
    /// Forgets the adjacency: called by every change to nodes or edges.
    #[inline]
    pub(crate) fn invalidate(&mut self) {
        if self.built.get().is_some() {
            self.built = OnceLock::new();
        }
        *self.linked_work.get_mut() = 0;
    }

    /// For an algorithm that reads the whole graph: the adjacency, built now if needed.
    pub(crate) fn full(&self, graph: &Graph, edge_ids: &EdgeIdIndex) -> &Adjacency {
        self.built.get_or_init(|| Adjacency::build(graph, edge_ids))
    }

    /// For a query that may read only part of the graph: the adjacency if it is
    /// built, or if the list walks since the last change have already cost as much
    /// as building it; `None` means walk petgraph's lists and [`charge`](Self::charge) them.
    #[inline]
    pub(crate) fn partial(&self, graph: &Graph, edge_ids: &EdgeIdIndex) -> Option<&Adjacency> {
        if let Some(adj) = self.built.get() {
            return Some(adj);
        }
        let build_cost = graph.node_bound() + graph.edge_count();
        (self.linked_work.load(Ordering::Relaxed) >= build_cost).then(|| self.full(graph, edge_ids))
    }

    /// Records `edges` walked on petgraph's lists.
    #[inline]
    pub(crate) fn charge(&self, edges: usize) {
        self.linked_work.fetch_add(edges, Ordering::Relaxed);
    }
}

/// Where one query reads neighbors from: the compact rows, or petgraph's lists
/// (whose walked edges are charged to the network when the query ends).
pub(crate) struct NeighborSource<'a> {
    net: &'a Network,
    rows: Option<&'a Adjacency>,
    walked: Cell<usize>,
}

impl<'a> NeighborSource<'a> {
    /// For a query that may read only part of the graph (see the module docs).
    pub(crate) fn partial(net: &'a Network) -> Self {
        let rows = net.adjacency_if_worth_it();
        NeighborSource {
            net,
            rows,
            walked: Cell::new(0),
        }
    }

    /// Appends the neighbors of `ix` along `dir` that `keep` accepts, oldest edge
    /// first (insertion order), one entry per edge.
    #[inline]
    pub(crate) fn extend_oldest_first(
        &self,
        ix: NodeIndex,
        dir: petgraph::Direction,
        buf: &mut Vec<NodeIndex>,
        keep: impl Fn(NodeIndex) -> bool,
    ) {
        match self.rows {
            Some(adj) => buf.extend(adj.neighbors(ix, dir).iter().rev().filter(|&&n| keep(n))),
            None => {
                let start = buf.len();
                let mut walked = 0;
                buf.extend(
                    self.net
                        .graph()
                        .neighbors_directed(ix, dir)
                        .inspect(|_| walked += 1)
                        .filter(|&n| keep(n)),
                );
                buf[start..].reverse();
                self.walked.set(self.walked.get() + 1 + walked);
            }
        }
    }

    /// Calls `f(target, weight)` for every edge leaving `ix`, newest edge first
    /// (petgraph's order).
    #[inline]
    pub(crate) fn for_each_out_newest_first(
        &self,
        ix: NodeIndex,
        mut f: impl FnMut(NodeIndex, f64),
    ) {
        match self.rows {
            Some(adj) => {
                let (targets, weights) = adj.out_weighted(ix);
                for (&t, &w) in targets.iter().zip(weights) {
                    f(t, w);
                }
            }
            None => {
                let mut walked = 1;
                for e in self
                    .net
                    .graph()
                    .edges_directed(ix, petgraph::Direction::Outgoing)
                {
                    walked += 1;
                    f(e.target(), e.weight().weight);
                }
                self.walked.set(self.walked.get() + walked);
            }
        }
    }
}

impl Drop for NeighborSource<'_> {
    fn drop(&mut self) {
        if self.rows.is_none() {
            self.net.charge_walk(self.walked.get());
        }
    }
}
