//! The values a query computes: Cypher's scalars, lists and maps, and
//! references to the network's nodes, relationships (edges) and paths.

use std::cmp::Ordering;
use std::sync::Arc;

use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use serde_json::{Map, Number, Value};

use super::temporal::{self, Temporal};
use crate::network::Network;

/// The relationship type of an edge without a `relation` attribute, as the
/// Cypher export writes it.
pub const DEFAULT_TYPE: &str = "EDGE";
/// The node attribute that holds a node's labels, separated by commas.
pub const LABELS_ATTRIBUTE: &str = "labels";
/// The edge attribute that holds a relationship's type.
pub const TYPE_ATTRIBUTE: &str = "relation";

/// A path: its nodes from first to last and the relationships between them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PathVal {
    pub nodes: Vec<NodeIndex>,
    pub rels: Vec<EdgeIndex>,
}

/// A list's items or a map's entries, with the value's weight: how many
/// values it holds counted as a tree (a list holding one list twice counts it
/// twice), computed once when it is built, so that sharing cannot hide a value
/// exponentially larger than the memory it takes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shared<T> {
    pub items: T,
    pub weight: u64,
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.items
    }
}

/// One value. Strings, lists, maps and paths are shared (`Arc`): a row is copied
/// for every match and every UNWIND item, and a copy must cost O(1) whatever it
/// holds, not the size of a collected list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Arc<str>),
    List(Arc<Shared<Vec<Val>>>),
    Map(Arc<Shared<Vec<(String, Val)>>>),
    Node(NodeIndex),
    Rel(EdgeIndex),
    Path(Arc<PathVal>),
    /// A date, time, datetime or duration ([`super::temporal`]).
    Temporal(Arc<Temporal>),
}

impl Val {
    /// A string value, counted as built ([`super::built`]).
    pub fn str(s: impl Into<Arc<str>>) -> Val {
        let s: Arc<str> = s.into();
        super::built(1 + s.len() as u64 / 16);
        Val::Str(s)
    }

    /// A list value, its weight counted as built ([`super::built`]).
    pub fn list(items: Vec<Val>) -> Val {
        let weight = items
            .iter()
            .fold(1u64, |w, item| w.saturating_add(item.weight()));
        super::built(weight);
        Val::List(Arc::new(Shared { items, weight }))
    }

    /// A list value whose items were counted already (an aggregate's).
    pub fn list_counted(items: Vec<Val>) -> Val {
        let weight = items
            .iter()
            .fold(1u64, |w, item| w.saturating_add(item.weight()));
        super::built(1);
        Val::List(Arc::new(Shared { items, weight }))
    }

    /// A map value, its weight counted as built ([`super::built`]).
    pub fn map(entries: Vec<(String, Val)>) -> Val {
        let weight = entries
            .iter()
            .fold(1u64, |w, (_, v)| w.saturating_add(v.weight()));
        super::built(weight);
        Val::Map(Arc::new(Shared {
            items: entries,
            weight,
        }))
    }

    /// How many values this one holds, counted as a tree (a string as one per
    /// 16 bytes).
    pub fn weight(&self) -> u64 {
        match self {
            Val::Str(s) => 1 + s.len() as u64 / 16,
            Val::List(l) => l.weight,
            Val::Map(m) => m.weight,
            Val::Path(p) => 1 + (p.nodes.len() + p.rels.len()) as u64,
            _ => 1,
        }
    }

    /// A JSON value as a query value (parameters, `data`, attributes).
    /// Recursion is bounded by the JSON's own depth (serde_json's decoder stops
    /// at 128 levels; `data` at [`crate::limits::MAX_VALUE_DEPTH`]).
    pub fn from_json(value: &Value) -> Val {
        super::charge(1);
        match value {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Val::Int(i),
                None => Val::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => Val::Str(s.as_str().into()),
            Value::Array(items) => stored_list(items.iter().map(Val::from_json).collect()),
            Value::Object(map) => {
                let entries: Vec<(String, Val)> = map
                    .iter()
                    .map(|(k, v)| (k.clone(), Val::from_json(v)))
                    .collect();
                let weight = entries
                    .iter()
                    .fold(1u64, |w, (_, v)| w.saturating_add(v.weight()));
                Val::Map(Arc::new(Shared {
                    items: entries,
                    weight,
                }))
            }
        }
    }

