//! One direction of the compact adjacency ([`Rows`]), kept in step with every
//! structural change once it is built.
//!
//! **Why in place.** An agent writes a little, then asks one question, then
//! writes again; so the query that matters is the first one after a write. Rows
//! that a write dropped would make that query rebuild them over the whole graph
//! (three quarters of a topological sort's time at a million nodes). Instead,
//! each write edits the rows it touches, for about the cost petgraph pays for
//! the same write on its own lists:
//!
//! * **An added edge** is the newest of its endpoints' edges, so it goes at the
//!   *front* of their rows (rows list edges newest first, as petgraph does). A row
//!   keeps free slots before its first entry once it has been moved (its
//!   *room*); when it has none left, the row moves to the end of the slot arrays
//!   with as many free slots as entries (amortized O(1) per add, as a growing
//!   vector's push).
//! * **A removed edge** is found at the same position in its row as in
//!   petgraph's list (both are in newest-first order), which the caller counts by
//!   walking that list, as petgraph's own removal does; the newer entries
//!   before it shift one slot back, widening the room. O(degree).
//! * **Compaction.** Moved rows leave their old slots behind. Once the unused
//!   slots pass an eighth of the rows' size (plus a constant), the next write
//!   packs the rows again, O(V + E), paid for by the writes that wasted them: at
//!   most an eighth more memory than packed rows, and O(1) amortized per write.
//!
//! Every row's entries thus stay contiguous (`start[i]..end[i]`), so readers get
//! one slice per row and algorithms need not know the rows are ever edited.
//! Slot moves are reported as [`SlotEdit`]s, so that columns kept parallel to
//! the rows (the relation classes) follow them.

use std::ops::Range;

use hashbrown::HashMap;
use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::NodeIndexable;

use super::edge_ids::EdgeIdIndex;
use super::prefetch::prefetch_line;
use super::{Edge, Node};

type Graph = StableDiGraph<Node, Edge>;

/// Unused slots that never trigger a compaction on their own: small networks
/// are not packed again and again for a handful of moved rows.
const COMPACTION_SLACK: usize = 4096;

/// One direction of the adjacency in compressed sparse rows, indexed by
/// `NodeIndex::index()` (vacant indices have empty rows): for each node, the
/// nodes its edges lead to (out) or come from (in), newest edge first, one entry
/// per edge; out rows also hold each edge's weight. See the module docs for how
/// writes keep them current.
#[derive(Debug, Clone)]
pub struct Rows {
    /// Row `i` is `nodes[start[i]..end[i]]`. Indices past the end have empty rows.
    start: Vec<u32>,
    end: Vec<u32>,
    nodes: Vec<NodeIndex>,
    /// Parallel to `nodes` for out rows; empty for in rows.
    weights: Vec<f64>,
    /// Whether these are out rows, which hold weights.
    weighted: bool,
    /// For rows with free slots before their first entry: the first slot of the
    /// row's region. Rows not listed have none (their region starts at `start`).
    room: HashMap<u32, u32>,
    /// Entries in all rows: the number of edges.
    live: usize,
}

/// How a write moved slots, for columns kept parallel to the rows: apply the
/// same moves to them (see [`Rows::prepend`] and [`Rows::remove`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SlotEdit {
    /// The slot arrays grew to `len` slots, then the entries of `from` were
    /// copied to start at `to`.
    Moved {
        len: usize,
        from: Range<usize>,
        to: usize,
    },
    /// The entries of `from` were copied to start at `to` (within the arrays).
    Shifted { from: Range<usize>, to: usize },
}

impl SlotEdit {
    /// Applies the same move to a column parallel to the rows (new slots get
    /// `fill`).
    pub(crate) fn apply<T: Copy>(&self, column: &mut Vec<T>, fill: T) {
        match self {
            SlotEdit::Moved { len, from, to } => {
                grow_to(column, *len, fill);
                column.copy_within(from.clone(), *to);
            }
            SlotEdit::Shifted { from, to } => column.copy_within(from.clone(), *to),
        }
    }
}

/// For a column parallel to the rows: applies the move a write made, if any
/// (new slots get `fill`), then puts `value` in the written slot.
pub(crate) fn place<T: Copy>(
    column: &mut Vec<T>,
    edit: Option<&SlotEdit>,
    slot: usize,
    value: T,
    fill: T,
) {
    if let Some(edit) = edit {
        edit.apply(column, fill);
    }
    column[slot] = value;
}

