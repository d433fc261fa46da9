//! A compact copy of a network's adjacency (compressed sparse rows), built
//! lazily and then kept in step with every structural change.
//!
//! petgraph's [`StableDiGraph`] keeps each node's edges as a linked list threaded
//! through the edge records, so walking a large graph costs one dependent cache
//! miss per edge. Whole-graph algorithms (BFS, Dijkstra, topological order, SCC)
//! are bound by exactly those misses. [`Rows`] store every node's neighbors in
//! one direction contiguously — 12 bytes per edge out (target and weight), 4 in
//! (source) — so the same walks read memory mostly in order. Each direction is
//! built only when a query needs it: most algorithms follow edges forwards only.
//!
//! Rows list edges in petgraph's own order (newest edge first), so an algorithm
//! gives the same answer on either representation; callers that want insertion
//! order read a row backwards, as they reverse petgraph's lists.
//!
//! **When it is built** (`AdjacencyCache`). Building a direction costs two
//! passes over the edges, O(V + E). Algorithms that look at the whole graph anyway
//! build it on first use (`AdjacencyCache::rows`). Queries that may touch only a
//! little of it — one node's neighbors, a bounded walk — use it only when it exists
//! and otherwise walk petgraph's lists, adding the edges they walked to a counter;
//! once that work reaches the cost of a build, the rows are built and the query
//! goes on with them, even in the middle of a walk (`NeighborSource`). That rule
//! (the "ski rental" argument) keeps a read-mostly workload within about twice
//! the cost of the best choice made in hindsight, while a network that is only
//! ever written and asked small questions never pays for a build it cannot use.
//! A build costs about as much as walking a quarter of the graph on petgraph's
//! lists (`LIST_WALKS_PER_BUILD`; measured in `BENCHMARKS.md`).
//!
//! **After it is built**, every write edits the rows (and the relation columns
//! parallel to them) in place, for about what petgraph pays for the same write
//! on its lists (see [`Rows`]): the first query after a write costs what it would
//! cost on rows that had never been stale. An agent writes a little and then
//! asks, again and again; rebuilding after each write made that query pay for
//! the whole graph. Only [`Network::drop_adjacency`] forgets them.

use std::cell::{Cell, OnceCell};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};
use petgraph::visit::{EdgeRef, NodeIndexable};

use super::edge_columns::{EdgeColumns, EdgeRows};
use super::edge_ids::EdgeIdIndex;
use super::relations::{RelationColumns, RelationFilter, ResolvedFilter};
pub use super::rows::Rows;
use super::{Direction, Edge, Network, Node};

type Graph = StableDiGraph<Node, Edge>;

/// How many whole-graph list walks (V + E steps each) building one direction's
/// rows costs, as a fraction 1 / this: measured at a million nodes, a build takes
/// about a fifth of the time of a list walk over the whole graph.
const LIST_WALKS_PER_BUILD: usize = 4;

/// List-walk steps after which building rows pays off (see the module docs).
fn build_cost(graph: &Graph) -> usize {
    (graph.node_bound() + graph.edge_count()) / LIST_WALKS_PER_BUILD
}

/// Both directions' rows of a network (see [`crate::network::Network::adjacency`]).
#[derive(Debug, Clone, Copy)]
pub struct Adjacency<'a> {
    out: &'a Rows,
    inn: &'a Rows,
}

impl<'a> Adjacency<'a> {
    /// Out-neighbors of `ix`, newest edge first (one entry per edge).
    #[inline]
    pub fn out_neighbors(&self, ix: NodeIndex) -> &'a [NodeIndex] {
        self.out.neighbors(ix)
    }

    /// Out-neighbors of `ix` with the weights of the edges to them, newest edge first.
    #[inline]
    pub fn out_weighted(&self, ix: NodeIndex) -> (&'a [NodeIndex], &'a [f64]) {
        self.out.weighted(ix)
    }

    /// In-neighbors of `ix`, newest edge first (one entry per edge).
    #[inline]
    pub fn in_neighbors(&self, ix: NodeIndex) -> &'a [NodeIndex] {
        self.inn.neighbors(ix)
    }
}

