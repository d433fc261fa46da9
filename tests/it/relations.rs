//! Relation types through the real server: `relations`, `ignore_relations`,
//! `relation_attribute` on every tool that follows edges, the network's
//! `nonblocking_relations`, cursors keyed by the filter, bounds, durability.

use std::ffi::OsStr;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::stdio::StdioServer;
use crate::common::{Client, connect, err, every_toolset, ok};

/// A plan: `app` needs `lib` (plain) and `db` (blocks); `lib` is merely related
/// to `app` and was discovered from `docs`; `docs` needs `db` under `kind`.
async fn plan(client: &Client, name: &str) {
    ok(client, "network_create", json!({"network_name": name})).await;
    ok(
        client,
        "network_add_edges",
        json!({
            "network_name": name,
            "create_missing_nodes": true,
            "edges": [
                {"source": "app", "target": "lib"},
                {"source": "app", "target": "db", "attributes": {"relation": "blocks"}},
                {"source": "lib", "target": "app", "attributes": {"relation": "related"}},
                {"source": "lib", "target": "docs", "attributes": {"relation": "discovered-from"}},
                {"source": "docs", "target": "db", "attributes": {"kind": "blocks"}},
            ]
        }),
    )
    .await;
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

fn ids<'a>(v: &'a Value, field: &str) -> Vec<&'a str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x[field].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn every_analysis_follows_only_the_edges_it_is_given() {
    let (client, _) = connect(every_toolset()).await;
    plan(&client, "p").await;
    let call = |tool: &'static str, extra: Value| {
        let client = &client;
        async move {
            let mut args = json!({"network_name": "p"});
            args.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            ok(client, tool, args).await
        }
    };
    // Unfiltered: lib <-> app is a cycle.
    err(
        &client,
        "network_topological_sort",
        json!({"network_name": "p"}),
        "cycle_detected",
    )
    .await;
    let blocking = json!({"ignore_relations": ["related"]});
    let order = call(
        "network_topological_sort",
        json!({"reverse": true, "ignore_relations": ["related"], "flat": true}),
    )
    .await;
    assert_eq!(strings(&order["node_ids"]), ["db", "docs", "lib", "app"]);
    let cycles = call("network_find_cycles", json!({})).await;
    assert_eq!(cycles["total"], 1);
    let cycles = call("network_find_cycles", blocking.clone()).await;
    assert_eq!(cycles["total"], 0);
    // Only plain edges: app -> lib.
    let plain = json!({"relations": [""]});
    let down = call(
        "network_descendants",
        json!({"node_id": "app", "relations": [""]}),
    )
    .await;
    assert_eq!(ids(&down["nodes"], "node_id"), ["lib"]);
    let walk = call(
        "network_traverse",
        json!({"start_node_ids": ["app"], "relations": ["blocks"]}),
    )
    .await;
    assert_eq!(ids(&walk["visited"], "node_id"), ["app", "db"]);
    let up = call(
        "network_ancestors",
        json!({"node_id": "db", "relations": ["blocks"]}),
    )
    .await;
    assert_eq!(ids(&up["nodes"], "node_id"), ["app"]);
    // Under another attribute, docs -> db is the only `blocks` edge.
    let up = call(
        "network_ancestors",
        json!({"node_id": "db", "relations": ["blocks"], "relation_attribute": "kind"}),
    )
    .await;
    assert_eq!(ids(&up["nodes"], "node_id"), ["docs"]);
    let path = call(
        "network_shortest_path",
        json!({"source": "app", "target": "docs", "ignore_relations": ["discovered-from"]}),
    )
    .await;
    assert_eq!(path["found"], false);
    let path = call(
        "network_shortest_path",
        json!({"source": "app", "target": "docs"}),
    )
    .await;
    assert_eq!(strings(&path["node_ids"]), ["app", "lib", "docs"]);
    let paths = call(
        "network_paths",
        json!({"source": "app", "target": "db", "method": "all_simple", "relations": ["blocks"]}),
    )
    .await;
    assert_eq!(paths["paths"].as_array().unwrap().len(), 1);
    let critical = call("network_critical_path", blocking.clone()).await;
    assert_eq!(strings(&critical["node_ids"]), ["app", "lib", "docs", "db"]);
    let ready = call("network_ready_nodes", plain).await;
    assert_eq!(strings(&ready["ready"]), ["lib", "db"]);
    let ready = call("network_ready_nodes", blocking).await;
    assert_eq!(strings(&ready["ready"]), ["db"]);
}

