//! Versions and conditional writes: every write reply names the version it made,
//! `if_version` is compare-and-swap on it (so concurrent writers lose no update),
//! and `expect` makes an update depend on attribute values.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};
use serde_json::json;

use crate::common::dispatch as call;

fn server() -> NetworksServer {
    // The toolsets whose writes are tested here; the work tools' versions are
    // tested with them (tests/it/work.rs).
    let options = ServerOptions {
        toolsets: [
            Toolset::Core,
            Toolset::Edit,
            Toolset::Analysis,
            Toolset::Interchange,
        ]
        .into_iter()
        .collect(),
        switchable: false,
        ..ServerOptions::default()
    };
    NetworksServer::new(Arc::new(NetworkRegistry::new()), options)
}

fn version(server: &NetworksServer) -> u64 {
    call(server, "network_describe", json!({"network_name": "plan"})).unwrap()["version"]
        .as_u64()
        .unwrap()
}

fn plan(server: &NetworksServer) {
    call(server, "network_create", json!({"network_name": "plan"})).unwrap();
    call(
        server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": [
            {"node_id": "a", "attributes": {"status": "todo"}},
            {"node_id": "b", "attributes": {"status": "todo"}},
            {"node_id": "c"}
        ]}),
    )
    .unwrap();
}

#[test]
fn every_write_reply_names_the_version_it_made_and_reads_report_it() {
    let server = server();
    let created = call(&server, "network_create", json!({"network_name": "plan"})).unwrap();
    assert_eq!(created["version"], 0);
    let added = call(
        &server,
        "network_add_node",
        json!({"network_name": "plan", "node_id": "a"}),
    )
    .unwrap();
    assert_eq!(added["version"], 1);
    // A no-op write leaves the version where it was.
    let again = call(
        &server,
        "network_add_node",
        json!({"network_name": "plan", "node_id": "a"}),
    )
    .unwrap();
    assert_eq!(
        (&again["status"], &again["version"]),
        (&json!("duplicate"), &json!(1))
    );
    let edge = call(
        &server,
        "network_add_edge",
        json!({"network_name": "plan", "source": "a", "target": "a"}),
    )
    .unwrap();
    assert_eq!(edge["version"], 2);
    let node = call(
        &server,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "a"}),
    )
    .unwrap();
    assert_eq!(node["version"], 2);
    let list = call(&server, "network_list", json!({})).unwrap();
    assert_eq!(list["networks"][0]["version"], 2);
    assert_eq!(version(&server), 2);
}

#[test]
fn if_version_applies_on_a_match_and_is_a_conflict_otherwise_on_every_write_tool() {
    let server = server();
    plan(&server);
    let at = version(&server);
    let stale = at - 1;
    let writes = [
        ("network_create", json!({"network_name": "plan"})),
        (
            "network_add_node",
            json!({"network_name": "plan", "node_id": "d"}),
        ),
        (
            "network_add_nodes",
            json!({"network_name": "plan", "nodes": [{"node_id": "d"}]}),
        ),
        (
            "network_add_edge",
            json!({"network_name": "plan", "source": "a", "target": "b"}),
        ),
        (
            "network_add_edges",
            json!({"network_name": "plan", "edges": [{"source": "a", "target": "b"}]}),
        ),
        (
            "network_update_node",
            json!({"network_name": "plan", "node_id": "a", "attributes": {"x": 1}}),
        ),
        (
            "network_update_nodes",
            json!({"network_name": "plan", "updates": [{"node_id": "a", "attributes": {"x": 1}}]}),
        ),
        (
            "network_remove_node",
            json!({"network_name": "plan", "node_id": "c", "confirm": true}),
        ),
        (
            "network_remove_edge",
            json!({"network_name": "plan", "source": "a", "target": "b"}),
        ),
        (
            "network_import",
            json!({"network_name": "plan", "format": "edge_list_csv", "content": "source,target\na,b\n", "mode": "merge"}),
        ),
        (
            "network_delete",
            json!({"network_name": "plan", "confirm": true}),
        ),
    ];
    let listed: Vec<String> = server
        .listed_tools()
        .iter()
        .filter(|t| {
            server
                .accepted_parameters(&t.name)
                .contains(&"if_version".to_string())
        })
        .map(|t| t.name.to_string())
        .collect();
    let mut covered: Vec<String> = writes.iter().map(|(t, _)| t.to_string()).collect();
    covered.sort();
    let mut listed_sorted = listed.clone();
    listed_sorted.sort();
    assert_eq!(
        covered, listed_sorted,
        "every write tool offers if_version, and is tested here"
    );
    for (tool, args) in writes {
        let before = server.registry().get("plan").unwrap().read().to_data();
        let mut conditional = args.clone();
        conditional["if_version"] = json!(stale);
        let error = call(&server, tool, conditional).expect_err(tool);
        assert_eq!(error["code"], "version_conflict", "{tool}: {error}");
        assert_eq!(
            (&error["if_version"], &error["current_version"]),
            (&json!(stale), &json!(version(&server))),
            "{tool}"
        );
        assert_eq!(
            server.registry().get("plan").unwrap().read().to_data(),
            before,
            "{tool} changed the network"
        );
        // At the current version the same call applies, and names the version it made.
        let mut current = args.clone();
        current["if_version"] = json!(version(&server));
        let applied = call(&server, tool, current).unwrap_or_else(|e| panic!("{tool}: {e}"));
        if tool != "network_delete" {
            assert_eq!(applied["version"], json!(version(&server)), "{tool}");
        }
    }
    assert!(
        server.registry().get("plan").is_err(),
        "the conditional delete applied"
    );
    let error = call(
        &server,
        "network_add_node",
        json!({"network_name": "x", "node_id": "a", "if_version": -1}),
    )
    .unwrap_err();
    assert_eq!(
        (&error["code"], &error["field"]),
        (&json!("invalid_value"), &json!("if_version"))
    );
}

