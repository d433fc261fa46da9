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
//!
//! The document is read line by line into an [`ItemSink`], so a new network
//! takes each item as it is read. A relation is stored at once when no later
//! line can be an entity (the memory server writes its entities first), and
//! waits for the last one otherwise, so that an endpoint is made plain only
//! when no entity of the document names it.

use serde_json::{Map, Value};

use super::plans::{self, RELATION};
use crate::error::Result;
use crate::interchange::apply::{check_edge_at, check_node_at};
use crate::interchange::meter::Meter;
use crate::interchange::stream::{Collect, ItemSink};
use crate::interchange::{Format, ImportedGraph};
use crate::network::{EdgeSpec, NodeSpec};

const FORMAT: Format = Format::MemoryJsonl;

/// Parses a memory server JSONL document. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut collect = Collect::default();
    stream(content, meter, &mut collect)?;
    Ok(collect.into())
}

/// Fewer bytes than any line that adds an item takes (the shortest,
/// `{"type":"entity","name":"a"}` and its line end, takes 29), so the room
/// counted for a text is never less than the items it holds.
const SHORTEST_LINE_BYTES: usize = 16;

/// The lines `content` has room for items on: a bound no hostile text can
/// raise past its own size.
fn line_room(content: &str) -> usize {
    (memchr::memchr_iter(b'\n', content.as_bytes()).count() + 1)
        .min(content.len() / SHORTEST_LINE_BYTES)
}

/// About how many relations `content` gives: the `"relation"` strings it
/// holds (a value that reads "relation" only makes the guess high), never
/// more than it has lines for. One SIMD pass over the text.
pub(crate) fn estimated_edges(content: &str) -> usize {
    memchr::memmem::find_iter(content.as_bytes(), "\"relation\"")
        .count()
        .min(line_room(content))
}

/// About how many entities `content` lists, as [`estimated_edges`] counts
/// relations.
pub(crate) fn estimated_nodes(content: &str) -> usize {
    memchr::memmem::find_iter(content.as_bytes(), "\"entity\"")
        .count()
        .min(line_room(content))
}

/// The byte offset past which no line can be an entity: the end of the last
/// line holding the text `"entity"` or an escape `\u` (the only way to write
/// `entity` without that text); `None` when no line can be. One SIMD pass
/// from the end.
fn entities_end(content: &str) -> Option<usize> {
    let bytes = content.as_bytes();
    let last = [&b"\"entity\""[..], &b"\\u"[..]]
        .into_iter()
        .filter_map(|needle| memchr::memmem::rfind(bytes, needle))
        .max();
    last.map(|at| memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |end| at + end))
}

/// Reads a memory server JSONL document into `sink`, line by line; every
/// node is given before a relation past the last line that can be an entity
/// (see [`entities_end`]). O(size of the document).
pub(crate) fn stream(content: &str, meter: &mut Meter, sink: &mut dyn ItemSink) -> Result<()> {
    let entities_end = entities_end(content);
    let (mut nodes, mut edges) = (0usize, 0usize);
    let mut nodes_done = false;
    for (line, text) in plans::lines(content) {
        crate::budget::charge(1);
        // `text` lies within `content` (a BOM stripped at most).
        let offset = text.as_ptr() as usize - content.as_ptr() as usize;
        if !nodes_done && entities_end.is_none_or(|end| offset > end) {
            sink.nodes_done()?;
            nodes_done = true;
        }
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
                let node = NodeSpec {
                    id: name,
                    data,
                    attributes,
                };
                check_node_at(FORMAT, &node, || format!("line {line}"))?;
                sink.node(node, nodes)?;
                nodes += 1;
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
                let edge = EdgeSpec {
                    source,
                    target,
                    weight: crate::network::DEFAULT_WEIGHT,
                    attributes,
                };
                check_edge_at(FORMAT, &edge, || format!("line {line}"))?;
                sink.edge(edge, edges)?;
                edges += 1;
            }
            _ => {}
        }
    }
    sink.nodes_done()
}
