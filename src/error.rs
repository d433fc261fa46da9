//! The one error type of the crate, with stable machine codes.
//!
//! Every failure anywhere in the library or the server is an [`Error`]. Its
//! [`Display`](std::fmt::Display) says what was wrong and how to fix it with the
//! library's own calls. The MCP layer renders the same problem with advice in
//! terms of its tools, in exactly one place (`mcp::error_object`), so that an LLM
//! reads `network_add_node` where a Rust program reads `Network::add_node`.

use std::fmt;

use serde_json::{Map, Value, json};

/// Every failure the library or the server can report.
///
/// Match on [`Error::code`] for a stable machine-readable kind; new variants may be
/// added in minor releases.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The tool arguments could not be decoded (missing field, wrong type, unknown field).
    InvalidArguments {
        /// What was wrong, as the decoder said it.
        message: String,
        /// The argument at fault, when known.
        field: Option<String>,
    },
    /// An id or a network name breaks the id rules.
    InvalidId {
        /// The parameter that held it (`node_id`, `source`, `network_name`...).
        field: String,
        /// Which rule it breaks.
        reason: String,
    },
    /// An attribute map is not a flat map of scalar values.
    InvalidAttributes {
        /// The parameter that held it.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A weight is not a finite number.
    InvalidWeight {
        /// What is wrong with it.
        reason: String,
    },
    /// A value is well-typed but not acceptable (e.g. an unknown enum word in context).
    InvalidValue {
        /// The parameter that held it.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No network of that name is registered.
    NetworkNotFound {
        /// The name asked for.
        name: String,
        /// The names that exist, sorted.
        available: Vec<String>,
    },
    /// No node of that id exists in the network.
    NodeNotFound {
        /// The network's name (empty for an anonymous [`Network`](crate::Network)).
        network: String,
        /// The parameter that held the id.
        field: String,
        /// The id asked for.
        node_id: String,
        /// Existing ids close to it, best first (filled in by the MCP layer).
        suggestions: Vec<String>,
    },
    /// Several ids of one list name no node (each is listed, each gets suggestions).
    NodesNotFound {
        /// The network's name (empty for an anonymous [`Network`](crate::Network)).
        network: String,
        /// The parameter that held the ids.
        field: String,
        /// The unknown ids, in the order given, each once.
        node_ids: Vec<String>,
        /// For each of the first unknown ids, the existing ids close to it (filled
        /// in by the MCP layer; may be shorter than `node_ids`).
        suggestions: Vec<Vec<String>>,
    },
    /// No edge of that id exists in the network.
    EdgeNotFound {
        /// The network's name.
        network: String,
        /// The edge id asked for.
        edge_id: u64,
    },
    /// A destructive call was made without `confirm: true`.
    ConfirmationRequired {
        /// What would have been destroyed.
        action: String,
    },
    /// The graph has a cycle where the operation needs a DAG.
    CycleDetected {
        /// What could not be computed ("a topological order").
        operation: String,
        /// The ids of one cycle, in order.
        cycle: Vec<String>,
    },
    /// A computation would take more steps than the bound it was given: too long
    /// for one call. Nothing was computed. Its code is `invalid_value`, as for
    /// any argument that asks for too much.
    WorkExceeded {
        /// The parameter that chose the computation (`"method"`).
        field: String,
        /// What would take too long ("the transitive reduction of 300 nodes and
        /// 15000 edges this densely connected").
        operation: String,
        /// The bound, in steps.
        max_work: u64,
    },
    /// A cycle whose total weight is negative makes shortest paths undefined.
    NegativeCycle {
        /// The id the search started from.
        source_id: String,
    },
    /// A sum of weights is past the range of a 64-bit float.
    WeightOverflow {
        /// What was being summed: "a path from 'a' to 'b'", "the critical path".
        what: String,
        /// Whether counting hops instead of summing weights would answer.
        hops_possible: bool,
    },
    /// One item of a batch is invalid; nothing of the batch was applied.
    InvalidBatchItem {
        /// The batch parameter (`nodes`, `edges`).
        field: String,
        /// The item's 0-based index.
        index: usize,
        /// What is wrong with the item.
        inner: Box<Error>,
    },
    /// A configured limit would be exceeded; nothing was changed.
    LimitExceeded {
        /// What would have grown ("the network's node count").
        what: String,
        /// The limit.
        limit: u64,
        /// How to get past it.
        hint: String,
    },
    /// The server runs in read-only mode and the tool writes.
    ReadOnly {
        /// The tool that was called.
        tool: String,
    },
    /// The tool name is not known (or its toolset is disabled).
    UnknownTool {
        /// The name that was called.
        name: String,
        /// Offered tool names close to it, best first.
        suggestions: Vec<String>,
    },
    /// The tool exists, but in a toolset this server was not started with.
    ToolNotOffered {
        /// The name that was called.
        name: String,
        /// Its toolset.
        toolset: String,
        /// The `--toolsets` value that offers it too: those on now, plus its own.
        toolsets: String,
    },
    /// A document given for import could not be read; nothing was imported.
    ImportInvalid {
        /// The format name (e.g. `"graphml"`).
        format: String,
        /// Where in the document: `"line 4, column 12"`, `"nodes[3].id"`, `"row 7, column 'weight'"`.
        location: Option<String>,
        /// What is wrong there.
        message: String,
    },
    /// The client cancelled the request before its changes were applied.
    Cancelled {
        /// What was cancelled.
        operation: String,
    },
    /// The call ran past its deadline and was stopped; nothing was changed.
    DeadlineExceeded {
        /// What was stopped (the tool or operation).
        operation: String,
        /// The time the call was allowed, in seconds.
        seconds: f64,
        /// What to do instead: sample, work on a part, lower a limit.
        hint: String,
    },
    /// The server has no room for the call now: every compute thread is busy and
    /// the queue is full. Nothing was changed; the call may be sent again.
    ServerBusy {
        /// Calls running or queued on the busy lane.
        queued: usize,
        /// When to try again, in milliseconds.
        retry_after_ms: u64,
    },
    /// The network the call needs is held by a long call, and as many calls as
    /// may wait for one network already wait for it. Nothing was changed; the
    /// call may be sent again, and calls on other networks are not held up.
    NetworkBusy {
        /// The calls waiting for that network.
        waiting: usize,
        /// When to try again, in milliseconds.
        retry_after_ms: u64,
    },
    /// Durable storage could not make a write durable; the write was not applied,
    /// and writes are refused until the operator fixes the disk and restarts.
    StorageFailed {
        /// What the operating system said.
        message: String,
    },
    /// A write's `expect` did not hold: some node's attributes differ from what the
    /// caller expected. Nothing was changed.
    PreconditionFailed {
        /// The network's name.
        network: String,
        /// Each attribute that differed: `(node id, attribute, expected, current)`,
        /// current being null when the attribute is absent.
        mismatches: Vec<(String, String, Value, Value)>,
    },
    /// A conditional write (`if_version`) found the network at another version:
    /// someone changed it since the caller read it. Nothing was changed.
    VersionConflict {
        /// The network's name.
        network: String,
        /// The version the write required.
        expected: u64,
        /// The network's version now.
        current: u64,
    },
    /// A worker completed, released or renewed a task it does not hold: the
    /// task is claimed by another worker, not claimed, or done by another one.
    /// Nothing was changed.
    ClaimNotHeld {
        /// The network's name.
        network: String,
        /// The worker that asked.
        worker: String,
        /// Each task it does not hold: `(node id, the worker holding it if any,
        /// whether it is done)`.
        tasks: Vec<(String, Option<String>, bool)>,
    },
    /// A page was asked for with a cursor made on an earlier version of the
    /// network: its content changed since, so the page could skip or repeat items.
    CursorStale {
        /// The network's name.
        network: String,
        /// The version the cursor was made on.
        made_at: u64,
        /// The network's version now.
        now: u64,
    },
    /// A bug: the call failed inside the server. Nothing is known to have changed.
    Internal {
        /// What failed.
        message: String,
    },
}

/// Whom a message's advice speaks to: a Rust program or an MCP client.
pub(crate) type Advice = fn(&Error) -> Option<String>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(library_advice))
    }
}