/// One direction's rows seen through a [`RelationFilter`]: the edges it does not
/// follow are skipped while reading a row (one array read per edge), so the rows
/// are never rebuilt for a filter. Without a filter it reads the rows as they are.
pub(crate) struct Follow<'a> {
    rows: &'a Rows,
    /// The other direction's rows, if they are built (never built for this).
    opposite: Option<&'a Rows>,
    dir: petgraph::Direction,
    resolved: Option<ResolvedFilter>,
}

impl<'a> Follow<'a> {
    pub(super) fn new(net: &'a Network, dir: petgraph::Direction, filter: &RelationFilter) -> Self {
        Follow {
            rows: net.rows(dir),
            opposite: net.adjacency.slot(dir.opposite()).get(),
            dir,
            resolved: net.adjacency.resolve(&net.graph, &net.edge_index, filter),
        }
    }

    /// The followed neighbors of `ix`, newest edge first (one entry per edge).
    #[inline]
    pub(crate) fn neighbors(&self, ix: NodeIndex) -> Neighbors<'_> {
        let (s, e) = self.rows.span(ix);
        match &self.resolved {
            None => Neighbors {
                nodes: self.rows.entries(s, e),
                classes: &[],
                keep: &[],
                at: 0,
            },
            Some(r) => Neighbors {
                nodes: self.rows.entries(s, e),
                classes: &r.columns.column(self.dir)[s..e],
                keep: &r.keep,
                at: 0,
            },
        }
    }

    /// Hints that the rows of `far` and then of `near` are walked soon, for a
    /// loop that knows its next nodes (Kahn's queue): `far`'s bounds, and the
    /// entries of `near`, whose bounds an earlier hint for it brought in. Rows
    /// are scattered, so a walk in queue order otherwise waits on a cache miss
    /// for each row's bounds, then one for its entries. Reads only `near`'s bounds.
    #[inline(always)]
    pub(crate) fn prefetch(&self, far: Option<NodeIndex>, near: Option<NodeIndex>) {
        if let Some(far) = far {
            self.rows.prefetch_bounds(far);
        }
        if let Some(near) = near {
            self.rows.prefetch_entries(near);
        }
    }

    /// The length of `ix`'s whole row, followed or not: the work of reading it.
    #[inline]
    pub(crate) fn row_len(&self, ix: NodeIndex) -> usize {
        self.rows.row_len(ix)
    }

    /// For every node index, how many followed edges of these rows name it
    /// (in-degrees from out rows). O(V + E).
    pub(crate) fn mentions(&self) -> Vec<u32> {
        let Some(r) = &self.resolved else {
            return match self.opposite {
                // Every edge is one entry of its target's row the other way:
                // the lengths of those rows are the counts, read in order
                // instead of scattered over every edge (a fifth of a
                // topological sort). Both directions' rows follow every write.
                Some(opposite) => (0..self.rows.row_count())
                    .map(|i| opposite.row_len(NodeIndex::new(i)) as u32)
                    .collect(),
                None => self.rows.mentions(),
            };
        };
        let classes = r.columns.column(self.dir);
        let mut count = vec![0u32; self.rows.row_count()];
        for row in self.rows.spans() {
            let (s, e) = (row.start, row.end);
            for (n, &c) in self.rows.entries(s, e).iter().zip(&classes[s..e]) {
                if r.keep[c as usize] {
                    count[n.index()] += 1;
                }
            }
        }
        count
    }
}

/// The followed neighbors of one row (see [`Follow::neighbors`]).
#[derive(Clone)]
pub(crate) struct Neighbors<'a> {
    nodes: &'a [NodeIndex],
    /// Empty when every edge is followed.
    classes: &'a [u32],
    keep: &'a [bool],
    at: usize,
}

impl Iterator for Neighbors<'_> {
    type Item = NodeIndex;

    #[inline]
    fn next(&mut self) -> Option<NodeIndex> {
        while let Some(&n) = self.nodes.get(self.at) {
            let at = self.at;
            self.at += 1;
            if self.classes.is_empty() || self.keep[self.classes[at] as usize] {
                return Some(n);
            }
        }
        None
    }
}

