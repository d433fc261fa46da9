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
//!
//! Blocking goes down the hierarchy in Beads: an issue is blocked when a
//! `blocks` dependency of it is not closed, or when its parent (through a
//! `parent-child` dependency) is blocked, transitively (`RecomputeIsBlocked`
//! in Beads' `internal/storage/issueops/blocked_state.go`); a closed or pinned
//! issue is never blocked, so blocking stops there. The network reads
//! readiness from edges alone, so each issue that is neither closed nor pinned
//! also gets an edge to each blocker of its open ancestors (those reached
//! without passing a closed or pinned one): `issue → blocker`, with the
//! blocker's `relation` and the attribute `inherited_from` = the ancestor whose
//! dependency it is. A `waits-for` dependency waits on the children of the
//! issue it names, and becomes edges to them (see `gate_waits_for`). The other
//! scalar fields of a dependency (`created_at`, `metadata`, ...) are attributes
//! of its edge. Its ready work is then `bd ready`'s. O(size of the document +
//! the edges so added).

use serde_json::{Map, Value};

use super::plans::{self, PARENT, RELATION};
use crate::error::Result;
use crate::interchange::apply::{check_edge_at, check_node_at};
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph, invalid};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::BeadsJsonl;

/// The well-known dependency types Beads does not count against ready work
/// (`DependencyType::AffectsReadyWork` is false; `blocks`, `conditional-blocks`
/// and `waits-for` hold work back). `waits-for` too, as an edge: it waits on
/// the children of the issue it names, not on that issue, so the import adds
/// those edges (see [`gate_waits_for`]). `parent-child` too: in Beads it is the
/// hierarchy, which the `parent` attribute carries here; as a prerequisite the
/// child would wait for its epic, which waits for its children. A type Beads
/// does not know stays a plain dependency.
pub(crate) const NONBLOCKING: [&str; 17] = [
    "parent-child",
    "waits-for",
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

/// The edge attribute naming the ancestor whose blocking dependency an
/// inherited edge copies.
pub(crate) const INHERITED_FROM: &str = "inherited_from";

/// Parses a Beads JSONL export. O(size of the document), plus the inherited
/// edges, counted against `max_edges` and the meter as they are made.
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut graph = ImportedGraph::default();
    let mut skipped = 0usize;
    let mut dropped_fields = 0usize;
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
            Some(_) => {
                skipped += 1;
                continue;
            }
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
        // Checked before its dependencies, which start at it.
        crate::network::validate::id("id", &id)
            .map_err(|e| invalid(FORMAT, Some(at("id")), e.to_string()))?;
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
            let Value::Object(mut dependency) = dependency else {
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
            // The dependency's other fields (`created_at`, `created_by`,
            // `metadata`, `thread_id`): scalars kept as edge attributes.
            for key in ["issue_id", "depends_on_id", "type"] {
                dependency.shift_remove(key);
            }
            for (key, value) in dependency {
                match value {
                    Value::Null => {}
                    Value::String(_) | Value::Number(_) | Value::Bool(_) => {
                        if key != RELATION && key != INHERITED_FROM && key != WAITS_FOR {
                            edge_attributes.insert(key, value);
                        } else {
                            dropped_fields += 1;
                        }
                    }
                    Value::Object(_) if key == "metadata" => {
                        edge_attributes.insert(key, Value::String(value.to_string()));
                    }
                    _ => dropped_fields += 1,
                }
            }
            let edge = EdgeSpec {
                source,
                target,
                weight: DEFAULT_WEIGHT,
                attributes: edge_attributes,
            };
            check_edge_at(FORMAT, &edge, || at(&format!("dependencies[{i}]")))?;
            edges.push(edge);
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
        let node = NodeSpec {
            id,
            data,
            attributes,
        };
        check_node_at(FORMAT, &node, || format!("line {line}"))?;
        graph.nodes.push(node);
        graph.edges.extend(edges);
    }
    if skipped > 0 {
        graph.notes.push(crate::interchange::ImportNote::ignored(format!(
            "{skipped} line(s) whose \"_type\" is not \"issue\" (such as bd export's memories) were skipped: only issues become nodes"
        )));
    }
    if dropped_fields > 0 {
        graph.notes.push(crate::interchange::ImportNote::ignored(format!(
            "{dropped_fields} field(s) of dependencies were not kept: lists and objects (but \"metadata\"), and fields named like the attributes the import writes"
        )));
    }
    gate_waits_for(&mut graph, max_edges, meter)?;
    inherit_blockers(&mut graph, max_edges, meter)?;
    Ok(graph)
}

