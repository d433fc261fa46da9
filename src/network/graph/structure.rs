//! The one place where a [`Network`]'s structure changes.
//!
//! Besides the petgraph graph, a network keeps four facts derived from it: the
//! node-id index, the edge-id index, the compact adjacency rows and the count of
//! negative edges. Every node or edge added or removed goes through
//! [`Network::change`], which updates all four with the graph, so no mutation site
//! can forget one. (Changing a node's data or attributes is not structural: none
//! of the four depends on them; [`Network::set_attributes`] and
//! [`Network::set_content_from`] do it for the algorithm families that write
//! task state or apply a diff, counting one change of version.)
//!
//! These functions are the documented doors through which `algo/` changes a
//! network; the `Network` fields themselves are private to `graph/`.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use serde_json::Value;

use petgraph::visit::EdgeRef;

use super::history::{ChangeKind, Entry};
use super::{Attributes, Edge, EdgeId, Network, Node};

/// A structural change, with its inputs already validated.
pub(in crate::network) enum Change<'a> {
    /// A node whose id is valid and not in the network yet, with the id's hash
    /// in the id index ([`super::IdIndex::hash`]).
    AddNode {
        id: &'a str,
        hash: u64,
        data: Option<Value>,
        attributes: Attributes,
    },
    /// An edge between existing nodes, with a finite weight. With `recorded`
    /// false the edge counts no version and leaves no record in the window of
    /// recent changes: a batch that may still be undone records its edges
    /// once it holds ([`Network::record_edge_batch`]).
    AddEdge {
        source: NodeIndex,
        target: NodeIndex,
        weight: f64,
        attributes: Attributes,
        recorded: bool,
    },
    /// An existing node and every edge touching it.
    RemoveNode(NodeIndex),
    /// An existing edge. With `recorded` false the removal counts no version
    /// and leaves no record: it undoes an unrecorded [`Change::AddEdge`].
    RemoveEdge { id: EdgeId, recorded: bool },
}

/// Where a batch of edges started, to record it or undo it as one change.
#[derive(Clone, Copy)]
pub(in crate::network) struct EdgeBatchMark {
    first_id: EdgeId,
}

/// What a [`Change`] did.
pub(in crate::network) enum Changed {
    /// The new node's index.
    Node(NodeIndex),
    /// The new edge's id.
    Edge(EdgeId),
    /// How many edges were removed.
    Removed(usize),
}

impl Network {
    /// Applies one structural change and keeps the derived facts in step with it
    /// (the compact adjacency rows, if built, are edited in place).
    ///
    /// A dispatcher, always inlined: each call site names its kind of change,
    /// so the match folds away and the call goes straight to that kind's
    /// function (a single `add_edge` spent a quarter of its instructions in
    /// one large `change` that could not be inlined).
    #[inline(always)]
    pub(in crate::network) fn change(&mut self, change: Change<'_>) -> Changed {
        match change {
            Change::AddNode {
                id,
                hash,
                data,
                attributes,
            } => Changed::Node(self.apply_add_node(id, hash, data, attributes)),
            Change::AddEdge {
                source,
                target,
                weight,
                attributes,
                recorded,
            } => Changed::Edge(self.apply_add_edge(source, target, weight, attributes, recorded)),
            Change::RemoveNode(ix) => Changed::Removed(self.apply_remove_node(ix)),
            Change::RemoveEdge { id, recorded } => {
                Changed::Removed(self.apply_remove_edge(id, recorded))
            }
        }
    }

    /// [`Change::AddNode`].
    #[inline]
    fn apply_add_node(
        &mut self,
        id: &str,
        hash: u64,
        data: Option<Value>,
        attributes: Attributes,
    ) -> NodeIndex {
        // Every id in a network is a valid one: edge adds rely on it, checking
        // the form of only those ids that are not found.
        debug_assert!(super::validate::id("node_id", id).is_ok(), "{id:?}");
        // Every attribute stored is shared (a lookup when it already is).
        let attributes = self.interner.share(attributes);
        let ix = self.graph.add_node(Node {
            id: id.into(),
            data: data.map(Box::new),
            attributes,
        });
        self.node_index.insert_new(&self.graph, ix, hash);
        self.adjacency.node_added(ix);
        self.touch(Entry::NodeAdded(ix));
        ix
    }

    /// [`Change::AddEdge`].
    #[inline]
    fn apply_add_edge(
        &mut self,
        source: NodeIndex,
        target: NodeIndex,
        weight: f64,
        attributes: Attributes,
        recorded: bool,
    ) -> EdgeId {
        let id = self.next_edge_id;
        self.next_edge_id += 1;
        self.negative_edges += usize::from(weight < 0.0);
        let attributes = self.interner.share(attributes);
        let edge = Edge {
            id,
            weight,
            attributes,
        };
        let ix = self.graph.add_edge(source, target, edge);
        self.adjacency.edge_added(&self.graph, ix);
        self.edge_index.insert(id, ix);
        if recorded {
            self.touch(Entry::EdgeAdded(id));
        }
        id
    }

