//! Editing and batch tools through the real server.

use crate::common;

use crate::common::{connect, err, ok};
use networks_mcp::mcp::ServerOptions;
use serde_json::json;

async fn plan(client: &common::Client) {
    ok(client, "network_create", json!({"network_name": "plan"})).await;
    ok(
        client,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": [
            {"node_id": "design", "attributes": {"status": "done"}},
            {"node_id": "build", "attributes": {"status": "todo"}, "data": {"owner": "ana"}},
            {"node_id": "test", "attributes": {"status": "todo"}},
            {"node_id": "ship"}
        ]}),
    )
    .await;
    ok(
        client,
        "network_add_edges",
        json!({"network_name": "plan", "edges": [
            {"source": "build", "target": "design", "weight": 3},
            {"source": "test", "target": "build", "weight": 2},
            {"source": "ship", "target": "test"}
        ]}),
    )
    .await;
}

#[tokio::test]
async fn get_update_and_remove_nodes() {
    let (client, registry) = connect(ServerOptions::default()).await;
    plan(&client).await;
    let build = ok(
        &client,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "build"}),
    )
    .await;
    assert_eq!(build["data"], json!({"owner": "ana"}));
    assert_eq!(
        (build["in_degree"].as_u64(), build["out_degree"].as_u64()),
        (Some(1), Some(1))
    );

    let updated = ok(&client, "network_update_node", json!({"network_name": "plan", "node_id": "build", "attributes": {"status": "done", "eta": 2}})).await;
    assert_eq!(updated["changed"], true);
    assert_eq!(updated["attributes"], json!({"status": "done", "eta": 2}));
    let again = ok(&client, "network_update_node", json!({"network_name": "plan", "node_id": "build", "attributes": {"status": "done", "eta": 2}})).await;
    assert_eq!(again["changed"], false, "idempotent");
    let replaced = ok(&client, "network_update_node", json!({"network_name": "plan", "node_id": "build", "attributes": {"x": 1}, "mode": "replace", "data": null})).await;
    assert_eq!(replaced["attributes"], json!({"x": 1}));
    assert!(replaced.get("data").is_none());
    let removed_key = ok(
        &client,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "build", "remove_attributes": ["x"]}),
    )
    .await;
    assert_eq!(removed_key["attributes"], json!({}));
    err(
        &client,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "build", "attributes": {"a": {"b": 1}}}),
        "invalid_attributes",
    )
    .await;

    err(
        &client,
        "network_remove_node",
        json!({"network_name": "plan", "node_id": "build"}),
        "confirmation_required",
    )
    .await;
    assert_eq!(registry.get("plan").unwrap().read().node_count(), 4);
    let removed = ok(
        &client,
        "network_remove_node",
        json!({"network_name": "plan", "node_id": "build", "confirm": true}),
    )
    .await;
    assert_eq!(removed["removed_edge_count"], 2);
    let net = registry.get("plan").unwrap();
    assert_eq!((net.read().node_count(), net.read().edge_count()), (3, 1));
}

#[tokio::test]
async fn remove_edges_by_id_and_by_endpoints() {
    let (client, registry) = connect(ServerOptions::default()).await;
    plan(&client).await;
    let extra = ok(
        &client,
        "network_add_edge",
        json!({"network_name": "plan", "source": "ship", "target": "test"}),
    )
    .await;
    let by_pair = ok(
        &client,
        "network_remove_edge",
        json!({"network_name": "plan", "source": "ship", "target": "test"}),
    )
    .await;
    assert_eq!(by_pair["removed_count"], 2);
    assert_eq!(by_pair["removed"][1]["edge_id"], extra["edge_id"]);
    let first = ok(
        &client,
        "network_list_edges",
        json!({"network_name": "plan"}),
    )
    .await;
    let id = first["edges"][0]["edge_id"].clone();
    let by_id = ok(
        &client,
        "network_remove_edge",
        json!({"network_name": "plan", "edge_id": id}),
    )
    .await;
    assert_eq!(by_id["removed_count"], 1);
    err(
        &client,
        "network_remove_edge",
        json!({"network_name": "plan", "edge_id": id}),
        "edge_not_found",
    )
    .await;
    err(
        &client,
        "network_remove_edge",
        json!({"network_name": "plan", "source": "ship"}),
        "invalid_arguments",
    )
    .await;
    assert_eq!(registry.get("plan").unwrap().read().edge_count(), 1);
}