/// Resizes `v` to `len` slots, growing its allocation by at least an eighth
/// when it must grow: amortized O(1) per slot, with at most an eighth to spare.
fn grow_to<T: Copy>(v: &mut Vec<T>, len: usize, fill: T) {
    if len > v.capacity() {
        let more = (len - v.len()).max(v.len() / 8);
        v.reserve_exact(more);
    }
    v.resize(len, fill);
}

/// Makes `rows` (each of one direction) in two walks over the edges, newest
/// first (descending edge id, the order rows keep): one counts each row's
/// length, the next places each edge in its rows.
fn build_rows<const K: usize>(
    graph: &Graph,
    edge_ids: &EdgeIdIndex,
    mut rows: [RowsBuilder; K],
) -> [Rows; K] {
    edge_ids.for_each_newest_first(|ix| {
        if let Some((a, b)) = graph.edge_endpoints(ix) {
            rows.iter_mut().for_each(|r| r.count(a, b));
        }
    });
    rows.iter_mut().for_each(|r| r.allot(graph.edge_count()));
    // The edges come in no order of their endpoints, so each placement misses
    // the cache three times over (a row's next slot, then its entry and
    // weight), one miss waiting on the other. Hinting the next slot of the
    // edge `AHEAD` placements on, and the entry of the one half as far, lets
    // the misses of many placements overlap (rows both ways at 1M nodes and
    // 5M edges: 0.32 → 0.29 s).
    const AHEAD: usize = 16;
    let mut ring = [(NodeIndex::end(), NodeIndex::end(), 0.0); AHEAD];
    let mut seen = 0usize;
    edge_ids.for_each_newest_first(|ix| {
        let (Some((a, b)), Some(e)) = (graph.edge_endpoints(ix), graph.edge_weight(ix)) else {
            return;
        };
        rows.iter().for_each(|r| r.prefetch_next(a, b));
        if seen >= AHEAD / 2 {
            let (ha, hb, _) = ring[(seen + AHEAD / 2) % AHEAD];
            rows.iter().for_each(|r| r.prefetch_slot(ha, hb));
        }
        let k = seen % AHEAD;
        if seen >= AHEAD {
            let (pa, pb, pw) = ring[k];
            rows.iter_mut().for_each(|r| r.place(pa, pb, pw));
        }
        ring[k] = (a, b, e.weight);
        seen += 1;
    });
    // The last edges, still in the ring.
    for k in seen.saturating_sub(AHEAD)..seen {
        let (pa, pb, pw) = ring[k % AHEAD];
        rows.iter_mut().for_each(|r| r.place(pa, pb, pw));
    }
    rows.map(RowsBuilder::finish)
}

/// Packed rows of one direction in the making: each row's length counted,
/// then its slots allotted, then its entries placed in order. Out rows (the
/// weighted ones) are the sources' rows, in rows the targets'.
struct RowsBuilder {
    /// While counting, `start[i + 1]` is row `i`'s length; once allotted, row
    /// `i`'s first slot.
    start: Vec<u32>,
    /// The next free slot of each row: once every entry is placed, the rows' ends.
    next: Vec<u32>,
    nodes: Vec<NodeIndex>,
    weights: Vec<f64>,
    weighted: bool,
}

impl RowsBuilder {
    fn new(bound: usize, weighted: bool) -> Self {
        RowsBuilder {
            start: vec![0; bound + 1],
            next: Vec::new(),
            nodes: Vec::new(),
            weights: Vec::new(),
            weighted,
        }
    }

    /// The row an edge `source → target` goes in, and the node it names there.
    #[inline(always)]
    fn ends(&self, source: NodeIndex, target: NodeIndex) -> (NodeIndex, NodeIndex) {
        if self.weighted {
            (source, target)
        } else {
            (target, source)
        }
    }

    #[inline(always)]
    fn count(&mut self, source: NodeIndex, target: NodeIndex) {
        let (owner, _) = self.ends(source, target);
        self.start[owner.index() + 1] += 1;
    }

