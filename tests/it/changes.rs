//! `network_changes`: every kind of write is recorded by the one change path
//! with the version it made, the list pages (across writes, too), a window
//! that has moved on says so and how to catch up, and hostile input is refused
//! or bounded.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::NetworksServer;
use networks_mcp::network::ChangeWindow;
use serde_json::{Value, json};

use crate::common::{dispatch as call, dispatch_err as err, dispatch_ok as ok, every_toolset};

fn server() -> (NetworksServer, Arc<NetworkRegistry>) {
    let registry = Arc::new(NetworkRegistry::new());
    (
        NetworksServer::new(Arc::clone(&registry), every_toolset()),
        registry,
    )
}

fn version(server: &NetworksServer) -> u64 {
    ok(server, "network_list", json!({}))["networks"][0]["version"]
        .as_u64()
        .unwrap()
}

/// Every change since `since`, read page by page with `limit`.
fn all_changes(server: &NetworksServer, since: u64, limit: usize) -> (Vec<Value>, Value) {
    let mut changes = Vec::new();
    let mut args = json!({"network_name": "plan", "since_version": since, "limit": limit});
    loop {
        let page = ok(server, "network_changes", args.clone());
        changes.extend(page["changes"].as_array().unwrap().iter().cloned());
        match page.get("next_cursor") {
            Some(cursor) => args["cursor"] = cursor.clone(),
            None => return (changes, page),
        }
    }
}

fn summary(change: &Value) -> String {
    let kind = change["change"].as_str().unwrap();
    match kind {
        "edge_added" | "edge_removed" => format!(
            "{} {kind} {} {}->{}",
            change["version"], change["edge_id"], change["source"], change["target"]
        ),
        _ => format!("{} {kind} {}", change["version"], change["node_id"]),
    }
    .replace('"', "")
}

#[test]
fn every_kind_of_write_is_recorded_with_the_version_it_made() {
    let (s, _) = server();
    ok(&s, "network_create", json!({"network_name": "plan"}));
    let start = version(&s);
    ok(
        &s,
        "network_add_node",
        json!({"network_name": "plan", "node_id": "design"}),
    );
    ok(
        &s,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": [{"node_id": "build"}, {"node_id": "design"}]}),
    );
    ok(
        &s,
        "network_add_edges",
        json!({"network_name": "plan", "create_missing_nodes": true,
               "edges": [{"source": "build", "target": "design"}, {"source": "test", "target": "build"}]}),
    );
    ok(
        &s,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "design", "attributes": {"owner": "ana", "status": "done"}}),
    );
    ok(
        &s,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "design", "attributes": {"owner": "bo"}, "remove_attributes": ["status"]}),
    );
    ok(
        &s,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1"}),
    );
    ok(
        &s,
        "network_remove_node",
        json!({"network_name": "plan", "node_id": "build", "confirm": true}),
    );
    ok(
        &s,
        "network_import",
        json!({"network_name": "plan", "format": "edge_list_csv", "mode": "merge", "content": "source,target\nship,test\n"}),
    );
    let now = version(&s);
    let (changes, last) = all_changes(&s, start, 3);
    assert_eq!(last["version"], now);
    assert_eq!(last["total"], changes.len());
    let lines: Vec<String> = changes.iter().map(summary).collect();
    let v = |k: u64| start + k;
    assert_eq!(
        lines[..8],
        [
            format!("{} node_added design", v(1)),
            format!("{} node_added build", v(2)),
            format!("{} node_added test", v(3)),
            format!("{} edge_added 0 build->design", v(4)),
            format!("{} edge_added 1 test->build", v(5)),
            format!("{} node_changed design", v(6)),
            format!("{} node_changed design", v(7)),
            format!("{} node_changed design", v(8)),
        ],
        "{lines:#?}"
    );
    assert_eq!(
        changes[5]["attributes_before"],
        json!({"owner": null, "status": null})
    );
    assert_eq!(
        changes[5]["attributes_after"],
        json!({"owner": "ana", "status": "done"})
    );
    assert_eq!(
        changes[6]["attributes_before"],
        json!({"owner": "ana", "status": "done"})
    );
    assert_eq!(
        changes[6]["attributes_after"],
        json!({"owner": "bo", "status": null})
    );
    assert_eq!(changes[6]["data_changed"], false);
    // The claim wrote the claim and lease attributes on design, the only ready task.
    assert_eq!(changes[7]["attributes_before"]["claimed_by"], Value::Null);
    assert_eq!(changes[7]["attributes_after"]["claimed_by"], "w1");
    // A node removed with its edges: one version, the edges first.
    assert_eq!(
        lines[8..11],
        [
            format!("{} edge_removed 0 build->design", v(9)),
            format!("{} edge_removed 1 test->build", v(9)),
            format!("{} node_removed build", v(9)),
        ],
        "{lines:#?}"
    );
    assert_eq!(
        lines[11..],
        [
            format!("{} node_added ship", v(10)),
            format!("{} edge_added 2 ship->test", v(11)),
        ],
        "{lines:#?}"
    );
    assert_eq!(now, v(11));
    // Since the last version: nothing.
    let none = ok(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": now}),
    );
    assert_eq!(
        (none["total"].as_u64(), none["truncated"].as_bool()),
        (Some(0), Some(false))
    );
}

