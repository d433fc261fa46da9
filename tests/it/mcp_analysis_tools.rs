//! Analysis tools through the real server: the planning flow, cycles, and bounds.

use crate::common;

use crate::common::{connect, err, ok};
use networks_mcp::mcp::ServerOptions;
use networks_mcp::network::{MissingNodes, Weighted};
use serde_json::{Value, json};

/// A release plan as a depends-on graph: A -> B reads "A depends on B"; weights are days.
async fn release_plan(client: &common::Client) {
    common::network_from_edges(client, "release", common::RELEASE_PLAN).await;
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_planning_flow() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;

    let order = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "release", "reverse": true}),
    )
    .await;
    let layers: Vec<Vec<&str>> = order["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(strings)
        .collect();
    assert_eq!(
        layers,
        vec![
            vec!["schema"],
            vec!["api", "ui"],
            vec!["tests", "docs"],
            vec!["ship"]
        ]
    );
    // Each id once: the layers, or with flat the order as one list.
    assert!(order.get("node_ids").is_none(), "{order}");
    let flat = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "release", "reverse": true, "flat": true}),
    )
    .await;
    assert_eq!(
        strings(&flat["node_ids"]),
        ["schema", "api", "ui", "tests", "docs", "ship"]
    );
    assert!(flat.get("layers").is_none(), "{flat}");
    assert_eq!(order["layer_count"], 4);

    let forward = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "release", "flat": true}),
    )
    .await;
    assert_eq!(strings(&forward["node_ids"])[0], "ship");

    let ready = ok(
        &client,
        "network_ready_nodes",
        json!({"network_name": "release"}),
    )
    .await;
    assert_eq!(strings(&ready["ready"]), ["schema"]);
    assert_eq!(ready["blocked_count"], 5);
    ok(
        &client,
        "network_update_node",
        json!({"network_name": "release", "node_id": "schema", "attributes": {"status": "done"}}),
    )
    .await;
    let ready = ok(
        &client,
        "network_ready_nodes",
        json!({"network_name": "release", "done_attributes": {"status": "done"}, "done": ["api"]}),
    )
    .await;
    assert_eq!(strings(&ready["ready"]), ["ui", "docs"]);
    assert_eq!(ready["done_count"], 2);
    let tests_blocked = ready["blocked"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["node_id"] == "tests")
        .unwrap();
    assert_eq!(strings(&tests_blocked["waiting_on"]), ["ui"]);

    let critical = ok(
        &client,
        "network_critical_path",
        json!({"network_name": "release"}),
    )
    .await;
    assert_eq!(
        strings(&critical["node_ids"]),
        ["ship", "tests", "api", "schema"]
    );
    assert_eq!(critical["total_weight"], 6.0);
    assert_eq!(critical["hops"], 3);

    let impact = ok(
        &client,
        "network_ancestors",
        json!({"network_name": "release", "node_id": "api"}),
    )
    .await;
    let affected: Vec<(&str, u64)> = impact["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["node_id"].as_str().unwrap(), n["depth"].as_u64().unwrap()))
        .collect();
    assert_eq!(affected, [("tests", 1), ("docs", 1), ("ship", 2)]);
    let needs = ok(
        &client,
        "network_descendants",
        json!({"network_name": "release", "node_id": "tests"}),
    )
    .await;
    assert_eq!(needs["total"], 3);

    let path = ok(
        &client,
        "network_shortest_path",
        json!({"network_name": "release", "source": "ship", "target": "schema"}),
    )
    .await;
    assert_eq!(path["found"], true);
    assert_eq!(
        strings(&path["node_ids"]),
        ["ship", "tests", "ui", "schema"]
    );
    assert_eq!(path["total_weight"], 4.0);
    assert_eq!(path["edge_ids"].as_array().unwrap().len(), 3);
    let hops = ok(
        &client,
        "network_shortest_path",
        json!({"network_name": "release", "source": "ship", "target": "schema", "weighted": false}),
    )
    .await;
    assert_eq!(hops["hops"], 3);
    let none = ok(
        &client,
        "network_shortest_path",
        json!({"network_name": "release", "source": "schema", "target": "ship"}),
    )
    .await;
    assert_eq!(none["found"], false);
    assert_eq!(none["node_ids"], json!([]));

    let walk = ok(
        &client,
        "network_traverse",
        json!({"network_name": "release", "start_node_ids": ["ship"], "max_depth": 1}),
    )
    .await;
    assert_eq!(
        walk["visited"],
        json!([
            {"node_id": "ship", "depth": 0},
            {"node_id": "tests", "depth": 1, "parent": "ship"},
            {"node_id": "docs", "depth": 1, "parent": "ship"}
        ])
    );

    let described = ok(
        &client,
        "network_describe",
        json!({"network_name": "release"}),
    )
    .await;
    assert_eq!(
        (
            described["node_count"].as_u64(),
            described["edge_count"].as_u64()
        ),
        (Some(6), Some(7))
    );
    assert_eq!(described["is_dag"], true);
    assert_eq!(strings(&described["sources"]), ["ship"]);
    assert_eq!(strings(&described["sinks"]), ["schema"]);
    let cycles = ok(
        &client,
        "network_find_cycles",
        json!({"network_name": "release"}),
    )
    .await;
    assert_eq!(
        (cycles["is_dag"].as_bool(), cycles["total"].as_u64()),
        (Some(true), Some(0))
    );
}