    /// Ends the counting: each row gets its slots among `entries`.
    fn allot(&mut self, entries: usize) {
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.nodes = vec![NodeIndex::end(); entries];
        if self.weighted {
            self.weights = vec![0.0; entries];
        }
        self.next = self.start.clone();
    }

    /// Hints that the next free slot of the edge's row is read soon. Reads
    /// nothing.
    #[inline(always)]
    fn prefetch_next(&self, source: NodeIndex, target: NodeIndex) {
        let (owner, _) = self.ends(source, target);
        prefetch_line(self.next.as_ptr().wrapping_add(owner.index()).cast());
    }

    /// Hints that the next free slot of the edge's row (entry and weight) is
    /// written soon. Reads that slot's number, so call it after
    /// [`RowsBuilder::prefetch_next`] had time to bring it in.
    #[inline(always)]
    fn prefetch_slot(&self, source: NodeIndex, target: NodeIndex) {
        let (owner, _) = self.ends(source, target);
        if let Some(&slot) = self.next.get(owner.index()) {
            prefetch_line(self.nodes.as_ptr().wrapping_add(slot as usize).cast());
            if self.weighted {
                prefetch_line(self.weights.as_ptr().wrapping_add(slot as usize).cast());
            }
        }
    }

    #[inline(always)]
    fn place(&mut self, source: NodeIndex, target: NodeIndex, weight: f64) {
        let (owner, neighbor) = self.ends(source, target);
        let slot = &mut self.next[owner.index()];
        self.nodes[*slot as usize] = neighbor;
        if self.weighted {
            self.weights[*slot as usize] = weight;
        }
        *slot += 1;
    }

    fn finish(mut self) -> Rows {
        self.start.pop();
        self.next.pop();
        Rows {
            start: self.start,
            end: self.next,
            live: self.nodes.len(),
            nodes: self.nodes,
            weights: self.weights,
            weighted: self.weighted,
            room: HashMap::new(),
        }
    }
}

impl Rows {
    /// Builds the rows of direction `dir`, taking edges newest first (descending
    /// edge id) so that each row matches petgraph's list order. O(V + E).
    pub(super) fn build(graph: &Graph, edge_ids: &EdgeIdIndex, dir: petgraph::Direction) -> Rows {
        let out = dir == petgraph::Direction::Outgoing;
        let [rows] = build_rows(graph, edge_ids, [RowsBuilder::new(graph.node_bound(), out)]);
        rows
    }

    /// Builds the rows of both directions (out, in) at once: the same rows as
    /// [`Rows::build`] twice, with half its walks over petgraph's edge records.
    /// O(V + E).
    pub(super) fn build_both(graph: &Graph, edge_ids: &EdgeIdIndex) -> (Rows, Rows) {
        let bound = graph.node_bound();
        let [out, inn] = build_rows(
            graph,
            edge_ids,
            [
                RowsBuilder::new(bound, true),
                RowsBuilder::new(bound, false),
            ],
        );
        (out, inn)
    }

    /// The slots of `ix`'s row.
    #[inline]
    pub(super) fn span(&self, ix: NodeIndex) -> (usize, usize) {
        match (self.start.get(ix.index()), self.end.get(ix.index())) {
            (Some(&s), Some(&e)) => (s as usize, e as usize),
            _ => (0, 0),
        }
    }

    /// Hints that row `ix`'s bounds ([`Rows::span`]) are read soon. Reads nothing.
    #[inline(always)]
    pub(crate) fn prefetch_bounds(&self, ix: NodeIndex) {
        let i = ix.index();
        prefetch_line(self.start.as_ptr().wrapping_add(i).cast());
        prefetch_line(self.end.as_ptr().wrapping_add(i).cast());
    }

    /// Hints that row `ix`'s entries are read soon. Reads the row's bounds, so
    /// call it after [`Rows::prefetch_bounds`] had time to bring them in.
    #[inline(always)]
    pub(super) fn prefetch_entries(&self, ix: NodeIndex) {
        let (s, _) = self.span(ix);
        prefetch_line(self.nodes.as_ptr().wrapping_add(s).cast());
    }

