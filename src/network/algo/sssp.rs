//! Single-source distances by delta-stepping (U. Meyer, P. Sanders,
//! "Δ-stepping: a parallelizable shortest path algorithm", J. Algorithms 49(1),
//! 2003), on one thread over the compact out-rows.
//!
//! Tentative distances are kept in buckets of width Δ (an eighth of the mean
//! edge weight).
//! The lowest non-empty bucket is emptied by relaxing its nodes' edges, again
//! and again until nothing falls back into it; its nodes are then final. A
//! node may be relaxed more than once, but a bucket is a plain vector, so the
//! queue costs a push and a read where a heap costs a logarithm. The buckets
//! form a ring of [`RING`]; a distance past it waits in a list, read again
//! when the ring runs empty. Δ comes from a sample of the weights, taken once
//! per state of the network, so a call reads only what it reaches.
//!
//! The distances are Dijkstra's exactly, bit for bit: both end at the least
//! solution of `dist[v] = min over edges u → v of dist[u] + w` (a float sum
//! never decreases as its operand grows), which is unique. When the sampled
//! weights are all zero, or the list past the ring is read again and again
//! (weights spread over many orders of magnitude), [`distances`] returns
//! `None` and the caller runs Dijkstra.

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;

use std::cell::Cell;

use crate::budget::charge;
use crate::network::graph::Network;
use crate::network::graph::adjacency::Rows;

/// Buckets in the ring; a distance past the ring waits in a list of its own.
const RING: usize = 1 << 11;

/// Δ is the mean weight over this. Narrower buckets relax fewer nodes twice,
/// wider ones cost fewer empty buckets: at a million nodes and five million
/// edges (weights 1..=255) an eighth of the mean took 0.153 s, the whole mean
/// 0.179 s, a sixty-fourth 0.174 s (examples/bench_kernels.rs).
const DELTA_PER_MEAN: f64 = 8.0;

/// Nodes whose out-weights are sampled for the mean.
const WEIGHT_SAMPLE: usize = 512;

/// The bucket width for the network as it is: an eighth of the mean weight,
/// from an evenly spaced sample of the rows, so that a call costs what it
/// reaches rather than a read of every weight. Kept for the state it was
/// measured at (the network's instance and version): a source that reaches a
/// few hundred nodes of a large graph would otherwise spend most of its time
/// reading the sample. The width only sets how the work is grouped: the
/// distances are the same for any width.
fn delta(net: &Network, out: &Rows) -> f64 {
    /// A network's instance, version, node bound and edge count.
    type State = (u64, u64, usize, usize);
    thread_local! {
        static MEASURED: Cell<Option<(State, f64)>> = const { Cell::new(None) };
    }
    let graph = net.graph();
    let state = (
        net.instance(),
        net.version(),
        graph.node_bound(),
        graph.edge_count(),
    );
    if let Some((at, delta)) = MEASURED.get()
        && at == state
    {
        return delta;
    }
    let step = (graph.node_count() / WEIGHT_SAMPLE).max(1);
    let (mut total, mut sampled) = (0.0f64, 0usize);
    for u in graph.node_indices().step_by(step) {
        let (_, weights) = out.weighted(u);
        total += weights.iter().sum::<f64>();
        sampled += weights.len();
    }
    charge((graph.node_count() / step) as u64 + sampled as u64 / 8);
    let delta = total / sampled.max(1) as f64 / DELTA_PER_MEAN;
    MEASURED.set(Some((state, delta)));
    delta
}

/// What [`distances`] found: by node index, and whether a sum overflowed
/// (its node then looks unreached).
pub(super) struct Found {
    pub dist: Vec<f64>,
    pub overflowed: bool,
}

/// The distances from `from` along every edge (weights non-negative), or
/// `None` when the weights do not suit buckets (all zero where sampled, or so
/// spread that distances keep landing past the ring).
pub(super) fn distances(net: &Network, from: NodeIndex) -> Option<Found> {
    let out = net.rows(Outgoing);
    let graph = net.graph();
    let bound = graph.node_bound();
    let delta = delta(net, out);
    if !(delta > 0.0 && delta.is_finite()) {
        return None;
    }
    let bucket_of = |d: f64| (d / delta) as u64;
    let mut dist = vec![f64::INFINITY; bound];
    let mut ring: Vec<Vec<u32>> = vec![Vec::new(); RING];
    // Nodes whose distance lies past the ring when queued.
    let mut far: Vec<u32> = Vec::new();
    // Entries moved in from `far` so far: past a few times the graph, the
    // weights are too spread for buckets.
    let mut far_read = 0usize;
    let far_limit = 4 * (bound + graph.edge_count()) + RING;
    let mut pending = 1usize;
    let mut overflowed = false;
    dist[from.index()] = 0.0;
    ring[0].push(from.index() as u32);
    let mut current = 0u64;
    let mut batch = Vec::new();
    loop {
        if pending == 0 {
            // The ring is empty: on to the nearest distance waiting past it.
            // Entries whose node has since been settled nearer are stale.
            let nearest = far
                .iter()
                .map(|&v| bucket_of(dist[v as usize]))
                .filter(|&b| b >= current)
                .min();
            let Some(nearest) = nearest else {
                return Some(Found { dist, overflowed });
            };
            far_read += far.len();
            charge(far.len() as u64);
            if far_read > far_limit {
                return None;
            }
            current = nearest;
            let mut kept = Vec::new();
            for v in far.drain(..) {
                let b = bucket_of(dist[v as usize]);
                if b < current {
                    continue;
                }
                if b < current + RING as u64 {
                    ring[(b % RING as u64) as usize].push(v);
                    pending += 1;
                } else {
                    kept.push(v);
                }
            }
            far = kept;
            continue;
        }
        let slot = (current % RING as u64) as usize;
        if ring[slot].is_empty() {
            charge(1);
            current += 1;
            continue;
        }
        // Empty this bucket until nothing falls back into it.
        while !ring[slot].is_empty() {
            std::mem::swap(&mut batch, &mut ring[slot]);
            pending -= batch.len();
            charge(batch.len() as u64);
            for &u in &batch {
                let d = dist[u as usize];
                // A node queued again since, at a lower distance, in an
                // earlier bucket: that entry was the one to relax.
                if bucket_of(d) != current {
                    continue;
                }
                let (targets, weights) = out.weighted(NodeIndex::new(u as usize));
                charge(targets.len() as u64);
                for (v, &w) in targets.iter().zip(weights) {
                    let candidate = d + w;
                    overflowed |= candidate == f64::INFINITY;
                    let old = &mut dist[v.index()];
                    if candidate < *old {
                        *old = candidate;
                        let b = bucket_of(candidate);
                        if b < current + RING as u64 {
                            ring[(b % RING as u64) as usize].push(v.index() as u32);
                            pending += 1;
                        } else {
                            far.push(v.index() as u32);
                        }
                    }
                }
            }
            batch.clear();
        }
        current += 1;
        if pending == 0 && far.is_empty() {
            return Some(Found { dist, overflowed });
        }
    }
}