/// Checks that `cycle` is a real cycle of the release network plus the extra edges.
fn assert_real_cycle(cycle: &[&str], edges: &[(&str, &str)]) {
    assert!(!cycle.is_empty());
    for i in 0..cycle.len() {
        let (a, b) = (cycle[i], cycle[(i + 1) % cycle.len()]);
        assert!(
            edges.contains(&(a, b)),
            "{a} -> {b} is not an edge; cycle {cycle:?}"
        );
    }
}

#[tokio::test]
async fn a_cyclic_plan_names_a_real_cycle() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    ok(
        &client,
        "network_add_edge",
        json!({"network_name": "release", "source": "schema", "target": "ship"}),
    )
    .await;
    let edges = [
        ("api", "schema"),
        ("ui", "schema"),
        ("tests", "api"),
        ("tests", "ui"),
        ("ship", "tests"),
        ("docs", "api"),
        ("ship", "docs"),
        ("schema", "ship"),
    ];
    for tool in ["network_topological_sort", "network_critical_path"] {
        let e = err(
            &client,
            tool,
            json!({"network_name": "release"}),
            "cycle_detected",
        )
        .await;
        let cycle = strings(&e["cycle_node_ids"]);
        assert_real_cycle(&cycle, &edges);
        assert!(e["error"].as_str().unwrap().contains(" -> "));
    }
    let cycles = ok(
        &client,
        "network_find_cycles",
        json!({"network_name": "release"}),
    )
    .await;
    assert_eq!(cycles["total"], 1);
    assert_eq!(cycles["groups"][0]["size"], 6);
    assert_real_cycle(&strings(&cycles["groups"][0]["cycle_node_ids"]), &edges);
}

#[tokio::test]
async fn negative_cycle_is_an_error_and_bad_arguments_are_caught() {
    let (client, _) = connect(ServerOptions::default()).await;
    ok(&client, "network_create", json!({"network_name": "n"})).await;
    ok(&client, "network_add_edges", json!({"network_name": "n", "create_missing_nodes": true, "edges": [
        {"source": "a", "target": "b", "weight": 1}, {"source": "b", "target": "a", "weight": -2}, {"source": "b", "target": "c", "weight": 1}
    ]})).await;
    err(
        &client,
        "network_shortest_path",
        json!({"network_name": "n", "source": "a", "target": "c"}),
        "negative_cycle",
    )
    .await;
    let hops = ok(
        &client,
        "network_shortest_path",
        json!({"network_name": "n", "source": "a", "target": "c", "weighted": false}),
    )
    .await;
    assert_eq!(hops["hops"], 2);
    err(
        &client,
        "network_traverse",
        json!({"network_name": "n", "start_node_ids": []}),
        "invalid_value",
    )
    .await;
    err(
        &client,
        "network_traverse",
        json!({"network_name": "n", "start_node_ids": ["zz"]}),
        "node_not_found",
    )
    .await;
    err(
        &client,
        "network_descendants",
        json!({"network_name": "n", "node_id": "a", "max_depth": 0}),
        "invalid_value",
    )
    .await;
    err(
        &client,
        "network_ready_nodes",
        json!({"network_name": "n", "done": ["ghost"]}),
        "node_not_found",
    )
    .await;
    err(
        &client,
        "network_describe",
        json!({"network_name": "n", "top_k": 0}),
        "invalid_value",
    )
    .await;
    err(
        &client,
        "network_topological_sort",
        json!({"network_name": "n", "limit": 10_001}),
        "invalid_value",
    )
    .await;
}

