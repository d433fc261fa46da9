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
//!
//! The document is read in one streaming pass straight into the nodes and edges:
//! no tree of the whole document is built (a tree takes several times the
//! document's memory and most of an import's time). A document with a syntax
//! error anywhere is refused for it, at its line and column, before any other
//! fault it has.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::stream::{Collect, ItemSink};
use crate::interchange::{Format, ImportedGraph, invalid, values};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::NodeLinkJson;

fn error(path: String, message: impl Into<String>) -> crate::Error {
    invalid(FORMAT, Some(path), message)
}

/// Parses node-link JSON. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut collect = Collect::default();
    let description = stream(content, meter, &mut collect)?;
    Ok(ImportedGraph {
        description,
        ..collect.into()
    })
}

/// The shortest an edge can be written: `{"source":0,"target":0}` and a comma.
const SHORTEST_EDGE_BYTES: usize = 26;

/// About how many edges `content` gives, for sizing a network's edge storage
/// once before it is read, rather than growing it by doubling (each doubling
/// copies every edge into memory the kernel must clear first: at 300,000
/// edges, 24 MB written and thrown away). The fewer of the `"source"` and
/// `"target"` keys the text holds, and never more than the document has room
/// for; a value that happens to read `"target"` only makes the guess high.
/// One SIMD pass over the text, a few milliseconds for 30 MB.
pub(crate) fn estimated_edges(content: &str) -> usize {
    let count = |key: &str| memchr::memmem::find_iter(content.as_bytes(), key).count();
    count("\"source\"")
        .min(count("\"target\""))
        .min(content.len() / SHORTEST_EDGE_BYTES)
}

/// The shortest a node can be written: `{"id":0}` and a comma.
const SHORTEST_NODE_BYTES: usize = 9;

/// About how many nodes `content` lists, as [`estimated_edges`] counts edges:
/// the `"id"` keys the text holds, never more than it has room for (an edge
/// attribute named `id` only makes the guess high).
pub(crate) fn estimated_nodes(content: &str) -> usize {
    memchr::memmem::find_iter(content.as_bytes(), "\"id\"")
        .count()
        .min(content.len() / SHORTEST_NODE_BYTES)
}

/// Reads node-link JSON into `sink`, item by item in the document's order
/// (the edges of an older `"links"` array, which a later `"edges"` replaces,
/// only at the end); returns the graph's description. O(size of the document).
pub(crate) fn stream(
    content: &str,
    meter: &mut Meter,
    sink: &mut dyn ItemSink,
) -> Result<Option<String>> {
    let (text, quoted) = values::quote_big_integers(content);
    let mut reader = Reader {
        meter,
        quoted,
        sink,
        failure: None,
    };
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    let read = DocumentSeed(&mut reader)
        .deserialize(&mut deserializer)
        .and_then(|document| deserializer.end().map(|()| document));
    let e = match read {
        Ok(document) => return document.finish(reader.sink),
        Err(e) => e,
    };
    // A syntax error comes first wherever it is, reported at the document's own
    // position (the quoted text's may differ).
    let syntax = match reader.failure.take() {
        Some(failure) => match serde_json::from_str::<IgnoredAny>(&text) {
            Ok(_) => return Err(failure),
            Err(e) => e,
        },
        None => e,
    };
    let syntax = quoted
        .then(|| serde_json::from_str::<IgnoredAny>(content).err())
        .flatten()
        .unwrap_or(syntax);
    Err(invalid(
        FORMAT,
        Some(format!(
            "line {}, column {}",
            syntax.line(),
            syntax.column()
        )),
        format!("not valid JSON: {syntax}"),
    ))
}

/// What the streaming pass carries: the meter, whether big integers were
/// quoted, and the first fault found (a serde error only says "stop").
struct Reader<'r> {
    meter: &'r mut Meter,
    quoted: bool,
    sink: &'r mut dyn ItemSink,
    failure: Option<crate::Error>,
}

/// The error that stops the pass once `reader` holds the fault.
fn stop<E: de::Error>(reader: &mut Reader<'_>, failure: crate::Error) -> E {
    reader.failure.get_or_insert(failure);
    E::custom("the node-link document was refused")
}

/// What the top level of the document held.
#[derive(Default)]
struct Document {
    description: Option<String>,
    nodes: bool,
    edges: bool,
    links: Option<Vec<EdgeSpec>>,
}

impl Document {
    fn finish(self, sink: &mut dyn ItemSink) -> Result<Option<String>> {
        if !self.nodes {
            return Err(error(
                "nodes".into(),
                "the \"nodes\" array is missing; node-link JSON needs \"nodes\" (and \"edges\" or \"links\")",
            ));
        }
        if !self.edges {
            for (index, edge) in self.links.into_iter().flatten().enumerate() {
                sink.edge(edge, index)?;
            }
        }
        Ok(self.description)
    }
}

/// Where an array's items go: to the sink, or kept (an older `"links"` array,
/// which a later `"edges"` array replaces).
enum Target<'a> {
    Sink,
    Keep(&'a mut Vec<EdgeSpec>),
}

