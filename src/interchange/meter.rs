//! The count of the memory an import materialises, kept while the document is
//! read, against `--max-import-memory`.
//!
//! A document is bounded in size, but not what it stands for: a GraphML key's
//! `<default>` is copied onto every node or edge without a value of its own, and a
//! DOT edge statement's attributes onto every edge it expands to. Each reader
//! charges the meter for what it is about to make, in the units of
//! [`crate::network::estimate`], *before* making it, so a document that would
//! multiply into gigabytes is refused at the first item past the bound.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::interchange::Format;
use crate::limits::Limits;
use crate::network::estimate::{attribute_bytes, edge_item_bytes, node_item_bytes};

/// Bytes counted so far, and the bound.
pub(crate) struct Meter {
    format: Format,
    limit: usize,
    used: usize,
}

impl Meter {
    pub(crate) fn new(format: Format, limit: usize) -> Self {
        Meter {
            format,
            limit,
            used: 0,
        }
    }

    /// Counts `bytes` more; past the bound, the error names `cause()`: what in
    /// the document is being made.
    pub(crate) fn charge(&mut self, bytes: usize, cause: impl FnOnce() -> String) -> Result<()> {
        self.used = self.used.saturating_add(bytes);
        if self.used > self.limit {
            return Err(Limits::import_memory_exceeded(
                self.format.name(),
                &cause(),
                self.limit,
            ));
        }
        Ok(())
    }

    /// Counts a node with this id, attributes and data.
    pub(crate) fn node(
        &mut self,
        id: &str,
        attributes: &Map<String, Value>,
        data: Option<&Value>,
        cause: impl FnOnce() -> String,
    ) -> Result<()> {
        self.charge(node_item_bytes(id, attributes, data), cause)
    }

    /// Counts an edge with these endpoint ids (held as text until the import is
    /// applied) and attributes.
    pub(crate) fn edge(
        &mut self,
        source: &str,
        target: &str,
        attributes: &Map<String, Value>,
        cause: impl FnOnce() -> String,
    ) -> Result<()> {
        let bytes = edge_item_bytes(attributes).saturating_add(source.len() + target.len());
        self.charge(bytes, cause)
    }

    /// Counts one attribute given as text (its value is no longer than the text).
    pub(crate) fn attribute(
        &mut self,
        key: &str,
        text: &str,
        cause: impl FnOnce() -> String,
    ) -> Result<()> {
        self.charge(
            attribute_bytes(key, &Value::Null).saturating_add(text.len()),
            cause,
        )
    }
}
