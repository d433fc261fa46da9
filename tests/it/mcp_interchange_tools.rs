//! `network_export` and `network_import` through MCP, and `--load` at startup.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::common::{connect, err, ok};
use networks_mcp::mcp::ServerOptions;
use serde_json::{Value, json};

/// A smaller release plan: five nodes, five edges, the last three of weight 1.
async fn release_plan(client: &common::Client) {
    let plan = [
        ("api", "schema", 3.0),
        ("ui", "schema", 2.0),
        ("tests", "api", 1.0),
        ("tests", "ui", 1.0),
        ("ship", "tests", 1.0),
    ];
    common::network_from_edges(client, "release", &plan).await;
}

#[tokio::test]
async fn export_gives_the_document_with_counts_and_a_resource_uri() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let out = ok(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "mermaid"}),
    )
    .await;
    assert_eq!(
        (&out["node_count"], &out["edge_count"], &out["truncated"]),
        (&json!(5), &json!(5), &json!(false))
    );
    assert_eq!(out["selected_node_count"], 5);
    assert_eq!(out["mime_type"], "text/vnd.mermaid");
    // The whole network: the embedded resource is the whole export's.
    assert_eq!(out["resource_uri"], "network://release/export/mermaid");
    let content = out["content"].as_str().unwrap();
    assert!(
        content.starts_with("%% networks-mcp export: A --> B means A depends on B\nflowchart LR\n"),
        "{content}"
    );
    assert!(content.contains("\"schema\""), "{content}");
    assert!(out.get("note").is_none());
}

#[tokio::test]
async fn export_of_a_neighbourhood_keeps_only_the_edges_among_its_nodes() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let out = ok(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "edge_list_csv", "node_ids": ["api"], "direction": "in", "depth": 2}),
    )
    .await;
    // api, then what depends on it: tests (1), ship (2).
    assert_eq!(out["node_count"], 3);
    assert_eq!(out["selected_node_count"], 3);
    assert_eq!(out["mime_type"], "text/csv");
    // A part: its URI says so, and the note names the whole network's.
    let uri = out["resource_uri"].as_str().unwrap();
    assert!(
        uri.starts_with("network://release/export/edge_list_csv?v="),
        "{uri}"
    );
    assert!(
        out["note"]
            .as_str()
            .unwrap()
            .contains("network://release/export/edge_list_csv")
    );
    let content = out["content"].as_str().unwrap();
    let rows: Vec<&str> = content.lines().skip(1).collect();
    assert_eq!(rows, ["tests,api,1.0,2", "ship,tests,1.0,4"], "{content}");
    assert_eq!(out["edge_count"], 2);
}

#[tokio::test]
async fn a_limit_truncates_the_export_and_says_where_the_rest_is() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let out = ok(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "node_link_json", "limit": 2}),
    )
    .await;
    assert_eq!(out["truncated"], true);
    assert_eq!(
        (&out["node_count"], &out["selected_node_count"]),
        (&json!(2), &json!(5))
    );
    let doc: Value = serde_json::from_str(out["content"].as_str().unwrap()).unwrap();
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 2);
    assert!(
        out["note"]
            .as_str()
            .unwrap()
            .contains("network://release/export/node_link_json")
    );
}

#[tokio::test]
async fn export_errors_name_the_problem() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let e = err(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "pdf"}),
        "invalid_arguments",
    )
    .await;
    assert!(e["error"].as_str().unwrap().contains("mermaid"), "{e}");
    err(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "dot", "node_ids": ["aip"]}),
        "node_not_found",
    )
    .await;
    err(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "dot", "limit": 0}),
        "invalid_value",
    )
    .await;
}

#[tokio::test]
async fn import_round_trips_every_importable_format() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let original = ok(
        &client,
        "network_list_edges",
        json!({"network_name": "release"}),
    )
    .await;
    for format in ["node_link_json", "graphml", "dot", "edge_list_csv"] {
        let doc = ok(
            &client,
            "network_export",
            json!({"network_name": "release", "format": format}),
        )
        .await;
        let name = format!("copy_{format}");
        let imported = ok(
            &client,
            "network_import",
            json!({"network_name": name, "format": format, "content": doc["content"]}),
        )
        .await;
        assert_eq!(imported["created_edge_count"], 5, "{format}");
        assert_eq!(imported["node_count"], 5, "{format}");
        let copy = ok(&client, "network_list_edges", json!({"network_name": name})).await;
        let pairs = |v: &Value| -> Vec<(String, String, f64)> {
            v["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e["source"].as_str().unwrap().to_string(),
                        e["target"].as_str().unwrap().to_string(),
                        e["weight"].as_f64().unwrap(),
                    )
                })
                .collect()
        };
        assert_eq!(pairs(&copy), pairs(&original), "{format}");
    }
}