/// The edge attribute naming the issue whose children a `waits-for` gate
/// waits on.
pub(crate) const WAITS_FOR: &str = "waits_for";
/// The relation of the edges a `waits-for` gate becomes.
const WAITS_FOR_CHILD: &str = "waits-for-child";

/// Beads' `waits-for` (a fan-out gate): the issue is blocked while the issue it
/// names has a child (through `parent-child`) that is neither closed nor pinned;
/// with the gate `any-children` in its `metadata`, not once one child is closed
/// (`waitsForGateBlockedSQL` in `blocked_state.go`). So the `waits-for` edge
/// itself holds nothing back (its type is declared non-blocking), and each
/// gate becomes an edge from the issue to each child of the named issue,
/// relation `waits-for-child`, attribute `waits_for` = the named issue; an
/// `any-children` gate that a closed child has opened becomes none.
/// O(dependencies + the edges added).
fn gate_waits_for(graph: &mut ImportedGraph, max_edges: usize, meter: &mut Meter) -> Result<()> {
    let relation_of = |edge: &EdgeSpec| {
        edge.attributes
            .get(RELATION)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if !graph.edges.iter().any(|e| relation_of(e) == "waits-for") {
        return Ok(());
    }
    let status: hashbrown::HashMap<&str, &Map<String, Value>> = graph
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), &n.attributes))
        .collect();
    let mut children: hashbrown::HashMap<&str, Vec<&str>> = hashbrown::HashMap::new();
    for edge in &graph.edges {
        crate::budget::charge(1);
        if relation_of(edge) == "parent-child" && status.contains_key(edge.source.as_str()) {
            let list = children.entry(edge.target.as_str()).or_default();
            if !list.contains(&edge.source.as_str()) {
                list.push(edge.source.as_str());
            }
        }
    }
    let mut added = Vec::new();
    for edge in &graph.edges {
        crate::budget::charge(1);
        if relation_of(edge) != "waits-for" {
            continue;
        }
        let Some(kids) = children.get(edge.target.as_str()) else {
            continue;
        };
        let any = edge
            .attributes
            .get("metadata")
            .and_then(Value::as_str)
            .and_then(|m| serde_json::from_str::<Value>(m).ok())
            .is_some_and(|m| m.get("gate").and_then(Value::as_str) == Some("any-children"));
        if any
            && kids
                .iter()
                .any(|k| status.get(k).is_some_and(|a| closed(a)))
        {
            continue;
        }
        // A pinned child holds nothing back (Beads: `child.status <> 'pinned'`).
        let pinned = |k: &str| {
            status
                .get(k)
                .is_some_and(|a| matches!(a.get("status"), Some(Value::String(s)) if s == "pinned"))
        };
        for kid in kids.iter().filter(|k| !pinned(k)) {
            if graph.edges.len() + added.len() >= max_edges {
                return Err(crate::limits::Limits::import_edges_exceeded(max_edges));
            }
            let mut attributes = Map::new();
            attributes.insert(RELATION.into(), Value::from(WAITS_FOR_CHILD));
            attributes.insert(WAITS_FOR.into(), Value::String(edge.target.clone()));
            meter.edge(&edge.source, kid, &attributes, || {
                format!(
                    "at the waits-for gate of issue '{}'",
                    crate::error::clip(&edge.source, 40)
                )
            })?;
            added.push(EdgeSpec {
                source: edge.source.clone(),
                target: (*kid).to_string(),
                weight: DEFAULT_WEIGHT,
                attributes,
            });
        }
    }
    drop(children);
    drop(status);
    graph.edges.extend(added);
    Ok(())
}

/// Whether an issue is closed (a pinned one is not, though it blocks nothing).
fn closed(attributes: &Map<String, Value>) -> bool {
    matches!(attributes.get("status"), Some(Value::String(s)) if s == "closed")
}

/// Whether an issue of this status can be blocked (Beads: not closed, not pinned).
fn open(attributes: &Map<String, Value>) -> bool {
    !matches!(attributes.get("status"), Some(Value::String(s)) if s == "closed" || s == "pinned")
}

