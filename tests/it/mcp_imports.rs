//! `network_import` of plans written by other tools (Mermaid, Task Master,
//! Beads, the MCP memory server), from the real files under `tests/fixtures/`:
//! what each becomes, and the errors of broken ones.

use crate::common::{Client, connect, err, ok};
use networks_mcp::mcp::ServerOptions;
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURES}/{name}")).unwrap()
}

async fn import(client: &Client, name: &str, format: &str, content: &str) -> Value {
    ok(
        client,
        "network_import",
        json!({"network_name": name, "format": format, "content": content}),
    )
    .await
}

/// The network as node-link JSON: `(nodes by id, edges as (source, target, attributes))`.
async fn read_back(
    client: &Client,
    name: &str,
) -> (serde_json::Map<String, Value>, Vec<(String, String, Value)>) {
    let out = ok(
        client,
        "network_export",
        json!({"network_name": name, "format": "node_link_json", "limit": 10000}),
    )
    .await;
    let doc: Value = serde_json::from_str(out["content"].as_str().unwrap()).unwrap();
    let nodes = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap().to_string(), n.clone()))
        .collect();
    let edges = doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let mut attributes = e.clone();
            for key in ["source", "target", "weight", "edge_id", "key"] {
                attributes.as_object_mut().unwrap().remove(key);
            }
            (
                e["source"].as_str().unwrap().to_string(),
                e["target"].as_str().unwrap().to_string(),
                attributes,
            )
        })
        .collect();
    (nodes, edges)
}

#[tokio::test]
async fn memory_server_entities_and_relations() {
    let (client, _) = connect(ServerOptions::default()).await;
    let out = import(&client, "memory", "memory_jsonl", &fixture("memory.jsonl")).await;
    assert_eq!(
        (&out["node_count"], &out["edge_count"]),
        (&json!(4), &json!(3))
    );
    let (nodes, edges) = read_back(&client, "memory").await;
    let api = &nodes["API v2"];
    assert_eq!(api["entity_type"], "task");
    assert_eq!(
        api["data"],
        json!({"observations": ["breaking change for mobile clients"]})
    );
    assert_eq!(nodes["Ada"]["entity_type"], "person");
    assert_eq!(
        edges[0],
        (
            "API v2".into(),
            "Schema migration".into(),
            json!({"relation": "depends on"})
        )
    );
}

#[tokio::test]
async fn task_master_tasks_subtasks_and_dependencies() {
    let (client, _) = connect(ServerOptions::default()).await;
    import(
        &client,
        "tm",
        "taskmaster_json",
        &fixture("taskmaster_tasks.json"),
    )
    .await;
    let (nodes, edges) = read_back(&client, "tm").await;
    let ids: Vec<&str> = nodes.keys().map(String::as_str).collect();
    assert_eq!(ids, ["1", "2", "2.1", "2.2", "3"]);
    assert_eq!(nodes["1"]["title"], "Design the schema");
    assert_eq!(nodes["1"]["status"], "done");
    // high is 1 on the lower-is-more-urgent scale; the fraction is the rank
    // `task-master next` gives among the high tasks (fewer dependencies, then
    // lower id). The subtasks of task 2, in progress, come before every task
    // (-1 and a fraction), as `task-master next` takes them first.
    assert_eq!(nodes["1"]["priority"], 1.1);
    assert_eq!(nodes["2"]["priority"], 1.2);
    assert_eq!(nodes["2.1"]["priority"], -0.9);
    assert_eq!(nodes["2.2"]["priority"], -0.8);
    assert_eq!(nodes["3"]["priority"], 3.1);
    assert_eq!(nodes["2.1"]["parent"], "2");
    assert_eq!(nodes["2.1"]["status"], "in-progress");
    assert!(nodes["2"].get("parent").is_none());
    let pairs: Vec<(&str, &str)> = edges
        .iter()
        .map(|(s, t, _)| (s.as_str(), t.as_str()))
        .collect();
    assert_eq!(pairs, [("2", "1"), ("2.2", "2.1"), ("3", "1"), ("3", "2")]);
}

