//! The tool list is read by a model on every turn, so its size is a budget. What a
//! host sends the model is each listed tool's name, description and input schema,
//! plus the server's instructions: that is what is measured here. A session starts
//! with the small list of `network_toolsets::START`; with every toolset on it is the
//! whole list. BENCHMARKS.md ("The tool list") records the bytes.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{
    NetworksServer, SHARED_PARAMETERS, ServerOptions, Toolset, UNLISTED_PARAMETERS,
};
use rmcp::model::Tool;
use serde_json::{Value, json};

/// A session's start: the tools listed before any toolset is turned on, and the
/// instructions. KB as the figures beside it count them: 1,000 bytes.
const START_BUDGET: usize = 8_000;
/// Every tool listed, and the instructions.
const ALL_BUDGET: usize = 32_000;
/// The whole `tools/list` result with every tool, output schemas included (most
/// hosts do not send those to the model; programs read them).
const WHOLE_LIST_BUDGET: usize = 64 * 1024;

/// Parameters whose names say all there is to say. Every other parameter has a
/// description in its schema, or is one of the shared parameters the instructions
/// explain once.
const SELF_EXPLAINING: [&str; 8] = [
    "network_name",
    "node_id",
    "source",
    "target",
    "description",
    "query",
    "format",
    "node_ids",
];

/// Name, description and input schema of each tool, as compact JSON.
fn model_read(tools: &[Tool]) -> usize {
    tools
        .iter()
        .map(|tool| {
            serde_json::to_string(&json!({
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.input_schema,
            }))
            .unwrap()
            .len()
        })
        .sum()
}

fn server(options: ServerOptions) -> NetworksServer {
    NetworksServer::new(Arc::new(NetworkRegistry::new()), options)
}

#[test]
fn a_sessions_start_fits_its_budget() {
    let server = server(ServerOptions::default());
    let tools = server.session_tools();
    let read = model_read(&tools) + server.instructions().len();
    eprintln!(
        "start: {} tools, {read} bytes read by a model ({} of instructions)",
        tools.len(),
        server.instructions().len()
    );
    assert!(
        read <= START_BUDGET,
        "a session's start is {read} bytes, over its budget of {START_BUDGET}: say shared things once, in the instructions"
    );
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    assert!(names.contains(&"network_toolsets"), "{names:?}");
    assert!(names.contains(&"network_add_edge"), "{names:?}");
}

#[test]
fn every_tool_on_fits_its_budget() {
    for switchable in [true, false] {
        let server = server(ServerOptions {
            switchable,
            ..ServerOptions::default()
        });
        let tools = server.listed_tools();
        let read = model_read(tools) + server.instructions().len();
        let whole = serde_json::to_string(&json!({ "tools": tools }))
            .unwrap()
            .len();
        eprintln!(
            "every toolset (switchable: {switchable}): {} tools, {read} bytes read by a model, {whole} bytes of tools/list",
            tools.len()
        );
        assert!(
            read <= ALL_BUDGET,
            "every tool is {read} bytes, over its budget of {ALL_BUDGET}"
        );
        assert!(
            whole <= WHOLE_LIST_BUDGET,
            "tools/list is {whole} bytes, over its budget of {WHOLE_LIST_BUDGET}"
        );
    }
}

#[test]
fn each_toolsets_share_is_printed_for_the_benchmarks() {
    for set in Toolset::ALL {
        let server = server(ServerOptions {
            toolsets: [set].into_iter().collect(),
            switchable: false,
            ..ServerOptions::default()
        });
        let tools = server.listed_tools();
        assert!(!tools.is_empty(), "{set:?} has no tools");
        eprintln!(
            "{}: {} tools, {} bytes read by a model",
            set.name(),
            tools.len(),
            model_read(tools)
        );
    }
}

/// The properties of an input schema, with those of its definitions (batch items).
fn parameters(schema: &serde_json::Map<String, Value>) -> Vec<(String, Value)> {
    let mut found: Vec<(String, Value)> = Vec::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        found.extend(properties.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        for def in defs.values() {
            if let Some(Value::Object(properties)) = def.get("properties") {
                found.extend(properties.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
        }
    }
    found
}

#[test]
fn every_parameter_is_described_once() {
    let server = server(ServerOptions::default());
    let instructions = server.instructions();
    let mut undescribed = Vec::new();
    for tool in server.listed_tools() {
        for (name, schema) in parameters(&tool.input_schema) {
            let described = schema.get("description").is_some();
            let shared = SHARED_PARAMETERS.contains(&name.as_str());
            if shared && described {
                undescribed.push(format!(
                    "{}.{name}: shared, so its description belongs in the instructions only",
                    tool.name
                ));
            }
            if !described && !shared && !SELF_EXPLAINING.contains(&name.as_str()) {
                undescribed.push(format!("{}.{name}: no description", tool.name));
            }
            assert!(
                !UNLISTED_PARAMETERS.contains(&name.as_str()),
                "{}.{name} is listed in the schema; attribute names are said once, in the instructions",
                tool.name
            );
        }
    }
    assert!(undescribed.is_empty(), "{undescribed:#?}");
    for name in SHARED_PARAMETERS.iter().chain(&UNLISTED_PARAMETERS) {
        assert!(
            instructions.contains(name),
            "the instructions do not explain {name}"
        );
    }
}
