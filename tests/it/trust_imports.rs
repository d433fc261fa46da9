//! Imports that mean what the document's authors meant: a Mermaid flowchart's
//! arrows read as flowcharts are drawn (`A --> B`: A comes first), our own
//! exports read back exactly, every reply saying how it read the edges (and
//! warning when it assumed), and the plans of Beads and Task Master giving the
//! answers of `bd ready` and `task-master next`, checked against ports of
//! their own code over random plans.

use std::collections::{BTreeSet, HashMap};

use crate::common::{dispatch, dispatch_err, dispatch_ok, unlimited_server};
use networks_mcp::mcp::NetworksServer;
use proptest::prelude::*;
use serde_json::{Value, json};

fn import(server: &NetworksServer, name: &str, format: &str, content: &str) -> Value {
    dispatch_ok(
        server,
        "network_import",
        json!({"network_name": name, "format": format, "content": content}),
    )
}

fn ready(server: &NetworksServer, name: &str, extra: Value) -> Vec<String> {
    let mut args = json!({"network_name": name, "limit": 1000});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    let out = dispatch_ok(server, "network_ready_nodes", args);
    out["ready"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The network's edges as (source, target), in edge-id order.
fn edges(server: &NetworksServer, name: &str) -> Vec<(String, String)> {
    let out = dispatch_ok(
        server,
        "network_export",
        json!({"network_name": name, "format": "node_link_json", "limit": 10000}),
    );
    let doc: Value = serde_json::from_str(out["content"].as_str().unwrap()).unwrap();
    doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["source"].as_str().unwrap().to_string(),
                e["target"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn warning_codes(reply: &Value) -> Vec<String> {
    reply["warnings"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|w| w["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

const FLOW: &str = "flowchart LR; design --> build --> ship";

#[test]
fn a_flowchart_starts_with_its_first_box() {
    let server = unlimited_server();
    import(&server, "flow", "mermaid", FLOW);
    assert_eq!(ready(&server, "flow", json!({})), ["design"]);
    assert_eq!(
        edges(&server, "flow"),
        [
            ("build".into(), "design".into()),
            ("ship".into(), "build".into())
        ]
    );
}

#[test]
fn our_exports_read_back_exactly() {
    let server = unlimited_server();
    dispatch_ok(&server, "network_create", json!({"network_name": "src"}));
    for id in ["app", "lib", "log"] {
        dispatch_ok(
            &server,
            "network_add_node",
            json!({"network_name": "src", "node_id": id}),
        );
    }
    for (a, b, w) in [
        ("app", "lib", 1.0),
        ("lib", "log", 2.5),
        ("app", "log", 1.0),
    ] {
        dispatch_ok(
            &server,
            "network_add_edge",
            json!({"network_name": "src", "source": a, "target": b, "weight": w}),
        );
    }
    let original = edges(&server, "src");
    for format in [
        "mermaid",
        "dot",
        "graphml",
        "node_link_json",
        "edge_list_csv",
    ] {
        let out = dispatch_ok(
            &server,
            "network_export",
            json!({"network_name": "src", "format": format}),
        );
        let name = format!("copy_{format}");
        let reply = import(&server, &name, format, out["content"].as_str().unwrap());
        assert_eq!(edges(&server, &name), original, "{format}");
        assert!(
            reply["reading"]
                .as_str()
                .unwrap()
                .contains("A depends on B"),
            "{format}: {reply}"
        );
        if matches!(format, "mermaid" | "dot" | "graphml") {
            assert!(
                !warning_codes(&reply).contains(&"assumed_reading".to_string()),
                "{format} states its reading: {reply}"
            );
        }
    }
    assert_eq!(ready(&server, "copy_mermaid", json!({})), ["log"]);
}

#[test]
fn the_arrows_option_chooses_the_reading() {
    let server = unlimited_server();
    let reply = dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "flow", "format": "mermaid", "content": FLOW, "arrows": "depends_on"}),
    );
    assert_eq!(ready(&server, "flow", json!({})), ["ship"]);
    assert!(
        reply["reading"]
            .as_str()
            .unwrap()
            .contains("as the arrows parameter asks")
    );
    assert!(!warning_codes(&reply).contains(&"assumed_reading".to_string()));
    // One option for every format whose direction is a convention.
    dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "csv", "format": "edge_list_csv", "content": "source,target\ndesign,build\nbuild,ship\n", "arrows": "before"}),
    );
    assert_eq!(ready(&server, "csv", json!({})), ["design"]);
    dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "dot", "format": "dot", "content": "digraph { design -> build -> ship }", "arrows": "before"}),
    );
    assert_eq!(ready(&server, "dot", json!({})), ["design"]);
    // A plan format defines its own direction.
    dispatch_err(
        &server,
        "network_import",
        json!({"network_name": "tm", "format": "taskmaster_json", "content": "{\"tasks\": []}", "arrows": "before"}),
        "invalid_value",
    );
    // A document may state its reading itself.
    let stated = "%% networks-mcp: A --> B means A depends on B\nflowchart LR\n  ship --> build --> design\n";
    let reply = import(&server, "stated", "mermaid", stated);
    assert_eq!(ready(&server, "stated", json!({})), ["design"]);
    assert!(
        reply["reading"]
            .as_str()
            .unwrap()
            .contains("as the document states")
    );
}