#[tokio::test]
async fn the_network_declares_its_nonblocking_relations_once() {
    let (client, registry) = connect(every_toolset()).await;
    plan(&client, "p").await;
    let before = registry.get("p").unwrap().read().version();
    let created = ok(
        &client,
        "network_create",
        json!({"network_name": "p", "nonblocking_relations": ["related", "discovered-from"]}),
    )
    .await;
    assert_eq!(created["status"], "duplicate");
    assert!(created["message"].as_str().unwrap().contains("replaced"));
    assert!(registry.get("p").unwrap().read().version() > before);
    // No filter in the call: the declared types hold nothing back.
    let order = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "p", "reverse": true, "flat": true}),
    )
    .await;
    assert_eq!(strings(&order["node_ids"]), ["lib", "db", "app", "docs"]);
    let ready = ok(&client, "network_ready_nodes", json!({"network_name": "p"})).await;
    assert_eq!(strings(&ready["ready"]), ["lib", "db"]);
    // ignore_relations: [] follows every edge again.
    err(
        &client,
        "network_topological_sort",
        json!({"network_name": "p", "ignore_relations": []}),
        "cycle_detected",
    )
    .await;
    // The work tools agree with ready_nodes.
    let claimed = ok(
        &client,
        "network_claim_ready",
        json!({"network_name": "p", "worker": "w", "limit": 5}),
    )
    .await;
    assert_eq!(ids(&claimed["claimed"], "node_id"), ["lib", "db"]);
    let done = ok(
        &client,
        "network_complete_claim",
        json!({"network_name": "p", "worker": "w", "node_ids": ["db"]}),
    )
    .await;
    assert_eq!(strings(&done["newly_ready"]), ["docs"]);
    let progress = ok(
        &client,
        "network_plan_progress",
        json!({"network_name": "p"}),
    )
    .await;
    assert_eq!(progress["ready_count"], 1);
    // A new network may declare them at once; [] clears them.
    ok(
        &client,
        "network_create",
        json!({"network_name": "q", "nonblocking_relations": ["related"]}),
    )
    .await;
    assert_eq!(
        registry.get("q").unwrap().read().nonblocking_relations(),
        ["related"]
    );
    ok(
        &client,
        "network_create",
        json!({"network_name": "q", "nonblocking_relations": []}),
    )
    .await;
    assert!(
        registry
            .get("q")
            .unwrap()
            .read()
            .nonblocking_relations()
            .is_empty()
    );
}

#[tokio::test]
async fn bad_filters_are_refused_with_their_field() {
    let (client, _) = connect(every_toolset()).await;
    plan(&client, "p").await;
    let both = err(
        &client,
        "network_ready_nodes",
        json!({"network_name": "p", "relations": ["blocks"], "ignore_relations": ["related"]}),
        "invalid_arguments",
    )
    .await;
    assert_eq!(both["field"], "ignore_relations");
    let many: Vec<String> = (0..10_000).map(|i| format!("r{i}")).collect();
    let e = err(
        &client,
        "network_traverse",
        json!({"network_name": "p", "start_node_ids": ["app"], "relations": many}),
        "invalid_value",
    )
    .await;
    assert_eq!(e["field"], "relations");
    let huge = "x".repeat(100_000);
    let e = err(
        &client,
        "network_claim_ready",
        json!({"network_name": "p", "worker": "w", "ignore_relations": [huge]}),
        "invalid_value",
    )
    .await;
    assert_eq!(e["field"], "ignore_relations");
    assert!(e.to_string().len() < 4_000, "the error is bounded");
    let e = err(
        &client,
        "network_create",
        json!({"network_name": "p", "nonblocking_relations": many}),
        "invalid_value",
    )
    .await;
    assert_eq!(e["field"], "nonblocking_relations");
    let e = err(
        &client,
        "network_critical_path",
        json!({"network_name": "p", "relation_attribute": ""}),
        "invalid_id",
    )
    .await;
    assert_eq!(e["field"], "relation_attribute");
}

#[tokio::test]
async fn a_cursor_of_a_filtered_call_never_continues_another() {
    let (client, _) = connect(every_toolset()).await;
    ok(&client, "network_create", json!({"network_name": "c"})).await;
    let edges: Vec<Value> = (0..30)
        .map(|i| {
            json!({"source": format!("n{i}"), "target": format!("n{}", i + 1),
                   "attributes": {"relation": if i % 2 == 0 { "blocks" } else { "related" }}})
        })
        .collect();
    ok(
        &client,
        "network_add_edges",
        json!({"network_name": "c", "edges": edges, "create_missing_nodes": true}),
    )
    .await;
    let first = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "c", "limit": 5, "relations": ["blocks"]}),
    )
    .await;
    let cursor = first["next_cursor"].as_str().unwrap();
    // The same cursor with another filter, or none, is refused.
    for other in [
        json!({}),
        json!({"relations": ["related"]}),
        json!({"ignore_relations": ["blocks"]}),
    ] {
        let mut args = json!({"network_name": "c", "limit": 5, "cursor": cursor});
        args.as_object_mut()
            .unwrap()
            .extend(other.as_object().unwrap().clone());
        let e = err(&client, "network_topological_sort", args, "invalid_value").await;
        assert_eq!(e["field"], "cursor");
    }
    let next = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "c", "limit": 5, "relations": ["blocks"], "cursor": cursor, "flat": true}),
    )
    .await;
    assert_eq!(next["node_ids"].as_array().unwrap().len(), 5, "{next}");
}

#[test]
fn the_declaration_survives_a_restart_and_a_snapshot() {
    let dir = std::env::temp_dir().join(format!("networks-mcp-relations-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        OsStr::new("--data-dir"),
        dir.as_os_str(),
        OsStr::new("--snapshot-every"),
        OsStr::new("2"),
    ];
    let ready = |s: &mut StdioServer| {
        let r = s
            .call("network_ready_nodes", json!({"network_name": "d"}))
            .unwrap();
        strings(&r["ready"])
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    let mut s = StdioServer::start(&args, Stdio::null());
    s.call(
        "network_create",
        json!({"network_name": "d", "nonblocking_relations": ["related"]}),
    )
    .unwrap();
    s.call(
        "network_add_edges",
        json!({"network_name": "d", "create_missing_nodes": true, "edges": [
            {"source": "a", "target": "b", "attributes": {"relation": "related"}},
            {"source": "b", "target": "c"}
        ]}),
    )
    .unwrap();
    assert_eq!(ready(&mut s), ["a", "c"]);
    // A crash: replayed from the journal (and a snapshot, every 2 records).
    s.kill();
    let mut s = StdioServer::start(&args, Stdio::null());
    assert_eq!(ready(&mut s), ["a", "c"]);
    s.stop();
    let mut s = StdioServer::start(&args, Stdio::null());
    assert_eq!(ready(&mut s), ["a", "c"]);
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