    /// Hints that row `ix`'s first entries and their weights (out rows) are
    /// read soon. Reads the row's bounds, so call it after
    /// [`Rows::prefetch_bounds`] had time to bring them in.
    #[inline(always)]
    pub(crate) fn prefetch_weighted_entries(&self, ix: NodeIndex) {
        let (s, _) = self.span(ix);
        prefetch_line(self.nodes.as_ptr().wrapping_add(s).cast());
        if self.weighted {
            prefetch_line(self.weights.as_ptr().wrapping_add(s).cast());
        }
    }

    /// How many slots the arrays have (entries and unused slots): the length of a
    /// column parallel to the rows.
    pub(super) fn slots(&self) -> usize {
        self.nodes.len()
    }

    /// The slots of every row, by node index: where a column parallel to the rows
    /// places each row's entries.
    pub(super) fn spans(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.start
            .iter()
            .zip(&self.end)
            .map(|(&s, &e)| s as usize..e as usize)
    }

    /// How many entries row `ix` holds (0 for an index past the rows).
    #[inline]
    pub(super) fn row_len(&self, ix: NodeIndex) -> usize {
        let (s, e) = self.span(ix);
        e - s
    }

    /// How many rows there are (one per node index, at least).
    pub(super) fn row_count(&self) -> usize {
        self.start.len()
    }

    /// The neighbors of `ix` in this direction, newest edge first.
    #[inline]
    pub fn neighbors(&self, ix: NodeIndex) -> &[NodeIndex] {
        let (s, e) = self.span(ix);
        &self.nodes[s..e]
    }

    /// The entries of the slots `s..e` (one row's, from [`Rows::span`]).
    #[inline]
    pub(super) fn entries(&self, s: usize, e: usize) -> &[NodeIndex] {
        &self.nodes[s..e]
    }

    /// The rows of the node indices `indices` that these rows hold, in order:
    /// as many as `indices` names, fewer when it passes the last row (indices
    /// past it have empty rows). What a kernel walking every index reads, one
    /// bounds check a row.
    pub fn rows_in(&self, indices: Range<usize>) -> impl Iterator<Item = &[NodeIndex]> + '_ {
        let held = indices.start.min(self.start.len())..indices.end.min(self.start.len());
        self.start[held.clone()]
            .iter()
            .zip(&self.end[held])
            .map(|(&s, &e)| &self.nodes[s as usize..e as usize])
    }

    /// Out rows: the neighbors of `ix` with the weights of the edges to them.
    /// In rows have no weights: the weight slice is empty.
    #[inline]
    pub fn weighted(&self, ix: NodeIndex) -> (&[NodeIndex], &[f64]) {
        let (s, e) = self.span(ix);
        (
            &self.nodes[s..e],
            self.weights.get(s..e).unwrap_or_default(),
        )
    }

    /// For every node index, how many rows name it: the degree in the other
    /// direction (in-degrees from out rows). O(V + E).
    pub fn mentions(&self) -> Vec<u32> {
        let mut count = vec![0u32; self.start.len()];
        for row in self.spans() {
            for n in &self.nodes[row] {
                count[n.index()] += 1;
            }
        }
        count
    }

    /// Gives node `ix` an (empty) row if it has none: for a node added since the
    /// build, so that every node index has a row.
    pub(super) fn ensure_row(&mut self, ix: NodeIndex) {
        let r = ix.index();
        if r >= self.start.len() {
            let at = self.nodes.len() as u32;
            self.start.resize(r + 1, at);
            self.end.resize(r + 1, at);
        }
    }

    /// Puts an edge to (or from) `neighbor` at the front of `owner`'s row: the
    /// edge just added, newest of the row. Returns the slot it took and the move
    /// the row made to find room, if any. Amortized O(1).
    pub(super) fn prepend(
        &mut self,
        owner: NodeIndex,
        neighbor: NodeIndex,
        weight: f64,
    ) -> (usize, Option<SlotEdit>) {
        self.ensure_row(owner);
        let r = owner.index();
        let (s, e) = (self.start[r] as usize, self.end[r] as usize);
        let key = r as u32;
        let base = self.room.get(&key).map_or(s, |&b| b as usize);
        let mut edit = None;
        let slot = if base < s {
            if base == s - 1 {
                self.room.remove(&key);
            }
            s - 1
        } else {
            // No room: move the row to the end, with as many free slots as entries.
            let len = e - s;
            let region = self.nodes.len();
            let room = len.max(1);
            let total = region + room + len;
            let to = region + room;
            grow_to(&mut self.nodes, total, NodeIndex::end());
            self.nodes.copy_within(s..e, to);
            if self.weighted {
                grow_to(&mut self.weights, total, 0.0);
                self.weights.copy_within(s..e, to);
            }
            self.end[r] = (to + len) as u32;
            self.room.insert(key, region as u32);
            edit = Some(SlotEdit::Moved {
                len: total,
                from: s..e,
                to,
            });
            if room == 1 {
                self.room.remove(&key);
            }
            to - 1
        };
        self.nodes[slot] = neighbor;
        if self.weighted {
            self.weights[slot] = weight;
        }
        self.start[r] = slot as u32;
        self.live += 1;
        (slot, edit)
    }

    /// Removes the entry at `position` of `owner`'s row (0 is the newest): the
    /// newer entries shift one slot back. Returns that shift. O(position).
    pub(super) fn remove(&mut self, owner: NodeIndex, position: usize) -> Option<SlotEdit> {
        let r = owner.index();
        let (s, e) = self.span(owner);
        if s + position >= e {
            debug_assert!(false, "row {r} has no entry at {position}");
            return None;
        }
        self.room.entry(r as u32).or_insert(s as u32);
        let from = s..s + position;
        self.nodes.copy_within(from.clone(), s + 1);
        if self.weighted {
            self.weights.copy_within(from.clone(), s + 1);
        }
        self.start[r] = (s + 1) as u32;
        self.live -= 1;
        (position > 0).then_some(SlotEdit::Shifted { from, to: s + 1 })
    }

    /// Whether the unused slots are worth a [`Rows::compact`] (see the module
    /// docs).
    pub(super) fn wants_compaction(&self) -> bool {
        let unused = self.nodes.len() - self.live;
        unused > (self.start.len() + self.live) / 8 + COMPACTION_SLACK
    }

    /// Packs the rows again without unused slots, in node index order. O(V + E).
    /// Columns parallel to the rows are not moved: rebuild them.
    pub(super) fn compact(&mut self) {
        let weighted = self.weighted;
        let mut nodes = Vec::with_capacity(self.live);
        let mut weights = Vec::with_capacity(if weighted { self.live } else { 0 });
        for r in 0..self.start.len() {
            let (s, e) = (self.start[r] as usize, self.end[r] as usize);
            self.start[r] = nodes.len() as u32;
            nodes.extend_from_slice(&self.nodes[s..e]);
            if weighted {
                weights.extend_from_slice(&self.weights[s..e]);
            }
            self.end[r] = nodes.len() as u32;
        }
        self.nodes = nodes;
        self.weights = weights;
        self.room = HashMap::new();
    }
}

