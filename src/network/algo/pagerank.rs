//! PageRank's power iteration over the network's compact rows
//! ([`Network::pagerank`](crate::network::Network::pagerank) checks the options
//! and shapes the answer).
//!
//! The rows are kept current by every write, so a call builds nothing per edge:
//! it reads each node's out-weight once, then iterates. Every array is indexed
//! by node index (vacant indices hold zeros), so no renumbering is needed.
//!
//! * **Counting edges** (unweighted), each iteration *pulls*: a node's new rank
//!   is the sum, over its in-row, of each source's rank divided by its
//!   out-degree, computed once per source and iteration. An iteration is one
//!   pass over the node indices in order: each node's rank, its share for the
//!   next iteration and the dangling rank are written together, and the reads
//!   of the sources are the only scattered ones.
//! * **By weight**, in-rows carry no weights, so each iteration *pushes* along
//!   the out-rows (`rank × weight ÷ out-weight` to each target). When every
//!   weight is 1 (most planning graphs), following weights is counting edges,
//!   and the iteration pulls.
//!
//! Pull iterations run on threads when asked ([`crate::budget::threads`]),
//! with the same answer to the bit; pushes run on the calling thread. The
//! threads live through all the iterations of a call ([`in_rounds`]), each
//! iteration asking for them again: an iteration of a graph of 64,000 nodes
//! takes about half a millisecond, less than a sleeping CPU took to wake for
//! a thread started for it.
//!
//! Parallel edges add up (one heavier link) and self-loops are followed, as
//! NetworkX's `pagerank` does on a multigraph; a node whose out-weight is 0
//! (dangling) hands its rank to the jump distribution.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::threads::in_rounds;
use crate::budget::charge;
use crate::network::graph::Network;

/// The settings of one run: the damping, the jump distribution by node index
/// (summing to 1 over `nodes`), and when to stop.
pub(super) struct Iteration<'a> {
    pub nodes: &'a [NodeIndex],
    pub jump: &'a [f64],
    pub damping: f64,
    pub weighted: bool,
    pub tolerance: f64,
    pub max_iterations: usize,
    pub threads: usize,
}

/// Nodes whose movement is summed apart, then the sums in order: the same
/// total, to the bit, however the blocks are shared among threads.
const BLOCK: usize = 4096;

/// The ranks by node index once they moved by less than `tolerance × V` (L1)
/// in one iteration; `None` when `max_iterations` were not enough.
pub(super) fn ranks(net: &Network, it: &Iteration<'_>) -> Option<Vec<f64>> {
    let bound = it.jump.len();
    let n = it.nodes.len();
    let out = net.rows(Outgoing);
    // 1 / out-weight per node; 0 for a dangling node, listed apart.
    let mut inverse = vec![0.0f64; bound];
    let mut dangling: Vec<usize> = Vec::new();
    // Whether every weight is 1, so that following weights is counting edges.
    let mut every_weight_one = true;
    for &u in it.nodes {
        let (targets, weights) = out.weighted(u);
        charge(1 + targets.len() as u64 / 8);
        let total = if it.weighted {
            every_weight_one &= weights.iter().all(|&w| w == 1.0);
            weights.iter().sum::<f64>()
        } else {
            targets.len() as f64
        };
        if total > 0.0 {
            inverse[u.index()] = 1.0 / total;
        } else {
            dangling.push(u.index());
        }
    }
    let mut x = vec![0.0f64; bound];
    for &u in it.nodes {
        x[u.index()] = 1.0 / n as f64;
    }
    let lost: f64 = dangling.iter().map(|&u| x[u]).sum();
    let converged = if !it.weighted || every_weight_one {
        let inn = net.rows(Incoming);
        let step = Step {
            it,
            inn,
            inverse: &inverse,
            alpha: it.damping,
            stay: 1.0 - it.damping,
        };
        pulled(net, &step, &mut x, lost)
    } else {
        pushed(net, it, &inverse, &dangling, &mut x)
    };
    converged.then_some(x)
}

