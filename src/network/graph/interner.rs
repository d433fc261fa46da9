//! One allocation per distinct attribute name, value and whole map in a network.
//!
//! Real graphs repeat a few values on every item (`status`, `relation`, `type`,
//! an import's default), and a copy per item made a 60 KB GraphML default cost
//! 60 KB per edge. The network's [`Interner`] hands out one shared `Arc` per
//! distinct name, per distinct value (compared as JSON, a float's sign of zero
//! included) and per distinct map (compared by the addresses of its shared
//! entries, so equal maps of shared entries are found without reading their text).
//!
//! What no item uses any more is dropped by [`Interner::prune`] once the tables
//! have doubled since the last pruning, so the tables never hold more than twice
//! what the network uses plus a constant, and pruning costs O(1) amortised per
//! insertion.

use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

use hashbrown::{DefaultHashBuilder, HashTable};
use serde_json::{Map, Value};

use super::types::{Attributes, Entry};

/// Entries the tables hold before the first pruning: below this, pruning would
/// cost more than it frees.
const PRUNE_FLOOR: usize = 1024;

/// The shared names, values and maps of one network.
#[derive(Default)]
pub(crate) struct Interner {
    hasher: DefaultHashBuilder,
    keys: HashTable<Arc<str>>,
    values: HashTable<Arc<Value>>,
    maps: HashTable<Arc<Box<[Entry]>>>,
    /// How many entries the tables held after the last pruning.
    kept: usize,
}

/// A copy starts empty: sharing the tables would make each network keep the
/// other's values alive (each sees a count above one), so neither could prune.
/// The items of the copy still share their values with the original's.
impl Clone for Interner {
    fn clone(&self) -> Self {
        Interner::default()
    }
}

impl std::fmt::Debug for Interner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interner")
            .field("keys", &self.keys.len())
            .field("values", &self.values.len())
            .field("maps", &self.maps.len())
            .finish()
    }
}

/// Two values that may share one allocation: equal as JSON, and for numbers of
/// the same bits (JSON equality has `0.0 == -0.0`, which an export must keep apart).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        _ => a == b,
    }
}

/// A map's hash from the addresses of its entries: its names and values are
/// already shared, so equal maps have equal addresses.
fn hash_entries(hasher: &DefaultHashBuilder, entries: &[Entry]) -> u64 {
    let mut state = hasher.build_hasher();
    for (key, value) in entries {
        state.write_usize(Arc::as_ptr(key).cast::<u8>() as usize);
        state.write_usize(Arc::as_ptr(value) as usize);
    }
    state.finish()
}

fn same_entries(a: &[Entry], b: &[Entry]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| Arc::ptr_eq(&x.0, &y.0) && Arc::ptr_eq(&x.1, &y.1))
}

impl Interner {
    /// The shared name equal to `key`.
    pub(crate) fn key(&mut self, key: &str) -> Arc<str> {
        let hash = self.hasher.hash_one(key);
        if let Some(found) = self.keys.find(hash, |k| **k == *key) {
            return Arc::clone(found);
        }
        let shared: Arc<str> = Arc::from(key);
        let hasher = &self.hasher;
        self.keys
            .insert_unique(hash, Arc::clone(&shared), |k| hasher.hash_one(&**k));
        shared
    }

    /// The shared value equal to `value`.
    pub(crate) fn value(&mut self, value: Value) -> Arc<Value> {
        let hash = self.hasher.hash_one(&value);
        if let Some(found) = self.values.find(hash, |v| same_value(v, &value)) {
            return Arc::clone(found);
        }
        self.insert_value(hash, Arc::new(value))
    }

    /// `value` itself when it is already shared here or is the first of its
    /// content, else the shared one: a caller that holds an `Arc` (an import's
    /// default) gives it to every item without copying or rehashing its text.
    pub(crate) fn shared_value(&mut self, value: &Arc<Value>) -> Arc<Value> {
        let hash = self.hasher.hash_one(&**value);
        if let Some(found) = self.values.find(hash, |v| same_value(v, value)) {
            return Arc::clone(found);
        }
        self.insert_value(hash, Arc::clone(value))
    }

    fn insert_value(&mut self, hash: u64, shared: Arc<Value>) -> Arc<Value> {
        let hasher = &self.hasher;
        self.values
            .insert_unique(hash, Arc::clone(&shared), |v| hasher.hash_one(&**v));
        shared
    }

    /// The attributes of `map`, every name and value shared.
    pub(crate) fn attributes(&mut self, map: Map<String, Value>) -> Attributes {
        if map.is_empty() {
            return Attributes::default();
        }
        let entries = map
            .into_iter()
            .map(|(key, value)| (self.key(&key), self.value(value)))
            .collect();
        self.map(entries)
    }

