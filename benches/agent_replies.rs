//! What an agent pays per call on a Debian-sized network: the size of each heavy
//! tool's default reply, and the time of a neighbourhood export as the network
//! grows (it should not grow: the cost follows the neighbourhood). Plain timing,
//! printed as a table for BENCHMARKS.md:
//!
//! `cargo bench --bench agent_replies`

use std::sync::Arc;
use std::time::Instant;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use serde_json::{Value, json};

#[path = "../tests/it/common/debian_like.rs"]
mod debian_like;
use debian_like::{debian_like, heavy_calls};

fn call(server: &NetworksServer, tool: &str, args: Value) -> Value {
    match server.dispatch(Call::new(tool, args)).expect("a tool") {
        Ok(value) => value,
        Err(error) => error.to_object(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let registry = Arc::new(NetworkRegistry::new());
    registry
        .insert("debian", debian_like(60_000, 300_000, true))
        .unwrap();
    let server = NetworksServer::new(Arc::clone(&registry), ServerOptions::default());
    let tools = server.listed_tools();
    let whole = json!({ "tools": tools }).to_string().len();
    let read: usize = tools
        .iter()
        .map(|t| {
            json!({"name": t.name, "description": t.description, "input_schema": t.input_schema})
                .to_string()
                .len()
        })
        .sum();
    println!(
        "tools/list: {} tools, {whole} bytes; names, descriptions and input schemas {read} bytes",
        tools.len()
    );

    let mid = registry
        .read("debian", |n| {
            Ok(n.node_ids().nth(30_000).unwrap().to_string())
        })
        .unwrap();
    println!("\n| call (default arguments) | reply bytes |\n|---|---:|");
    let calls = heavy_calls(&mid, "debian");
    for (tool, args) in calls {
        let mut full = args.clone();
        full["network_name"] = json!("debian");
        let bytes = call(&server, tool, full).to_string().len();
        println!("| `{tool}` {args} | {bytes} |");
    }

    println!(
        "\n| nodes / edges | neighbourhood export (depth 1, mermaid) | per call |\n|---|---|---:|"
    );
    for scale in [1usize, 10] {
        let name = format!("x{scale}");
        registry
            .insert(&name, debian_like(60_000 * scale, 300_000 * scale, true))
            .unwrap();
        let node = registry
            .read(&name, |n| Ok(n.node_ids().nth(40_000).unwrap().to_string()))
            .unwrap();
        let args =
            json!({"network_name": name, "format": "mermaid", "node_ids": [node], "depth": 1});
        let out = call(&server, "network_export", args.clone());
        let rounds = 2_000;
        let started = Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(call(&server, "network_export", args.clone()));
        }
        let per_call = started.elapsed() / rounds;
        println!(
            "| {} / {} | {} nodes, {} edges | {per_call:?} |",
            60_000 * scale,
            300_000 * scale,
            out["node_count"],
            out["edge_count"]
        );
    }
}
