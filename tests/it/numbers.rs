//! Numbers in JSON's terms: every integer parameter's schema states the range the
//! server enforces, an integral float is the integer it equals, and every numeric
//! error names the allowed range without Rust's type names.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions, Toolset};
use serde_json::{Value, json};

fn server() -> NetworksServer {
    // Every toolset, the opt-in ones too.
    let options = ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    server
        .dispatch(Call::new("network_create", json!({"network_name": "g"})))
        .unwrap()
        .unwrap();
    server
        .dispatch(Call::new(
            "network_add_edges",
            json!({"network_name": "g", "create_missing_nodes": true,
                   "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]}),
        ))
        .unwrap()
        .unwrap();
    server
}

/// Arguments that are valid apart from the integer under test, for the tools
/// whose other required parameters need values.
fn base(tool: &str) -> Value {
    let mut args = json!({"network_name": "g"});
    let extra = match tool {
        "network_get_neighbors" | "network_descendants" | "network_ancestors" => {
            json!({"node_id": "a"})
        }
        "network_traverse" => json!({"start_nodes": ["a"]}),
        "network_export" => json!({"format": "mermaid", "node_ids": ["a"]}),
        "network_visualize" => json!({"node_id": "a"}),
        _ => json!({}),
    };
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    args
}

fn call(server: &NetworksServer, tool: &str, field: &str, value: Value) -> Result<Value, Value> {
    let mut args = base(tool);
    args[field] = value;
    match server.dispatch(Call::new(tool, args)).unwrap() {
        Ok(ok) => Ok(ok),
        Err(error) => Err(error.to_object()),
    }
}

/// Every integer parameter of every tool, with its published bounds.
fn integer_parameters(server: &NetworksServer) -> Vec<(String, String, i64, Option<u64>)> {
    let mut found = Vec::new();
    for tool in server.listed_tools() {
        let properties = tool.input_schema["properties"].as_object().unwrap();
        for (name, property) in properties {
            if property["type"] == "integer" {
                let minimum = property["minimum"]
                    .as_i64()
                    .unwrap_or_else(|| panic!("{}.{name} states no minimum", tool.name));
                found.push((
                    tool.name.to_string(),
                    name.clone(),
                    minimum,
                    property["maximum"].as_u64(),
                ));
            }
        }
    }
    found
}

#[test]
fn every_integer_schema_states_the_range_the_server_enforces() {
    let server = server();
    let parameters = integer_parameters(&server);
    assert!(parameters.len() >= 15, "{parameters:?}");
    for (tool, field, minimum, maximum) in parameters {
        let refused = |value: Value| {
            let error = call(&server, &tool, &field, value.clone())
                .expect_err(&format!("{tool}.{field} = {value} is refused"));
            assert_eq!(
                error["code"], "invalid_value",
                "{tool}.{field} = {value}: {error}"
            );
            assert_eq!(error["field"], field.as_str(), "{tool}.{field}: {error}");
            let message = error["error"].as_str().unwrap();
            assert!(
                message.contains(&format!("from {minimum}"))
                    || message.contains(&format!("at least {minimum}")),
                "{tool}.{field}: the range is named: {message}"
            );
            for rust in ["usize", "u64", "f64", "i64"] {
                assert!(!message.contains(rust), "{tool}.{field}: {message}");
            }
        };
        let accepted = |value: Value| {
            if let Err(error) = call(&server, &tool, &field, value.clone()) {
                assert_ne!(
                    error["field"],
                    field.as_str(),
                    "{tool}.{field} = {value} is in range: {error}"
                );
            }
        };
        refused(json!(minimum - 1));
        refused(json!(minimum as f64 + 0.5));
        accepted(json!(minimum));
        accepted(json!(minimum as f64));
        match maximum {
            Some(max) => {
                refused(json!(max + 1));
                accepted(json!(max));
                accepted(json!(max as f64));
            }
            None => refused(json!(-5)),
        }
        refused(json!(18446744073709551616.0_f64));
    }
}

#[test]
fn numeric_errors_speak_json() {
    let server = server();
    let error = call(&server, "network_descendants", "limit", json!("ten")).unwrap_err();
    let message = error["error"].as_str().unwrap();
    assert!(
        message.contains("limit must be a whole number from 1 to 10000"),
        "{message}"
    );
    assert_eq!(error["code"], "invalid_arguments");
    assert!(!message.contains("usize"), "{message}");
    let error = call(&server, "network_add_edge", "weight", json!("heavy")).unwrap_err();
    let message = error["error"].as_str().unwrap();
    assert!(!message.contains("f64"), "{message}");
    // An integral float is the integer it equals.
    let ok = call(&server, "network_descendants", "limit", json!(1.0)).unwrap();
    assert_eq!(ok["nodes"].as_array().unwrap().len(), 1);
}

/// The audit's example: two ids past 2^64 that read as the same `f64`, an edge
/// between them, and values past 64 bits at both ends, in every import format.
#[test]
fn imported_integers_past_64_bits_keep_their_exact_text() {
    let (a, b, low) = (
        "18446744073709551616",
        "18446744073709551617",
        "-9223372036854775809",
    );
    let documents = [
        (
            "node_link_json",
            format!(
                r#"{{"nodes": [{{"id": {a}, "v": {low}}}, {{"id": {b}}}], "edges": [{{"source": {a}, "target": {b}, "v": {low}}}]}}"#
            ),
        ),
        ("edge_list_csv", format!("source,target,v\n{a},{b},{low}\n")),
        (
            "dot",
            format!("digraph {{ {a} [v={low}]; {a} -> {b} [v={low}] }}"),
        ),
        (
            "graphml",
            format!(
                r#"<graphml><key id="v" attr.name="v" attr.type="long"/><graph><node id="{a}"><data key="v">{low}</data></node><edge source="{a}" target="{b}"><data key="v">{low}</data></edge></graph></graphml>"#
            ),
        ),
    ];
    let server = server();
    for (format, content) in documents {
        let name = format!("big_{format}");
        let out = server
            .dispatch(Call::new(
                "network_import",
                json!({"network_name": name, "format": format, "content": content}),
            ))
            .unwrap()
            .unwrap();
        assert_eq!(
            (&out["nodes_created"], &out["edges_created"]),
            (&json!(2), &json!(1)),
            "{format}: two nodes, not one"
        );
        let edges = server
            .dispatch(Call::new(
                "network_list_edges",
                json!({"network_name": name}),
            ))
            .unwrap()
            .unwrap();
        let edge = &edges["edges"][0];
        assert_eq!(
            (&edge["source"], &edge["target"]),
            (&json!(a), &json!(b)),
            "{format}: {edges}"
        );
        assert_eq!(edge["attributes"]["v"], json!(low), "{format}: {edges}");
    }
}