/// Adds, for each open issue, an edge to each blocker of its open ancestors
/// (see the module doc). The parent links among open issues are condensed into
/// their strongly connected groups (a loop of parents shares its blockers), and
/// each group's blockers are gathered once, roots first. O(issues +
/// dependencies + the edges added).
fn inherit_blockers(graph: &mut ImportedGraph, max_edges: usize, meter: &mut Meter) -> Result<()> {
    use petgraph::graph::{DiGraph, NodeIndex};
    let mut index: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        index.entry(node.id.as_str()).or_insert(i);
    }
    let is_open: Vec<bool> = graph.nodes.iter().map(|n| open(&n.attributes)).collect();
    let mut parents: DiGraph<(), ()> = DiGraph::with_capacity(graph.nodes.len(), 0);
    for _ in &graph.nodes {
        parents.add_node(());
    }
    // Each open issue's own blocking dependencies (edge positions).
    let mut own: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    let mut any_parent = false;
    for (e, edge) in graph.edges.iter().enumerate() {
        crate::budget::charge(1);
        let Some(&child) = index.get(edge.source.as_str()) else {
            continue;
        };
        if !is_open[child] {
            continue;
        }
        let relation = edge
            .attributes
            .get(RELATION)
            .and_then(Value::as_str)
            .unwrap_or("");
        if relation == "parent-child" {
            if let Some(&parent) = index.get(edge.target.as_str())
                && is_open[parent]
            {
                parents.add_edge(NodeIndex::new(child), NodeIndex::new(parent), ());
                any_parent = true;
            }
        } else if !NONBLOCKING.contains(&relation) {
            own[child].push(e);
        }
    }
    if !any_parent {
        return Ok(());
    }
    // Groups come sinks first: a group's parents' groups are done before it.
    let groups = petgraph::algo::tarjan_scc(&parents);
    let mut group_of = vec![0usize; graph.nodes.len()];
    for (g, members) in groups.iter().enumerate() {
        for m in members {
            group_of[m.index()] = g;
        }
    }
    // Each group's blockers: (edge position of the dependency), one per target.
    let mut blockers: Vec<Vec<usize>> = Vec::with_capacity(groups.len());
    let mut made = graph.edges.len();
    let mut added = Vec::new();
    for (g, members) in groups.iter().enumerate() {
        let mut seen: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
        let mut list: Vec<usize> = Vec::new();
        let mut take = |e: usize, list: &mut Vec<usize>| {
            if seen.insert(graph.edges[e].target.as_str()) {
                list.push(e);
            }
        };
        for m in members {
            for &e in &own[m.index()] {
                take(e, &mut list);
            }
        }
        for m in members {
            for p in parents.neighbors(*m) {
                let pg = group_of[p.index()];
                if pg != g {
                    for &e in &blockers[pg] {
                        crate::budget::charge(1);
                        take(e, &mut list);
                    }
                }
            }
        }
        // The members' edges to what they inherit (their own are there).
        for m in members {
            let child = m.index();
            let id = &graph.nodes[child].id;
            // A set: an issue may have many blockers of its own, and each
            // inherited one is checked against them.
            let own_targets: hashbrown::HashSet<&str> = own[child]
                .iter()
                .map(|&o| graph.edges[o].target.as_str())
                .collect();
            for &e in &list {
                crate::budget::charge(1);
                let from = &graph.edges[e];
                if from.source == *id || own_targets.contains(from.target.as_str()) {
                    continue;
                }
                made += 1;
                if made > max_edges {
                    return Err(crate::limits::Limits::import_edges_exceeded(max_edges));
                }
                let mut attributes = Map::new();
                if let Some(relation) = from.attributes.get(RELATION) {
                    attributes.insert(RELATION.into(), relation.clone());
                }
                attributes.insert(INHERITED_FROM.into(), Value::String(from.source.clone()));
                meter.edge(id, &from.target, &attributes, || {
                    format!(
                        "at the blockers issue '{}' inherits",
                        crate::error::clip(id, 40)
                    )
                })?;
                added.push(EdgeSpec {
                    source: id.clone(),
                    target: from.target.clone(),
                    weight: DEFAULT_WEIGHT,
                    attributes,
                });
            }
        }
        blockers.push(list);
    }
    graph.edges.extend(added);
    Ok(())
}
