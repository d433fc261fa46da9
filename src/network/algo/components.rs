//! Connected components as lists of nodes: weakly connected (edges read both
//! ways) and strongly connected (every node reaches every other), as NetworkX's
//! `weakly_connected_components` and `strongly_connected_components` find them.
//!
//! Order, deterministic: each component lists its nodes by index (insertion
//! order), and the components are sorted by their first node.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;

use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use super::cycles::scc_labels;
use super::threads::each_piece;
use crate::network::graph::Network;

/// Which components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// Connected when edges are read in either direction.
    Weak,
    /// Every node reaches every other along edges.
    Strong,
}

impl Network {
    /// The components of the network, each its nodes in insertion order, sorted
    /// by their first node. A node without edges is a component of its own.
    ///
    /// Algorithm: union-find over the compact rows, Afforest's way (weak; see
    /// [`weak_labels`]); iterative Tarjan (strong,
    /// as [`Network::find_cycles`] uses it). Complexity: O(V + E) (times the
    /// inverse Ackermann function for union-find), O(V) extra space.
    ///
    /// ```
    /// use networks_mcp::network::{Network, components::Connectivity};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c", "d"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "a", 1.0)?;
    /// net.add_edge("b", "c", 1.0)?;
    /// let weak = net.components(Connectivity::Weak);
    /// assert_eq!(weak.iter().map(|c| net.ids(c)).collect::<Vec<_>>(), [vec!["a", "b", "c"], vec!["d"]]);
    /// let strong = net.components(Connectivity::Strong);
    /// assert_eq!(strong.iter().map(|c| net.ids(c)).collect::<Vec<_>>(), [vec!["a", "b"], vec!["c"], vec!["d"]]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn components(&self, connectivity: Connectivity) -> Vec<Vec<NodeIndex>> {
        // One thread: on two cores the shared forest's compare-and-swaps
        // cost what the second thread gains (BENCHMARKS.md), so a server's
        // free threads are not borrowed for it.
        self.components_on_threads(connectivity, 1)
    }

    /// [`Network::components`], the weak components found on `threads`
    /// threads (strong components always on one). 0: as many as the runner
    /// lends ([`crate::budget::threads`]), one without a runner. The same
    /// answer on any number; on two cores no faster than one yet (each link
    /// on a shared forest is a compare-and-swap, which stops the next links'
    /// cache misses from overlapping), so [`Network::components`] uses one.
    pub fn components_on_threads(
        &self,
        connectivity: Connectivity,
        threads: usize,
    ) -> Vec<Vec<NodeIndex>> {
        let g = self.graph();
        let bound = g.node_bound();
        // A label per node index, then the nodes grouped by label in index order.
        let label: Vec<u32> = match connectivity {
            Connectivity::Weak => weak_labels(self, threads),
            Connectivity::Strong => {
                scc_labels(
                    g,
                    &self.follow(
                        Outgoing,
                        crate::network::graph::RelationFilter::every_edge(),
                    ),
                )
                .comp
            }
        };
        // Each component's size first, so that every list is made once at
        // its size (a component's nodes can be most of the network).
        let mut slot = vec![u32::MAX; bound];
        let mut sizes: Vec<usize> = Vec::new();
        for v in g.node_indices() {
            let l = label[v.index()] as usize;
            if slot[l] == u32::MAX {
                slot[l] = sizes.len() as u32;
                sizes.push(0);
            }
            sizes[slot[l] as usize] += 1;
        }
        let mut groups: Vec<Vec<NodeIndex>> = sizes.into_iter().map(Vec::with_capacity).collect();
        for v in g.node_indices() {
            groups[slot[label[v.index()] as usize] as usize].push(v);
        }
        groups
    }

    /// The weak components as one label per node index: each node's label is
    /// the smallest node index of its component, a vacant index its own. What
    /// [`Network::components`] groups into lists, and what a program that
    /// only asks "are these two connected?" needs. Found on `threads` threads
    /// as [`Network::components_on_threads`] finds them (0: as many as the
    /// runner lends); the same labels on any number.
    ///
    /// Complexity: O(V + E) (times the inverse Ackermann function).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("c", "b", 1.0)?;
    /// let label = net.weak_component_labels(1);
    /// let at = |id: &str| label[net.index_of(id).unwrap().index()];
    /// assert_eq!((at("a"), at("b"), at("c")), (0, 1, 1));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn weak_component_labels(&self, threads: usize) -> Vec<u32> {
        weak_labels(self, threads)
    }
}