    /// [`Change::RemoveNode`]: the number of edges removed with the node.
    #[inline(never)]
    fn apply_remove_node(&mut self, ix: NodeIndex) -> usize {
        let mut edges: Vec<(EdgeId, f64, NodeIndex, NodeIndex)> = self
            .graph
            .edges_directed(ix, Outgoing)
            .chain(self.graph.edges_directed(ix, Incoming))
            .map(|e| (e.weight().id, e.weight().weight, e.source(), e.target()))
            .collect();
        // A self-loop is listed both ways.
        edges.sort_unstable_by_key(|&(id, ..)| id);
        edges.dedup_by_key(|&mut (id, ..)| id);
        // One version: the edges' removals, then the node's.
        self.next_version();
        for &(edge_id, weight, a, b) in &edges {
            let removed = self.edge_removed(edge_id, a, b, weight);
            self.history.push(self.version, removed);
            self.edge_index.remove(edge_id);
            self.negative_edges -= usize::from(weight < 0.0);
        }
        if let Some(node) = self.graph.node_weight(ix) {
            let id = node.id.clone();
            self.node_index.remove(&self.graph, &id);
            // Boxed: the window's records stay small.
            let id: Box<str> = id.as_str().into();
            self.history.push(self.version, Entry::NodeRemoved(ix, id));
        }
        // The edges leave the rows one by one, each the first of the
        // node's list (as petgraph's own removal takes them), so that
        // rows and lists agree at every step.
        for dir in [Outgoing, Incoming] {
            while let Some(e) = self.graph.edges_directed(ix, dir).next().map(|e| e.id()) {
                self.adjacency.edge_removing(&self.graph, e);
                self.graph.remove_edge(e);
            }
        }
        self.graph.remove_node(ix);
        edges.len()
    }

    /// [`Change::RemoveEdge`]: 1 if the edge existed, else 0.
    #[inline(never)]
    fn apply_remove_edge(&mut self, edge_id: EdgeId, recorded: bool) -> usize {
        let Some(ix) = self.edge_index.remove(edge_id) else {
            return 0;
        };
        self.adjacency.edge_removing(&self.graph, ix);
        if let Some((a, b)) = self.graph.edge_endpoints(ix)
            && let Some(edge) = self.graph.remove_edge(ix)
        {
            self.negative_edges -= usize::from(edge.weight < 0.0);
            if recorded {
                let removed = self.edge_removed(edge_id, a, b, edge.weight);
                self.touch(removed);
            }
        }
        1
    }

    /// Inserts a node whose id is known to be valid and new.
    pub(in crate::network) fn insert_node_unchecked(
        &mut self,
        id: &str,
        data: Option<Value>,
        attributes: Attributes,
    ) -> NodeIndex {
        let hash = self.node_index.hash(id);
        self.insert_node_hashed(id, hash, data, attributes)
    }

    /// [`Network::insert_node_unchecked`] for an id whose hash in the id index is known.
    pub(in crate::network) fn insert_node_hashed(
        &mut self,
        id: &str,
        hash: u64,
        data: Option<Value>,
        attributes: Attributes,
    ) -> NodeIndex {
        match self.change(Change::AddNode {
            id,
            hash,
            data,
            attributes,
        }) {
            Changed::Node(ix) => ix,
            _ => unreachable!("adding a node yields its index"),
        }
    }

    /// Adds an edge between existing node indices with an already validated weight.
    pub(in crate::network) fn insert_edge_unchecked(
        &mut self,
        source: NodeIndex,
        target: NodeIndex,
        weight: f64,
        attributes: Attributes,
    ) -> EdgeId {
        self.insert_edge(source, target, weight, attributes, true)
    }

    /// [`Network::insert_edge_unchecked`], recorded (a version and a record of
    /// its own) or not (a batch's edge: see [`Change::AddEdge`]).
    fn insert_edge(
        &mut self,
        source: NodeIndex,
        target: NodeIndex,
        weight: f64,
        attributes: Attributes,
        recorded: bool,
    ) -> EdgeId {
        match self.change(Change::AddEdge {
            source,
            target,
            weight,
            attributes,
            recorded,
        }) {
            Changed::Edge(id) => id,
            _ => unreachable!("adding an edge yields its id"),
        }
    }

    /// Where a batch of edges starts: see [`Network::insert_batch_edge`].
    pub(in crate::network) fn edge_batch_mark(&self) -> EdgeBatchMark {
        EdgeBatchMark {
            first_id: self.next_edge_id,
        }
    }

