//! Single-source distances by delta-stepping (U. Meyer, P. Sanders,
//! "Δ-stepping: a parallelizable shortest path algorithm", J. Algorithms 49(1),
//! 2003), over the compact out-rows, its large buckets shared among threads
//! when a call asks for them.
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
//! `None` and the caller runs Dijkstra. The same argument makes the answer
//! the same on any number of threads, whatever order their atomic minimums
//! land in.

use petgraph::Direction::Outgoing;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;

use std::cell::Cell;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::threads::each_piece;
use crate::budget::charge;
use crate::network::graph::Network;
use crate::network::graph::adjacency::Rows;
use crate::network::graph::prefetch::prefetch_line;

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
    // Every `step`-th node index, read from the rows alone (a vacant index has
    // an empty row): stepping through `node_indices()` would read every node
    // record on the way, 300 µs at 64,000 nodes against a few for the sample.
    let bound = graph.node_bound();
    let step = (bound / WEIGHT_SAMPLE).max(1);
    let (mut total, mut sampled) = (0.0f64, 0usize);
    for u in (0..bound).step_by(step) {
        let (_, weights) = out.weighted(NodeIndex::new(u));
        total += weights.iter().sum::<f64>();
        sampled += weights.len();
    }
    charge((bound / step) as u64 + sampled as u64 / 8);
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

/// How many nodes ahead in a bucket [`relax`] hints the rows it reads.
const ROW_LOOKAHEAD: usize = 8;

/// Nodes a bucket must hold per thread before its relaxations are shared
/// among threads: fewer are not worth starting a thread for (at 2,048, two
/// threads took 100,000 nodes' distances in 8.8–9.8 ms against one's 7.2).
const SHARED_BATCH: usize = 8192;

/// The bits of `+inf`, a distance not reached yet. A non-negative `f64`
/// orders as its bits do as a `u64` (distances here are never `-0.0` nor
/// NaN), so the smaller of two distances is the smaller of their bits.
const UNREACHED: u64 = 0x7FF0_0000_0000_0000;

/// The distances from `from` along every edge (weights non-negative), or
/// `None` when the weights do not suit buckets (all zero where sampled, or so
/// spread that distances keep landing past the ring).
///
/// A bucket of at least [`SHARED_BATCH`] nodes is relaxed on up to `threads`
/// threads ([`crate::budget::threads::for_pass`]; 0: as many as the runner
/// lends, one without a runner), each lowering distances with an atomic
/// minimum and queueing the nodes it lowered in buckets of its own, as GAPBS
/// does; the next bucket is then the same bucket of every thread. The same
/// distances on any number of threads, as the least solution is unique.
pub(super) fn distances(net: &Network, from: NodeIndex, threads: usize) -> Option<Found> {
    let out = net.rows(Outgoing);
    let graph = net.graph();
    let bound = graph.node_bound();
    let delta = delta(net, out);
    if !(delta > 0.0 && delta.is_finite()) {
        return None;
    }
    let bucket_of = |d: f64| (d / delta) as u64;
    // Atomic so that threads can share a bucket; on one thread each access is
    // a plain load or store.
    let dist: Vec<AtomicU64> = (0..bound).map(|_| AtomicU64::new(UNREACHED)).collect();
    let at = |v: u32| f64::from_bits(dist[v as usize].load(Relaxed));
    // One queue per thread a pass may have.
    let lanes = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let mut queues: Vec<Queue> = (0..lanes).map(|_| Queue::new()).collect();
    // Entries moved in from the lists past the ring so far: past a few times
    // the graph, the weights are too spread for buckets.
    let mut far_read = 0usize;
    let far_limit = 4 * (bound + graph.edge_count()) + RING;
    let mut overflowed = false;
    dist[from.index()].store(0f64.to_bits(), Relaxed);
    queues[0].push(from.index() as u32, 0, 0);
    let mut current = 0u64;
    let mut batch = Vec::new();
    let finish = |dist: Vec<AtomicU64>, overflowed| {
        let dist = dist
            .into_iter()
            .map(|d| f64::from_bits(d.into_inner()))
            .collect();
        Some(Found { dist, overflowed })
    };
    loop {
        if queues.iter().all(|q| q.pending == 0) {
            // The rings are empty: on to the nearest distance waiting past
            // them. Entries whose node has since been settled nearer are stale.
            let nearest = queues
                .iter()
                .flat_map(|q| &q.far)
                .map(|&v| bucket_of(at(v)))
                .filter(|&b| b >= current)
                .min();
            let Some(nearest) = nearest else {
                return finish(dist, overflowed);
            };
            current = nearest;
            for queue in &mut queues {
                far_read += queue.far.len();
                charge(queue.far.len() as u64);
                for v in std::mem::take(&mut queue.far) {
                    let b = bucket_of(at(v));
                    if b >= current {
                        queue.push(v, b, current);
                    }
                }
            }
            if far_read > far_limit {
                return None;
            }
            continue;
        }
        let slot = (current % RING as u64) as usize;
        if queues.iter().all(|q| q.ring[slot].is_empty()) {
            charge(1);
            current += 1;
            continue;
        }
        // Empty this bucket until nothing falls back into it.
        loop {
            batch.clear();
            if let [only] = &mut queues[..] {
                std::mem::swap(&mut batch, &mut only.ring[slot]);
                only.pending -= batch.len();
            } else {
                for queue in &mut queues {
                    queue.pending -= queue.ring[slot].len();
                    batch.append(&mut queue.ring[slot]);
                }
            }
            if batch.is_empty() {
                break;
            }
            charge(batch.len() as u64);
            let pass = (lanes > 1 && batch.len() >= SHARED_BATCH)
                .then(|| crate::budget::threads::for_pass(threads, batch.len() / SHARED_BATCH));
            let shared = pass.as_ref().map_or(1, |pass| pass.threads().min(lanes));
            let relaxed = if shared > 1 {
                let pieces: Vec<(&[u32], &mut Queue)> = batch
                    .chunks(batch.len().div_ceil(shared))
                    .zip(queues.iter_mut())
                    .collect();
                each_piece(pieces, |_, (piece, queue)| {
                    let mut beside = Beside {
                        queue,
                        current,
                        delta,
                    };
                    relax(out, &dist, piece, current, delta, &mut beside)
                })
            } else {
                let mut alone = Alone {
                    queue: &mut queues[0],
                    current,
                    delta,
                };
                vec![relax(out, &dist, &batch, current, delta, &mut alone)]
            };
            drop(pass);
            for (edges, over) in relaxed {
                charge(edges as u64);
                overflowed |= over;
            }
        }
        current += 1;
        if queues.iter().all(|q| q.pending == 0 && q.far.is_empty()) {
            return finish(dist, overflowed);
        }
    }
}