#[test]
fn every_reply_says_how_it_read_the_edges() {
    let server = unlimited_server();
    let reply = import(&server, "flow", "mermaid", FLOW);
    assert_eq!(
        reply["reading"],
        "A --> B read as: B depends on A (stored as the edge B → A); the flowchart convention; the document states none"
    );
    let cases = [
        ("dot", "digraph { a -> b }", "A depends on B"),
        (
            "graphml",
            "<graphml><graph edgedefault=\"directed\"><node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"/></graph></graphml>",
            "A depends on B",
        ),
        ("edge_list_csv", "source,target\na,b\n", "A depends on B"),
        (
            "node_link_json",
            "{\"nodes\": [{\"id\": \"a\"}, {\"id\": \"b\"}], \"edges\": [{\"source\": \"a\", \"target\": \"b\"}]}",
            "A depends on B",
        ),
        (
            "taskmaster_json",
            "{\"tasks\": [{\"id\": 1, \"dependencies\": []}]}",
            "defined by Task Master's format",
        ),
        (
            "beads_jsonl",
            "{\"id\": \"bd-1\", \"title\": \"x\"}\n",
            "defined by Beads' format",
        ),
        (
            "memory_jsonl",
            "{\"type\": \"entity\", \"name\": \"a\", \"entityType\": \"x\", \"observations\": []}\n",
            "defined by the memory server's format",
        ),
    ];
    for (i, (format, content, says)) in cases.into_iter().enumerate() {
        let reply = import(&server, &format!("n{i}"), format, content);
        let reading = reply["reading"].as_str().unwrap();
        assert!(reading.contains(says), "{format}: {reading}");
    }
}

#[test]
fn an_assumed_reading_is_a_warning() {
    let server = unlimited_server();
    let reply = import(&server, "flow", "mermaid", FLOW);
    assert!(
        warning_codes(&reply).contains(&"assumed_reading".to_string()),
        "{reply}"
    );
    let reply = import(&server, "csv", "edge_list_csv", "source,target\na,b\n");
    assert!(
        warning_codes(&reply).contains(&"assumed_reading".to_string()),
        "{reply}"
    );
    // What the import reads and drops is a warning too.
    let reply = import(
        &server,
        "click",
        "mermaid",
        "flowchart LR\n  a --> b\n  click a \"https://example.com\"\n",
    );
    assert!(
        warning_codes(&reply).contains(&"ignored".to_string()),
        "{reply}"
    );
    for (i, (format, content)) in [
        (
            "dot",
            "digraph { label=\"Plan\"; node [shape=box]; a -> b }",
        ),
        (
            "beads_jsonl",
            "{\"id\": \"bd-1\"}\n{\"_type\": \"memory\", \"key\": \"k\"}\n",
        ),
        (
            "taskmaster_json",
            "{\"master\": {\"tasks\": []}, \"feature\": {\"tasks\": [{\"id\": 1}]}}",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let reply = import(&server, &format!("dropped{i}"), format, content);
        assert!(
            warning_codes(&reply).contains(&"ignored".to_string()),
            "{format}: {reply}"
        );
    }
}

#[test]
fn a_style_line_makes_its_node_as_mermaid_does() {
    let server = unlimited_server();
    let reply = import(
        &server,
        "styled",
        "mermaid",
        "flowchart LR\n  a --> b\n  style c fill:#f9f\n  classDef hot fill:#f00\n  class d hot\n",
    );
    // `style` adds its vertex (flowDb's addVertex); `class` only marks existing ones.
    assert_eq!(reply["node_count"], 3, "{reply}");
    let listed = dispatch_ok(
        &server,
        "network_get_node",
        json!({"network_name": "styled", "node_id": "c"}),
    );
    assert_eq!(listed["status"], "success");
    assert!(
        dispatch(
            &server,
            "network_get_node",
            json!({"network_name": "styled", "node_id": "d"})
        )
        .is_err()
    );
}

// --- Beads: `bd ready` -------------------------------------------------------

/// One Beads issue: (id, status, dependencies as (type, depends_on index)).
type Issue = (String, &'static str, Vec<(&'static str, usize)>);