    /// Inserts one edge of a batch that may still fail, validated as
    /// [`Network::insert_edge_unchecked`]'s, without a version or a record yet.
    /// The batch ends with [`Network::record_edge_batch`] when it holds, or with
    /// [`Network::undo_edge_batch`] when it fails; no other change may come
    /// between its first edge and its end.
    pub(in crate::network) fn insert_batch_edge(
        &mut self,
        source: NodeIndex,
        target: NodeIndex,
        weight: f64,
        attributes: Attributes,
    ) -> EdgeId {
        self.insert_edge(source, target, weight, attributes, false)
    }

    /// Counts the versions of the batch's edges and records them in the window
    /// of recent changes, exactly as if each had been added on its own (one
    /// version and one record each); records the window would drop before the
    /// batch's end are never written (see `History::begin_run`). Returns the
    /// batch's edge ids. O(batch), a few instructions per edge.
    pub(in crate::network) fn record_edge_batch(
        &mut self,
        mark: EdgeBatchMark,
    ) -> std::ops::Range<EdgeId> {
        let ids = mark.first_id..self.next_edge_id;
        self.history
            .begin_run(self.version, (ids.end - ids.start) as usize);
        for id in ids.clone() {
            self.touch(Entry::EdgeAdded(id));
        }
        self.history.end_run();
        ids
    }

    /// Removes the batch's edges, newest first and unrecorded, so that the
    /// network is as it was before the batch: the same nodes, edges, lists,
    /// rows, counts, ids and version, and later edges get the ids and the slots
    /// they would have got. (petgraph keeps the vacated slots on its list of
    /// free slots, the lowest on top, so later edges fill them in the order
    /// appending would have used.) O(batch): each removed edge is the newest
    /// of both its lists.
    pub(in crate::network) fn undo_edge_batch(&mut self, mark: EdgeBatchMark) {
        for id in (mark.first_id..self.next_edge_id).rev() {
            self.change(Change::RemoveEdge {
                id,
                recorded: false,
            });
        }
        // The map keeps the ids' vacated slots at its end; without them it
        // takes the next ids densely again.
        self.edge_index.truncate_from(mark.first_id);
        self.next_edge_id = mark.first_id;
    }

    /// Inserts an edge under the id it has elsewhere (a snapshot, or the network
    /// a copy is made from), through [`Network::change`]. Edges must come in by
    /// increasing id; finish with [`Network::set_next_edge_id`].
    pub(in crate::network) fn insert_edge_as(
        &mut self,
        id: EdgeId,
        source: NodeIndex,
        target: NodeIndex,
        weight: f64,
        attributes: Attributes,
    ) -> EdgeId {
        self.next_edge_id = id;
        self.insert_edge_unchecked(source, target, weight, attributes)
    }

    /// The record of an edge's removal, read before it is removed.
    fn edge_removed(&self, edge_id: EdgeId, a: NodeIndex, b: NodeIndex, weight: f64) -> Entry {
        Entry::Kept(Box::new(ChangeKind::EdgeRemoved {
            edge_id,
            source: self.graph[a].id.to_string(),
            target: self.graph[b].id.to_string(),
            weight,
        }))
    }

    /// The id the next edge added gets.
    pub(crate) fn next_edge_id(&self) -> EdgeId {
        self.next_edge_id
    }

    /// Sets the id the next edge added gets, as a restore does (at or above
    /// every edge id present, so that no id is reused).
    pub(in crate::network) fn set_next_edge_id(&mut self, next: EdgeId) {
        self.next_edge_id = next;
    }

    /// Sets the description as a restore does: not a change of its own (the
    /// version does not move).
    pub(in crate::network) fn restore_description(&mut self, description: Option<String>) {
        self.description = description;
    }

    /// Sets the non-blocking relation types as a restore does: not a change of
    /// its own (a whole copy carries them with the description).
    pub(in crate::network) fn restore_nonblocking_relations(&mut self, names: &[String]) {
        self.nonblocking_relations = names.to_vec();
    }

    /// Replaces the attributes of node `ix`, counting one change of version if
    /// they differ. Not structural: no derived fact depends on attributes.
    pub(in crate::network) fn set_attributes(&mut self, ix: NodeIndex, attributes: Attributes) {
        let attributes = self.interner.share(attributes);
        let node = &mut self.graph[ix];
        if attributes != node.attributes {
            let entry = Entry::node_changed(&node.id, &node.attributes, &attributes, false);
            node.attributes = attributes;
            self.touch(entry);
        }
    }

    /// Makes the data and attributes of node `ix` equal to `data` and
    /// `attributes`, counting one change of version if either differs. Not
    /// structural, as [`Network::set_attributes`].
    pub(in crate::network) fn set_content_from(
        &mut self,
        ix: NodeIndex,
        data: &Option<Box<Value>>,
        attributes: &Attributes,
    ) {
        let node = &mut self.graph[ix];
        if node.data != *data || node.attributes != *attributes {
            let entry =
                Entry::node_changed(&node.id, &node.attributes, attributes, node.data != *data);
            node.data.clone_from(data);
            node.attributes = self.interner.share(attributes.clone());
            self.touch(entry);
        }
    }
}
