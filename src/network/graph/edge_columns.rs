//! Which edge each slot of the adjacency rows is, as columns parallel to both
//! directions' rows, and [`EdgeRows`]: the rows, these columns and the relation
//! classes of one attribute read together.
//!
//! The rows name only the node at an edge's other end. A pattern match (the
//! query tool) also needs the edge itself: to bind a relationship variable, to
//! read its properties, and to match each relationship at most once. Reading
//! petgraph's linked lists for that costs a dependent cache miss per edge, and
//! incoming lists are threaded through edge records scattered over the whole
//! graph (walking the same edges incoming took three times as long as
//! outgoing). With these columns a node's edges in either direction are three
//! contiguous slices: neighbours, edge indices and relation classes.
//!
//! Built on first use in O(V + E) beside the rows, then kept in step with every
//! write like the relation columns (see [`super::rows`]): each added edge's
//! index goes into the slot the rows gave it, each removal shifts the same
//! slots, and a packing of the rows drops the columns.

// Read only by queries: the core build (no `query` feature) keeps them unused.
#![cfg_attr(not(feature = "query"), allow(dead_code))]

use std::sync::Arc;

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};

use super::edge_ids::EdgeIdIndex;
use super::relations::RelationColumns;
use super::rows::{Rows, SlotEdit};
use super::{Edge, Node};

/// The edge index of every slot of both directions' rows.
#[derive(Debug)]
pub(crate) struct EdgeColumns {
    out: Vec<EdgeIndex>,
    inn: Vec<EdgeIndex>,
}

impl EdgeColumns {
    /// Places every edge's index in the slot its rows give it (edges newest
    /// first into each owner's row, as the rows were built). O(V + E).
    pub(crate) fn build(
        graph: &StableDiGraph<Node, Edge>,
        edge_ids: &EdgeIdIndex,
        out_rows: &Rows,
        in_rows: &Rows,
    ) -> EdgeColumns {
        let mut columns = EdgeColumns {
            out: vec![EdgeIndex::end(); out_rows.slots()],
            inn: vec![EdgeIndex::end(); in_rows.slots()],
        };
        let mut next_out: Vec<u32> = out_rows.spans().map(|r| r.start as u32).collect();
        let mut next_in: Vec<u32> = in_rows.spans().map(|r| r.start as u32).collect();
        edge_ids.for_each_newest_first(|ix| {
            if let Some((a, b)) = graph.edge_endpoints(ix) {
                let o = &mut next_out[a.index()];
                columns.out[*o as usize] = ix;
                *o += 1;
                let i = &mut next_in[b.index()];
                columns.inn[*i as usize] = ix;
                *i += 1;
            }
        });
        columns
    }

    fn column_mut(&mut self, dir: petgraph::Direction) -> &mut Vec<EdgeIndex> {
        match dir {
            Outgoing => &mut self.out,
            Incoming => &mut self.inn,
        }
    }

    /// Follows an edge added to the rows of `dir`: the row's move, if it made
    /// one, then the edge in its slot.
    pub(crate) fn follow(
        &mut self,
        dir: petgraph::Direction,
        edit: Option<&SlotEdit>,
        slot: usize,
        edge: EdgeIndex,
    ) {
        super::rows::place(self.column_mut(dir), edit, slot, edge, EdgeIndex::end());
    }

    /// Follows an edge removed from the rows of `dir`.
    pub(crate) fn shift(&mut self, dir: petgraph::Direction, edit: &SlotEdit) {
        edit.apply(self.column_mut(dir), EdgeIndex::end());
    }

    fn column(&self, dir: petgraph::Direction) -> &[EdgeIndex] {
        match dir {
            Outgoing => &self.out,
            Incoming => &self.inn,
        }
    }
}

/// One node's edges in one direction, newest first: the nodes at their other
/// ends, the edges, and their relation classes, three slices of one length.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EdgeRow<'a> {
    pub(crate) nodes: &'a [NodeIndex],
    pub(crate) edges: &'a [EdgeIndex],
    pub(crate) classes: &'a [u32],
}

/// Both directions' rows with their edge and relation-class columns (see the
/// module docs), held for the length of one read.
pub(crate) struct EdgeRows<'a> {
    out: &'a Rows,
    inn: &'a Rows,
    edges: Arc<EdgeColumns>,
    relations: Arc<RelationColumns>,
}

impl<'a> EdgeRows<'a> {
    pub(super) fn new(
        out: &'a Rows,
        inn: &'a Rows,
        edges: Arc<EdgeColumns>,
        relations: Arc<RelationColumns>,
    ) -> Self {
        EdgeRows {
            out,
            inn,
            edges,
            relations,
        }
    }

    /// The edges of `at` in `dir`, newest first.
    #[inline]
    pub(crate) fn row(&self, at: NodeIndex, dir: petgraph::Direction) -> EdgeRow<'_> {
        let rows = match dir {
            Outgoing => self.out,
            Incoming => self.inn,
        };
        let (s, e) = rows.span(at);
        EdgeRow {
            nodes: rows.entries(s, e),
            edges: &self.edges.column(dir)[s..e],
            classes: &self.relations.column(dir)[s..e],
        }
    }

    /// The relation types, by class (class 0 is plain edges, named `""`).
    pub(crate) fn relation_names(&self) -> &[Box<str>] {
        self.relations.names()
    }
}
