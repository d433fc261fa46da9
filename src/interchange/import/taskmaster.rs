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
//! of that id, as Task Master reads them.
//!
//! The order of `task-master next`: it takes the subtasks of the tasks in
//! progress first, then the tasks (a subtask of a task not in progress never),
//! and among each the highest priority, then the fewest dependencies, then the
//! lowest id (`getNextTask` in
//! `packages/tm-core/src/modules/tasks/services/task-service.ts`; a subtask:
//! its task's id, then its own). The `priority` number says all of it: a
//! task's whole part is its priority (a task without one is `medium`, 2, as in
//! Task Master; a subtask without one takes its task's), and a fraction orders
//! the tasks of one priority by dependency count, then id: the k-th of n is
//! `priority + k / 10^d`, with 10^d the first power of ten above n (three
//! `high` tasks are 1.1, 1.2 and 1.3). The subtasks of a task in progress are
//! `-1 +` such a fraction, ranked among all of them, so they come first. A task
//! waits for its subtasks (the server's one rule for done), so the subtasks of
//! a task Task Master could pick now (pending or in progress, its dependencies
//! done) take its place: its number followed by their rank (1.21, 1.22 for
//! task 1.2's); the other subtasks are `10 +` their priority plus a fraction,
//! after every task. Ready work ordered by priority then starts with the task
//! `task-master next` names, or the subtask it names once that task is started
//! (the order is the plan's as imported). A priority written as a
//! number that is not whole is kept as it is. O(size of the document + n log n).

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
    let mut other_tags: Option<String> = None;
    let (prefix, mut holder) = if tagged {
        let tag = if root.contains_key("master") {
            "master".to_string()
        } else {
            root.keys()
                .find(|k| *k != "tasks" && *k != "metadata")
                .cloned()
                .unwrap_or_default()
        };
        let taken = root.shift_remove(&tag);
        let others: Vec<String> = root
            .keys()
            .filter(|k| *k != "tasks" && *k != "metadata")
            .take(20)
            .map(|k| format!("\"{}\"", crate::error::clip(k, 40)))
            .collect();
        if !others.is_empty() {
            other_tags = Some(others.join(", "));
        }
        match taken {
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
    let mut keys: Vec<Key> = Vec::new();
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
        let task_node = graph.nodes.len();
        keys.push(Key {
            node: graph.nodes.len(),
            parent: None,
            group: Group::Task,
            dependencies: depends_on.len(),
            id: (number(&id), None),
        });
        push_task(&mut graph, meter, id.clone(), task, None, depends_on, &path)?;
        let task_priority = graph
            .nodes
            .last()
            .and_then(|n| n.attributes.get("priority").cloned());
        // `task-master next` looks at the subtasks of the tasks in progress first.
        let started = graph
            .nodes
            .last()
            .and_then(|n| n.attributes.get("status"))
            .is_some_and(|s| s == "in-progress");
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
            keys.push(Key {
                node: graph.nodes.len(),
                parent: Some(task_node),
                group: if started {
                    Group::StartedSubtask
                } else {
                    Group::Subtask
                },
                dependencies: depends_on.len(),
                id: (
                    number(&id),
                    Some(number(sub_id.rsplit('.').next().unwrap_or(""))),
                ),
            });
            let inherits = matches!(sub.get("priority"), None | Some(Value::Null));
            push_task(
                &mut graph,
                meter,
                sub_id.clone(),
                sub,
                Some(&id),
                depends_on,
                &sub_path,
            )?;
            if inherits
                && let (Some(priority), Some(node)) = (&task_priority, graph.nodes.last_mut())
            {
                node.attributes.insert("priority".into(), priority.clone());
            }
        }
    }
    if let Some(tags) = other_tags {
        graph.notes.push(crate::interchange::ImportNote::ignored(format!(
            "only the tag \"{}\" was imported; the document's other tags were not: {tags}. Import each with its own tasks.json",
            prefix.trim_end_matches('.')
        )));
    }
    rank_priorities(&mut graph, &mut keys);
    Ok(graph)
}

/// What `task-master next` sorts a task by, besides its priority.
struct Key {
    /// The task's position in `graph.nodes`.
    node: usize,
    /// A subtask's task (its position in `graph.nodes`).
    parent: Option<usize>,
    /// Which of `task-master next`'s lists it is in.
    group: Group,
    /// How many dependencies it lists.
    dependencies: usize,
    /// Its id as Task Master compares it (`Number(id)`): a task's, or a
    /// subtask's task's and its own.
    id: (f64, Option<f64>),
}

/// `Number(text)` of JavaScript, for the ids Task Master compares (NaN for
/// anything but a number).
fn number(text: &str) -> f64 {
    let t = text.trim();
    if t.is_empty() {
        return 0.0;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

/// Numbers compared as JavaScript's `a - b` sorts them: NaN compares equal.
fn js_order(a: f64, b: f64) -> std::cmp::Ordering {
    a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal)
}

/// Where a task stands in `task-master next`'s order: the subtasks of the
/// tasks in progress first, then the tasks, then (never picked) the other
/// subtasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    StartedSubtask,
    Task,
    Subtask,
}