/// The visitor methods for every JSON value but arrays and objects: each stops
/// with the seed's `wrong()` fault (the value has the wrong JSON type).
macro_rules! refuse_scalars {
    () => {
        refuse_scalars!(visit_unit(), visit_bool(bool), visit_i64(i64), visit_u64(u64), visit_f64(f64), visit_str(&str));
    };
    ($($method:ident($($arg:ty)?)),*) => {
        $(fn $method<E: de::Error>(self $(, _: $arg)?) -> std::result::Result<Self::Value, E> {
            Err(self.wrong())
        })*
    };
}

/// The top level: an object.
struct DocumentSeed<'a, 'r>(&'a mut Reader<'r>);

impl DocumentSeed<'_, '_> {
    fn wrong<E: de::Error>(self) -> E {
        let message = "the document must be a JSON object with \"nodes\" and \"edges\" arrays";
        stop(self.0, invalid(FORMAT, None, message))
    }
}

impl<'de> DeserializeSeed<'de> for DocumentSeed<'_, '_> {
    type Value = Document;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Document, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DocumentSeed<'_, '_> {
    type Value = Document;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node-link JSON object")
    }
    refuse_scalars!();
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Document, A::Error> {
        Err(self.wrong())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let reader = self.0;
        let mut document = Document::default();
        while let Some(key) = map.next_key_seed(Key)? {
            let twice = |reader: &mut Reader<'_>, key: &str| {
                stop(
                    reader,
                    error(
                        key.into(),
                        format!("the document has \"{key}\" twice; give one \"{key}\" array"),
                    ),
                )
            };
            match &*key {
                "graph" => {
                    document.description = match map.next_value::<Value>()? {
                        Value::Object(mut graph) => match graph.remove("description") {
                            Some(Value::String(s)) => Some(s),
                            _ => None,
                        },
                        _ => None,
                    };
                }
                "nodes" if document.nodes => return Err(twice(reader, "nodes")),
                "nodes" => {
                    map.next_value_seed(ArraySeed {
                        reader: &mut *reader,
                        key: "nodes",
                        target: Target::Sink,
                    })?;
                    document.nodes = true;
                    if let Err(failure) = reader.sink.nodes_done() {
                        return Err(stop(reader, failure));
                    }
                }
                "edges" if document.edges => return Err(twice(reader, "edges")),
                "edges" => {
                    map.next_value_seed(ArraySeed {
                        reader: &mut *reader,
                        key: "edges",
                        target: Target::Sink,
                    })?;
                    document.edges = true;
                    document.links = None;
                }
                // "edges" wins over the older "links" when a document has both.
                "links" if !document.edges => {
                    let mut links = Vec::new();
                    map.next_value_seed(ArraySeed {
                        reader: &mut *reader,
                        key: "links",
                        target: Target::Keep(&mut links),
                    })?;
                    document.links = Some(links);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(document)
    }
}

/// The fields of one node or edge object: those the item reads (`id` and `data`
/// of a node; `source`, `target` and `weight` of an edge) and the rest, its
/// attributes, in the document's order.
#[derive(Default)]
struct Fields {
    named: [Option<Value>; 3],
    attributes: Map<String, Value>,
}

/// An array of nodes or edges under `key`; the seed's value is how many items
/// it held.
struct ArraySeed<'a, 'r> {
    reader: &'a mut Reader<'r>,
    key: &'static str,
    target: Target<'a>,
}

impl ArraySeed<'_, '_> {
    fn wrong<E: de::Error>(self) -> E {
        let key = self.key;
        stop(
            self.reader,
            error(key.into(), format!("\"{key}\" must be an array")),
        )
    }
}

impl<'de> DeserializeSeed<'de> for ArraySeed<'_, '_> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArraySeed<'_, '_> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "the {} array", self.key)
    }
    refuse_scalars!();
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<usize, A::Error> {
        Err(self.wrong())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let ArraySeed {
            reader,
            key,
            mut target,
        } = self;
        let mut index = 0;
        loop {
            let item = ItemSeed {
                reader: &mut *reader,
                key,
                index,
            };
            let Some(fields) = seq.next_element_seed(item)? else {
                return Ok(index);
            };
            crate::budget::charge(1);
            let stored = if key == "nodes" {
                read_node(reader, fields, key, index).and_then(|node| reader.sink.node(node, index))
            } else {
                read_edge(reader, fields, key, index).and_then(|edge| match &mut target {
                    Target::Sink => reader.sink.edge(edge, index),
                    Target::Keep(kept) => {
                        kept.push(edge);
                        Ok(())
                    }
                })
            };
            if let Err(failure) = stored {
                return Err(stop(reader, failure));
            }
            index += 1;
        }
    }
}

/// One object of the `key` array, at `index`.
struct ItemSeed<'a, 'r> {
    reader: &'a mut Reader<'r>,
    key: &'static str,
    index: usize,
}

