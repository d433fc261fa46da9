//! The values a [`Network`](super::Network) stores: nodes, edges and their attributes.

use std::sync::Arc;

use serde_json::{Map, Value};
pub use smol_str::SmolStr;

/// One attribute: its name and its value, each shared with every other item
/// that has the same name or value in the same network (see
/// [`Interner`](super::interner::Interner)).
pub(crate) type Entry = (Arc<str>, Arc<Value>);

/// A flat map of attribute names to scalar JSON values (string, number, boolean or null).
///
/// Stored behind one pointer so that nodes and edges without attributes (the common
/// case in large graphs) cost 8 bytes for it. Names and values are shared, not
/// copied: a network keeps one allocation per distinct name, per distinct value
/// and per distinct whole map, so that a status, a relation type or an import's
/// default repeated on every item costs its size once (an entry is two
/// pointers). The entries keep insertion order and are found by a linear scan,
/// which for the few attributes an item has is faster than hashing the name.
#[derive(Clone, Default)]
pub struct Attributes(Option<Arc<Box<[Entry]>>>);

impl Attributes {
    /// Wraps an already validated map (see [`super::validate::attributes`]).
    /// Shares nothing with other items: a network shares what it stores.
    pub fn from_map(map: Map<String, Value>) -> Self {
        Attributes::from_entries(
            map.into_iter()
                .map(|(key, value)| (Arc::from(key), Arc::new(value)))
                .collect(),
        )
    }

    /// Wraps entries with unique names.
    pub(crate) fn from_entries(entries: Vec<Entry>) -> Self {
        if entries.is_empty() {
            Attributes(None)
        } else {
            Attributes(Some(Arc::new(entries.into_boxed_slice())))
        }
    }

    /// Wraps a block of entries an interner shares.
    pub(crate) fn from_shared(entries: Arc<Box<[Entry]>>) -> Self {
        Attributes(Some(entries))
    }

    /// The value of one attribute.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries()
            .iter()
            .find(|(name, _)| &**name == key)
            .map(|(_, value)| &**value)
    }

    /// The shared value of `key`, if present.
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn get_shared(&self, key: &str) -> Option<&Arc<Value>> {
        self.entries()
            .iter()
            .find(|(name, _)| &**name == key)
            .map(|(_, value)| value)
    }

    /// The entries, in insertion order.
    #[inline]
    pub(crate) fn entries(&self) -> &[Entry] {
        self.0.as_deref().map_or(&[], |entries| &entries[..])
    }

    /// The shared block of entries, when there is one: its address lets a scan
    /// prefetch it, and tells a count of memory whether it was counted already.
    pub(crate) fn shared(&self) -> Option<&Arc<Box<[Entry]>>> {
        self.0.as_ref()
    }

    /// The attributes in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries()
            .iter()
            .map(|(name, value)| (&**name, &**value))
    }

    /// The number of attributes.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether there are no attributes.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// A copy as a JSON map.
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(key, value)| (key.to_string(), value.clone()))
            .collect()
    }

    /// Sets (or, with `Value::Null` removed by the caller, replaces) the given keys.
    pub fn merge(&mut self, other: Map<String, Value>) {
        let mut map = self.to_map();
        map.extend(other);
        *self = Attributes::from_map(map);
    }
}

/// Equal when they hold the same names with equal values, in any order (as
/// JSON maps compare).
impl PartialEq for Attributes {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(key, value)| other.get(key) == Some(value))
    }
}

impl std::fmt::Debug for Attributes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Attributes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Attributes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <Map<String, Value> as serde::Deserialize>::deserialize(deserializer)
            .map(Attributes::from_map)
    }
}

/// A node: its id, an optional JSON payload and flat attributes.
///
/// Kept small (40 bytes) because the graph stores nodes in one array that large
/// builds and walks touch at random: the payload, usually absent, is boxed, and an
/// id of up to 23 bytes lives inside the record (a longer one on the heap), so
/// that comparing a looked-up id reads no other memory.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Node {
    /// The node's unique id within its network.
    pub id: SmolStr,
    /// Any JSON payload, as given to `add_node`.
    pub data: Option<Box<Value>>,
    /// Flat key → scalar attributes.
    pub attributes: Attributes,
}

/// A stable edge id: unique within a network, assigned in insertion order, never reused.
pub type EdgeId = u64;

/// A directed, weighted edge's payload.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Edge {
    /// The edge's stable id.
    pub id: EdgeId,
    /// A finite weight (default 1.0).
    pub weight: f64,
    /// Flat key → scalar attributes.
    pub attributes: Attributes,
}

/// Which edges of a node to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "server", derive(schemars::JsonSchema))]
pub enum Direction {
    /// Follow edges forwards, `node → target`.
    Out,
    /// Follow edges backwards, `source → node`.
    In,
    /// Both ways.
    #[default]
    Both,
}

/// What `add_node` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddNodeOutcome {
    /// The node was new and is now stored.
    Added,
    /// A node with that id already existed; nothing changed.
    Duplicate,
}

/// A read-only view of one edge with its endpoints' ids.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeView<'a> {
    /// The edge's stable id.
    pub id: EdgeId,
    /// The source node's id.
    pub source: &'a str,
    /// The target node's id.
    pub target: &'a str,
    /// The weight.
    pub weight: f64,
    /// The attributes.
    pub attributes: &'a Attributes,
}
