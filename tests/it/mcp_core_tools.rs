//! The foundation tools through the real server factory and an rmcp client.

use crate::common;

use crate::common::{call, connect, err, ok};
use networks_mcp::mcp::{ServerOptions, Toolset};
use serde_json::{Value, json};

async fn seed_graph(client: &common::Client) {
    ok(
        client,
        "network_create",
        json!({"network_name": "module_deps"}),
    )
    .await;
    for id in ["agents", "logging", "cli"] {
        ok(
            client,
            "network_add_node",
            json!({"network_name": "module_deps", "node_id": id}),
        )
        .await;
    }
    ok(
        client,
        "network_add_node",
        json!({"network_name": "module_deps", "node_id": "networks", "data": "Core", "attributes": {"layer": 2}}),
    )
    .await;
}

#[tokio::test]
async fn seed_usage_examples_give_the_seed_outputs() {
    let (client, _) = connect(ServerOptions::default()).await;
    seed_graph(&client).await;
    let edge = ok(
        &client,
        "network_add_edge",
        json!({"network_name": "module_deps", "source": "agents", "target": "logging", "weight": 1.0, "attributes": {"relation": "depends_on"}}),
    )
    .await;
    assert_eq!(edge["status"], "success");
    assert_eq!(edge["source"], "agents");
    assert_eq!(edge["target"], "logging");
    assert_eq!(edge["weight"], 1.0);
    assert!(edge["edge_id"].is_u64());
    ok(
        &client,
        "network_add_edge",
        json!({"network_name": "module_deps", "source": "cli", "target": "agents"}),
    )
    .await;

    let neighbors = ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "module_deps", "node_id": "agents"}),
    )
    .await;
    assert_eq!(neighbors["status"], "success");
    assert_eq!(neighbors["node_id"], "agents");
    assert_eq!(neighbors["neighbors"], json!(["logging", "cli"]));
    assert_eq!(neighbors["count"], 2);
    assert_eq!(neighbors["truncated"], false);
}

#[tokio::test]
async fn add_node_twice_is_success_then_duplicate_and_keeps_the_first() {
    let (client, registry) = connect(ServerOptions::default()).await;
    seed_graph(&client).await;
    let again = ok(
        &client,
        "network_add_node",
        json!({"network_name": "module_deps", "node_id": "networks", "data": "Other", "attributes": {"layer": 9}}),
    )
    .await;
    assert_eq!(again["status"], "duplicate");
    assert_eq!(again["node_id"], "networks");
    assert!(
        again["message"]
            .as_str()
            .unwrap()
            .contains("already exists")
    );
    let net = registry.get("module_deps").unwrap();
    let net = net.read();
    let node = net.node("networks").unwrap();
    assert_eq!(node.data.as_deref(), Some(&json!("Core")));
    assert_eq!(node.attributes.get("layer"), Some(&json!(2)));
    assert_eq!(net.node_count(), 4);
}

#[tokio::test]
async fn add_edge_twice_gives_two_distinct_edges() {
    let (client, registry) = connect(ServerOptions::default()).await;
    seed_graph(&client).await;
    let args = json!({"network_name": "module_deps", "source": "agents", "target": "logging"});
    let first = ok(&client, "network_add_edge", args.clone()).await;
    let second = ok(&client, "network_add_edge", args).await;
    assert_ne!(first["edge_id"], second["edge_id"]);
    assert_eq!(registry.get("module_deps").unwrap().read().edge_count(), 2);
    let neighbors = ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "module_deps", "node_id": "agents", "include_edges": true}),
    )
    .await;
    assert_eq!(neighbors["neighbors"], json!(["logging"]));
    let edges = neighbors["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 2);
    assert_eq!(edges[0]["edge_id"], first["edge_id"]);
    assert_eq!(edges[1]["edge_id"], second["edge_id"]);
}

#[tokio::test]
async fn neighbors_direction_and_dedup() {
    let (client, _) = connect(ServerOptions::default()).await;
    seed_graph(&client).await;
    for (s, t) in [
        ("agents", "logging"),
        ("cli", "agents"),
        ("agents", "cli"),
        ("agents", "agents"),
    ] {
        ok(
            &client,
            "network_add_edge",
            json!({"network_name": "module_deps", "source": s, "target": t}),
        )
        .await;
    }
    let both = ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "module_deps", "node_id": "agents"}),
    )
    .await;
    assert_eq!(both["neighbors"], json!(["logging", "cli", "agents"]));
    let out = ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "module_deps", "node_id": "agents", "direction": "out"}),
    )
    .await;
    assert_eq!(out["neighbors"], json!(["logging", "cli", "agents"]));
    let inward = ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "module_deps", "node_id": "agents", "direction": "in"}),
    )
    .await;
    assert_eq!(inward["neighbors"], json!(["cli", "agents"]));
    let limited = ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "module_deps", "node_id": "agents", "limit": 1}),
    )
    .await;
    assert_eq!(limited["neighbors"], json!(["logging"]));
    assert_eq!(limited["count"], 3);
    assert_eq!(limited["truncated"], true);
}

