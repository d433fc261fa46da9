//! The one error type of the crate, with stable machine codes.
//!
//! Every failure anywhere in the library or the server is an [`Error`]. The MCP
//! layer turns it into the error object `{"status": "error", "error": <message>,
//! "code": <code>, ...context}` in exactly one place, so the messages written
//! here are what an LLM reads: each says what was wrong and how to fix it.

use serde_json::{Map, Value, json};

/// Every failure the library or the server can report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The tool arguments could not be decoded (missing field, wrong type, unknown field).
    #[error("{message}")]
    InvalidArguments {
        message: String,
        field: Option<String>,
    },
    /// An id or a network name breaks the id rules.
    #[error("invalid {field}: {reason}")]
    InvalidId { field: String, reason: String },
    /// An attribute map is not a flat map of scalar values.
    #[error("invalid {field}: {reason}")]
    InvalidAttributes { field: String, reason: String },
    /// A weight is not a finite number.
    #[error("invalid weight: {reason}")]
    InvalidWeight { reason: String },
    /// A value is well-typed but not acceptable (e.g. an unknown enum word in context).
    #[error("invalid {field}: {reason}")]
    InvalidValue { field: String, reason: String },
    /// No network of that name is registered.
    #[error("{}", network_not_found_message(.name, .available))]
    NetworkNotFound {
        name: String,
        available: Vec<String>,
    },
    /// No node of that id exists in the network.
    #[error("{}", node_not_found_message(.field, .node_id, .network, .suggestions))]
    NodeNotFound {
        network: String,
        field: String,
        node_id: String,
        suggestions: Vec<String>,
    },
    /// No edge of that id exists in the network.
    #[error(
        "edge {edge_id} not found in network '{network}'. Edge ids come from network_add_edge or network_list_edges; it may have been removed."
    )]
    EdgeNotFound { network: String, edge_id: u64 },
    /// A destructive call was made without `confirm: true`.
    #[error(
        "{action} is destructive and was not performed. Call it again with \"confirm\": true to proceed."
    )]
    ConfirmationRequired { action: String },
    /// The graph has a cycle where the operation needs a DAG.
    #[error(
        "the network has a cycle, so {operation} is undefined: {}. Remove one edge of the cycle (network_remove_edge) or use network_find_cycles to see all of them.",
        format_cycle(.cycle)
    )]
    CycleDetected {
        operation: String,
        cycle: Vec<String>,
    },
    /// A cycle whose total weight is negative makes shortest paths undefined.
    #[error(
        "the network has a cycle of negative total weight reachable from '{source_id}', so shortest paths are undefined. Use weighted: false to count hops, or make the weights non-negative."
    )]
    NegativeCycle { source_id: String },
    /// One item of a batch is invalid; nothing of the batch was applied.
    #[error("item {index} of {field} is invalid, so nothing was applied: {inner}")]
    InvalidBatchItem {
        field: String,
        index: usize,
        inner: Box<Error>,
    },
    /// A configured limit would be exceeded; nothing was changed.
    #[error("{what} would exceed the limit of {limit}. Nothing was changed. {hint}")]
    LimitExceeded {
        what: String,
        limit: u64,
        hint: String,
    },
    /// The server runs in read-only mode and the tool writes.
    #[error(
        "{tool} changes data, and this server runs in read-only mode (--read-only). Only read tools are available."
    )]
    ReadOnly { tool: String },
    /// The tool name is not known (or its toolset is disabled).
    #[error("unknown tool '{name}'. Call tools/list to see the available tools.")]
    UnknownTool { name: String },
    /// A document given for import could not be read; nothing was imported.
    #[error("{}", import_invalid_message(.format, .location, .message))]
    ImportInvalid {
        /// The format name (e.g. `"graphml"`).
        format: String,
        /// Where in the document: `"line 4, column 12"`, `"nodes[3].id"`, `"row 7, column 'weight'"`.
        location: Option<String>,
        /// What is wrong there.
        message: String,
    },
    /// The client cancelled the request before its changes were applied.
    #[error(
        "the request was cancelled before {operation} was applied; nothing changed. Call it again to run it."
    )]
    Cancelled { operation: String },
    /// A bug: the call failed inside the server. Nothing is known to have changed.
    #[error("internal error: {message}. This is a bug in networks-mcp; please report it.")]
    Internal { message: String },
}

fn network_not_found_message(name: &str, available: &[String]) -> String {
    if available.is_empty() {
        format!(
            "network '{name}' not found: no networks exist yet. Create it first with network_create."
        )
    } else {
        format!(
            "network '{name}' not found. Existing networks: {}. Create it with network_create, or check the name with network_list.",
            quoted_list(available)
        )
    }
}

