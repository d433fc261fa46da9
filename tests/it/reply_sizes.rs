//! Small by default: on a network the size of Debian's package graph, every
//! read tool's reply with default arguments stays within 8 KB (about 2k
//! tokens), measured as the client receives it, and a cut reply says how to
//! get the rest. BENCHMARKS.md ("Default reply sizes") records the sizes this
//! test prints.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{Call, NetworksServer};
use serde_json::{Value, json};

use crate::common::debian_like::{debian_like, heavy_calls};
use crate::common::every_toolset;

/// About 2k tokens.
const DEFAULT_REPLY_BUDGET: usize = 8 * 1024;

/// The bytes of a reply as the client receives it: the JSON-RPC response
/// around the whole `CallToolResult` (`structuredContent`, its JSON again as the
/// first text block, and an export's document as an embedded resource); and
/// the structured result.
fn reply_bytes(server: &NetworksServer, network: &str, tool: &str, args: &Value) -> (usize, Value) {
    let mut args = args.clone();
    if tool != "network_list" {
        args["network_name"] = json!(network);
    }
    let result = server.call_result(Call::new(tool, args)).unwrap();
    let structured = result.structured_content.clone().unwrap_or(Value::Null);
    let wire = json!({"jsonrpc": "2.0", "id": 1, "result": result});
    (wire.to_string().len(), structured)
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
    let server = NetworksServer::new(registry, every_toolset());
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
    let mut over = Vec::new();
    for (network, other) in [("debian", "acyclic"), ("acyclic", "debian")] {
        for (tool, args) in heavy_calls(&mid, other) {
            let (bytes, value) = reply_bytes(&server, network, tool, &args);
            eprintln!("{network:8} {tool:26} {args:70} {bytes:6} bytes");
            if bytes > DEFAULT_REPLY_BUDGET {
                over.push(format!("{tool} {args} on {network}: {bytes} bytes"));
            }
            // A cycle is the one refusal a default call may meet here.
            if value["status"] == "error" && value["code"] != "cycle_detected" {
                over.push(format!("{tool} {args} on {network}: {value}"));
            }
            if value["truncated"] == true {
                let more = value["more"].as_str().or(value["note"].as_str());
                assert!(
                    more.is_some(),
                    "{tool}: a cut reply says how to get more: {value}"
                );
            }
        }
    }
    assert!(
        over.is_empty(),
        "default replies over 8 KB, or failed:\n{}",
        over.join("\n")
    );
}
