//! What the readers of package managers' dependency graphs share (Cargo, npm,
//! Go, pipdeptree): the graph they build, one node per package with its
//! attributes and one edge per dependency ("A depends on B", stored A → B, its
//! kind in `relation`), counted against the import bounds as it is made, and
//! the error for a field of the wrong shape.

use hashbrown::HashMap;
use serde_json::{Map, Value};

use super::plans::{self, RELATION};
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph};
use crate::limits::Limits;
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

/// The node attribute marking a package of the workspace (Cargo, npm).
pub(crate) const WORKSPACE_MEMBER: &str = "workspace_member";

/// A graph being read: the nodes by id (the first wins; a reader refuses a
/// document that names one package twice before it gets here), the edges in
/// document order, and both counted against the bounds before they are made.
pub(crate) struct Builder<'m> {
    format: Format,
    max_edges: usize,
    meter: &'m mut Meter,
    graph: ImportedGraph,
    index: HashMap<String, usize>,
}

impl<'m> Builder<'m> {
    pub(crate) fn new(format: Format, max_edges: usize, meter: &'m mut Meter) -> Self {
        Builder {
            format,
            max_edges,
            meter,
            graph: ImportedGraph::default(),
            index: HashMap::new(),
        }
    }

    /// Whether a node with this id was added.
    pub(crate) fn has(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// The attributes of the node `id`, if it was added.
    pub(crate) fn attributes_mut(&mut self, id: &str) -> Option<&mut Map<String, Value>> {
        let i = *self.index.get(id)?;
        self.graph.nodes.get_mut(i).map(|n| &mut n.attributes)
    }

    /// Adds the node `id` unless there is one (then nothing changes and the
    /// answer is false). `at` names the place in the document.
    pub(crate) fn node(
        &mut self,
        id: String,
        attributes: Map<String, Value>,
        at: impl FnOnce() -> String,
    ) -> Result<bool> {
        crate::budget::charge(1);
        if self.index.contains_key(&id) {
            return Ok(false);
        }
        self.meter.node(&id, &attributes, None, at)?;
        self.index.insert(id.clone(), self.graph.nodes.len());
        self.graph.nodes.push(NodeSpec {
            id,
            data: None,
            attributes,
        });
        Ok(true)
    }

    /// Adds the edge `source → target` ("source depends on target") with
    /// `relation` (none: a plain dependency) and other attributes.
    pub(crate) fn edge(
        &mut self,
        source: &str,
        target: &str,
        relation: Option<&str>,
        mut attributes: Map<String, Value>,
        at: impl FnOnce() -> String,
    ) -> Result<()> {
        crate::budget::charge(1);
        if self.graph.edges.len() >= self.max_edges {
            return Err(Limits::import_edges_exceeded(self.max_edges));
        }
        if let Some(relation) = relation {
            attributes.insert(RELATION.into(), Value::from(relation));
        }
        self.meter.edge(source, target, &attributes, at)?;
        self.graph.edges.push(EdgeSpec {
            source: source.to_string(),
            target: target.to_string(),
            weight: DEFAULT_WEIGHT,
            attributes,
        });
        Ok(())
    }

    /// The error for what is wrong at `location`.
    pub(crate) fn error(
        &self,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> crate::Error {
        plans::field_error(self.format, location.into(), message)
    }

    /// The graph read, with `notes`.
    pub(crate) fn finish(self) -> ImportedGraph {
        self.graph
    }

    /// The graph's notes, to add to.
    pub(crate) fn notes(&mut self) -> &mut Vec<crate::interchange::ImportNote> {
        &mut self.graph.notes
    }
}

/// A field that must be a string when present: `Ok(None)` when absent or null.
pub(crate) fn optional_text<'v>(
    format: Format,
    object: &'v Map<String, Value>,
    field: &str,
    at: impl FnOnce() -> String,
) -> Result<Option<&'v str>> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(plans::field_error(
            format,
            at(),
            format!("\"{field}\" must be a string"),
        )),
    }
}

/// A field that must be a string.
pub(crate) fn text<'v>(
    format: Format,
    object: &'v Map<String, Value>,
    field: &str,
    at: impl Fn() -> String,
) -> Result<&'v str> {
    optional_text(format, object, field, &at)?.ok_or_else(|| {
        plans::field_error(
            format,
            at(),
            format!("\"{field}\" is missing; it must be a string"),
        )
    })
}

/// A field that must be an array when present (absent or null: empty).
pub(crate) fn list<'v>(
    format: Format,
    object: &'v Map<String, Value>,
    field: &str,
    at: impl FnOnce() -> String,
) -> Result<&'v [Value]> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(plans::field_error(
            format,
            at(),
            format!("\"{field}\" must be an array"),
        )),
    }
}

/// The value as an object, or an error saying what it must be.
pub(crate) fn object<'v>(
    format: Format,
    value: &'v Value,
    at: impl FnOnce() -> String,
    what: &str,
) -> Result<&'v Map<String, Value>> {
    value
        .as_object()
        .ok_or_else(|| plans::field_error(format, at(), format!("{what} must be a JSON object")))
}