#[tokio::test]
async fn listing_pages_filters_and_totals() {
    let (client, _) = connect(ServerOptions::default()).await;
    plan(&client).await;
    let todo = ok(
        &client,
        "network_list_nodes",
        json!({"network_name": "plan", "attributes": {"status": "todo"}}),
    )
    .await;
    assert_eq!(todo["total"], 2);
    let ids: Vec<&str> = todo["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["build", "test"]);

    let page1 = ok(
        &client,
        "network_list_nodes",
        json!({"network_name": "plan", "limit": 3}),
    )
    .await;
    assert_eq!(
        (page1["total"].as_u64(), page1["truncated"].as_bool()),
        (Some(4), Some(true))
    );
    let page2 = ok(
        &client,
        "network_list_nodes",
        json!({"network_name": "plan", "limit": 3, "cursor": page1["next_cursor"]}),
    )
    .await;
    assert_eq!(page2["nodes"][0]["node_id"], "ship");
    assert_eq!(page2["truncated"], false);
    assert!(page2.get("next_cursor").is_none());
    err(
        &client,
        "network_list_nodes",
        json!({"network_name": "plan", "cursor": "garbage"}),
        "invalid_value",
    )
    .await;
    let search = ok(
        &client,
        "network_list_nodes",
        json!({"network_name": "plan", "id_contains": "ES"}),
    )
    .await;
    assert_eq!(search["nodes"][0]["node_id"], "design");
    assert_eq!(search["total"], 2);

    let of_build = ok(
        &client,
        "network_list_edges",
        json!({"network_name": "plan", "node_id": "build", "direction": "in"}),
    )
    .await;
    assert_eq!(of_build["total"], 1);
    assert_eq!(of_build["edges"][0]["source"], "test");
}

#[tokio::test]
async fn a_bad_batch_item_leaves_the_network_exactly_as_before() {
    let (client, registry) = connect(ServerOptions::default()).await;
    plan(&client).await;
    let snapshot = |registry: &networks_mcp::NetworkRegistry| {
        let net = registry.get("plan").unwrap();
        let net = net.read();
        let nodes: Vec<String> = net.node_ids().map(str::to_string).collect();
        let edges: Vec<(u64, String, String)> = net
            .edges_of(None)
            .iter()
            .map(|e| (e.id, e.source.to_string(), e.target.to_string()))
            .collect();
        (nodes, edges)
    };
    let before = snapshot(&registry);
    let mut nodes: Vec<_> = (0..10_000)
        .map(|i| json!({"node_id": format!("n{i}")}))
        .collect();
    nodes[4_321] = json!({"node_id": "bad", "attributes": {"nested": {"x": 1}}});
    let e = err(
        &client,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
        "invalid_batch_item",
    )
    .await;
    assert_eq!(e["index"], 4_321);
    assert_eq!(e["item_code"], "invalid_attributes");

    let mut edges: Vec<_> = (0..10_000)
        .map(|_| json!({"source": "ship", "target": "design"}))
        .collect();
    edges[9_000] = json!({"source": "ship", "target": "nowhere"});
    let e = err(
        &client,
        "network_add_edges",
        json!({"network_name": "plan", "edges": edges}),
        "invalid_batch_item",
    )
    .await;
    assert_eq!(e["index"], 9_000);
    assert_eq!(e["item_code"], "node_not_found");
    let mut wrong_type = (0..3)
        .map(|_| json!({"source": "ship", "target": "design"}))
        .collect::<Vec<_>>();
    wrong_type[1] = json!({"source": "ship", "target": "design", "weight": "x"});
    let e = err(
        &client,
        "network_add_edges",
        json!({"network_name": "plan", "edges": wrong_type}),
        "invalid_arguments",
    )
    .await;
    assert_eq!(e["field"], "edges[1].weight");
    let too_many: Vec<_> = (0..10_001)
        .map(|_| json!({"source": "ship", "target": "design"}))
        .collect();
    err(
        &client,
        "network_add_edges",
        json!({"network_name": "plan", "edges": too_many}),
        "limit_exceeded",
    )
    .await;
    assert_eq!(snapshot(&registry), before);

    let ok_batch = ok(&client, "network_add_edges", json!({"network_name": "plan", "edges": [{"source": "ship", "target": "qa"}, {"source": "qa", "target": "test"}], "create_missing_nodes": true, "include_ids": true})).await;
    assert_eq!(
        (
            ok_batch["created_count"].as_u64(),
            ok_batch["created_node_count"].as_u64()
        ),
        (Some(2), Some(1))
    );
    assert_eq!(ok_batch["edge_ids"].as_array().unwrap().len(), 2);
    let dup = ok(&client, "network_add_nodes", json!({"network_name": "plan", "nodes": [{"node_id": "ship"}, {"node_id": "new"}, {"node_id": "new"}], "include_items": true})).await;
    assert_eq!(
        (
            dup["created_count"].as_u64(),
            dup["duplicate_count"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert_eq!(
        dup["items"][1],
        json!({"node_id": "new", "status": "success"})
    );
    assert_eq!(
        dup["items"][2],
        json!({"node_id": "new", "status": "duplicate"})
    );
}

#[tokio::test]
async fn update_nodes_marks_many_done_in_one_atomic_call() {
    let (client, registry) = connect(ServerOptions::default()).await;
    plan(&client).await;
    let done = json!({"network_name": "plan", "updates": [
        {"node_id": "build", "attributes": {"status": "done"}},
        {"node_id": "test", "attributes": {"status": "done"}, "remove_attributes": ["missing"]},
        {"node_id": "ship", "data": {"note": "go"}, "attributes": {"status": "todo"}, "mode": "replace"}
    ]});
    let out = ok(&client, "network_update_nodes", done.clone()).await;
    assert_eq!(
        (&out["changed_count"], &out["unchanged_count"]),
        (&json!(3), &json!(0))
    );
    // Idempotent: the same call again changes nothing.
    let again = ok(&client, "network_update_nodes", done).await;
    assert_eq!(
        (&again["changed_count"], &again["unchanged_count"]),
        (&json!(0), &json!(3))
    );
    let ship = ok(
        &client,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "ship"}),
    )
    .await;
    assert_eq!(ship["data"], json!({"note": "go"}));
    // Progress is read from the attribute: nothing to resend.
    let ready = ok(
        &client,
        "network_ready_nodes",
        json!({"network_name": "plan", "done_attributes": {"status": "done"}}),
    )
    .await;
    assert_eq!(ready["ready"], json!(["ship"]));

    let before = registry.get("plan").unwrap().read().to_data();
    // Every unknown id named at once, with suggestions; nothing applied.
    let e = err(
        &client,
        "network_update_nodes",
        json!({"network_name": "plan", "updates": [
            {"node_id": "design", "attributes": {"status": "todo"}},
            {"node_id": "biuld", "attributes": {"status": "todo"}},
            {"node_id": "tset", "attributes": {"status": "todo"}}
        ]}),
        "node_not_found",
    )
    .await;
    let message = e["error"].as_str().unwrap();
    assert!(
        message.contains("'biuld'") && message.contains("'tset'"),
        "{message}"
    );
    assert!(
        message.contains("'build'") && message.contains("'test'"),
        "{message}"
    );
    // One bad item refuses the whole call and names the item.
    let e = err(
        &client,
        "network_update_nodes",
        json!({"network_name": "plan", "updates": [
            {"node_id": "design", "attributes": {"status": "todo"}},
            {"node_id": "build", "attributes": {"nested": {"no": 1}}}
        ]}),
        "invalid_batch_item",
    )
    .await;
    assert_eq!(e["index"], 1, "{e}");
    let e = err(
        &client,
        "network_update_nodes",
        json!({"network_name": "plan", "updates": [
            {"node_id": "design", "attributes": {"a": 1}},
            {"node_id": "design", "attributes": {"b": 2}}
        ]}),
        "invalid_batch_item",
    )
    .await;
    assert!(e["error"].as_str().unwrap().contains("item 0"), "{e}");
    err(
        &client,
        "network_update_nodes",
        json!({"network_name": "plan", "updates": []}),
        "invalid_value",
    )
    .await;
    assert_eq!(
        registry.get("plan").unwrap().read().to_data(),
        before,
        "a refused call changed nothing"
    );
}
