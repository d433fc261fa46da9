//! Cache prefetch hints, for loops that know a few iterations ahead which
//! scattered node records they will touch (bulk edge loading).

use petgraph::stable_graph::{NodeIndex, StableDiGraph};

use super::{Edge, Node};

/// Asks the processor to start loading the cache lines at `p` (two lines, as a
/// node record may straddle them). Only a hint: it reads no value and cannot
/// fault, whatever the address.
#[inline(always)]
pub(crate) fn prefetch_lines(p: *const u8) {
    prefetch_line(p);
    prefetch_line(p.wrapping_add(64));
}

/// As [`prefetch_lines`], for the one cache line at `p` (a small value that
/// cannot straddle two, or the first entries of a run).
#[inline(always)]
pub(crate) fn prefetch_line(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of every x86_64 target, and a prefetch dereferences
        // nothing: any address is allowed.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Computes where a node's record lives without reading it, so that the hint
/// does not itself wait on the cache miss it is meant to hide.
///
/// petgraph keeps a graph's node records in one vector; the address of record
/// `ix` is that of a known record (the anchor, learnt from the first record the
/// caller reads anyway, so that making one costs nothing) plus the distance in
/// records. Should petgraph ever store them differently, the addresses are merely
/// wrong and the hints useless: nothing is read through them.
#[derive(Default)]
pub(crate) struct NodePrefetcher {
    anchor: Option<(usize, *const u8)>,
}

/// The size of one of petgraph's node records in a network's graph.
const RECORD: usize = std::mem::size_of::<petgraph::graph::Node<Option<Node>, u32>>();

impl NodePrefetcher {
    /// Anchors the hints at node `ix`, if it is in `graph`, unless they are anchored.
    #[inline]
    pub(crate) fn anchor(&mut self, graph: &StableDiGraph<Node, Edge>, ix: NodeIndex) {
        if self.anchor.is_none() {
            self.anchor = graph
                .node_weight(ix)
                .map(|node| (ix.index(), (node as *const Node).cast()));
        }
    }

    /// Hints that node `ix`'s record will be read or written soon (nothing until
    /// anchored).
    #[inline(always)]
    pub(crate) fn prefetch(&self, ix: NodeIndex) {
        if let Some((k, p)) = self.anchor {
            let records = ix.index() as isize - k as isize;
            prefetch_lines(p.wrapping_offset(records.wrapping_mul(RECORD as isize)));
        }
    }
}
