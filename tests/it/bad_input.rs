//! Hostile input, table-driven: every row gets an error object with the expected
//! code, and the state stays exactly as it was. Limits too.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::limits::Limits;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use serde_json::{Value, json};

fn server(limits: Limits) -> NetworksServer {
    let server = NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            limits,
            ..ServerOptions::default()
        },
    );
    server
        .dispatch(Call::new("network_create", json!({"network_name": "g"})))
        .unwrap()
        .unwrap();
    for id in ["a", "b"] {
        server
            .dispatch(Call::new(
                "network_add_node",
                json!({"network_name": "g", "node_id": id}),
            ))
            .unwrap()
            .unwrap();
    }
    server
        .dispatch(Call::new(
            "network_add_edge",
            json!({"network_name": "g", "source": "a", "target": "b"}),
        ))
        .unwrap()
        .unwrap();
    server
}

/// Everything observable about the registry, as one comparable value.
fn state(server: &NetworksServer) -> Value {
    let registry = server.registry();
    let networks: Vec<Value> = registry
        .names()
        .iter()
        .map(|name| {
            let net = registry.get(name).unwrap();
            let net = net.read();
            let data = net.to_data();
            json!({"name": name, "nodes": data.nodes, "edges": data.edges.iter().map(|e| json!([e.id, e.source, e.target, e.weight, e.attributes])).collect::<Vec<_>>(), "next": data.next_edge_id})
        })
        .collect();
    json!(networks)
}

fn nested(depth: usize) -> Value {
    (0..depth).fold(json!(1), |inner, _| json!({"x": inner}))
}

#[test]
fn hostile_inputs_get_error_objects_and_change_nothing() {
    let server = server(Limits::default());
    let before = state(&server);
    let huge = "x".repeat(1 << 20);
    let mut ten_thousand: Vec<Value> = (0..10_000)
        .map(|i| json!({"source": "a", "target": "b", "weight": i}))
        .collect();
    ten_thousand[6_000] = json!({"source": "a", "target": "b", "attributes": {"deep": {"x": 1}}});
    let mut nodes: Vec<Value> = (0..10_000)
        .map(|i| json!({"node_id": format!("new{i}")}))
        .collect();
    nodes[9_999] = json!({"node_id": "\u{0007}bell"});
    let rows: Vec<(&str, Value, &str)> = vec![
        (
            "network_topological_sort",
            json!({"network_name": "g", "level": "stories"}),
            "invalid_arguments",
        ),
        (
            "network_critical_path",
            json!({"network_name": "g", "level": "epics", "parent_attribute": ""}),
            "invalid_id",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": 5}),
            "invalid_arguments",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": null}),
            "invalid_arguments",
        ),
        (
            "network_add_node",
            json!({"network_name": "g"}),
            "invalid_arguments",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "z", "extra": 1}),
            "invalid_arguments",
        ),
        (
            "network_add_node",
            json!(["not", "an", "object"]),
            "invalid_arguments",
        ),
        (
            "network_add_edge",
            json!({"network_name": "g", "source": "a", "target": "b", "weight": "1.0"}),
            "invalid_arguments",
        ),
        (
            "network_add_edge",
            json!({"network_name": "g", "source": "a", "target": "b", "weight": [1]}),
            "invalid_arguments",
        ),
        (
            "network_add_edge",
            json!({"network_name": "g", "source": "a", "target": "b", "weight": true}),
            "invalid_arguments",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": huge}),
            "invalid_id",
        ),
        (
            "network_create",
            json!({"network_name": huge}),
            "invalid_id",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": " \t "}),
            "invalid_id",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "\u{3000}\u{00a0}"}),
            "invalid_id",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "a\u{0000}b"}),
            "invalid_id",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "e\u{0301}\u{202e}\u{7f}"}),
            "invalid_id",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "n", "attributes": {"k": nested(100)}}),
            "invalid_attributes",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "n", "attributes": {"": 1}}),
            "invalid_attributes",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "n", "data": huge.repeat(2)}),
            "limit_exceeded",
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "n", "attributes": {"big": huge}}),
            "limit_exceeded",
        ),
        (
            "network_add_edges",
            json!({"network_name": "g", "edges": ten_thousand}),
            "invalid_batch_item",
        ),
        (
            "network_add_nodes",
            json!({"network_name": "g", "nodes": nodes}),
            "invalid_batch_item",
        ),
        (
            "network_update_node",
            json!({"network_name": "g", "node_id": "a", "attributes": {"l": [1, 2]}}),
            "invalid_attributes",
        ),
        (
            "network_get_neighbors",
            json!({"network_name": "g", "node_id": "a", "limit": -1}),
            "invalid_value",
        ),
        (
            "network_get_neighbors",
            json!({"network_name": "g", "node_id": "a", "limit": 1e30}),
            "invalid_value",
        ),
    ];
    for (tool, args, code) in rows {
        let shown = args.to_string().chars().take(120).collect::<String>();
        let result = server.dispatch(Call::new(tool, args)).expect("known tool");
        let error = result.expect_err(&format!("{tool} {shown} must fail"));
        assert_eq!(error.code(), code, "{tool} {shown}: {error}");
        let object = error.to_object();
        assert_eq!(object["status"], "error");
        assert!(object["error"].as_str().unwrap().len() > 20);
        assert_eq!(state(&server), before, "{tool} {shown} changed the state");
    }
}