#[tokio::test]
async fn every_analysis_answer_stays_within_its_limit_on_a_large_network() {
    let (client, registry) = connect(ServerOptions::default()).await;
    ok(&client, "network_create", json!({"network_name": "big"})).await;
    // A 30,000-node layered DAG built through the library (the MCP batch path is tested elsewhere).
    {
        let net = registry.get("big").unwrap();
        let mut net = net.write();
        let n = 30_000;
        let nodes: Vec<_> = (0..n)
            .map(|i| networks_mcp::network::NodeSpec {
                id: format!("n{i}"),
                data: None,
                attributes: Default::default(),
            })
            .collect();
        net.add_nodes(nodes).unwrap();
        let edges = (1..n)
            .flat_map(|i| [(i, i / 2), (i, (i * 7) % i)])
            .map(|(a, b)| networks_mcp::network::EdgeSpec {
                source: format!("n{a}"),
                target: format!("n{b}"),
                weight: 1.0,
                attributes: Default::default(),
            })
            .collect::<Vec<_>>();
        net.add_edges(edges, MissingNodes::Fail).unwrap();
    }
    let limit = 50;
    let topo = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "big", "limit": limit}),
    )
    .await;
    assert!(topo.get("node_ids").is_none());
    let listed: usize = topo["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_array().unwrap().len())
        .sum();
    assert!((1..=limit).contains(&listed), "{listed}");
    assert_eq!(topo["truncated"], true);
    let anc = ok(
        &client,
        "network_ancestors",
        json!({"network_name": "big", "node_id": "n0", "limit": limit}),
    )
    .await;
    assert_eq!(anc["nodes"].as_array().unwrap().len(), limit);
    assert_eq!(anc["total"], 29_999);
    assert_eq!(anc["truncated"], true);
    let walk = ok(
        &client,
        "network_traverse",
        json!({"network_name": "big", "start_node_ids": ["n0"], "direction": "in", "limit": limit}),
    )
    .await;
    assert_eq!(walk["visited"].as_array().unwrap().len(), limit);
    assert_eq!(walk["truncated"], true);
    let ready = ok(
        &client,
        "network_ready_nodes",
        json!({"network_name": "big", "limit": limit, "blocked_limit": 3}),
    )
    .await;
    assert_eq!(strings(&ready["ready"]), ["n0"]);
    assert_eq!(ready["blocked"].as_array().unwrap().len(), 3);
    assert_eq!(ready["blocked_count"], 29_999);
    let described = ok(
        &client,
        "network_describe",
        json!({"network_name": "big", "list_limit": 10}),
    )
    .await;
    assert!(described["sources"].as_array().unwrap().len() <= 10);
    assert_eq!(described["truncated"], true);
    let critical = ok(
        &client,
        "network_critical_path",
        json!({"network_name": "big", "limit": 5}),
    )
    .await;
    assert!(critical["node_ids"].as_array().unwrap().len() <= 5);
    let nodes = ok(
        &client,
        "network_list_nodes",
        json!({"network_name": "big", "limit": limit}),
    )
    .await;
    assert_eq!(nodes["nodes"].as_array().unwrap().len(), limit);
    assert_eq!(nodes["total"], 30_000);
}

/// Sums past ±1.7e308 are reported, never turned into "no path" or a null length.
#[test]
fn path_lengths_past_the_range_of_f64_are_errors_not_missing_paths() {
    use networks_mcp::network::Network;

    let mut net = Network::new();
    for id in ["a", "b", "c", "d"] {
        net.add_node(id).unwrap();
    }
    net.add_edge("a", "b", 1.7e308).unwrap();
    net.add_edge("b", "c", 1.7e308).unwrap();
    let (a, c, d) = (
        net.index_of("a").unwrap(),
        net.index_of("c").unwrap(),
        net.index_of("d").unwrap(),
    );
    let error = net.shortest_path_by_index(a, c, Weighted::Yes).unwrap_err();
    assert_eq!(error.code(), "weight_overflow", "{error}");
    assert!(error.to_string().contains("Rescale"), "{error}");
    // Counting hops finds the path, but its total weight cannot be given either.
    let hops = net.shortest_path_by_index(a, c, Weighted::No).unwrap_err();
    assert!(!hops.to_string().contains("weighted: false"), "{hops}");
    // A node that is truly unreachable is still "no path".
    assert_eq!(
        net.shortest_path_by_index(a, d, Weighted::Yes).unwrap(),
        None
    );
    assert_eq!(net.critical_path().unwrap_err().code(), "weight_overflow");
    assert_eq!(
        net.dijkstra_distances_by_index(a).unwrap_err().code(),
        "weight_overflow"
    );
    // One edge at the edge of the range is fine.
    let b = net.index_of("b").unwrap();
    assert_eq!(
        net.shortest_path_by_index(a, b, Weighted::Yes)
            .unwrap()
            .unwrap()
            .total_weight,
        1.7e308
    );
}