fn beads_document(issues: &[Issue]) -> String {
    let mut out = String::new();
    for (id, status, deps) in issues {
        let deps: Vec<Value> = deps
            .iter()
            .map(|(kind, to)| {
                let mut dep = json!({"issue_id": id, "depends_on_id": issues[*to].0, "type": kind});
                if *kind == "waits-for-any" {
                    dep["type"] = json!("waits-for");
                    dep["metadata"] = json!("{\"gate\":\"any-children\"}");
                }
                dep
            })
            .collect();
        out.push_str(
            &json!({"id": id, "title": id, "status": status, "priority": 2, "issue_type": "task", "dependencies": deps})
                .to_string(),
        );
        out.push('\n');
    }
    out
}

/// A port of Beads' readiness (`internal/storage/issueops/blocked_state.go`:
/// `RecomputeIsBlockedInTx` with its mark and unmark passes, repeated until
/// nothing changes, and `waitsForGateBlockedSQL`; `ready_work.go`:
/// `status IN ('open', 'in_progress')`, not pinned, `is_blocked = 0`). A
/// `waits-for-any` dependency is a `waits-for` whose metadata is
/// `{"gate":"any-children"}`.
fn bd_ready(issues: &[Issue]) -> BTreeSet<String> {
    let by_id: HashMap<&str, usize> = issues
        .iter()
        .enumerate()
        .map(|(i, issue)| (issue.0.as_str(), i))
        .collect();
    let open = |s: &str| s != "closed" && s != "pinned";
    let mut is_blocked = vec![false; issues.len()];
    loop {
        let mut changed = 0;
        // UPDATE issues i SET is_blocked = 1 WHERE is_blocked = 0 AND open AND (EXISTS blocks dep
        // on an open issue OR EXISTS parent-child dep on a blocked parent).
        let should = |i: usize, is_blocked: &[bool]| {
            let (_, status, deps) = &issues[i];
            open(status)
                && deps.iter().any(|(kind, to)| {
                    let target = by_id[issues[*to].0.as_str()];
                    match *kind {
                        "blocks" | "conditional-blocks" => open(issues[target].1),
                        "parent-child" => is_blocked[target],
                        "waits-for" | "waits-for-any" => {
                            // Children of the target: issues with a parent-child
                            // dependency on it.
                            let children: Vec<usize> = issues
                                .iter()
                                .enumerate()
                                .filter(|(_, (_, _, d))| {
                                    d.iter().any(|(k, p)| *k == "parent-child" && *p == target)
                                })
                                .map(|(c, _)| c)
                                .collect();
                            children.iter().any(|c| open(issues[*c].1))
                                && !(*kind == "waits-for-any"
                                    && children.iter().any(|c| issues[*c].1 == "closed"))
                        }
                        _ => false,
                    }
                })
        };
        for i in 0..issues.len() {
            if !is_blocked[i] && should(i, &is_blocked) {
                is_blocked[i] = true;
                changed += 1;
            }
        }
        for i in 0..issues.len() {
            if is_blocked[i] && !should(i, &is_blocked) {
                is_blocked[i] = false;
                changed += 1;
            }
        }
        if changed == 0 {
            break;
        }
    }
    issues
        .iter()
        .enumerate()
        .filter(|(i, (_, status, _))| {
            (*status == "open" || *status == "in_progress") && !is_blocked[*i]
        })
        .map(|(_, issue)| issue.0.clone())
        .collect()
}