#[tokio::test]
async fn task_master_legacy_layout_and_short_subtask_dependencies() {
    let (client, _) = connect(ServerOptions::default()).await;
    let doc = json!({"tasks": [
        {"id": 1, "title": "a", "priority": "critical", "tags": ["x", "y"], "complexity": 7},
        {"id": 2, "title": "b", "dependencies": [1], "subtasks": [
            {"id": 1, "title": "b1"},
            {"id": 2, "title": "b2", "dependencies": [1, 3]}
        ]},
        {"id": 3, "title": "c"}
    ], "metadata": {"description": "legacy"}});
    import(&client, "legacy", "taskmaster_json", &doc.to_string()).await;
    let (nodes, edges) = read_back(&client, "legacy").await;
    assert_eq!(
        nodes["1"]["priority"], 0.1,
        "critical, and first among them"
    );
    assert_eq!(nodes["1"]["labels"], "x,y");
    assert_eq!(nodes["1"]["data"], json!({"complexity": 7}));
    let pairs: Vec<(&str, &str)> = edges
        .iter()
        .map(|(s, t, _)| (s.as_str(), t.as_str()))
        .collect();
    // b2's `1` is its sibling 2.1; its `3` names no sibling, so it is task 3.
    assert_eq!(pairs, [("2", "1"), ("2.2", "2.1"), ("2.2", "3")]);
    let described = ok(
        &client,
        "network_describe",
        json!({"network_name": "legacy"}),
    )
    .await;
    assert_eq!(described["description"], "legacy");
}

#[tokio::test]
async fn beads_issues_typed_dependencies_and_epics() {
    let (client, _) = connect(ServerOptions::default()).await;
    import(&client, "beads", "beads_jsonl", &fixture("beads.jsonl")).await;
    let (nodes, edges) = read_back(&client, "beads").await;
    assert_eq!(nodes.len(), 4);
    let a3 = &nodes["bd-a3"];
    assert_eq!(a3["parent"], "bd-a1");
    assert_eq!(a3["priority"], 0);
    assert_eq!(a3["status"], "in_progress");
    assert_eq!(a3["labels"], "backend,checkout");
    assert_eq!(a3["issue_type"], "task");
    assert_eq!(a3["data"]["comments"][0]["text"], "feature flag first");
    assert!(a3["data"].get("dependency_count").is_none());
    assert!(nodes["bd-a1"].get("parent").is_none());
    let typed: Vec<(&str, &str, &str)> = edges
        .iter()
        .map(|(s, t, a)| (s.as_str(), t.as_str(), a["relation"].as_str().unwrap()))
        .collect();
    assert_eq!(
        typed,
        [
            ("bd-a2", "bd-a1", "parent-child"),
            ("bd-a3", "bd-a1", "parent-child"),
            ("bd-a3", "bd-a2", "blocks"),
            ("bd-a4", "bd-a1", "parent-child"),
            ("bd-a4", "bd-a3", "discovered-from"),
            ("bd-a4", "bd-a2", "related"),
        ]
    );
    // Only `blocks` holds an issue back (the types Beads does not count are
    // declared non-blocking), so with the closed bd-a2 done, bd-a3 and bd-a4
    // are ready; the epic waits for its open children, as in the work tools.
    let ready = ok(
        &client,
        "network_ready_nodes",
        json!({"network_name": "beads", "done_attributes": {"status": "closed"}}),
    )
    .await;
    assert_eq!(ready["ready"], json!(["bd-a3", "bd-a4"]));
    // A merge keeps the declaration, and adds nothing twice.
    ok(
        &client,
        "network_import",
        json!({"network_name": "beads", "format": "beads_jsonl", "mode": "merge", "content": fixture("beads.jsonl")}),
    )
    .await;
    let again = ok(
        &client,
        "network_ready_nodes",
        json!({"network_name": "beads", "done_attributes": {"status": "closed"}}),
    )
    .await;
    assert_eq!(again["ready"], ready["ready"]);
}

