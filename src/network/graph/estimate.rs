//! An estimate of the memory a network holds, and the same model for what an
//! import is about to make: one count behind the per-import bound
//! (`--max-import-memory`) and the server-wide one (`--max-memory`).
//!
//! It is an estimate, not an allocator's count: fixed costs per node, edge and
//! attribute entry (measured roughly on a release build), plus the bytes of every
//! id, attribute key and value and `data`. What it must get right is the part an
//! input controls, the text, which it counts exactly, so that a document whose
//! small text stands for a great deal of memory is seen before it is made.

use std::sync::Arc;

use hashbrown::HashSet;
use serde_json::{Map, Value};

use super::{Attributes, Network};

/// A node besides its id's text, attributes and data: its 48-byte record in
/// petgraph's slot (the 40-byte `Node`, an id of up to 23 bytes inside it, and two
/// edge links), its id-index slot, its share of the adjacency rows and, for a
/// longer id, the heap block's header and rounding.
pub const NODE_BYTES: usize = 96;
/// An edge besides its attributes: its record and links in petgraph, its edge-id
/// index entry and both directions' adjacency entries.
pub const EDGE_BYTES: usize = 64;
/// One attribute's slot in its item's map: two pointers, to its shared name and
/// shared value.
pub const SLOT_BYTES: usize = std::mem::size_of::<(Arc<str>, Arc<Value>)>();
/// A map of attributes besides its slots: its shared block (a count and a
/// pointer to the slots).
pub const MAP_BYTES: usize = 32;
/// A shared name besides its text: its counts.
pub const KEY_BYTES: usize = 16;
/// A shared value besides its text: its counts and the JSON value.
pub const SHARED_VALUE_BYTES: usize = 16 + std::mem::size_of::<Value>();
/// One attribute shared with no other item, besides its key's and value's
/// text: its slot, its name and its value (the map's own block is left out, as
/// it is far smaller than its attributes).
pub const ENTRY_BYTES: usize = SLOT_BYTES + KEY_BYTES + SHARED_VALUE_BYTES;
/// One JSON value besides its text (`data`, or an element of an array in it).
pub const VALUE_BYTES: usize = 32;