/// The lazily built rows of one network, kept current by every write, and the
/// bookkeeping that decides when to build them (see the module docs). Cloning a
/// network does not copy them.
#[derive(Debug, Default)]
pub(crate) struct AdjacencyCache {
    out: OnceLock<Rows>,
    inn: OnceLock<Rows>,
    /// Edges walked on petgraph's lists while the rows were not built.
    linked_work: AtomicUsize,
    /// The relation columns built for the rows, one per attribute
    /// (at most [`RELATION_COLUMNS_KEPT`], the most recent last).
    relations: Mutex<Vec<Arc<RelationColumns>>>,
    /// The edge index of every slot of the rows, once a read asked for it.
    edges: Mutex<Option<Arc<EdgeColumns>>>,
}

/// How many attributes' relation columns a network keeps at once.
const RELATION_COLUMNS_KEPT: usize = 4;

impl Clone for AdjacencyCache {
    fn clone(&self) -> Self {
        AdjacencyCache::default()
    }
}

impl AdjacencyCache {
    /// Forgets the rows and everything derived from them (they are built again
    /// when next needed).
    pub(crate) fn drop_rows(&mut self) {
        for rows in [&mut self.out, &mut self.inn] {
            if rows.get().is_some() {
                *rows = OnceLock::new();
            }
        }
        *self.linked_work.get_mut() = 0;
        self.drop_relations();
    }

    fn drop_relations(&mut self) {
        if let Ok(relations) = self.relations.get_mut() {
            relations.clear();
        }
        if let Ok(edges) = self.edges.get_mut() {
            *edges = None;
        }
    }

    /// Whether either direction's rows are built (writes have nothing to edit
    /// otherwise: a bulk load of a new network pays nothing for the rows).
    #[inline]
    fn is_built(&self) -> bool {
        self.out.get().is_some() || self.inn.get().is_some()
    }

    /// Node `ix` was just added: it gets an empty row in the built rows.
    #[inline]
    pub(crate) fn node_added(&mut self, ix: NodeIndex) {
        for rows in [&mut self.out, &mut self.inn] {
            if let Some(rows) = rows.get_mut() {
                rows.ensure_row(ix);
            }
        }
    }

    /// Edge `e` was just added to `graph`: it goes at the front of its endpoints'
    /// built rows (it is their newest edge), and into the relation columns.
    /// Amortized O(1); see [`Rows`] for how the rows make room.
    #[inline]
    pub(crate) fn edge_added(&mut self, graph: &Graph, e: EdgeIndex) {
        if !self.is_built() {
            return;
        }
        let (Some((a, b)), Some(edge)) = (graph.edge_endpoints(e), graph.edge_weight(e)) else {
            return;
        };
        for (dir, owner, neighbor) in [(Outgoing, a, b), (Incoming, b, a)] {
            let Some(rows) = self.slot_mut(dir).get_mut() else {
                continue;
            };
            let (slot, edit) = rows.prepend(owner, neighbor, edge.weight);
            self.for_each_relation_column(|columns| {
                let class = columns.class_of(edge);
                columns.follow(dir, edit.as_ref(), slot, class);
            });
            self.edit_edge_columns(|columns| columns.follow(dir, edit.as_ref(), slot, e));
        }
        self.compact_if_worth_it();
    }

    /// Edge `e` of `graph` is about to be removed: it leaves its endpoints' built
    /// rows. Its position in a row is its position in petgraph's list of the
    /// same direction (both list edges newest first), counted by walking that
    /// list as petgraph's removal itself does: O(degree).
    #[inline]
    pub(crate) fn edge_removing(&mut self, graph: &Graph, e: EdgeIndex) {
        if !self.is_built() {
            return;
        }
        let Some((a, b)) = graph.edge_endpoints(e) else {
            return;
        };
        for (dir, owner) in [(Outgoing, a), (Incoming, b)] {
            let Some(rows) = self.slot_mut(dir).get_mut() else {
                continue;
            };
            let Some(position) = graph.edges_directed(owner, dir).position(|x| x.id() == e) else {
                continue;
            };
            let edit = rows.remove(owner, position);
            if let Some(edit) = edit {
                self.for_each_relation_column(|columns| columns.shift(dir, &edit));
                self.edit_edge_columns(|columns| columns.shift(dir, &edit));
            }
        }
        self.compact_if_worth_it();
    }