impl std::error::Error for Error {}

impl Error {
    /// What was wrong, followed by `advice` on how to fix it, if it has any.
    pub(crate) fn render(&self, advice: Advice) -> String {
        let problem = self.problem(advice);
        match advice(self) {
            Some(advice) => format!("{problem} {advice}"),
            None => problem,
        }
    }

    /// What was wrong, without advice (`advice` renders a batch item's inner error).
    fn problem(&self, advice: Advice) -> String {
        match self {
            Error::InvalidArguments { message, .. } => message.clone(),
            Error::InvalidId { field, reason }
            | Error::InvalidAttributes { field, reason }
            | Error::InvalidValue { field, reason } => format!("invalid {field}: {reason}"),
            Error::InvalidWeight { reason } => format!("invalid weight: {reason}"),
            Error::NetworkNotFound { name, available } if available.is_empty() => {
                format!("network '{name}' not found: no networks exist yet.")
            }
            Error::NetworkNotFound { name, available } => format!(
                "network '{name}' not found. Existing networks: {}.",
                quoted_list(available)
            ),
            Error::NodeNotFound {
                network,
                field,
                node_id,
                suggestions,
            } => {
                let mut message =
                    format!("{field} '{node_id}' not found in {}.", in_network(network));
                if !suggestions.is_empty() {
                    message.push_str(&format!(
                        " Closest existing ids: {}.",
                        quoted_list(suggestions)
                    ));
                }
                message
            }
            Error::NodesNotFound {
                network,
                field,
                node_ids,
                suggestions,
            } => {
                let mut message = format!(
                    "{} ids of {field} are not nodes of {}: {}.",
                    node_ids.len(),
                    in_network(network),
                    quoted_list(node_ids)
                );
                let close: Vec<String> = node_ids
                    .iter()
                    .zip(suggestions)
                    .filter(|(_, close)| !close.is_empty())
                    .map(|(id, close)| {
                        format!(
                            "for '{}': {}",
                            clip(id, MAX_CONTEXT_CHARS),
                            quoted_list(close)
                        )
                    })
                    .take(MAX_LISTED)
                    .collect();
                if !close.is_empty() {
                    message.push_str(&format!(" Closest existing ids, {}.", close.join("; ")));
                }
                message
            }
            Error::EdgeNotFound { network, edge_id } => {
                format!("edge {edge_id} not found in {}.", in_network(network))
            }
            Error::ConfirmationRequired { action } => {
                format!("{action} is destructive and was not performed.")
            }
            Error::CycleDetected { operation, cycle } => format!(
                "the network has a cycle, so {operation} is undefined: {}.",
                format_cycle(cycle)
            ),
            Error::WorkExceeded {
                field,
                operation,
                max_work,
            } => format!(
                "invalid {field}: {operation} takes more than {max_work} steps, too long for one call."
            ),
            Error::NegativeCycle { source_id } => format!(
                "the network has a cycle of negative total weight reachable from '{source_id}', so shortest paths are undefined."
            ),
            Error::WeightOverflow { what, .. } => format!(
                "the total weight of {what} is beyond ±1.7e308, the range of a 64-bit float, so it cannot be computed exactly."
            ),
            Error::InvalidBatchItem {
                field,
                index,
                inner,
            } => format!(
                "item {index} of {field} is invalid, so nothing was applied: {}",
                inner.render(advice)
            ),
            // The hint is the advice (see `library_advice`): the MCP layer words it
            // in tool terms.
            Error::LimitExceeded { what, limit, .. } => {
                format!("{what} would exceed the limit of {limit}. Nothing was changed.")
            }
            Error::ReadOnly { tool } => format!(
                "{tool} changes data, and this server runs in read-only mode (--read-only). Only read tools are available."
            ),
            Error::UnknownTool { name, suggestions } if suggestions.is_empty() => {
                format!("unknown tool '{name}'. Call tools/list to see the available tools.")
            }
            Error::UnknownTool { name, suggestions } => format!(
                "unknown tool '{name}'. Closest tool names: {}. Call tools/list to see all of them.",
                quoted_list(suggestions)
            ),
            Error::ToolNotOffered {
                name,
                toolset,
                toolsets,
            } => format!(
                "tool '{name}' is in the {toolset} toolset, which this server does not offer. Ask its operator to restart it with --toolsets {toolsets} (or NETWORKS_MCP_TOOLSETS), or use the tools that tools/list shows."
            ),
            Error::ImportInvalid {
                format,
                location,
                message,
            } => {
                let at = location
                    .as_deref()
                    .map(|l| format!(" at {l}"))
                    .unwrap_or_default();
                let message = message.trim_end_matches('.');
                format!("could not import {format}{at}: {message}.")
            }
            Error::Cancelled { operation } => format!(
                "the request was cancelled before {operation} was applied; nothing changed. Call it again to run it."
            ),
            Error::DeadlineExceeded {
                operation,
                seconds,
                hint,
            } => format!(
                "{operation} ran past the server's limit of {seconds} s per call and was stopped; nothing changed. {hint}"
            ),
            Error::ServerBusy { queued, .. } => format!(
                "the server is busy: {queued} calls are running or waiting for a compute thread, and the queue is full. Nothing was changed."
            ),
            Error::NetworkBusy { waiting, .. } => format!(
                "the network this call needs is held by a long call, and {waiting} calls already wait for it, the most one network may have waiting; the wait would hold a thread that calls on other networks need. Nothing was changed."
            ),
            Error::StorageFailed { message } => format!(
                "the write was not saved and was not applied: {message}. Reads still work. The server operator must free disk space or fix the data directory, then restart the server."
            ),
            Error::PreconditionFailed {
                network,
                mismatches,
            } => {
                let listed = semicolon_list(mismatches, |(node, key, expected, current)| {
                    format!(
                        "node '{}' has {}: {} (expected {})",
                        clip(node, MAX_CONTEXT_CHARS),
                        clip(key, MAX_CONTEXT_CHARS),
                        clip(&current.to_string(), MAX_CONTEXT_CHARS),
                        clip(&expected.to_string(), MAX_CONTEXT_CHARS)
                    )
                });
                format!(
                    "{} expectation(s) do not hold in {}, so nothing was changed: {listed}.",
                    mismatches.len(),
                    in_network(network),
                )
            }
            Error::VersionConflict {
                network,
                expected,
                current,
            } => format!(
                "{} is at version {current}, not {expected} as if_version requires: it changed since it was read, so nothing was changed.",
                in_network(network)
            ),
            Error::ClaimNotHeld {
                network,
                worker,
                tasks,
            } => {
                let listed = semicolon_list(tasks, |(node, holder, done)| {
                    let node = clip(node, MAX_CONTEXT_CHARS);
                    match (holder, done) {
                        (Some(h), true) => {
                            format!("'{node}' is done (by '{}')", clip(h, MAX_CONTEXT_CHARS))
                        }
                        (None, true) => format!("'{node}' is done"),
                        (Some(h), false) => {
                            format!("'{node}' is claimed by '{}'", clip(h, MAX_CONTEXT_CHARS))
                        }
                        (None, false) => format!("'{node}' is not claimed"),
                    }
                });
                format!(
                    "worker '{}' does not hold {} of the tasks named in {}, so nothing was changed: {listed}.",
                    clip(worker, MAX_CONTEXT_CHARS),
                    tasks.len(),
                    in_network(network),
                )
            }
            Error::CursorStale {
                network,
                made_at,
                now,
            } => format!(
                "the cursor was made on version {made_at} of {}, which has changed since (it is at version {now}), so the next page could skip or repeat items.",
                in_network(network)
            ),
            Error::Internal { message } => format!(
                "internal error: {message}. This is a bug in networks-mcp; please report it."
            ),
        }
    }
}

