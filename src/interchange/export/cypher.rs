//! Cypher statements for Neo4j and Memgraph (export only), one per line, each ending
//! with `;`.
//!
//! Nodes: `MERGE (n:Node {id: '…'}) SET n.`key` = value, …;` (the node's `data` as
//! JSON text in property `data_json`). Edges:
//! `MATCH (a:Node {id: '…'}), (b:Node {id: '…'}) CREATE (a)-[:`TYPE` {edge_id: 3, weight: 1.5, …}]->(b);`
//! where the relationship type is the edge's `relation` attribute when it is a
//! non-empty string (control characters removed), else `EDGE`. Strings are
//! single-quoted with `\\`, `\'`, `\n`, `\r`, `\t`, `\b`, `\f` and `\uXXXX` escapes;
//! names are backtick-quoted with backticks doubled. Null values are left out (a
//! null property does not exist in Cypher); node attributes named `id` or
//! `data_json` and edge attributes named `edge_id` or `weight` are left out (the
//! format owns those names). Integers beyond the signed 64-bit range are written as
//! floats. For large imports, create an index on `:Node(id)` first.

use std::fmt::Write as _;

use serde_json::Value;

use super::Selection;
use crate::interchange::values;

/// A single-quoted Cypher string literal.
pub(crate) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A backtick-quoted Cypher name.
pub(crate) fn name(text: &str) -> String {
    format!("`{}`", text.replace('`', "``"))
}

/// A Cypher float literal: JSON notation without the `+` of a positive exponent
/// (openCypher's grammar has none: `1e300`, `1e-7`, `2.5`).
fn float(text: String) -> String {
    text.replace("e+", "e")
}

/// A Cypher literal for a scalar (`None` for null).
fn literal(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(string(s)),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_u64() && n.as_i64().is_none() => {
            n.as_f64().map(|f| format!("{f:.1}"))
        }
        Value::Number(n) => Some(float(n.to_string())),
        _ => None,
    }
}

/// The relationship type for an edge.
fn relationship_type(relation: Option<&Value>) -> String {
    let clean = match relation {
        Some(Value::String(s)) => s.chars().filter(|c| !c.is_control()).collect(),
        _ => String::new(),
    };
    if clean.trim().is_empty() {
        "EDGE".to_string()
    } else {
        name(&clean)
    }
}

/// Writes the selection as Cypher. O(size of the output).
pub(crate) fn write(selection: &Selection<'_>) -> String {
    let mut out = String::new();
    for node in &selection.nodes {
        crate::budget::charge(1);
        let mut sets = Vec::new();
        for (key, value) in node.attributes.iter() {
            if key == "id" || key == "data_json" {
                continue;
            }
            if let Some(lit) = literal(value) {
                sets.push(format!("n.{} = {lit}", name(key)));
            }
        }
        if let Some(data) = &node.data {
            sets.push(format!("n.`data_json` = {}", string(&data.to_string())));
        }
        let _ = write!(out, "MERGE (n:Node {{id: {}}})", string(&node.id));
        if !sets.is_empty() {
            let _ = write!(out, " SET {}", sets.join(", "));
        }
        out.push_str(";\n");
    }
    for edge in &selection.edges {
        crate::budget::charge(1);
        let mut props = vec![
            format!("edge_id: {}", edge.id),
            format!("weight: {}", float(values::weight_text(edge.weight))),
        ];
        for (key, value) in edge.attributes.iter() {
            if key == "edge_id" || key == "weight" {
                continue;
            }
            if let Some(lit) = literal(value) {
                props.push(format!("{}: {lit}", name(key)));
            }
        }
        let _ = writeln!(
            out,
            "MATCH (a:Node {{id: {}}}), (b:Node {{id: {}}}) CREATE (a)-[:{} {{{}}}]->(b);",
            string(edge.source),
            string(edge.target),
            relationship_type(edge.attributes.get("relation")),
            props.join(", ")
        );
    }
    out
}