    /// The attributes of `map`, then each of `defaults` whose name `map` does
    /// not have: the defaults' values are shared, never copied (their names
    /// and values must come from this interner, see [`Interner::entries`]).
    pub(crate) fn attributes_with(
        &mut self,
        map: Map<String, Value>,
        defaults: &[Entry],
    ) -> Attributes {
        if defaults.is_empty() {
            return self.attributes(map);
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(map.len() + defaults.len());
        for (key, value) in map {
            entries.push((self.key(&key), self.value(value)));
        }
        let own = entries.len();
        for (key, value) in defaults {
            if !entries[..own].iter().any(|(k, _)| Arc::ptr_eq(k, key)) {
                entries.push((Arc::clone(key), Arc::clone(value)));
            }
        }
        self.map(entries)
    }

    /// Shared entries for `map`, to give many items with
    /// [`Interner::attributes_with`] (an import's defaults).
    #[cfg(any(feature = "interchange", test))]
    pub(crate) fn entries(&mut self, map: Map<String, Value>) -> Vec<Entry> {
        map.into_iter()
            .map(|(key, value)| (self.key(&key), self.value(value)))
            .collect()
    }

    /// `attributes` with every name, value and the map shared: cheap when they
    /// came from this interner (one hash of the entries' addresses), a pass over
    /// their text when they did not (a snapshot being restored).
    pub(crate) fn share(&mut self, attributes: Attributes) -> Attributes {
        let Some(shared) = attributes.shared() else {
            return attributes;
        };
        let hash = hash_entries(&self.hasher, shared);
        if let Some(found) = self.maps.find(hash, |m| same_entries(m, shared)) {
            return Attributes::from_shared(Arc::clone(found));
        }
        let entries = shared
            .iter()
            .map(|(key, value)| (self.key(key), self.shared_value(value)))
            .collect();
        self.map(entries)
    }

    /// The shared map of these shared entries.
    fn map(&mut self, entries: Vec<Entry>) -> Attributes {
        if entries.is_empty() {
            return Attributes::default();
        }
        let hash = hash_entries(&self.hasher, &entries);
        if let Some(found) = self.maps.find(hash, |m| same_entries(m, &entries)) {
            return Attributes::from_shared(Arc::clone(found));
        }
        let shared = Arc::new(entries.into_boxed_slice());
        let hasher = &self.hasher;
        self.maps
            .insert_unique(hash, Arc::clone(&shared), |m| hash_entries(hasher, m));
        self.prune();
        Attributes::from_shared(shared)
    }

    /// Drops what only the tables hold, once they have doubled since the last
    /// pruning: maps first, as they hold names and values.
    fn prune(&mut self) {
        let held = self.keys.len() + self.values.len() + self.maps.len();
        if held <= PRUNE_FLOOR.max(2 * self.kept) {
            return;
        }
        self.maps.retain(|m| Arc::strong_count(m) > 1);
        self.values.retain(|v| Arc::strong_count(v) > 1);
        self.keys.retain(|k| Arc::strong_count(k) > 1);
        self.kept = self.keys.len() + self.values.len() + self.maps.len();
    }

    /// Bytes of the tables themselves (a slot and a control byte per bucket);
    /// what they point to is counted where items use it.
    pub(crate) fn table_bytes(&self) -> usize {
        // A table holds at most 7/8 of its buckets, and keeps one group of
        // control bytes more than it has buckets.
        fn table(capacity: usize, slot: usize) -> usize {
            if capacity == 0 {
                0
            } else {
                (capacity * 8 / 7 + 1) * (slot + 1) + 16
            }
        }
        table(self.keys.capacity(), std::mem::size_of::<Arc<str>>())
            + table(self.values.capacity(), std::mem::size_of::<Arc<Value>>())
            + table(
                self.maps.capacity(),
                std::mem::size_of::<Arc<Box<[Entry]>>>(),
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("a test map is an object"),
        }
    }

    #[test]
    fn equal_names_values_and_maps_share_one_allocation() {
        let mut interner = Interner::default();
        let a = interner.attributes(map(json!({"status": "open", "n": 1})));
        let b = interner.attributes(map(json!({"status": "open", "n": 1})));
        let c = interner.attributes(map(json!({"status": "open", "n": 2})));
        assert!(Arc::ptr_eq(a.shared().unwrap(), b.shared().unwrap()));
        assert!(!Arc::ptr_eq(a.shared().unwrap(), c.shared().unwrap()));
        let (a0, c0) = (&a.entries()[0], &c.entries()[0]);
        assert!(Arc::ptr_eq(&a0.0, &c0.0) && Arc::ptr_eq(&a0.1, &c0.1));
        assert_eq!(c.get("n"), Some(&json!(2)));
    }

    #[test]
    fn a_float_keeps_its_sign_of_zero() {
        let mut interner = Interner::default();
        let zero = interner.value(json!(0.0));
        let negative = interner.value(json!(-0.0));
        assert!(!Arc::ptr_eq(&zero, &negative));
        assert!(negative.as_f64().unwrap().is_sign_negative());
    }

    #[test]
    fn defaults_are_shared_and_an_own_value_wins() {
        let mut interner = Interner::default();
        let defaults = interner.entries(map(json!({"kind": "x".repeat(1000), "w": 1})));
        let own = interner.attributes_with(map(json!({"w": 5})), &defaults);
        assert_eq!(own.get("w"), Some(&json!(5)));
        let kind = &own.entries()[1];
        assert_eq!(&*kind.0, "kind");
        assert!(Arc::ptr_eq(&kind.1, &defaults[0].1));
        assert_eq!(
            own.iter().map(|(k, _)| k).collect::<Vec<_>>(),
            ["w", "kind"]
        );
    }

    #[test]
    fn what_no_item_uses_is_pruned() {
        let mut interner = Interner::default();
        let kept = interner.attributes(map(json!({"keep": true})));
        for i in 0..10_000 {
            interner.attributes(map(json!({"k": i})));
        }
        let held = interner.keys.len() + interner.values.len() + interner.maps.len();
        assert!(held <= 2 * PRUNE_FLOOR + 3, "{held} entries held");
        let again = interner.attributes(map(json!({"keep": true})));
        assert!(Arc::ptr_eq(kept.shared().unwrap(), again.shared().unwrap()));
    }

    #[test]
    fn sharing_restored_attributes_finds_the_stored_ones() {
        let mut interner = Interner::default();
        let stored = interner.attributes(map(json!({"status": "open"})));
        let restored = interner.share(Attributes::from_map(map(json!({"status": "open"}))));
        assert!(Arc::ptr_eq(
            stored.shared().unwrap(),
            restored.shared().unwrap()
        ));
        assert_eq!(interner.share(stored.clone()), stored);
    }
}
