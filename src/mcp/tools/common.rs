//! Types shared by several tools' parameters and results.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::mcp::page::Page;
use crate::network::EdgeView;

/// `status` of a plain success.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Success {
    /// The call did what was asked.
    Success,
}

/// `status` of an idempotent create: `success` when created, `duplicate` when it already existed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CreateStatus {
    /// Created now.
    Success,
    /// Already existed; nothing changed.
    Duplicate,
}

/// The JSON schema of a flat attribute map, so the LLM sees the rule before it breaks it.
pub fn flat_attributes_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "description": "Flat key-value attributes: each value a string, number, boolean or null (no nested objects or arrays).",
        "additionalProperties": { "type": ["string", "number", "boolean", "null"] }
    })
}

/// The JSON schema of a free JSON payload.
pub fn any_json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Any JSON value: a string, number, object, array... Stored as given."
    })
}

/// An edge as tools return it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EdgeOut {
    /// Stable edge id (use it with network_remove_edge).
    pub edge_id: u64,
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Edge weight.
    pub weight: f64,
    /// Flat attributes.
    pub attributes: Map<String, Value>,
}

impl From<EdgeView<'_>> for EdgeOut {
    fn from(edge: EdgeView<'_>) -> Self {
        EdgeOut {
            edge_id: edge.id,
            source: edge.source.to_string(),
            target: edge.target.to_string(),
            weight: edge.weight,
            attributes: edge.attributes.to_map(),
        }
    }
}

/// The default for optional `attributes` parameters.
pub fn no_attributes() -> Map<String, Value> {
    Map::new()
}

/// Checks a `limit` parameter against its allowed range.
pub fn check_limit(limit: usize, max: usize) -> crate::Result<usize> {
    check_range("limit", limit, max)
}

/// Checks a count parameter named `field` against 1..=max.
pub fn check_range(field: &str, limit: usize, max: usize) -> crate::Result<usize> {
    if limit == 0 || limit > max {
        return Err(crate::Error::InvalidValue {
            field: field.into(),
            reason: format!("{limit} is out of range; give a number from 1 to {max}"),
        });
    }
    Ok(limit)
}

/// The error of one invalid item of a batch (or of an imported document): it names
/// the list (`field`) and the item's position, so nothing else needs to be guessed.
pub fn batch_item_error(field: &str, index: usize, inner: crate::Error) -> crate::Error {
    crate::Error::InvalidBatchItem {
        field: field.into(),
        index,
        inner: Box::new(inner),
    }
}

/// How a list result continues: flattened into every paged result.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Paging {
    /// True when more items follow this page.
    pub truncated: bool,
    /// Pass it as `cursor`, with the other parameters unchanged, for the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// When cut: how to get the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

impl Paging {
    /// The paging of `page` when it returned `returned` items of `total` (when
    /// known), and `beyond` says whether any item lies past the page.
    pub fn of(page: &Page, returned: usize, total: Option<usize>, beyond: bool) -> Paging {
        let next_cursor = page.next(beyond);
        Paging {
            truncated: next_cursor.is_some(),
            more: page.more(returned, total, &next_cursor),
            next_cursor,
        }
    }

    /// Adds `note` to `more`: how to see more of what a page shows cut (a
    /// group's members, an example's list), whether or not more pages follow.
    pub fn add_note(&mut self, note: String) {
        self.more = Some(match self.more.take() {
            Some(pages) => format!("{pages} {note}"),
            None => note,
        });
    }

    /// The paging of a page of a result of `total` items.
    pub fn of_total(page: &Page, returned: usize, total: usize) -> Paging {
        Paging::of(page, returned, Some(total), page.end() < total)
    }
}