    fn slot_mut(&mut self, dir: petgraph::Direction) -> &mut OnceLock<Rows> {
        match dir {
            Outgoing => &mut self.out,
            Incoming => &mut self.inn,
        }
    }

    /// Calls `f` on every kept relation column set (for an edit of the rows).
    fn for_each_relation_column(&mut self, mut f: impl FnMut(&mut RelationColumns)) {
        if let Ok(relations) = self.relations.get_mut() {
            // Columns still shared with a reader cannot be edited: forget them.
            relations.retain_mut(|columns| match Arc::get_mut(columns) {
                Some(columns) => {
                    f(columns);
                    true
                }
                None => false,
            });
        }
    }

    /// Calls `f` on the edge columns, if built (for an edit of the rows).
    fn edit_edge_columns(&mut self, f: impl FnOnce(&mut EdgeColumns)) {
        if let Ok(edges) = self.edges.get_mut()
            && let Some(shared) = edges
        {
            // Columns still shared with a reader cannot be edited: forget them.
            match Arc::get_mut(shared) {
                Some(columns) => f(columns),
                None => *edges = None,
            }
        }
    }

    /// Both directions' rows with their edge columns and the relation classes of
    /// `attribute`, building what is missing when `build` or when the rows are
    /// built already (the columns then cost O(V + E) once, as the rows did);
    /// `None` when the rows are not built and `build` is false.
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn edge_rows(
        &self,
        graph: &Graph,
        edge_ids: &EdgeIdIndex,
        attribute: &str,
        build: bool,
    ) -> Option<EdgeRows<'_>> {
        let built = self.out.get().is_some() && self.inn.get().is_some();
        if !(build || built) {
            return None;
        }
        let out = self.rows(graph, edge_ids, petgraph::Direction::Outgoing);
        let inn = self.rows(graph, edge_ids, petgraph::Direction::Incoming);
        let edges = {
            let mut kept = self.edges.lock().ok()?;
            kept.get_or_insert_with(|| Arc::new(EdgeColumns::build(graph, edge_ids, out, inn)))
                .clone()
        };
        let relations = self
            .resolve(
                graph,
                edge_ids,
                &RelationFilter::only([""]).on_attribute(attribute),
            )?
            .columns;
        Some(EdgeRows::new(out, inn, edges, relations))
    }

    /// Packs a direction's rows when its unused slots are worth it; the relation
    /// columns do not follow a packing and are dropped (built again on demand, a
    /// cost the writes that wasted the slots have paid for).
    fn compact_if_worth_it(&mut self) {
        let mut packed = false;
        for rows in [&mut self.out, &mut self.inn] {
            if let Some(rows) = rows.get_mut()
                && rows.wants_compaction()
            {
                rows.compact();
                packed = true;
            }
        }
        if packed {
            self.drop_relations();
        }
    }

    /// `filter` resolved against the relation columns of its attribute, built
    /// now (with both directions' rows) if needed; `None` when it follows every
    /// edge.
    pub(crate) fn resolve(
        &self,
        graph: &Graph,
        edge_ids: &EdgeIdIndex,
        filter: &RelationFilter,
    ) -> Option<ResolvedFilter> {
        if filter.is_all() {
            return None;
        }
        let cached = self.relations.lock().ok().and_then(|kept| {
            kept.iter()
                .find(|c| *c.attribute == *filter.attribute())
                .cloned()
        });
        let columns = match cached {
            Some(columns) => columns,
            None => {
                let out = self.rows(graph, edge_ids, petgraph::Direction::Outgoing);
                let inn = self.rows(graph, edge_ids, petgraph::Direction::Incoming);
                let columns = Arc::new(RelationColumns::build(
                    graph,
                    edge_ids,
                    filter.attribute(),
                    out,
                    inn,
                ));
                if let Ok(mut kept) = self.relations.lock() {
                    if kept.len() == RELATION_COLUMNS_KEPT {
                        kept.remove(0);
                    }
                    kept.push(columns.clone());
                }
                columns
            }
        };
        Some(ResolvedFilter {
            keep: columns.kept_classes(filter).into(),
            columns,
        })
    }

    fn slot(&self, dir: petgraph::Direction) -> &OnceLock<Rows> {
        match dir {
            petgraph::Direction::Outgoing => &self.out,
            petgraph::Direction::Incoming => &self.inn,
        }
    }

    /// For an algorithm that reads the whole graph: the rows of `dir`, built now
    /// if needed.
    pub(crate) fn rows(
        &self,
        graph: &Graph,
        edge_ids: &EdgeIdIndex,
        dir: petgraph::Direction,
    ) -> &Rows {
        self.slot(dir)
            .get_or_init(|| Rows::build(graph, edge_ids, dir))
    }

    /// Both directions, built now if needed.
    pub(crate) fn both(&self, graph: &Graph, edge_ids: &EdgeIdIndex) -> Adjacency<'_> {
        if self.out.get().is_none() && self.inn.get().is_none() {
            // One walk of the edges for both: a reader racing this one may set
            // either first, and then ours (the same rows) is dropped.
            let (out, inn) = Rows::build_both(graph, edge_ids);
            let _ = self.out.set(out);
            let _ = self.inn.set(inn);
        }
        Adjacency {
            out: self.rows(graph, edge_ids, petgraph::Direction::Outgoing),
            inn: self.rows(graph, edge_ids, petgraph::Direction::Incoming),
        }
    }

    /// For a query that may read only part of the graph: the rows of `dir` if they
    /// are built, or if the list walks since they were last dropped have cost as
    /// much as building them; `None` means walk petgraph's lists and
    /// [`charge`](Self::charge) them.
    #[inline]
    fn rows_if_worth_it(
        &self,
        graph: &Graph,
        edge_ids: &EdgeIdIndex,
        dir: petgraph::Direction,
    ) -> Option<&Rows> {
        if let Some(rows) = self.slot(dir).get() {
            return Some(rows);
        }
        (self.linked_work.load(Ordering::Relaxed) >= build_cost(graph))
            .then(|| self.rows(graph, edge_ids, dir))
    }

    /// List-walk steps left before building rows pays off.
    fn budget(&self, graph: &Graph) -> usize {
        build_cost(graph).saturating_sub(self.linked_work.load(Ordering::Relaxed))
    }

    /// Records `edges` walked on petgraph's lists.
    #[inline]
    fn charge(&self, edges: usize) {
        self.linked_work.fetch_add(edges, Ordering::Relaxed);
    }

    /// [`Self::charge`], for reads outside this module.
    #[inline]
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn charge_walk(&self, edges: usize) {
        self.charge(edges);
    }

    /// Whether list walks so far plus `more` have cost a build of the rows.
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn pays_off(&self, graph: &Graph, more: usize) -> bool {
        self.linked_work
            .load(Ordering::Relaxed)
            .saturating_add(more)
            >= build_cost(graph)
    }
}