/// Writes each task's `priority` so that its order is `task-master next`'s
/// (see the module doc). O(n log n + dependencies).
fn rank_priorities(graph: &mut ImportedGraph, keys: &mut [Key]) {
    let level = |graph: &ImportedGraph, key: &Key| -> Option<f64> {
        match graph.nodes[key.node].attributes.get("priority") {
            None => Some(2.0),
            Some(value) => value.as_f64().filter(|p| p.fract() == 0.0 && p.abs() < 1e9),
        }
    };
    let by_key = |(la, a): &(f64, &Key), (lb, b): &(f64, &Key)| {
        js_order(*la, *lb)
            .then(a.dependencies.cmp(&b.dependencies))
            .then(js_order(a.id.0, b.id.0))
            .then(js_order(a.id.1.unwrap_or(0.0), b.id.1.unwrap_or(0.0)))
    };
    // A task Task Master could pick now: pending or in progress, every
    // dependency done. Its subtasks take its place in the order.
    let status = |node: usize| -> String {
        graph.nodes[node]
            .attributes
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("pending")
            .to_lowercase()
    };
    let done: hashbrown::HashSet<&str> = graph
        .nodes
        .iter()
        .filter(|n| n.attributes.get("status").and_then(Value::as_str) == Some("done"))
        .map(|n| n.id.as_str())
        .collect();
    let mut waiting: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
    for edge in &graph.edges {
        crate::budget::charge(1);
        if !done.contains(edge.target.as_str()) {
            waiting.insert(edge.source.as_str());
        }
    }
    let startable = |node: usize| {
        matches!(status(node).as_str(), "pending" | "in-progress")
            && !waiting.contains(graph.nodes[node].id.as_str())
    };
    let mut updates: Vec<(usize, f64)> = Vec::with_capacity(keys.len());
    // (numerator, power of ten) of each ranked task, for its subtasks.
    let mut task_value: hashbrown::HashMap<usize, (f64, u32)> = hashbrown::HashMap::new();
    let mut nested: hashbrown::HashMap<usize, Vec<(f64, &Key)>> = hashbrown::HashMap::new();
    let mut started = Vec::new();
    let mut tasks = Vec::new();
    let mut rest = Vec::new();
    for key in keys.iter() {
        let Some(l) = level(graph, key) else {
            continue;
        };
        match (key.group, key.parent) {
            (Group::StartedSubtask, _) => started.push((l, key)),
            (Group::Task, _) => tasks.push((l, key)),
            (Group::Subtask, Some(parent)) if startable(parent) => {
                nested.entry(parent).or_default().push((l, key))
            }
            (Group::Subtask, _) => rest.push((l, key)),
        }
    }
    // Runs sharing a whole part get fractions k / 10^d along the run.
    let mut runs = |list: &mut Vec<(f64, &Key)>, whole: &dyn Fn(f64) -> f64, tasks: bool| {
        list.sort_by(by_key);
        let mut start = 0;
        while start < list.len() {
            let this = whole(list[start].0);
            let end = list[start..]
                .iter()
                .position(|(l, _)| whole(*l) != this)
                .map_or(list.len(), |n| start + n);
            let (scale, power) = scale_for(end - start);
            for (k, (_, key)) in list[start..end].iter().enumerate() {
                crate::budget::charge(1);
                let numerator = this * scale + (k + 1) as f64;
                updates.push((key.node, numerator / scale));
                if tasks {
                    task_value.insert(key.node, (numerator, power));
                }
            }
            start = end;
        }
    };
    runs(&mut started, &|_| -1.0, false);
    runs(&mut tasks, &|l| l, true);
    runs(&mut rest, &|l| 10.0 + l, false);
    for (parent, mut list) in nested {
        let Some(&(numerator, power)) = task_value.get(&parent) else {
            continue;
        };
        list.sort_by(by_key);
        let (scale, more) = scale_for(list.len());
        let denominator = 10f64.powi((power + more) as i32);
        for (j, (_, key)) in list.iter().enumerate() {
            crate::budget::charge(1);
            updates.push((key.node, (numerator * scale + (j + 1) as f64) / denominator));
        }
    }
    drop(waiting);
    drop(done);
    for (node, value) in updates {
        if let Some(number) = serde_json::Number::from_f64(value) {
            graph.nodes[node]
                .attributes
                .insert("priority".into(), Value::Number(number));
        }
    }
}

/// The first power of ten above `count`, and its exponent.
fn scale_for(count: usize) -> (f64, u32) {
    let (mut scale, mut power) = (10u64, 1u32);
    while scale <= count as u64 {
        scale = scale.saturating_mul(10);
        power += 1;
    }
    (scale as f64, power)
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
