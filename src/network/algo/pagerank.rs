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
//!   out-degree, computed once per source and iteration. Each node is written
//!   once, in order, and the reads of the sources are the only scattered ones.
//! * **By weight**, in-rows carry no weights, so each iteration *pushes* along
//!   the out-rows (`rank × weight ÷ out-weight` to each target). When every
//!   weight is 1 (most planning graphs), following weights is counting edges,
//!   and the iteration pulls.
//!
//! Pull iterations run on threads when asked ([`crate::budget::threads`]),
//! with the same answer to the bit; pushes run on the calling thread.
//!
//! Parallel edges add up (one heavier link) and self-loops are followed, as
//! NetworkX's `pagerank` does on a multigraph; a node whose out-weight is 0
//! (dangling) hands its rank to the jump distribution.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;

use super::threads::{each_piece, split_at_starts};
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
    // Per iteration: what each node sends along each unit of weight (pull), or
    // what each node receives (push).
    let mut flow = vec![0.0f64; bound];
    let inn = (!it.weighted || every_weight_one).then(|| net.rows(Incoming));
    let (alpha, stay) = (it.damping, 1.0 - it.damping);
    for _ in 0..it.max_iterations {
        let lost: f64 = dangling.iter().map(|&u| x[u]).sum();
        match inn {
            Some(inn) => {
                charge(2 * n as u64 + net.graph().edge_count() as u64);
                let moved = pull(it, inn, &inverse, &mut x, &mut flow, lost, alpha, stay);
                if moved < n as f64 * it.tolerance {
                    return Some(x);
                }
            }
            None => {
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
                if moved < n as f64 * it.tolerance {
                    return Some(x);
                }
            }
        }
    }
    None
}

/// One pull iteration on the threads it is given for the pass
/// ([`crate::budget::threads::for_pass`] of `it.threads`; scoped, joined
/// before it returns): each thread takes a run of whole blocks of nodes, which own
/// disjoint ranges of node indices. First every node's flow (its rank over
/// its out-degree), then every node's new rank from its in-row, replacing the
/// old. The ranks' movement (L1), summed block by block in order.
#[allow(clippy::too_many_arguments)]
fn pull(
    it: &Iteration<'_>,
    inn: &crate::network::adjacency::Rows,
    inverse: &[f64],
    x: &mut [f64],
    flow: &mut [f64],
    lost: f64,
    alpha: f64,
    stay: f64,
) -> f64 {
    let blocks = it.nodes.len().div_ceil(BLOCK);
    let pass = crate::budget::threads::for_pass(it.threads, blocks);
    let threads = pass.threads();
    // The first block of each thread's run, and the first node index it owns.
    let firsts: Vec<usize> = (0..threads).map(|t| t * blocks / threads).collect();
    let mut starts: Vec<usize> = firsts
        .iter()
        .map(|&b| it.nodes.get(b * BLOCK).map_or(0, |u| u.index()))
        .collect();
    // The first piece starts at index 0, whatever its first node's index.
    starts[0] = 0;
    let runs = |t: usize| {
        let from = firsts[t] * BLOCK;
        let to = firsts.get(t + 1).map_or(it.nodes.len(), |&b| b * BLOCK);
        &it.nodes[from..to]
    };
    {
        let x: &[f64] = x;
        each_piece(split_at_starts(flow, &starts), |t, part| {
            let base = starts[t];
            for &u in runs(t) {
                part[u.index() - base] = x[u.index()] * inverse[u.index()];
            }
        });
    }
    let flow: &[f64] = flow;
    let moved = each_piece(split_at_starts(x, &starts), |t, part| {
        let base = starts[t];
        let mut sums = Vec::new();
        for block in runs(t).chunks(BLOCK) {
            let mut moved = 0.0;
            for &v in block {
                let sources = inn.neighbors(v);
                let received: f64 = sources.iter().map(|u| flow[u.index()]).sum();
                let jump = it.jump[v.index()];
                let value = alpha * (received + lost * jump) + stay * jump;
                let old = &mut part[v.index() - base];
                moved += (value - *old).abs();
                *old = value;
            }
            sums.push(moved);
        }
        sums
    });
    moved.iter().flatten().sum()
}
