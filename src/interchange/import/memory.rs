//! Reads the knowledge graph of the MCP memory server
//! (`@modelcontextprotocol/server-memory`, `memory.jsonl`): one JSON object a line,
//!
//! ```text
//! {"type":"entity","name":"Ada","entityType":"person","observations":["wrote the notes"]}
//! {"type":"relation","from":"Ada","to":"Engine","relationType":"described"}
//! ```
//!
//! An entity is a node: `name` its id, `entityType` the attribute `entity_type`,
//! `observations` (a list) the node's `data` as `{"observations": [...]}`, since
//! attributes are flat scalars. A relation is an edge `from → to` with the
//! attribute `relation` = `relationType`. Lines of any other `type` are skipped,
//! as the memory server skips them. O(size of the document).

use serde_json::{Map, Value};

use super::plans::{self, RELATION};
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph};
use crate::network::{EdgeSpec, NodeSpec};

const FORMAT: Format = Format::MemoryJsonl;

/// Parses a memory server JSONL document. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut graph = ImportedGraph::default();
    for (line, text) in plans::lines(content) {
        crate::budget::charge(1);
        let Value::Object(mut object) = plans::json(FORMAT, text, line)? else {
            return Err(plans::field_error(
                FORMAT,
                format!("line {line}, column 1"),
                "each line must be a JSON object with \"type\" \"entity\" or \"relation\"",
            ));
        };
        let at = |field: &str| format!("line {line}, field \"{field}\"");
        let text_field = |object: &mut Map<String, Value>, field: &str| -> Result<String> {
            match object.shift_remove(field) {
                Some(value) => plans::id_text(&value).ok_or_else(|| {
                    plans::field_error(FORMAT, at(field), format!("\"{field}\" must be a string"))
                }),
                None => Err(plans::field_error(
                    FORMAT,
                    at(field),
                    format!("the line has no \"{field}\"; add it, or remove the line"),
                )),
            }
        };
        match object.get("type").and_then(Value::as_str) {
            Some("entity") => {
                let name = text_field(&mut object, "name")?;
                let mut attributes = Map::new();
                match object.shift_remove("entityType") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) => {
                        attributes.insert("entity_type".into(), Value::String(s));
                    }
                    Some(_) => {
                        return Err(plans::field_error(
                            FORMAT,
                            at("entityType"),
                            "\"entityType\" must be a string",
                        ));
                    }
                }
                let data = match object.shift_remove("observations") {
                    None | Some(Value::Null) => None,
                    Some(Value::Array(items)) => {
                        let mut data = Map::new();
                        data.insert("observations".into(), Value::Array(items));
                        Some(Value::Object(data))
                    }
                    Some(_) => {
                        return Err(plans::field_error(
                            FORMAT,
                            at("observations"),
                            "\"observations\" must be an array of strings",
                        ));
                    }
                };
                meter.node(&name, &attributes, data.as_ref(), || {
                    format!("at line {line}")
                })?;
                graph.nodes.push(NodeSpec {
                    id: name,
                    data,
                    attributes,
                });
            }
            Some("relation") => {
                let source = text_field(&mut object, "from")?;
                let target = text_field(&mut object, "to")?;
                let mut attributes = Map::new();
                match object.shift_remove("relationType") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) => {
                        attributes.insert(RELATION.into(), Value::String(s));
                    }
                    Some(_) => {
                        return Err(plans::field_error(
                            FORMAT,
                            at("relationType"),
                            "\"relationType\" must be a string",
                        ));
                    }
                }
                meter.edge(&source, &target, &attributes, || format!("at line {line}"))?;
                graph.edges.push(EdgeSpec {
                    source,
                    target,
                    weight: crate::network::DEFAULT_WEIGHT,
                    attributes,
                });
            }
            _ => {}
        }
    }
    Ok(graph)
}