#[tokio::test]
async fn a_bad_document_imports_nothing_and_says_where() {
    let (client, registry) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let e = err(
        &client,
        "network_import",
        json!({"network_name": "release", "mode": "merge", "format": "edge_list_csv",
               "content": "source,target,weight\nnew_a,new_b,1\nnew_b,new_c,heavy\n"}),
        "invalid_import",
    )
    .await;
    assert_eq!(e["location"], "row 3, column 'weight'", "{e}");
    let e = err(
        &client,
        "network_import",
        json!({"network_name": "g", "format": "graphml",
               "content": "<graphml><graph>\n<node id='a'/>\n<edge source='a' target='b'>\n</graph></graphml>"}),
        "invalid_import",
    )
    .await;
    assert!(e["location"].as_str().unwrap().starts_with("line 4"), "{e}");
    // Nothing of the merge happened, and no network was created.
    let net = registry.get("release").unwrap();
    assert_eq!(net.read().node_count(), 5);
    assert!(!net.read().contains_node("new_a"));
    assert!(registry.get("g").is_err());
}

#[tokio::test]
async fn merge_keeps_existing_nodes_and_create_refuses_a_taken_name() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    ok(
        &client,
        "network_update_node",
        json!({"network_name": "release", "node_id": "ship", "attributes": {"status": "todo"}}),
    )
    .await;
    let merged = ok(
        &client,
        "network_import",
        json!({"network_name": "release", "mode": "merge", "format": "node_link_json",
               "content": r#"{"directed": true, "multigraph": true, "nodes": [{"id": "ship", "status": "done"}, {"id": "docs"}], "edges": [{"source": "ship", "target": "docs"}]}"#}),
    )
    .await;
    assert_eq!(
        (
            &merged["created_node_count"],
            &merged["existing_node_count"],
            &merged["created_edge_count"]
        ),
        (&json!(1), &json!(1), &json!(1))
    );
    let ship = ok(
        &client,
        "network_get_node",
        json!({"network_name": "release", "node_id": "ship"}),
    )
    .await;
    assert_eq!(
        ship["attributes"]["status"], "todo",
        "existing node unchanged"
    );

    let e = err(
        &client,
        "network_import",
        json!({"network_name": "release", "format": "edge_list_csv", "content": "source,target\na,b\n"}),
        "invalid_value",
    )
    .await;
    assert!(e["error"].as_str().unwrap().contains("merge"), "{e}");
    err(
        &client,
        "network_import",
        json!({"network_name": "absent", "mode": "merge", "format": "edge_list_csv", "content": "source,target\na,b\n"}),
        "network_not_found",
    )
    .await;
}

#[tokio::test]
async fn read_only_servers_export_but_refuse_imports() {
    let (client, _) = connect(ServerOptions {
        read_only: true,
        ..ServerOptions::default()
    })
    .await;
    err(
        &client,
        "network_import",
        json!({"network_name": "x", "format": "edge_list_csv", "content": "source,target\na,b\n"}),
        "read_only",
    )
    .await;
}

#[test]
fn load_preloads_networks_from_files_at_startup() {
    let dir = std::env::temp_dir().join(format!("networks-mcp-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("deps.csv");
    std::fs::write(
        &csv,
        "source,target,weight\ncli,agents,1\nagents,logging,2\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_networks-mcp"))
        .arg("--load")
        .arg(format!("deps={}", csv.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for frame in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "network_list", "arguments": {}}}),
    ] {
        writeln!(stdin, "{frame}").unwrap();
    }
    drop(stdin);
    let lines: Vec<Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    child.wait().unwrap();
    let listed = lines.iter().find(|l| l["id"] == 2).expect("answer");
    let networks = &listed["result"]["structuredContent"]["networks"];
    assert_eq!(networks[0]["name"], "deps", "{listed}");
    assert_eq!(networks[0]["node_count"], 3);
    assert_eq!(networks[0]["edge_count"], 2);

    // A file that does not parse stops the server with a message, before serving.
    std::fs::write(&csv, "source,target,weight\ncli,agents,heavy\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_networks-mcp"))
        .arg("--load")
        .arg(format!("deps={}", csv.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("row 2"), "{stderr}");
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}