/// Where one query reads neighbors from: per direction, the compact rows or
/// petgraph's lists. List steps are counted; when they use up the network's
/// budget (see the module docs) the rows are built and the query switches to
/// them, and the steps are charged to the network when the query ends.
pub(crate) struct NeighborSource<'a> {
    net: &'a Network,
    out: Cell<Option<&'a Rows>>,
    inn: Cell<Option<&'a Rows>>,
    /// Which directions this query reads.
    wants: [bool; 2],
    walked: Cell<usize>,
    /// `walked` at which to build the rows.
    budget: usize,
    /// The relation filter, unless every edge is followed.
    filter: Option<&'a RelationFilter>,
    /// The filter resolved against the relation columns, once the rows are read.
    resolved: OnceCell<Option<ResolvedFilter>>,
}

impl<'a> NeighborSource<'a> {
    /// For a query along `direction` that may read only part of the graph (see
    /// the module docs).
    pub(crate) fn partial(net: &'a Network, direction: Direction) -> Self {
        Self::partial_following(net, direction, RelationFilter::every_edge())
    }

    /// [`NeighborSource::partial`] that follows only the edges `filter` keeps:
    /// checked per edge while walking, on the lists or the rows.
    pub(crate) fn partial_following(
        net: &'a Network,
        direction: Direction,
        filter: &'a RelationFilter,
    ) -> Self {
        let wants =
            [Direction::Out, Direction::In].map(|d| direction == d || direction == Direction::Both);
        let cache = &net.adjacency;
        let rows = |k: usize, dir| {
            wants[k]
                .then(|| cache.rows_if_worth_it(&net.graph, &net.edge_index, dir))
                .flatten()
        };
        NeighborSource {
            net,
            out: Cell::new(rows(0, petgraph::Direction::Outgoing)),
            inn: Cell::new(rows(1, petgraph::Direction::Incoming)),
            wants,
            walked: Cell::new(0),
            budget: cache.budget(&net.graph),
            filter: (!filter.is_all()).then_some(filter),
            resolved: OnceCell::new(),
        }
    }

