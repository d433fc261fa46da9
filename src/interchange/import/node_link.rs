//! Reads NetworkX node-link JSON: our own export, and what
//! `networkx.node_link_data(G, edges="edges")` (or the older `"links"` key) writes.
//!
//! `directed` and `multigraph` may be true or false (undirected edges are read as
//! `source → target`; `key` is ignored). Node ids and edge endpoints may be strings
//! or numbers (a number becomes its decimal text, `1` → `"1"`). A node's `data` key
//! is its payload (any JSON; `null` means none); an edge's `weight` must be a number
//! (absent: 1.0). Every other key is an attribute and must be a scalar (string,
//! number, boolean or null); an array or object is an error naming its path.
//! `graph.description`, when a string, is the description.
//!
//! An integer past 64 bits (below −2^63 or above 2^64 − 1) keeps its exact
//! decimal text: as an id it is that text, as an attribute value or inside
//! `data` a string holding it; as a weight it is the nearest float, as every
//! weight is ([`values::parse_json_exact`]).

use serde_json::{Map, Value};

use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph, invalid, values};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::NodeLinkJson;

fn error(path: String, message: impl Into<String>) -> crate::Error {
    invalid(FORMAT, Some(path), message)
}

/// Parses node-link JSON. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let (document, quoted) = values::parse_json_exact(content).map_err(|e| {
        invalid(
            FORMAT,
            Some(format!("line {}, column {}", e.line(), e.column())),
            format!("not valid JSON: {e}"),
        )
    })?;
    let Value::Object(mut root) = document else {
        return Err(invalid(
            FORMAT,
            None,
            "the document must be a JSON object with \"nodes\" and \"edges\" arrays",
        ));
    };
    let description = match root.get("graph") {
        Some(Value::Object(graph)) => match graph.get("description") {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    };
    let nodes = match root.remove("nodes") {
        Some(Value::Array(items)) => items,
        Some(_) => return Err(error("nodes".into(), "\"nodes\" must be an array")),
        None => {
            return Err(error(
                "nodes".into(),
                "the \"nodes\" array is missing; node-link JSON needs \"nodes\" (and \"edges\" or \"links\")",
            ));
        }
    };
    let (edges_key, edges) = match (root.remove("edges"), root.remove("links")) {
        (Some(edges), _) => ("edges", edges),
        (None, Some(links)) => ("links", links),
        (None, None) => ("edges", Value::Array(Vec::new())),
    };
    let Value::Array(edges) = edges else {
        return Err(error(
            edges_key.into(),
            format!("\"{edges_key}\" must be an array"),
        ));
    };

    let mut graph = ImportedGraph {
        description,
        nodes: Vec::with_capacity(nodes.len()),
        edges: Vec::with_capacity(edges.len()),
        ..ImportedGraph::default()
    };
    for (i, item) in nodes.into_iter().enumerate() {
        crate::budget::charge(1);
        let Value::Object(mut object) = item else {
            return Err(error(
                format!("nodes[{i}]"),
                "each node must be an object with an \"id\"",
            ));
        };
        let id = match object.shift_remove("id") {
            Some(value) => id_text(&value).ok_or_else(|| {
                error(
                    format!("nodes[{i}].id"),
                    "a node id must be a string or a number",
                )
            })?,
            None => return Err(error(format!("nodes[{i}].id"), "the node has no \"id\"")),
        };
        let data = object.shift_remove("data").filter(|d| !d.is_null());
        let attributes = scalars(object, &format!("nodes[{i}]"))?;
        meter.node(&id, &attributes, data.as_ref(), || format!("at nodes[{i}]"))?;
        graph.nodes.push(NodeSpec {
            id,
            data,
            attributes,
        });
    }
    for (i, item) in edges.into_iter().enumerate() {
        crate::budget::charge(1);
        let path = format!("{edges_key}[{i}]");
        let Value::Object(mut object) = item else {
            return Err(error(
                path,
                "each edge must be an object with \"source\" and \"target\"",
            ));
        };
        let mut end = |field: &str| -> Result<String> {
            match object.shift_remove(field) {
                Some(value) => id_text(&value).ok_or_else(|| {
                    error(
                        format!("{path}.{field}"),
                        format!("\"{field}\" must be a string or a number"),
                    )
                }),
                None => Err(error(
                    format!("{path}.{field}"),
                    format!("the edge has no \"{field}\""),
                )),
            }
        };
        let source = end("source")?;
        let target = end("target")?;
        object.shift_remove("key");
        let weight = match object.shift_remove("weight") {
            None | Some(Value::Null) => DEFAULT_WEIGHT,
            Some(Value::Number(n)) => n.as_f64().unwrap_or(DEFAULT_WEIGHT),
            // An integer past 64 bits that the reader quoted: a weight is a float.
            Some(Value::String(s)) if quoted && values::is_big_integer(&s) => {
                values::parse_weight(&s).ok_or_else(|| {
                    error(
                        format!("{path}.weight"),
                        "\"weight\" must be a finite number",
                    )
                })?
            }
            Some(_) => {
                return Err(error(
                    format!("{path}.weight"),
                    "\"weight\" must be a number",
                ));
            }
        };
        let attributes = scalars(object, &path)?;
        meter.edge(&source, &target, &attributes, || format!("at {path}"))?;
        graph.edges.push(EdgeSpec {
            source,
            target,
            weight,
            attributes,
        });
    }
    Ok(graph)
}

/// A node id from JSON: a string as it is, a number as its decimal text.
fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Checks that every remaining key holds a scalar.
fn scalars(object: Map<String, Value>, path: &str) -> Result<Map<String, Value>> {
    for (key, value) in &object {
        let kind = match value {
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            _ => continue,
        };
        return Err(error(
            format!("{path}.{key}"),
            format!(
                "attribute '{key}' is {kind}; attributes must be strings, numbers, booleans or null (only a node's \"data\" may hold nested JSON). Flatten it or move it into the node's \"data\""
            ),
        ));
    }
    Ok(object)
}