    /// The name of this value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "boolean",
            Val::Int(_) => "integer",
            Val::Float(_) => "float",
            Val::Str(_) => "string",
            Val::List(_) => "list",
            Val::Map(_) => "map",
            Val::Node(_) => "node",
            Val::Rel(_) => "relationship",
            Val::Path(_) => "path",
            Val::Temporal(t) => temporal::type_name(t),
        }
    }

    /// The value as JSON: a node as `{id, labels, properties}`, a relationship as
    /// `{id, type, source, target, properties}`, a path as `{nodes, relationships}`.
    /// A float that is not finite becomes null (JSON has no NaN or infinity).
    pub fn to_json(&self, net: &Network) -> Value {
        super::charge(1);
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(*b),
            Val::Int(i) => Value::from(*i),
            Val::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Val::Str(s) => Value::String(s.to_string()),
            Val::List(items) => Value::Array(items.iter().map(|v| v.to_json(net)).collect()),
            Val::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json(net)))
                    .collect(),
            ),
            Val::Node(ix) => node_json(net, *ix),
            Val::Rel(ix) => rel_json(net, *ix),
            Val::Temporal(t) => Value::String(temporal::text(t)),
            Val::Path(path) => {
                let mut out = Map::new();
                out.insert(
                    "nodes".into(),
                    Value::Array(path.nodes.iter().map(|&n| node_json(net, n)).collect()),
                );
                out.insert(
                    "relationships".into(),
                    Value::Array(path.rels.iter().map(|&r| rel_json(net, r)).collect()),
                );
                Value::Object(out)
            }
        }
    }

    /// A canonical byte key: equal keys for values that are equal for grouping
    /// and DISTINCT (an integral float and the same integer are one key).
    pub fn key(&self, out: &mut Vec<u8>) {
        super::charge(1);
        match self {
            Val::Null => out.push(0),
            Val::Bool(b) => out.extend([1, u8::from(*b)]),
            Val::Int(i) => {
                out.push(2);
                out.extend(i.to_le_bytes());
            }
            Val::Float(f) => {
                if f.fract() == 0.0 && *f >= i64::MIN as f64 && *f < i64::MAX as f64 {
                    out.push(2);
                    out.extend((*f as i64).to_le_bytes());
                } else {
                    out.push(3);
                    out.extend(f.to_bits().to_le_bytes());
                }
            }
            Val::Str(s) => {
                out.push(4);
                out.extend((s.len() as u64).to_le_bytes());
                out.extend(s.as_bytes());
            }
            Val::List(items) => {
                out.push(5);
                out.extend((items.len() as u64).to_le_bytes());
                for item in items.iter() {
                    item.key(out);
                }
            }
            Val::Map(entries) => {
                out.push(6);
                let mut sorted: Vec<&(String, Val)> = entries.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                out.extend((sorted.len() as u64).to_le_bytes());
                for (k, v) in sorted {
                    out.extend((k.len() as u64).to_le_bytes());
                    out.extend(k.as_bytes());
                    v.key(out);
                }
            }
            Val::Node(ix) => {
                out.push(7);
                out.extend(ix.index().to_le_bytes());
            }
            Val::Rel(ix) => {
                out.push(8);
                out.extend(ix.index().to_le_bytes());
            }
            Val::Temporal(t) => {
                out.push(10);
                let text = temporal::text(t);
                out.extend((text.len() as u64).to_le_bytes());
                out.extend(text.as_bytes());
            }
            Val::Path(path) => {
                out.push(9);
                out.extend((path.nodes.len() as u64).to_le_bytes());
                for n in &path.nodes {
                    out.extend(n.index().to_le_bytes());
                }
                for r in &path.rels {
                    out.extend(r.index().to_le_bytes());
                }
            }
        }
    }
}

/// A list read from the network or the parameters: not counted as built.
fn stored_list(items: Vec<Val>) -> Val {
    let weight = items
        .iter()
        .fold(1u64, |w, item| w.saturating_add(item.weight()));
    Val::List(Arc::new(Shared { items, weight }))
}