impl ItemSeed<'_, '_> {
    fn wrong<E: de::Error>(self) -> E {
        let message = if self.key == "nodes" {
            "each node must be an object with an \"id\""
        } else {
            "each edge must be an object with \"source\" and \"target\""
        };
        let path = format!("{}[{}]", self.key, self.index);
        stop(self.reader, error(path, message))
    }

    /// Where a field of this item goes: its slot among `named`, `None` for an
    /// attribute, `Some(None)` for a field that is read and dropped (an edge's `key`).
    fn slot(&self, field: &str) -> Option<Option<usize>> {
        match (self.key, field) {
            ("nodes", "id") => Some(Some(0)),
            ("nodes", "data") => Some(Some(1)),
            ("nodes", _) => None,
            (_, "source") => Some(Some(0)),
            (_, "target") => Some(Some(1)),
            (_, "weight") => Some(Some(2)),
            (_, "key") => Some(None),
            _ => None,
        }
    }
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_, '_> {
    type Value = Fields;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Fields, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_, '_> {
    type Value = Fields;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    refuse_scalars!();
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Fields, A::Error> {
        Err(self.wrong())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut fields = Fields::default();
        while let Some(field) = map.next_key_seed(Key)? {
            match self.slot(&field) {
                Some(Some(slot)) => fields.named[slot] = Some(map.next_value()?),
                Some(None) => {
                    map.next_value::<IgnoredAny>()?;
                }
                None => {
                    let value = map.next_value()?;
                    fields.attributes.insert(field.into_owned(), value);
                }
            }
        }
        Ok(fields)
    }
}

/// A node from its fields, checked in the order a reader of the document
/// would: the id, then the attributes, then the memory it takes.
fn read_node(
    reader: &mut Reader<'_>,
    fields: Fields,
    key: &'static str,
    index: usize,
) -> Result<NodeSpec> {
    let [id, data, _] = fields.named;
    let id = match id {
        Some(value) => id_text(value).ok_or_else(|| {
            error(
                format!("{key}[{index}].id"),
                "a node id must be a string or a number",
            )
        })?,
        None => {
            return Err(error(
                format!("{key}[{index}].id"),
                "the node has no \"id\"",
            ));
        }
    };
    let data = data.filter(|d| !d.is_null());
    let attributes = scalars(fields.attributes, || format!("{key}[{index}]"))?;
    reader.meter.node(&id, &attributes, data.as_ref(), || {
        format!("at {key}[{index}]")
    })?;
    Ok(NodeSpec {
        id,
        data,
        attributes,
    })
}

/// An edge from its fields: its ends, its weight, its attributes, then the
/// memory it takes.
fn read_edge(
    reader: &mut Reader<'_>,
    fields: Fields,
    key: &'static str,
    index: usize,
) -> Result<EdgeSpec> {
    let [source, target, weight] = fields.named;
    let end = |value: Option<Value>, field: &str| -> Result<String> {
        match value {
            Some(value) => id_text(value).ok_or_else(|| {
                error(
                    format!("{key}[{index}].{field}"),
                    format!("\"{field}\" must be a string or a number"),
                )
            }),
            None => Err(error(
                format!("{key}[{index}].{field}"),
                format!("the edge has no \"{field}\""),
            )),
        }
    };
    let source = end(source, "source")?;
    let target = end(target, "target")?;
    let weight = match weight {
        None | Some(Value::Null) => DEFAULT_WEIGHT,
        Some(Value::Number(n)) => n.as_f64().unwrap_or(DEFAULT_WEIGHT),
        // An integer past 64 bits that the reader quoted: a weight is a float.
        Some(Value::String(s)) if reader.quoted && values::is_big_integer(&s) => {
            values::parse_weight(&s).ok_or_else(|| {
                error(
                    format!("{key}[{index}].weight"),
                    "\"weight\" must be a finite number",
                )
            })?
        }
        Some(_) => {
            return Err(error(
                format!("{key}[{index}].weight"),
                "\"weight\" must be a number",
            ));
        }
    };
    let attributes = scalars(fields.attributes, || format!("{key}[{index}]"))?;
    reader.meter.edge(&source, &target, &attributes, || {
        format!("at {key}[{index}]")
    })?;
    Ok(EdgeSpec {
        source,
        target,
        weight,
        attributes,
    })
}

/// A map key, borrowed from the document when it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// A node id from JSON: a string as it is, a number as its decimal text.
fn id_text(value: Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Checks that every attribute holds a scalar; a fault names the first that
/// does not, under `path()`.
fn scalars(object: Map<String, Value>, path: impl Fn() -> String) -> Result<Map<String, Value>> {
    for (key, value) in &object {
        let kind = match value {
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            _ => continue,
        };
        return Err(error(
            format!("{}.{key}", path()),
            format!(
                "attribute '{key}' is {kind}; attributes must be strings, numbers, booleans or null (only a node's \"data\" may hold nested JSON). Flatten it or move it into the node's \"data\""
            ),
        ));
    }
    Ok(object)
}
