//! The hostile-input table of `specs/security.md`, driven over the MCP wire against
//! the built binary: every row gets a reply (a tool error object, a JSON-RPC error,
//! or a bounded answer), the state of the server is unchanged, and the process keeps
//! serving. One process serves the whole table, so a row that kills it fails every
//! row after it.

use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::stdio::StdioServer;

/// The server on stdio, its stderr in a file (a hostile row's log lines are long).
fn spawn() -> StdioServer {
    let log = std::env::temp_dir().join(format!("networks-mcp-hostile-{}.log", std::process::id()));
    let stderr = std::fs::File::create(log)
        .map(Stdio::from)
        .unwrap_or_else(|_| Stdio::null());
    StdioServer::start(&[], stderr)
}

/// A tool call that must succeed; its structured result.
fn ok(wire: &mut StdioServer, tool: &str, arguments: Value) -> Value {
    let (reply, _) = wire
        .request_frame(
            json!({"method": "tools/call", "params": {"name": tool, "arguments": arguments}}),
        )
        .unwrap_or_else(|_| panic!("the server closed stdout before answering {tool}"));
    let result = &reply["result"];
    assert!(
        result.is_object(),
        "{tool}: not a tool result: {reply:.300}"
    );
    let is_error = result["isError"].as_bool().unwrap_or(false);
    let content = result["structuredContent"].clone();
    assert!(!is_error, "{tool} {arguments:.200} failed: {content}");
    content
}

/// Everything a row could have changed, small enough to compare after each row.
fn state(wire: &mut StdioServer) -> Value {
    let list = ok(wire, "network_list", json!({}));
    let g = ok(
        wire,
        "network_export",
        json!({"network_name": "g", "format": "node_link_json"}),
    );
    json!([list, g])
}

/// What a hostile row must get back.
enum Expect {
    /// A tool error object with this code.
    ToolError(&'static str),
    /// A JSON-RPC error with this code (id null when the id could not be read).
    RpcError(i64),
    /// Any tool answer, success or error, whose reply line is at most this many bytes.
    Bounded(usize),
}

fn tool_frame(tool: &str, arguments: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
        .to_string()
        .into_bytes()
}

fn nested(depth: usize) -> Value {
    (0..depth).fold(json!(1), |inner, _| json!([inner]))
}

fn rows() -> Vec<(&'static str, Vec<u8>, Value, Expect)> {
    let id7 = json!(7);
    let deep_dot = format!(
        "digraph {{\n// c\r{}a{}\n}}\n",
        "subgraph{".repeat(50_000),
        "}".repeat(50_000)
    );
    let wide_csv = {
        let header: Vec<String> = (0..40_000).map(|i| format!("c{i}")).collect();
        format!("source,target,{}\na,b\n", header.join(","))
    };
    let fan = |p: &str| {
        (0..3000)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let expansion = format!("digraph {{ {{{}}} -> {{{}}} }}", fan("a"), fan("b"));
    let mut invalid_utf8 = br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"network_add_node","arguments":{"network_name":"g","node_id":"x"#.to_vec();
    invalid_utf8.extend_from_slice(b"\xff\"}}}");
    let long_line = {
        let mut line = br#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"network_add_node","arguments":{"network_name":"g","node_id":"big","data":""#.to_vec();
        line.extend(std::iter::repeat_n(b'x', 40 << 20));
        line.extend_from_slice(b"\"}}}");
        line
    };
    vec![
        (
            "DOT: nesting hidden behind a comment that ends at a lone CR",
            tool_frame("network_import", json!({"network_name": "d1", "format": "dot", "content": deep_dot})),
            id7.clone(),
            Expect::ToolError("invalid_import"),
        ),
        (
            "data nested one level past MAX_VALUE_DEPTH",
            tool_frame("network_add_node", json!({"network_name": "g", "node_id": "deep", "data": nested(65)})),
            id7.clone(),
            Expect::ToolError("invalid_value"),
        ),
        (
            "node-link import whose data is nested past the limit",
            tool_frame("network_import", json!({"network_name": "d2", "format": "node_link_json", "content": json!({"directed": true, "nodes": [{"id": "n", "data": nested(70)}], "edges": []}).to_string()})),
            id7.clone(),
            Expect::ToolError("invalid_batch_item"),
        ),
        (
            "CSV header of 40,000 columns",
            tool_frame("network_import", json!({"network_name": "d3", "format": "edge_list_csv", "content": wide_csv})),
            id7.clone(),
            Expect::Bounded(16 << 10),
        ),
        (
            "DOT subgraph product of 3,000 x 3,000 edges",
            tool_frame("network_import", json!({"network_name": "d4", "format": "dot", "content": expansion})),
            id7.clone(),
            Expect::ToolError("limit_exceeded"),
        ),
        (
            "a byte that is not UTF-8",
            invalid_utf8,
            json!(9),
            Expect::RpcError(-32700),
        ),
        // The id comes before the cut, so the error is addressed to it.
        ("a line of 40 MiB", long_line, json!(10), Expect::RpcError(-32600)),
        (
            "an object as the request id",
            br#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#.to_vec(),
            Value::Null,
            Expect::RpcError(-32600),
        ),
        (
            "null as the request id",
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#.to_vec(),
            Value::Null,
            Expect::RpcError(-32600),
        ),
        (
            "tools/call with array arguments",
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"network_add_node","arguments":["g","x"]}}"#.to_vec(),
            id7.clone(),
            Expect::RpcError(-32602),
        ),
        (
            "tools/call with string arguments",
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"network_add_node","arguments":"g"}}"#.to_vec(),
            id7.clone(),
            Expect::RpcError(-32602),
        ),
        (
            "an unknown tool name of 1 MiB (echoed, and looked up for suggestions)",
            tool_frame(&format!("network_add_nod{}", "e".repeat(1 << 20)), json!({})),
            id7.clone(),
            Expect::RpcError(-32602),
        ),
        (
            "a 1 MiB node id in a lookup",
            tool_frame("network_get_neighbors", json!({"network_name": "g", "node_id": "q".repeat(1 << 20)})),
            id7.clone(),
            Expect::Bounded(16 << 10),
        ),
        (
            "topological sort of a 50,000-node cycle with limit 5",
            tool_frame("network_topological_sort", json!({"network_name": "ring", "limit": 5})),
            id7.clone(),
            Expect::ToolError("cycle_detected"),
        ),
        (
            "a path whose length overflows f64",
            tool_frame("network_shortest_path", json!({"network_name": "g", "source": "a", "target": "c"})),
            id7.clone(),
            Expect::ToolError("weight_overflow"),
        ),
    ]
}

