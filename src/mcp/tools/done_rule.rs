//! One rule for "done", shared by every tool that decides what is ready,
//! blocked, left or finished: a node is done when it has every attribute value
//! of `done_attributes` (by default `{"status": "done"}`, the value the work
//! tools set when a task is completed), or when the call lists it in `done`;
//! and a parent (a node that other nodes name in their `parent` attribute)
//! waits for its children. Each reply names the rule it used (`done_rule`), and
//! warns when the data seems to follow another one.

use std::collections::BTreeMap;

use petgraph::stable_graph::NodeIndex;
use serde_json::{Map, Value};

use crate::network::Network;
use crate::network::work::WorkAttributes;
use crate::warnings::{WarningCode, warn};

/// The attributes that usually hold a task's state, checked besides the rule's own keys.
const STATE_KEYS: [&str; 2] = ["status", "state"];

/// State values that mean finished in the trackers agents import from
/// (compared without case).
const FINISHED_WORDS: [&str; 13] = [
    "done",
    "closed",
    "complete",
    "completed",
    "finished",
    "resolved",
    "merged",
    "shipped",
    "fixed",
    "cancelled",
    "canceled",
    "deployed",
    "released",
];

/// The default attribute values of a done task: `{"status": "done"}`.
pub fn default_done() -> Map<String, Value> {
    WorkAttributes::default().done
}

/// The default attribute naming a task's parent: `"parent"`.
pub fn default_parent() -> String {
    WorkAttributes::default().parent
}

/// The rule in words, for a reply's `done_rule`: e.g. `status = "done", or
/// listed in done; a parent waits for its children (attribute "parent")`.
pub fn describe(
    done_attributes: &Map<String, Value>,
    listed: bool,
    parent: Option<&str>,
) -> String {
    let mut rule = if done_attributes.is_empty() {
        String::new()
    } else {
        done_attributes
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    if listed {
        rule = match rule.is_empty() {
            true => "listed in done".to_string(),
            false => format!("{rule}, or listed in done"),
        };
    }
    if rule.is_empty() {
        rule = "nothing is done".to_string();
    }
    match parent {
        Some(parent) => {
            format!("{rule}; a parent waits for its children (attribute \"{parent}\")")
        }
        None => rule,
    }
}

/// Whether a node's value under a state key looks finished.
fn looks_finished(value: &Value) -> bool {
    value.as_str().is_some_and(|text| {
        FINISHED_WORDS
            .iter()
            .any(|w| w.eq_ignore_ascii_case(text.trim()))
    })
}

/// Warns ([`WarningCode::DoneRule`]) when nodes that the rule does not count as
/// done carry a state value that looks finished (`status: "closed"` under the
/// default rule `status = "done"`): the reply would otherwise call finished work
/// ready or blocking, in silence. `nodes` are the nodes to look at (all of them,
/// or those a reply lists); `is_done` tells which the rule counts as done. Only
/// for the default rule: a rule the caller wrote is taken as meant (its values
/// that match nothing are warned about elsewhere). O(|nodes|), uncharged: a
/// write calls it after its change, on the few nodes its reply lists.
pub fn warn_finished_not_done(
    net: &Network,
    done_attributes: &Map<String, Value>,
    nodes: impl IntoIterator<Item = NodeIndex>,
    is_done: impl Fn(NodeIndex) -> bool,
) {
    if !crate::warnings::collecting() {
        return;
    }
    let keys: Vec<&str> = STATE_KEYS
        .iter()
        .copied()
        .chain(done_attributes.keys().map(String::as_str))
        .collect();
    // (key, value text) -> (how many nodes, the first few ids).
    let mut finished: BTreeMap<(String, String), (usize, Vec<String>)> = BTreeMap::new();
    for v in nodes {
        if is_done(v) {
            continue;
        }
        let Some(node) = net.graph().node_weight(v) else {
            continue;
        };
        for key in &keys {
            if let Some(value) = node.attributes.get(key)
                && looks_finished(value)
            {
                let text = value.as_str().unwrap_or_default().to_string();
                let entry = finished.entry((key.to_string(), text)).or_default();
                entry.0 += 1;
                if entry.1.len() < 3 {
                    entry.1.push(net.id_at(v).to_string());
                }
                break;
            }
        }
    }
    let rule = describe(done_attributes, false, None);
    for ((key, value), (count, examples)) in finished.into_iter().take(3) {
        let examples = examples
            .iter()
            .map(|id| format!("\"{id}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let nodes = if count == 1 { "node" } else { "nodes" };
        warn(
            WarningCode::DoneRule,
            format!(
                "{count} {nodes} not counted as done have {key} = \"{value}\" (e.g. {examples}), which looks finished; the done rule here is: {rule}. If they are done, pass done_attributes {{\"{key}\": \"{value}\"}}."
            ),
        );
    }
}

/// [`warn_finished_not_done`] over every node, for the default rule or none;
/// for a rule the caller gave, warnings about its keys and values that no node
/// has. O(V), charged: for reads.
pub fn check_rule_against_data(
    net: &Network,
    done_attributes: &Map<String, Value>,
    is_done: impl Fn(NodeIndex) -> bool,
) {
    if !crate::warnings::collecting() {
        return;
    }
    // No attribute rule at all (only listed ids) is checked like the default:
    // nodes that say they are finished would otherwise count as not done.
    if *done_attributes == default_done() || done_attributes.is_empty() {
        let every_node = net.graph().node_indices().enumerate().map(|(n, v)| {
            if n % 1024 == 1023 {
                crate::budget::charge(1024);
            }
            v
        });
        warn_finished_not_done(net, done_attributes, every_node, is_done);
    } else {
        super::unmatched::warn_unmatched_attributes(net, "done_attributes", done_attributes);
    }
}