/// Pull iterations from `x` until it converges (true) or `max_iterations`
/// pass (false). Each writes the next one's flow and dangling rank as it
/// writes each rank, so an iteration is one pass over the nodes: one round of
/// [`in_rounds`] over blocks of [`BLOCK`] node indices, whose threads live
/// through every iteration.
fn pulled(net: &Network, step: &Step<'_>, x: &mut [f64], lost: f64) -> bool {
    let it = step.it;
    let n = it.nodes.len();
    if it.max_iterations == 0 {
        return false;
    }
    let cost = 2 * n as u64 + net.graph().edge_count() as u64;
    // What each node sends along each of its out-edges, in this iteration and
    // the next (they swap): atomic, so that every thread reads all of one
    // while each writes its blocks of the other; a relaxed access is a plain
    // load or store.
    let flows: [Vec<AtomicU64>; 2] = [
        x.iter()
            .zip(step.inverse)
            .map(|(r, i)| AtomicU64::new((r * i).to_bits()))
            .collect(),
        x.iter().map(|_| AtomicU64::new(0)).collect(),
    ];
    let blocks: Vec<(usize, &mut [f64])> = x
        .chunks_mut(BLOCK)
        .enumerate()
        .map(|(k, ranks)| (k * BLOCK, ranks))
        .collect();
    let (mut converged, mut iterations) = (false, 1);
    charge(cost);
    in_rounds(
        it.threads,
        blocks,
        (0, lost),
        |(at, ranks), (now, lost): (usize, f64)| {
            step.pull_block(*at, ranks, &flows[now], &flows[1 - now], lost)
        },
        |sums| {
            // Summed block by block in order: the same total on any threads.
            let (moved, next_lost) = sums.iter().fold((0.0, 0.0), |(m, d), &(moved, dangling)| {
                (m + moved, d + dangling)
            });
            converged = moved < n as f64 * it.tolerance;
            if converged || iterations == it.max_iterations {
                return None;
            }
            charge(cost);
            let now = iterations % 2;
            iterations += 1;
            Some((now, next_lost))
        },
    );
    converged
}

/// Push iterations along the out-rows and their weights from `x`, on the
/// calling thread, until it converges (true) or `max_iterations` pass (false).
fn pushed(
    net: &Network,
    it: &Iteration<'_>,
    inverse: &[f64],
    dangling: &[usize],
    x: &mut [f64],
) -> bool {
    let out = net.rows(Outgoing);
    let (alpha, stay) = (it.damping, 1.0 - it.damping);
    // What each node receives in an iteration.
    let mut flow = vec![0.0f64; x.len()];
    for _ in 0..it.max_iterations {
        let lost: f64 = dangling.iter().map(|&u| x[u]).sum();
        for &v in it.nodes {
            flow[v.index()] = 0.0;
        }
        for &u in it.nodes {
            let (targets, weights) = out.weighted(u);
            charge(1 + targets.len() as u64);
            let sent = x[u.index()] * inverse[u.index()];
            if sent == 0.0 {
                continue;
            }
            for (v, w) in targets.iter().zip(weights) {
                flow[v.index()] += sent * w;
            }
        }
        let mut moved = 0.0;
        for &v in it.nodes {
            let jump = it.jump[v.index()];
            let value = alpha * (flow[v.index()] + lost * jump) + stay * jump;
            moved += (value - x[v.index()]).abs();
            x[v.index()] = value;
        }
        if moved < it.nodes.len() as f64 * it.tolerance {
            return true;
        }
    }
    false
}

/// What a pull iteration reads besides the ranks: the settings, the in-rows,
/// and 1 / out-degree per node index (0 for a dangling node).
struct Step<'a> {
    it: &'a Iteration<'a>,
    inn: &'a crate::network::adjacency::Rows,
    inverse: &'a [f64],
    alpha: f64,
    stay: f64,
}

impl Step<'_> {
    /// One block of a pull iteration: the new rank of each node index from
    /// `at` on (one for each of `ranks`) from `flow` over its in-row,
    /// replacing the old, and its share for the next iteration in
    /// `next_flow`. The block's movement (L1) and the next iteration's
    /// dangling rank from it.
    ///
    /// Every index is walked, vacant ones too: their in-row, jump and inverse
    /// are empty or 0, so their rank stays 0, and walking them spares a list
    /// of nodes and a bounds check per array.
    fn pull_block(
        &self,
        at: usize,
        ranks: &mut [f64],
        flow: &[AtomicU64],
        next_flow: &[AtomicU64],
        lost: f64,
    ) -> (f64, f64) {
        let (alpha, stay) = (self.alpha, self.stay);
        let indices = at..at + ranks.len();
        let (mut moved, mut dangling) = (0.0, 0.0);
        let mut visit =
            |rank: &mut f64, share: &AtomicU64, jump: f64, inverse: f64, received: f64| {
                let value = alpha * (received + lost * jump) + stay * jump;
                moved += (value - *rank).abs();
                *rank = value;
                share.store((value * inverse).to_bits(), Relaxed);
                // A select, not a branch: dangling nodes come in no order.
                dangling += if inverse == 0.0 { value } else { 0.0 };
            };
        let mut nodes = ranks.iter_mut().zip(&next_flow[indices.clone()]).zip(
            self.it.jump[indices.clone()]
                .iter()
                .zip(&self.inverse[indices.clone()]),
        );
        // The rows held, then any indices past the last row (no in-edges).
        // The rows lead the zip, so that their end takes no node from `nodes`.
        for (sources, ((rank, share), (&jump, &inverse))) in
            self.inn.rows_in(indices).zip(&mut nodes)
        {
            let received: f64 = sources
                .iter()
                .map(|u| f64::from_bits(flow[u.index()].load(Relaxed)))
                .sum();
            visit(rank, share, jump, inverse, received);
        }
        for ((rank, share), (&jump, &inverse)) in nodes {
            visit(rank, share, jump, inverse, 0.0);
        }
        (moved, dangling)
    }
}
