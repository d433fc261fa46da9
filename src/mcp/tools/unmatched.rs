//! Warnings for filters that match nothing: an attribute key no node has, a
//! value no node has under its key, a label no task carries, a sort key that
//! orders nothing. Each is a success with an empty (or unfiltered) answer that an
//! agent would otherwise take for the truth.
//!
//! Every check is one pass over the nodes, charged to the call's budget, and runs
//! only when the call collects warnings ([`crate::warnings::collecting`]).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::network::{Network, TASK_LABELS, TaskOrder, TaskSelection};
use crate::warnings::{WarningCode, closest, list_names, warn};

/// The most distinct keys, or values of one key, a scan remembers to name them.
const MAX_NAMES_SCANNED: usize = 1_000;

/// What one scan over the nodes found for a set of asked keys.
#[derive(Default)]
struct Seen {
    /// Every key some node has (up to [`MAX_NAMES_SCANNED`]).
    keys: BTreeSet<String>,
    /// Per asked key: the values nodes hold under it (up to the bound), as JSON text.
    values: BTreeMap<String, BTreeSet<String>>,
    /// Per asked key: how many nodes have it.
    holders: BTreeMap<String, usize>,
}

fn scan(net: &Network, asked: &[&str]) -> Seen {
    // A set: a filter may name many keys, and every attribute of every node asks it.
    let asked: std::collections::HashSet<&str> = asked.iter().copied().collect();
    let mut seen = Seen::default();
    for (n, node) in net.graph().node_weights().enumerate() {
        if n % 1024 == 1023 {
            crate::budget::charge(1024);
        }
        for (key, value) in node.attributes.iter() {
            crate::budget::charge(1);
            if seen.keys.len() < MAX_NAMES_SCANNED && !seen.keys.contains(key) {
                seen.keys.insert(key.to_string());
            }
            if asked.contains(&key) {
                match seen.holders.get_mut(key) {
                    Some(count) => *count += 1,
                    None => {
                        seen.holders.insert(key.to_string(), 1);
                    }
                }
                let values = seen.values.entry(key.to_string()).or_default();
                if values.len() < MAX_NAMES_SCANNED {
                    values.insert(value.to_string());
                }
            }
        }
    }
    seen
}

/// A value as a warning shows it: a string bare, anything else as JSON.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Warns about each key of `filter` (the parameter `field`) that no node has,
/// and each value that no node has under a key some nodes have.
pub fn warn_unmatched_attributes(net: &Network, field: &str, filter: &Map<String, Value>) {
    if filter.is_empty() || !crate::warnings::collecting() {
        return;
    }
    let asked: Vec<&str> = filter.keys().map(String::as_str).collect();
    let seen = scan(net, &asked);
    for (key, wanted) in filter {
        warn_value(&seen, field, key, wanted);
    }
}

fn warn_value(seen: &Seen, field: &str, key: &str, wanted: &Value) {
    let Some(values) = seen.values.get(key) else {
        warn_key(seen, field, key);
        return;
    };
    // Values compare as JSON: the number 1 and the string "1" differ, as they
    // do in the filter itself.
    if values.contains(&wanted.to_string()) {
        return;
    }
    let nearest = closest(&value_text(wanted), values.iter().map(|v| bare(v)))
        .map(|n| format!(" Did you mean \"{n}\"?"))
        .unwrap_or_default();
    let typed = if values.iter().any(|v| bare(v) == value_text(wanted)) {
        " (the same text with another JSON type: a string against a number or boolean)"
    } else {
        ""
    };
    warn(
        WarningCode::UnknownValue,
        format!(
            "{field} asks {key} = {wanted}, a value no node has{typed}, so it matches nothing.{nearest} Values of \"{key}\" here: {}.",
            list_names(values.iter().map(|v| bare(v)))
        ),
    );
}

/// A value's JSON text without a string's quotes.
fn bare(json: &str) -> &str {
    json.strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
        .unwrap_or(json)
}

