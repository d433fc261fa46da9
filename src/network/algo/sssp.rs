//! Single-source distances by delta-stepping (U. Meyer, P. Sanders,
//! "Δ-stepping: a parallelizable shortest path algorithm", J. Algorithms 49(1),
//! 2003), on one thread over the compact out-rows.
//!
//! Tentative distances are kept in buckets of width Δ (an eighth of the mean
//! edge weight).
//! The lowest non-empty bucket is emptied by relaxing its nodes' edges, again
//! and again until nothing falls back into it; its nodes are then final. A
//! node may be relaxed more than once, but a bucket is a plain vector, so the
//! queue costs a push and a read where a heap costs a logarithm. Since every
//! tentative distance lies within the heaviest weight of the bucket being
//! emptied, the buckets form a ring of `⌈max weight / Δ⌉ + 2`.
//!
//! The distances are Dijkstra's exactly, bit for bit: both end at the least
//! solution of `dist[v] = min over edges u → v of dist[u] + w` (a float sum
//! never decreases as its operand grows), which is unique. When the weights
//! are spread too widely for a ring of [`MAX_BUCKETS`] (or are all zero),
//! [`distances`] returns `None` and the caller runs Dijkstra.

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;

use crate::budget::charge;
use crate::network::graph::Network;

/// The largest ring of buckets worth keeping.
const MAX_BUCKETS: usize = 1 << 16;

/// Δ is the mean weight over this. Narrower buckets relax fewer nodes twice,
/// wider ones cost fewer empty buckets: at a million nodes and five million
/// edges (weights 1..=255) an eighth of the mean took 0.153 s, the whole mean
/// 0.179 s, a sixty-fourth 0.174 s (examples/bench_kernels.rs).
const DELTA_PER_MEAN: f64 = 8.0;

/// What [`distances`] found: by node index, and whether a sum overflowed
/// (its node then looks unreached).
pub(super) struct Found {
    pub dist: Vec<f64>,
    pub overflowed: bool,
}

/// The distances from `from` along every edge (weights non-negative), or
/// `None` when the weights do not suit buckets.
pub(super) fn distances(net: &Network, from: NodeIndex) -> Option<Found> {
    let out = net.rows(Outgoing);
    let bound = net.graph().node_bound();
    let (mut total, mut heaviest, mut edges) = (0.0f64, 0.0f64, 0usize);
    for u in net.graph().node_indices() {
        let (_, weights) = out.weighted(u);
        charge(1 + weights.len() as u64 / 8);
        edges += weights.len();
        for &w in weights {
            total += w;
            heaviest = heaviest.max(w);
        }
    }
    let delta = total / edges.max(1) as f64 / DELTA_PER_MEAN;
    if !(delta > 0.0 && total.is_finite()) {
        return None;
    }
    let ring = (heaviest / delta).ceil() + 2.0;
    if ring > MAX_BUCKETS as f64 {
        return None;
    }
    let ring = ring as usize;
    let bucket_of = |d: f64| (d / delta) as u64;
    let mut dist = vec![f64::INFINITY; bound];
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); ring];
    let mut pending = 1usize;
    let mut overflowed = false;
    dist[from.index()] = 0.0;
    buckets[0].push(from.index() as u32);
    let mut current = 0u64;
    let mut batch = Vec::new();
    while pending > 0 {
        let slot = (current % ring as u64) as usize;
        if buckets[slot].is_empty() {
            charge(1);
            current += 1;
            continue;
        }
        // Empty this bucket until nothing falls back into it.
        while !buckets[slot].is_empty() {
            std::mem::swap(&mut batch, &mut buckets[slot]);
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
                        let b = (bucket_of(candidate) % ring as u64) as usize;
                        buckets[b].push(v.index() as u32);
                        pending += 1;
                    }
                }
            }
            batch.clear();
        }
        current += 1;
    }
    Some(Found { dist, overflowed })
}
