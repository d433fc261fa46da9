//! Reads GraphML: our own export and what `networkx.write_graphml` (or yEd, Gephi,
//! igraph) writes.
//!
//! Keys are read with their types (`boolean`, `int`, `long`, `float`, `double`,
//! `string`; booleans also as `True`/`False`/`1`/`0`) and `<default>` values, which
//! apply to every element of the key's domain that has no value of its own. A
//! node's `<data>` for the key with id `data_json` is decoded from JSON into the
//! node's `data`; an edge's value for a key named `weight` is its weight (default
//! 1.0); the graph's value for a key named `description` is the description; every
//! other value is an attribute named by the key's `attr.name` (its id when it has
//! none). Keys without `attr.name` whose data holds markup (yEd graphics) are
//! skipped. Edge ids and `edgedefault` are ignored: every edge is read as
//! `source → target`. Nested graphs and hyperedges are rejected.
//!
//! An `int` or `long` value past 64 bits (below −2^63 or above 2^64 − 1) is
//! kept as a string of its exact decimal text, and so is such an integer inside
//! the JSON of `data_json`. What the import materialises is counted against the
//! meter before it is made. A `<default>` that is a plain attribute is made
//! once and kept in the graph's `node_defaults`/`edge_defaults`, which the
//! network shares with every element without a value of its own: it costs its
//! size once and a slot per element. A default of a node's `data` is copied
//! onto each node, and counted for each, so a long one given to many nodes is
//! refused by name (`--max-import-memory`).
//!
//! Errors name the line and column and the element path, e.g.
//! `line 12, column 5 (graphml/graph/node[3])` (indexes 0-based).

use std::rc::Rc;

use hashbrown::HashMap;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::reader::Reader;
use serde_json::{Map, Value};

use super::super::export::graphml::{DATA_KEY, DESCRIPTION_KEY, WEIGHT_KEY};
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph, invalid, line_col, values};
use crate::network::estimate::{SLOT_BYTES, value_bytes};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::Graphml;

/// A value type a key declares.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Boolean,
    Integer,
    Float,
    String,
}

#[derive(Debug, Clone)]
struct Key {
    /// `node`, `edge`, `graph` or `all`.
    domain: String,
    name: String,
    kind: Kind,
    /// Shared, not copied, by every element it is given to: only the value made
    /// from it is materialised, and counted, per element.
    default: Option<Rc<str>>,
}

/// The element whose `<data>` children are being read.
enum Owner {
    Graph,
    Node(NodeSpec),
    Edge(EdgeSpec, bool),
}

struct State<'a> {
    content: &'a str,
    meter: &'a mut Meter,
    keys: HashMap<String, Key>,
    key_order: Vec<String>,
    path: Vec<String>,
    node_count: usize,
    edge_count: usize,
    graphs: usize,
    owner: Option<Owner>,
    /// Keys set on the current owner (for defaults).
    seen: Vec<String>,
    /// `<data>` being read: key id, text so far, and whether it held markup.
    data: Option<(String, String, bool)>,
    /// `<key>` being read: its id, and `<default>` text when inside one.
    key: Option<String>,
    default: Option<String>,
    /// Depth of markup nested inside a `<data>` (yEd graphics).
    nested: usize,
    graph: ImportedGraph,
}

/// Parses GraphML. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut reader = Reader::from_str(content);
    reader.config_mut().trim_text(false);
    let mut state = State {
        content,
        meter,
        keys: HashMap::default(),
        key_order: Vec::new(),
        path: Vec::new(),
        node_count: 0,
        edge_count: 0,
        graphs: 0,
        owner: None,
        seen: Vec::new(),
        data: None,
        key: None,
        default: None,
        nested: 0,
        graph: ImportedGraph::default(),
    };
    let mut saw_root = false;
    loop {
        crate::budget::charge(1);
        let pos = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            invalid(
                FORMAT,
                Some(line_col(content, reader.error_position() as usize)),
                format!("not well-formed XML: {e}"),
            )
        })?;
        match event {
            Event::Start(e) => {
                saw_root = true;
                state.start(&e, pos)?;
            }
            Event::Empty(e) => {
                saw_root = true;
                state.start(&e, pos)?;
                state.end(pos)?;
            }
            Event::End(_) => state.end(pos)?,
            Event::Text(t) => state.text(&t.xml10_content()),
            Event::CData(t) => state.text(&t.xml10_content()),
            Event::GeneralRef(r) => state.reference(&r, pos)?,
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_root {
        return Err(invalid(
            FORMAT,
            None,
            "the document is empty; expected a <graphml> element",
        ));
    }
    if state.graphs == 0 {
        return Err(invalid(FORMAT, None, "the document has no <graph> element"));
    }
    Ok(state.graph)
}