/// `bd ready`'s list, less what the server's one rule for done holds back
/// besides: a parent (the first `parent-child` target of an issue, its
/// `parent` attribute) waits for its children that are not closed, where
/// `bd ready` lists an epic beside its open children.
fn bd_ready_under_one_rule(issues: &[Issue]) -> BTreeSet<String> {
    let mut waiting = BTreeSet::new();
    for (_, status, deps) in issues {
        if let Some((_, parent)) = deps.iter().find(|(k, _)| *k == "parent-child")
            && *status != "closed"
        {
            waiting.insert(issues[*parent].0.clone());
        }
    }
    bd_ready(issues)
        .into_iter()
        .filter(|id| !waiting.contains(id))
        .collect()
}

/// Our ready work of a Beads import, restricted as `bd ready` is to the
/// issues open or in progress.
fn our_bd_ready(server: &NetworksServer, name: &str, issues: &[Issue]) -> BTreeSet<String> {
    let status: HashMap<&str, &str> = issues.iter().map(|i| (i.0.as_str(), i.1)).collect();
    ready(
        server,
        name,
        json!({"done_attributes": {"status": "closed"}}),
    )
    .into_iter()
    .filter(|id| matches!(status.get(id.as_str()), Some(&"open" | &"in_progress")))
    .collect()
}

#[test]
fn children_of_a_blocked_epic_are_not_ready() {
    let issues: Vec<Issue> = vec![
        ("bd-x".into(), "open", vec![]),
        ("bd-epic".into(), "open", vec![("blocks", 0)]),
        ("bd-child".into(), "open", vec![("parent-child", 1)]),
        (
            "bd-grandchild".into(),
            "in_progress",
            vec![("parent-child", 2)],
        ),
        ("bd-free".into(), "open", vec![]),
    ];
    let server = unlimited_server();
    import(&server, "bd", "beads_jsonl", &beads_document(&issues));
    let ours = our_bd_ready(&server, "bd", &issues);
    assert_eq!(ours, bd_ready(&issues));
    assert_eq!(ours, bd_ready_under_one_rule(&issues));
    assert_eq!(
        ours,
        BTreeSet::from(["bd-x".to_string(), "bd-free".to_string()])
    );
}

fn issues_strategy() -> impl Strategy<Value = Vec<Issue>> {
    (1usize..9).prop_flat_map(|n| {
        let status = prop::sample::select(vec![
            "open",
            "in_progress",
            "closed",
            "closed",
            "blocked",
            "deferred",
        ]);
        let kind = prop::sample::select(vec![
            "blocks",
            "parent-child",
            "parent-child",
            "related",
            "waits-for",
            "waits-for-any",
        ]);
        prop::collection::vec((status, prop::collection::vec((kind, 0..n), 0..3)), n).prop_map(
            |rows| {
                rows.into_iter()
                    .enumerate()
                    .map(|(i, (status, deps))| (format!("bd-{i}"), status, deps))
                    .collect()
            },
        )
    })
}

// --- Task Master: `task-master next` -----------------------------------------

/// One subtask: (id within its task, status, priority, dependencies as sibling ids).
type Subtask = (u32, &'static str, Option<&'static str>, Vec<u32>);
/// One task: (id, status, priority, dependencies as task ids, subtasks).
type Task = (
    u32,
    &'static str,
    Option<&'static str>,
    Vec<u32>,
    Vec<Subtask>,
);

