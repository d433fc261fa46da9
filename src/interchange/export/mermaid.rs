//! A Mermaid `flowchart LR` for a quick picture, which the Mermaid reader reads
//! back exactly (ids, edges, weights, `relation`).
//!
//! The first line is the comment `%% networks-mcp export: A --> B means A
//! depends on B`, which Mermaid ignores: it tells a reader that an arrow points
//! from a node to what it depends on (the network's edges as they are, not the
//! flowchart convention of "A comes before B"), and our reader takes it as the
//! sign that labels are ids and that the edges are to be read that way. Nodes get generated ids
//! `n0`, `n1`, … (in output order), so reserved words such as `end` and any
//! characters in the real ids are harmless; the real id is the label,
//! `n0["label"]`, escaped with Mermaid entity codes (`#quot;` for `"`, `#35;` for
//! `#`, `#amp;`, `#lt;`, `#gt;`, `#96;` for a backtick, `#124;` for `|`, `#NN;` for
//! control characters such as newlines and for `ﬂ` and `¶`, which Mermaid's own
//! entity placeholders use). An edge is `n0 --> n1`, labelled `-->|"…"|` with its
//! `relation` attribute when that is a non-empty string, else with its weight when
//! the weight is not 1; with both, `relation (weight)`. In a relation, `(` is
//! written `#40;`, and a relation that reads as a number has its first character
//! written as a code, so that the three forms never look alike.

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
            c if c.is_control() || c == '\u{FB02}' || c == '\u{B6}' => {
                let _ = write!(out, "#{};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Writes the selection as a Mermaid flowchart. O(size of the output).
pub(crate) fn write(selection: &Selection<'_>) -> String {
    let mut out = format!(
        "{}\nflowchart LR\n",
        crate::interchange::import::mermaid::EXPORT_MARK
    );
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
            Some(Value::String(s)) if !s.is_empty() => Some(relation_text(s)),
            _ => None,
        };
        let label = match (relation, edge.weight != 1.0) {
            (Some(r), true) => Some(format!("{r} ({})", escape(&shown(edge.weight)))),
            (Some(r), false) => Some(r),
            (None, true) => Some(escape(&shown(edge.weight))),
            (None, false) => None,
        };
        match label {
            Some(label) => {
                let _ = writeln!(out, "  n{a} -->|\"{label}\"| n{b}");
            }
            None => {
                let _ = writeln!(out, "  n{a} --> n{b}");
            }
        }
    }
    out
}

/// A relation, escaped for an edge label: as [`escape`], and `(` as `#40;`; a
/// relation that reads as a number has its first character as a code.
fn relation_text(relation: &str) -> String {
    let mut out = String::with_capacity(relation.len());
    let numeric = relation.parse::<f64>().is_ok();
    for (i, c) in relation.chars().enumerate() {
        if c == '(' || (i == 0 && numeric) {
            let _ = write!(out, "#{};", c as u32);
        } else {
            out.push_str(&escape(c.encode_utf8(&mut [0; 4])));
        }
    }
    out
}

/// A weight as a person reads it on a diagram: `3` rather than `3.0`.
fn shown(weight: f64) -> String {
    let text = values::weight_text(weight);
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}