fn node_not_found_message(
    field: &str,
    node_id: &str,
    network: &str,
    suggestions: &[String],
) -> String {
    let mut message = format!("{field} '{node_id}' not found in network '{network}'.");
    if suggestions.is_empty() {
        message.push_str(" Add it first with network_add_node.");
    } else {
        message.push_str(&format!(
            " Closest existing ids: {}. Add it first with network_add_node if it is new.",
            quoted_list(suggestions)
        ));
    }
    message
}

fn import_invalid_message(format: &str, location: &Option<String>, message: &str) -> String {
    let at = location
        .as_deref()
        .map(|l| format!(" at {l}"))
        .unwrap_or_default();
    let message = message.trim_end_matches('.');
    format!(
        "could not import {format}{at}: {message}. Fix the document and call network_import again; nothing was imported."
    )
}

fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn format_cycle(cycle: &[String]) -> String {
    match cycle.first() {
        Some(first) => {
            let mut parts: Vec<&str> = cycle.iter().map(String::as_str).collect();
            parts.push(first);
            parts.join(" -> ")
        }
        None => String::from("(empty)"),
    }
}

impl Error {
    /// The stable snake_case code of this error, for programs to match on.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidArguments { .. } => "invalid_arguments",
            Error::InvalidId { .. } => "invalid_id",
            Error::InvalidAttributes { .. } => "invalid_attributes",
            Error::InvalidWeight { .. } => "invalid_weight",
            Error::InvalidValue { .. } => "invalid_value",
            Error::NetworkNotFound { .. } => "network_not_found",
            Error::NodeNotFound { .. } => "node_not_found",
            Error::EdgeNotFound { .. } => "edge_not_found",
            Error::ConfirmationRequired { .. } => "confirmation_required",
            Error::CycleDetected { .. } => "cycle_detected",
            Error::NegativeCycle { .. } => "negative_cycle",
            Error::InvalidBatchItem { .. } => "invalid_batch_item",
            Error::LimitExceeded { .. } => "limit_exceeded",
            Error::ReadOnly { .. } => "read_only",
            Error::UnknownTool { .. } => "unknown_tool",
            Error::ImportInvalid { .. } => "invalid_import",
            Error::Cancelled { .. } => "cancelled",
            Error::Internal { .. } => "internal",
        }
    }

    /// Structured context that helps the caller recover (field names, suggestions...).
    pub fn context(&self) -> Map<String, Value> {
        let value = match self {
            Error::InvalidArguments { field, .. } => json!({ "field": field }),
            Error::InvalidId { field, .. }
            | Error::InvalidAttributes { field, .. }
            | Error::InvalidValue { field, .. } => json!({ "field": field }),
            Error::InvalidWeight { .. } => json!({ "field": "weight" }),
            Error::NetworkNotFound { name, available } => {
                json!({ "network_name": name, "available_networks": available })
            }
            Error::NodeNotFound {
                network,
                field,
                node_id,
                suggestions,
            } => json!({
                "network_name": network,
                "field": field,
                "node_id": node_id,
                "suggestions": suggestions,
            }),
            Error::EdgeNotFound { network, edge_id } => {
                json!({ "network_name": network, "edge_id": edge_id })
            }
            Error::CycleDetected { cycle, .. } => json!({ "cycle": cycle }),
            Error::NegativeCycle { source_id } => json!({ "source": source_id }),
            Error::InvalidBatchItem {
                field,
                index,
                inner,
            } => {
                let mut context = inner.context();
                if let Some(item_field) = context.remove("field") {
                    context.insert("item_field".into(), item_field);
                }
                context.insert("field".into(), json!(field));
                context.insert("index".into(), json!(index));
                context.insert("item_code".into(), json!(inner.code()));
                Value::Object(context)
            }
            Error::LimitExceeded { limit, .. } => json!({ "limit": limit }),
            Error::ReadOnly { tool } | Error::UnknownTool { name: tool } => {
                json!({ "tool": tool })
            }
            Error::ConfirmationRequired { .. } => json!({ "required": { "confirm": true } }),
            Error::ImportInvalid {
                format, location, ..
            } => json!({ "format": format, "location": location }),
            Error::Internal { .. } | Error::Cancelled { .. } => json!({}),
        };
        match value {
            Value::Object(mut map) => {
                map.retain(|_, v| !v.is_null());
                map
            }
            _ => Map::new(),
        }
    }

    /// The error object returned to MCP clients:
    /// `{"status": "error", "error": <message>, "code": <code>, ...context}`.
    pub fn to_object(&self) -> Value {
        let mut object = Map::new();
        object.insert("status".into(), json!("error"));
        object.insert("error".into(), json!(self.to_string()));
        object.insert("code".into(), json!(self.code()));
        for (key, value) in self.context() {
            object.entry(key).or_insert(value);
        }
        Value::Object(object)
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `text` cut to at most `max_chars` characters, with a note of how long it was,
/// for messages that echo input back: an error is as bounded as a result.
pub fn clip(text: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max_chars) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => {
            std::borrow::Cow::Owned(format!("{}… ({} bytes in all)", &text[..cut], text.len()))
        }
    }
}