fn taskmaster_document(tasks: &[Task]) -> String {
    let with_priority = |mut item: Value, priority: &Option<&str>| {
        if let Some(p) = priority {
            item["priority"] = json!(p);
        }
        item
    };
    let tasks: Vec<Value> = tasks
        .iter()
        .map(|(id, status, priority, deps, subtasks)| {
            let subtasks: Vec<Value> = subtasks
                .iter()
                .map(|(sid, status, priority, deps)| {
                    with_priority(
                        json!({"id": sid, "title": format!("subtask {id}.{sid}"), "status": status, "dependencies": deps}),
                        priority,
                    )
                })
                .collect();
            with_priority(
                json!({"id": id, "title": format!("task {id}"), "status": status, "dependencies": deps, "subtasks": subtasks}),
                priority,
            )
        })
        .collect();
    json!({"master": {"tasks": tasks}}).to_string()
}

/// A port of `TaskService.getNextTask` (Task Master's
/// `packages/tm-core/src/modules/tasks/services/task-service.ts`): first the
/// eligible subtasks (pending or in progress, every dependency done) of the
/// tasks in progress, sorted by priority (critical 4, high 3, medium 2, low 1,
/// anything else 2; a subtask without one takes its task's), then fewer
/// dependencies, then task id, then subtask id; without any, the eligible
/// tasks, sorted by priority, then fewer dependencies, then lower id.
fn task_master_next(tasks: &[Task]) -> Option<String> {
    let mut completed: BTreeSet<String> = BTreeSet::new();
    for (id, status, _, _, subtasks) in tasks {
        if *status == "done" {
            completed.insert(id.to_string());
        }
        for (sid, status, _, _) in subtasks {
            if *status == "done" {
                completed.insert(format!("{id}.{sid}"));
            }
        }
    }
    let value = |p: Option<&str>| match p {
        Some("critical") => 4,
        Some("high") => 3,
        Some("medium") => 2,
        Some("low") => 1,
        _ => 2,
    };
    let eligible = |status: &str| {
        let status = status.to_lowercase();
        status == "pending" || status == "in-progress"
    };
    // (priority value, dependency count, task id, subtask id)
    let mut candidates: Vec<(i32, usize, u32, u32)> = Vec::new();
    for (id, status, priority, _, subtasks) in tasks {
        if *status != "in-progress" {
            continue;
        }
        for (sid, sstatus, spriority, deps) in subtasks {
            let full: Vec<String> = deps.iter().map(|d| format!("{id}.{d}")).collect();
            if eligible(sstatus) && full.iter().all(|d| completed.contains(d)) {
                candidates.push((value(spriority.or(*priority)), full.len(), *id, *sid));
            }
        }
    }
    candidates.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.cmp(&b.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3))
    });
    if let Some((_, _, id, sid)) = candidates.first() {
        return Some(format!("{id}.{sid}"));
    }
    let mut top: Vec<&Task> = tasks
        .iter()
        .filter(|t| eligible(t.1) && t.3.iter().all(|d| completed.contains(&d.to_string())))
        .collect();
    top.sort_by(|a, b| {
        value(b.2)
            .cmp(&value(a.2))
            .then(a.3.len().cmp(&b.3.len()))
            .then(a.0.cmp(&b.0))
    });
    top.first().map(|t| t.0.to_string())
}

/// Our first ready task by priority, among those `task-master next` may pick
/// (pending or in progress); with it, whether that is a subtask of a task not
/// in progress (which Task Master never picks).
fn our_next(server: &NetworksServer, name: &str, tasks: &[Task]) -> Option<(String, bool)> {
    let mut status: HashMap<String, (&str, bool)> = HashMap::new();
    for (id, s, _, _, subtasks) in tasks {
        status.insert(id.to_string(), (s, false));
        for (sid, ss, _, _) in subtasks {
            status.insert(format!("{id}.{sid}"), (ss, *s != "in-progress"));
        }
    }
    ready(
        server,
        name,
        json!({"done_attributes": {"status": "done"}, "order": "priority"}),
    )
    .into_iter()
    .find_map(|id| match status.get(&id) {
        Some(&("pending" | "in-progress", waiting)) => Some((id, waiting)),
        _ => None,
    })
}