/// A list with several unknown ids names every one of them (each once, in order),
/// each with its closest existing ids: one round trip fixes them all.
#[tokio::test]
async fn every_unknown_id_of_a_list_is_named_with_its_suggestions() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let e = err(
        &client,
        "network_ready_nodes",
        json!({"network_name": "release", "done": ["shp", "api", "tsets", "shp"]}),
        "node_not_found",
    )
    .await;
    assert_eq!(e["field"], "done");
    assert_eq!(e["node_id"], "shp", "{e}");
    assert_eq!(e["suggestions"], json!(["ship"]), "{e}");
    assert_eq!(
        e["missing"],
        json!([
            {"node_id": "shp", "suggestions": ["ship"]},
            {"node_id": "tsets", "suggestions": ["tests"]},
        ]),
        "{e}"
    );
    let message = e["error"].as_str().unwrap();
    assert!(message.contains("'shp', 'tsets'"), "{message}");
    assert!(message.contains("for 'tsets': 'tests'"), "{message}");
    // The same for the start nodes of a traversal and the nodes of an export.
    let e = err(
        &client,
        "network_traverse",
        json!({"network_name": "release", "start_node_ids": ["uii", "dcos"]}),
        "node_not_found",
    )
    .await;
    assert_eq!(e["missing"].as_array().unwrap().len(), 2, "{e}");
    let e = err(
        &client,
        "network_export",
        json!({"network_name": "release", "format": "mermaid", "node_ids": ["schemaa", "apii"]}),
        "node_not_found",
    )
    .await;
    assert_eq!(e["missing"][1]["suggestions"], json!(["api"]), "{e}");
    // One unknown id keeps the single-id shape.
    let e = err(
        &client,
        "network_ready_nodes",
        json!({"network_name": "release", "done": ["api", "shp"]}),
        "node_not_found",
    )
    .await;
    assert!(e.get("missing").is_none(), "{e}");
    assert_eq!(e["suggestions"], json!(["ship"]));
}

/// Hundreds of unknown ids: the error stays bounded.
#[tokio::test]
async fn many_unknown_ids_give_a_bounded_error() {
    let (client, _) = connect(ServerOptions::default()).await;
    release_plan(&client).await;
    let done: Vec<String> = (0..5000).map(|i| format!("ghost-{i}")).collect();
    let e = err(
        &client,
        "network_ready_nodes",
        json!({"network_name": "release", "done": done}),
        "node_not_found",
    )
    .await;
    assert_eq!(e["missing"].as_array().unwrap().len(), 20, "{e}");
    assert_eq!(e["missing_truncated"], true);
    assert_eq!(e["missing_count"], 5000);
    assert!(
        e["error"].as_str().unwrap().starts_with("5000 ids of done"),
        "{e}"
    );
    assert!(e.to_string().len() < 8_000, "{} bytes", e.to_string().len());
}

