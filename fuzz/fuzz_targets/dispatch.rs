//! Fuzzes argument decoding and the registry operations: the input is split into
//! lines, each `<tool index> <JSON arguments>` (or raw bytes that are not JSON),
//! and every line goes through the MCP dispatch chokepoint. Invariants: no panic
//! escapes (a caught panic is an `internal` error, which is a bug: we fail on it),
//! every failure is an error object with a known code, and a failed call changes
//! nothing.

#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use serde_json::{Value, json};

fn fingerprint(server: &NetworksServer) -> Vec<(String, usize, usize)> {
    server
        .registry()
        .list()
        .into_iter()
        .map(|s| (s.name, s.nodes, s.edges))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let tools: Vec<String> = server
        .listed_tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    // A little state so that calls have something to hit.
    let _ = server.dispatch(Call::new("network_create", json!({"network_name": "g"})));
    let _ = server.dispatch(Call::new("network_add_edges", json!({"network_name": "g", "create_missing_nodes": true, "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "a", "weight": -1}]})));
    for line in data.split(|b| *b == b'\n').take(64) {
        let (head, rest) = match line.iter().position(|b| *b == b' ') {
            Some(i) => (&line[..i], &line[i + 1..]),
            None => (line, &[][..]),
        };
        let index = head
            .iter()
            .fold(0usize, |a, b| a.wrapping_mul(31).wrapping_add(*b as usize));
        let tool = &tools[index % tools.len()];
        let arguments: Value = match serde_json::from_slice(rest) {
            Ok(value) => value,
            Err(_) => Value::String(String::from_utf8_lossy(rest).into_owned()),
        };
        let before = fingerprint(&server);
        match server.dispatch(Call::new(tool, arguments)) {
            None => panic!("listed tool {tool} not dispatched"),
            Some(Ok(_)) => {}
            Some(Err(error)) => {
                assert_ne!(error.code(), "internal", "{tool}: {error}");
                let object = error.to_object();
                assert_eq!(object["status"], "error");
                assert_eq!(
                    fingerprint(&server),
                    before,
                    "{tool} failed but changed state"
                );
            }
        }
    }
});