#[test]
fn every_hostile_row_gets_a_bounded_reply_and_the_server_keeps_serving() {
    let mut wire = spawn();
    ok(&mut wire, "network_create", json!({"network_name": "g"}));
    for id in ["a", "b", "c"] {
        ok(
            &mut wire,
            "network_add_node",
            json!({"network_name": "g", "node_id": id}),
        );
    }
    ok(
        &mut wire,
        "network_add_edge",
        json!({"network_name": "g", "source": "a", "target": "b", "weight": 1.7e308}),
    );
    ok(
        &mut wire,
        "network_add_edge",
        json!({"network_name": "g", "source": "b", "target": "c", "weight": 1.7e308}),
    );
    let ring: String = (0..50_000)
        .map(|i| format!("n{i},n{}\n", (i + 1) % 50_000))
        .collect();
    ok(
        &mut wire,
        "network_import",
        json!({"network_name": "ring", "format": "edge_list_csv", "content": format!("source,target\n{ring}")}),
    );
    let before = state(&mut wire);

    let mut failures = Vec::new();
    for (label, line, id, expect) in rows() {
        wire.send(&line);
        let (reply, size) = wire.reply_to(&id).unwrap_or_else(|_| {
            panic!(
                "{label}: the server closed stdout (exit: {:?})",
                wire.child.try_wait()
            )
        });
        let answered = match expect {
            Expect::ToolError(code) => {
                let content = &reply["result"]["structuredContent"];
                reply["result"]["isError"] == true
                    && content["status"] == "error"
                    && content["code"] == code
            }
            Expect::RpcError(code) => reply["error"]["code"] == code,
            Expect::Bounded(_) => reply["result"].is_object(),
        };
        if !answered {
            failures.push(format!("{label}: unexpected reply {reply:.400}"));
        }
        let bound = match expect {
            Expect::Bounded(bytes) => bytes,
            _ => 16 << 10,
        };
        if size > bound {
            failures.push(format!("{label}: a reply of {size} bytes (bound {bound})"));
        }
        if state(&mut wire) != before {
            failures.push(format!("{label}: the state changed"));
        }
        let ping = wire.request("ping", json!({}));
        assert!(
            ping.as_ref().is_some_and(|p| p.get("result").is_some()),
            "{label}: no longer serving: {ping:?}"
        );
    }
    assert!(
        wire.child.try_wait().unwrap().is_none(),
        "the server exited"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