/// A ring of buckets and the list past it: one thread's.
struct Queue {
    ring: Vec<Vec<u32>>,
    /// Nodes whose distance lay past the ring when queued.
    far: Vec<u32>,
    /// Entries in the ring.
    pending: usize,
}

impl Queue {
    fn new() -> Self {
        Queue {
            ring: vec![Vec::new(); RING],
            far: Vec::new(),
            pending: 0,
        }
    }

    /// Queues `v` in bucket `b` (not before `current`).
    #[inline]
    fn push(&mut self, v: u32, b: u64, current: u64) {
        if b < current + RING as u64 {
            self.ring[(b % RING as u64) as usize].push(v);
            self.pending += 1;
        } else {
            self.far.push(v);
        }
    }
}

/// What a relaxation does with a lower distance found for a node.
trait Lowering {
    /// `candidate` (its bits `bits`) reached `v`, whose distance is `slot`.
    fn lower(&mut self, slot: &AtomicU64, v: u32, candidate: f64, bits: u64);
}

/// On the only thread: a plain compare and store, and the node queued.
struct Alone<'q> {
    queue: &'q mut Queue,
    current: u64,
    delta: f64,
}

impl Lowering for Alone<'_> {
    #[inline]
    fn lower(&mut self, slot: &AtomicU64, v: u32, candidate: f64, bits: u64) {
        if bits < slot.load(Relaxed) {
            slot.store(bits, Relaxed);
            let b = (candidate / self.delta) as u64;
            self.queue.push(v, b, self.current);
        }
    }
}

/// Beside other threads: an atomic minimum, and the node queued in this
/// thread's own buckets (a node lowered by two threads is queued twice; the
/// entry of the higher distance is stale when read, and skipped).
struct Beside<'q> {
    queue: &'q mut Queue,
    current: u64,
    delta: f64,
}

impl Lowering for Beside<'_> {
    #[inline]
    fn lower(&mut self, slot: &AtomicU64, v: u32, candidate: f64, bits: u64) {
        // Most candidates lower nothing: a plain load turns them away
        // without the cost of a locked instruction.
        if bits < slot.load(Relaxed) && slot.fetch_min(bits, Relaxed) > bits {
            let b = (candidate / self.delta) as u64;
            self.queue.push(v, b, self.current);
        }
    }
}

/// Relaxes the out-edges of the nodes of `batch` still in bucket `current`
/// (an entry whose node was queued again since, nearer, is stale). Returns
/// the edges read and whether a sum overflowed.
fn relax(
    out: &Rows,
    dist: &[AtomicU64],
    batch: &[u32],
    current: u64,
    delta: f64,
    lowering: &mut impl Lowering,
) -> (usize, bool) {
    let (mut edges, mut overflowed) = (0usize, false);
    for (i, &u) in batch.iter().enumerate() {
        // A bucket's nodes are scattered: hint the bounds and distance of a
        // node two strides ahead, and the row of the one a stride ahead
        // (whose bounds the earlier hint brought in), so that the misses of
        // several rows overlap instead of following one another.
        if let Some(&far) = batch.get(i + 2 * ROW_LOOKAHEAD) {
            out.prefetch_bounds(NodeIndex::new(far as usize));
            prefetch_line(dist[far as usize].as_ptr().cast_const().cast());
        }
        if let Some(&near) = batch.get(i + ROW_LOOKAHEAD) {
            out.prefetch_weighted_entries(NodeIndex::new(near as usize));
        }
        let d = f64::from_bits(dist[u as usize].load(Relaxed));
        if (d / delta) as u64 != current {
            continue;
        }
        let (targets, weights) = out.weighted(NodeIndex::new(u as usize));
        edges += targets.len();
        for (v, &w) in targets.iter().zip(weights) {
            let candidate = d + w;
            overflowed |= candidate == f64::INFINITY;
            lowering.lower(
                &dist[v.index()],
                v.index() as u32,
                candidate,
                candidate.to_bits(),
            );
        }
    }
    (edges, overflowed)
}
