//! Breadth-first depths by direction-optimizing search (S. Beamer, K. Asanović,
//! D. Patterson, "Direction-Optimizing Breadth-First Search", SC 2012), over
//! the compact rows.
//!
//! While the frontier is small, each level is found *top-down*: the frontier's
//! out-rows are read and every unseen target joins the next level. Once the
//! frontier's out-edges outnumber a fifteenth of the edges not yet read, a
//! level is found *bottom-up* instead: every unseen node reads its in-row
//! until it finds a parent in the frontier (a bitmap), so most of its in-edges
//! are never read; once the frontier falls under an eighteenth of the nodes,
//! the search goes top-down again. The depths are the same either way.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::stable_graph::StableDiGraph;
use petgraph::visit::{NodeIndexable, Visitable};

use super::threads::{each_piece, split_at_starts};
use crate::budget::charge;
use crate::network::graph::Network;
use crate::network::graph::{Edge, Node};

/// Bottom-up once the frontier's out-edges exceed the unread edges over this.
const ALPHA: usize = 15;
/// Top-down again once the frontier is under the nodes over this.
const BETA: usize = 18;

/// A frontier: one bit per node index (petgraph's visit map, a `FixedBitSet`).
type Bitmap = <StableDiGraph<Node, Edge> as Visitable>::Map;

/// Unreached, in [`Network::bfs_depths_by_index`]'s answer.
pub const UNREACHED: u32 = u32::MAX;

/// How many nodes ahead in the frontier a top-down level hints the rows it
/// reads.
const ROW_LOOKAHEAD: usize = 8;

impl Network {
    /// The number of edges on a shortest path (by hops, along edges' direction)
    /// from `start` to each node, by node index: [`UNREACHED`] for a node
    /// `start` does not reach, for a vacant index, and for every index when
    /// `start` is not a node. The same depths as [`Network::bfs_order_by_index`]
    /// visits the nodes in, found with direction-optimizing search; use it
    /// when the depths or the set reached are what matters, not the order.
    /// O(V + E) at most, often far fewer edges read.
    ///
    /// ```
    /// use networks_mcp::network::{Network, bfs::UNREACHED};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// net.add_edge("a", "c", 1.0)?;
    /// let depth = net.bfs_depths_by_index(net.index_of("a").unwrap());
    /// let of = |id| depth[net.index_of(id).unwrap().index()];
    /// assert_eq!([of("a"), of("b"), of("c"), of("d")], [0, 1, 1, UNREACHED]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn bfs_depths_by_index(&self, start: NodeIndex) -> Vec<u32> {
        self.bfs_depths_on_threads(start, 0)
    }

    /// [`Network::bfs_depths_by_index`] with its bottom-up levels (where the
    /// frontier is large and most of the time goes) shared among `threads`
    /// threads; the top-down levels run on the calling thread. The same depths.
    /// `threads` 0: as many as the runner lends ([`crate::budget::threads`];
    /// the server lends its free compute threads), one without a runner.
    pub fn bfs_depths_on_threads(&self, start: NodeIndex, threads: usize) -> Vec<u32> {
        let graph = self.graph();
        let bound = graph.node_bound();
        let mut depth = vec![UNREACHED; bound];
        if !graph.contains_node(start) {
            return depth;
        }
        let out = self.rows(Outgoing);
        let inn = self.rows(Incoming);
        depth[start.index()] = 0;
        let mut frontier = vec![start.index() as u32];
        let mut unread = graph.edge_count();
        let mut level = 0u32;
        let mut scout = out.neighbors(start).len();
        while !frontier.is_empty() {
            if scout > unread / ALPHA {
                // Bottom-up while the frontier is large.
                let mut front = graph.visit_map();
                for &u in &frontier {
                    front.insert(u as usize);
                }
                let mut awake = frontier.len();
                loop {
                    let before = awake;
                    let next = graph.visit_map();
                    let (next, found) = bottom_up(inn, &mut depth, &front, next, level, threads);
                    level += 1;
                    awake = found;
                    front = next;
                    if awake == 0 || (awake < before && awake <= bound / BETA) {
                        break;
                    }
                }
                frontier = front.ones().map(|u| u as u32).collect();
                scout = 1;
                continue;
            }
            unread = unread.saturating_sub(scout);
            let mut next = Vec::new();
            scout = 0;
            charge(frontier.len() as u64);
            for (i, &u) in frontier.iter().enumerate() {
                // The frontier's rows are scattered: hint a row's bounds two
                // strides ahead and its entries a stride ahead, so that their
                // misses overlap.
                if let Some(&far) = frontier.get(i + 2 * ROW_LOOKAHEAD) {
                    out.prefetch_bounds(NodeIndex::new(far as usize));
                }
                if let Some(&near) = frontier.get(i + ROW_LOOKAHEAD) {
                    out.prefetch_weighted_entries(NodeIndex::new(near as usize));
                }
                let targets = out.neighbors(NodeIndex::new(u as usize));
                charge(targets.len() as u64);
                for v in targets {
                    let d = &mut depth[v.index()];
                    if *d == UNREACHED {
                        *d = level + 1;
                        next.push(v.index() as u32);
                        scout += out.neighbors(*v).len();
                    }
                }
            }
            level += 1;
            frontier = next;
        }
        depth
    }
}

/// One bottom-up level: every node not yet reached that has an in-neighbour
/// in `front` gets depth `level + 1` and joins `next` (empty on entry). The
/// next frontier, and its size. On the threads the pass is given
/// ([`crate::budget::threads::for_pass`] of `threads`), scoped, each over a run
/// of whole blocks of `next` and the nodes they cover (disjoint slices of
/// `depth` and of `next`); the work is charged on the calling thread once
/// they are joined.
fn bottom_up(
    inn: &crate::network::adjacency::Rows,
    depth: &mut [u32],
    front: &Bitmap,
    mut next: Bitmap,
    level: u32,
    threads: usize,
) -> (Bitmap, usize) {
    const BITS: usize = usize::BITS as usize;
    let nodes = depth.len();
    let blocks = next.as_slice().len();
    let pass = crate::budget::threads::for_pass(threads, blocks);
    let per = blocks.div_ceil(pass.threads()).max(1);
    let block_starts: Vec<usize> = (0..blocks.div_ceil(per)).map(|t| t * per).collect();
    let node_starts: Vec<usize> = block_starts
        .iter()
        .map(|&b| (b * BITS).min(nodes))
        .collect();
    let pieces: Vec<_> = split_at_starts(depth, &node_starts)
        .into_iter()
        .zip(split_at_starts(next.as_mut_slice(), &block_starts))
        .collect();
    let counts = each_piece(pieces, |t, (depth, blocks)| {
        let base = node_starts[t];
        let (mut found, mut read) = (0, 0u64);
        for (i, d) in depth.iter_mut().enumerate() {
            if *d != UNREACHED {
                continue;
            }
            let sources = inn.neighbors(NodeIndex::new(base + i));
            let parent = sources.iter().position(|u| front.contains(u.index()));
            read += parent.map_or(sources.len(), |k| k + 1) as u64;
            if parent.is_some() {
                *d = level + 1;
                blocks[i / BITS] |= 1 << (i % BITS);
                found += 1;
            }
        }
        (found, read)
    });
    let (found, read) = counts
        .iter()
        .fold((0, 0), |(f, r), &(found, read)| (f + found, r + read));
    charge(nodes as u64 + read);
    (next, found)
}
