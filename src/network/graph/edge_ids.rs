//! The map from stable edge ids to petgraph edge indices.
//!
//! Edge ids are handed out in increasing order and never reused, so the map is
//! almost always a plain vector indexed by `id - base`: adding an edge is a push,
//! a lookup one array read, and walking it in order visits edges by age. Removed
//! edges leave a hole ([`VACANT`]); holes at the front are dropped once they are
//! half the vector. Only ids that jump far ahead of the vector (possible in a
//! hand-edited snapshot, never through the API) switch it to a hash map, so
//! memory stays bounded by the edges that exist.

use hashbrown::HashMap;
use petgraph::stable_graph::EdgeIndex;

use super::EdgeId;

/// A slot with no edge.
const VACANT: u32 = u32::MAX;

/// The largest gap of unused ids a dense map bridges before turning sparse.
const MAX_GAP: u64 = 1 << 20;

/// Edge id → [`EdgeIndex`]; see the module docs.
#[derive(Debug, Clone)]
pub(crate) enum EdgeIdIndex {
    /// `slots[i]` is the index of edge `base + i`, or [`VACANT`]; the first
    /// `leading` slots are vacant.
    Dense {
        base: EdgeId,
        slots: Vec<u32>,
        live: usize,
        leading: usize,
    },
    /// Ids too scattered for a vector.
    Sparse(HashMap<EdgeId, EdgeIndex>),
}

impl Default for EdgeIdIndex {
    fn default() -> Self {
        EdgeIdIndex::Dense {
            base: 0,
            slots: Vec::new(),
            live: 0,
            leading: 0,
        }
    }
}

impl EdgeIdIndex {
    /// An empty map with room for `edges` entries.
    pub(crate) fn with_capacity(edges: usize) -> Self {
        EdgeIdIndex::Dense {
            base: 0,
            slots: Vec::with_capacity(edges),
            live: 0,
            leading: 0,
        }
    }

    /// Room for `edges` more entries.
    pub(crate) fn reserve(&mut self, edges: usize) {
        match self {
            EdgeIdIndex::Dense { slots, .. } => slots.reserve(edges),
            EdgeIdIndex::Sparse(map) => map.reserve(edges),
        }
    }

    /// The index of edge `id`.
    #[inline]
    pub(crate) fn get(&self, id: EdgeId) -> Option<EdgeIndex> {
        match self {
            EdgeIdIndex::Dense { base, slots, .. } => {
                let slot = *slots.get(usize::try_from(id.checked_sub(*base)?).ok()?)?;
                (slot != VACANT).then(|| EdgeIndex::new(slot as usize))
            }
            EdgeIdIndex::Sparse(map) => map.get(&id).copied(),
        }
    }

    /// Whether edge `id` exists.
    pub(crate) fn contains(&self, id: EdgeId) -> bool {
        self.get(id).is_some()
    }

    /// Records edge `id` at `ix`. `id` must be larger than every id recorded so far.
    #[inline]
    pub(crate) fn insert(&mut self, id: EdgeId, ix: EdgeIndex) {
        if let EdgeIdIndex::Dense {
            base,
            slots,
            live,
            leading,
        } = self
        {
            if *live == 0 {
                // Empty: start the vector at this id.
                *base = id;
                slots.clear();
                *leading = 0;
            }
            let end = *base + slots.len() as u64;
            if id >= end && id - end <= MAX_GAP && ix.index() < VACANT as usize {
                // Usually the next id in line: a plain push, no gap to fill.
                if id > end {
                    slots.resize((id - *base) as usize, VACANT);
                }
                slots.push(ix.index() as u32);
                *live += 1;
                return;
            }
            self.make_sparse();
        }
        if let EdgeIdIndex::Sparse(map) = self {
            map.insert(id, ix);
        }
    }

    /// Forgets edge `id`; returns its index if it was recorded.
    pub(crate) fn remove(&mut self, id: EdgeId) -> Option<EdgeIndex> {
        match self {
            EdgeIdIndex::Dense {
                base,
                slots,
                live,
                leading,
            } => {
                let offset = usize::try_from(id.checked_sub(*base)?).ok()?;
                let slot = slots.get_mut(offset)?;
                if *slot == VACANT {
                    return None;
                }
                let ix = EdgeIndex::new(*slot as usize);
                *slot = VACANT;
                *live -= 1;
                // Drop the run of holes at the front once it is half the vector, so
                // a stream of add-then-remove keeps the vector short. Each slot joins
                // the run once, so this is amortised O(1).
                while *leading < slots.len() && slots[*leading] == VACANT {
                    *leading += 1;
                }
                if *leading * 2 >= slots.len() {
                    slots.drain(..*leading);
                    *base += *leading as u64;
                    *leading = 0;
                }
                Some(ix)
            }
            EdgeIdIndex::Sparse(map) => map.remove(&id),
        }
    }