    /// The filter resolved against the rows' relation columns.
    #[inline]
    fn resolved(&self) -> Option<&ResolvedFilter> {
        let filter = self.filter?;
        self.resolved
            .get_or_init(|| {
                self.net
                    .adjacency
                    .resolve(&self.net.graph, &self.net.edge_index, filter)
            })
            .as_ref()
    }

    #[inline]
    fn rows(&self, dir: petgraph::Direction) -> Option<&'a Rows> {
        match dir {
            petgraph::Direction::Outgoing => self.out.get(),
            petgraph::Direction::Incoming => self.inn.get(),
        }
    }

    /// Counts `steps` list steps; once they reach the budget, builds the rows of
    /// the directions this query reads, so that the rest of it uses them.
    #[inline]
    fn walked(&self, steps: usize) {
        let walked = self.walked.get() + steps;
        self.walked.set(walked);
        if walked >= self.budget {
            self.switch_to_rows();
        }
    }

    #[cold]
    fn switch_to_rows(&self) {
        if self.wants[0] {
            self.out
                .set(Some(self.net.rows(petgraph::Direction::Outgoing)));
        }
        if self.wants[1] {
            self.inn
                .set(Some(self.net.rows(petgraph::Direction::Incoming)));
        }
    }

    /// Appends the neighbors of `ix` along `dir` that `keep` accepts, oldest edge
    /// first (insertion order), one entry per edge.
    #[inline]
    pub(crate) fn extend_oldest_first(
        &self,
        ix: NodeIndex,
        dir: petgraph::Direction,
        buf: &mut Vec<NodeIndex>,
        keep: impl Fn(NodeIndex) -> bool,
    ) {
        match (self.rows(dir), self.filter) {
            (Some(rows), None) => buf.extend(rows.neighbors(ix).iter().rev().filter(|&&n| keep(n))),
            (Some(rows), Some(_)) => {
                let (s, e) = rows.span(ix);
                if let Some(r) = self.resolved() {
                    let classes = &r.columns.column(dir)[s..e];
                    buf.extend(
                        rows.entries(s, e)
                            .iter()
                            .zip(classes)
                            .rev()
                            .filter(|&(&n, &c)| r.keep[c as usize] && keep(n))
                            .map(|(&n, _)| n),
                    );
                }
            }
            (None, None) => {
                let start = buf.len();
                let mut walked = 0;
                buf.extend(
                    self.net
                        .graph()
                        .neighbors_directed(ix, dir)
                        .inspect(|_| walked += 1)
                        .filter(|&n| keep(n)),
                );
                buf[start..].reverse();
                self.walked(1 + walked);
            }
            (None, Some(filter)) => {
                let start = buf.len();
                let mut walked = 0;
                buf.extend(
                    self.net
                        .graph()
                        .edges_directed(ix, dir)
                        .inspect(|_| walked += 1)
                        .filter(|e| filter.keeps(e.weight()))
                        .map(|e| other_end(e, ix))
                        .filter(|&n| keep(n)),
                );
                buf[start..].reverse();
                self.walked(1 + walked);
            }
        }
    }

    /// Calls `f(target, weight)` for every edge leaving `ix`, newest edge first
    /// (petgraph's order). Needs a source made for `Direction::Out` or `Both`.
    #[inline]
    pub(crate) fn for_each_out_newest_first(
        &self,
        ix: NodeIndex,
        mut f: impl FnMut(NodeIndex, f64),
    ) {
        match self.out.get() {
            Some(rows) => {
                let (targets, weights) = rows.weighted(ix);
                match self.resolved() {
                    None => {
                        for (&t, &w) in targets.iter().zip(weights) {
                            f(t, w);
                        }
                    }
                    Some(r) => {
                        let (s, e) = rows.span(ix);
                        let classes = &r.columns.column(petgraph::Direction::Outgoing)[s..e];
                        for ((&t, &w), &c) in targets.iter().zip(weights).zip(classes) {
                            if r.keep[c as usize] {
                                f(t, w);
                            }
                        }
                    }
                }
            }
            None => {
                let mut walked = 1;
                for e in self
                    .net
                    .graph()
                    .edges_directed(ix, petgraph::Direction::Outgoing)
                {
                    walked += 1;
                    if self.filter.is_none_or(|filter| filter.keeps(e.weight())) {
                        f(e.target(), e.weight().weight);
                    }
                }
                self.walked(walked);
            }
        }
    }
}