/// "network 'plan'", or "the network" for an anonymous one.
fn in_network(name: &str) -> String {
    if name.is_empty() {
        "the network".to_string()
    } else {
        format!("network '{name}'")
    }
}

/// How to fix an error with the library's own calls.
fn library_advice(error: &Error) -> Option<String> {
    let advice = match error {
        Error::LimitExceeded { hint, .. } => return Some(hint.clone()),
        Error::NetworkNotFound { available, .. } if available.is_empty() => {
            "Create it first with `NetworkRegistry::create`."
        }
        Error::NetworkNotFound { .. } => {
            "Create it with `NetworkRegistry::create`, or check the name with `NetworkRegistry::names`."
        }
        Error::NodeNotFound { suggestions, .. } if suggestions.is_empty() => {
            "Add it first with `Network::add_node`."
        }
        Error::NodeNotFound { .. } => "Add it first with `Network::add_node` if it is new.",
        Error::NodesNotFound { .. } => {
            "Fix the misspelt ones, and add the new ones first with `Network::add_nodes`."
        }
        Error::EdgeNotFound { .. } => {
            "Edge ids come from `Network::add_edge` or `Network::edges`; it may have been removed."
        }
        Error::ConfirmationRequired { .. } => "Confirm it to proceed.",
        Error::CycleDetected { .. } => {
            "Remove one edge of the cycle (`Network::remove_edge`), or see all of them with `Network::find_cycles`."
        }
        Error::NegativeCycle { .. } => {
            "Use `Weighted::No` to count hops, or make the weights non-negative."
        }
        Error::WorkExceeded { .. } => {
            "Allow more steps (`max_work`), or copy a part with `Network::extract` (`Extract::Induced` or `Extract::Neighborhood`) and ask again on the copy."
        }
        Error::WeightOverflow { hops_possible, .. } => {
            return Some(format!(
                "Rescale the weights (e.g. divide them all by 1e300){}.",
                if *hops_possible {
                    ", or use `Weighted::No` to count hops"
                } else {
                    ""
                }
            ));
        }
        Error::ImportInvalid { .. } => {
            "Fix the document and import it again; nothing was imported."
        }
        Error::CursorStale { .. } => "Start again from the first page.",
        Error::ServerBusy { retry_after_ms, .. } | Error::NetworkBusy { retry_after_ms, .. } => {
            return Some(format!("Try again in {retry_after_ms} ms."));
        }
        Error::ClaimNotHeld { .. } => {
            "Claim tasks first with `Network::claim_ready`; a task whose lease ran out may have gone to another worker."
        }
        Error::VersionConflict { .. } | Error::PreconditionFailed { .. } => {
            "Read the network again, and retry if the change still applies."
        }
        _ => return None,
    };
    Some(advice.to_string())
}