    /// Forgets every id from `first` on: the newest edges, being undone. The
    /// map then answers, and takes the next ids, as before they were recorded.
    /// O(ids forgotten) when dense.
    pub(crate) fn truncate_from(&mut self, first: EdgeId) {
        match self {
            EdgeIdIndex::Dense {
                base,
                slots,
                live,
                leading,
            } => {
                let keep = first.saturating_sub(*base).min(slots.len() as u64) as usize;
                *live -= slots[keep..].iter().filter(|&&s| s != VACANT).count();
                slots.truncate(keep);
                *leading = (*leading).min(slots.len());
            }
            EdgeIdIndex::Sparse(map) => map.retain(|&id, _| id < first),
        }
    }

    /// Calls `f` with every recorded edge index, highest id (newest edge) first.
    pub(crate) fn for_each_newest_first(&self, mut f: impl FnMut(EdgeIndex)) {
        match self {
            EdgeIdIndex::Dense { slots, .. } => slots
                .iter()
                .rev()
                .filter(|&&s| s != VACANT)
                .for_each(|&s| f(EdgeIndex::new(s as usize))),
            EdgeIdIndex::Sparse(map) => {
                let mut entries: Vec<(EdgeId, EdgeIndex)> =
                    map.iter().map(|(&id, &ix)| (id, ix)).collect();
                entries.sort_unstable_by_key(|&(id, _)| std::cmp::Reverse(id));
                entries.into_iter().for_each(|(_, ix)| f(ix));
            }
        }
    }

    fn make_sparse(&mut self) {
        if let EdgeIdIndex::Dense { base, slots, .. } = self {
            let map = slots
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s != VACANT)
                .map(|(i, &s)| (*base + i as u64, EdgeIndex::new(s as usize)))
                .collect();
            *self = EdgeIdIndex::Sparse(map);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ix(i: usize) -> EdgeIndex {
        EdgeIndex::new(i)
    }

    #[test]
    fn dense_ids_are_found_and_removed() {
        let mut m = EdgeIdIndex::default();
        for id in 0..10 {
            m.insert(id, ix(id as usize * 2));
        }
        assert_eq!(m.get(3), Some(ix(6)));
        assert_eq!(m.remove(3), Some(ix(6)));
        assert_eq!(m.remove(3), None);
        assert_eq!(m.get(3), None);
        assert_eq!(m.get(10), None);
        assert!(matches!(m, EdgeIdIndex::Dense { .. }));
    }

    #[test]
    fn holes_at_the_front_are_dropped() {
        let mut m = EdgeIdIndex::default();
        for id in 0..100 {
            m.insert(id, ix(id as usize));
        }
        for id in 0..60 {
            m.remove(id);
        }
        match &m {
            EdgeIdIndex::Dense { base, slots, .. } => {
                assert!(*base >= 50, "base {base}");
                assert_eq!(*base + slots.len() as u64, 100);
            }
            EdgeIdIndex::Sparse(_) => panic!("should stay dense"),
        }
        assert_eq!(m.get(70), Some(ix(70)));
        assert_eq!(m.get(10), None);
        m.insert(100, ix(100));
        assert_eq!(m.get(100), Some(ix(100)));
    }

    #[test]
    fn a_far_jump_turns_sparse_and_keeps_everything() {
        let mut m = EdgeIdIndex::default();
        m.insert(5, ix(0));
        m.insert(6, ix(1));
        m.insert(u64::MAX - 1, ix(2));
        assert!(matches!(m, EdgeIdIndex::Sparse(_)));
        assert_eq!(m.get(5), Some(ix(0)));
        assert_eq!(m.get(u64::MAX - 1), Some(ix(2)));
        let mut order = Vec::new();
        m.for_each_newest_first(|i| order.push(i.index()));
        assert_eq!(order, [2, 1, 0]);
    }

    #[test]
    fn truncating_forgets_the_newest_ids_and_takes_the_next_ones_densely() {
        let mut m = EdgeIdIndex::default();
        for id in 0..10 {
            m.insert(id, ix(id as usize));
        }
        m.remove(8);
        m.truncate_from(6);
        assert_eq!(m.get(5), Some(ix(5)));
        assert_eq!((6..10).filter_map(|id| m.get(id)).count(), 0);
        m.insert(6, ix(60));
        assert!(matches!(m, EdgeIdIndex::Dense { live: 7, .. }));
        assert_eq!(m.get(6), Some(ix(60)));
        let mut sparse = EdgeIdIndex::default();
        sparse.insert(1, ix(1));
        sparse.insert(u64::MAX - 2, ix(2));
        sparse.truncate_from(u64::MAX - 2);
        assert_eq!(sparse.get(u64::MAX - 2), None);
        assert_eq!(sparse.get(1), Some(ix(1)));
    }

    #[test]
    fn newest_first_skips_holes() {
        let mut m = EdgeIdIndex::default();
        for id in 0..5 {
            m.insert(id, ix(id as usize));
        }
        m.remove(2);
        let mut order = Vec::new();
        m.for_each_newest_first(|i| order.push(i.index()));
        assert_eq!(order, [4, 3, 1, 0]);
    }
}
