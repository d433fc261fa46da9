//! The error object an MCP client receives, and the advice in it.
//!
//! [`Error`]'s own messages advise in the library's terms; here the same problem
//! is advised in terms of the tools, and every object is bounded whatever the input
//! was: messages and context echo ids, names and cells, and a witness such as a
//! cycle can be as long as the network.

use serde_json::{Map, Value, json};

use crate::error::{Error, MAX_CONTEXT_CHARS, MAX_LISTED, MAX_MESSAGE_CHARS, clip};

impl Error {
    /// The error object returned to MCP clients:
    /// `{"status": "error", "error": <message>, "code": <code>, ...context}`.
    pub fn to_object(&self) -> Value {
        let mut object = Map::new();
        object.insert("status".into(), json!("error"));
        // Bounded whatever the input was: messages and context echo ids, names
        // and cells, and a witness such as a cycle can be as long as the network.
        let message = self.render(tool_advice);
        object.insert("error".into(), json!(clip(&message, MAX_MESSAGE_CHARS)));
        object.insert("code".into(), json!(self.code()));
        for (key, value) in self.context() {
            let mut cut = None;
            let value = bounded(value, &mut cut);
            if let Some(total) = cut {
                object.insert(format!("{key}_truncated"), json!(true));
                // The vocabulary's count: `missing` -> `missing_count`, `cycle_node_ids` -> `cycle_node_count`.
                let counted = key.strip_suffix("_ids").unwrap_or(&key);
                object
                    .entry(format!("{counted}_count"))
                    .or_insert(json!(total));
            }
            object.entry(key).or_insert(value);
        }
        Value::Object(object)
    }
}

/// The library calls a core hint may name, each with the tool that does the
/// same for an MCP client.
const TOOL_TERMS: [(&str, &str); 2] = [
    ("`NetworkRegistry::delete`", "network_delete"),
    ("`Network::extract`", "network_copy"),
];

/// A core hint (a limit's) in tool terms.
fn in_tool_terms(hint: &str) -> String {
    TOOL_TERMS
        .iter()
        .fold(hint.to_string(), |hint, (call, tool)| {
            hint.replace(call, tool)
        })
}

/// How to fix an error with the server's tools.
fn tool_advice(error: &Error) -> Option<String> {
    let advice = match error {
        Error::LimitExceeded { hint, .. } => return Some(in_tool_terms(hint)),
        Error::NetworkNotFound { available, .. } if available.is_empty() => {
            "Create it first with network_create."
        }
        Error::NetworkNotFound { .. } => {
            "Create it with network_create, or check the name with network_list."
        }
        Error::NodeNotFound { suggestions, .. } if suggestions.is_empty() => {
            "Add it first with network_add_node."
        }
        Error::NodeNotFound { .. } => "Add it first with network_add_node if it is new.",
        Error::NodesNotFound { .. } => {
            "Fix the misspelt ones, and add the new ones first with network_add_nodes."
        }
        Error::EdgeNotFound { .. } => {
            "Edge ids come from network_add_edge or network_list_edges; it may have been removed."
        }
        Error::ConfirmationRequired { .. } => "Call it again with \"confirm\": true to proceed.",
        Error::CycleDetected { .. } => {
            "Remove one edge of the cycle (network_remove_edge) or use network_find_cycles to see all of them."
        }
        Error::NegativeCycle { .. } => {
            "Use weighted: false to count hops, or make the weights non-negative."
        }
        Error::WorkExceeded { .. } => {
            "Copy a part with network_copy (method \"induced\" or \"neighborhood\"), then ask again on the copy."
        }
        Error::WeightOverflow { hops_possible, .. } => {
            return Some(format!(
                "Rescale the weights (e.g. divide them all by 1e300){}.",
                if *hops_possible {
                    ", or use weighted: false to count hops"
                } else {
                    ""
                }
            ));
        }
        Error::ImportInvalid { .. } => {
            "Fix the document and call network_import again; nothing was imported."
        }
        Error::PreconditionFailed { .. } => {
            "Read those nodes again (network_get_node), and retry with the new expectations if the change still applies."
        }
        Error::VersionConflict { .. } => {
            "Read it again (network_get_node, network_describe, network_list and every write reply give the version), then retry with that version if the change still applies."
        }
        Error::ClaimNotHeld { .. } => {
            "Work only on tasks you hold: take new ones with network_claim_ready. A task whose lease ran out can go to another worker; renew long work with network_renew_claim before the lease ends."
        }
        Error::ServerBusy { retry_after_ms, .. } | Error::NetworkBusy { retry_after_ms, .. } => {
            return Some(format!(
                "Send the same call again in {retry_after_ms} ms; calls on other networks are not held up by this."
            ));
        }
        Error::CursorStale { .. } => {
            "Start again: repeat the call without cursor to get the first page of the current answer."
        }
        _ => return None,
    };
    Some(advice.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::MAX_MESSAGE_CHARS;

    #[test]
    fn a_limit_advises_in_library_terms_and_in_tool_terms_here() {
        let limits = crate::limits::Limits {
            max_memory: 10,
            ..crate::limits::Limits::default()
        };
        let reply = limits.reply_exceeded("network_export", 99);
        let memory = limits.check_memory(5, 6, "a copy").unwrap_err();
        for (error, call, tool) in [
            (&memory, "`NetworkRegistry::delete`", "network_delete"),
            (&memory, "`Network::extract`", "network_copy"),
            (&reply, "`Network::extract`", "network_copy"),
        ] {
            let library = error.to_string();
            assert!(
                library.contains(call) && !library.contains(tool),
                "{library}"
            );
            let object = error.to_object();
            let message = object["error"].as_str().unwrap();
            assert!(
                message.contains(tool) && !message.contains(call),
                "{message}"
            );
            assert!(message.contains("Nothing was changed."), "{message}");
        }
    }

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
        assert_eq!(
            object["cycle_node_ids"].as_array().unwrap().len(),
            MAX_LISTED
        );
        assert_eq!(object["cycle_node_count"], 300_000);
        assert_eq!(object["cycle_node_ids_truncated"], true);
        assert!(
            object["error"]
                .as_str()
                .unwrap()
                .contains("a cycle of 300000 nodes")
        );
    }

    #[test]
    fn too_much_work_is_advised_in_tool_terms_here_and_library_terms_in_the_core() {
        let error = Error::WorkExceeded {
            field: "method".into(),
            operation: "the transitive reduction of 300 nodes and 15000 edges".into(),
            max_work: 1_000,
        };
        let object = error.to_object();
        let message = object["error"].as_str().unwrap();
        assert_eq!(object["code"], "invalid_value");
        assert_eq!(object["field"], "method");
        assert!(message.contains("more than 1000 steps"), "{message}");
        assert!(message.contains("network_copy"), "{message}");
        assert!(!message.contains("Network::"), "{message}");
        let library = error.to_string();
        assert!(library.contains("`Network::extract`"), "{library}");
        assert!(!library.contains("network_copy"), "{library}");
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
        assert_eq!(object["available_networks_count"], 1000);
        let error = Error::InvalidAttributes {
            field: "attributes".into(),
            reason: format!("attribute key '{huge}' is not valid"),
        };
        assert!(error.to_object().to_string().len() <= MAX_MESSAGE_CHARS + 200);
    }
}