#[tokio::test]
async fn mermaid_shapes_links_subgraphs_and_ignored_statements() {
    let (client, _) = connect(ServerOptions::default()).await;
    import(&client, "mm", "mermaid", &fixture("plan.mmd")).await;
    let (nodes, edges) = read_back(&client, "mm").await;
    let ids: Vec<&str> = nodes.keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "schema", "migrate", "api", "smoke", "qa", "release", "launch", "docs", "notes",
            "retro"
        ]
    );
    assert_eq!(nodes["api"]["label"], "API v2");
    assert_eq!(nodes["notes"]["label"], "Release notes");
    assert_eq!(nodes["release"]["label"], "Release 2.0");
    assert_eq!(nodes["schema"]["parent"], "release");
    assert_eq!(nodes["smoke"]["parent"], "qa", "the innermost subgraph");
    assert_eq!(nodes["qa"]["parent"], "release");
    assert!(nodes["launch"].get("parent").is_none());
    let links: Vec<(&str, &str, Option<&str>)> = edges
        .iter()
        .map(|(s, t, a)| (s.as_str(), t.as_str(), a["relation"].as_str()))
        .collect();
    // `A --> B` is a flowchart's "A comes first": the edge B -> A (B depends on A).
    assert_eq!(
        links,
        [
            ("migrate", "schema", Some("blocks")),
            ("api", "migrate", None),
            ("api", "smoke", None),
            ("launch", "api", None),
            ("launch", "docs", None),
            ("launch", "notes", None),
            ("retro", "launch", None),
        ]
    );
}

#[tokio::test]
async fn our_mermaid_export_reads_back_exactly() {
    let (client, _) = connect(ServerOptions::default()).await;
    ok(&client, "network_create", json!({"network_name": "src"})).await;
    ok(
        &client,
        "network_add_edges",
        json!({"network_name": "src", "create_missing_nodes": true, "edges": [
            {"source": "end", "target": "say \"hi\"", "weight": 2.5, "attributes": {"relation": "blocks"}},
            {"source": "say \"hi\"", "target": "a|b", "attributes": {"relation": "3"}},
            {"source": "a|b", "target": "end", "weight": -1},
            {"source": "end", "target": "end"}
        ]}),
    )
    .await;
    let out = ok(
        &client,
        "network_export",
        json!({"network_name": "src", "format": "mermaid"}),
    )
    .await;
    import(&client, "copy", "mermaid", out["content"].as_str().unwrap()).await;
    let (src_nodes, src_edges) = read_back(&client, "src").await;
    let (nodes, edges) = read_back(&client, "copy").await;
    assert_eq!(
        nodes.keys().collect::<Vec<_>>(),
        src_nodes.keys().collect::<Vec<_>>()
    );
    assert_eq!(edges, src_edges);
}

#[tokio::test]
async fn broken_plans_are_refused_with_line_and_column() {
    let (client, _) = connect(ServerOptions::default()).await;
    let cases = [
        (
            "mermaid",
            "flowchart LR\n    A --> B\n    C -->\n",
            "line 4, column 1",
        ),
        ("mermaid", "flowchart LR\n    A[\"open --> B\n", "line 2"),
        (
            "mermaid",
            "sequenceDiagram\n    A->>B: hi\n",
            "line 1, column 1",
        ),
        (
            "mermaid",
            "flowchart LR\n    A@{ shape: nosuch }\n",
            "line 2",
        ),
        (
            "memory_jsonl",
            "{\"type\":\"entity\",\"name\":\"a\"}\n{\"type\":\"relation\",\"from\":\"a\"\n",
            "line 2, column",
        ),
        (
            "memory_jsonl",
            "{\"type\":\"relation\",\"from\":\"a\"}\n",
            "line 1, field \"to\"",
        ),
        (
            "beads_jsonl",
            "{\"id\":\"bd-1\"}\n{\"id\":7}\n",
            "line 2, field \"id\"",
        ),
        (
            "beads_jsonl",
            "{\"id\":\"bd-1\",\"dependencies\":[{\"type\":\"blocks\"}]}\n",
            "dependencies[0].depends_on_id",
        ),
        (
            "taskmaster_json",
            "{\"master\": {\"tasks\": [{\"id\": 1}, {\"title\": \"x\"}]}}",
            "master.tasks[1].id",
        ),
        (
            "taskmaster_json",
            "{\"tasks\": [{\"id\": 1, \"priority\": \"urgent\"}]}",
            "tasks[0].priority",
        ),
        (
            "taskmaster_json",
            "{\"tasks\": [\n  {\"id\": 1,}\n]}",
            "line 2, column",
        ),
    ];
    for (i, (format, content, location)) in cases.into_iter().enumerate() {
        let e = err(
            &client,
            "network_import",
            json!({"network_name": format!("bad{i}"), "format": format, "content": content}),
            "invalid_import",
        )
        .await;
        let message = e["error"].as_str().unwrap();
        assert!(message.contains(location), "{format} case {i}: {message}");
    }
    let listed = ok(&client, "network_list", json!({})).await;
    assert_eq!(listed["total"], 0, "nothing was imported: {listed}");
}