/// Compare-and-swap loses no update: workers read a counter and its version,
/// and write counter + 1 only if nothing changed since; on a conflict they read
/// again. Every acknowledged increment is in the final count.
#[test]
fn concurrent_increments_with_if_version_lose_no_update() {
    let server = Arc::new(server());
    plan(&server);
    call(
        &server,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "a", "attributes": {"count": 0}}),
    )
    .unwrap();
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let server = Arc::clone(&server);
            std::thread::spawn(move || {
                let mut done = 0;
                let mut conflicts = 0;
                while done < 25 {
                    let node = call(&server, "network_get_node", json!({"network_name": "plan", "node_id": "a"})).unwrap();
                    let count = node["attributes"]["count"].as_u64().unwrap();
                    let write = json!({"network_name": "plan", "node_id": "a", "attributes": {"count": count + 1}, "if_version": node["version"]});
                    match call(&server, "network_update_node", write) {
                        Ok(_) => done += 1,
                        Err(error) => {
                            assert_eq!(error["code"], "version_conflict", "{error}");
                            conflicts += 1;
                        }
                    }
                }
                conflicts
            })
        })
        .collect();
    let conflicts: u64 = workers.into_iter().map(|w| w.join().unwrap()).sum();
    let node = call(
        &server,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "a"}),
    )
    .unwrap();
    assert_eq!(
        node["attributes"]["count"], 200,
        "every acknowledged increment counted ({conflicts} conflicts retried)"
    );
}

#[test]
fn expect_names_every_unmet_expectation_and_changes_nothing() {
    let server = server();
    plan(&server);
    let claimed = call(
        &server,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "a", "attributes": {"status": "doing", "owner": "ana"}, "expect": {"status": "todo", "owner": null}}),
    )
    .unwrap();
    assert_eq!(claimed["attributes"]["owner"], "ana");
    // A second claim of the same task fails: it is no longer todo.
    let error = call(
        &server,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "a", "attributes": {"status": "doing", "owner": "li"}, "expect": {"status": "todo"}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "precondition_failed", "{error}");
    assert_eq!(
        error["mismatches"],
        json!([{"node_id": "a", "attribute": "status", "expected": "todo", "current": "doing"}])
    );
    let before = server.registry().get("plan").unwrap().read().to_data();
    let error = call(
        &server,
        "network_update_nodes",
        json!({"network_name": "plan", "updates": [
            {"node_id": "a", "attributes": {"status": "done"}, "expect": {"owner": "li"}},
            {"node_id": "b", "attributes": {"status": "done"}, "expect": {"status": "todo"}},
            {"node_id": "c", "attributes": {"status": "done"}, "expect": {"status": "todo"}}
        ]}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "precondition_failed");
    let message = error["error"].as_str().unwrap();
    assert!(
        message.contains("node 'a' has owner: \"ana\"")
            && message.contains("node 'c' has status: null"),
        "{message}"
    );
    assert_eq!(error["mismatches"].as_array().unwrap().len(), 2);
    assert_eq!(
        server.registry().get("plan").unwrap().read().to_data(),
        before,
        "nothing changed"
    );
}
