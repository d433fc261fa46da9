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
        self.get_hashed(graph, id, self.hash(id))
    }

    /// [`Self::get`] for an id whose [`Self::hash`] is known.
    #[inline]
    pub(crate) fn get_hashed(&self, graph: &Graph, id: &str, hash: u64) -> Option<NodeIndex> {
        self.table.find(hash, |&ix| graph[ix].id == id).copied()
    }

    /// For lookups split into stages so that many overlap (bulk loading): the
    /// slot holding the node the id with this [`Self::hash`] most likely names,
    /// found from the control bytes alone, with a hint to fetch the slot. `None`:
    /// the id is certainly absent. Then [`Self::slot_node`] reads the slot, and the
    /// caller compares `graph[ix].id` with the id, looking up properly with
    /// [`Self::get`] on a miss.
    #[inline]
    pub(crate) fn probe_slot(&self, hash: u64) -> Option<usize> {
        let slot = self.table.iter_hash_buckets(hash).next()?;
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

    /// Where the table's control bytes begin, worked out from an occupied slot
    /// (found by [`Self::probe_slot`]): hashbrown lays a table out as its entries
    /// in reverse order and then the control bytes, so they begin right after the
    /// entry of slot 0. Only [`GroupHint`] uses the address, as a prefetch hint;
    /// should hashbrown ever lay tables out otherwise, the hints are merely useless.
    pub(crate) fn group_hint(&self, slot: usize) -> Option<GroupHint> {
        let entry = self.table.get_bucket(slot)?;
        let entries_after = (slot + 1) * std::mem::size_of::<NodeIndex>();
        Some(GroupHint {
            control: (entry as *const NodeIndex)
                .cast::<u8>()
                .wrapping_add(entries_after),
            mask: self.table.num_buckets() - 1,
        })
    }

    /// Records `ix`, a node already in `graph` whose id (of this [`Self::hash`])
    /// is not in the index yet.
    #[inline]
    pub(crate) fn insert_new(&mut self, graph: &Graph, ix: NodeIndex, hash: u64) {
        let hasher = &self.hasher;
        self.table
            .insert_unique(hash, ix, |&i| hasher.hash_one(&*graph[i].id));
    }

    /// The slot that holds `ix`, whose id has this [`Self::hash`].
    pub(crate) fn slot_of(&self, ix: NodeIndex, hash: u64) -> Option<usize> {
        self.table.find_bucket_index(hash, |&i| i == ix)
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

    /// The hash every lookup of `id` starts from.
    #[inline]
    pub(crate) fn hash(&self, id: &str) -> u64 {
        self.hasher.hash_one(id)
    }
}

/// Prefetches the control bytes a lookup starts by reading, for a run of
/// lookups that knows its ids a few steps ahead: the first of a lookup's cache
/// misses, which [`IdIndex::probe_slot`] would otherwise wait on. Valid while the
/// table is neither grown nor rebuilt (it borrows nothing, so the caller keeps it
/// no longer than the loop that made it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupHint {
    control: *const u8,
    mask: usize,
}

impl GroupHint {
    /// Hints that a lookup of an id with this hash comes soon. Reads nothing.
    #[inline(always)]
    pub(crate) fn prefetch(&self, hash: u64) {
        // The first group probed starts at `hash & mask` (hashbrown's `h1`).
        prefetch_lines(self.control.wrapping_add(hash as usize & self.mask));
    }

    /// As [`Self::prefetch`], and the slots of the first group too, which an
    /// insertion writes (the slots lie before the control bytes, in reverse).
    #[inline(always)]
    pub(crate) fn prefetch_with_slots(&self, hash: u64) {
        let first = hash as usize & self.mask;
        self.prefetch(hash);
        let group_slots = (first + GROUP) * std::mem::size_of::<NodeIndex>();
        prefetch_lines(self.control.wrapping_sub(group_slots));
    }
}

/// The control bytes hashbrown reads at once (its SSE2 group).
const GROUP: usize = 16;
