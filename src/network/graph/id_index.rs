//! The map from node ids to node indices.
//!
//! A hash table of bare [`NodeIndex`]es (4 bytes a slot) whose keys live in the
//! graph's own node records: nothing is stored twice, the table of a million-node
//! network fits in the processor's last-level cache, and the one record a lookup
//! compares against is the record that adding an edge writes next anyway. The
//! hasher is hashbrown's default (foldhash), randomly seeded per index, so ids
//! chosen to collide cannot make lookups quadratic.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};
use petgraph::stable_graph::{NodeIndex, StableDiGraph};

use super::prefetch::prefetch_lines;
use super::{Edge, Node};

type Graph = StableDiGraph<Node, Edge>;

/// Node id → [`NodeIndex`]; every method takes the graph that holds the ids.
#[derive(Debug, Clone, Default)]
pub(crate) struct IdIndex {
    table: HashTable<NodeIndex>,
    hasher: DefaultHashBuilder,
}

impl IdIndex {
    /// An empty index with room for `nodes` ids.
    pub(crate) fn with_capacity(nodes: usize) -> Self {
        IdIndex {
            table: HashTable::with_capacity(nodes),
            hasher: DefaultHashBuilder::default(),
        }
    }

    /// The index of the node with this id.
    #[inline]
    pub(crate) fn get(&self, graph: &Graph, id: &str) -> Option<NodeIndex> {
        self.table
            .find(self.hash(id), |&ix| &*graph[ix].id == id)
            .copied()
    }

    /// For lookups split into stages so that many overlap (bulk loading): the
    /// slot holding the node the id most likely names, found from the control
    /// bytes alone, with a hint to fetch the slot. `None`: the id is certainly
    /// absent. Then [`Self::slot_node`] reads the slot, and the caller compares
    /// `graph[ix].id` with the id, looking up properly with [`Self::get`] on a miss.
    #[inline]
    pub(crate) fn probe_slot(&self, id: &str) -> Option<usize> {
        let slot = self.table.iter_hash_buckets(self.hash(id)).next()?;
        if let Some(entry) = self.table.get_bucket(slot) {
            prefetch_lines((entry as *const NodeIndex).cast());
        }
        Some(slot)
    }

    /// The node in a slot found by [`Self::probe_slot`].
    #[inline]
    pub(crate) fn slot_node(&self, slot: usize) -> Option<NodeIndex> {
        self.table.get_bucket(slot).copied()
    }

    /// Records `ix`, a node already in `graph` whose id is not in the index yet.
    #[inline]
    pub(crate) fn insert_new(&mut self, graph: &Graph, ix: NodeIndex) {
        let hasher = &self.hasher;
        self.table
            .insert_unique(hasher.hash_one(&*graph[ix].id), ix, |&i| {
                hasher.hash_one(&*graph[i].id)
            });
    }

    /// Forgets the node with this id; call it while the node is still in `graph`.
    pub(crate) fn remove(&mut self, graph: &Graph, id: &str) {
        if let Ok(entry) = self
            .table
            .find_entry(self.hash(id), |&ix| &*graph[ix].id == id)
        {
            entry.remove();
        }
    }

    /// Room for `nodes` more ids.
    pub(crate) fn reserve(&mut self, graph: &Graph, nodes: usize) {
        let hasher = &self.hasher;
        self.table
            .reserve(nodes, |&i| hasher.hash_one(&*graph[i].id));
    }

    #[inline]
    fn hash(&self, id: &str) -> u64 {
        self.hasher.hash_one(id)
    }
}
