//! Reads Task Master's `tasks.json` (`.taskmaster/tasks/tasks.json`), in both of
//! its layouts: the tagged one Task Master writes today,
//! `{"master": {"tasks": [...], "metadata": {...}}, "<tag>": {...}}`, of which the
//! `master` tag is read (or, without one, the first tag), and the older
//! `{"tasks": [...], "metadata": {...}}`. The shapes are Task Master's own
//! (`packages/tm-core/src/common/types/index.ts`, its file storage's format
//! handler).
//!
//! A task is a node: `id` (a number or a string) its id; `title`, `description`,
//! `details`, `status` and `assignee` attributes of the same names,
//! `testStrategy` the attribute `test_strategy`, `tags` the attribute `labels`
//! (joined with commas), and `priority` a number on Beads' scale, where lower is
//! more urgent: `critical` 0, `high` 1, `medium` 2, `low` 3 (a number is kept as
//! it is). Every other field (`complexity`, `metadata`, `relevantFiles`, ...)
//! goes into the node's `data` object. A subtask is a node `<task id>.<subtask
//! id>` (`3.1`) with the attribute `parent` = its task's id. Each dependency is
//! an edge from the task to what it depends on: a task's dependencies are task
//! ids (or dotted subtask ids); a subtask's dependency without a dot is a
//! sibling subtask (`2` in task 3 is `3.2`) when task 3 has one, else the task
//! of that id, as Task Master reads them. O(size of the document).

use serde_json::{Map, Value};

use super::plans::{self, PARENT};
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::TaskmasterJson;

/// Fields copied to attributes: (Task Master's name, ours).
const ATTRIBUTES: [(&str, &str); 6] = [
    ("title", "title"),
    ("description", "description"),
    ("details", "details"),
    ("testStrategy", "test_strategy"),
    ("status", "status"),
    ("assignee", "assignee"),
];

fn error(path: &str, message: impl Into<String>) -> crate::Error {
    plans::field_error(FORMAT, path.to_string(), message)
}

/// Parses a Task Master `tasks.json`. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let Value::Object(mut root) = plans::json(FORMAT, content, 1)? else {
        return Err(error(
            "(root)",
            "the document must be a JSON object: {\"master\": {\"tasks\": [...]}} or {\"tasks\": [...]}",
        ));
    };
    // The older layout has only "tasks" and "metadata" at the top; any other key
    // is a tag (Task Master's own test).
    let tagged = root.keys().any(|k| k != "tasks" && k != "metadata");
    let (prefix, mut holder) = if tagged {
        let tag = if root.contains_key("master") {
            "master".to_string()
        } else {
            root.keys()
                .find(|k| *k != "tasks" && *k != "metadata")
                .cloned()
                .unwrap_or_default()
        };
        match root.shift_remove(&tag) {
            Some(Value::Object(holder)) => (format!("{tag}."), holder),
            _ => {
                return Err(error(
                    &tag,
                    format!("tag \"{tag}\" must be an object {{\"tasks\": [...]}}"),
                ));
            }
        }
    } else {
        (String::new(), root)
    };
    let description = holder
        .get("metadata")
        .and_then(|m| m.get("description"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let tasks = match holder.shift_remove("tasks") {
        Some(Value::Array(tasks)) => tasks,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => {
            return Err(error(
                &format!("{prefix}tasks"),
                "\"tasks\" must be an array",
            ));
        }
    };
    let mut graph = ImportedGraph {
        description,
        ..ImportedGraph::default()
    };
    for (i, task) in tasks.into_iter().enumerate() {
        crate::budget::charge(1);
        let path = format!("{prefix}tasks[{i}]");
        let Value::Object(mut task) = task else {
            return Err(error(&path, "each task must be an object with an \"id\""));
        };
        let id = task_id(&task, &path)?;
        let subtasks = match task.shift_remove("subtasks") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items,
            Some(_) => {
                return Err(error(
                    &format!("{path}.subtasks"),
                    "\"subtasks\" must be an array",
                ));
            }
        };
        // The subtasks' full ids first: a subtask's short dependency names a
        // sibling only when the sibling exists.
        let mut sub_ids = Vec::with_capacity(subtasks.len());
        for (j, sub) in subtasks.iter().enumerate() {
            let sub_path = format!("{path}.subtasks[{j}]");
            let Value::Object(sub) = sub else {
                return Err(error(
                    &sub_path,
                    "each subtask must be an object with an \"id\"",
                ));
            };
            let sub_id = task_id(sub, &sub_path)?;
            sub_ids.push(if sub_id.contains('.') {
                sub_id
            } else {
                format!("{id}.{sub_id}")
            });
        }
        let depends_on = dependencies(&mut task, &path, |dep| dep)?;
        push_task(&mut graph, meter, id.clone(), task, None, depends_on, &path)?;
        let siblings: hashbrown::HashSet<&str> = sub_ids.iter().map(String::as_str).collect();
        for (j, (sub, sub_id)) in subtasks.into_iter().zip(&sub_ids).enumerate() {
            crate::budget::charge(1);
            let sub_path = format!("{path}.subtasks[{j}]");
            let Value::Object(mut sub) = sub else {
                continue;
            };
            let depends_on = dependencies(&mut sub, &sub_path, |dep: String| {
                let sibling = format!("{id}.{dep}");
                if !dep.contains('.') && siblings.contains(sibling.as_str()) {
                    sibling
                } else {
                    dep
                }
            })?;
            sub.shift_remove("parentId");
            sub.shift_remove("parentTaskId");
            push_task(
                &mut graph,
                meter,
                sub_id.clone(),
                sub,
                Some(&id),
                depends_on,
                &sub_path,
            )?;
        }
    }
    Ok(graph)
}