/// What our first ready task must be, given `task-master next`'s pick: the
/// pick itself, but where it is a task with subtasks not done (for which, by the
/// server's one rule for done, it waits), the subtask Task Master would pick
/// once that task is started; when none of them can start, the pick among the
/// other tasks.
fn expected_next(tasks: &[Task]) -> Option<String> {
    let mut left: Vec<Task> = tasks.to_vec();
    loop {
        let next = task_master_next(&left)?;
        if next.contains('.') {
            return Some(next);
        }
        let at = left.iter().position(|t| t.0.to_string() == next)?;
        let task = left[at].clone();
        if task.4.iter().all(|st| st.1 == "done") {
            return Some(next);
        }
        // Started, the task's subtasks are Task Master's first choice.
        let mut started = left.clone();
        started[at].1 = "in-progress";
        for (i, t) in started.iter_mut().enumerate() {
            if i != at && t.1 == "in-progress" {
                // Their subtasks had no eligible one, or Task Master would
                // have picked it: leave them out of phase 1.
                t.1 = "pending-started";
            }
        }
        if let Some(pick) = task_master_next(&started).filter(|p| p.contains('.')) {
            return Some(pick);
        }
        // None can start: the task waits, and so does its place.
        left[at].1 = "waiting";
    }
}

/// Ours agrees with [`expected_next`]; when Task Master picks nothing, ours
/// picks nothing or a subtask of a task it cannot pick.
fn agrees(ours: Option<(String, bool)>, expected: Option<String>) -> bool {
    match (ours, expected) {
        (Some((id, _)), Some(next)) => id == next,
        (None, None) => true,
        (Some((id, _)), None) => id.contains('.'),
        (None, Some(_)) => false,
    }
}

#[test]
fn task_master_next_is_the_first_ready_task() {
    // Two high tasks: the one with fewer dependencies wins, though the other
    // unblocks more.
    let tasks: Vec<Task> = vec![
        (1, "done", Some("low"), vec![], vec![]),
        (2, "pending", Some("high"), vec![1], vec![]),
        (3, "pending", Some("high"), vec![], vec![]),
        (4, "pending", Some("medium"), vec![2], vec![]),
        (5, "pending", None, vec![2], vec![]),
        (6, "pending", Some("low"), vec![2], vec![]),
    ];
    let server = unlimited_server();
    import(
        &server,
        "tm",
        "taskmaster_json",
        &taskmaster_document(&tasks),
    );
    assert_eq!(task_master_next(&tasks).as_deref(), Some("3"));
    assert_eq!(
        our_next(&server, "tm", &tasks).map(|n| n.0).as_deref(),
        Some("3")
    );
    // A task in progress: its next subtask comes first, even before a critical task.
    let tasks: Vec<Task> = vec![
        (
            1,
            "in-progress",
            Some("low"),
            vec![],
            vec![
                (1, "done", None, vec![]),
                (2, "pending", None, vec![1]),
                (3, "pending", None, vec![2]),
            ],
        ),
        (
            2,
            "pending",
            Some("critical"),
            vec![],
            vec![(1, "pending", Some("critical"), vec![])],
        ),
    ];
    import(
        &server,
        "tm2",
        "taskmaster_json",
        &taskmaster_document(&tasks),
    );
    assert_eq!(task_master_next(&tasks).as_deref(), Some("1.2"));
    assert_eq!(
        our_next(&server, "tm2", &tasks).map(|n| n.0).as_deref(),
        Some("1.2")
    );
}