/// `"line L, column C (graphml/graph/node[3])"`.
fn location(content: &str, path: &[String], pos: usize) -> String {
    format!("{} ({})", line_col(content, pos), path.join("/"))
}

/// What to name when the value of `key` on the element at `path` (`default`:
/// its `<default>` of `len` bytes) passes the import's memory bound.
fn cause(
    content: &str,
    path: &[String],
    key: &Key,
    len: usize,
    default: bool,
    pos: usize,
) -> String {
    let name = crate::error::clip(&key.name, 64);
    let at = location(content, path, pos);
    if default {
        let element = path.last().map_or("", String::as_str);
        let domain = match key.domain.as_str() {
            "all" => "element",
            domain => domain,
        };
        format!(
            "key '{name}' copies its {len}-byte <default> onto {element} and onto every other {domain} without a <data> of its own for it (at {at})"
        )
    } else {
        format!("the value of key '{name}' at {at}")
    }
}

impl State<'_> {
    fn location(&self, pos: usize) -> Option<String> {
        Some(location(self.content, &self.path, pos))
    }

    fn error(&self, pos: usize, message: impl Into<String>) -> crate::Error {
        invalid(FORMAT, self.location(pos), message)
    }

    fn attr(&self, e: &BytesStart<'_>, name: &str, pos: usize) -> Result<Option<String>> {
        for attr in e.attributes() {
            let attr =
                attr.map_err(|err| self.error(pos, format!("malformed attribute: {err}")))?;
            if attr.key.local_name().as_ref() == name {
                let value = attr
                    .normalized_value(XmlVersion::Implicit1_0)
                    .map_err(|err| {
                        self.error(pos, format!("malformed attribute '{name}': {err}"))
                    })?;
                return Ok(Some(value.into_owned()));
            }
        }
        Ok(None)
    }

    fn required(&self, e: &BytesStart<'_>, name: &str, pos: usize) -> Result<String> {
        self.attr(e, name, pos)?.ok_or_else(|| {
            let element = self.path.last().cloned().unwrap_or_default();
            self.error(pos, format!("<{element}> needs the '{name}' attribute"))
        })
    }

    fn start(&mut self, e: &BytesStart<'_>, pos: usize) -> Result<()> {
        let local = e.local_name().as_ref().to_string();
        if let Some((_, _, markup)) = &mut self.data {
            *markup = true;
        }
        if self.nested > 0 || self.data.is_some() {
            self.nested += 1;
            self.path.push(local);
            return Ok(());
        }
        let segment = match local.as_str() {
            "node" => format!("node[{}]", self.node_count),
            "edge" => format!("edge[{}]", self.edge_count),
            _ => local.clone(),
        };
        self.path.push(segment);
        match local.as_str() {
            "key" => {
                let id = self.required(e, "id", pos)?;
                let name = self
                    .attr(e, "attr.name", pos)?
                    .unwrap_or_else(|| id.clone());
                let kind = match self.attr(e, "attr.type", pos)?.as_deref() {
                    None | Some("string") => Kind::String,
                    Some("boolean") => Kind::Boolean,
                    Some("int" | "long") => Kind::Integer,
                    Some("float" | "double") => Kind::Float,
                    Some(other) => {
                        return Err(self.error(
                            pos,
                            format!("unknown attr.type '{other}'; use boolean, int, long, float, double or string"),
                        ));
                    }
                };
                let domain = self.attr(e, "for", pos)?.unwrap_or_else(|| "all".into());
                if !self.keys.contains_key(&id) {
                    self.key_order.push(id.clone());
                }
                self.keys.insert(
                    id.clone(),
                    Key {
                        domain,
                        name,
                        kind,
                        default: None,
                    },
                );
                self.key = Some(id);
            }
            "default" if self.key.is_some() => self.default = Some(String::new()),
            "graph" => {
                if self.graphs > 0 {
                    return Err(self.error(
                        pos,
                        "nested or multiple <graph> elements are not supported; import one flat graph",
                    ));
                }
                self.graphs += 1;
                self.owner = Some(Owner::Graph);
                self.seen.clear();
            }
            "node" => {
                if !matches!(self.owner, Some(Owner::Graph)) {
                    return Err(self.error(pos, "<node> must be a direct child of <graph>"));
                }
                let id = self.required(e, "id", pos)?;
                let (content, path) = (self.content, &self.path);
                self.meter
                    .node(&id, &Map::new(), None, || location(content, path, pos))?;
                self.owner = Some(Owner::Node(NodeSpec {
                    id,
                    data: None,
                    attributes: Map::new(),
                }));
                self.seen.clear();
            }
            "edge" => {
                if !matches!(self.owner, Some(Owner::Graph)) {
                    return Err(self.error(pos, "<edge> must be a direct child of <graph>"));
                }
                let source = self.required(e, "source", pos)?;
                let target = self.required(e, "target", pos)?;
                let (content, path) = (self.content, &self.path);
                self.meter.edge(&source, &target, &Map::new(), || {
                    location(content, path, pos)
                })?;
                let spec = EdgeSpec {
                    source,
                    target,
                    weight: DEFAULT_WEIGHT,
                    attributes: Map::new(),
                };
                self.owner = Some(Owner::Edge(spec, false));
                self.seen.clear();
            }
            "data" => {
                let key = self.required(e, "key", pos)?;
                if !self.keys.contains_key(&key) {
                    return Err(self.error(
                        pos,
                        format!("<data> refers to key '{key}', which no <key> element declares; declare it before the <graph>"),
                    ));
                }
                self.data = Some((key, String::new(), false));
            }
            "hyperedge" => {
                return Err(self.error(
                    pos,
                    "hyperedges are not supported; use ordinary <edge> elements",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    fn text(&mut self, text: &str) {
        if self.nested > 0 {
            return;
        }
        if let Some((_, buffer, _)) = &mut self.data {
            buffer.push_str(text);
        } else if let Some(buffer) = &mut self.default {
            buffer.push_str(text);
        }
    }

    fn reference(&mut self, r: &BytesRef<'_>, pos: usize) -> Result<()> {
        let resolved = match r.resolve_char_ref() {
            Ok(Some(c)) => c.to_string(),
            Ok(None) => {
                let name = r.as_ref().to_string();
                match quick_xml::escape::resolve_predefined_entity(&name) {
                    Some(s) => s.to_string(),
                    None => return Err(self.error(pos, format!("unknown entity '&{name};'"))),
                }
            }
            Err(e) => return Err(self.error(pos, format!("bad character reference: {e}"))),
        };
        self.text(&resolved);
        Ok(())
    }

    fn end(&mut self, pos: usize) -> Result<()> {
        let segment = self.path.last().cloned().unwrap_or_default();
        if self.nested > 0 {
            self.nested -= 1;
            self.path.pop();
            return Ok(());
        }
        let local = segment.split('[').next().unwrap_or_default().to_string();
        match local.as_str() {
            "data" => {
                if let Some((key, text, markup)) = self.data.take() {
                    // Markup inside <data> (yEd graphics, say) is not a scalar: skip it.
                    if !markup {
                        self.set(&key, &text, false, pos)?;
                    }
                    self.seen.push(key);
                }
            }
            "default" => {
                if let (Some(id), Some(text)) = (&self.key, self.default.take())
                    && let Some(key) = self.keys.get_mut(id)
                {
                    key.default = Some(Rc::from(text));
                }
            }
            "key" => self.key = None,
            "node" | "edge" => {
                self.apply_defaults(&local, pos)?;
                match self.owner.replace(Owner::Graph) {
                    Some(Owner::Node(node)) => {
                        self.graph.nodes.push(node);
                        self.node_count += 1;
                    }
                    Some(Owner::Edge(edge, _)) => {
                        self.graph.edges.push(edge);
                        self.edge_count += 1;
                    }
                    _ => {}
                }
            }
            "graph" => {
                self.apply_defaults("graph", pos)?;
                self.owner = None;
            }
            _ => {}
        }
        self.path.pop();
        Ok(())
    }

    /// Gives the current element the default of every key of its domain it has no value for.
    fn apply_defaults(&mut self, domain: &str, pos: usize) -> Result<()> {
        let pending: Vec<(String, Rc<str>)> = self
            .key_order
            .iter()
            .filter(|id| !self.seen.contains(id))
            .filter_map(|id| {
                let key = &self.keys[id];
                let applies = key.domain == domain || key.domain == "all";
                match (&key.default, applies) {
                    (Some(default), true) => Some((id.clone(), Rc::clone(default))),
                    _ => None,
                }
            })
            .collect();
        for (id, default) in pending {
            if self.shares_default(&id, domain) {
                self.share_default(&id, &default, domain, pos)?;
            } else {
                self.set(&id, &default, true, pos)?;
            }
        }
        Ok(())
    }

    /// Whether the default of key `id` is, on an element of `domain`, a plain
    /// attribute: kept once in the graph's defaults rather than on the element
    /// (a node's `data` and an edge's weight are the element's own).
    fn shares_default(&self, id: &str, domain: &str) -> bool {
        match domain {
            "node" => id != DATA_KEY,
            "edge" => id != WEIGHT_KEY && self.keys[id].name != "weight",
            _ => false,
        }
    }

    /// Gives the current element the default of key `id`: the value is made and
    /// counted once, the first time, and kept in the graph's defaults; each
    /// element given it costs one slot in its map, which is what is counted.
    fn share_default(&mut self, id: &str, text: &str, domain: &str, pos: usize) -> Result<()> {
        let key = &self.keys[id];
        let (content, path) = (self.content, &self.path);
        let defaults = if domain == "node" {
            &self.graph.node_defaults
        } else {
            &self.graph.edge_defaults
        };
        if !defaults.contains_key(&key.name) {
            self.meter.attribute(&key.name, text, || {
                cause(content, path, key, text.len(), true, pos)
            })?;
            let value = self.typed(key, text, pos)?;
            let name = key.name.clone();
            let defaults = if domain == "node" {
                &mut self.graph.node_defaults
            } else {
                &mut self.graph.edge_defaults
            };
            defaults.insert(name, value);
        }
        let key = &self.keys[id];
        self.meter.charge(SLOT_BYTES, || {
            cause(content, path, key, text.len(), true, pos)
        })
    }

    /// Stores one value on the current element (`default`: the key's
    /// `<default>`), counting what it materialises first.
    fn set(&mut self, key_id: &str, text: &str, default: bool, pos: usize) -> Result<()> {
        let Some(key) = self.keys.get(key_id).cloned() else {
            return Ok(());
        };
        match &self.owner {
            Some(Owner::Node(_)) if key_id == DATA_KEY => {
                // One value is parsed at a time, at most a few times its text;
                // what is kept is counted before it is kept.
                let (data, _) = values::parse_json_exact(text).map_err(|e| {
                    self.error(
                        pos,
                        format!("the node's data (key '{DATA_KEY}') is not valid JSON: {e}"),
                    )
                })?;
                let (content, path) = (self.content, &self.path);
                self.meter.charge(value_bytes(&data), || {
                    cause(content, path, &key, text.len(), default, pos)
                })?;
                if let Some(Owner::Node(node)) = &mut self.owner {
                    node.data = Some(data).filter(|d| !d.is_null());
                }
                return Ok(());
            }
            Some(Owner::Edge(..)) if key.name == "weight" || key_id == WEIGHT_KEY => {
                let weight = values::parse_weight(text).ok_or_else(|| {
                    self.error(
                        pos,
                        format!("the edge weight '{text}' is not a finite number"),
                    )
                })?;
                if let Some(Owner::Edge(edge, explicit)) = &mut self.owner
                    && !*explicit
                {
                    edge.weight = weight;
                    *explicit = true;
                }
                return Ok(());
            }
            Some(Owner::Graph) if key.name == "description" || key_id == DESCRIPTION_KEY => {
                let (content, path) = (self.content, &self.path);
                self.meter.charge(text.len(), || {
                    cause(content, path, &key, text.len(), default, pos)
                })?;
                self.graph.description = Some(text.to_string());
                return Ok(());
            }
            _ => {}
        }
        if matches!(self.owner, Some(Owner::Node(_) | Owner::Edge(..))) {
            let (content, path) = (self.content, &self.path);
            self.meter.attribute(&key.name, text, || {
                cause(content, path, &key, text.len(), default, pos)
            })?;
        }
        let value = self.typed(&key, text, pos)?;
        match &mut self.owner {
            Some(Owner::Node(node)) => {
                node.attributes.insert(key.name, value);
            }
            Some(Owner::Edge(edge, _)) => {
                edge.attributes.insert(key.name, value);
            }
            _ => {}
        }
        Ok(())
    }

    fn typed(&self, key: &Key, text: &str, pos: usize) -> Result<Value> {
        let trimmed = text.trim();
        let bad = |what: &str| {
            self.error(
                pos,
                format!("'{text}' is not {what}, as key '{}' declares", key.name),
            )
        };
        Ok(match key.kind {
            Kind::String => Value::String(text.to_string()),
            Kind::Boolean => match trimmed.to_ascii_lowercase().as_str() {
                "true" | "1" => Value::Bool(true),
                "false" | "0" => Value::Bool(false),
                _ => return Err(bad("a boolean (true or false)")),
            },
            Kind::Integer => {
                if let Ok(i) = trimmed.parse::<i64>() {
                    Value::from(i)
                } else if let Ok(u) = trimmed.parse::<u64>() {
                    Value::from(u)
                } else if values::is_big_integer(trimmed) {
                    // Past 64 bits: its exact text, never the nearest float.
                    Value::String(trimmed.to_string())
                } else {
                    return Err(bad("an integer"));
                }
            }
            Kind::Float => trimmed
                .parse::<f64>()
                .ok()
                .and_then(values::float)
                .ok_or_else(|| bad("a finite number"))?,
        })
    }
}
