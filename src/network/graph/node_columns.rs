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

// Read only by queries: the core build (no `query` feature) keeps them unused.
#![cfg_attr(not(feature = "query"), allow(dead_code))]

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::Network;

/// The value of one attribute for every node index (`None`: no such
/// attribute, or a vacant index).
pub(crate) type NodeColumn = Arc<[Option<Arc<Value>>]>;

/// An attribute's column as codes, for scans that test every node: node `i`
/// has no value when `codes[i]` is 0, else the value `values[codes[i] - 1]`.
/// The distinct values of the attributes a scan tests are mostly few (a
/// section, a priority), so a test decided once per value becomes a table
/// lookup per node, read in node order, with no branch on the value.
#[derive(Debug)]
pub(crate) struct CodedColumn {
    pub(crate) codes: Box<[u32]>,
    pub(crate) values: Vec<Arc<Value>>,
}

impl CodedColumn {
    /// Codes `column`, one pass with a lookup per node: values are told apart
    /// by address (a network stores each distinct value once; two equal
    /// values stored apart get two codes, which only costs a second verdict).
    fn of(column: &[Option<Arc<Value>>]) -> Self {
        let mut code_of: hashbrown::HashMap<usize, u32> = hashbrown::HashMap::new();
        let mut values = Vec::new();
        let codes = column
            .iter()
            .map(|value| match value {
                None => 0,
                Some(value) => *code_of
                    .entry(Arc::as_ptr(value) as usize)
                    .or_insert_with(|| {
                        values.push(Arc::clone(value));
                        values.len() as u32
                    }),
            })
            .collect();
        CodedColumn { codes, values }
    }
}

/// How many attributes' columns a network keeps.
const KEPT: usize = 4;

/// The kept columns, the most recent last.
#[derive(Default)]
pub(crate) struct NodeColumns {
    kept: Mutex<Vec<Kept>>,
}

/// One kept column: the version it was read at, its attribute, its values,
/// and their codes once a scan asked for them.
struct Kept {
    version: u64,
    key: Box<str>,
    column: NodeColumn,
    coded: Option<Arc<CodedColumn>>,
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
        kept.retain(|k| k.version == version);
        kept.iter()
            .find(|k| *k.key == *key)
            .map(|k| k.column.clone())
    }

    /// The codes of attribute `key`'s column (see [`CodedColumn`]), if kept
    /// for the current version.
    pub(crate) fn node_codes_if_kept(&self, key: &str) -> Option<Arc<CodedColumn>> {
        let kept = self.node_columns.kept.lock().ok()?;
        let version = self.version();
        kept.iter()
            .find(|k| k.version == version && *k.key == *key)
            .and_then(|k| k.coded.clone())
    }

    /// The codes of attribute `key`'s column (see [`CodedColumn`]), built
    /// now (O(V), the column too if none is kept) and kept beside the column.
    pub(crate) fn node_column_coded(&self, key: &str) -> Arc<CodedColumn> {
        if let Some(coded) = self.node_codes_if_kept(key) {
            return coded;
        }
        let column = self.node_column(key);
        // Built outside the lock: readers of other columns need not wait.
        let coded = Arc::new(CodedColumn::of(&column));
        let version = self.version();
        if let Ok(mut kept) = self.node_columns.kept.lock()
            && let Some(entry) = kept
                .iter_mut()
                .find(|k| k.version == version && *k.key == *key)
        {
            entry.coded = Some(Arc::clone(&coded));
        }
        coded
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
            kept.push(Kept {
                version: self.version(),
                key: key.into(),
                column: column.clone(),
                coded: None,
            });
        }
        column
    }
}