fn warn_key(seen: &Seen, field: &str, key: &str) {
    let nearest = closest(key, seen.keys.iter().map(String::as_str))
        .map(|n| format!(" Did you mean \"{n}\"?"))
        .unwrap_or_default();
    warn(
        WarningCode::UnknownAttribute,
        format!(
            "{field} names the attribute \"{key}\", which no node has, so it matches nothing.{nearest} Node attributes here: {}.",
            list_names(seen.keys.iter().map(String::as_str))
        ),
    );
}

/// Warns about the parts of a ready-task selection that match nothing: its
/// attribute values, its labels, and a priority attribute no node has (the
/// order then falls back to impact, then insertion, without a word otherwise).
pub fn warn_unmatched_selection(net: &Network, selection: &TaskSelection) {
    if !crate::warnings::collecting() {
        return;
    }
    let priority = match &selection.order {
        TaskOrder::Priority(key) => Some(key.as_str()),
        _ => None,
    };
    let mut asked: Vec<&str> = selection
        .filter
        .attributes
        .keys()
        .map(String::as_str)
        .collect();
    asked.extend(priority);
    if !selection.filter.labels.is_empty() {
        asked.push(TASK_LABELS);
    }
    if asked.is_empty() {
        return;
    }
    let seen = scan(net, &asked);
    for (key, wanted) in &selection.filter.attributes {
        warn_value(&seen, "match_attributes", key, wanted);
    }
    if let Some(key) = priority
        && !seen.holders.contains_key(key)
    {
        let nearest = closest(key, seen.keys.iter().map(String::as_str))
            .map(|n| format!(" Did you mean \"{n}\"? Pass it as priority_attribute."))
            .unwrap_or_default();
        warn(
            WarningCode::UnknownAttribute,
            format!(
                "No node has the priority attribute \"{key}\", so the order is by impact, then insertion.{nearest}"
            ),
        );
    }
    if !selection.filter.labels.is_empty() {
        let carried: BTreeSet<&str> = seen
            .values
            .get(TASK_LABELS)
            .into_iter()
            .flatten()
            .flat_map(|text| bare(text).split(','))
            .map(str::trim)
            .filter(|label| !label.is_empty())
            .collect();
        for label in &selection.filter.labels {
            let label = label.trim();
            if carried.contains(label) {
                continue;
            }
            let nearest = closest(label, carried.iter().copied())
                .map(|n| format!(" Did you mean \"{n}\"?"))
                .unwrap_or_default();
            warn(
                WarningCode::UnknownValue,
                format!(
                    "labels asks for \"{label}\", a label no task carries in its \"{TASK_LABELS}\" attribute, so it matches nothing.{nearest} Labels here: {}.",
                    list_names(carried.iter().copied())
                ),
            );
        }
    }
}

/// Warns about each attribute name in `names` (the parameter `field`) that no
/// node has: a search in it finds nothing there.
pub fn warn_unknown_keys(net: &Network, field: &str, names: &[String]) {
    if names.is_empty() || !crate::warnings::collecting() {
        return;
    }
    let asked: Vec<&str> = names.iter().map(String::as_str).collect();
    let seen = scan(net, &asked);
    for key in names {
        if !seen.holders.contains_key(key.as_str()) {
            warn_key(&seen, field, key);
        }
    }
}

/// Warns that no node has the parent attribute `key` (the parameter
/// `parent_attribute`, or its default): an answer "by epic" is then the
/// answer by task.
pub fn warn_no_parents(net: &Network, key: &str) {
    if !crate::warnings::collecting() {
        return;
    }
    let seen = scan(net, &[key]);
    if seen.holders.contains_key(key) {
        return;
    }
    let nearest = closest(key, seen.keys.iter().map(String::as_str))
        .map(|n| format!(" Did you mean \"{n}\"? Pass it as parent_attribute."))
        .unwrap_or_default();
    warn(
        WarningCode::UnknownAttribute,
        format!(
            "No node has the parent attribute \"{key}\", so every node is its own epic and level \"epics\" answers as level \"tasks\".{nearest}"
        ),
    );
}