#[test]
fn a_cursor_survives_writes_and_lists_each_change_once() {
    let (s, _) = server();
    ok(&s, "network_create", json!({"network_name": "plan"}));
    for id in ["a", "b", "c", "d"] {
        ok(
            &s,
            "network_add_node",
            json!({"network_name": "plan", "node_id": id}),
        );
    }
    let first = ok(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 0, "limit": 3}),
    );
    assert_eq!(first["total"], 4);
    assert_eq!(first["truncated"], true);
    assert!(
        first["more"].as_str().unwrap().contains("Changes 1-3 of 4"),
        "{first}"
    );
    // Writes between pages: the cursor goes on, and the new changes come after.
    ok(
        &s,
        "network_add_node",
        json!({"network_name": "plan", "node_id": "e"}),
    );
    let second = ok(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 0, "limit": 3, "cursor": first["next_cursor"]}),
    );
    let ids: Vec<&str> = first["changes"]
        .as_array()
        .unwrap()
        .iter()
        .chain(second["changes"].as_array().unwrap())
        .map(|c| c["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e"]);
    assert_eq!(second["truncated"], false);
    // A cursor is bound to its call: another since_version refuses it.
    err(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 1, "cursor": first["next_cursor"]}),
        "invalid_value",
    );
    // And to the network: one deleted and made again refuses it.
    ok(
        &s,
        "network_delete",
        json!({"network_name": "plan", "confirm": true}),
    );
    ok(&s, "network_create", json!({"network_name": "plan"}));
    err(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 0, "limit": 3, "cursor": first["next_cursor"]}),
        "cursor_stale",
    );
}

#[test]
fn past_the_window_the_answer_says_so_and_how_to_catch_up() {
    let (s, registry) = server();
    ok(&s, "network_create", json!({"network_name": "plan"}));
    registry
        .write("plan", |net| {
            net.set_change_window(ChangeWindow {
                max_records: 5,
                max_bytes: 1 << 20,
            });
            Ok(())
        })
        .unwrap();
    let nodes: Vec<Value> = (0..12)
        .map(|i| json!({"node_id": format!("n{i}")}))
        .collect();
    ok(
        &s,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    );
    let now = version(&s);
    let reply = ok(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 2}),
    );
    assert_eq!(reply["oldest_version"], now - 5);
    assert_eq!(reply["total"], 5);
    assert_eq!(reply["truncated"], true);
    assert!(reply.get("next_cursor").is_none());
    let more = reply["more"].as_str().unwrap();
    for words in [
        "Incomplete",
        "network_diff",
        "network_copy",
        "since_version",
    ] {
        assert!(more.contains(words), "{words}: {more}");
    }
    // Inside the window: complete, with no advice.
    let inside = ok(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": now - 2}),
    );
    assert_eq!(
        (inside["total"].as_u64(), inside["truncated"].as_bool()),
        (Some(2), Some(false))
    );
    assert!(inside.get("more").is_none());
}

#[test]
fn hostile_versions_cursors_and_values_are_refused_or_bounded() {
    let (s, _) = server();
    ok(&s, "network_create", json!({"network_name": "plan"}));
    ok(
        &s,
        "network_add_node",
        json!({"network_name": "plan", "node_id": "a"}),
    );
    for since in [
        json!(-1),
        json!(1.5),
        json!("3"),
        serde_json::from_str("18446744073709551616").unwrap(),
    ] {
        let e = call(
            &s,
            "network_changes",
            json!({"network_name": "plan", "since_version": since}),
        )
        .expect_err("a bad since_version");
        assert!(
            ["invalid_value", "invalid_arguments"].contains(&e["code"].as_str().unwrap()),
            "{e}"
        );
        assert!(e.to_string().contains("since_version"), "{e}");
    }
    let future = err(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": u64::MAX}),
        "invalid_value",
    );
    assert!(
        future["error"]
            .as_str()
            .unwrap()
            .contains("past the network's version"),
        "{future}"
    );
    err(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 0, "cursor": "c2.1.0.0.0.0"}),
        "invalid_value",
    );
    err(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 0, "limit": 0}),
        "invalid_value",
    );
    err(
        &s,
        "network_changes",
        json!({"network_name": "nope", "since_version": 0}),
        "network_not_found",
    );
    // A window full of huge values: each value is kept cut, and a page stays
    // within the default reply size.
    let big = "x".repeat(50_000);
    for i in 0..20 {
        ok(
            &s,
            "network_update_node",
            json!({"network_name": "plan", "node_id": "a", "attributes": {"k": format!("{i}{big}")}}),
        );
    }
    let reply = ok(
        &s,
        "network_changes",
        json!({"network_name": "plan", "since_version": 0}),
    );
    let bytes = serde_json::to_string(&reply).unwrap().len();
    assert!(bytes < 8 * 1024, "{bytes} bytes");
    let value = reply["changes"][1]["attributes_after"]["k"]
        .as_str()
        .unwrap();
    assert!(
        value.len() < 400 && value.ends_with("(50001 bytes in all)"),
        "{value}"
    );
    assert_eq!(reply["truncated"], true);
}