/// Edges per node linked before the largest component is known (Afforest's
/// neighbour rounds).
const SAMPLED_EDGES: usize = 2;

/// Nodes sampled to find the largest component.
const COMPONENT_SAMPLE: usize = 1024;

/// Nodes one thread takes at least in a pass: fewer are not worth a thread.
const NODES_PER_THREAD: usize = 4_096;

/// Node indices a network must have before its forest is shared among
/// threads: below, the compare-and-swaps cost more than a second thread gains
/// (100,000 nodes and 500,000 edges: 2.2 ms on one thread, 3.0 ms on two;
/// 1,000,000 and 5,000,000: 43 ms on one, 35 ms on two).
const SHARED_FOREST: usize = 1 << 17;

/// Edges read in one pass of the last phase, between two looks at the budget.
const EDGES_PER_PASS: usize = 1 << 22;

/// Weak components as one label per node index: the smallest index of the
/// node's component. Afforest (M. Sutton, T. Ben-Nun, A. Barak, "Optimizing
/// Parallel Graph Connectivity Computation via Subgraph Sampling", IPDPS
/// 2018): union-find over the first [`SAMPLED_EDGES`] edges of every out-row,
/// which already joins most of the largest component; then the remaining
/// edges of only the nodes outside it, both ways (an edge into such a node
/// from the largest component is in the node's in-row), so most edges are
/// never read. Finds halve their paths; a link puts the larger root under the
/// smaller, so each root is its tree's smallest index.
///
/// On more than one thread (`threads`, as [`crate::budget::threads::for_pass`]
/// reads it for the first pass) the forest is an array of atomic parents and
/// each pass is shared among the threads the pass gets ([`Forest`]); the
/// labels are the same on any number of threads.
pub(super) fn weak_labels(net: &Network, threads: usize) -> Vec<u32> {
    let bound = net.graph().node_bound();
    let shared = bound >= SHARED_FOREST
        && crate::budget::threads::for_pass(threads, bound / NODES_PER_THREAD).threads() > 1;
    if shared {
        let parent: Vec<AtomicU32> = (0..bound as u32).map(AtomicU32::new).collect();
        afforest(net, parent.as_slice(), threads);
        parent.into_iter().map(AtomicU32::into_inner).collect()
    } else {
        let mut parent: Vec<u32> = (0..bound as u32).collect();
        afforest(
            net,
            Cell::from_mut(parent.as_mut_slice()).as_slice_of_cells(),
            1,
        );
        parent
    }
}

/// [`weak_labels`] on the forest `parent`, each pass on `threads` threads.
fn afforest<F: Forest + ?Sized>(net: &Network, parent: &F, threads: usize) {
    let bound = net.graph().node_bound();
    let out = net.rows(Outgoing);
    let inn = net.rows(Incoming);
    for round in 0..SAMPLED_EDGES {
        crate::budget::charge(bound as u64);
        parent.each(threads, 0..bound, |u, parent| {
            if let Some(v) = out.neighbors(NodeIndex::new(u)).get(round) {
                link(parent, u as u32, v.index() as u32);
            }
        });
    }
    let largest = largest_sampled(parent, net);
    let mut from = 0;
    while from < bound {
        // A pass: nodes up to about EDGES_PER_PASS edges, charged before it runs.
        let (mut to, mut edges) = (from, 0);
        while to < bound && edges < EDGES_PER_PASS {
            let ix = NodeIndex::new(to);
            edges += 1 + out.neighbors(ix).len() + inn.neighbors(ix).len();
            to += 1;
        }
        crate::budget::charge(edges as u64);
        parent.each(threads, from..to, |u, parent| {
            if find(parent, u as u32) == largest {
                return;
            }
            let ix = NodeIndex::new(u);
            let rest = out.neighbors(ix).get(SAMPLED_EDGES..).unwrap_or_default();
            for v in rest.iter().chain(inn.neighbors(ix)) {
                link(parent, u as u32, v.index() as u32);
            }
        });
        from = to;
    }
    crate::budget::charge(bound as u64);
    parent.each(threads, 0..bound, |u, parent| {
        let root = find(parent, u as u32);
        parent.set_parent(u as u32, root);
    });
}

