//! The algorithms toolset through the MCP layer: ranking, paging, the work guard
//! and errors of network_centrality, and network_communities' groups. Agreement
//! with NetworkX is tests/interop/test_centrality.py.

use networks_mcp::mcp::NetworksServer;
use serde_json::{Value, json};

use crate::common::{dispatch as call, unlimited_server};

fn server() -> NetworksServer {
    unlimited_server()
}

/// app -> core, cli -> core, core -> log, web -> api -> core; x alone; a <-> b.
fn modules(server: &NetworksServer) {
    call(server, "network_create", json!({"network_name": "m"})).unwrap();
    let edges: Vec<Value> = [
        ("app", "core"),
        ("cli", "core"),
        ("core", "log"),
        ("web", "api"),
        ("api", "core"),
        ("a", "b"),
        ("b", "a"),
    ]
    .iter()
    .map(|(s, t)| json!({"source": s, "target": t}))
    .collect();
    call(
        server,
        "network_add_edges",
        json!({"network_name": "m", "edges": edges, "create_missing_nodes": true}),
    )
    .unwrap();
    call(
        server,
        "network_add_node",
        json!({"network_name": "m", "node_id": "x"}),
    )
    .unwrap();
}

fn ids(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn betweenness_finds_the_bottleneck_and_pages_with_a_cursor() {
    let server = server();
    modules(&server);
    let first = call(
        &server,
        "network_centrality",
        json!({"network_name": "m", "measure": "betweenness", "normalized": false, "limit": 2}),
    )
    .unwrap();
    // core lies on app/cli/api/web -> log (4 paths); api on web -> core and web -> log.
    assert_eq!(ids(&first["scores"], "node_id"), ["core", "api"]);
    assert_eq!(first["scores"][0]["score"], 4.0);
    assert_eq!(first["scores"][1]["score"], 2.0);
    assert_eq!(
        (&first["total"], &first["truncated"]),
        (&json!(9), &json!(true))
    );
    let next = call(
        &server,
        "network_centrality",
        json!({"network_name": "m", "measure": "betweenness", "normalized": false, "limit": 2, "cursor": first["next_cursor"]}),
    )
    .unwrap();
    assert!(
        next["scores"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["score"] == 0.0),
        "{next}"
    );
    // Another measure cannot continue this cursor.
    let e = call(
        &server,
        "network_centrality",
        json!({"network_name": "m", "measure": "pagerank", "limit": 2, "cursor": first["next_cursor"]}),
    )
    .unwrap_err();
    assert_eq!(e["code"], "invalid_value", "{e}");
}

#[test]
fn bad_centrality_parameters_are_named() {
    let server = server();
    modules(&server);
    for (args, field) in [
        (json!({"measure": "pagerank", "damping": 1.5}), "damping"),
        (json!({"measure": "pagerank", "tolerance": 0}), "tolerance"),
        (
            json!({"measure": "pagerank", "personalization": {"app": -1}}),
            "personalization",
        ),
        (
            json!({"measure": "pagerank", "max_iterations": 1, "tolerance": 1e-300}),
            "max_iterations",
        ),
        (json!({"measure": "betweenness", "k": 0}), "k"),
    ] {
        let mut args = args;
        args["network_name"] = json!("m");
        let e = call(&server, "network_centrality", args.clone()).unwrap_err();
        assert_eq!(
            (&e["code"], &e["field"]),
            (&json!("invalid_value"), &json!(field)),
            "{args}: {e}"
        );
    }
    let e = call(
        &server,
        "network_centrality",
        json!({"network_name": "m", "measure": "pagerank", "personalization": {"cor": 1}}),
    )
    .unwrap_err();
    assert_eq!(e["code"], "node_not_found");
    assert_eq!(e["suggestions"], json!(["core"]), "{e}");
}

#[test]
fn exact_betweenness_on_a_big_network_asks_for_a_sample() {
    let server = server();
    call(&server, "network_create", json!({"network_name": "big"})).unwrap();
    // 50,000 nodes in a chain: exact betweenness would be 50,000 searches.
    for chunk in 0..5 {
        let edges: Vec<Value> = (chunk * 10_000..(chunk + 1) * 10_000)
            .map(|i| json!({"source": format!("n{i}"), "target": format!("n{}", i + 1)}))
            .collect();
        call(
            &server,
            "network_add_edges",
            json!({"network_name": "big", "edges": edges, "create_missing_nodes": true}),
        )
        .unwrap();
    }
    let e = call(
        &server,
        "network_centrality",
        json!({"network_name": "big", "measure": "betweenness"}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("k")),
        "{e}"
    );
    let e = call(
        &server,
        "network_centrality",
        json!({"network_name": "big", "measure": "closeness"}),
    )
    .unwrap_err();
    assert_eq!(
        (&e["code"], &e["field"]),
        (&json!("invalid_value"), &json!("measure")),
        "{e}"
    );
    let sampled = call(
        &server,
        "network_centrality",
        json!({"network_name": "big", "measure": "betweenness", "k": 20, "seed": 3, "limit": 1}),
    )
    .unwrap();
    assert_eq!(sampled["total"], 50_001);
}

#[test]
fn components_are_listed_as_groups() {
    let server = server();
    modules(&server);
    let weak = call(
        &server,
        "network_communities",
        json!({"network_name": "m", "method": "weak"}),
    )
    .unwrap();
    assert_eq!(weak["total"], 3);
    assert_eq!(
        weak["groups"][0]["node_ids"],
        json!(["app", "core", "cli", "log", "web", "api"])
    );
    let strong = call(
        &server,
        "network_communities",
        json!({"network_name": "m", "method": "strong", "min_size": 2}),
    )
    .unwrap();
    assert_eq!(
        strong["groups"],
        json!([{"size": 2, "node_ids": ["a", "b"]}])
    );
    assert_eq!(
        (&strong["total"], &strong["group_count"]),
        (&json!(1), &json!(8))
    );
    let cut = call(
        &server,
        "network_communities",
        json!({"network_name": "m", "method": "weak", "max_nodes_per_group": 2, "limit": 1}),
    )
    .unwrap();
    assert_eq!(cut["groups"][0]["node_ids"], json!(["app", "core"]));
    assert!(
        cut["more"]
            .as_str()
            .unwrap()
            .contains("max_nodes_per_group"),
        "{cut}"
    );
}