/// The end of `e` that is not `ix` (`ix` for a self-loop), whichever way
/// petgraph reports the edge.
#[inline]
fn other_end(e: petgraph::stable_graph::EdgeReference<'_, Edge>, ix: NodeIndex) -> NodeIndex {
    if e.source() == ix {
        e.target()
    } else {
        e.source()
    }
}

impl Drop for NeighborSource<'_> {
    fn drop(&mut self) {
        let walked = self.walked.get();
        if walked > 0 {
            self.net.adjacency.charge(walked);
        }
    }
}

#[cfg(test)]
mod tests {
    use petgraph::Direction::{Incoming, Outgoing};
    use petgraph::stable_graph::NodeIndex;

    use super::Follow;
    use crate::network::{Network, RelationFilter};

    /// Counts of incoming edges read from the in rows' lengths (when built)
    /// must be the counts scattered over the out rows, through writes that
    /// add parallel edges and self-loops and remove edges and nodes.
    #[test]
    fn in_degrees_from_the_in_rows_are_the_counted_ones() {
        let mut net = Network::new();
        let ids: Vec<String> = (0..40).map(|i| format!("n{i}")).collect();
        for id in &ids {
            net.add_node(id).expect("valid id");
        }
        // A local xorshift: the graph layer may not import the algorithm
        // layer's generator (tests/core/layers.rs).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut edges = Vec::new();
        for step in 0..400 {
            match next(10) {
                0 if !edges.is_empty() => {
                    let id = edges.swap_remove(next(edges.len()));
                    net.remove_edge(id).expect("edge exists");
                }
                1 if step % 50 == 1 => {
                    let id = &ids[next(ids.len())];
                    let _ = net.remove_node(id);
                    let _ = net.add_node(id);
                    edges.retain(|&e| net.edge(e).is_some());
                }
                _ => {
                    let (a, b) = (&ids[next(ids.len())], &ids[next(ids.len())]);
                    edges.push(net.add_edge(a, b, 1.0).expect("both exist"));
                }
            }
            if step % 37 == 0 {
                // Both directions built: the next counts come from the in rows.
                let _ = net.adjacency();
            }
            let every_edge = RelationFilter::every_edge();
            let follow = Follow::new(&net, Outgoing, every_edge);
            let counted = net.rows(Outgoing).mentions();
            assert_eq!(follow.mentions(), counted, "step {step}");
            if net.adjacency.slot(Incoming).get().is_some() {
                let truth: Vec<u32> = (0..counted.len())
                    .map(|i| {
                        let ix = NodeIndex::new(i);
                        net.graph.edges_directed(ix, Incoming).count() as u32
                    })
                    .collect();
                assert_eq!(counted, truth, "step {step}");
            }
        }
    }
}