#[test]
fn limits_refuse_growth_and_change_nothing() {
    let limits = Limits {
        max_networks: 2,
        max_nodes: 3,
        max_edges: 2,
        max_attributes: 2,
        ..Limits::default()
    };
    let server = server(limits);
    let before = state(&server);
    let refused: Vec<(&str, Value)> = vec![
        (
            "network_add_nodes",
            json!({"network_name": "g", "nodes": [{"node_id": "c"}, {"node_id": "d"}]}),
        ),
        (
            "network_add_edges",
            json!({"network_name": "g", "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "a"}]}),
        ),
        (
            "network_add_edges",
            json!({"network_name": "g", "create_missing_nodes": true, "edges": [{"source": "x", "target": "y"}]}),
        ),
        (
            "network_add_node",
            json!({"network_name": "g", "node_id": "c", "attributes": {"p": 1, "q": 2, "r": 3}}),
        ),
        (
            "network_update_node",
            json!({"network_name": "g", "node_id": "a", "attributes": {"p": 1, "q": 2, "r": 3}}),
        ),
    ];
    for (tool, args) in refused {
        let error = server
            .dispatch(Call::new(tool, args.clone()))
            .unwrap()
            .expect_err(tool);
        assert_eq!(error.code(), "limit_exceeded", "{tool} {args}");
        assert!(
            error.to_string().contains("--max-"),
            "names the flag: {error}"
        );
        assert_eq!(state(&server), before);
    }
    server
        .dispatch(Call::new(
            "network_add_node",
            json!({"network_name": "g", "node_id": "c"}),
        ))
        .unwrap()
        .unwrap();
    let error = server
        .dispatch(Call::new(
            "network_add_node",
            json!({"network_name": "g", "node_id": "d"}),
        ))
        .unwrap()
        .unwrap_err();
    assert!(error.to_string().contains("--max-nodes"));
    server
        .dispatch(Call::new(
            "network_create",
            json!({"network_name": "second"}),
        ))
        .unwrap()
        .unwrap();
    let error = server
        .dispatch(Call::new(
            "network_create",
            json!({"network_name": "third"}),
        ))
        .unwrap()
        .unwrap_err();
    assert!(error.to_string().contains("--max-networks"));
    // An existing name is still a harmless duplicate at the cap.
    let dup = server
        .dispatch(Call::new(
            "network_create",
            json!({"network_name": "second"}),
        ))
        .unwrap()
        .unwrap();
    assert_eq!(dup["status"], "duplicate");
}