/// A union-find forest: parents by node index, read and written through `&`
/// so that threads can share it.
trait Forest {
    /// The parent of `x` (`x` itself for a root).
    fn parent(&self, x: u32) -> u32;
    /// Points `x` at `p`, an ancestor of `x` or its root's new parent.
    fn set_parent(&self, x: u32, p: u32);
    /// Puts the root `root` under `under`, unless another thread moved it
    /// first (then false).
    fn hang(&self, root: u32, under: u32) -> bool;
    /// `visit(u, self)` for every `u` in `nodes`, on the threads one pass of
    /// `threads` gets.
    fn each<V: Fn(usize, &Self) + Sync>(&self, threads: usize, nodes: Range<usize>, visit: V);
}

/// One thread's forest: plain loads and stores.
impl Forest for [Cell<u32>] {
    fn parent(&self, x: u32) -> u32 {
        self[x as usize].get()
    }
    fn set_parent(&self, x: u32, p: u32) {
        self[x as usize].set(p);
    }
    fn hang(&self, root: u32, under: u32) -> bool {
        self[root as usize].set(under);
        true
    }
    fn each<V: Fn(usize, &Self) + Sync>(&self, _threads: usize, nodes: Range<usize>, visit: V) {
        nodes.for_each(|u| visit(u, self));
    }
}

/// The forest of many threads. A root is hung by compare-and-swap; a node that
/// is not a root never becomes one again, so a find's halving (a plain store
/// of an ancestor) never undoes a link.
impl Forest for [AtomicU32] {
    fn parent(&self, x: u32) -> u32 {
        self[x as usize].load(Relaxed)
    }
    fn set_parent(&self, x: u32, p: u32) {
        self[x as usize].store(p, Relaxed);
    }
    fn hang(&self, root: u32, under: u32) -> bool {
        self[root as usize]
            .compare_exchange(root, under, Relaxed, Relaxed)
            .is_ok()
    }
    fn each<V: Fn(usize, &Self) + Sync>(&self, threads: usize, nodes: Range<usize>, visit: V) {
        let pass = crate::budget::threads::for_pass(threads, nodes.len() / NODES_PER_THREAD);
        let (n, len) = (pass.threads(), nodes.len());
        let runs: Vec<Range<usize>> = (0..n)
            .map(|t| nodes.start + t * len / n..nodes.start + (t + 1) * len / n)
            .collect();
        each_piece(runs, |_, run| run.for_each(|u| visit(u, self)));
    }
}

/// The root most of an evenly spaced sample of the nodes have: the largest
/// component, most likely. Deterministic; any answer is correct, a wrong
/// guess only reads more edges.
fn largest_sampled<F: Forest + ?Sized>(parent: &F, net: &Network) -> u32 {
    let n = net.graph().node_count();
    let step = (n / COMPONENT_SAMPLE).max(1);
    let mut roots: Vec<u32> = net
        .graph()
        .node_indices()
        .step_by(step)
        .map(|v| find(parent, v.index() as u32))
        .collect();
    roots.sort_unstable();
    let mut best = (0, u32::MAX);
    for run in roots.chunk_by(|a, b| a == b) {
        if run.len() > best.0 {
            best = (run.len(), run[0]);
        }
    }
    best.1
}

/// The root of `x`'s tree, halving the path on the way (each node passed is
/// pointed at its grandparent).
fn find<F: Forest + ?Sized>(parent: &F, mut x: u32) -> u32 {
    loop {
        let up = parent.parent(x);
        if up == x {
            return x;
        }
        let grand = parent.parent(up);
        parent.set_parent(x, grand);
        x = grand;
    }
}

/// Joins the trees of `u` and `v`: the larger root under the smaller; when
/// another thread moved that root first, again from the roots as they are now.
fn link<F: Forest + ?Sized>(parent: &F, u: u32, v: u32) {
    loop {
        let (ru, rv) = (find(parent, u), find(parent, v));
        if ru == rv || parent.hang(ru.max(rv), ru.min(rv)) {
            return;
        }
    }
}
