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
    /// A sum of weights is past the range of a 64-bit float.
    #[error(
        "the total weight of {what} is beyond ±1.7e308, the range of a 64-bit float, so it cannot be computed exactly. Rescale the weights (e.g. divide them all by 1e300){hint}."
    )]
    WeightOverflow { what: String, hint: &'static str },
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
    /// Durable storage could not make a write durable; the write was not applied,
    /// and writes are refused until the operator fixes the disk and restarts.
    #[error(
        "the write was not saved and was not applied: {message}. Reads still work. The server operator must free disk space or fix the data directory, then restart the server."
    )]
    StorageFailed { message: String },
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

/// At most this many items of a list are named in a message or a context field.
pub const MAX_LISTED: usize = 20;
/// An error message is cut to this many characters.
pub const MAX_MESSAGE_CHARS: usize = 2_000;
/// A string in an error's context is cut to this many characters.
pub const MAX_CONTEXT_CHARS: usize = 300;

fn quoted_list(items: &[String]) -> String {
    let mut listed = items
        .iter()
        .take(MAX_LISTED)
        .map(|s| format!("'{}'", clip(s, MAX_CONTEXT_CHARS)))
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_LISTED {
        listed.push_str(&format!(" and {} more", items.len() - MAX_LISTED));
    }
    listed
}

/// A context value with every string clipped and every list cut to
/// [`MAX_LISTED`] items; `cut` learns how long each cut list was.
fn bounded(value: Value, cut: &mut Option<usize>) -> Value {
    match value {
        Value::String(text) => match clip(&text, MAX_CONTEXT_CHARS) {
            std::borrow::Cow::Borrowed(_) => Value::String(text),
            std::borrow::Cow::Owned(clipped) => Value::String(clipped),
        },
        Value::Array(items) => {
            if items.len() > MAX_LISTED {
                *cut = Some(items.len());
            }
            Value::Array(
                items
                    .into_iter()
                    .take(MAX_LISTED)
                    .map(|item| bounded(item, &mut None))
                    .collect(),
            )
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, item)| (key, bounded(item, &mut None)))
                .collect(),
        ),
        other => other,
    }
}

/// `a -> b -> c -> a`, or for a long cycle its first [`MAX_LISTED`] nodes and
/// its length: an error is as bounded as a result.
fn format_cycle(cycle: &[String]) -> String {
    match cycle.first() {
        Some(first) if cycle.len() <= MAX_LISTED => {
            let mut parts: Vec<String> = cycle
                .iter()
                .map(|id| clip(id, MAX_CONTEXT_CHARS).into_owned())
                .collect();
            parts.push(clip(first, MAX_CONTEXT_CHARS).into_owned());
            parts.join(" -> ")
        }
        Some(_) => {
            let parts: Vec<String> = cycle
                .iter()
                .take(MAX_LISTED)
                .map(|id| clip(id, MAX_CONTEXT_CHARS).into_owned())
                .collect();
            format!(
                "{} -> … (a cycle of {} nodes; the first {MAX_LISTED} are shown)",
                parts.join(" -> "),
                cycle.len()
            )
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
            Error::WeightOverflow { .. } => "weight_overflow",
            Error::InvalidBatchItem { .. } => "invalid_batch_item",
            Error::LimitExceeded { .. } => "limit_exceeded",
            Error::ReadOnly { .. } => "read_only",
            Error::UnknownTool { .. } => "unknown_tool",
            Error::ImportInvalid { .. } => "invalid_import",
            Error::Cancelled { .. } => "cancelled",
            Error::StorageFailed { .. } => "storage_failed",
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
            Error::Internal { .. }
            | Error::Cancelled { .. }
            | Error::WeightOverflow { .. }
            | Error::StorageFailed { .. } => {
                json!({})
            }
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
        // Bounded whatever the input was: messages and context echo ids, names
        // and cells, and a witness such as a cycle can be as long as the network.
        let message = self.to_string();
        object.insert("error".into(), json!(clip(&message, MAX_MESSAGE_CHARS)));
        object.insert("code".into(), json!(self.code()));
        for (key, value) in self.context() {
            let mut cut = None;
            let value = bounded(value, &mut cut);
            if let Some(total) = cut {
                object.insert(format!("{key}_truncated"), json!(true));
                object.entry(format!("{key}_total")).or_insert(json!(total));
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_cycle_is_cut_in_the_message_and_the_context() {
        let cycle: Vec<String> = (0..300_000).map(|i| format!("n{i}")).collect();
        let error = Error::CycleDetected {
            operation: "a topological order".into(),
            cycle,
        };
        let object = error.to_object();
        let size = object.to_string().len();
        assert!(size < 4_000, "an error object of {size} bytes");
        assert_eq!(object["cycle"].as_array().unwrap().len(), MAX_LISTED);
        assert_eq!(object["cycle_total"], 300_000);
        assert_eq!(object["cycle_truncated"], true);
        assert!(
            object["error"]
                .as_str()
                .unwrap()
                .contains("a cycle of 300000 nodes")
        );
    }

    #[test]
    fn echoed_input_and_long_lists_are_bounded() {
        let huge = "x".repeat(1 << 20);
        let error = Error::NetworkNotFound {
            name: huge.clone(),
            available: (0..1000).map(|i| format!("net{i}")).collect(),
        };
        let object = error.to_object();
        assert!(
            object.to_string().len() < 8_000,
            "{}",
            object.to_string().len()
        );
        assert_eq!(object["available_networks_total"], 1000);
        let error = Error::InvalidAttributes {
            field: "attributes".into(),
            reason: format!("attribute key '{huge}' is not valid"),
        };
        assert!(error.to_object().to_string().len() <= MAX_MESSAGE_CHARS + 200);
    }
}