/// A task's or subtask's id, as text.
fn task_id(task: &Map<String, Value>, path: &str) -> Result<String> {
    match task.get("id") {
        Some(value) => plans::id_text(value).ok_or_else(|| {
            error(
                &format!("{path}.id"),
                "a task id must be a number or a string",
            )
        }),
        None => Err(error(
            &format!("{path}.id"),
            "the task has no \"id\"; give every task and subtask an id",
        )),
    }
}

/// Takes a task's `dependencies` as full ids (`resolve` turns a written id into one).
fn dependencies(
    task: &mut Map<String, Value>,
    path: &str,
    resolve: impl Fn(String) -> String,
) -> Result<Vec<String>> {
    let items = match task.shift_remove("dependencies") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => {
            return Err(error(
                &format!("{path}.dependencies"),
                "\"dependencies\" must be an array of task ids",
            ));
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(k, dep)| {
            plans::id_text(dep).map(&resolve).ok_or_else(|| {
                error(
                    &format!("{path}.dependencies[{k}]"),
                    "a dependency must be a task id: a number, or a string such as \"3\" or \"3.1\"",
                )
            })
        })
        .collect()
}

/// Adds one task or subtask and its dependency edges.
fn push_task(
    graph: &mut ImportedGraph,
    meter: &mut Meter,
    id: String,
    mut task: Map<String, Value>,
    parent: Option<&str>,
    dependencies: Vec<String>,
    path: &str,
) -> Result<()> {
    task.shift_remove("id");
    let mut attributes = Map::new();
    for (from, to) in ATTRIBUTES {
        plans::take_scalar(&mut task, from, to, &mut attributes);
    }
    match task.shift_remove("priority") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) => {
            attributes.insert("priority".into(), Value::Number(n));
        }
        Some(Value::String(word)) => {
            let rank = match word.as_str() {
                "critical" => 0,
                "high" => 1,
                "medium" => 2,
                "low" => 3,
                _ => {
                    return Err(error(
                        &format!("{path}.priority"),
                        format!(
                            "priority '{}' is not one of Task Master's: critical, high, medium, low",
                            crate::error::clip(&word, 64)
                        ),
                    ));
                }
            };
            attributes.insert("priority".into(), Value::from(rank));
        }
        Some(_) => {
            return Err(error(
                &format!("{path}.priority"),
                "priority must be critical, high, medium, low or a number",
            ));
        }
    }
    plans::take_labels(FORMAT, &mut task, "tags", &mut attributes, || {
        format!("{path}.tags")
    })?;
    if let Some(parent) = parent {
        attributes.insert(PARENT.into(), Value::String(parent.to_string()));
    }
    let data = plans::rest(task);
    meter.node(&id, &attributes, data.as_ref(), || format!("at {path}"))?;
    for target in dependencies {
        let edge = EdgeSpec {
            source: id.clone(),
            target,
            weight: DEFAULT_WEIGHT,
            attributes: Map::new(),
        };
        meter.edge(&edge.source, &edge.target, &edge.attributes, || {
            format!("at {path}.dependencies")
        })?;
        graph.edges.push(edge);
    }
    graph.nodes.push(NodeSpec {
        id,
        data,
        attributes,
    });
    Ok(())
}
