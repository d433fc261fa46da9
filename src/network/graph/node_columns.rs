//! One attribute of every node, by node index, kept for the version of the
//! network it was read at.
//!
//! A query that reads a property of most nodes (`MATCH (q) WHERE q.section =
//! $s`) otherwise follows, for each node, its record, its attribute map, the
//! map's entries and the key's text before it reaches the value: a chain of
//! dependent cache misses per node on a large network. A column is one array of
//! the (shared) values, read in node order. It is built in one pass, O(V),
//! when a read asks for it, and kept while the network's version stays the
//! same; any change of content makes it stale, and it is built again when next
//! asked for. At most [`KEPT`] columns are kept.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::Network;

/// The value of one attribute for every node index (`None`: no such
/// attribute, or a vacant index).
pub(crate) type NodeColumn = Arc<[Option<Arc<Value>>]>;

/// How many attributes' columns a network keeps.
const KEPT: usize = 4;

/// The kept columns: (version, attribute, column), the most recent last.
#[derive(Default)]
pub(crate) struct NodeColumns {
    kept: Mutex<Vec<(u64, Box<str>, NodeColumn)>>,
}

/// A copy starts empty: columns are derived, and cheap to build again.
impl Clone for NodeColumns {
    fn clone(&self) -> Self {
        NodeColumns::default()
    }
}

impl std::fmt::Debug for NodeColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.lock().map_or(0, |k| k.len());
        f.debug_struct("NodeColumns").field("kept", &kept).finish()
    }
}

impl Network {
    /// The column of attribute `key`, if one is kept for the current version.
    /// Stale columns are dropped on the way.
    pub(crate) fn node_column_if_kept(&self, key: &str) -> Option<NodeColumn> {
        let mut kept = self.node_columns.kept.lock().ok()?;
        let version = self.version();
        kept.retain(|(v, _, _)| *v == version);
        kept.iter()
            .find(|(_, k, _)| **k == *key)
            .map(|(_, _, column)| column.clone())
    }

    /// The column of attribute `key`, built now (O(V)) if none is kept for the
    /// current version, then kept.
    pub(crate) fn node_column(&self, key: &str) -> NodeColumn {
        if let Some(column) = self.node_column_if_kept(key) {
            return column;
        }
        let bound = petgraph::visit::NodeIndexable::node_bound(self.graph());
        let mut values: Vec<Option<Arc<Value>>> = vec![None; bound];
        for ix in self.graph().node_indices() {
            values[ix.index()] = self.graph()[ix].attributes.get_shared(key).cloned();
        }
        let column: NodeColumn = values.into();
        if let Ok(mut kept) = self.node_columns.kept.lock() {
            if kept.len() >= KEPT {
                kept.remove(0);
            }
            kept.push((self.version(), key.into(), column.clone()));
        }
        column
    }
}