#[tokio::test]
async fn bad_input_gets_error_objects_and_changes_nothing() {
    let (client, registry) = connect(ServerOptions::default()).await;
    seed_graph(&client).await;
    ok(
        &client,
        "network_add_edge",
        json!({"network_name": "module_deps", "source": "agents", "target": "logging"}),
    )
    .await;
    let state = |registry: &networks_mcp::NetworkRegistry| {
        let net = registry.get("module_deps").unwrap();
        let net = net.read();
        (registry.len(), net.node_count(), net.edge_count())
    };
    let before = state(&registry);

    // (tool, arguments, code, context fields the error object must carry)
    let m = "module_deps";
    let rows: Vec<(&str, Value, &str, Value)> = vec![
        (
            "network_add_node",
            json!({"network_name": "nope", "node_id": "x"}),
            "network_not_found",
            json!({"available_networks": ["module_deps"]}),
        ),
        (
            "network_get_neighbors",
            json!({"network_name": m, "node_id": "loging"}),
            "node_not_found",
            json!({"node_id": "loging"}),
        ),
        (
            "network_add_edge",
            json!({"network_name": m, "source": "agents", "target": "ghost"}),
            "node_not_found",
            json!({"field": "target"}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": ""}),
            "invalid_id",
            json!({"field": "node_id"}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": "   "}),
            "invalid_id",
            json!({}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": "a\nb"}),
            "invalid_id",
            json!({}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": "x".repeat(257)}),
            "invalid_id",
            json!({}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": "x", "attributes": {"a": {"b": 1}}}),
            "invalid_attributes",
            json!({}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": "x", "attributes": {"a": [1]}}),
            "invalid_attributes",
            json!({}),
        ),
        (
            "network_add_edge",
            json!({"network_name": m, "source": "agents", "target": "logging", "weight": "heavy"}),
            "invalid_arguments",
            json!({"field": "weight"}),
        ),
        (
            "network_add_node",
            json!({"network_name": m}),
            "invalid_arguments",
            json!({"field": "node_id"}),
        ),
        (
            "network_add_node",
            json!({"network_name": m, "node_id": "x", "colour": "red"}),
            "invalid_arguments",
            json!({"field": "colour"}),
        ),
        (
            "network_get_neighbors",
            json!({"network_name": 7, "node_id": "x"}),
            "invalid_arguments",
            json!({}),
        ),
        (
            "network_get_neighbors",
            json!({"network_name": m, "node_id": "agents", "direction": "sideways"}),
            "invalid_arguments",
            json!({}),
        ),
        (
            "network_get_neighbors",
            json!({"network_name": m, "node_id": "agents", "limit": 0}),
            "invalid_value",
            json!({}),
        ),
        (
            "network_create",
            json!({"network_name": ""}),
            "invalid_id",
            json!({}),
        ),
        (
            "network_delete",
            json!({"network_name": m}),
            "confirmation_required",
            json!({}),
        ),
    ];
    for (tool, arguments, code, context) in rows {
        let e = err(&client, tool, arguments.clone(), code).await;
        for (field, value) in context.as_object().unwrap() {
            assert_eq!(&e[field], value, "{tool} {arguments}: {e}");
        }
    }

    // What the messages say, beyond the codes.
    let e = err(
        &client,
        "network_get_neighbors",
        json!({"network_name": m, "node_id": "loging"}),
        "node_not_found",
    )
    .await;
    assert_eq!(e["suggestions"][0], "logging");
    let e = err(
        &client,
        "network_add_node",
        json!({"network_name": m}),
        "invalid_arguments",
    )
    .await;
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("node_id (string, required)")
    );

    assert_eq!(state(&registry), before);
}

#[tokio::test]
async fn registry_tools_create_list_delete() {
    let (client, registry) = connect(ServerOptions::default()).await;
    let created = ok(
        &client,
        "network_create",
        json!({"network_name": "b", "description": "second"}),
    )
    .await;
    assert_eq!(created["status"], "success");
    let again = ok(
        &client,
        "network_create",
        json!({"network_name": "b", "description": "changed?"}),
    )
    .await;
    assert_eq!(again["status"], "duplicate");
    ok(&client, "network_create", json!({"network_name": "a"})).await;
    ok(
        &client,
        "network_add_node",
        json!({"network_name": "a", "node_id": "x"}),
    )
    .await;

    let list = ok(&client, "network_list", json!({})).await;
    assert_eq!(list["total"], 2);
    assert_eq!(
        list["networks"][0],
        json!({"name": "a", "node_count": 1, "edge_count": 0, "version": 1})
    );
    assert_eq!(
        list["networks"][1],
        json!({"name": "b", "description": "second", "node_count": 0, "edge_count": 0, "version": 1})
    );
    let limited = ok(&client, "network_list", json!({"limit": 1})).await;
    assert_eq!(limited["networks"].as_array().unwrap().len(), 1);
    assert_eq!(limited["truncated"], true);

    err(
        &client,
        "network_delete",
        json!({"network_name": "a", "confirm": false}),
        "confirmation_required",
    )
    .await;
    assert_eq!(registry.len(), 2);
    let deleted = ok(
        &client,
        "network_delete",
        json!({"network_name": "a", "confirm": true}),
    )
    .await;
    assert_eq!(deleted["deleted"], true);
    assert_eq!(deleted["node_count"], 1);
    let again = ok(
        &client,
        "network_delete",
        json!({"network_name": "a", "confirm": true}),
    )
    .await;
    assert_eq!(again["deleted"], false);
    assert_eq!(registry.names(), vec!["b".to_string()]);
}

#[tokio::test]
async fn annotations_and_schemas_follow_the_contract() {
    let (client, _) = connect(ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        switchable: false,
        ..ServerOptions::default()
    })
    .await;
    let tools = client.list_all_tools().await.unwrap();
    let find = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} listed"))
    };
    // Read-only tools carry no destructive or idempotent hint: MCP gives them
    // meaning only when readOnlyHint is false.
    let expect = [
        ("network_get_neighbors", true, None, None),
        ("network_list", true, None, None),
        ("network_add_node", false, Some(false), Some(true)),
        ("network_create", false, Some(false), Some(true)),
        ("network_add_edge", false, Some(false), Some(false)),
        ("network_delete", false, Some(true), Some(true)),
    ];
    for (name, read_only, destructive, idempotent) in expect {
        let tool = find(name);
        let a = tool.annotations.as_ref().unwrap();
        assert_eq!(a.read_only_hint, Some(read_only), "{name}");
        assert_eq!(a.destructive_hint, destructive, "{name}");
        assert_eq!(a.idempotent_hint, idempotent, "{name}");
        assert_eq!(a.open_world_hint, Some(false), "{name}");
        assert!(tool.title.is_some(), "{name}");
    }
    for tool in &tools {
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            tool.name
        );
        let output = tool
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{} outputSchema", tool.name));
        assert_eq!(output.get("type"), Some(&json!("object")), "{}", tool.name);
        assert!(tool.name.starts_with("network_"));
        assert!(
            tool.description.as_ref().map_or(0, |d| d.len()) > 80,
            "{} description",
            tool.name
        );
    }
}

#[tokio::test]
async fn read_only_mode_hides_and_refuses_writes() {
    let (client, registry) = connect(ServerOptions {
        read_only: true,
        ..ServerOptions::default()
    })
    .await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(names.contains(&"network_list".to_string()));
    assert!(!names.contains(&"network_create".to_string()));
    err(
        &client,
        "network_create",
        json!({"network_name": "x"}),
        "read_only",
    )
    .await;
    assert!(registry.is_empty());
}

#[tokio::test]
async fn toolsets_select_what_is_listed() {
    let options = ServerOptions {
        toolsets: [Toolset::Core].into_iter().collect(),
        switchable: false,
        ..ServerOptions::default()
    };
    let (client, _) = connect(options).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    for core in [
        "network_create",
        "network_list",
        "network_delete",
        "network_add_node",
        "network_add_edge",
        "network_get_neighbors",
    ] {
        assert!(names.contains(&core), "{core} in {names:?}");
    }
    for other in [
        "network_add_edges",
        "network_traverse",
        "network_export",
        "network_update_nodes",
    ] {
        assert!(!names.contains(&other), "{other} in {names:?}");
    }
}

#[tokio::test]
async fn unknown_tool_is_a_protocol_error() {
    let (client, _) = connect(ServerOptions::default()).await;
    let params = rmcp::model::CallToolRequestParams::new("network_teleport");
    assert!(client.call_tool(params).await.is_err());
    // A misspelt name is answered with the closest tool names.
    let params = rmcp::model::CallToolRequestParams::new("network_add_nod");
    let error = client.call_tool(params).await.unwrap_err().to_string();
    assert!(
        error.contains("Closest tool names: 'network_add_node'"),
        "{error}"
    );
    // The connection survives it.
    let list = call(&client, "network_list", json!({})).await;
    assert!(!list.is_error);
}

#[tokio::test]
async fn an_opt_in_tool_names_the_toolset_and_the_flag_that_offer_it() {
    let (client, _) = connect(ServerOptions {
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
    })
    .await;
    let params = rmcp::model::CallToolRequestParams::new("network_centrality");
    let error = client.call_tool(params).await.unwrap_err().to_string();
    assert!(error.contains("in the algorithms toolset"), "{error}");
    assert!(
        error.contains("--toolsets core,edit,analysis,interchange,algorithms"),
        "{error}"
    );
    assert!(!error.contains("Closest tool names"), "{error}");
}