#[cfg(test)]
mod tests {
    use petgraph::Direction::{Incoming, Outgoing};
    use petgraph::stable_graph::NodeIndex;

    use crate::network::{EdgeSpec, Network, RelationFilter};

    /// A step of a linear congruential generator: reproducible, no dependency.
    fn next_random(state: &mut u64) -> usize {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*state >> 33) as usize
    }

    /// Every row of `net`'s kept rows equals the row of a copy built from
    /// scratch, in both directions, and so do the rows seen through `filter`
    /// (its relation columns).
    fn assert_rows_fresh(net: &Network, filter: &RelationFilter) {
        let fresh = net.clone();
        for dir in [Outgoing, Incoming] {
            let (kept, built) = (net.rows(dir), fresh.rows(dir));
            let (kept_view, built_view) = (net.follow(dir, filter), fresh.follow(dir, filter));
            for ix in net.graph().node_indices() {
                assert_eq!(kept.weighted(ix), built.weighted(ix), "{dir:?} row {ix:?}");
                assert!(kept_view.neighbors(ix).eq(built_view.neighbors(ix)));
            }
        }
        // The edge and relation-class columns: the same edges, of the same
        // relation types (class numbers depend on the order types were met).
        let (kept, built) = (
            net.edge_rows("relation", false).expect("kept in step"),
            fresh.edge_rows("relation", true).unwrap(),
        );
        for dir in [Outgoing, Incoming] {
            for ix in net.graph().node_indices() {
                let (k, b) = (kept.row(ix, dir), built.row(ix, dir));
                assert_eq!((k.nodes, k.edges), (b.nodes, b.edges), "{dir:?} row {ix:?}");
                let names = |row: &super::super::edge_columns::EdgeRow<'_>,
                             rows: &super::super::edge_columns::EdgeRows<'_>|
                 -> Vec<Box<str>> {
                    row.classes
                        .iter()
                        .map(|&c| rows.relation_names()[c as usize].clone())
                        .collect()
                };
                assert_eq!(names(&k, &kept), names(&b, &built));
                for (&e, &n) in k.edges.iter().zip(k.nodes) {
                    let (s, t) = net.graph().edge_endpoints(e).unwrap();
                    assert_eq!((s, t), if dir == Outgoing { (ix, n) } else { (n, ix) });
                }
            }
        }
    }

    #[test]
    fn many_writes_move_rows_then_pack_them_and_stay_exact() {
        let n = 200;
        let mut net = Network::new();
        for i in 0..n {
            net.add_node(&format!("n{i}")).unwrap();
        }
        let _ = net.adjacency();
        let related = RelationFilter::except(["related"]);
        let _ = net.follow(Outgoing, &related);
        assert!(net.edge_rows("relation", true).is_some());
        let mut present = Vec::new();
        let mut state = 7u64;
        let mut packed = 0;
        let mut last_slots = net.rows(Outgoing).slots();
        for step in 0..30_000u64 {
            let r = next_random(&mut state);
            if !r.is_multiple_of(3) || present.is_empty() {
                let (a, b) = (r % n, (r / n) % n);
                let mut spec =
                    EdgeSpec::new(format!("n{a}"), format!("n{b}")).with_weight((r % 5) as f64);
                if r.is_multiple_of(7) {
                    spec = spec.with_attribute("relation", "related");
                }
                present.push(net.add_edge_with(spec).unwrap());
            } else {
                let e = present.swap_remove(r % present.len());
                net.remove_edge(e).unwrap();
            }
            let slots = net.rows(Outgoing).slots();
            if slots < last_slots {
                packed += 1;
            }
            last_slots = slots;
            if step.is_multiple_of(5_000) {
                assert_rows_fresh(&net, &related);
            }
        }
        assert!(packed > 0, "the rows were never packed");
        assert_rows_fresh(&net, &related);
        // A node removed with its edges leaves its neighbours' rows exact.
        net.remove_node("n0").unwrap();
        assert_rows_fresh(&net, &related);
        assert!(net.rows(Outgoing).neighbors(NodeIndex::new(0)).is_empty());
    }

    /// Rows of both directions built in one walk equal the rows of each built
    /// on its own and petgraph's lists, whatever the number of edges (fewer
    /// than the hints' lookahead, or many) and after removals left holes in
    /// the edge ids and indices that new edges reuse.
    #[test]
    fn both_ways_at_once_equal_each_way_alone() {
        for (n, steps) in [(1usize, 0u64), (3, 5), (4, 17), (50, 400), (300, 6_000)] {
            let mut net = Network::new();
            for i in 0..n {
                net.add_node(&format!("n{i}")).unwrap();
            }
            let mut present = Vec::new();
            let mut state = n as u64;
            for _ in 0..steps {
                let r = next_random(&mut state);
                if !r.is_multiple_of(4) || present.is_empty() {
                    let (a, b) = (format!("n{}", r % n), format!("n{}", (r / n) % n));
                    present.push(net.add_edge(&a, &b, (r % 9) as f64 - 2.0).unwrap());
                } else {
                    let e = present.swap_remove(r % present.len());
                    net.remove_edge(e).unwrap();
                }
            }
            let graph = net.graph();
            let (out, inn) = super::Rows::build_both(graph, &net.edge_index);
            for (dir, both) in [(Outgoing, &out), (Incoming, &inn)] {
                let alone = super::Rows::build(graph, &net.edge_index, dir);
                for ix in graph.node_indices() {
                    assert_eq!(both.weighted(ix), alone.weighted(ix), "{dir:?} row {ix:?}");
                    let listed: Vec<NodeIndex> = graph.neighbors_directed(ix, dir).collect();
                    assert_eq!(both.neighbors(ix), listed.as_slice(), "{dir:?} row {ix:?}");
                }
                assert_eq!(both.slots(), net.edge_count());
            }
        }
    }
}