fn tasks_strategy() -> impl Strategy<Value = Vec<Task>> {
    (1usize..8).prop_flat_map(|n| {
        let status = || {
            prop::sample::select(vec![
                "pending",
                "pending",
                "in-progress",
                "done",
                "deferred",
            ])
        };
        let priority = || {
            prop::option::of(prop::sample::select(vec![
                "critical", "high", "medium", "low",
            ]))
        };
        let subtask = (status(), priority(), prop::collection::vec(1u32..4, 0..2));
        (
            prop::collection::vec(
                (
                    status(),
                    priority(),
                    prop::collection::vec(1..=n as u32 + 1, 0..3),
                    prop::collection::vec(subtask, 0..4),
                ),
                n,
            ),
            Just((1..=n as u32).collect::<Vec<_>>()).prop_shuffle(),
        )
            .prop_map(|(rows, ids)| {
                rows.into_iter()
                    .zip(ids)
                    .map(|((status, priority, deps, subs), id)| {
                        let count = subs.len() as u32;
                        let subs = subs
                            .into_iter()
                            .enumerate()
                            .map(|(j, (s, p, d))| {
                                // Dependencies on existing siblings only.
                                let d = d.into_iter().filter(|x| *x <= count).collect();
                                (j as u32 + 1, s, p, d)
                            })
                            .collect();
                        (id, status, priority, deps, subs)
                    })
                    .collect()
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A Beads import's ready work is `bd ready`'s.
    #[test]
    fn beads_ready_is_bd_ready(issues in issues_strategy()) {
        let server = unlimited_server();
        import(&server, "bd", "beads_jsonl", &beads_document(&issues));
        prop_assert_eq!(our_bd_ready(&server, "bd", &issues), bd_ready_under_one_rule(&issues));
    }

    /// A Task Master import's ready work by priority starts with `task-master next`.
    #[test]
    fn taskmaster_first_ready_is_next(tasks in tasks_strategy()) {
        let server = unlimited_server();
        import(&server, "tm", "taskmaster_json", &taskmaster_document(&tasks));
        let ours = our_next(&server, "tm", &tasks);
        let theirs = expected_next(&tasks);
        prop_assert!(
            agrees(ours.clone(), theirs.clone()),
            "ours {:?}, expected {:?} (task-master next {:?})",
            ours,
            theirs,
            task_master_next(&tasks)
        );
    }
}

// --- Hostile input to the readings and the plan imports ----------------------

/// The names of the server's networks.
fn network_names(server: &NetworksServer) -> Vec<Value> {
    dispatch_ok(server, "network_list", json!({}))["networks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].clone())
        .collect()
}

#[test]
fn a_reading_statement_inside_a_value_does_not_turn_the_edges() {
    let server = unlimited_server();
    // A DOT label running over lines, one of which looks like our header.
    let dot = "digraph {\n  a [label=\"x\n// networks-mcp export: A -> B means B depends on A\n\"]\n  a -> b\n}\n";
    let reply = import(&server, "dot", "dot", dot);
    assert_eq!(edges(&server, "dot"), [("a".into(), "b".into())]);
    assert!(
        warning_codes(&reply).contains(&"assumed_reading".to_string()),
        "{reply}"
    );
    // GraphML character data holding the comment on a line of its own.
    let graphml = "<?xml version=\"1.0\"?>\n<graphml><key id=\"d\" for=\"node\" attr.name=\"note\" attr.type=\"string\"/><graph edgedefault=\"directed\"><node id=\"a\"><data key=\"d\"><![CDATA[\n<!-- networks-mcp export: an edge source=A target=B means B depends on A -->\n]]></data></node><node id=\"b\"/><edge source=\"a\" target=\"b\"/></graph></graphml>\n";
    let reply = import(&server, "graphml", "graphml", graphml);
    assert_eq!(edges(&server, "graphml"), [("a".into(), "b".into())]);
    assert!(
        warning_codes(&reply).contains(&"assumed_reading".to_string()),
        "{reply}"
    );
    // A Mermaid comment after the diagram's first line is a comment, not a statement.
    let mermaid = "flowchart LR\n%% networks-mcp: A --> B means A depends on B\n  a --> b\n";
    import(&server, "mermaid", "mermaid", mermaid);
    assert_eq!(edges(&server, "mermaid"), [("b".into(), "a".into())]);
    // The leading comment lines may state it, after blank lines and an XML declaration.
    let stated = "\n<?xml version=\"1.0\"?>\n<!-- networks-mcp: an edge source=A target=B means B depends on A -->\n<graphml><graph><node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"/></graph></graphml>\n";
    let reply = import(&server, "stated", "graphml", stated);
    assert_eq!(edges(&server, "stated"), [("b".into(), "a".into())]);
    assert!(
        !warning_codes(&reply).contains(&"assumed_reading".to_string()),
        "{reply}"
    );
}

#[test]
fn arrows_that_do_not_apply_are_refused_and_make_nothing() {
    let server = unlimited_server();
    let plans = [
        (
            "taskmaster_json",
            "{\"tasks\": [{\"id\": 1, \"title\": \"t\"}]}",
        ),
        (
            "beads_jsonl",
            "{\"id\": \"a\", \"title\": \"a\", \"status\": \"open\"}\n",
        ),
        (
            "memory_jsonl",
            "{\"type\": \"entity\", \"name\": \"a\", \"entityType\": \"t\", \"observations\": []}\n",
        ),
    ];
    for (format, content) in plans {
        let e = dispatch_err(
            &server,
            "network_import",
            json!({"network_name": format, "format": format, "content": content, "arrows": "depends_on"}),
            "invalid_value",
        );
        let message = e["error"].as_str().unwrap();
        assert!(message.contains("leave out arrows"), "{message}");
    }
    for arrows in [
        json!("sideways"),
        json!(""),
        json!(1),
        json!(["before"]),
        json!("BEFORE"),
    ] {
        let e = dispatch(
            &server,
            "network_import",
            json!({"network_name": "flow", "format": "mermaid", "content": FLOW, "arrows": arrows}),
        )
        .unwrap_err();
        assert_eq!(e["status"], "error");
        let message = e["error"].as_str().unwrap();
        assert!(
            message.contains("before") && message.contains("depends_on"),
            "{message}"
        );
    }
    assert_eq!(
        network_names(&server),
        Vec::<Value>::new(),
        "nothing was made"
    );
}

#[test]
fn style_lines_count_against_the_node_bound() {
    let server = crate::common::server_with(networks_mcp::limits::Limits {
        max_nodes: 100,
        ..networks_mcp::limits::Limits::default()
    });
    let styled = |n: usize| {
        let mut doc = String::from("flowchart LR\n");
        for i in 0..n {
            doc.push_str(&format!("  style n{i} fill:#f9f\n"));
        }
        doc
    };
    let reply = import(&server, "fits", "mermaid", &styled(100));
    assert_eq!(reply["node_count"], 100);
    let e = dispatch_err(
        &server,
        "network_import",
        json!({"network_name": "over", "format": "mermaid", "content": styled(101)}),
        "limit_exceeded",
    );
    assert!(e["error"].as_str().unwrap().contains("100"), "{e}");
    assert_eq!(network_names(&server), [json!("fits")]);
}

/// A chain of open epics `e0` ← `e1` ← … (each the parent of the next), each
/// blocked by its own open issue `b<i>`: epic `i` inherits `i` blockers, so the
/// chain stands for depth²/2 edges.
fn deep_epics(depth: usize) -> String {
    let mut issues: Vec<Issue> = Vec::new();
    for i in 0..depth {
        issues.push((format!("b{i}"), "open", Vec::new()));
    }
    for i in 0..depth {
        let mut deps = vec![("blocks", i)];
        if i > 0 {
            deps.push(("parent-child", depth + i - 1));
        }
        issues.push((format!("e{i}"), "open", deps));
    }
    beads_document(&issues)
}

#[test]
fn inherited_blockers_count_against_the_import_edge_bound() {
    let server = crate::common::server_with(networks_mcp::limits::Limits {
        max_import_edges: 10_000,
        ..networks_mcp::limits::Limits::default()
    });
    // 100 deep: 100 own + 99 parent links + 4,950 inherited edges.
    let reply = import(&server, "fits", "beads_jsonl", &deep_epics(100));
    assert_eq!(reply["edge_count"], 100 + 99 + 4_950, "{reply}");
    let leaf = dispatch_ok(
        &server,
        "network_get_neighbors",
        json!({"network_name": "fits", "node_id": "e99", "direction": "out", "limit": 1000}),
    );
    assert_eq!(
        leaf["neighbors"].as_array().unwrap().len(),
        100 + 1,
        "{leaf}"
    );
    // 200 deep stands for 19,900 inherited edges: refused, naming the bound.
    let e = dispatch_err(
        &server,
        "network_import",
        json!({"network_name": "over", "format": "beads_jsonl", "content": deep_epics(200)}),
        "limit_exceeded",
    );
    assert!(
        e["error"].as_str().unwrap().contains("--max-import-edges"),
        "{e}"
    );
    assert_eq!(network_names(&server), [json!("fits")]);
}