/// The estimated bytes of a JSON value: [`VALUE_BYTES`] per value, plus the text of
/// strings and object keys, plus [`ENTRY_BYTES`] per object entry. A walk with
/// its own stack: `data` nests at most 64 levels, but this never recurses at all.
pub fn value_bytes(value: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total = total.saturating_add(VALUE_BYTES);
        match value {
            Value::String(s) => total = total.saturating_add(s.len()),
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => {
                for (key, item) in map {
                    total = total.saturating_add(ENTRY_BYTES + key.len());
                    stack.push(item);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    total
}

/// The estimated bytes of one attribute: its entry, its key and its value.
pub fn attribute_bytes(key: &str, value: &Value) -> usize {
    let text = match value {
        Value::String(s) => s.len(),
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
        // Attributes are scalars; anything else is counted whole.
        Value::Array(_) | Value::Object(_) => value_bytes(value),
    };
    ENTRY_BYTES + key.len() + text
}

/// The estimated bytes of a map of attributes.
pub fn attributes_bytes(attributes: &Map<String, Value>) -> usize {
    attributes
        .iter()
        .map(|(key, value)| attribute_bytes(key, value))
        .fold(0, usize::saturating_add)
}

/// The estimated bytes a node given with this id, attributes and data adds,
/// none of its attributes shared: an import's upper bound.
pub fn node_item_bytes(id: &str, attributes: &Map<String, Value>, data: Option<&Value>) -> usize {
    (NODE_BYTES + id.len())
        .saturating_add(attributes_bytes(attributes))
        .saturating_add(data.map_or(0, value_bytes))
}

/// The estimated bytes an edge given with these attributes adds, none of them
/// shared (its endpoints are nodes, counted as such).
pub fn edge_item_bytes(attributes: &Map<String, Value>) -> usize {
    EDGE_BYTES.saturating_add(attributes_bytes(attributes))
}

impl Network {
    /// An estimate of the bytes this network holds: per node [`NODE_BYTES`], its
    /// id, attributes and `data`; per edge [`EDGE_BYTES`] and its attributes; the
    /// description. Costs one pass over the nodes and edges and their attributes,
    /// O(V + E + attribute entries); a caller that asks often can keep the answer
    /// with [`Network::instance`] and [`Network::version`], which name the state it
    /// was computed at.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// let empty = net.estimated_bytes();
    /// net.add_node("a")?;
    /// assert!(net.estimated_bytes() > empty);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn estimated_bytes(&self) -> usize {
        let mut total = self.description.as_ref().map_or(0, String::len);
        let mut shared = Shared::default();
        for node in self.graph.node_weights() {
            let mut bytes = NODE_BYTES + node.id.len();
            bytes = bytes.saturating_add(shared.attributes(&node.attributes));
            if let Some(data) = &node.data {
                bytes = bytes.saturating_add(value_bytes(data));
            }
            total = total.saturating_add(bytes);
        }
        for edge in self.graph.edge_weights() {
            let bytes = EDGE_BYTES.saturating_add(shared.attributes(&edge.attributes));
            total = total.saturating_add(bytes);
        }
        total = total.saturating_add(self.interner.table_bytes());
        // The window of recent changes ([`Network::changes_since`]).
        total.saturating_add(self.history.bytes())
    }
}

/// The shared allocations already counted, so that each is counted once
/// however many items hold it (one held once is counted without a lookup).
#[derive(Default)]
struct Shared {
    seen: HashSet<usize>,
}

impl Shared {
    /// Whether the allocation at `address`, held `count` times, is not yet counted.
    fn first(&mut self, address: usize, count: usize) -> bool {
        count == 1 || self.seen.insert(address)
    }

    /// The bytes of `attributes` not yet counted: its map, and each name and
    /// value the first time it is met.
    fn attributes(&mut self, attributes: &Attributes) -> usize {
        let Some(block) = attributes.shared() else {
            return 0;
        };
        if !self.first(Arc::as_ptr(block) as usize, Arc::strong_count(block)) {
            return 0;
        }
        let mut bytes = MAP_BYTES + SLOT_BYTES * block.len();
        for (key, value) in block.iter() {
            if self.first(
                Arc::as_ptr(key).cast::<u8>() as usize,
                Arc::strong_count(key),
            ) {
                bytes = bytes.saturating_add(KEY_BYTES + key.len());
            }
            if self.first(Arc::as_ptr(value) as usize, Arc::strong_count(value)) {
                bytes = bytes.saturating_add(shared_value_bytes(value));
            }
        }
        bytes
    }
}

/// The bytes of one shared attribute value: its counts, the JSON value and its text.
fn shared_value_bytes(value: &Value) -> usize {
    match value {
        Value::String(s) => SHARED_VALUE_BYTES + s.len(),
        Value::Null | Value::Bool(_) | Value::Number(_) => SHARED_VALUE_BYTES,
        Value::Array(_) | Value::Object(_) => 16 + value_bytes(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NodeSpec;
    use serde_json::json;

    #[test]
    fn the_estimate_counts_every_byte_of_text_and_a_fixed_cost_per_item() {
        let mut net = Network::new();
        net.set_change_window(crate::network::ChangeWindow::OFF);
        assert_eq!(net.estimated_bytes(), 0);
        net.add_node("ab").unwrap();
        assert_eq!(net.estimated_bytes(), NODE_BYTES + 2);
        net.add_edge("ab", "ab", 1.0).unwrap();
        assert_eq!(net.estimated_bytes(), NODE_BYTES + 2 + EDGE_BYTES);
        let big = "x".repeat(10_000);
        net.add_node_with(NodeSpec::new("c").with_attribute("k", big))
            .unwrap();
        let one = net.estimated_bytes();
        let items = 2 * NODE_BYTES + 3 + EDGE_BYTES;
        let attribute = MAP_BYTES + SLOT_BYTES + KEY_BYTES + 1 + SHARED_VALUE_BYTES + 10_000;
        let tables = net.interner.table_bytes();
        assert_eq!(one, items + attribute + tables);
        // The same value on a second node is shared: its text is counted once.
        net.add_node_with(NodeSpec::new("d").with_attribute("k", "x".repeat(10_000)))
            .unwrap();
        assert_eq!(
            net.estimated_bytes(),
            one + NODE_BYTES + 1 + net.interner.table_bytes() - tables
        );
        assert_eq!(
            value_bytes(&json!({"a": [1, "xyz"]})),
            VALUE_BYTES + ENTRY_BYTES + 1 + VALUE_BYTES + VALUE_BYTES + VALUE_BYTES + 3
        );
    }
}