/// At most this many items of a list are named in a message or a context field.
pub const MAX_LISTED: usize = 20;
/// An error message is cut to this many characters.
pub const MAX_MESSAGE_CHARS: usize = 2_000;
/// A string in an error's context is cut to this many characters.
pub const MAX_CONTEXT_CHARS: usize = 300;

/// The first [`MAX_LISTED`] of `items`, each as `describe` says, joined by
/// "; ", then "; and N more" for the rest.
fn semicolon_list<T>(items: &[T], describe: impl Fn(&T) -> String) -> String {
    let mut listed: Vec<String> = items.iter().take(MAX_LISTED).map(describe).collect();
    if items.len() > MAX_LISTED {
        listed.push(format!("and {} more", items.len() - MAX_LISTED));
    }
    listed.join("; ")
}

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
            Error::InvalidValue { .. } | Error::WorkExceeded { .. } => "invalid_value",
            Error::NetworkNotFound { .. } => "network_not_found",
            Error::NodeNotFound { .. } | Error::NodesNotFound { .. } => "node_not_found",
            Error::EdgeNotFound { .. } => "edge_not_found",
            Error::ConfirmationRequired { .. } => "confirmation_required",
            Error::CycleDetected { .. } => "cycle_detected",
            Error::NegativeCycle { .. } => "negative_cycle",
            Error::WeightOverflow { .. } => "weight_overflow",
            Error::InvalidBatchItem { .. } => "invalid_batch_item",
            Error::LimitExceeded { .. } => "limit_exceeded",
            Error::ReadOnly { .. } => "read_only",
            Error::UnknownTool { .. } => "unknown_tool",
            Error::ToolNotOffered { .. } => "tool_not_offered",
            Error::ImportInvalid { .. } => "invalid_import",
            Error::Cancelled { .. } => "cancelled",
            Error::DeadlineExceeded { .. } => "deadline_exceeded",
            Error::ServerBusy { .. } | Error::NetworkBusy { .. } => "server_busy",
            Error::StorageFailed { .. } => "storage_failed",
            Error::CursorStale { .. } => "cursor_stale",
            Error::VersionConflict { .. } => "version_conflict",
            Error::PreconditionFailed { .. } => "precondition_failed",
            Error::ClaimNotHeld { .. } => "claim_not_held",
            Error::Internal { .. } => "internal",
        }
    }

    /// Structured context that helps the caller recover (field names, suggestions...).
    pub fn context(&self) -> Map<String, Value> {
        let value = match self {
            Error::InvalidArguments { field, .. } => json!({ "field": field }),
            Error::InvalidId { field, .. }
            | Error::InvalidAttributes { field, .. }
            | Error::InvalidValue { field, .. }
            | Error::WorkExceeded { field, .. } => json!({ "field": field }),
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
            Error::NodesNotFound {
                network,
                field,
                node_ids,
                suggestions,
            } => {
                // `node_id` and `suggestions` as for one unknown id, for readers that
                // know only that shape; `missing` lists them all (cut to 20 items).
                let missing: Vec<Value> = node_ids
                    .iter()
                    .enumerate()
                    .map(|(k, id)| {
                        json!({ "node_id": id, "suggestions": suggestions.get(k).cloned().unwrap_or_default() })
                    })
                    .collect();
                json!({
                    "network_name": network,
                    "field": field,
                    "node_id": node_ids.first(),
                    "suggestions": suggestions.first().cloned().unwrap_or_default(),
                    "missing": missing,
                })
            }
            Error::EdgeNotFound { network, edge_id } => {
                json!({ "network_name": network, "edge_id": edge_id })
            }
            Error::CycleDetected { cycle, .. } => json!({ "cycle_node_ids": cycle }),
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
            Error::ReadOnly { tool } => json!({ "tool": tool }),
            Error::UnknownTool { name, suggestions } => {
                json!({ "tool": name, "suggestions": suggestions })
            }
            Error::ToolNotOffered {
                name,
                toolset,
                toolsets,
            } => json!({ "tool": name, "toolset": toolset, "toolsets": toolsets }),
            Error::ConfirmationRequired { .. } => json!({ "required": { "confirm": true } }),
            Error::ImportInvalid {
                format, location, ..
            } => json!({ "format": format, "location": location }),
            Error::VersionConflict {
                network,
                expected,
                current,
            } => {
                json!({ "network_name": network, "if_version": expected, "current_version": current })
            }
            Error::PreconditionFailed {
                network,
                mismatches,
            } => json!({
                "network_name": network,
                "mismatches": mismatches
                    .iter()
                    .map(|(node, key, expected, current)| json!({
                        "node_id": node, "attribute": key, "expected": expected, "current": current
                    }))
                    .collect::<Vec<_>>(),
            }),
            Error::ClaimNotHeld {
                network,
                worker,
                tasks,
            } => json!({
                "network_name": network,
                "worker": worker,
                "tasks": tasks
                    .iter()
                    .map(|(node, holder, done)| json!({
                        "node_id": node, "claimed_by": holder, "done": done
                    }))
                    .collect::<Vec<_>>(),
            }),
            Error::CursorStale { made_at, now, .. } => {
                json!({ "field": "cursor", "cursor_version": made_at, "current_version": now })
            }
            Error::DeadlineExceeded { seconds, .. } => json!({ "limit_seconds": seconds }),
            Error::ServerBusy {
                queued,
                retry_after_ms,
            } => json!({ "queued": queued, "retry_after_ms": retry_after_ms }),
            Error::NetworkBusy {
                waiting,
                retry_after_ms,
            } => json!({ "waiting": waiting, "retry_after_ms": retry_after_ms }),
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
