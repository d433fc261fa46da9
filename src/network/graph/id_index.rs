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
#[derive(Debug, Default)]
pub(crate) struct IdIndex {
    table: HashTable<NodeIndex>,
    hasher: DefaultHashBuilder,
    /// Where the table's control bytes begin (see [`Self::group_hint`]),
    /// learnt whenever the table may have moved; 0 while unknown. Only ever
    /// used as a prefetch address, so a stale value costs a useless hint.
    control: usize,
}

impl Clone for IdIndex {
    fn clone(&self) -> Self {
        let mut copy = IdIndex {
            table: self.table.clone(),
            hasher: self.hasher.clone(),
            control: 0,
        };
        copy.learn_control();
        copy
    }
}

impl IdIndex {
    /// An empty index with room for `nodes` ids.
    pub(crate) fn with_capacity(nodes: usize) -> Self {
        IdIndex {
            table: HashTable::with_capacity(nodes),
            hasher: DefaultHashBuilder::default(),
            control: 0,
        }
    }

    /// Hints that an id with this [`Self::hash`] is looked up next: fetches
    /// its first group's control bytes and, at the same time, the slots they
    /// describe. A lookup otherwise reads the control bytes, and only then
    /// the slot they point to: two cache misses one after the other, where
    /// this leaves one (a single `add_edge` at a million nodes waits on these
    /// misses more than it computes).
    #[inline(always)]
    pub(crate) fn prefetch_lookup(&self, hash: u64) {
        if self.control != 0 {
            GroupHint {
                control: std::ptr::without_provenance(self.control),
                mask: self.table.num_buckets() - 1,
            }
            .prefetch_with_slots(hash);
        }
    }

    /// Sets [`Self::control`] from the first occupied slot, if any. O(1)
    /// expected (a table is at least an eighth full once it has grown),
    /// O(buckets) at worst, as the clone or growth that calls it.
    fn learn_control(&mut self) {
        self.control = (0..self.table.num_buckets())
            .find_map(|slot| self.group_hint(slot))
            .map_or(0, |hint| hint.control.addr());
    }

    /// The index of the node with this id.
    #[inline]
    pub(crate) fn get(&self, graph: &Graph, id: &str) -> Option<NodeIndex> {
        self.get_hashed(graph, id, self.hash(id))
    }

    /// [`Self::get`] for an id whose [`Self::hash`] is known.
    #[inline]
    pub(crate) fn get_hashed(&self, graph: &Graph, id: &str, hash: u64) -> Option<NodeIndex> {
        self.table
            .find(hash, |&ix| same_id(&graph[ix].id, id))
            .copied()
    }

    /// For lookups split into stages so that many overlap (bulk loading): the
    /// slot holding the node the id with this [`Self::hash`] most likely names,
    /// found from the control bytes alone, with a hint to fetch the slot. `None`:
    /// the id is certainly absent. Then [`Self::slot_node`] reads the slot, and the
    /// caller compares `graph[ix].id` with the id, looking up properly with
    /// [`Self::get`] on a miss.
    #[inline]
    pub(crate) fn probe_slot(&self, hash: u64) -> Option<usize> {
        // The first slot whose tag matches, its entry unread (`|_| true`): the
        // same slot `iter_hash_buckets(hash).next()` gives, but inlined (that
        // iterator's `next` was a call of its own in every lookup).
        let slot = self.table.find_bucket_index(hash, |_| true)?;
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
        let entry = self
            .table
            .insert_unique(hash, ix, |&i| hasher.hash_one(&*graph[i].id));
        // The table may have grown and moved: the new entry says where it is.
        let after = (entry.bucket_index() + 1) * std::mem::size_of::<NodeIndex>();
        self.control = (entry.get() as *const NodeIndex).addr().wrapping_add(after);
    }

    /// The slot that holds `ix`, whose id has this [`Self::hash`].
    pub(crate) fn slot_of(&self, ix: NodeIndex, hash: u64) -> Option<usize> {
        self.table.find_bucket_index(hash, |&i| i == ix)
    }

    /// Forgets the node with this id; call it while the node is still in `graph`.
    pub(crate) fn remove(&mut self, graph: &Graph, id: &str) {
        if let Ok(entry) = self
            .table
            .find_entry(self.hash(id), |&ix| same_id(&graph[ix].id, id))
        {
            entry.remove();
        }
    }

    /// Room for `nodes` more ids.
    pub(crate) fn reserve(&mut self, graph: &Graph, nodes: usize) {
        let hasher = &self.hasher;
        self.table
            .reserve(nodes, |&i| hasher.hash_one(&*graph[i].id));
        self.learn_control();
    }

    /// The hash every lookup of `id` starts from.
    #[inline]
    pub(crate) fn hash(&self, id: &str) -> u64 {
        self.hasher.hash_one(id)
    }
}

/// Whether two ids are equal: `a == b`, without a call. Every lookup ends in one
/// comparison of short ids, and `memcmp` for each was a twentieth of a single
/// `add_edge`'s instructions. Up to 16 bytes, two loads a side (overlapping in
/// the middle) cover every byte; longer ids compare as slices.
#[inline(always)]
pub(crate) fn same_id(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word =
        |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default());
    let half =
        |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or_default());
    match n {
        0 => true,
        1..=3 => (a[0] ^ b[0]) | (a[n / 2] ^ b[n / 2]) | (a[n - 1] ^ b[n - 1]) == 0,
        4..=7 => (half(a, 0) ^ half(b, 0)) | (half(a, n - 4) ^ half(b, n - 4)) == 0,
        8..=16 => (word(a, 0) ^ word(b, 0)) | (word(a, n - 8) ^ word(b, n - 8)) == 0,
        _ => a == b,
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

#[cfg(test)]
mod tests {
    use super::same_id;

    #[test]
    fn same_id_agrees_with_string_equality() {
        // Every length up to 40, equal, and with one byte changed at each
        // position, and against every other length.
        let base: String = (0..40).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        for n in 0..=40 {
            let a = &base[..n];
            assert!(same_id(a, a), "{a:?}");
            for at in 0..n {
                let mut bytes = a.as_bytes().to_vec();
                bytes[at] = b'#';
                let b = String::from_utf8(bytes).expect("ascii");
                assert_eq!(same_id(a, &b), a == b, "{a:?} vs {b:?}");
            }
            for m in 0..=40 {
                assert_eq!(same_id(a, &base[..m]), n == m, "{n} vs {m}");
            }
        }
    }
}
