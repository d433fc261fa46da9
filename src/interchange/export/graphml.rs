//! GraphML (namespace `http://graphml.graphdrawing.org/xmlns`), directed, with typed
//! keys as `networkx.write_graphml` writes them, so NetworkX, yEd, Gephi and igraph
//! read it and types survive the trip.
//!
//! Keys: one per (domain, attribute name, type), type `boolean`, `long`, `double` or
//! `string`, ids `d0`, `d1`, … in order of first use (graph, then nodes, then edges);
//! an attribute holding an integer on one node and a string on another gets two keys
//! with the same `attr.name`. Fixed keys: `description` (graph, string), `weight`
//! (edge, double) and `data_json` (node, string, `attr.name="data"`: the node's
//! `data` as JSON text; the key id is what tells the importer to decode it).
//! Null values cannot be written and are left out; an edge attribute named `weight`
//! is left out (the edge weight owns that name). Characters XML 1.0 forbids
//! (control characters other than tab, newline and carriage return; U+FFFE, U+FFFF)
//! are written as U+FFFD.

use std::fmt::Write as _;

use hashbrown::HashMap;
use quick_xml::escape::escape;
use serde_json::Value;

use super::Selection;
use crate::interchange::values;
use crate::network::{Attributes, Network};

/// The key id of the node `data` payload (JSON text).
pub(crate) const DATA_KEY: &str = "data_json";
/// The key id of the edge weight.
pub(crate) const WEIGHT_KEY: &str = "weight";
/// The key id of the graph description.
pub(crate) const DESCRIPTION_KEY: &str = "description";

/// The GraphML type of a scalar (`None` for null).
fn type_of(value: &Value) -> Option<&'static str> {
    match value {
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_f64() => Some("double"),
        Value::Number(_) => Some("long"),
        Value::String(_) => Some("string"),
        _ => None,
    }
}

/// The attribute keys in order of first use.
#[derive(Default)]
struct Keys {
    /// (domain, name, type) → key id.
    ids: HashMap<(&'static str, String, &'static str), String>,
    /// Declarations in order: (id, domain, name, type).
    order: Vec<(String, &'static str, String, &'static str)>,
}

impl Keys {
    fn collect(&mut self, domain: &'static str, attributes: &Attributes, skip: &[&str]) {
        for (name, value) in attributes.iter() {
            let Some(kind) = type_of(value) else { continue };
            if skip.contains(&name) {
                continue;
            }
            let entry = (domain, name.to_string(), kind);
            if !self.ids.contains_key(&entry) {
                let id = format!("d{}", self.order.len());
                self.order
                    .push((id.clone(), domain, name.to_string(), kind));
                self.ids.insert(entry, id);
            }
        }
    }

    fn id(&self, domain: &'static str, name: &str, kind: &'static str) -> Option<&str> {
        self.ids
            .get(&(domain, name.to_string(), kind))
            .map(String::as_str)
    }
}

/// Replaces the characters XML 1.0 cannot carry by U+FFFD, then escapes markup with
/// quick-xml (which also writes carriage returns as `&#13;`, since a parser would
/// turn a raw one into a newline).
pub(crate) fn xml_text(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c.is_control() && (c as u32) < 0x20 => '\u{FFFD}',
            '\u{FFFE}' | '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect();
    escape(clean.as_str()).into_owned()
}

/// Like [`xml_text`], for attribute values: tabs and newlines become character
/// references, since attribute-value normalisation would turn them into spaces.
fn xml_attr(text: &str) -> String {
    xml_text(text).replace('\t', "&#9;").replace('\n', "&#10;")
}

/// Writes the selection as GraphML. O(size of the output).
pub(crate) fn write(network: &Network, selection: &Selection<'_>) -> String {
    let mut keys = Keys::default();
    for node in &selection.nodes {
        keys.collect("node", &node.attributes, &[]);
    }
    for edge in &selection.edges {
        keys.collect("edge", edge.attributes, &[WEIGHT_KEY]);
    }
    let has_data = selection.nodes.iter().any(|n| n.data.is_some());

    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<!-- networks-mcp export: an edge source=A target=B means A depends on B -->\n");
    out.push_str(
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns \
         http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
    );
    if network.description().is_some() {
        let _ = writeln!(
            out,
            "  <key id=\"{DESCRIPTION_KEY}\" for=\"graph\" attr.name=\"description\" attr.type=\"string\"/>"
        );
    }
    if has_data {
        let _ = writeln!(
            out,
            "  <key id=\"{DATA_KEY}\" for=\"node\" attr.name=\"data\" attr.type=\"string\"><desc>JSON text of the node's data</desc></key>"
        );
    }
    for (id, domain, name, kind) in &keys.order {
        let _ = writeln!(
            out,
            "  <key id=\"{id}\" for=\"{domain}\" attr.name=\"{}\" attr.type=\"{kind}\"/>",
            xml_attr(name)
        );
    }
    if !selection.edges.is_empty() {
        let _ = writeln!(
            out,
            "  <key id=\"{WEIGHT_KEY}\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"><default>1.0</default></key>"
        );
    }
    let _ = writeln!(
        out,
        "  <graph id=\"{}\" edgedefault=\"directed\">",
        xml_attr(if network.name().is_empty() {
            "G"
        } else {
            network.name()
        })
    );
    if let Some(description) = network.description() {
        let _ = writeln!(
            out,
            "    <data key=\"{DESCRIPTION_KEY}\">{}</data>",
            xml_text(description)
        );
    }
    for node in &selection.nodes {
        crate::budget::charge(1);
        let _ = write!(out, "    <node id=\"{}\">", xml_attr(&node.id));
        write_data(&mut out, &keys, "node", &node.attributes, &[]);
        if let Some(data) = &node.data {
            let _ = write!(
                out,
                "<data key=\"{DATA_KEY}\">{}</data>",
                xml_text(&data.to_string())
            );
        }
        out.push_str("</node>\n");
    }
    for edge in &selection.edges {
        crate::budget::charge(1);
        let _ = write!(
            out,
            "    <edge id=\"{}\" source=\"{}\" target=\"{}\"><data key=\"{WEIGHT_KEY}\">{}</data>",
            edge.id,
            xml_attr(edge.source),
            xml_attr(edge.target),
            values::weight_text(edge.weight)
        );
        write_data(&mut out, &keys, "edge", edge.attributes, &[WEIGHT_KEY]);
        out.push_str("</edge>\n");
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}

fn write_data(
    out: &mut String,
    keys: &Keys,
    domain: &'static str,
    attributes: &Attributes,
    skip: &[&str],
) {
    for (name, value) in attributes.iter() {
        if skip.contains(&name) {
            continue;
        }
        let (Some(kind), Some(text)) = (type_of(value), values::scalar_text(value)) else {
            continue;
        };
        if let Some(id) = keys.id(domain, name, kind) {
            let _ = write!(out, "<data key=\"{id}\">{}</data>", xml_text(&text));
        }
    }
}
