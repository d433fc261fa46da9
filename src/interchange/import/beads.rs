//! Reads the JSONL export of the Beads issue tracker (`bd export`, the
//! `issues.jsonl` of a Beads repository): one issue a line, as Beads' `Issue`
//! type serialises it (`internal/types/types.go`).
//!
//! An issue is a node: `id` its id; `title`, `description`, `status`,
//! `priority` (a number: 0 is the most urgent), `issue_type` and `assignee`
//! attributes of the same names; `labels` (a list) the attribute `labels`, joined
//! with commas. Every other field (timestamps, `design`, `notes`, `comments`,
//! `metadata`, ...) goes into the node's `data` object, so nothing is lost; the
//! counts Beads derives (`dependency_count`, `dependent_count`, `comment_count`)
//! are dropped. Each of the issue's `dependencies`
//! (`{issue_id, depends_on_id, type}`) is an edge `issue_id → depends_on_id` (the
//! issue depends on the other) with the attribute `relation` = `type` (`blocks`
//! when absent); a `parent-child` dependency also sets the issue's `parent`
//! attribute to `depends_on_id` (the first, when there are several). Lines whose
//! `_type` is not `issue` (`bd export --memories` writes `memory` lines) are
//! skipped. The dependency types Beads does not count against ready work
//! ([`NONBLOCKING`]) that the document uses are declared non-blocking for the
//! network, so that a plan's ready work is what `bd ready` shows.
//! O(size of the document).

use serde_json::{Map, Value};

use super::plans::{self, PARENT, RELATION};
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::BeadsJsonl;

/// The well-known dependency types Beads does not count against ready work
/// (`DependencyType::AffectsReadyWork` is false; `blocks`, `conditional-blocks`
/// and `waits-for` hold work back). `parent-child` too: in Beads it is the
/// hierarchy, which the `parent` attribute carries here; as a prerequisite the
/// child would wait for its epic, which waits for its children. A type Beads
/// does not know stays a plain dependency.
pub(crate) const NONBLOCKING: [&str; 16] = [
    "parent-child",
    "related",
    "discovered-from",
    "replies-to",
    "relates-to",
    "duplicates",
    "supersedes",
    "authored-by",
    "assigned-to",
    "approved-by",
    "attests",
    "tracks",
    "until",
    "caused-by",
    "validates",
    "delegated-from",
];

/// Fields copied to attributes of the same name.
const ATTRIBUTES: [&str; 6] = [
    "title",
    "description",
    "status",
    "priority",
    "issue_type",
    "assignee",
];
/// Fields Beads derives on export: dropped.
const DERIVED: [&str; 4] = [
    "_type",
    "dependency_count",
    "dependent_count",
    "comment_count",
];

/// Parses a Beads JSONL export. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut graph = ImportedGraph::default();
    for (line, text) in plans::lines(content) {
        crate::budget::charge(1);
        let Value::Object(mut object) = plans::json(FORMAT, text, line)? else {
            return Err(plans::field_error(
                FORMAT,
                format!("line {line}, column 1"),
                "each line must be a JSON object: one Beads issue with an \"id\"",
            ));
        };
        match object.get("_type") {
            None | Some(Value::Null) => {}
            Some(Value::String(kind)) if kind == "issue" => {}
            Some(_) => continue,
        }
        let at = |field: &str| format!("line {line}, field \"{field}\"");
        let id = match object.shift_remove("id") {
            Some(Value::String(id)) => id,
            Some(_) => {
                return Err(plans::field_error(
                    FORMAT,
                    at("id"),
                    "\"id\" must be a string such as \"bd-a1b2\"",
                ));
            }
            None => {
                return Err(plans::field_error(
                    FORMAT,
                    at("id"),
                    "the issue has no \"id\"; every line of a Beads export is an issue with an id",
                ));
            }
        };
        let mut attributes = Map::new();
        for field in ATTRIBUTES {
            plans::take_scalar(&mut object, field, field, &mut attributes);
        }
        if let Some(priority) = attributes.get("priority")
            && !priority.is_number()
        {
            return Err(plans::field_error(
                FORMAT,
                at("priority"),
                "\"priority\" must be a number (0 is the most urgent, 4 the least)",
            ));
        }
        plans::take_labels(FORMAT, &mut object, "labels", &mut attributes, || {
            at("labels")
        })?;
        let dependencies = match object.shift_remove("dependencies") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items,
            Some(_) => {
                return Err(plans::field_error(
                    FORMAT,
                    at("dependencies"),
                    "\"dependencies\" must be an array of {issue_id, depends_on_id, type}",
                ));
            }
        };
        let mut edges = Vec::with_capacity(dependencies.len());
        for (i, dependency) in dependencies.into_iter().enumerate() {
            crate::budget::charge(1);
            let here = |field: &str| at(&format!("dependencies[{i}].{field}"));
            let Value::Object(dependency) = dependency else {
                return Err(plans::field_error(
                    FORMAT,
                    at(&format!("dependencies[{i}]")),
                    "each dependency must be an object {issue_id, depends_on_id, type}",
                ));
            };
            let source = match dependency.get("issue_id") {
                None | Some(Value::Null) => id.clone(),
                Some(Value::String(s)) => s.clone(),
                Some(_) => {
                    return Err(plans::field_error(
                        FORMAT,
                        here("issue_id"),
                        "\"issue_id\" must be a string",
                    ));
                }
            };
            let target = match dependency.get("depends_on_id") {
                Some(Value::String(s)) => s.clone(),
                _ => {
                    return Err(plans::field_error(
                        FORMAT,
                        here("depends_on_id"),
                        "each dependency needs \"depends_on_id\", the id (a string) of the issue depended on",
                    ));
                }
            };
            let relation = match dependency.get("type") {
                None | Some(Value::Null) => "blocks".to_string(),
                Some(Value::String(s)) => s.clone(),
                Some(_) => {
                    return Err(plans::field_error(
                        FORMAT,
                        here("type"),
                        "\"type\" must be a string such as \"blocks\" or \"parent-child\"",
                    ));
                }
            };
            if NONBLOCKING.contains(&relation.as_str())
                && !graph.nonblocking_relations.contains(&relation)
            {
                graph.nonblocking_relations.push(relation.clone());
            }
            if relation == "parent-child" && source == id && !attributes.contains_key(PARENT) {
                attributes.insert(PARENT.into(), Value::String(target.clone()));
            }
            let mut edge_attributes = Map::new();
            edge_attributes.insert(RELATION.into(), Value::String(relation));
            edges.push(EdgeSpec {
                source,
                target,
                weight: DEFAULT_WEIGHT,
                attributes: edge_attributes,
            });
        }
        for field in DERIVED {
            object.shift_remove(field);
        }
        let data = plans::rest(object);
        meter.node(&id, &attributes, data.as_ref(), || {
            format!("at line {line}")
        })?;
        for edge in &edges {
            meter.edge(&edge.source, &edge.target, &edge.attributes, || {
                format!("at line {line}")
            })?;
        }
        graph.nodes.push(NodeSpec {
            id,
            data,
            attributes,
        });
        graph.edges.extend(edges);
    }
    Ok(graph)
}
