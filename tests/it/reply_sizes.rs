//! Small by default: on a network the size of Debian's package graph, every
//! heavy tool's reply with default arguments stays within about 8 KB (2k
//! tokens), and a cut reply says how to get the rest. BENCHMARKS.md ("Default
//! reply sizes") records the sizes this test prints.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use serde_json::{Value, json};

use crate::common::debian_like::{debian_like, heavy_calls};

/// About 2k tokens.
const DEFAULT_REPLY_BUDGET: usize = 8 * 1024;

/// The bytes of a reply as the client receives it: the structured result, and
/// a document (an export) once more, as its own text block.
fn reply_bytes(server: &NetworksServer, network: &str, tool: &str, args: &Value) -> (usize, Value) {
    let mut args = args.clone();
    args["network_name"] = json!(network);
    let value = match server.dispatch(Call::new(tool, args)).unwrap() {
        Ok(value) => value,
        Err(error) => error.to_object(),
    };
    (value.to_string().len(), value)
}

#[test]
fn default_replies_fit_in_about_two_thousand_tokens_on_a_debian_sized_network() {
    let registry = Arc::new(NetworkRegistry::new());
    registry
        .insert("debian", debian_like(60_000, 300_000, true))
        .unwrap();
    registry
        .insert("acyclic", debian_like(60_000, 300_000, false))
        .unwrap();
    let server = NetworksServer::new(registry, ServerOptions::default());
    let mid = "python3-coretor";
    let mid = if server
        .registry()
        .read("debian", |n| Ok(n.contains_node(mid)))
        .unwrap()
    {
        mid.to_string()
    } else {
        server
            .registry()
            .read("debian", |n| {
                Ok(n.node_ids().nth(30_000).unwrap().to_string())
            })
            .unwrap()
    };
    for (tool, args) in heavy_calls(&mid) {
        for network in ["debian", "acyclic"] {
            let (bytes, value) = reply_bytes(&server, network, tool, &args);
            eprintln!("{network:8} {tool:26} {args:70} {bytes:6} bytes");
            assert!(
                bytes <= DEFAULT_REPLY_BUDGET,
                "{tool} {args} on {network}: a default reply of {bytes} bytes"
            );
            if value["truncated"] == true {
                let more = value["more"].as_str().or(value["note"].as_str());
                // An export says where the whole document is.
                assert!(
                    more.is_some(),
                    "{tool}: a cut reply says how to get more: {value}"
                );
            }
        }
    }
}