#[tokio::test]
async fn describe_infers_a_schema_from_what_the_network_holds() {
    let (client, registry) = connect(ServerOptions::default()).await;
    ok(&client, "network_create", json!({"network_name": "plan"})).await;
    let long_title = "t".repeat(500);
    let mut nodes = vec![
        json!({"node_id": "a", "attributes": {"status": "todo", "priority": 1, "labels": "db"}}),
        json!({"node_id": "b", "attributes": {"status": "done", "priority": 2}}),
        json!({"node_id": "c", "attributes": {"status": "todo", "title": long_title}}),
    ];
    // More keys than the section lists.
    nodes
        .extend((0..60).map(
            |i| json!({"node_id": format!("k{i}"), "attributes": {format!("zkey{i:02}"): i}}),
        ));
    ok(
        &client,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    )
    .await;
    ok(
        &client,
        "network_add_edges",
        json!({"network_name": "plan", "edges": [
            {"source": "a", "target": "b", "attributes": {"relation": "blocks"}},
            {"source": "c", "target": "b", "attributes": {"relation": "related"}},
            {"source": "c", "target": "a", "attributes": {"relation": "blocks"}},
            {"source": "k0", "target": "a"}
        ]}),
    )
    .await;
    let version = registry.read("plan", |n| Ok(n.version())).unwrap();

    let plain = ok(&client, "network_describe", json!({"network_name": "plan"})).await;
    assert!(plain.get("schema").is_none(), "the section is opt-in");

    let out = ok(
        &client,
        "network_describe",
        json!({"network_name": "plan", "include_schema": true}),
    )
    .await;
    let schema = &out["schema"];
    let nodes = schema["node_attributes"].as_array().unwrap();
    assert_eq!(nodes.len(), 50, "at most 50 keys are listed");
    assert_eq!(schema["node_attribute_count"], 64);
    // The most used key first: status (3 nodes), then priority (2).
    assert_eq!(nodes[0]["key"], "status");
    assert_eq!(nodes[0]["item_count"], 3);
    assert_eq!(nodes[0]["types"], json!({"string": 3}));
    assert_eq!(nodes[0]["distinct_count"], 2);
    assert_eq!(
        nodes[0]["top_values"][0],
        json!({"value": "todo", "item_count": 2})
    );
    assert_eq!(nodes[0]["role"], "status");
    assert_eq!(
        (&nodes[1]["key"], &nodes[1]["role"]),
        (&json!("priority"), &json!("priority"))
    );
    let title = nodes.iter().find(|k| k["key"] == "title").unwrap();
    assert_eq!(
        title["top_values"][0]["value"]
            .as_str()
            .unwrap()
            .chars()
            .count(),
        81,
        "cut to 80 characters and an ellipsis"
    );
    let labels = nodes.iter().find(|k| k["key"] == "labels").unwrap();
    assert_eq!(labels["role"], "labels");

    assert_eq!(schema["edge_attributes"][0]["key"], "relation");
    assert_eq!(schema["edge_attributes"][0]["role"], "relation");
    assert_eq!(
        schema["relations"],
        json!([
            {"relation": "blocks", "edge_count": 2},
            {"relation": "related", "edge_count": 1},
            {"relation": null, "edge_count": 1}
        ])
    );
    assert_eq!(schema["relation_count"], 3);
    // A read: nothing changed.
    assert_eq!(registry.read("plan", |n| Ok(n.version())).unwrap(), version);
}

#[tokio::test]
async fn ordering_and_critical_path_by_epic_over_mcp() {
    let (client, _) = connect(ServerOptions::default()).await;
    ok(&client, "network_create", json!({"network_name": "plan"})).await;
    ok(
        &client,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": [
            {"node_id": "infra"},
            {"node_id": "app"},
            {"node_id": "vm", "attributes": {"parent": "infra"}},
            {"node_id": "net", "attributes": {"parent": "vm"}},
            {"node_id": "code", "attributes": {"parent": "app"}},
        ]}),
    )
    .await;
    ok(
        &client,
        "network_add_edges",
        json!({"network_name": "plan", "edges": [
            {"source": "code", "target": "net", "weight": 4},
            {"source": "code", "target": "vm", "weight": 5},
            {"source": "vm", "target": "net", "weight": 9},
        ]}),
    )
    .await;
    let order = ok(
        &client,
        "network_topological_sort",
        json!({"network_name": "plan", "reverse": true, "level": "epics", "flat": true}),
    )
    .await;
    assert_eq!(order["node_ids"], json!(["infra", "app"]));
    assert_eq!(order["layer_count"], 2);
    let path = ok(
        &client,
        "network_critical_path",
        json!({"network_name": "plan", "level": "epics"}),
    )
    .await;
    // code -> vm (5) and code -> net (4) merge into one edge of weight 5;
    // vm -> net lies inside infra's tree.
    assert_eq!(path["node_ids"], json!(["app", "infra"]));
    assert_eq!(path["edge_ids"], json!([1]));
    assert_eq!(path["total_weight"], 5.0);
    let tasks = ok(
        &client,
        "network_critical_path",
        json!({"network_name": "plan"}),
    )
    .await;
    assert_eq!(tasks["total_weight"], 14.0);
    let e = err(
        &client,
        "network_critical_path",
        json!({"network_name": "plan", "level": "stories"}),
        "invalid_arguments",
    )
    .await;
    assert!(e["error"].as_str().unwrap().contains("level"), "{e}");
}