/// Cypher equality: `None` (null) when either side is or holds null where it matters.
pub(crate) fn equals(a: &Val, b: &Val) -> Option<bool> {
    super::charge(1);
    match (a, b) {
        (Val::Null, _) | (_, Val::Null) => None,
        (Val::Int(x), Val::Int(y)) => Some(x == y),
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => Some(as_f64(a) == as_f64(b)),
        (Val::List(xs), Val::List(ys)) => {
            if xs.len() != ys.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (x, y) in xs.iter().zip(ys.iter()) {
                match equals(x, y) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            if unknown { None } else { Some(true) }
        }
        (Val::Map(xs), Val::Map(ys)) => {
            if xs.len() != ys.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (k, x) in xs.iter() {
                let Some((_, y)) = ys.iter().find(|(key, _)| key == k) else {
                    return Some(false);
                };
                match equals(x, y) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            if unknown { None } else { Some(true) }
        }
        _ if std::mem::discriminant(a) == std::mem::discriminant(b) => Some(a == b),
        _ => Some(false),
    }
}

fn as_f64(v: &Val) -> f64 {
    match v {
        Val::Int(i) => *i as f64,
        Val::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// Cypher comparison for `<`, `<=`, `>`, `>=`: numbers with numbers, strings
/// with strings, booleans with booleans, lists element by element; `None`
/// (null) for anything else.
pub(crate) fn compare(a: &Val, b: &Val) -> Option<Ordering> {
    super::charge(1);
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => {
            as_f64(a).partial_cmp(&as_f64(b))
        }
        (Val::Str(x), Val::Str(y)) => Some(x.cmp(y)),
        (Val::Bool(x), Val::Bool(y)) => Some(x.cmp(y)),
        (Val::Temporal(x), Val::Temporal(y)) => temporal::compare(x, y),
        (Val::List(xs), Val::List(ys)) => {
            for (x, y) in xs.iter().zip(ys.iter()) {
                match compare(x, y)? {
                    Ordering::Equal => {}
                    other => return Some(other),
                }
            }
            Some(xs.len().cmp(&ys.len()))
        }
        _ => None,
    }
}

/// The rank of a value's type in ORDER BY's total order (openCypher's
/// orderability: maps, nodes, relationships, lists, paths, temporal values,
/// strings, booleans, numbers, then null last).
fn rank(v: &Val) -> u8 {
    match v {
        Val::Map(_) => 0,
        Val::Node(_) => 1,
        Val::Rel(_) => 2,
        Val::List(_) => 3,
        Val::Path(_) => 4,
        Val::Temporal(_) => 5,
        Val::Str(_) => 6,
        Val::Bool(_) => 7,
        Val::Int(_) | Val::Float(_) => 8,
        Val::Null => 9,
    }
}

/// ORDER BY's total order, ascending: nulls last, NaN after every other number.
pub(crate) fn order(a: &Val, b: &Val) -> Ordering {
    super::charge(1);
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x.cmp(y),
        (Val::Int(_) | Val::Float(_), _) => {
            let (x, y) = (as_f64(a), as_f64(b));
            match (x.is_nan(), y.is_nan()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            }
        }
        (Val::Str(x), Val::Str(y)) => x.cmp(y),
        (Val::Bool(x), Val::Bool(y)) => x.cmp(y),
        (Val::Node(x), Val::Node(y)) => x.cmp(y),
        (Val::Rel(x), Val::Rel(y)) => x.cmp(y),
        (Val::List(xs), Val::List(ys)) => {
            for (x, y) in xs.iter().zip(ys.iter()) {
                match order(x, y) {
                    Ordering::Equal => {}
                    other => return other,
                }
            }
            xs.len().cmp(&ys.len())
        }
        (Val::Path(x), Val::Path(y)) => x.nodes.cmp(&y.nodes).then_with(|| x.rels.cmp(&y.rels)),
        (Val::Temporal(x), Val::Temporal(y)) => temporal::order(x, y),
        (Val::Map(xs), Val::Map(ys)) => {
            let mut kx = Vec::new();
            let mut ky = Vec::new();
            Val::Map(xs.clone()).key(&mut kx);
            Val::Map(ys.clone()).key(&mut ky);
            kx.cmp(&ky)
        }
        _ => Ordering::Equal,
    }
}

/// A node's labels: its `labels` attribute split at commas, each trimmed,
/// empty ones dropped (the convention of the work tools' label filter); a list
/// value gives its strings.
pub(crate) fn labels(net: &Network, ix: NodeIndex) -> Vec<String> {
    match net.graph()[ix].attributes.get(LABELS_ATTRIBUTE) {
        Some(Value::String(s)) => s
            .split(',')
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a `labels` attribute value names `label`.
pub(crate) fn labels_value_has(value: Option<&Value>, label: &str) -> bool {
    match value {
        Some(Value::String(s)) => s.split(',').any(|l| l.trim() == label),
        Some(Value::Array(items)) => items.iter().any(|v| v.as_str() == Some(label)),
        _ => false,
    }
}

/// A relationship's type: its `relation` attribute when it is a non-empty
/// string, else [`DEFAULT_TYPE`].
pub(crate) fn rel_type(net: &Network, ix: EdgeIndex) -> &str {
    match net.graph()[ix].attributes.get(TYPE_ATTRIBUTE) {
        Some(Value::String(s)) if !s.is_empty() => s,
        _ => DEFAULT_TYPE,
    }
}

/// A node's property: `id`, `data`, else the attribute of that name.
pub(crate) fn node_property(net: &Network, ix: NodeIndex, key: &str) -> Val {
    let node = &net.graph()[ix];
    match key {
        "id" => Val::str(node.id.as_str()),
        "data" => node.data.as_deref().map_or(Val::Null, Val::from_json),
        _ => node.attributes.get(key).map_or(Val::Null, Val::from_json),
    }
}

/// A relationship's property: `weight`, else the attribute of that name.
pub(crate) fn rel_property(net: &Network, ix: EdgeIndex, key: &str) -> Val {
    let edge = &net.graph()[ix];
    match key {
        "weight" => Val::Float(edge.weight),
        _ => edge.attributes.get(key).map_or(Val::Null, Val::from_json),
    }
}

/// Every property of a node (`id`, its attributes, `data` when it has some).
pub(crate) fn node_properties(net: &Network, ix: NodeIndex, with_id: bool) -> Vec<(String, Val)> {
    let node = &net.graph()[ix];
    let mut out = Vec::new();
    if with_id {
        out.push(("id".to_string(), Val::str(node.id.to_string())));
    }
    for (k, v) in node.attributes.iter() {
        if k != "id" && k != "data" {
            out.push((k.to_string(), Val::from_json(v)));
        }
    }
    if let Some(data) = node.data.as_deref() {
        out.push(("data".to_string(), Val::from_json(data)));
    }
    out
}

/// Every property of a relationship (`weight`, then its attributes).
pub(crate) fn rel_properties(net: &Network, ix: EdgeIndex) -> Vec<(String, Val)> {
    let edge = &net.graph()[ix];
    let mut out = vec![("weight".to_string(), Val::Float(edge.weight))];
    for (k, v) in edge.attributes.iter() {
        if k != "weight" {
            out.push((k.to_string(), Val::from_json(v)));
        }
    }
    out
}

fn node_json(net: &Network, ix: NodeIndex) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), Value::String(net.id_at(ix).to_string()));
    out.insert(
        "labels".into(),
        Value::Array(labels(net, ix).into_iter().map(Value::String).collect()),
    );
    out.insert(
        "properties".into(),
        Val::map(node_properties(net, ix, false)).to_json(net),
    );
    Value::Object(out)
}

fn rel_json(net: &Network, ix: EdgeIndex) -> Value {
    let g = net.graph();
    let mut out = Map::new();
    let (source, target) = g.edge_endpoints(ix).unwrap_or_default();
    out.insert("id".into(), Value::from(g[ix].id));
    out.insert("type".into(), Value::String(rel_type(net, ix).to_string()));
    out.insert(
        "source".into(),
        Value::String(net.id_at(source).to_string()),
    );
    out.insert(
        "target".into(),
        Value::String(net.id_at(target).to_string()),
    );
    out.insert(
        "properties".into(),
        Val::map(rel_properties(net, ix)).to_json(net),
    );
    Value::Object(out)
}
