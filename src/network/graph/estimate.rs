//! An estimate of the memory a network holds, and the same model for what an
//! import is about to make: one count behind the per-import bound
//! (`--max-import-memory`) and the server-wide one (`--max-memory`).
//!
//! It is an estimate, not an allocator's count: fixed costs per node, edge and
//! attribute entry (measured roughly on a release build), plus the bytes of every
//! id, attribute key and value and `data`. What it must get right is the part an
//! input controls, the text, which it counts exactly, so that a document whose
//! small text stands for a great deal of memory is seen before it is made.

use serde_json::{Map, Value};

use super::Network;

/// A node besides its id's text, attributes and data: its 48-byte record in
/// petgraph's slot (the 40-byte `Node`, an id of up to 23 bytes inside it, and two
/// edge links), its id-index slot, its share of the adjacency rows and, for a
/// longer id, the heap block's header and rounding.
pub const NODE_BYTES: usize = 96;
/// An edge besides its attributes: its record and links in petgraph, its edge-id
/// index entry and both directions' adjacency entries.
pub const EDGE_BYTES: usize = 64;
/// One attribute entry besides its key's and value's text: the map's entry and
/// hash slot, the key's `String` and the `Value` it holds.
pub const ENTRY_BYTES: usize = 64;
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
        for node in self.graph.node_weights() {
            let mut bytes = NODE_BYTES + node.id.len();
            for (key, value) in node.attributes.iter() {
                bytes = bytes.saturating_add(attribute_bytes(key, value));
            }
            if let Some(data) = &node.data {
                bytes = bytes.saturating_add(value_bytes(data));
            }
            total = total.saturating_add(bytes);
        }
        for edge in self.graph.edge_weights() {
            let mut bytes = EDGE_BYTES;
            for (key, value) in edge.attributes.iter() {
                bytes = bytes.saturating_add(attribute_bytes(key, value));
            }
            total = total.saturating_add(bytes);
        }
        // The window of recent changes ([`Network::changes_since`]).
        total.saturating_add(self.history.bytes())
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
        assert_eq!(
            net.estimated_bytes(),
            2 * NODE_BYTES + 3 + EDGE_BYTES + ENTRY_BYTES + 1 + 10_000
        );
        assert_eq!(
            value_bytes(&json!({"a": [1, "xyz"]})),
            VALUE_BYTES + ENTRY_BYTES + 1 + VALUE_BYTES + VALUE_BYTES + VALUE_BYTES + 3
        );
    }
}
