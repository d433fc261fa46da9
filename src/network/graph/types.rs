//! The values a [`Network`](super::Network) stores: nodes, edges and their attributes.

use serde_json::{Map, Value};
pub use smol_str::SmolStr;

/// A flat map of attribute names to scalar JSON values (string, number, boolean or null).
///
/// Stored behind one pointer so that nodes and edges without attributes (the common
/// case in large graphs) cost 8 bytes for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attributes(Option<Box<Map<String, Value>>>);

impl Attributes {
    /// Wraps an already validated map (see [`super::validate::attributes`]).
    pub fn from_map(map: Map<String, Value>) -> Self {
        if map.is_empty() {
            Attributes(None)
        } else {
            Attributes(Some(Box::new(map)))
        }
    }

    /// The value of one attribute.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.as_ref().and_then(|m| m.get(key))
    }

    /// The map itself, when there is one: its address lets a scan prefetch it.
    #[cfg(feature = "search")]
    pub(crate) fn map(&self) -> Option<&Map<String, Value>> {
        self.0.as_deref()
    }

    /// The attributes in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().flat_map(|m| m.iter())
    }

    /// The number of attributes.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |m| m.len())
    }

    /// Whether there are no attributes.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// A copy as a JSON map.
    pub fn to_map(&self) -> Map<String, Value> {
        self.0.as_deref().cloned().unwrap_or_default()
    }

    /// Sets (or, with `Value::Null` removed by the caller, replaces) the given keys.
    pub fn merge(&mut self, other: Map<String, Value>) {
        let mut map = self.to_map();
        map.extend(other);
        *self = Attributes::from_map(map);
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Attributes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(map) => serde::Serialize::serialize(map, serializer),
            None => serde::Serialize::serialize(&Map::new(), serializer),
        }
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
