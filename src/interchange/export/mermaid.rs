//! A Mermaid `flowchart LR` for a quick picture (export only).
//!
//! Nodes get generated ids `n0`, `n1`, … (in output order), so reserved words such
//! as `end` and any characters in the real ids are harmless; the real id is the
//! label, `n0["label"]`, escaped with Mermaid entity codes (`#quot;` for `"`,
//! `#35;` for `#`, `#amp;`, `#lt;`, `#gt;`, `#96;` for a backtick, `#124;` for `|`,
//! `#NN;` for control characters such as newlines). An edge is `n0 --> n1`, labelled
//! `-->|"…"|` with its `relation` attribute when that is a string, else with its
//! weight when the weight is not 1; with both, `relation (weight)`.

use std::fmt::Write as _;

use hashbrown::HashMap;
use serde_json::Value;

use super::Selection;
use crate::interchange::values;

/// Escapes label text with Mermaid entity codes.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '&' => out.push_str("#amp;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '`' => out.push_str("#96;"),
            '|' => out.push_str("#124;"),
            c if c.is_control() => {
                let _ = write!(out, "#{};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Writes the selection as a Mermaid flowchart. O(size of the output).
pub(crate) fn write(selection: &Selection<'_>) -> String {
    let mut out = String::from("flowchart LR\n");
    let mut short: HashMap<&str, usize> = HashMap::default();
    for (i, node) in selection.nodes.iter().enumerate() {
        crate::budget::charge(1);
        short.insert(&node.id, i);
        let _ = writeln!(out, "  n{i}[\"{}\"]", escape(&node.id));
    }
    for edge in &selection.edges {
        crate::budget::charge(1);
        let (Some(a), Some(b)) = (short.get(edge.source), short.get(edge.target)) else {
            continue;
        };
        let relation = match edge.attributes.get("relation") {
            Some(Value::String(s)) => Some(s.as_str()),
            _ => None,
        };
        let label = match (relation, edge.weight != 1.0) {
            (Some(r), true) => Some(format!("{r} ({})", shown(edge.weight))),
            (Some(r), false) => Some(r.to_string()),
            (None, true) => Some(shown(edge.weight)),
            (None, false) => None,
        };
        match label {
            Some(label) => {
                let _ = writeln!(out, "  n{a} -->|\"{}\"| n{b}", escape(&label));
            }
            None => {
                let _ = writeln!(out, "  n{a} --> n{b}");
            }
        }
    }
    out
}

/// A weight as a person reads it on a diagram: `3` rather than `3.0`.
fn shown(weight: f64) -> String {
    let text = values::weight_text(weight);
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}
